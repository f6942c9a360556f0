#!/bin/sh
# The fuzzers' kept inputs, replayed through their entry points in every
# build (tests/fuzz/replay.c stands in for libFuzzer; under the sanitizer
# build a bad access aborts): the seed corpora, and each input that once
# crashed a fuzzer, listed here by name (tests/fuzz/README.md).
. "${top_srcdir:-.}/tests/lib.sh"
: "${top_builddir:=.}"
F="$top_srcdir/tests/fuzz"
results_cases="schema-with-newline.jsonl"
scenario_cases="derive-name-not-utf8.lua expect-unknown-field-leak.lua ratio-not-two-selectors-leak.lua"
plan $((4 + $(echo $results_cases $scenario_cases | wc -w)))

replay() {
	"$top_builddir/tests/fuzz/replay_$1" "$2" >"$WORK/out" 2>"$WORK/err" </dev/null ||
		{ diag "$2: $(tail -n 5 "$WORK/err")"; false; }
}
replay_all() {
	for f in "$F/$1-seeds/"*; do
		replay "$1" "$f" || return 1
	done
}
check "the results reader takes each of its $(ls "$F/results-seeds" | wc -l) seeds" replay_all results
check "the scenario loader takes each of its $(ls "$F/scenario-seeds" | wc -l) seeds" replay_all scenario
for c in $results_cases; do
	check "results regression case $c" replay results "$F/results-regressions/$c"
done
for c in $scenario_cases; do
	check "scenario regression case $c" replay scenario "$F/scenario-regressions/$c"
done
listed() { [ "$(ls "$F/$1-regressions" 2>/dev/null | sort | tr '\n' ' ')" = "$(for c in $2; do echo "$c"; done | sort | tr '\n' ' ')" ]; }
check "every results regression case is in this test's list" listed results "$results_cases"
check "every scenario regression case is in this test's list" listed scenario "$scenario_cases"
done_testing
