#!/bin/sh
# compare-openssl-speed.sh: cryptobench's stream mode against `openssl speed
# -evp`, measured alternately (one after the other, PAIRS times) on the same
# cell, at 16 B, 64 B, 256 B, 1 KiB and 16 KiB, one thread.
#
#   tests/bench/compare-openssl-speed.sh [PAIRS] [ALGORITHM...]
#
# ALGORITHMs default to aes-128-cbc (encrypt) and sha256 (hash): the ones
# whose `openssl speed -evp` loop is the same update call cryptobench's stream
# mode times. Prints the median of PAIRS (default 5) for each side, in MB/s
# (10^6 bytes/s) and ns per call, and their ratio. A benchmark, not a test:
# it asserts nothing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
pairs=${1:-5}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- aes-128-cbc sha256
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-12s %6s  %14s %14s  %9s %9s  %s\n' algorithm size "speed MB/s" "stream MB/s" "speed ns" "stream ns" "stream/speed"
for alg in "$@"; do
	case $alg in
	sha* | md5 | blake*) op=hash ;;
	*) op=encrypt ;;
	esac
	for size in 16 64 256 1024 16384; do
		rm -f "$work/speed" "$work/stream"
		for i in $(seq 1 "$pairs"); do
			# openssl speed reports thousands of bytes per second.
			openssl speed -evp "$alg" -bytes "$size" -seconds 1 2>/dev/null |
				awk -v a="$alg" 'tolower($1) == a { v = $NF; sub(/k$/, "", v); print v / 1000 }' >>"$work/speed"
			"$cb" run "$top/tests/bench/openssl-speed.lua" --set "algorithm=$alg" --set "op=$op" \
				--set "size=$size" --set message=0 --set rounds=10 \
				-o "$work/run.jsonl" --no-progress 2>/dev/null
			"$cb" report --format csv "$work/run.jsonl" |
				awk -F, '$2 == "openssl-stream" { print $10 }' >>"$work/stream"
		done
		s=$(median <"$work/speed")
		t=$(median <"$work/stream")
		awk -v alg="$alg" -v size="$size" -v s="$s" -v t="$t" 'BEGIN {
			printf "%-12s %6d  %14.1f %14.1f  %9.2f %9.2f  %.3f (%+.1f%%)\n",
			       alg, size, s, t, size * 1000 / s, size * 1000 / t, t / s, (t / s - 1) * 100 }'
	done
done
