#!/bin/sh
# Every CSV output is one table with one header line: Python's csv module
# reads each into a header and rows of the same width, and no row repeats the
# header. report and compare name the columns they share alike.
# tests/test_tables.c holds each table's header against its JSON.
. "${top_srcdir:-.}/tests/lib.sh"
plan 18
runs="$top_srcdir/tests/golden/runs"

# one_table FILE: one header, every row as wide, no blank line, no second header.
one_table() {
	python3 - "$1" <<'PY'
import csv, sys
text = open(sys.argv[1], newline="").read()
rows = list(csv.reader(text.splitlines()))
ok = bool(rows) and all(len(r) == len(rows[0]) for r in rows) and rows[0] not in rows[1:] \
    and all(any(f != "" for f in r) for r in rows)
if not ok:
    print("# not one table:", sys.argv[1], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

for t in cells winners derived slopes crossovers masks; do
	cb report "$runs/run-1.jsonl" "$runs/run-2.jsonl" --format csv --table "$t"
	check "report --table $t: one table" one_table "$WORK/out"
done
for t in cells derived engines rankings flips; do
	cb compare "$runs" --format csv --table "$t"
	check "compare --table $t: one table" one_table "$WORK/out"
done
cb compare --baseline "$runs/run-1.jsonl" "$runs/run-2.jsonl" --format csv
check "compare --baseline: one table" one_table "$WORK/out"
cp "$WORK/out" "$WORK/baseline.csv"

cb report "$runs/run-1.jsonl" --format csv
cp "$WORK/out" "$WORK/report.csv"
cb compare "$runs" --format csv
cp "$WORK/out" "$WORK/compare.csv"
check "report, compare and compare --baseline share the key columns" sh -c "
	for f in report compare baseline; do head -1 \"$WORK/\$f.csv\" | cut -d, -f1-8; done | sort -u |
	grep -qx 'file,run,engine,label,algorithm,op,size,threads' &&
	[ \$(for f in report compare baseline; do head -1 \"$WORK/\$f.csv\" | cut -d, -f1-8; done | sort -u | wc -l) -eq 1 ]"
check "...engine is the engine, label the variant" sh -c "grep -q '^runs/run-1.jsonl,1,sim,sim-fast,' '$WORK/report.csv' || grep -q ',1,sim,sim-fast,aes-128-cbc' '$WORK/report.csv'"
check "...and the median MB/s has one name" sh -c "head -1 '$WORK/report.csv' | grep -q ',mb_per_s_median,' && head -1 '$WORK/compare.csv' | grep -q ',mb_per_s_median,'"
# One dialect (core/results/csv.h): booleans true/false, numbers that read back.
check "...booleans are true or false (contaminated, drift)" python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$WORK/report.csv', newline='')))
sys.exit(0 if rows and {r[c] for r in rows for c in ('contaminated', 'drift')} <= {'true', 'false', ''} else 1)"
cb report "$runs/run-1.jsonl" --format csv --table spread
check "an unknown table: exit 2" status_is 2
check "...naming the tables there are" err_has "cells, winners, derived, slopes, crossovers, masks"
done_testing
