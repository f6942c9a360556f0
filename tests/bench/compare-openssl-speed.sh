#!/bin/sh
# compare-openssl-speed.sh: cryptobench against `openssl speed -evp`, measured
# alternately (one after the other, PAIRS times) on the same cell, at 16 B,
# 64 B, 256 B, 1 KiB and 16 KiB, one thread: stream mode for ciphers (speed's
# loop is one update per buffer), message mode for digests (speed's loop is a
# whole digest per buffer).
#
#   tests/bench/compare-openssl-speed.sh [PAIRS] [ALGORITHM...]
#
# ALGORITHMs default to aes-128-cbc (encrypt) and sha256 (hash): the ones
# whose `openssl speed -evp` loop is the same update call cryptobench's stream
# mode times. Both sides on CPU time (openssl speed's default divisor; for
# cryptobench each trial's bytes / cpu_ns, median over trials): the median of
# PAIRS (default 5) runs each, in MB/s (10^6 bytes/s) and ns per call, and
# their ratio; beside it cryptobench's own median MB/s on wall time, which a
# busy machine's preemption lowers. Needs jq. A benchmark, not a test:
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

printf '%-12s %6s  %14s %14s  %9s %9s  %s\n' algorithm size "speed MB/s" "cb MB/s" "speed ns" "cb ns" "cb/speed (cb: stream for ciphers, message for digests)"
for alg in "$@"; do
	# openssl speed's cipher loop is one EVP_EncryptUpdate per buffer: stream
	# mode. Its digest loop is a whole EVP_Digest per buffer: message mode.
	case $alg in
	sha* | md5 | blake*) op=hash message=1 label=openssl ;;
	*) op=encrypt message=0 label=openssl-stream ;;
	esac
	for size in 16 64 256 1024 16384; do
		rm -f "$work/speed" "$work/stream" "$work/stream-wall"
		for i in $(seq 1 "$pairs"); do
			# openssl speed reports thousands of bytes per second.
			openssl speed -evp "$alg" -bytes "$size" -seconds 1 2>/dev/null |
				awk -v a="$alg" 'tolower($1) == a { v = $NF; sub(/k$/, "", v); print v / 1000 }' >>"$work/speed"
			"$cb" run "$top/tests/bench/openssl-speed.lua" --set "algorithm=$alg" --set "op=$op" \
				--set "size=${size}B" --set "message=$message" --set rounds=10 \
				-o "$work/run-$alg-$size-$i.jsonl" --no-progress 2>/dev/null
			# Both on CPU time: openssl speed divides by the process's user
			# time unless told -elapsed, so a busy machine's preemption is
			# left out on both sides (MB/s of each trial = bytes / cpu_ns).
			jq -r --arg l "$label" 'select(.type == "trial" and .valid and (.warmup | not) and
				.cell.label == $l) | .bytes * 1000 / .cpu_ns' "$work/run-$alg-$size-$i.jsonl" |
				median >>"$work/stream"
			"$cb" report --format csv "$work/run-$alg-$size-$i.jsonl" |
				awk -F, -v l="$label" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["label"] == l { print $c["mb_per_s_median"] }' >>"$work/stream-wall"
		done
		s=$(median <"$work/speed")
		t=$(median <"$work/stream")
		b=$(median <"$work/stream-wall")
		awk -v alg="$alg" -v size="$size" -v s="$s" -v t="$t" -v b="$b" 'BEGIN {
			printf "%-12s %6d  %14.1f %14.1f  %9.2f %9.2f  %.3f (%+.1f%%)   wall %.1f MB/s (%.3f)\n",
			       alg, size, s, t, size * 1000 / s, size * 1000 / t, t / s, (t / s - 1) * 100, b, b / s }'
	done
done
