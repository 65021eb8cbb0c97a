#!/bin/sh
# A bot that writes its pid to the file $1, ignores SIGTERM, stays ("D")
# every turn and keeps running once its input ends. With "mute" it never
# answers.
trap '' TERM
echo $$ >"$1"
while read -r req; do
	[ "$2" = mute ] || echo D
done
while :; do sleep 1; done
