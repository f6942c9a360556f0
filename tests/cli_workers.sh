#!/bin/sh
# Worker engines (core/engines/workers/PROTOCOL.md): a worker that dies,
# hangs, writes garbage or read other bytes costs one invalid trial and the
# run goes on; a worker that greets in prose makes its engine unusable with
# one line naming it. The misbehaving workers are tests/workers/faulty.py, the
# real Python worker with one fault; the engine under test is python-hashlib.
. "${top_srcdir:-.}/tests/lib.sh"

N=26
echo "1..$N"
SC="$top_srcdir/tests/scenarios/workers/hashlib.lua"
FAULTY="$top_srcdir/tests/workers/faulty.py"

cb run "$SC" -o "$WORK/good.jsonl"
if [ "$(cat "$WORK/status")" != 0 ] && grep -q "python-hashlib is not usable here" "$WORK/err"; then
	i=1
	while [ $i -le $N ]; do
		echo "ok $i # SKIP $(head -n 1 "$WORK/err")"
		i=$((i + 1))
	done
	exit 0
fi
PY=$(head -n 1 "$WORK/good.jsonl" | jq -r '.engines[0].features.executable')

# trials FILE FILTER: how many trial lines match the jq FILTER.
trials() { jq -s "[.[] | select(.type == \"trial\") | select($2)] | length" "$1"; }
# faulty MODE: a run with the fault MODE; results in $WORK/MODE.jsonl.
faulty() {
	env CRYPTOBENCH_WORKER_PYTHON_HASHLIB="$PY $FAULTY $1 $WORK/$1.marker" \
		"$CRYPTOBENCH" run "$SC" -o "$WORK/$1.jsonl" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}

check "a worker run completes" status_is 0
check "every trial valid and timed by the worker" \
	test "$(trials "$WORK/good.jsonl" '.valid and .clock == "worker"')" -eq "$(trials "$WORK/good.jsonl" true)"
check "every input digest is the generator's" \
	test "$(trials "$WORK/good.jsonl" ".input_sha256 == \"$("$CRYPTOBENCH" input 4KiB | sha256sum | cut -c1-64)\"")" -eq "$(trials "$WORK/good.jsonl" true)"
check "the round trip is recorded, and never less than the worker's time" \
	test "$(trials "$WORK/good.jsonl" '.round_trip_ns >= .ns and .ns > 0')" -eq "$(trials "$WORK/good.jsonl" true)"
check "the header names the interpreter and the library" \
	sh -c "head -n 1 '$WORK/good.jsonl' | jq -e '.engines[0].features.executable and (.engines[0].version | test(\"OpenSSL\"))' >/dev/null"

faulty die
check "killed worker: the run completes" status_is 0
check "killed worker: exactly one invalid trial" test "$(trials "$WORK/die.jsonl" '.valid | not')" -eq 1
check "killed worker: it says the worker died, by which signal" \
	test "$(trials "$WORK/die.jsonl" '.error // "" | test("python-hashlib worker died \\(killed by signal 9\\)")')" -eq 1
check "killed worker: restarted, the later trials valid" \
	test "$(trials "$WORK/die.jsonl" '.worker_restarts == 1 and .valid')" -ge 1
check "killed worker: no trial lost" \
	test "$(jq -s '[.[] | select(.type == "end")][0].trials' "$WORK/die.jsonl")" -eq "$(trials "$WORK/good.jsonl" true)"

faulty garbage
check "garbage: the run completes" status_is 0
check "garbage: exactly one invalid trial" test "$(trials "$WORK/garbage.jsonl" '.valid | not')" -eq 1
check "garbage: one line naming the engine" \
	test "$(trials "$WORK/garbage.jsonl" '.error // "" | test("^python-hashlib worker wrote a line that is not a JSON object: .%%% not json %%%.[^\n]*$")')" -eq 1
check "garbage: the worker is replaced" test "$(trials "$WORK/garbage.jsonl" '.worker_restarts == 1 and .valid')" -ge 1

CRYPTOBENCH_WORKER_TIMEOUT=1 faulty hang
check "hung worker: the run completes" status_is 0
check "hung worker: killed after the timeout, one invalid trial" \
	test "$(trials "$WORK/hang.jsonl" '(.valid | not) and (.error | test("gave no answer within 1 s: killed"))')" -eq 1

faulty wrongseed
check "other bytes: one invalid trial, by the input digest" \
	test "$(trials "$WORK/wrongseed.jsonl" '(.valid | not) and (.error | test("input digest mismatch"))')" -eq 1
check "other bytes: the worker stays (it did not fail)" \
	test "$(trials "$WORK/wrongseed.jsonl" '.worker_restarts // 0 > 0')" -eq 0

CRYPTOBENCH_FAULT=python-hashlib "$CRYPTOBENCH" run "$SC" -o "$WORK/fault.jsonl" >/dev/null 2>&1
check "a wrong output from a worker is caught like any engine's" \
	test "$(trials "$WORK/fault.jsonl" '(.valid | not) and (.error | test("digest mismatch"))')" -eq "$(trials "$WORK/fault.jsonl" true)"

env CRYPTOBENCH_WORKER_PYTHON_HASHLIB="$PY $FAULTY badhello $WORK/b.marker" "$CRYPTOBENCH" engines >"$WORK/out" 2>&1
check "prose hello: the engine is unavailable, with one line naming it" \
	grep -q "^python-hashlib .*UNAVAILABLE: python-hashlib worker wrote a line that is not a JSON object" "$WORK/out"
faulty badhello
check "prose hello: a run naming the engine exits 2" status_is 2
check "...with one line" test "$(wc -l <"$WORK/err")" -eq 1
check "...naming the engine" err_has "python-hashlib"

cb verify python-hashlib
check "known answers through the protocol" status_is 0

# An answer over 1 MiB has its base64 output cut out before the JSON parse
# (core/engine/worker.c): a 2 MiB ciphertext must still verify.
cb run --engines python-cryptography --algorithms aes-128-cbc --sizes 2MiB --rounds 2 --trial-time 1ms -o "$WORK/big.jsonl"
if [ "$(cat "$WORK/status")" != 0 ] && grep -q "not usable here" "$WORK/err"; then
	echo "ok $((tap_n + 1)) # SKIP $(head -n 1 "$WORK/err")"
	tap_n=$((tap_n + 1))
else
	check "a 2 MiB ciphertext through the protocol: every trial valid" \
		test "$(trials "$WORK/big.jsonl" '.valid and .cell.size == 2097152')" -eq 6
fi

# engines, as text: a worker's line keeps its runtime and drops the calls
# (a screen of JSON per worker), which --json keeps.
"$CRYPTOBENCH" engines >"$WORK/engines.txt" 2>&1
"$CRYPTOBENCH" engines --json >"$WORK/engines.json" 2>&1
short_features() {
	grep -q '^python-hashlib features: {"runtime"' "$WORK/engines.txt" &&
		! grep '^python-hashlib features: ' "$WORK/engines.txt" | grep -q '"calls"' &&
		grep -q '^(each worker.s calls' "$WORK/engines.txt" &&
		jq -e '.[] | select(.name == "python-hashlib") | .features.calls.sha256' "$WORK/engines.json" >/dev/null
}
check "engines: a worker's features line without its calls; --json keeps them" short_features

[ "$tap_n" -eq "$N" ] || echo "not ok $((tap_n + 1)) - the plan said $N tests, $tap_n ran"
[ "$tap_failed" -eq 0 ]
