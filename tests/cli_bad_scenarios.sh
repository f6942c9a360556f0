#!/bin/sh
# Every bad scenario fixture of tests/scenarios/bad/: its exit status (the
# "-- exit: N" line, 2 when there is none), one line "FILE:LINE: message" (the
# "-- line:" and "-- expect:" lines), quickly (CPU time, the same bound on a
# busy machine), and nothing written: no results file, partial or not, and
# nothing else in the folder it ran in.
. "${top_srcdir:-.}/tests/lib.sh"

n=0
for f in "$top_srcdir"/tests/scenarios/bad/*.lua; do
	[ -f "$f" ] && n=$((n + 1))
done
plan $((n * 7 + 3))
check "the corpus holds at least 50 bad scenarios ($n)" test "$n" -ge 50

for f in "$top_srcdir"/tests/scenarios/bad/*.lua; do
	name=$(basename "$f")
	expect=$(sed -n 's/^-- expect: //p' "$f" | head -n 1)
	line=$(sed -n 's/^-- line: //p' "$f" | head -n 1)
	want=$(sed -n 's/^-- exit: //p' "$f" | head -n 1)
	rm -rf "$WORK/cwd"
	mkdir "$WORK/cwd"
	(cd "$WORK/cwd" && /usr/bin/time -f '%U %S' -o "$WORK/time" "$CRYPTOBENCH" run "$f" -o out.jsonl >"$WORK/out" 2>"$WORK/err")
	echo $? >"$WORK/status"
	cpu=$(awk '{ printf "%d", $1 + $2 + 0.999 }' "$WORK/time")
	check "$name: exit ${want:-2}" status_is "${want:-2}"
	check "$name: one line" test "$(wc -l <"$WORK/err")" -eq 1
	check "$name: names file and line" grep -q -F "$f:$line:" "$WORK/err"
	check "$name: says '$expect'" grep -q -F -- "$expect" "$WORK/err" ||
		diag "it said: $(head -c 300 "$WORK/err" | tr "\n" " ")"
	check "$name: within 5 s of CPU time" test "$cpu" -le 5
	check "$name: no results file" test ! -e "$WORK/cwd/out.jsonl"
	check "$name: nothing else written" test -z "$(ls -A "$WORK/cwd")"
done
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --set rouns=3 -o "$WORK/o.jsonl"
check "--set with a misspelt key exits 2" status_is 2
check "...with a hint" err_has "did you mean 'rounds'"
done_testing
