#!/bin/sh
# A River Toad solver on stdin and stdout: it reads the input to its end,
# checks the count line, and prints the plan it finds in the file $1 (the
# test's stand-in for a search), then the final HP and board lines as the
# course's output has them. $2 picks a misbehaviour.
read -r n
lines=0
while read -r roll; do lines=$((lines + 1)); done
test "$lines" = "$n" || { echo "got $lines rolls, want $n" >&2; exit 2; }
case "$2" in
chatter) echo "solving $n rolls" >&2 ;;
slow) sleep 600 ;;
flood) head -c 3000000 /dev/zero | tr '\0' x >&2 ;;
short) head -c 3 "$1"; echo; exit 0 ;;
crash) head -c 3 "$1"; echo; exit 1 ;;
child) sleep 600 & echo $! > "$3" ;;
esac
cat "$1"
echo
echo 7
echo "#     #"
