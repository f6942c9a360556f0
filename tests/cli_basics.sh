#!/bin/sh
# The program's surface: help, exit codes, bad flags and files.
. "${top_srcdir:-.}/tests/lib.sh"
plan 27

cb --help;                  check "--help exits 0" status_is 0
check "--help lists the commands" out_has "report"
cb;                         check "no command exits 2" status_is 2
cb frobnicate;              check "unknown command exits 2" status_is 2
for c in run report engines verify; do
	cb "$c" --help;     check "$c --help exits 0" status_is 0
	check "$c --help shows usage" out_has "usage: cryptobench $c"
done
cb run;                     check "run without a scenario exits 2" status_is 2
cb run --bogus x.lua;       check "run with an unknown flag exits 2" status_is 2
check "the message names the flag" err_has "unknown option '--bogus'"
cb run "$WORK/missing.lua"; check "a missing scenario file exits 2" status_is 2
check "the message names the file" err_has "missing.lua"
cb run --runs 0 x.lua;      check "--runs 0 exits 2" status_is 2
cb run --set rounds x.lua;  check "--set without = exits 2" status_is 2
cb report "$WORK/none.jsonl"; check "report of a missing file exits 2" status_is 2
echo '{"type":"trial"}' >"$WORK/bad.jsonl"
cb report "$WORK/bad.jsonl"; check "report of a non-results file exits 2" status_is 2
check "...saying why, with file and line" err_has "bad.jsonl:1:"
echo '{"type":"run","schema":"cryptobench/99"}' >"$WORK/future.jsonl"
cb report "$WORK/future.jsonl"; check "an unknown schema exits 2" status_is 2
check "...naming the schema" err_has "cryptobench/99"
cb report --format xml "$WORK/future.jsonl"; check "an unknown format exits 2" status_is 2
cb engines --json;          check "engines --json exits 0" status_is 0
check "engines --json is JSON with the built-ins" sh -c "jq -e '[.[].name] | contains([\"null\",\"memcpy\",\"sim\"])' \"$WORK/out\" >/dev/null"
done_testing
