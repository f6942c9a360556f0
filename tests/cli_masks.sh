#!/bin/sh
# Capability-mask verdicts (analysis/verdicts/masks.h): a masked variant is honoured
# when some cell moves beyond delta, ignored when every cell is shown within
# delta, not resolved otherwise; what the feature is worth is said only for
# an honoured mask. The sim knows the truth; it cannot carry env (a built-in),
# so the run's header is rewritten into a masked run's
# (tests/scenarios/masks/sim.lua says how). Further rewrites check which
# reference is chosen (a variant written with env = {} runs in a process of
# its own, like the masked one) and the measure (CPU time before wall time).
. "${top_srcdir:-.}/tests/lib.sh"
plan 29

cb run "$top_srcdir/tests/scenarios/masks/sim.lua" -o "$WORK/sim.jsonl"
check "the sim run completes" status_is 0
jq -c 'if .type == "run" then .scenario.engines |= map(
	(if (.label | startswith("masked-")) or .label == "alone" then .env = {"CB_MASK": .label} else . end)
	| (if .label != "alone" then .options = {} else . end))
	| .scenario.engines += [.scenario.engines[0] | .label = "ghost" | .env = {"CB_MASK": "ghost"}]
	else . end' "$WORK/sim.jsonl" >"$WORK/masks.jsonl"

cb report "$WORK/masks.jsonl" --format json
cp "$WORK/out" "$WORK/masks.json"
# mask LABEL FILTER: the jq FILTER applied to the mask LABEL of the JSON report
mask() { jq -r ".[0].masks[] | select(.label == \"$1\") | $2" "$WORK/masks.json"; }
check "4x the work per byte: honoured" test "$(mask masked-4x .verdict)" = honoured
check "...its effect is the 16 KiB cell's, 0.2515 by construction, with an interval" \
	test "$(mask masked-4x '.effect | (.cell | test("\\|16384\\|")) and .ratio.value > 0.245 and .ratio.value < 0.258 and .ratio.lo <= .ratio.value and .ratio.hi < 0.26')" = true
check "...against the variant without env" test "$(mask masked-4x .reference)" = sim
check "5% more work (ratio 0.953): honoured, beyond delta 2% in every cell" \
	test "$(mask masked-5pct '"\(.verdict) \(.cells_beyond)"')" = "honoured 4"
check "1% more work (ratio 0.991): ignored, every cell within delta 2%" \
	test "$(mask masked-1pct '"\(.verdict) \(.cells_within)"')" = "ignored 4"
check "the same cost under 20% jitter: not resolved, more rounds would tell" \
	test "$(mask masked-noisy '"\(.verdict) \(.summary | test("more rounds would tell"))"')" = "not resolved true"
check "an env and no variant without it: not resolved, saying so" \
	test "$(mask alone '"\(.verdict) \(.summary | test("no variant of sim without env"))"')" = "not resolved true"
check "a masked variant without a cell in the run: not resolved, saying so" \
	test "$(mask ghost '"\(.verdict) \(.summary | test("ghost has no cell in this run"))"')" = "not resolved true"
check "the feature's worth is withheld for every cell of an ignored or unresolved mask" \
	test "$(jq '[.[0].masks[] | select(.verdict != "honoured") | .cells[] | .feature_worth | startswith("withheld")] | (length == 8 and all)' "$WORK/masks.json")" = true
check "...and given for an honoured one (4x: 3.98x and 3.72x)" \
	test "$(mask masked-4x '[.cells[].feature_worth | test("^3\\.(98|97|99|71|72|73)x")] | all')" = true

cb report "$WORK/masks.jsonl"
# The text wraps at 100 columns: the verdict lines are read joined.
check "text: one verdict per mask, the honoured one with its ratio and interval" \
	sh -c "tr '\n' ' ' <'$WORK/out' | tr -s ' ' | grep -Eq -- '- masked-4x \(CB_MASK=masked-4x\) against sim: honoured: masked-4x (sha256 hash|aes-128-cbc encrypt) 16KiB 0\.25[0-9]*x \[0\.2[0-9]*, 0\.2[0-9]*\]'"
check "text: the ignored mask says nothing follows about its feature" \
	sh -c "tr '\n' ' ' <'$WORK/out' | tr -s ' ' | grep -q -- '- masked-1pct (CB_MASK=masked-1pct) against sim: ignored: every one of 4 cells within delta 2%.*nothing follows about the feature it masks'"
check "text: the table gives the worth of an honoured mask's cell, withholds an ignored one's" \
	sh -c "grep -Eq '^masked-4x +sha256 +hash +16KiB +0\.25[0-9]* .* beyond +3\.9[789]x\$' '$WORK/out' && grep -Eq '^masked-1pct +sha256 +hash +16KiB .* within +withheld\$' '$WORK/out'"
cb report "$WORK/masks.jsonl" --format markdown
check "markdown: the section and its verdict lines" \
	sh -c "grep -q '^### Capability masks' '$WORK/out' && grep -q '^- masked-noisy (CB_MASK=masked-noisy) against sim: not resolved' '$WORK/out'"

