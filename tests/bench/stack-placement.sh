#!/bin/sh
# stack-placement.sh: does Mbed TLS AES-GCM's speed follow where its stack
# falls? Builds tests/bench/stack-placement.c against libmbedcrypto, runs it
# at several input and output offsets, and prints per run the median MB/s
# of the steps whose stack is 32-byte aligned and of the others.
#
#   tests/bench/stack-placement.sh [CALLS]     (default 20 calls per step)
#
# A benchmark, not a test: it prints figures and asserts nothing. Needs cc
# and the Mbed TLS headers.
set -eu
calls=${1:-20}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/probe" "$top/tests/bench/stack-placement.c" -lmbedcrypto
echo "# $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
for offsets in "0 0" "64 2048" "1984 1984" "2048 0" "512 3072"; do
	set -- $offsets
	"$work/probe" "$1" "$2" "$calls" >"$work/out"
	head -n 1 "$work/out"
	awk '!/^#/ { if ($2 % 32 == 0) a[++na] = $3; else b[++nb] = $3 }
	function med(x, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
		return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	END { ma = med(a, na); mb = med(b, nb); printf "  stack 32-byte aligned: %.1f MB/s (%d steps); not: %.1f MB/s (%d steps); ratio %.3f\n", ma, na, mb, nb, ma / mb }' "$work/out"
done
