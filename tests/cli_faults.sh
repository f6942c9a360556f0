#!/bin/sh
# The test-only fault switch (CRYPTOBENCH_FAULT, core/engine/engine.h): each kind of
# engine failure becomes invalid trials or a visible outlier, the run stays
# complete, and the other engines' trials are untouched.
. "${top_srcdir:-.}/tests/lib.sh"
plan 37
S="$top_srcdir/tests/scenarios/cli/faults.lua"
per_engine=8 # (3 rounds + 1 warm-up) x 2 sizes

# fault_run NAME SPEC [ARGS]: run the scenario with CRYPTOBENCH_FAULT=SPEC into $WORK/NAME.jsonl
fault_run() {
	name=$1 spec=$2
	shift 2
	CRYPTOBENCH_FAULT=$spec "$CRYPTOBENCH" run "$S" -o "$WORK/$name.jsonl" "$@" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}
# trials FILE LABEL VALID: how many trials of LABEL have .valid == VALID
trials() {
	jq -r "select(.type == \"trial\" and .cell.label == \"$2\" and .valid == $3) | .seq" "$WORK/$1.jsonl" | wc -l
}
complete() {
	tail -n 1 "$WORK/$1.jsonl" | jq -e '.type == "end" and .interrupted == false' >/dev/null
}
# others_intact FILE LABEL: every trial of the other engines is valid
others_intact() {
	[ "$(jq -r "select(.type == \"trial\" and .cell.label != \"$2\") | .valid" "$WORK/$1.jsonl" | sort -u)" = true ] &&
		[ "$(jq -r "select(.type == \"trial\" and .cell.label != \"$2\") | .seq" "$WORK/$1.jsonl" | wc -l)" -eq $((2 * per_engine)) ]
}

# An engine that returns success and writes nothing must not pass on what the
# calibration (round 0), its own earlier trial or another cell left in the
# buffer: the fault hits round 2 only, after the engine wrote right outputs.
invalid_cells() {
	jq -r 'select(.type == "trial" and .valid == false) | "\(.cell.label) \(.cell.size) \(.round)"' "$WORK/$1.jsonl" | sort | tr '\n' ' '
}
for engine in null sim; do
	fault_run alone-$engine $engine:nothing@2 --set engine=$engine
	check "$engine alone, nothing@2: the run completes" complete alone-$engine
	check "$engine alone, nothing@2: round 2's trials, and only they, are invalid" test "$(invalid_cells alone-$engine)" = "$engine 1024 2 $engine 64 2 "
	fault_run nothing-$engine $engine:nothing@2
	check "$engine beside others, nothing@2: round 2's trials of $engine, and only they, are invalid" test "$(invalid_cells nothing-$engine)" = "$engine 1024 2 $engine 64 2 "
	check "$engine beside others, nothing@2: every other engine's trial valid" others_intact nothing-$engine $engine
done
fault_run nothing-all null:nothing
check "null:nothing: every null trial invalid" test "$(trials nothing-all null false)" -eq $per_engine

fault_run wrong null
check "null (wrong output): every null trial invalid" test "$(trials wrong null false)" -eq $per_engine
check "null (wrong output): every other trial valid" others_intact wrong null

fault_run error sim:error
check "sim:error: the run completes" complete error
check "sim:error: every sim trial invalid" test "$(trials error sim false)" -eq $per_engine
check "sim:error: the reason is the engine's failure" sh -c "jq -r 'select(.type == \"trial\" and .valid == false) | .error' '$WORK/error.jsonl' | sort -u | grep -q 'returned a failure'"
check "sim:error: every other trial valid" others_intact error sim
cb report "$WORK/error.jsonl"
check "sim:error: the report warns of the invalid trials" out_has "sim sha256 hash 64B: 4 invalid trials"

fault_run slow sim:slow@2
check "sim:slow@2: the run completes" complete slow
check "sim:slow@2: every trial valid" test "$(jq -r 'select(.type == "trial") | .valid' "$WORK/slow.jsonl" | sort -u)" = true
check "sim:slow@2: round 2 takes ten times as long" sh -c "[ \"\$(jq -r 'select(.type == \"trial\" and .cell.label == \"sim\" and .cell.size == 64) | \"\(.round) \(.ns)\"' '$WORK/slow.jsonl' | tr '\n' ' ')\" = '0 1100112 1 1100112 2 11001120 3 1100112 ' ]"
cb report "$WORK/slow.jsonl" --details
check "sim:slow@2: the report's minimum shows the slow round (39.02 MB/s, a tenth of 390.2)" sh -c "grep -E '^sim +sha256 +hash +64B' '$WORK/out' | grep -q ' 39.02 '"
check "sim:slow@2: the other engines' trials intact" others_intact slow sim

fault_run bad sim:bogus
check "a malformed CRYPTOBENCH_FAULT is bad input: exit 2" status_is 2
check "...in one line" test "$(wc -l <"$WORK/err")" -eq 1
check "...refused, saying what it expects" err_has "expected ENGINE\[:KIND\[@ROUND\]\]"
check "...before any results file is written" test ! -e "$WORK/bad.jsonl"
fault_run bad-round sim:wrong@x
check "a malformed round (sim:wrong@x): exit 2" status_is 2
CRYPTOBENCH_FAULT=openssl:bogus "$CRYPTOBENCH" verify null >"$WORK/out" 2>"$WORK/err"
echo $? >"$WORK/status"
check "verify with a malformed CRYPTOBENCH_FAULT: exit 2" status_is 2
check "...in one line naming the variable" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q '^cryptobench verify: CRYPTOBENCH_FAULT=openssl:bogus' '$WORK/err'"

# Hang and crash need a process to lose: the openssl engine under an env runs
# in a `cryptobench worker openssl` child, which applies the switch to the
# requests of its round. The run must go on without the trials it loses.
W="$top_srcdir/tests/scenarios/cli/faults-worker.lua"
# worker_run NAME SPEC: run faults-worker.lua with CRYPTOBENCH_FAULT=SPEC into $WORK/NAME.jsonl
worker_run() {
	CRYPTOBENCH_FAULT=$2 CRYPTOBENCH_WORKER_TIMEOUT=1 "$CRYPTOBENCH" run "$W" -o "$WORK/$1.jsonl" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}
# wtrials FILE FILTER: "size round " of each openssl-env trial matching the jq FILTER, sorted
wtrials() {
	jq -r "select(.type == \"trial\" and .cell.label == \"openssl-env\") | select($2) | \"\(.cell.size) \(.round)\"" "$WORK/$1.jsonl" | sort | tr '\n' ' '
}
null_intact() {
	[ "$(jq -r 'select(.type == "trial" and .cell.label == "null") | .valid' "$WORK/$1.jsonl" | sort | uniq -c | tr -s ' ')" = " $per_engine true" ]
}
worker_run crash openssl:crash@2
if [ -z "$(wtrials crash true 2>/dev/null)" ]; then
	skip 9 "the openssl engine did not run in a worker here: $(head -n 1 "$WORK/err")"
else
	check "worker crash@2: the run completes" complete crash
	check "worker crash@2: round 2's trials, and only they, are invalid" test "$(wtrials crash '.valid | not')" = "1024 2 64 2 "
	check "worker crash@2: each says the worker died by SIGSEGV, naming the engine" \
		test "$(wtrials crash '.error // "" | test("^openssl worker died \\(killed by signal 11\\)")')" = "1024 2 64 2 "
	check "worker crash@2: restarted, round 3's trials valid" test "$(wtrials crash '.valid and .worker_restarts >= 1')" = "1024 3 64 3 "
	check "worker crash@2: every null trial valid" null_intact crash
	worker_run hang openssl:hang@2
	check "worker hang@2: the run completes" complete hang
	check "worker hang@2: round 2's trials, and only they, are invalid: killed after the timeout" \
		test "$(wtrials hang '(.valid | not) and (.error | test("^openssl worker gave no answer within 1 s: killed"))')" = "1024 2 64 2 "
	check "worker hang@2: restarted, round 3's trials valid" test "$(wtrials hang '.valid and .worker_restarts >= 1')" = "1024 3 64 3 "
	check "worker hang@2: every null trial valid" null_intact hang
fi
done_testing
