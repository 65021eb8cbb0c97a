#!/bin/sh
# A bot that writes $1 bytes to stderr every turn before it stays ("D").
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	echo "turn $turn starts" >&2
	head -c "$1" /dev/zero | tr '\0' e >&2
	echo "turn $turn ends" >&2
	echo D
done
