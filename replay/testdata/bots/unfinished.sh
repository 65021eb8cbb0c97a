#!/bin/sh
# A plain-text bot that stays ("D") and leaves a debug line unfinished
# after each answer, to finish it once it has read the next request,
# before its answer.
rest=
while read -r req; do
	printf "${rest}D\nhalf a "
	rest='line\n'
done
