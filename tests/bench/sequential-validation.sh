#!/bin/sh
# sequential-validation.sh: sequential rounds against known truth. Builds
# tests/test_sequential and runs its full version: per sim setting (c/B and
# MB/s on a shared VM, MB/s on a noisy and a very noisy one; then each engine
# on its own machine, judged on cycles estimated from time as on a VM without
# counters: AR(1) of 0.5, 0.8 and 0.95 and a drift of the clock, on the noisy
# VM's noise and on a quiet one's), REPS replications of an A/A pair and of a
# pair with a planted 5% change, a look after every block of 8 rounds, with
# the confidence sequences (widened where the rounds are shown dependent)
# and, as the negative controls, with the fixed-n intervals re-checked at
# every look (the first four settings) and with the sequence that counts
# every round as independent (the own-machine settings). Prints the tables of
# analysis/README.md ("Sequential rounds").
#
#   tests/bench/sequential-validation.sh [REPS [SEED]]   (default 500, 20260804)
#
# On the virtual clock: no real time is measured, so a busy machine changes
# nothing but how long it takes (about 6 minutes of one core for the first
# four settings at 500, with their fixed designs, and 8 for the others; the
# two halves run side by side).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${top_builddir:-$top}
make -C "$build" tests/test_sequential >/dev/null
reps=${1:-500}
seed=${2:-20260804}
"$build/tests/test_sequential" --full "$reps" "$seed" 0-3 >"${TMPDIR:-/tmp}/seq-valid-$$.1" &
first=$!
"$build/tests/test_sequential" --full "$reps" "$seed" 4-11 seq
wait "$first"
cat "${TMPDIR:-/tmp}/seq-valid-$$.1"
rm -f "${TMPDIR:-/tmp}/seq-valid-$$.1"
