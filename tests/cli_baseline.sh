#!/bin/sh
# compare --baseline: one configuration against another, cell by cell, on the
# sim engine whose cost is declared: a planted 7% change must be called
# faster (or slower, the other way round) with an interval that covers 7%,
# and an unchanged engine equivalent within the margin.
. "${top_srcdir:-.}/tests/lib.sh"
plan 16
ab="$top_srcdir/tests/scenarios/sim/ab.lua"

# A: sim-a and sim-b at their declared cost. B: sim-a costs 1/1.07 of that
# (7% faster), other noise (seed 2); sim-b unchanged.
cb run "$ab" -o "$WORK/a.jsonl" --no-progress
check "run A" status_is 0
cb run "$ab" --set cost=0.934579 --set seed=2 -o "$WORK/b.jsonl" --no-progress
check "run B, sim-a planted 7% faster" status_is 0

cb compare --baseline "$WORK/a.jsonl" "$WORK/b.jsonl" --format csv
check "compare --baseline A B --format csv exits 0" status_is 0
# column NAME of the rows of label LABEL, one per line
col() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("\n".join(r[sys.argv[2]] for r in rows if r["label"] == sys.argv[3]))' "$WORK/out" "$1" "$2"
}
check "sim-a: faster in both cells" test "$(col verdict sim-a | sort -u)" = faster
check "...each interval covers the planted 7%" sh -c "[ \"\$(python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r[\"label\"] == \"sim-a\"]
print(len(rows) == 2 and all(float(r[\"ratio_lo\"]) <= 1.07 <= float(r[\"ratio_hi\"]) for r in rows))' '$WORK/out')\" = True ]"
check "sim-b: equivalent within delta in both cells" test "$(col verdict sim-b | sort -u)" = equivalent
check "...judged on cycles per byte (the sim's work)" test "$(col measure sim-a | sort -u)" = c/B

cb compare --baseline "$WORK/a.jsonl" "$WORK/b.jsonl"
check "the text names the verdicts" sh -c "grep -E '^sim-a +sha256 +hash +4KiB' '$WORK/out' | grep -q faster"
# (a line of text, wrapped at 100 columns: joined again here)
check "...and sums them up in one line" sh -c "tr '\n' ' ' <'$WORK/out' | grep -qE '$WORK/b.jsonl is [0-9.]+% \[[0-9.]+, [0-9.]+\] faster than $WORK/a.jsonl on 2 of 4 cells, equivalent on 2 '"
check "...saying what differs between the two" out_has "note: parameter cost = 0.934579"
check "...within 100 columns" sh -c "! awk 'length > 100' '$WORK/out' | grep -q ."

cb compare --baseline "$WORK/b.jsonl" "$WORK/a.jsonl" --format json
check "the other way round, sim-a is slower" sh -c "jq -e '[.[0].cells[] | select(.cell.label == \"sim-a\") | .verdict] == [\"slower\", \"slower\"]' '$WORK/out' >/dev/null"

cb compare --baseline "$WORK/a.jsonl" "$WORK/a.jsonl"
check "the baseline against itself: exit 2" status_is 2
cb compare --baseline "$WORK/a.jsonl"
check "no run against the baseline: exit 2" status_is 2
cb compare --baseline "$WORK/a.jsonl" "$WORK/b.jsonl" --format csv --table derived
check "a table compare --baseline does not have: exit 2" status_is 2
cb compare --baseline "$WORK/a.jsonl" "$WORK/b.jsonl" --table cells
check "--table without --format csv: exit 2" status_is 2
done_testing
