#!/bin/sh
# compare --plan on the sim: a pilot of three runs of ten rounds leaves its
# rows not resolved and prints a plan; the plan's runs and rounds, made on
# the sim, resolve every row it planned. The negative check: the plan's
# runs at the pilot's ten rounds leave them not resolved (more runs alone do
# not narrow a run's interval).
. "${top_srcdir:-.}/tests/lib.sh"
plan 9
S="$top_srcdir/tests/scenarios/sim/plan.lua"

cb run "$S" --runs 3 -o "$WORK/pilot" --no-progress
check "a pilot of 3 runs of 10 rounds" status_is 0
cb compare "$WORK/pilot" --plan --format json
check "compare --plan --format json exits 0" status_is 0
cp "$WORK/out" "$WORK/plan.json"
open=$(jq '[.rows[] | select(.status == "needs")] | length' "$WORK/plan.json")
runs=$(jq '.table.runs' "$WORK/plan.json")
rounds=$(jq '.table.rounds' "$WORK/plan.json")
check "the pilot leaves rows the plan can resolve ($open)" test "$open" -ge 1
check "one plan for the table: $runs runs of $rounds rounds" test "$runs" -ge 2 -a "$rounds" -gt 10
cb compare "$WORK/pilot" --plan
check "the text plan names the table's plan" out_has "The whole table: $runs runs of $rounds rounds"

# not_resolved DIR: the rows compare of DIR leaves not resolved
not_resolved() {
	"$CRYPTOBENCH" compare "$1" --format json |
		jq '[.. | objects | select(has("verdict")) | select(.verdict == "not resolved")] | length'
}
cb run "$S" --runs "$runs" --set rounds="$rounds" --set seed=12 -o "$WORK/planned" --no-progress
check "the plan's runs made" status_is 0
left=$(not_resolved "$WORK/planned")
check "the plan resolves the rows it planned (left: $left)" test "$left" -eq 0

cb run "$S" --runs "$runs" --set seed=12 -o "$WORK/short" --no-progress
check "the plan's runs at the pilot's rounds made" status_is 0
left=$(not_resolved "$WORK/short")
check "at the pilot's rounds the rows stay not resolved (left: $left)" test "$left" -ge "$open"
done_testing
