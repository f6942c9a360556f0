#!/bin/sh
# run and report end to end on the sim engine (virtual clock: fast, exact).
. "${top_srcdir:-.}/tests/lib.sh"
plan 20
S="$top_srcdir/tests/scenarios/sim/cost.lua"

cb run "$S" -o "$WORK/a.jsonl"
check "run exits 0" status_is 0
check "every line is a JSON object" sh -c "jq -e 'type == \"object\"' '$WORK/a.jsonl' >/dev/null"
check "first line is the run header" sh -c "head -n 1 '$WORK/a.jsonl' | jq -e '.type == \"run\" and .schema == \"cryptobench/1\"' >/dev/null"
check "header holds the scenario source" sh -c "head -n 1 '$WORK/a.jsonl' | jq -e '.scenario.source | contains(\"sim-cost\")' >/dev/null"
check "header digest is the file's sha256" sh -c "[ \"\$(head -n 1 '$WORK/a.jsonl' | jq -r .scenario.sha256)\" = \"\$(sha256sum < '$S' | cut -c1-64)\" ]"
check "trials = (rounds + warm-up) x cells = 8 x 18" sh -c "[ \$(grep -c '\"type\":\"trial\"' '$WORK/a.jsonl') -eq 144 ]"
check "last line is the end line, not interrupted" sh -c "tail -n 1 '$WORK/a.jsonl' | jq -e '.type == \"end\" and .interrupted == false' >/dev/null"
check "seq counts 0..143 in order" sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | .seq' '$WORK/a.jsonl' | tr '\n' ' ')\" = \"\$(seq 0 143 | tr '\n' ' ')\" ]"
cb report "$WORK/a.jsonl"
check "report exits 0" status_is 0
check "report shows both variants" sh -c "grep -q '^sim-a ' '$WORK/out' && grep -q '^sim-b ' '$WORK/out'"
check "report shows the declared cost (200 + 0.5 x 64 = 232 ns)" sh -c "grep -E '^sim-a +sha256 +hash +64B' '$WORK/out' | grep -q ' 232.0\$'"

cb run "$S" -o "$WORK/b.jsonl" --set rounds=3 --set sizes=64B,1KiB
check "--set runs" status_is 0
check "--set rounds=3 sizes=64B,1KiB gives 4 x 12 trials" sh -c "[ \$(grep -c '\"type\":\"trial\"' '$WORK/b.jsonl') -eq 48 ]"
check "--set is recorded as from the command line" sh -c "head -n 1 '$WORK/b.jsonl' | grep -q 'command'"

cb run "$S" --runs 3 -o "$WORK/runs"
check "--runs 3 exits 0" status_is 0
check "--runs 3 writes three files" test -s "$WORK/runs/run-1.jsonl" -a -s "$WORK/runs/run-2.jsonl" -a -s "$WORK/runs/run-3.jsonl"
check "each run knows its index" sh -c "[ \"\$(for f in '$WORK'/runs/run-*.jsonl; do head -n 1 \$f | jq -r .run_index; done | tr '\n' ' ')\" = '0 1 2 ' ]"
check "each run is complete" sh -c "for f in '$WORK'/runs/run-*.jsonl; do tail -n 1 \$f | jq -e '.interrupted == false' >/dev/null || exit 1; done"

cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --set algorithms=aes-128-cbc --set sizes=100B -o "$WORK/c.jsonl"
check "a size CBC cannot take leaves no cell: exit 2" status_is 2
check "...and says why" err_has "multiple of 16"
done_testing
