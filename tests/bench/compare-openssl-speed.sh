#!/bin/sh
# compare-openssl-speed.sh: cryptobench against `openssl speed`, measured
# alternately, one after the other, on the same cell (aes-128-cbc encrypt,
# 16 KiB messages, one thread).
#
#   tests/bench/compare-openssl-speed.sh [PAIRS] [ALGORITHM]
#
# Prints each pair's figures and the medians, in MB/s (10^6 bytes/s). A
# benchmark, not a test: it asserts nothing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
pairs=${1:-5}
alg=${2:-aes-128-cbc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "pair  openssl-speed  cryptobench-stream  cryptobench-message   (MB/s, $alg encrypt, 16 KiB)"
for i in $(seq 1 "$pairs"); do
	# openssl speed reports thousands of bytes per second for 16384-byte blocks.
	speed=$(openssl speed -evp "$alg" -bytes 16384 -elapsed -seconds 2 2>/dev/null |
		awk -v a="$alg" 'tolower($1) == a { v = $NF; sub(/k$/, "", v); print v / 1000 }')
	"$cb" run "$top/tests/bench/openssl-speed.lua" --set "algorithm=$alg" --set rounds=20 \
		-o "$work/run-$i.jsonl" --no-progress 2>/dev/null
	stream=$("$cb" report --format csv "$work/run-$i.jsonl" | awk -F, '$2 == "openssl-stream" { print $10 }')
	message=$("$cb" report --format csv "$work/run-$i.jsonl" | awk -F, '$2 == "openssl" { print $10 }')
	printf '%4d  %13.1f  %18.1f  %19.1f\n' "$i" "$speed" "$stream" "$message"
	echo "$speed" >>"$work/speed"
	echo "$stream" >>"$work/stream"
	echo "$message" >>"$work/message"
done
s=$(median <"$work/speed")
t=$(median <"$work/stream")
m=$(median <"$work/message")
printf 'median %11.1f  %18.1f  %19.1f\n' "$s" "$t" "$m"
awk -v s="$s" -v t="$t" -v m="$m" 'BEGIN { printf "cryptobench stream / openssl speed = %.3f (%+.1f%%); message / speed = %.3f\n", t / s, (t / s - 1) * 100, m / s }'
