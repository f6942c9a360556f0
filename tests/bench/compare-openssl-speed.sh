#!/bin/sh
# compare-openssl-speed.sh: cryptobench against `openssl speed -evp`, measured
# alternately (one after the other, PAIRS times) on the same cell, at 16 B,
# 64 B, 256 B, 1 KiB and 16 KiB, one thread, each side in openssl speed's own
# loop (tests/bench/openssl-speed.lua):
#   ciphers  one context, one EVP_EncryptUpdate per buffer: cryptobench's
#            stream mode (label openssl-stream);
#   digests  a whole EVP_Digest per buffer, which creates and frees a context
#            each time (the digest fetched once): cryptobench's message mode
#            with reuse = false (label openssl-noreuse). Its default message
#            mode reuses one context and is faster at small sizes: it is not
#            the loop openssl speed times.
#
#   tests/bench/compare-openssl-speed.sh [PAIRS] [ALGORITHM...]
#
# ALGORITHMs default to aes-128-cbc (encrypt) and sha256 (hash). Both sides on
# CPU time and as the same estimator, bytes over the whole measured time:
# openssl speed divides its count by its user time from times() (clock ticks
# of 10 ms: 1% of a quiet second), cryptobench's run gives the bytes of its
# 10 trials over their summed cpu_ns (the thread's CPU time from
# CLOCK_THREAD_CPUTIME_ID; the two clocks agree within a tick on a 1 s loop).
# The median of PAIRS (default 5) runs each, in MB/s (10^6 bytes/s) and ns per
# call, and their ratio; then the median of the PAIRS ratios of runs made one
# after the other ("paired": on a busy machine the load changes between
# pairs more than within one, so this ratio moves less); beside them
# cryptobench's own median MB/s on wall time (its report), which a busy
# machine's preemption lowers. Deliberate differences that remain: cryptobench
# encrypts from its input buffer into a separate output buffer (openssl speed
# encrypts one buffer in place; measured to make no difference), runs 10
# trials of 50 ms on fresh contexts (openssl speed one second on one), and
# checks every trial's output afterwards. Needs jq. A benchmark, not a test:
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

# The machine's load beside the figures: a busy machine makes both sides noisy.
printf '# %s, load average %s\n' "$(date -u +%H:%M:%SZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %6s  %14s %14s  %9s %9s  %s\n' algorithm size "speed MB/s" "cb MB/s" "speed ns" "cb ns" "cb/speed (cb: stream for ciphers, noreuse for digests)"
for alg in "$@"; do
	case $alg in
	sha* | md5 | blake*) op=hash loop=noreuse ;;
	*) op=encrypt loop=stream ;;
	esac
	label=openssl-$loop
	for size in 16 64 256 1024 16384; do
		rm -f "$work/speed" "$work/stream" "$work/stream-wall" "$work/paired"
		for i in $(seq 1 "$pairs"); do
			# openssl speed reports thousands of bytes per second.
			openssl speed -evp "$alg" -bytes "$size" -seconds 1 2>/dev/null |
				awk -v a="$alg" 'tolower($1) == a { v = $NF; sub(/k$/, "", v); print v / 1000 }' >>"$work/speed"
			"$cb" run "$top/tests/bench/openssl-speed.lua" --set "algorithm=$alg" --set "op=$op" \
				--set "size=${size}B" --set "loop=$loop" --set message=0 --set rounds=10 \
				-o "$work/run-$alg-$size-$i.jsonl" --no-progress 2>/dev/null
			# Both on CPU time: openssl speed divides by the process's user
			# time unless told -elapsed, so a busy machine's preemption is
			# left out on both sides; both the bytes over the whole time.
			jq -s -r --arg l "$label" '[.[] | select(.type == "trial" and .valid and
				(.warmup | not) and .cell.label == $l)] |
				(map(.bytes) | add) * 1000 / (map(.cpu_ns) | add)' \
				"$work/run-$alg-$size-$i.jsonl" >>"$work/stream"
			paste "$work/speed" "$work/stream" | tail -n 1 | awk '{ print $2 / $1 }' >>"$work/paired"
			"$cb" report --format csv "$work/run-$alg-$size-$i.jsonl" |
				awk -F, -v l="$label" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["label"] == l { print $c["mb_per_s_median"] }' >>"$work/stream-wall"
		done
		s=$(median <"$work/speed")
		t=$(median <"$work/stream")
		b=$(median <"$work/stream-wall")
		p=$(median <"$work/paired")
		awk -v alg="$alg" -v size="$size" -v s="$s" -v t="$t" -v b="$b" -v p="$p" 'BEGIN {
			printf "%-12s %6d  %14.1f %14.1f  %9.2f %9.2f  %.3f (%+.1f%%)  paired %.3f   wall %.1f MB/s (%.3f)\n",
			       alg, size, s, t, size * 1000 / s, size * 1000 / t, t / s, (t / s - 1) * 100, p, b, b / s }'
	done
done
printf '# %s, load average %s\n' "$(date -u +%H:%M:%SZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
