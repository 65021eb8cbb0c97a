#!/bin/sh
# matches.sh DIR: records the 60 FoodFight matches of the README's speed
# comparison into DIR, each as .rpl (for replaylab verify) and as .rlog (for
# Regen.java): seeds 1 to 20, a DUEL, a FREE_FOR_ALL and a TEAM match each,
# the built-in bots taking the seats in turn. Needs replaylab on PATH.
set -e
dir=${1:?usage: matches.sh DIR}
mkdir -p "$dir"
bot() { echo "builtin:$(echo thrower random hider walls dummy | cut -d' ' -f$(($1 % 5 + 1)))"; }
for s in $(seq 1 20); do
	a=$(bot "$s") b=$(bot $((s + 1))) c=$(bot $((s + 2))) d=$(bot $((s + 3)))
	for ext in rpl rlog; do
		replaylab record --game foodfight --seed "$s" --players 2 --bot "$a" --bot "$b" -o "$dir/duel$s.$ext" 2>/dev/null
		replaylab record --game foodfight --seed "$s" --players 3 --bot "$a" --bot "$b" --bot "$c" -o "$dir/ffa$s.$ext" 2>/dev/null
		replaylab record --game foodfight --seed "$s" --players 4 --bot "$a" --bot "$b" --bot "$c" --bot "$d" -o "$dir/team$s.$ext" 2>/dev/null
	done
done
