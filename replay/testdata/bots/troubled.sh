#!/bin/sh
# A bot that goes wrong in each way a match notes: it answers $1 on turn
# 1, text no game takes on turn 2, too late on turn 3 (it sleeps $2
# seconds first), and on turn 4 it writes to stderr and exits.
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	case $turn in
	2) echo '!?' ;;
	3) sleep "$2"; echo "$1" ;;
	4) echo "giving up at turn 4" >&2; exit 3 ;;
	*) echo "$1" ;;
	esac
done
