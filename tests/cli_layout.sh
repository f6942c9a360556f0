#!/bin/sh
# Placement drawn per trial (layout = "trial", the default): each trial
# records its stack and output offsets; they are stratified (each block of 8
# rounds sees each of the 8 classes of stack / 16 mod 8 once, so a cell's
# trials are as often 32-byte aligned as not; the step within a class is
# drawn);
# only placement changes: the input's digest and every output are those of a
# run with one placement per run (layout = "run"). A cell whose speed
# follows the placement is reported layout-sensitive (the sim's virtual
# clock; no timing of this machine is checked). The input is placed per
# trial too, in process and up to 1 MiB: a 16 KiB cell's trials record
# where (layout.input, varying), a 2 MiB cell's do not.
. "${top_srcdir:-.}/tests/lib.sh"
plan 19

cb run "$top_srcdir/tests/scenarios/sim/layout.lua" -o "$WORK/sim.jsonl"
check "sim: a run exits 0" status_is 0
cb report "$WORK/sim.jsonl" --format json
cp "$WORK/out" "$WORK/sim.json"
# Under AddressSanitizer the frames between the pad and the engine are
# realigned to 32 bytes, so the sim never sees a 16-byte step.
asan=no
grep -q 'fsanitize=address' "${top_builddir:-.}/Makefile" 2>/dev/null && asan=yes
asan_why="AddressSanitizer realigns the frames to 32 bytes: no 16-byte step reaches the engine"
if [ $asan = yes ]; then
	skip 1 "$asan_why"
else
	check "sim: the placed engine is layout-sensitive" sh -c "jq -e '.[0].cells[] | select(.cell.label == \"sim-placed\") | .layout.sensitive and .layout.p < 0.01' '$WORK/sim.json' >/dev/null"
fi
check "sim: the steady engine is not" sh -c "jq -e '.[0].cells[] | select(.cell.label == \"sim-steady\") | .layout.sensitive == false' '$WORK/sim.json' >/dev/null"
cb report "$WORK/sim.jsonl"
if [ $asan = yes ]; then
	skip 1 "$asan_why"
else
	check "sim: report warns, naming the cell" out_has "sim-placed sha256 hash 16KiB.*layout-sensitive"
fi
cb run "$top_srcdir/tests/scenarios/sim/layout.lua" --set layout=run -o "$WORK/simrun.jsonl"
cb report "$WORK/simrun.jsonl" --format json
check "sim: with layout = run nothing is judged" sh -c "jq -e '[.[0].cells[] | has(\"layout\")] | any | not' '$WORK/out' >/dev/null"

cb run --engines memcpy --algorithms sha256 --ops hash --sizes 16KiB,2MiB --rounds 16 \
	--trial-time 1ms --no-progress -o "$WORK/input.jsonl"
check "memcpy 16KiB and 2MiB: exit 0, every trial valid (its output is its input)" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] && jq -s -e 'map(select(.type == \"trial\")) | length > 0 and all(.valid)' '$WORK/input.jsonl' >/dev/null"
check "the header: input placed per trial up to 1 MiB" \
	sh -c "head -n 1 '$WORK/input.jsonl' | jq -e '.setup.input_per_trial_max == 1048576' >/dev/null"
check "16KiB: every trial's layout.input, steps of 64 below 4096, at least 8 values" \
	sh -c "jq -s -e 'map(select(.type == \"trial\" and .cell.size == 16384) | .layout.input) | all(type == \"number\" and . % 64 == 0 and . < 4096) and (unique | length >= 8)' '$WORK/input.jsonl' >/dev/null"
check "2MiB: no trial records layout.input (the run's offset)" \
	sh -c "jq -s -e 'map(select(.type == \"trial\" and .cell.size == 2097152)) | length > 0 and all(.layout | has(\"stack\") and (has(\"input\") | not))' '$WORK/input.jsonl' >/dev/null"

if ! "$CRYPTOBENCH" engines | grep -q '^openssl .*library  OpenSSL'; then
	skip 10 "the openssl engine is not built"
	done_testing
	exit
fi
ARGS="--engines openssl --algorithms aes-128-gcm --ops encrypt,decrypt --sizes 1KiB,4KiB --rounds 8 --trial-time 1ms --no-progress"

cb run $ARGS -o "$WORK/trial.jsonl"
check "a run with the default layout exits 0" status_is 0
check "the header records layout trial and its seed" sh -c "head -n 1 '$WORK/trial.jsonl' | jq -e '.scenario.layout == \"trial\" and .setup.layout == \"trial\" and (.setup.layout_seed | type) == \"number\"' >/dev/null"
check "every trial is valid and records its placement" sh -c "jq -s -e 'map(select(.type == \"trial\")) | length > 0 and all(.valid and (.layout.stack | type) == \"number\" and (.layout.out | type) == \"number\")' '$WORK/trial.jsonl' >/dev/null"
check "stack steps of 16, outputs steps of 64, within a page" sh -c "jq -s -e 'map(select(.type == \"trial\") | .layout) | all(.stack % 16 == 0 and .stack < 4096 and .out % 64 == 0 and .out < 4096)' '$WORK/trial.jsonl' >/dev/null"
check "per cell, each block of 8 rounds a different alignment class (stack / 16 mod 8)" sh -c "jq -s -e 'map(select(.type == \"trial\")) | group_by([(.cell | tostring), (.round / 8 | floor)]) | all((map(.layout.stack / 16 % 8) | unique | length) == length)' '$WORK/trial.jsonl' >/dev/null"
check "per cell, as many trials 32-byte aligned as not (stack offset)" sh -c "jq -s -e 'map(select(.type == \"trial\")) | group_by(.cell | tostring) | all((map(select(.layout.stack % 32 == 0)) | length) * 2 - length | fabs <= 1)' '$WORK/trial.jsonl' >/dev/null"

cb run $ARGS --set layout=run -o "$WORK/run.jsonl"
check "--set layout=run: no placement per trial" sh -c "head -n 1 '$WORK/run.jsonl' | jq -e '.scenario.layout == \"run\"' >/dev/null && ! grep '\"type\":\"trial\"' '$WORK/run.jsonl' | grep -q '\"layout\":{'"
check "the same input bytes (digest) either way" sh -c "[ \"\$(head -n 1 '$WORK/trial.jsonl' | jq -r .input.sha256)\" = \"\$(head -n 1 '$WORK/run.jsonl' | jq -r .input.sha256)\" ]"
check "the same outputs per cell either way (each trial verified)" sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | \"\(.cell.label) \(.cell.op) \(.cell.size) \(.output_sha256)\"' '$WORK/trial.jsonl' | sort -u)\" = \"\$(jq -r 'select(.type == \"trial\") | \"\(.cell.label) \(.cell.op) \(.cell.size) \(.output_sha256)\"' '$WORK/run.jsonl' | sort -u)\" ]"

printf 'local cb = require "cryptobench"\ncb.scenario {\n  name = "x", engines = { "null" }, algorithms = { "sha256" }, sizes = { "64B" },\n  layout = "page",\n}\n' >"$WORK/bad.lua"
cb run "$WORK/bad.lua" -o "$WORK/bad.jsonl"
check "layout = \"page\": exit 2, one line naming file and line" sh -c "[ \"\$(cat '$WORK/status')\" = 2 ] && [ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'bad.lua:4:.*layout' '$WORK/err'"
done_testing
