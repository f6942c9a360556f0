#!/bin/sh
# Ctrl-C and a hard kill keep every finished trial; --resume completes a run,
# with its scenario or from the results file alone (which records it), and
# refuses another scenario.
. "${top_srcdir:-.}/tests/lib.sh"
plan 22
S="$top_srcdir/tests/scenarios/cli/slow.lua"
total=$(( (60 + 1) * 4 ))

"$CRYPTOBENCH" run "$S" -o "$WORK/i.jsonl" >/dev/null 2>"$WORK/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
echo $? >"$WORK/status"
check "SIGINT: exit 130" status_is 130
check "SIGINT: the run says how to resume, in short" sh -c "tail -n 1 '$WORK/err' | grep -qx '  cryptobench run --resume $WORK/i.jsonl'"
check "SIGINT: the end line says interrupted" sh -c "tail -n 1 '$WORK/i.jsonl' | jq -e '.type == \"end\" and .interrupted == true' >/dev/null"
kept=$(grep -c '"type":"trial"' "$WORK/i.jsonl")
check "SIGINT: some trials kept ($kept of $total)" test "$kept" -gt 0 -a "$kept" -lt "$total"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --resume "$WORK/i.jsonl"
check "--resume with another scenario: exit 2" status_is 2
check "...in one line saying so" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'not a run of .*cost.lua (the scenario.s text differs' '$WORK/err'"
check "...and the file is untouched" test "$(grep -c '"type":"trial"' "$WORK/i.jsonl")" -eq "$kept"
cb report "$WORK/i.jsonl"
check "report reads the interrupted file" status_is 0
check "report marks it interrupted" out_has "INTERRUPTED"
cb run "$S" --resume "$WORK/i.jsonl"
check "--resume completes it" status_is 0
check "after --resume: every slot exactly once" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .seq' '$WORK/i.jsonl' | sort -n | uniq | wc -l) -eq $total ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/i.jsonl') -eq $total ]"
check "after --resume: the last end line is complete" sh -c "tail -n 1 '$WORK/i.jsonl' | jq -e '.interrupted == false' >/dev/null"
check "after --resume: calls per cell stay the same" sh -c "[ \$(jq -r 'select(.type == \"trial\") | \"\(.cell.label) \(.cell.size) \(.calls)\"' '$WORK/i.jsonl' | sort -u | wc -l) -eq 4 ]"
cb run "$S" --resume "$WORK/i.jsonl"
check "resuming a complete run exits 2" status_is 2

# A copy of the scenario, changed after the kill: --resume alone runs the
# recorded text, the changed file given is refused.
cp "$S" "$WORK/slow.lua"
"$CRYPTOBENCH" run "$WORK/slow.lua" --set rounds=59 -o "$WORK/k.jsonl" >/dev/null 2>&1 &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null
cb report "$WORK/k.jsonl"
check "SIGKILL: report still reads the file" status_is 0
check "SIGKILL: marked interrupted" out_has "INTERRUPTED"
echo "-- changed after the run" >>"$WORK/slow.lua"
cb run "$WORK/slow.lua" --set rounds=59 --resume "$WORK/k.jsonl"
check "SIGKILL: --resume with the changed scenario: exit 2" status_is 2
check "...in one line saying so" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'not a run of' '$WORK/err'"
cb run --resume "$WORK/k.jsonl" --no-progress
check "SIGKILL: --resume FILE alone (no scenario, no --set): exit 0" status_is 0
check "...it completes the file: every slot exactly once" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .seq' '$WORK/k.jsonl' | sort -n | uniq | wc -l) -eq $((total - 4)) ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/k.jsonl') -eq $((total - 4)) ]"
check "...with the recorded --set" sh -c "[ \$(jq -s '[.[] | select(.type == \"trial\") | .round] | max' '$WORK/k.jsonl') -eq 59 ]"
cb run --resume "$WORK/none.jsonl"
check "--resume of a missing file: exit 2, one line" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l <'$WORK/err') -eq 1 ]"
done_testing
