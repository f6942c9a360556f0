#!/bin/sh
# Ctrl-C and a hard kill keep every finished trial; --resume completes a run.
. "${top_srcdir:-.}/tests/lib.sh"
plan 14
S="$top_srcdir/tests/scenarios/cli/slow.lua"
total=$(( (60 + 1) * 4 ))

"$CRYPTOBENCH" run "$S" -o "$WORK/i.jsonl" >/dev/null 2>"$WORK/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
echo $? >"$WORK/status"
check "SIGINT: exit 130" status_is 130
check "SIGINT: the run says how to resume" err_has "--resume"
check "SIGINT: the end line says interrupted" sh -c "tail -n 1 '$WORK/i.jsonl' | jq -e '.type == \"end\" and .interrupted == true' >/dev/null"
kept=$(grep -c '"type":"trial"' "$WORK/i.jsonl")
check "SIGINT: some trials kept ($kept of $total)" test "$kept" -gt 0 -a "$kept" -lt "$total"
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

"$CRYPTOBENCH" run "$S" -o "$WORK/k.jsonl" >/dev/null 2>&1 &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null
cb report "$WORK/k.jsonl"
check "SIGKILL: report still reads the file" status_is 0
check "SIGKILL: marked interrupted" out_has "INTERRUPTED"
cb run "$S" --resume "$WORK/k.jsonl"
check "SIGKILL: --resume completes it" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .seq' '$WORK/k.jsonl' | sort -n | uniq | wc -l) -eq $total ]"
done_testing
