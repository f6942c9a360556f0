#!/bin/sh
# Files from several hosts: compare judges them host against host, not as
# runs of one machine, and plot draws the hosts side by side. Three "hosts"
# made from sim runs (the sim engine's virtual clock is the ground truth)
# whose header's host name is rewritten, two runs each:
#   alpha  the baseline, two runs that reproduce;
#   beta   sim-a planted 7% faster in both runs, sim-b unchanged;
#   gamma  sim-a unchanged in its first run, 25% faster in its second: its
#          runs do not reproduce, and its pooled estimate must carry that
#          spread (not resolved against alpha, an interval spanning both).
. "${top_srcdir:-.}/tests/lib.sh"
plan 27
ab="$top_srcdir/tests/scenarios/sim/ab.lua"
GP=$(command -v gnuplot || true)

# as_host NAME FILE: FILE with its header's host name set to NAME.
as_host() {
	{ head -n 1 "$2" | jq -c --arg h "$1" '.host.hostname = $h'; tail -n +2 "$2"; } >"$2.tmp" &&
		mv "$2.tmp" "$2"
}
# make HOST N ARGS...: run N of HOST with the scenario's ARGS.
make_run() {
	h=$1 n=$2
	shift 2
	"$CRYPTOBENCH" run "$ab" "$@" -o "$WORK/$h-$n.jsonl" --no-progress >/dev/null 2>"$WORK/err" &&
		as_host "$h" "$WORK/$h-$n.jsonl" || { diag "run $n of $h failed: $(head -c 300 "$WORK/err")"; return 1; }
}
made() {
	make_run alpha 1 --set seed=1 && make_run alpha 2 --set seed=3 &&
		make_run beta 1 --set cost=0.934579 --set seed=2 &&
		make_run beta 2 --set cost=0.934579 --set seed=4 &&
		make_run gamma 1 --set seed=5 && make_run gamma 2 --set cost=0.8 --set seed=6
}
check "six runs of three hosts" made
A="$WORK/alpha-1.jsonl $WORK/alpha-2.jsonl"
B="$WORK/beta-1.jsonl $WORK/beta-2.jsonl"
G="$WORK/gamma-1.jsonl $WORK/gamma-2.jsonl"

# col NAME LABEL [HOST]: column NAME of the CSV rows of LABEL (and HOST), one a line.
col() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("\n".join(r[sys.argv[2]] for r in rows
                if r["label"] == sys.argv[3] and (len(sys.argv) < 5 or r["host"] == sys.argv[4])))' \
		"$WORK/out" "$@"
}
# between LO HI: every number on stdin lies in [LO, HI].
between() {
	awk -v lo="$1" -v hi="$2" 'BEGIN { n = 0 } { n++; if (!($1 >= lo && $1 <= hi)) bad = 1 }
		END { exit bad || n == 0 }'
}

# shellcheck disable=SC2086
cb compare $A $B --format csv
check "compare of two hosts' runs --format csv exits 0" status_is 0
check "one table: host beta against the baseline host alpha, two runs each" \
	test "$(col host sim-a | sort -u) $(col baseline_host sim-b | sort -u) $(col runs sim-a | sort -u) $(col baseline_runs sim-b | sort -u)" = "beta alpha 2 2"
check "each host's runs reproduced, in every row" \
	test "$(col reproducibility sim-a; col reproducibility sim-b; col baseline_reproducibility sim-a; col baseline_reproducibility sim-b)" = "$(printf 'reproduced\n%.0s' 1 2 3 4 5 6 7 8)"
check "sim-a: beta faster in both cells" test "$(col verdict sim-a | tr '\n' ' ')" = "faster faster "
# in_intervals: every CSV row's ratio and both estimates inside their intervals
in_intervals() {
	python3 -c 'import csv, sys
ok = all(float(r[a + "_lo"]) <= float(r[a]) <= float(r[a + "_hi"])
         for r in csv.DictReader(open(sys.argv[1])) for a in ("ratio", "estimate", "baseline"))
sys.exit(0 if ok else 1)' "$WORK/out"
}
sim_a_planted() { col ratio sim-a | between 1.05 1.09 && in_intervals; }
check "sim-a: the ratio of the pooled estimates near the planted 1.07, inside its interval" \
	sim_a_planted
check "sim-b: equivalent within delta in both cells" \
	test "$(col verdict sim-b | tr '\n' ' ')" = "equivalent equivalent "

