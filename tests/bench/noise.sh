#!/bin/sh
# noise.sh [CPU]: the machine's noise, the CV of five `openssl speed -evp
# sha256 -bytes 16384 -seconds 1` processes, on CPU time (openssl speed's
# default) and on wall time (-elapsed), one line each, then each vCPU's
# speed (tests/bench/cpu.sh):
#
#   CPU time: mean 1805.3 MB/s, CV 0.75%
#   -elapsed: mean 1801.0 MB/s, CV 0.81%
#   cpu0 987 MB/s cpu1 726 MB/s (sha512 16 KiB, openssl speed -elapsed; measuring on cpu 0)
#
# CPU: the five processes run on that CPU, as the measurement beside them
# does (tests/bench/peers.sh passes its PEERS_CPU); without it, or "none",
# wherever the kernel places them. About ten seconds, and one more per
# vCPU. tests/bench/peers.sh and paper/collect.sh run it before and after
# they measure: a CV well above 1% says something else competed for the
# cores meanwhile.
set -eu
CPU=${1:-none}
. "$(dirname "$0")/cpu.sh"
pin_to "$CPU" "$0" "$@"
command -v openssl >/dev/null || { echo "noise.sh: no openssl command" >&2; exit 1; }

# noise [-elapsed]: one line, the five processes' mean and CV.
noise() {
	for i in 1 2 3 4 5; do
		openssl speed "$@" -evp sha256 -bytes 16384 -seconds 1 -mr 2>/dev/null | sed -n 's/^+F:[0-9]*:[^:]*://p'
	done | awk -v how="${1:-CPU time}" '{ x[NR] = $1; s += $1 } END { m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2;
		printf "%s: mean %.1f MB/s, CV %.2f%%\n", how, m / 1e6, 100 * sqrt(v / (NR - 1)) / m }'
}
noise
noise -elapsed
vcpus "$CPU"
