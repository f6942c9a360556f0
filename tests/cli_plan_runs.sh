#!/bin/sh
# compare --plan on the sim: a pilot of five runs of ten rounds leaves its
# rows not resolved and prints a plan; the plan's runs and rounds, made on
# the sim, resolve every row it planned. The negative check: the plan's
# runs at the pilot's ten rounds leave them not resolved (more runs alone do
# not narrow a run's interval). Three runs of the pilot cannot bound the
# between-run spread: its rows are unsure. Then run --runs auto on a budget
# of virtual time: it pilots, plans, carries the plan out and stops
# resolved; compare of its folder judges the plan's runs, not the pilot's.
# Within a budget the table's plan is a bet that fits it. A set whose first
# run takes longer than planned (the sim's runs from the third on are 40%
# slower after calibrating) is re-planned to fit, ends within its budget
# with a complete set, and compare judges that set. Runs of two rounds have
# no run interval (a median's needs six): compare --plan says "no data" for
# their rows and --runs auto stops after its pilot (both once crashed).
. "${top_srcdir:-.}/tests/lib.sh"
plan 28
S="$top_srcdir/tests/scenarios/sim/plan.lua"

cb run "$S" --runs 3 -o "$WORK/pilot3" --no-progress
cb compare "$WORK/pilot3" --plan --format json
unsure=$(jq '[.rows[] | select(.status == "unsure")] | length' "$WORK/out")
check "three pilot runs: the rows are unsure ($unsure), not cannot" \
	sh -c "[ '$unsure' -ge 1 ] && [ \$(jq '[.rows[] | select(.status == \"cannot\")] | length' '$WORK/out') -eq 0 ]"
cb compare "$WORK/pilot3" --plan
check "the text says a larger pilot would tell" out_has "a larger pilot would tell"

cb run "$S" --runs 5 -o "$WORK/pilot" --no-progress
check "a pilot of 5 runs of 10 rounds" status_is 0
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

cb run "$S" --runs auto --budget 60s -o "$WORK/auto" --no-progress
check "--runs auto --budget 60s: exit 0" status_is 0
check "it ends resolved (plan.log)" sh -c "tail -n 1 '$WORK/auto/plan.log' | jq -e '.decision == \"resolved\"' >/dev/null"
check "a planned set is carried out, not re-planned run by run" grep -q "carrying out the plan" "$WORK/auto/plan.log"
left=$(not_resolved "$WORK/auto")
check "compare of the folder: every row resolved (left: $left)" test "$left" -eq 0
cb compare "$WORK/auto"
check "compare says it judged the plan's runs, not the pilot's" err_has "judging its last"
left=$("$CRYPTOBENCH" compare "$WORK"/auto/run-*.jsonl --format json 2>/dev/null |
	jq '[.. | objects | select(has("verdict")) | select(.verdict == "not resolved")] | length')
check "its files given one by one, pilot too: not resolved ($left)" test "$left" -ge 1
cb compare "$WORK/pilot" --plan --budget 1s --format json
bet_fits() {
	jq -e --argjson open "$open" '.table.runs >= 2 and .table.seconds <= 1 and
		.table.expected_rows >= 0.5 and .table.expected_rows <= $open' "$WORK/out" >/dev/null
}
check "--plan --budget 1s: a bet that fits (seconds <= 1, expected rows 0.5..open)" bet_fits
cb run "$S" --runs auto --budget 1s --set slow_runs_from=2 --set slow_factor=1.4 \
	-o "$WORK/slow" --no-progress
check "--runs auto, later runs 40% slower: exit 0" status_is 0
L="$WORK/slow/plan.log"
check "run 3 cost at least 30% more than predicted (plan.log)" \
	jq -se '.[2].run_s >= 1.3 * .[2].predicted_s' "$L"
check "its set was re-planned, not abandoned" \
	sh -c "jq -se '.[2].decision == \"continue\" and (.[2].why | startswith(\"re-planned\"))' '$L' >/dev/null"
check "it ends resolved within its budget" \
	sh -c "tail -n 1 '$L' | jq -e '.decision == \"resolved\" and .elapsed_s <= .budget_s' >/dev/null"
set_rounds=$(tail -n 1 "$L" | jq '.rounds')
cb compare "$WORK/slow"
check "compare judges the completed set of $set_rounds rounds" \
	err_has "judging its last 2 runs of $set_rounds rounds"
cb run "$S" --runs 2 --set rounds=2 -o "$WORK/two" --no-progress
cb compare "$WORK/two" --plan --format json
check "compare --plan on two runs of two rounds: exit 0" status_is 0
# -s: jq 1.6's -e passes on empty input
check "its rows are no data, none planned" \
	jq -se 'length == 1 and (.[0] | (.rows | length) >= 1 and
		all(.rows[]; .status == "no data") and .table.runs == 0)' "$WORK/out"
cb run "$S" --runs auto --set rounds=2 -o "$WORK/auto2" --no-progress
check "--runs auto of two rounds: exit 0" status_is 0
check "it stops after its two pilot runs (plan.log)" \
	jq -se 'last | .after_runs == 2 and .decision == "cannot"' "$WORK/auto2/plan.log"
cb compare "$WORK/pilot" --budget 1m
check "--budget without --plan: exit 2" status_is 2
done_testing
