#!/bin/sh
# Every trial records whether it lasted the trial time, and report counts
# those that did not (sim: calibrated in the warm-up round, then five rounds
# of half the work fall short; nothing else does).
. "${top_srcdir:-.}/tests/lib.sh"
plan 7
S="$top_srcdir/tests/scenarios/sim/short.lua"

cb run "$S" -o "$WORK/a.jsonl"
check "run exits 0" status_is 0
check "every valid trial says whether it reached the trial time" sh -c "[ \$(jq -c 'select(.type == \"trial\" and .valid) | .trial_time_reached | booleans' '$WORK/a.jsonl' | wc -l) -eq 42 ]"
check "the 10 trials of rounds 5-9 fell short, no other" sh -c "[ \"\$(jq -r 'select(.type == \"trial\" and .trial_time_reached == false) | .round' '$WORK/a.jsonl' | sort -n | uniq -c | awk '{print \$1 \"x\" \$2}' | tr '\n' ' ')\" = '2x5 2x6 2x7 2x8 2x9 ' ]"
check "the short trials are shorter than the trial time, the others not" sh -c "jq -e -s '[.[0].trial_time_ns] as [\$t] | map(select(.type == \"trial\" and .valid)) | all(if .trial_time_reached then .ns >= \$t else .ns < \$t end)' '$WORK/a.jsonl' >/dev/null"
cb report "$WORK/a.jsonl" --format json
check "report JSON counts 5 short trials in each cell" sh -c "[ \"\$(jq -r '[.[0].cells[].short_trials] | map(tostring) | join(\" \")' '$WORK/out')\" = '5 5' ]"
cb report "$WORK/a.jsonl"
check "report text warns: 10 of the trials fell short" out_has "10 of the trials fell short of the trial time (1000000 ns)"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" -o "$WORK/b.jsonl"
cb report "$WORK/b.jsonl"
check "a run without short trials gives no such warning" sh -c "! grep -q 'fell short' '$WORK/out'"
done_testing
