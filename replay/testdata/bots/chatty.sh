#!/bin/sh
# A bot that prints hundreds of debug lines on stdout every turn and stays
# ("D"). With "json" it answers in the JSON form, after debug lines from
# turn 2 on (until its first JSON answer, a line of a bot is its answer);
# else it answers in plain text first, then chatters.
mode=$1
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	if [ "$mode" = json ]; then
		i=0
		while [ $turn -gt 1 ] && [ $i -lt 300 ]; do echo "thinking $turn.$i"; i=$((i + 1)); done
		echo "{\"turn\":$turn,\"command\":\"D\"}"
	else
		echo D
	fi
	i=0
	while [ $i -lt 300 ]; do echo "debug $turn.$i"; i=$((i + 1)); done
done
