#!/bin/sh
# Bad results files given to report, compare and plot: each is refused with
# exit 2 and one line naming the file and the line, or, for the one damage a
# real run leaves (a hard kill cutting the last line short), read with a
# warning. The files are made here from a kept run (tests/golden/runs), the
# 100 MB line included.
. "${top_srcdir:-.}/tests/lib.sh"
plan 62
GOOD="$top_srcdir/tests/golden/runs/run-1.jsonl"
OTHER="$top_srcdir/tests/golden/runs/run-2.jsonl"
B="$WORK/bad"
mkdir -p "$B"

# Each case: NAME|LINE|PHRASE in $WORK/cases, and the file $B/NAME.jsonl.
add() { echo "$1|$2|$3" >>"$WORK/cases"; }

sed '10s/,"seq"/;"seq"/' "$GOOD" >"$B/corrupt.jsonl"
add corrupt 10 "not JSON"
sed '7s/"round"/"ro\x00und"/' "$GOOD" >"$B/nul.jsonl"
add nul 7 "not JSON"
sed '5s/.*/[1,2,3]/' "$GOOD" >"$B/array.jsonl"
add array 5 "not a JSON object"
{ sed -n 1,3p "$GOOD"; sed -n 5p "$GOOD"; sed -n 4p "$GOOD"; sed -n '6,$p' "$GOOD"; } >"$B/reordered.jsonl"
add reordered 5 "seq 2 comes after seq 3 (line 4)"
{ sed -n '2,$p' "$GOOD"; sed -n 1p "$GOOD"; } >"$B/header-last.jsonl"
add header-last 1 "a 'trial' line first, not the run header"
{ cat "$GOOD"; sed -n 2p "$GOOD"; } >"$B/after-end.jsonl"
add after-end 147 "a 'trial' line after the end line (line 146)"
sed '1s|"schema":"cryptobench/1"|"schema":"cryptobench/3"|' "$GOOD" >"$B/schema.jsonl"
add schema 1 "schema 'cryptobench/3' is not one this version reads"
sed '1s|,"schema":"cryptobench/1"||' "$GOOD" >"$B/no-schema.jsonl"
add no-schema 1 "schema '(none)'"
echo '{"hello":"world"}' >"$B/other-json.jsonl"
add other-json 1 'line has no "type"'
: >"$B/empty.jsonl"
add empty 1 "empty: no run header"
printf '\n\n\n' >"$B/blank.jsonl"
add blank 3 "only blank lines: no run header"
sed -n 1,4p "$GOOD" >"$B/long.jsonl"
{
	printf '{"type":"trial","note":"'
	head -c 100000000 /dev/zero | tr '\0' x
	printf '"}\n'
	sed -n '5,$p' "$GOOD"
} >>"$B/long.jsonl"
add long 5 "line longer than 64 MiB"
cat "$GOOD" "$OTHER" >"$B/joined.jsonl"
add joined 147 "a second run header"
{ sed -n 1,20p "$GOOD"; sed -n 2,6p "$OTHER"; sed -n '21,$p' "$GOOD"; } >"$B/mixed.jsonl"
add mixed 21 "seq 0 comes after seq 18 (line 20): lines out of order, repeated, or of two runs"
sed -n '1,10p;10,$p' "$GOOD" >"$B/repeated.jsonl"
add repeated 11 "seq 8 comes after seq 8"
sed '6s/"seq":4/"seq":"4"/' "$GOOD" >"$B/seq-type.jsonl"
add seq-type 6 'trial "seq" is not a whole number'
sed '6s/"ns":[0-9]*,//' "$GOOD" >"$B/no-time.jsonl"
add no-time 6 'a valid trial without a time'
sed -n 1p "$GOOD" | head -c 300 >"$B/torn-header.jsonl"
add torn-header 1 "cut short, not JSON"

# refused NAME LINE PHRASE COMMAND: exit 2, one line, FILE:LINE: and the phrase.
refused() {
	f="$B/$1.jsonl"
	case $4 in
	report) cb report "$f" </dev/null ;;
	compare) cb compare "$OTHER" "$f" </dev/null ;;
	plot) cb plot "$f" -o "$WORK/charts-$1" </dev/null ;;
	esac
	status_is 2 && [ "$(wc -l <"$WORK/err")" -eq 1 ] && err_has "^$f:$2: " && err_has "$3"
}

for c in report compare plot; do
	while IFS='|' read -r name line phrase; do
		check "$c refuses $name: exit 2, '$name.jsonl:$line: ...$phrase'" refused "$name" "$line" "$phrase" $c
	done <"$WORK/cases"
done
check "the plot of a refused file leaves no chart folder" test ! -e "$WORK/charts-corrupt"

# A run killed while writing a line: the torn last line is skipped with a
# warning naming it; every whole line before it counts.
head -c -40 "$GOOD" | sed '$d' >"$B/torn.jsonl"
printf '%s' "$(sed -n 100p "$GOOD" | head -c 150)" >>"$B/torn.jsonl"
torn_line=$(wc -l <"$B/torn.jsonl")
torn_line=$((torn_line + 1))
warned() { status_is 0 && err_has "^$B/torn.jsonl:$torn_line: warning: the last line is cut short" && [ "$(wc -l <"$WORK/err")" -eq 1 ]; }
cb report "$B/torn.jsonl"
check "report reads a torn last line with a one-line warning naming it (line $torn_line)" warned
check "...and says the run was interrupted" out_has "INTERRUPTED"
cb report --format json "$B/torn.jsonl"
check "...keeping every whole trial line before it ($((torn_line - 2)))" test "$(jq '[.[0].cells[] | .n + .warmup + .invalid] | add' "$WORK/out" 2>/dev/null)" = "$((torn_line - 2))"
cb compare "$OTHER" "$B/torn.jsonl"
check "compare reads it with the warning" warned
cb plot "$B/torn.jsonl" -o "$WORK/charts-torn"
check "plot reads it with the warning" warned
check "a file cut between lines reads without a warning" sh -c "head -n 50 '$GOOD' >'$B/cut.jsonl' && '$CRYPTOBENCH' report '$B/cut.jsonl' 2>'$WORK/err2' | grep -q INTERRUPTED && [ ! -s '$WORK/err2' ]"
check "a file that does not exist: exit 2, named" sh -c "'$CRYPTOBENCH' report '$B/none.jsonl' 2>'$WORK/err3'; [ \$? -eq 2 ] && grep -q '^$B/none.jsonl: cannot open' '$WORK/err3'"
done_testing
