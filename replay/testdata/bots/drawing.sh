#!/bin/sh
# A JSON bot that stays ("D") and, unless $1 is "plain", draws on the
# board with each answer: a mark on a river column that moves turn by
# turn, a line and a text, and from turn 2 on also a circle with a
# radius of 0, which is dropped with a note.
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	if [ "$1" = plain ]; then
		echo "{\"turn\":$turn,\"command\":\"D\"}"
		continue
	fi
	bad=''
	[ "$turn" -gt 1 ] && bad=',{"circle":[1,1,0]}'
	echo "{\"turn\":$turn,\"command\":\"D\",\"debug\":[{\"mark\":[$((turn % 5 + 1)),1]},{\"line\":[0,0,2,3],\"color\":\"RED\"},{\"text\":\"t$turn\",\"at\":[1,2]}$bad]}"
done
