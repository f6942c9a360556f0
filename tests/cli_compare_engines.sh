#!/bin/sh
# compare's engine rows: each label's cells pooled, one observation per
# round. A 5% change in every cell of one sim engine, too small against each
# cell's noise to be called in most cells, is non-reproducible in the pooled
# row while the untouched engine reproduces; --fail-on follows it. Timing
# truth from the sim's virtual clock.
. "${top_srcdir:-.}/tests/lib.sh"
plan 16
S="$top_srcdir/tests/scenarios/sim/engines.lua"
verdict() { jq -r --arg l "$2" '.engines[] | select(.label == $l) | .verdict' "$WORK/$1"; }

cb run "$S" --runs 2 -o "$WORK/aa"
check "A/A: two runs" status_is 0
cb compare "$WORK/aa" --format json
cp "$WORK/out" "$WORK/aa.json"
check "A/A: one pooled row per engine, of 12 cells each" sh -c "[ \"\$(jq -r '[.engines[] | \"\(.label):\(.cells)\"] | join(\" \")' '$WORK/aa.json')\" = 'sim-a:12 sim-b:12' ]"
check "A/A: sim-a pooled reproduced" [ "$(verdict aa.json sim-a)" = reproduced ]
check "A/A: sim-b pooled reproduced" [ "$(verdict aa.json sim-b)" = reproduced ]
cb compare "$WORK/aa" --fail-on non-reproducible
check "A/A: --fail-on non-reproducible exits 0" status_is 0

cb run "$S" --runs 2 --set shift=0.05 -o "$WORK/shift"
check "5% in sim-a: two runs" status_is 0
cb compare "$WORK/shift" --format json
cp "$WORK/out" "$WORK/shift.json"
check "shift: sim-a pooled non-reproducible" [ "$(verdict shift.json sim-a)" = non-reproducible ]
check "shift: its interval covers the planted 1.05" sh -c "jq -e '.engines[] | select(.label == \"sim-a\") | .test.pair | (.lo <= 1.05 and .hi >= 1.05 and .ratio > 1.02)' '$WORK/shift.json' >/dev/null"
check "shift: sim-b pooled still reproduced" [ "$(verdict shift.json sim-b)" = reproduced ]
check "shift: most of sim-a's cells alone are not called (the pooling is what sees it)" sh -c "[ \$(jq '[.cells[] | select(.cell.label == \"sim-a\" and .verdict == \"non-reproducible\")] | length' '$WORK/shift.json') -lt 6 ]"
cb compare "$WORK/shift" --fail-on non-reproducible
check "shift: --fail-on non-reproducible exits 1" status_is 1
cb compare "$WORK/shift"
check "text: the engines table shows sim-a non-reproducible" sh -c "grep -E '^sim-a +12 +c/B +non-reproducible' '$WORK/out' >/dev/null"
cb compare "$WORK/shift" --format markdown
check "markdown: the engines table, as a table" sh -c "grep -E '^\| *sim-a *\| *12 *\| *c/B *\| *non-reproducible' '$WORK/out' >/dev/null"
cb compare "$WORK/shift" --format csv --table engines
# engines_csv COLUMN...: those columns of each CSV row, comma-joined, one row a line
engines_csv() {
	python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(",".join(r[c] for c in sys.argv[2:]))' "$WORK/out" "$@"
}
check "csv --table engines: one row per label and run, its cells pooled" \
	test "$(engines_csv label run cells | tr '\n' ' ')" = "sim-a,1,12 sim-a,2,12 sim-b,1,12 sim-b,2,12 "
check "...the verdict of each label across runs, as the JSON gives it" \
	test "$(engines_csv label across_verdict | sort -u | tr '\n' ' ')" = "sim-a,$(verdict shift.json sim-a) sim-b,$(verdict shift.json sim-b) "
csv_estimates() { # each row's estimate inside its interval
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if rows and all(float(r["estimate_lo"]) <= float(r["estimate"]) <= float(r["estimate_hi"]) for r in rows) else 1)' "$WORK/out"
}
check "...each run's pooled estimate inside its interval" csv_estimates
done_testing
