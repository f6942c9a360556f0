#!/bin/sh
# Runs until resolved (core/run/runner.h, cli/run_until.h) and --runs auto
# (cli/run_auto.h) on the sim engine's virtual clock: the rule in the
# header, a look after each block, closed cells measured no more, the end
# line's outcome, a budget counted in virtual time, bad values refused with
# one line, and a file killed at a look or mid-block that --resume finishes
# with the same rule, the same looks and no trial of a closed cell.
. "${top_srcdir:-.}/tests/lib.sh"
plan 37
S="$top_srcdir/tests/scenarios/cli/until.lua"
K="$top_srcdir/tests/scenarios/cli/kill.lua"

# jq_quiet ARGS...: jq -e, its output dropped
jq_quiet() { jq -e "$@" >/dev/null; }
# looks FILE: each look as "round measuring-keys", one a line
looks() { jq -r 'select(.type == "look") | "\(.round) \(.measuring | join(","))"' "$1"; }
# closed_measured FILE: trials of a cell after a look that had closed it
# (empty when none)
closed_measured() {
	jq -s -r '[.[] | select(.type == "look")] as $l
		| .[] | select(.type == "trial" and .warmup == false) as $t
		| ($t.cell | "\(.label)|\(.algorithm)|\(.op)|\(.size)|\(.threads)") as $k
		| $l[] | select(.round < $t.round and ((.measuring | index($k)) | not))
		| "\($k) round \($t.round) after the look at \(.round)"' "$1" | head -n 3
}
# strata FILE: cells whose measured rounds are not whole blocks of 8, each
# seeing the 8 stack classes once (empty when all are)
strata() {
	jq -s -r '[.[] | select(.type == "trial" and .warmup == false)]
		| group_by(.cell | "\(.label)|\(.size)") | .[]
		| group_by((.round - 1) / 8 | floor) | .[]
		| select(([.[].layout.stack / 16 % 8] | unique | length) != 8)
		| .[0].cell.label + " " + (.[0].cell.size | tostring) + " block of round " + (.[0].round | tostring)' "$1"
}

cb run "$S" -o "$WORK/u.jsonl" --no-progress
check "a scenario with stop = {...} runs until resolved: exit 0" status_is 0
check "the header records the rule: until resolved, blocks of 8, first look at 8, max 64" \
	sh -c "head -n 1 '$WORK/u.jsonl' | jq -e '.stop | .until_resolved and .block == 8 and .min_rounds == 8 and .max_rounds == 64' >/dev/null"
looks "$WORK/u.jsonl" >"$WORK/u.looks"
check "a look after every block: rounds 8, 16, ... (warm-up first)" \
	sh -c "cut -d' ' -f1 '$WORK/u.looks' | awk '\$1 != NR * 8 { bad = 1 } END { exit bad || NR < 2 }'"
check "cells leave the rotation at different looks" \
	sh -c "[ \$(cut -d' ' -f2 '$WORK/u.looks' | sort -u | wc -l) -ge 3 ]"
check "a closed cell gets no trial after the look that closed it" \
	test -z "$(closed_measured "$WORK/u.jsonl")"
check "each cell's measured rounds are whole blocks, each with the 8 stack classes" \
	test -z "$(strata "$WORK/u.jsonl")"
check "the end line says why it stopped, as its last look has it" \
	jq_quiet -s '(map(select(.type == "look")) | last) as $l | (last | .stop) as $s
		| $s.rounds == $l.round and $s.questions_open == $l.questions_open
		and (if $l.questions_open == 0 then $s.outcome == "resolved" else $s.outcome == "max_rounds" end)' "$WORK/u.jsonl"
check "stderr says a line per look and the outcome" \
	sh -c "[ \$(grep -c '^look after' '$WORK/err') -eq \$(grep -c '' '$WORK/u.looks') ] && grep -q '^stopped (' '$WORK/err'"
cb report "$WORK/u.jsonl"
check "report reads a file with look lines" status_is 0

cb run "$S" --until rounds -o "$WORK/fixed.jsonl" --no-progress
check "--until rounds: the scenario's 8 rounds, no look, no stop" \
	sh -c "[ \$(cat '$WORK/status') -eq 0 ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/fixed.jsonl') -eq 54 ] && ! grep -q '\"type\":\"look\"' '$WORK/fixed.jsonl' && tail -n 1 '$WORK/fixed.jsonl' | jq -e '.stop == null' >/dev/null"
cb run "$K" --until resolved --set stop_max_rounds=16 -o "$WORK/k.jsonl" --no-progress
check "--until resolved on a scenario without stop: looks, and the rule recorded" \
	sh -c "[ \$(cat '$WORK/status') -eq 0 ] && grep -q '\"type\":\"look\"' '$WORK/k.jsonl' && head -n 1 '$WORK/k.jsonl' | jq -e '.stop.until_resolved and .stop.max_rounds == 16 and .scenario.params.until.value == \"resolved\"' >/dev/null"

# A budget, on the virtual clock: rounds of 6 trials of about 22 ms, so the
# first look comes at about 1.2 s, the 96B cells go on alone, and no block
# starts that would end past 3 s.
cb run "$S" --budget 3s --set trial_time=20ms -o "$WORK/b.jsonl" --no-progress
check "--budget 3s: exit 0" status_is 0
check "the budget is in the rule and the outcome is budget" \
	sh -c "head -n 1 '$WORK/b.jsonl' | jq -e '.stop.budget_s == 3' >/dev/null && tail -n 1 '$WORK/b.jsonl' | jq -e '.stop.outcome == \"budget\"' >/dev/null"
