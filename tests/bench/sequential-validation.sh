#!/bin/sh
# sequential-validation.sh: sequential rounds against known truth. Builds
# tests/test_sequential and runs its full version: per sim setting (c/B and
# MB/s on a shared VM, MB/s on a noisy one), REPS replications of an A/A pair
# and of a pair with a planted 5% change, a look after every block of 8
# rounds, with the confidence sequences and, as the negative control, with
# the fixed-n intervals re-checked at every look. Prints the (a)-(e) table
# of analysis/README.md ("Sequential rounds").
#
#   tests/bench/sequential-validation.sh [REPS [SEED]]   (default 500, 20260804)
#
# On the virtual clock: no real time is measured, so a busy machine changes
# nothing but how long it takes (about 4 minutes of one core at 500).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${top_builddir:-$top}
make -C "$build" tests/test_sequential >/dev/null
exec "$build/tests/test_sequential" --full "${1:-500}" "${2:-20260804}"
