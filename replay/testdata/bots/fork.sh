#!/bin/sh
# A bot that starts a child holding its output pipes, writes the child's pid
# to the file $1 and stays ("D"). With "die" it exits at turn 4, leaving the
# child behind.
sleep 1000 &
echo $! >"$1"
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	[ "$2" = die ] && [ "$turn" = 4 ] && exit 1
	echo D
done
