#!/bin/sh
# A bot that answers in the JSON form and stays ("D"), but answers turn 3
# after $1 seconds and then floods stdout and stderr with 50000 lines each.
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	if [ "$turn" = 3 ]; then
		sleep "$1"
		echo "{\"turn\":3,\"command\":\"D\"}"
		yes flood | head -n 50000
		yes flood | head -n 50000 >&2
	else
		echo "{\"turn\":$turn,\"command\":\"D\"}"
	fi
done
