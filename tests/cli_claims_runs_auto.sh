#!/bin/sh
# cryptobench claims reads a `run --runs auto` folder as compare judges it:
# its last set of runs, not the pilot (cli_plan_runs.sh makes the same
# folder on the sim's virtual clock). The pilot's ten-round runs judged with
# the set leave rows not resolved, so a claim that every row is resolved
# holds on the set and fails with the pilot: it fails on the same runs with
# the plan.log taken away (every run judged), and would fail here if claims
# judged the pilot too. Its runs, its verdicts and its line on stderr are
# compare's.
. "${top_srcdir:-.}/tests/lib.sh"
plan 6
S="$top_srcdir/tests/scenarios/sim/plan.lua"

cb run "$S" --runs auto --budget 60s -o "$WORK/data/auto" --no-progress
check "--runs auto --budget 60s on the sim: exit 0" status_is 0
# not_resolved FILE|FOLDER...: the rows compare leaves not resolved.
not_resolved() {
	"$CRYPTOBENCH" compare "$@" --format json 2>/dev/null |
		jq '[.. | objects | select(has("verdict")) | select(.verdict == "not resolved")] | length'
}
with_pilot=$(not_resolved "$WORK"/data/auto/run-*.jsonl)
check "its runs judged all together, pilot too, leave rows open ($with_pilot)" test "$with_pilot" -ge 1
cb compare "$WORK/data/auto"
cp "$WORK/err" "$WORK/compare.err"
judged=$(sed -n 's/.*judging its last \([0-9]*\) runs.*/\1/p' "$WORK/compare.err")

# The claims: every row of the folder's comparison resolved; the numbers,
# how many runs and rows it judged.
cat >"$WORK/claims.lua" <<'LUA'
local d = data "auto"
local rows, open = 0, 0
for _, kind in ipairs({ "cells", "derived", "engines" }) do
  for _, r in ipairs(d.compare[kind] or {}) do
    rows = rows + 1
    if r.verdict == "not resolved" then open = open + 1 end
  end
end
claim {
  name = "all-resolved",
  text = "compare resolves every row of the folder",
  check = function() return rows > 0 and open == 0, open .. " of " .. rows .. " rows not resolved" end,
}
number { name = "Runs", value = #d.runs, format = "%d" }
number { name = "Rows", value = rows, format = "%d" }
LUA
cb claims "$WORK/claims.lua" --data "$WORK/data" --numbers "$WORK/numbers.tex"
held() { status_is 0 && grep -q '^held  *all-resolved:' "$WORK/out" || { diag "$(cat "$WORK/out")"; false; }; }
check "claims on the folder: every row resolved, as compare of it says" held
same_runs() {
	[ -n "$judged" ] && grep -qx '\\newcommand{\\Runs}{'"$judged"'}' "$WORK/numbers.tex" &&
		sed 's/^compare: /claims: /' "$WORK/compare.err" | cmp -s - "$WORK/err" ||
		{ diag "compare judged '$judged' runs: $(cat "$WORK/compare.err")"; diag "claims: $(cat "$WORK/numbers.tex" "$WORK/err")"; false; }
}
check "claims judged compare's runs ($judged), and says so in compare's words" same_runs
rows=$("$CRYPTOBENCH" compare "$WORK/data/auto" --format json 2>/dev/null |
	jq '[.cells, .derived, (.engines // [])] | map(length) | add')
check "its comparison has compare's rows ($rows)" grep -qx '\\newcommand{\\Rows}{'"$rows"'}' "$WORK/numbers.tex"

# The same runs without the plan.log: every run is judged, the pilot too.
mkdir -p "$WORK/plain/auto" && cp "$WORK"/data/auto/run-*.jsonl "$WORK/plain/auto/"
cb claims "$WORK/claims.lua" --data "$WORK/plain"
fails_with_pilot() {
	status_is 1 && grep -q '^NOT SUPPORTED  *all-resolved:' "$WORK/out" || { diag "$(cat "$WORK/out")"; false; }
}
check "the same runs without plan.log, pilot judged: the claim fails" fails_with_pilot

done_testing
