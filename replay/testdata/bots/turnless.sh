#!/bin/sh
# A JSON bot that stays ("D"). It answers turn 1 without the turn, then
# with it, and from turn 2 on prints turn-less answers to go ("G") after
# its answer and, from turn 3 on, right after reading the request too.
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	if [ "$turn" = 1 ]; then
		echo '{"command":"D"}'
		continue
	fi
	[ "$turn" -gt 2 ] && echo '{"command":"G"}'
	echo "{\"turn\":$turn,\"command\":\"D\"}"
	echo '{"command":"G"}'
done
