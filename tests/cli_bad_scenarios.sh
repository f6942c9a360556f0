#!/bin/sh
# Every bad scenario fixture: exit 2, one line "FILE:LINE: message", quickly
# (CPU time, the same bound on a busy machine), and no results file.
. "${top_srcdir:-.}/tests/lib.sh"

for f in "$top_srcdir"/tests/scenarios/bad/*.lua; do
	name=$(basename "$f")
	expect=$(sed -n 's/^-- expect: //p' "$f" | head -n 1)
	line=$(sed -n 's/^-- line: //p' "$f" | head -n 1)
	/usr/bin/time -f '%U %S' -o "$WORK/time" "$CRYPTOBENCH" run "$f" -o "$WORK/out.jsonl" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
	cpu=$(awk '{ printf "%d", $1 + $2 + 0.999 }' "$WORK/time")
	check "$name: exit 2" status_is 2
	check "$name: one line" test "$(wc -l <"$WORK/err")" -eq 1
	check "$name: names file and line" grep -q -F "$f:$line:" "$WORK/err"
	check "$name: says '$expect'" grep -q -F -- "$expect" "$WORK/err"
	check "$name: within 5 s of CPU time" test "$cpu" -le 5
	check "$name: no results file" test ! -e "$WORK/out.jsonl"
done
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --set rouns=3 -o "$WORK/o.jsonl"
check "--set with a misspelt key exits 2" status_is 2
check "...with a hint" err_has "did you mean 'rounds'"
done_testing
