#!/bin/sh
# A JSON bot that stays ("D"). After each answer it prints 100 lines of
# 100 bytes on stdout and on stderr, and as many again once its input ends,
# so that its last turn's output is past the bound of a turn. With
# "binary" its lines are not UTF-8.
line=$(printf '%099d' 0)
[ "$1" = binary ] && line=$(printf '\377a%.0s' $(seq 49))x
chatter() {
	i=0
	while [ $i -lt 100 ]; do
		echo "$line"
		echo "$line" >&2
		i=$((i + 1))
	done
}
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	echo "{\"turn\":$turn,\"command\":\"D\"}"
	chatter
done
chatter
