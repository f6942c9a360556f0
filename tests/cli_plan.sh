#!/bin/sh
# run --dry-run prints the plan and an estimate that holds on sim's virtual clock;
# a long run prints its estimate before it starts.
. "${top_srcdir:-.}/tests/lib.sh"
S="$top_srcdir/tests/scenarios/sim/cost.lua"
echo "1..8"

cb run "$S" --set trial_time=20ms --dry-run -o "$WORK/never.jsonl"
check "--dry-run exits 0" status_is 0
check "...writes no results file" test ! -e "$WORK/never.jsonl"
check "...counts cells and trials: 18 x (7 + 1) = 144" out_has "18 cells x (7 rounds + 1 warm-up) = 144 trials"
check "...lists each cell" sh -c "[ \$(grep -c -E '^  sim-[ab] ' '$WORK/out') -eq 18 ]"
estimate=$(sed -n 's/.*(trials \([0-9.]*\)s,.*/\1/p' "$WORK/out")
cb run "$S" --set trial_time=20ms -o "$WORK/a.jsonl" --no-progress
check "a short run prints no estimate" sh -c "! grep -q 'estimated' '$WORK/err'"
# sim's trials last what its virtual clock says: their sum is the run's true duration.
actual=$(jq -s '[.[] | select(.type == "trial") | .ns] | add / 1e9' "$WORK/a.jsonl")
diag "estimated ${estimate}s of trials, the virtual clock says ${actual}s"
check "the estimate is within 25% of the virtual clock's sum" awk -v e="$estimate" -v a="$actual" 'BEGIN { exit !(e > 0 && a > 0 && e / a > 0.75 && e / a < 1.25) }'

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
