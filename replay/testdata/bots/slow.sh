#!/bin/sh
# A bot that sleeps $1 seconds after it reads each request, then answers
# "D": every answer it gives takes at least that long.
while read -r req; do
	sleep "$1"
	echo D
done
