#!/bin/sh
# report and compare on the command line: formats, verdicts, exit codes.
. "${top_srcdir:-.}/tests/lib.sh"
sim="$top_srcdir/tests/scenarios/sim"
plan 40

cb compare --help;          check "compare --help exits 0" status_is 0
check "compare --help shows usage" out_has "usage: cryptobench compare"

# Two runs with nothing changed, as --runs writes them: one folder. The sim is
# deterministic; with seed 2 no row of these two runs is a false alarm (about 1
# in 100 rows is, by design: see analysis/README.md).
cb run "$sim/ratio.lua" --runs 2 --set metrics=2 --set seed=2 -o "$WORK/same" --no-progress
check "run --runs 2 of the ratio fixture" status_is 0
check "...one file per run" test -f "$WORK/same/run-1.jsonl" -a -f "$WORK/same/run-2.jsonl"
cb compare "$WORK/same";    check "compare a folder of runs exits 0" status_is 0
check "...prints each run's ratio" out_has "num/den-1"
check "...with a verdict" out_has "reproduced"
check "...and the expectation" out_has "consistent"
cb compare "$WORK/same/run-1.jsonl" "$WORK/same/run-2.jsonl" --fail-on non-reproducible
check "no change: --fail-on non-reproducible exits 0" status_is 0
cb compare "$WORK/same" --format json
check "compare --format json exits 0" status_is 0
check "...JSON with runs, methods and seeds" sh -c "jq -e '(.derived | length) == 2 and
	(.derived[0].runs[0].method | test(\"sign-test\")) and (.runs[0].seeds.order | type) == \"number\"' \"$WORK/out\" >/dev/null"
check "...each row's test: its measure (c/B for the sim's cells), margin and why" sh -c "jq -e '.cells[0].test.measure == \"c/B\" and .cells[0].test.delta == 0.02 and (.derived[0].test.why | type) == \"string\"' \"$WORK/out\" >/dev/null"
cb compare "$WORK/same" --format csv
check "compare --format csv: one line per cell and run" sh -c "head -1 \"$WORK/out\" | grep -q '^file,run,engine,label,algorithm,op,size,threads,'"
cb compare "$WORK/same" --format markdown
check "compare --format markdown: tables" out_has "|---|"

# A planted change: run 2's numerators 35% slower (ratio 0.932 -> 0.691).
cb run "$sim/ratio.lua" --runs 2 --set metrics=2 --set seed=2 --set shift=0.3488 -o "$WORK/moved" --no-progress
cb compare "$WORK/moved" --details; check "a planted change: exit 0 without --fail-on" status_is 0
check "...called non-reproducible" out_has "non-reproducible"
check "...saying which runs differ beyond the margin" out_has "runs 1, 2 differ by"
check "...beyond delta" out_has "beyond delta 2%"
check "...and how the table's false alarms are controlled" out_has "Benjamini-Hochberg across the"
cb compare "$WORK/moved"
check "...and without --details, within 100 columns, the verdict still there" sh -c "! awk 'length > 100' '$WORK/out' | grep -q . && grep -q non-reproducible '$WORK/out'"
cb compare "$WORK/moved" --fail-on non-reproducible
check "...--fail-on non-reproducible exits 1" status_is 1

# What cannot be compared.
cb run "$sim/cost.lua" -o "$WORK/other.jsonl" --no-progress
cb compare "$WORK/same/run-1.jsonl" "$WORK/other.jsonl"
check "runs of different scenarios: exit 2" status_is 2
check "...saying so" err_has "only runs of one scenario can be compared"
sed '1s/"cryptobench\/1"/"cryptobench\/0"/' "$WORK/same/run-2.jsonl" >"$WORK/old.jsonl"
cb compare "$WORK/same/run-1.jsonl" "$WORK/old.jsonl"
check "another schema version: exit 2" status_is 2
check "...naming the schema" err_has "cryptobench/0"
cb compare "$WORK/same/run-1.jsonl"; check "one run: exit 2" status_is 2
cb compare "$WORK/same/run-1.jsonl" "$WORK/same/run-1.jsonl"
check "a run with itself: exit 2" status_is 2
cb compare "$WORK/same" --fail-on anything; check "--fail-on with an unknown value: exit 2" status_is 2
cb compare "$WORK/moved" --delta ratio=0.5 --details
check "--delta ratio=0.5: a 35% change of a ratio is within the margin" out_has "within delta 50%: largest difference -2"
cb compare "$WORK/same" --delta speed=0.1; check "--delta with an unknown measure: exit 2" status_is 2
cb compare "$WORK/same" --bogus;     check "an unknown option: exit 2" status_is 2

# report: statistics named, formats kept.
cb report "$WORK/same/run-1.jsonl"; check "report exits 0" status_is 0
check "...within 100 columns" sh -c "! awk 'length > 100' '$WORK/out' | grep -q ."
check "report names the headline statistic" out_has "median"
check "report shows the derived metrics" out_has "Derived metrics"
cb report "$WORK/same/run-1.jsonl" --statistic min
check "report --statistic min exits 0" status_is 0
check "...and says so" out_has "min time"
cb report "$WORK/same/run-1.jsonl" --statistic mode; check "an unknown statistic: exit 2" status_is 2
cb report "$WORK/same/run-1.jsonl" --format csv
check "report CSV: the cells, keyed as compare's" sh -c "head -1 \"$WORK/out\" | grep -q '^file,run,engine,label,algorithm,op,size,threads,n,.*,mb_per_s_median,'"
cb report "$WORK/same/run-1.jsonl" --format json
check "report JSON parses, intervals kept" sh -c "jq -e '.[0].cells[0].mb_per_s.median_ci.level == 0.95' \"$WORK/out\" >/dev/null"
done_testing
