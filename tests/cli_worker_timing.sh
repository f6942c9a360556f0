#!/bin/sh
# What a worker's timed loop holds (core/engines/workers/PROTOCOL.md): each
# answer says what it timed (`timed`: the calls, the library call, the output
# mode, outputs assembled inside the loop) and where it placed its buffers
# (`placed`), and the harness holds it to that. For each worker engine usable
# here, with output "reuse" and "fresh": every trial valid, each cell timed
# the mode asked (or "fresh" where its runtime has no call writing into a
# buffer), the report names the call, and the trials record the input offset
# and placement the worker applied. Then the real Python worker with one
# fault (tests/workers/faulty.py): joining the output inside the timed loop,
# or not saying what it timed, costs that trial, named.
. "${top_srcdir:-.}/tests/lib.sh"

ENGINES="python-hashlib python-cryptography python-pycryptodome node-crypto dotnet go-crypto rust-ring java-jca"
plan 43
SC="$top_srcdir/tests/scenarios/workers/outputs.lua"

# trials FILE FILTER: how many trial lines match the jq FILTER.
trials() { jq -s "[.[] | select(.type == \"trial\") | select($2)] | length" "$1"; }

for e in $ENGINES; do
	f="$WORK/$e.jsonl"
	cb run "$SC" --set engine="$e" -o "$f"
	if [ "$(cat "$WORK/status")" != 0 ] && grep -q "not usable here" "$WORK/err"; then
		skip 5 "$(head -n 1 "$WORK/err")"
		continue
	fi
	all=$(trials "$f" true)
	check "$e: a run with both output modes, every trial valid" \
		test "$all" -gt 0 -a "$(trials "$f" .valid)" -eq "$all"
	# The mode each trial must have timed: the variant's, but "fresh" for
	# "reuse" where the hello lists no call that writes into a buffer.
	calls=$(head -n 1 "$f" | jq -c '.engines[0].features.calls')
	check "$e: each trial timed the output mode asked, or fresh where no call reuses a buffer" \
		test "$(trials "$f" "(if (.cell.label | endswith(\"output=fresh\")) or $calls[.cell.algorithm][.cell.op].reuse == null then \"fresh\" else \"reuse\" end) == .output_mode")" -eq "$all"
	api=$(printf '%s' "$calls" | jq -r '.sha256.hash.fresh')
	"$CRYPTOBENCH" report "$f" >"$WORK/report" 2>&1
	check "$e: the report names the call each cell timed" grep -qF "$api" "$WORK/report"
	check "$e: the trials record only placements a worker can make (input at 100, outputs by 64, stack by 16)" \
		test "$(trials "$f" '(.input_offset // 100) == 100 and ((.layout.out // 0) % 64) == 0 and ((.layout.stack // 0) % 16) == 0')" -eq "$all"
	case $e in
	node-crypto | java-jca) # JavaScript and Java see no addresses: nothing placed, nothing claimed
		check "$e: no placement claimed" test "$(trials "$f" '.input_offset or .layout')" -eq 0 ;;
	python-hashlib) # its digests are hashlib's own objects: no output to place
		check "$e: every trial's input at the run's offset, no output placement claimed" \
			test "$(trials "$f" '.input_offset == 100 and (.layout | not)')" -eq "$all" ;;
	*)
		if [ "$(trials "$f" '.output_mode == "reuse"')" -gt 0 ]; then
			check "$e: every trial's input at the run's offset, and its reused outputs placed per trial" \
				test "$(trials "$f" '.input_offset == 100')" -eq "$all" -a \
				"$(jq -s '[.[] | select(.type == "trial") | .layout.out // empty] | unique | length' "$f")" -gt 1
		else # a version with no call writing into a buffer (Debian's cryptography 38): no output
			# placed, and its AEADs take bytes only (a copy: no input offset claimed for them)
			check "$e: no output placement claimed (no call reuses a buffer); the input at the run's offset where placed" \
				test "$(trials "$f" '(.input_offset == 100 or .input_offset == null) and (.layout.out | not)')" -eq "$all" -a \
				"$(trials "$f" '.input_offset == 100')" -gt 0
		fi ;;
	esac
done

# faulty MODE: the Python worker with the fault MODE; results in $WORK/MODE.jsonl.
faulty() {
	env CRYPTOBENCH_WORKER_PYTHON_HASHLIB="$PY $top_srcdir/tests/workers/faulty.py $1 $WORK/$1.marker" \
		"$CRYPTOBENCH" run "$top_srcdir/tests/scenarios/workers/hashlib.lua" -o "$WORK/$1.jsonl" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}
PY=$(head -n 1 "$WORK/python-hashlib.jsonl" 2>/dev/null | jq -r '.engines[0].features.executable // empty')
if [ -z "$PY" ]; then
	skip 2 "python-hashlib is not usable here"
else
	faulty assemble
	check "output joined inside the timed loop: the run goes on, exactly one trial invalid, saying so" \
		test "$(cat "$WORK/status")" -eq 0 -a \
		"$(trials "$WORK/assemble.jsonl" '(.valid | not) and (.error | test("python-hashlib worker: it assembled the output [0-9]+ times inside the timed loop"))')" -eq 1 -a \
		"$(trials "$WORK/assemble.jsonl" '.valid | not')" -eq 1
	faulty untimed
	check "an answer that does not say what it timed: exactly one trial invalid, saying so" \
		test "$(trials "$WORK/untimed.jsonl" '(.valid | not) and (.error | test("does not say what it timed"))')" -eq 1
fi

printf '%s\n' 'local cb = require "cryptobench"' \
	'cb.scenario { name = "bad-output", engines = { { "node-crypto",' \
	'  output = "sometimes" } }, algorithms = { "sha256" }, sizes = { "4KiB" } }' >"$WORK/bad.lua"
cb run "$WORK/bad.lua" -o "$WORK/bad.jsonl"
check "a bad output mode is a load error at its line" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 2 ] && grep -q '^$WORK/bad.lua:3: output must be \"reuse\" or \"fresh\" (got \"sometimes\")\$' '$WORK/err'"
done_testing