cb report "$WORK/masks.jsonl" --format json --delta 0.06
check "delta 6%: the 5% mask is ignored instead (the margin decides)" \
	test "$(jq -r '.[0].masks[] | select(.label == "masked-5pct") | .verdict' "$WORK/out")" = ignored
check "delta 6%: the 4x mask stays honoured" \
	test "$(jq -r '.[0].masks[] | select(.label == "masked-4x") | .verdict' "$WORK/out")" = honoured

# The reference in a process of its own: "alone" rewritten as the scenario's
# { "sim", env = {}, label = "alone" } (the header keeps env = {} in as_written),
# and the engine called a library, whose plain variant would run in cryptobench.
jq -c 'if .type == "run" then (.engines |= map(if .name == "sim" then .kind = "library" else . end))
	| .scenario.engines |= map(if .label == "alone" then .env = {} | .options = {}
	| .as_written = {"engine": "sim", "label": "alone", "env": {}} else . end) else . end' \
	"$WORK/masks.jsonl" >"$WORK/worker.jsonl"
cb report "$WORK/worker.jsonl" --format json
check "a variant written with env = {} is the reference, ahead of the plain one" \
	test "$(jq -r '[.[0].masks[] | select(.label != "ghost") | "\(.label)=\(.reference)/\(.reference_process)"] | join(" ")' "$WORK/out")" = "masked-4x=alone/a process of its own masked-5pct=alone/a process of its own masked-1pct=alone/a process of its own masked-noisy=alone/a process of its own"
check "...and the verdicts against it are the truth's (4x, 5% honoured; 1% ignored)" \
	test "$(jq -r '[.[0].masks[] | select(.label | test("^masked-[0-9]")) | .verdict] | join(",")' "$WORK/out")" = "honoured,honoured,ignored"
jq -c 'if .type == "run" then .engines |= map(if .name == "sim" then .kind = "library" else . end) else . end' \
	"$WORK/masks.jsonl" >"$WORK/library.jsonl"
cb report "$WORK/library.jsonl" --format json
check "a library engine's plain variant as the reference: said to run in cryptobench's own process" \
	test "$(jq -r '.[0].masks[] | select(.label == "masked-4x") | .reference_process' "$WORK/out")" = "cryptobench's own"
check "...and an unresolved mask against it points to env = {}" \
	sh -c "jq -r '.[0].masks[] | select(.label == \"masked-noisy\") | .summary' '$WORK/out' | grep -q 'a variant with env = {} compares like with like'"
check "an unresolved cell says about how many rounds would tell (20% jitter, 30 rounds: more than 30)" \
	test "$(mask masked-noisy '([.cells[].rounds_needed // 0] | max > 30) and (.summary | test("about [0-9]+ rounds at this spread"))')" = true

# The measure: without cycles, the CPU time when every trial has it. Here the
# CPU time is the sim's time and the wall time carries preemptions: each trial
# takes 1 to 1.5 times as long, by a hash of its seq (so a round's two trials differ).
jq -c 'if .type == "trial" then del(.cycles) | .cpu_ns = .ns
	| .ns = .ns * (1 + 0.5 * (.seq * 12.9898 | sin * 43758.5453 | . - floor)) else . end' \
	"$WORK/masks.jsonl" >"$WORK/cpu.jsonl"
cb report "$WORK/cpu.jsonl" --format json
check "no cycles, CPU time on every trial: the cells are judged on MB/s of CPU time" \
	test "$(jq -r '[.[0].masks[].cells[].throughput] | unique | join(",")' "$WORK/out")" = "MB/s of CPU time"
check "...where 4x and 5% stay honoured and 1% stays ignored, through the preemptions" \
	test "$(jq -r '[.[0].masks[] | select(.label | test("^masked-[0-9]")) | .verdict] | join(",")' "$WORK/out")" = "honoured,honoured,ignored"
cb report "$WORK/cpu.jsonl"
check "text: the table names the measure" \
	grep -Eq '^masked-1pct +sha256 +hash +16KiB .* CPU MB/s +within +withheld$' "$WORK/out"
jq -c 'if .type == "trial" then del(.cpu_ns) else . end' "$WORK/cpu.jsonl" >"$WORK/wall.jsonl"
cb report "$WORK/wall.jsonl" --format json
check "the same trials on wall time alone: the 1% mask is no longer shown ignored" \
	test "$(jq -r '.[0].masks[] | select(.label == "masked-1pct") | "\(.verdict) \(.cells[0].throughput)"' "$WORK/out")" = "not resolved MB/s"
check "...nor the 5% one honoured in every cell" \
	test "$(jq -r '.[0].masks[] | select(.label == "masked-5pct") | .cells_beyond < 4' "$WORK/out")" = true

cb report "$WORK/sim.jsonl" --format json
check "a run without env has no masks in its JSON" test "$(jq '.[0] | has("masks")' "$WORK/out")" = false
cb report "$WORK/sim.jsonl"
check "...nor a section in its text" sh -c "! grep -q 'Capability masks' '$WORK/out'"
done_testing