# shellcheck disable=SC2086
cb compare $A $B
check "text: each host's runs judged first, then the hosts, with the runs column" \
	sh -c "grep -q '^host alpha: 2 runs' '$WORK/out' && grep -q '^host beta: 2 runs' '$WORK/out' &&
		grep -q 'compare: 1 host against the baseline host alpha' '$WORK/out' &&
		grep -q 'runs A/B' '$WORK/out' && [ \$(grep -c '2 ok/2 ok.*faster' '$WORK/out') = 2 ] &&
		grep -q 'beta is .* faster than alpha on 2 of 4 cells, equivalent on 2' '$WORK/out' &&
		! grep -q 'another host' '$WORK/out'"
check "...within 100 columns" sh -c "! awk 'length > 100' '$WORK/out' | grep -q ."
# shellcheck disable=SC2086
cb compare $A $B --details
check "--details: each host's estimate with its interval in the text" \
	sh -c "grep -q 'A \[95% CI\] .*B \[95% CI\] .*runs A/B' '$WORK/out' &&
		[ \$(grep -c '^sim-a .* [0-9.]* \[[0-9.]*, [0-9.]*\] .* [0-9.]* \[[0-9.]*, [0-9.]*\] .*2 ok/2 ok.*faster' '$WORK/out') = 2 ]"
# shellcheck disable=SC2086
cb compare $A $B --format markdown
check "markdown: the table with each host's estimate, runs, ratio and verdict" \
	sh -c "grep -q '^| engine .*| A \[95% CI\] .*| B \[95% CI\] .*| runs A/B .*| verdict' '$WORK/out' &&
		[ \$(grep -c '^| sim-a .*| 2 ok/2 ok .*| faster' '$WORK/out') = 2 ]"
