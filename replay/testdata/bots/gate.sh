#!/bin/sh
# A bot that, on its first request, appends its pid to the file pids in
# the directory $1 and waits until the file go is there before it
# answers; then it answers "nothing" every turn and ends with its input.
# A test holds a match at its first turn with it (to kill the program
# playing it) and then lets it go. The directory, not a file, is its
# argument, so its fingerprint stays the same.
first=1
while read -r req; do
	if [ $first = 1 ]; then
		echo $$ >>"$1/pids"
		while [ ! -e "$1/go" ]; do sleep 0.05; done
		first=0
	fi
	echo nothing
done
