#!/bin/bash
# pair.sh OUT DIR [N1 N3 N100 N1200]: the paired whole-process runs of
# docs/architecture.md ("FoodFight's speed against the original"). OUT is
# the original's build (the javac output directory of Regen.java, see its
# first lines), DIR the 60 matches of matches.sh. replaylab and java must be
# on PATH. Times are bash's own (getrusage of the child, to the ms).
#
# For each size (1, 3, 100 and 1,200 matches a process) it runs the
# original's Regen and `replaylab verify` in turn, N times each (default
# 10, 10, 5 and 3), and prints the medians of each side's CPU (user +
# system, all threads) and wall seconds and the medians of the pairs'
# ratios original / replaylab; a count of 0 skips its size. Nothing else
# should run on the machine.
set -e
out=${1:?usage: pair.sh OUT DIR [N1 N3 N100 N1200]}
dir=${2:?usage: pair.sh OUT DIR [N1 N3 N100 N1200]}
n1=${3:-10} n3=${4:-10} n100=${5:-5} n1200=${6:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rlogs=$(ls "$dir"/*.rlog | tr '\n' ' ')
rpls=$(ls "$dir"/*.rpl | tr '\n' ' ')
first40() { ls "$dir"/*."$1" | head -40 | tr '\n' ' '; }

# timed FILE CMD...: appends "cpu wall" of one run of CMD to FILE.
timed() {
	local f=$1 TIMEFORMAT='%3U %3S %3R'
	shift
	{ time "$@" >/dev/null 2>&1; } 2>"$tmp/t"
	awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$tmp/t" >>"$f"
}

# size NAME N ORIGINAL-ARGS -- REPLAYLAB-ARGS: N pairs, then the medians.
size() {
	name=$1 n=$2
	shift 2
	[ "$n" -gt 0 ] || return 0
	orig="" ours=""
	while [ "$1" != "--" ]; do orig="$orig $1"; shift; done
	shift
	ours="$*"
	: >"$tmp/o"
	: >"$tmp/r"
	for _ in $(seq "$n"); do
		# shellcheck disable=SC2086 # the argument lists are split on purpose
		timed "$tmp/o" java $orig
		# shellcheck disable=SC2086
		timed "$tmp/r" replaylab verify $ours
	done
	paste -d' ' "$tmp/o" "$tmp/r" | awk -v name="$name" '
		function median(a, n,   i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
			return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
		}
		{ oc[NR] = $1; ow[NR] = $2; rc[NR] = $3; rw[NR] = $4
		  qc[NR] = $3 > 0 ? $1 / $3 : 0; qw[NR] = $4 > 0 ? $2 / $4 : 0 }
		END { printf "%-13s original cpu %7.3f s wall %7.3f s | replaylab cpu %6.3f s wall %6.3f s | ratio cpu %5.1fx wall %5.1fx (%d pairs)\n",
			name, median(oc, NR), median(ow, NR), median(rc, NR), median(rw, NR), median(qc, NR), median(qw, NR), NR }'
}

uptime
size "1 match" "$n1" -cp "$out" Regen "$dir/ffa1.rlog" -- "$dir/ffa1.rpl"
size "3 matches" "$n3" -cp "$out" Regen "$dir/duel1.rlog" "$dir/ffa1.rlog" "$dir/team1.rlog" -- "$dir/duel1.rpl" "$dir/ffa1.rpl" "$dir/team1.rpl"
# shellcheck disable=SC2046
size "100 matches" "$n100" -cp "$out" Regen $rlogs $(first40 rlog) -- $rpls $(first40 rpl)
# shellcheck disable=SC2046
size "1200 matches" "$n1200" -Dreps=20 -cp "$out" Regen $rlogs -- $(for _ in $(seq 20); do echo "$rpls"; done)
uptime