check "the run's virtual time stays within the budget, after two looks or more" \
	sh -c "tail -n 1 '$WORK/b.jsonl' | jq -e '.stop.elapsed_s <= 3 and .stop.looks >= 2' >/dev/null"

# Bad values: exit 2, one line naming the file and line (or the option).
bad() { # NAME FIELD-TEXT WANT
	printf 'local cb = require "cryptobench"\ncb.scenario {\n  name = "b", engines = { "sim" },\n  algorithms = { "sha256" }, sizes = { "64B" },\n  %s,\n}\n' "$2" >"$WORK/bad.lua"
	cb run "$WORK/bad.lua" -o "$WORK/bad.jsonl" --no-progress
	check "$1: exit 2, one line at bad.lua:5" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(grep -c '' '$WORK/err') -eq 1 ] && grep -q 'bad.lua:5:.*$3' '$WORK/err'"
}
bad "a block not a multiple of 8" 'stop = { block = 12 }' 'multiple of 8'
bad "a budget without its unit" 'stop = { budget = 10 }' 'duration'
bad "a misspelt stop field" 'stop = { bugdet = "1m" }' 'did you mean .budget.'
bad "a precision without %" 'stop = { precision = 0.01 }' 'percentage'
bad "stop not a table" 'stop = "10m"' 'must be a table'
cb run "$S" --budget 3x -o "$WORK/bad.jsonl"
check "--budget 3x: exit 2, one line naming the units" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(grep -c '' '$WORK/err') -eq 1 ] && grep -q 'budget' '$WORK/err'"
cb run "$S" --until answered -o "$WORK/bad.jsonl"
check "--until answered: exit 2" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -q 'resolved or rounds' '$WORK/err'"
cb run "$S" --set stop_precision=1 -o "$WORK/bad.jsonl"
check "--set stop_precision=1: exit 2, one line" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(grep -c '' '$WORK/err') -eq 1 ] && grep -q 'stop_precision' '$WORK/err'"
cb run "$S" --set order=blocked -o "$WORK/bad.jsonl"
check "blocked order cannot run until resolved: exit 2" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -q 'blocked' '$WORK/err'"

# Killed at a look and mid-block, then --resume: the same rule, the same
# looks as the run never killed (the sim's trials are the same whenever
# they run), and no closed cell measured again.
# (the header differs per run: its run id and time; each test keeps its own)
for spec in at-look:look:2 mid-block:trial:110; do
	name=${spec%%:*}
	(CRYPTOBENCH_KILL_AT=${spec#*:} "$CRYPTOBENCH" run "$S" -o "$WORK/$name.jsonl" --no-progress) >/dev/null 2>&1
	echo $? >"$WORK/status"
	check "$name (${spec#*:}): killed by SIGKILL" status_is 137
	cp "$WORK/$name.jsonl" "$WORK/$name.before"
	head -n 1 "$WORK/$name.before" >"$WORK/$name.before.head"
	looks "$WORK/$name.before" | tail -n 1 | cut -d' ' -f2 | tr ',' '\n' >"$WORK/$name.open"
	cb run --resume "$WORK/$name.jsonl" --no-progress
	check "$name: --resume exits 0, the file complete with an outcome" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && tail -n 1 '$WORK/$name.jsonl' | jq -e '.type == \"end\" and .stop.outcome != \"interrupted\"' >/dev/null"
	check "$name: the header and its rule unchanged" sh -c "head -n 1 '$WORK/$name.jsonl' | cmp -s - '$WORK/$name.before.head'"
	looks "$WORK/$name.jsonl" >"$WORK/$name.looks"
	check "$name: the looks go on as those of the run never killed" cmp -s "$WORK/$name.looks" "$WORK/u.looks"
	n=$(grep -c '' "$WORK/$name.before")
	tail -n +"$((n + 1))" "$WORK/$name.jsonl" | jq -r 'select(.type == "trial" and .warmup == false) | .cell | "\(.label)|\(.algorithm)|\(.op)|\(.size)|\(.threads)"' | sort -u >"$WORK/$name.after"
	check "$name: after the kill, only cells its last look left open were measured" \
		sh -c "[ -s '$WORK/$name.open' ] && [ -s '$WORK/$name.after' ] && ! sort -u '$WORK/$name.open' | comm -13 - '$WORK/$name.after' | grep -q ."
done

# --runs auto on a budget of virtual time: a pilot of two runs, then the
# plan's runs would not fit, so it stops; each decision logged.
cb run "$S" --runs auto --budget 5s -o "$WORK/auto" --no-progress
check "--runs auto --budget 5s: exit 0" status_is 0
check "plan.log: one decision per run, the last one not continue" \
	sh -c "[ \$(grep -c '' '$WORK/auto/plan.log') -eq \$(ls '$WORK/auto' | grep -c '^run-.*\\.jsonl\$') ] && tail -n 1 '$WORK/auto/plan.log' | jq -e '.decision != \"continue\"' >/dev/null"
check "a run after a decision has the rounds it decided, fixed (until rounds)" \
	sh -c "head -n 1 '$WORK/auto/run-2.jsonl' | jq -e --argjson r \"\$(head -n 1 '$WORK/auto/plan.log' | jq .rounds)\" '.rounds == \$r and .stop == null' >/dev/null"
check "stderr has each decision" sh -c "[ \$(grep -c '^after run' '$WORK/err') -eq \$(grep -c '' '$WORK/auto/plan.log') ]"
done_testing
