#!/bin/sh
# run --dry-run prints the plan and an estimate that holds on sim's virtual clock,
# with the profiled trials of --explain counted; a long run prints its estimate
# before it starts.
. "${top_srcdir:-.}/tests/lib.sh"
S="$top_srcdir/tests/scenarios/sim/cost.lua"
echo "1..12"

cb run "$S" --set trial_time=20ms --dry-run -o "$WORK/never.jsonl"
check "--dry-run exits 0" status_is 0
check "...writes no results file" test ! -e "$WORK/never.jsonl"
check "...counts cells and trials: 18 x (7 + 1) = 144" out_has "18 cells x (7 rounds + 1 warm-up) = 144 trials"
check "...lists each cell" sh -c "[ \$(grep -c -E '^  sim-[ab] ' '$WORK/out') -eq 18 ]"
check "...and, without --explain, no profiled trials" sh -c "! grep -q 'profiled trials' '$WORK/out'"
estimate=$(sed -n 's/.*(trials \([0-9.]*\)s,.*/\1/p' "$WORK/out")
cb run "$S" --set trial_time=20ms -o "$WORK/a.jsonl" --no-progress
check "a short run prints no estimate" sh -c "! grep -q 'estimated' '$WORK/err'"
# sim's trials last what its virtual clock says: their sum is the run's true duration.
actual=$(jq -s '[.[] | select(.type == "trial") | .ns] | add / 1e9' "$WORK/a.jsonl")
diag "estimated ${estimate}s of trials, the virtual clock says ${actual}s"
check "the estimate is within 25% of the virtual clock's sum" awk -v e="$estimate" -v a="$actual" 'BEGIN { exit !(e > 0 && a > 0 && e / a > 0.75 && e / a < 1.25) }'

# Profiled trials: the samples at about 250 per CPU-second (the kernel's tick),
# at most 2 s of CPU per cell, so 300 samples take 1.2 s a cell, 22 s for 18.
cb run "$S" --set trial_time=20ms --explain=300 --dry-run
check "--dry-run --explain=300: each cell's profiled trials at about 250 samples per CPU-second" \
	out_has "profiled trials (explain): 18 cells x 1.20s: 300 samples per cell at about 250 per CPU-second"
check "...counted in the estimated duration" out_has "calibration [0-9.]*s, profiled trials 22s)"
cb run "$S" --set trial_time=20ms --explain --dry-run
check "--dry-run --explain (2000 samples): at the cap of 2 s of CPU per cell" \
	out_has "profiled trials (explain): 18 cells x 2.00s: 2000 samples per cell"

cb run "$S" --set trial_time=2s --set rounds=100 --dry-run --runs 3
check "--runs: the estimate covers every run" out_has "for 3 runs"
# A run of about 3 hours prints its estimate first; it is then stopped.
"$CRYPTOBENCH" run "$S" --set trial_time=10s --set rounds=60 -o "$WORK/long.jsonl" --no-progress >/dev/null 2>"$WORK/err" &
pid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q estimated "$WORK/err" && break; sleep 0.5; done
kill -INT $pid
wait $pid
check "a long run prints its estimate before starting (stderr not a terminal)" err_has "^estimated duration: [0-9]*h"
[ "$tap_failed" -eq 0 ]