# shellcheck disable=SC2086
cb compare $A $B --format json
check "json: hosts, runs and each cell's reproducibility beside the verdict" \
	sh -c "jq -e '.[0].host == \"beta\" and .[0].baseline_host == \"alpha\" and (.[0].runs | length) == 2 and
		([.[0].cells[] | .runs, .baseline_runs] | unique) == [2] and
		([.[0].cells[] | .reproducibility, .baseline_reproducibility] | unique) == [\"reproduced\"] and
		([.[0].cells[] | select(.cell.label == \"sim-a\") | .verdict] == [\"faster\", \"faster\"]) and
		(.[0].summary | test(\"^beta is .* faster than alpha\"))' '$WORK/out' >/dev/null"

# shellcheck disable=SC2086
cb compare $A $G --format csv
check "gamma: its runs non-reproducible on sim-a, reproduced on sim-b" \
	test "$(col reproducibility sim-a | tr '\n' ' ')$(col reproducibility sim-b | tr '\n' ' ')" = "non-reproducible non-reproducible reproduced reproduced "
gamma_spread() {
	[ "$(col verdict sim-a | tr '\n' ' ')" = "not resolved not resolved " ] &&
		col ratio_lo sim-a | between 0 1.02 && col ratio_hi sim-a | between 1.2 10
}
check "gamma: the spread between its runs leaves sim-a not resolved, the interval spanning both" \
	gamma_spread
# shellcheck disable=SC2086
cb compare $A $G --fail-on non-reproducible
check "--fail-on non-reproducible: exit 1 when a host's runs do not reproduce" status_is 1

# shellcheck disable=SC2086
cb compare $A $B $G --format csv
check "three hosts: beta and gamma each against alpha, every cell" \
	test "$(col host sim-a | tr '\n' ' ')$(col host sim-b | tr '\n' ' ')" = "beta beta gamma gamma beta beta gamma gamma "
# shellcheck disable=SC2086
cb compare $A $B --baseline-host beta --format json
check "--baseline-host beta: sim-a slower on alpha" \
	sh -c "jq -e '.[0].host == \"alpha\" and .[0].baseline_host == \"beta\" and ([.[0].cells[] | select(.cell.label == \"sim-a\") | .verdict] == [\"slower\", \"slower\"])' '$WORK/out' >/dev/null"
cb compare "$WORK/alpha-1.jsonl" "$WORK/beta-1.jsonl" --baseline-host delta
check "--baseline-host of no file: exit 2, one line" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 2 ] && [ \$(wc -l <'$WORK/err') = 1 ] && grep -q delta '$WORK/err'"
cb compare "$WORK/alpha-1.jsonl" "$WORK/beta-1.jsonl" --format csv --table derived
check "a table the host comparison does not have: exit 2" status_is 2

# A fleet's --runs folder: a folder per host (DIR/HOST/run-N.jsonl), logs/ beside.
mkdir -p "$WORK/fleet/alpha" "$WORK/fleet/beta" "$WORK/fleet/logs"
for h in alpha beta; do
	cp "$WORK/$h-1.jsonl" "$WORK/fleet/$h/run-1.jsonl"
	cp "$WORK/$h-2.jsonl" "$WORK/fleet/$h/run-2.jsonl"
done
echo "task 0 done" >"$WORK/fleet/logs/task-0.log"
cb compare "$WORK/fleet" --format csv
check "compare of a --runs fleet folder (a folder per host, logs/ beside): host against host" \
	test "$(cat "$WORK/status") $(col host sim-a | sort -u) $(col runs sim-a | sort -u) $(col verdict sim-a | tr '\n' ' ')" = "0 beta 2 faster faster "
cb export "$WORK/fleet" --format csv
check "export of that folder: every trial of the four runs, both hosts" \
	test "$(cat "$WORK/status") $(tail -n +2 "$WORK/out" | awk -F, '{ print $1 " " $NF }' | sort -u | wc -l) $(tail -n +2 "$WORK/out" | cut -d, -f1 | sort -u | tr '\n' ' ')" = "0 4 alpha beta "

# The chart: data and scripts without gnuplot, then drawn where it is.
# shellcheck disable=SC2086
env CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot "$CRYPTOBENCH" plot $A $B -o "$WORK/charts" \
	--timelines none >"$WORK/out" 2>"$WORK/err"
echo $? >"$WORK/status"
check "plot of two hosts: exit 0, a hosts chart per engine listed" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] && grep -q 'charts/hosts-sim-a.gp' '$WORK/out' &&
		grep -q 'charts/hosts-sim-b.gp' '$WORK/out'"
# block N of hosts-sim-a.dat (0: alpha, 1: beta), data rows only
block() {
	awk -v want="$1" 'BEGIN { b = -1 } /^"/ { b++; next } /^#/ || NF == 0 { next }
		b == want' "$WORK/charts/hosts-sim-a.dat"
}
chart_data() {
	[ "$(block 0 | wc -l)" = 2 ] && [ "$(block 1 | wc -l)" = 2 ] &&
		[ "$(block 0 | awk '{ print $2 }' | sort -u)" = 1 ] &&
		block 0 | awk '{ if (!($3 < 1 && $4 > 1)) bad = 1 } END { exit bad }' &&
		block 1 | awk '{ print $2 }' | between 1.05 1.09 &&
		[ "$(block 1 | grep -c 'beta: faster (2 runs reproduced)')" = 2 ] &&
		grep -q 'alpha, the baseline (2 runs)' "$WORK/charts/hosts-sim-a.dat"
}
check "the chart's data: alpha at 1 with its interval, beta near 1.07, faster, two rows each" \
	chart_data
check "each host's runs: their forest plots in host-alpha/ and host-beta/" \
	sh -c "ls '$WORK/charts/host-alpha/'forest-cells-*.dat '$WORK/charts/host-beta/'forest-cells-*.dat >/dev/null"
if [ -z "$GP" ]; then
	skip 3 "gnuplot not installed"
else
	# shellcheck disable=SC2086
	env CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" plot $A $B -o "$WORK/drawn" --timelines none \
		>"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
	check "gnuplot draws the hosts charts (exit 0)" status_is 0
	check "hosts-sim-a.png is a PNG image" \
		sh -c "[ \"\$(od -An -tx1 -N8 '$WORK/drawn/hosts-sim-a.png' | tr -d ' \n')\" = 89504e470d0a1a0a ] &&
			[ \$(wc -c <'$WORK/drawn/hosts-sim-a.png') -gt 1000 ]"
	rm -f "$WORK/drawn/hosts-sim-b.png"
	check "its script redraws hosts-sim-b with plain gnuplot, from another folder" \
		sh -c "cd / && '$GP' '$WORK/drawn/hosts-sim-b.gp' 2>'$WORK/gp-err' && [ -s '$WORK/drawn/hosts-sim-b.png' ]"
fi
done_testing
