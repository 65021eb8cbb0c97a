#!/bin/sh
# A JSON bot whose answers go wrong: broken JSON on turn 2, a null command
# on turn 3 (no command), a number for a command on turn 4, a JSON debug
# object without a command on turn 5 before its answer; "D" otherwise.
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	case $turn in
	2) echo "{\"turn\":2,\"command\":\"D\"" ;;
	3) echo "{\"turn\":3,\"command\":null}" ;;
	4) echo "{\"turn\":4,\"command\":5}" ;;
	5) echo "{\"debug\":\"thinking\"}"; echo "{\"turn\":5,\"command\":\"D\"}" ;;
	*) echo "{\"turn\":$turn,\"command\":\"D\"}" ;;
	esac
done
