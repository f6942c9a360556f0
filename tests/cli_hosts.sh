#!/bin/sh
# Files from several hosts: compare judges them host against host, not as
# runs of one machine. Two "hosts" made from sim runs whose header's host
# name is rewritten: alpha (two runs: its reproducibility is judged first)
# and beta, where sim-a is planted 7% faster and sim-b is unchanged.
. "${top_srcdir:-.}/tests/lib.sh"
plan 10
ab="$top_srcdir/tests/scenarios/sim/ab.lua"

# as_host NAME FILE: FILE with its header's host name set to NAME.
as_host() {
	{ head -n 1 "$2" | jq -c --arg h "$1" '.host.hostname = $h'; tail -n +2 "$2"; } >"$2.tmp" &&
		mv "$2.tmp" "$2"
}
cb run "$ab" -o "$WORK/alpha-1.jsonl" --no-progress
check "alpha, run 1" status_is 0
cb run "$ab" --set seed=3 -o "$WORK/alpha-2.jsonl" --no-progress
status_is 0 || diag "alpha run 2 failed"
cb run "$ab" --set cost=0.934579 --set seed=2 -o "$WORK/beta.jsonl" --no-progress
check "beta, sim-a planted 7% faster" status_is 0
as_host alpha "$WORK/alpha-1.jsonl" && as_host alpha "$WORK/alpha-2.jsonl" &&
	as_host beta "$WORK/beta.jsonl"

cb compare "$WORK/alpha-1.jsonl" "$WORK/alpha-2.jsonl" "$WORK/beta.jsonl" --format csv
check "compare of two hosts' files --format csv exits 0" status_is 0
# column NAME of the rows of label LABEL, one per line
col() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("\n".join(r[sys.argv[2]] for r in rows if r["label"] == sys.argv[3]))' "$WORK/out" "$1" "$2"
}
check "one table: host beta against the baseline host alpha" \
	test "$(col host sim-a | sort -u) $(col baseline_host sim-b | sort -u)" = "beta alpha"
check "sim-a: beta faster in both cells" test "$(col verdict sim-a | tr '\n' ' ')" = "faster faster "
check "sim-b: equivalent within delta in both cells" \
	test "$(col verdict sim-b | tr '\n' ' ')" = "equivalent equivalent "

cb compare "$WORK/alpha-1.jsonl" "$WORK/alpha-2.jsonl" "$WORK/beta.jsonl"
check "text: alpha's two runs judged first, then the hosts" \
	sh -c "grep -q '^host alpha: 2 runs' '$WORK/out' && grep -q 'compare: 1 host against the baseline host alpha' '$WORK/out' && ! grep -q 'another host' '$WORK/out'"

cb compare "$WORK/alpha-1.jsonl" "$WORK/beta.jsonl" --baseline-host beta --format json
check "--baseline-host beta: sim-a slower on alpha" \
	sh -c "jq -e '.[0].host == \"alpha\" and .[0].baseline_host == \"beta\" and ([.[0].cells[] | select(.cell.label == \"sim-a\") | .verdict] == [\"slower\", \"slower\"])' '$WORK/out' >/dev/null"
cb compare "$WORK/alpha-1.jsonl" "$WORK/beta.jsonl" --baseline-host gamma
check "--baseline-host of no file: exit 2, one line" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 2 ] && [ \$(wc -l <'$WORK/err') = 1 ] && grep -q gamma '$WORK/err'"
cb compare "$WORK/alpha-1.jsonl" "$WORK/beta.jsonl" --format csv --table derived
check "a table the host comparison does not have: exit 2" status_is 2
done_testing
