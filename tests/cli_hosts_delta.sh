#!/bin/sh
# The hosts chart when its rows were judged with different margins: hosts a
# and b share a CPU model (judged on cycles, delta 2%), host c's header names
# another (judged on MB/s, delta 5%). Each host's row carries its own band,
# and the template shades each; with one margin, one band for the chart.
# Sim runs named with run --host (the virtual clock: no timing in the test).
. "${top_srcdir:-.}/tests/lib.sh"
plan 7
ab="$top_srcdir/tests/scenarios/sim/ab.lua"
GP=$(command -v gnuplot || true)

made() {
	for h in a b c; do
		for n in 1 2; do
			"$CRYPTOBENCH" run "$ab" --host "$h" --set seed="$n$n" -o "$WORK/$h$n.jsonl" \
				--no-progress >/dev/null 2>"$WORK/err" || { diag "$(head -c 300 "$WORK/err")"; return 1; }
		done
	done
	for n in 1 2; do
		{ head -n 1 "$WORK/c$n.jsonl" | jq -c '.host.cpu = "Another CPU"'; tail -n +2 "$WORK/c$n.jsonl"; } \
			>"$WORK/t" && mv "$WORK/t" "$WORK/c$n.jsonl" || return 1
	done
}
check "six sim runs of three hosts, c's CPU model another" made
ALL="$WORK/a1.jsonl $WORK/a2.jsonl $WORK/b1.jsonl $WORK/b2.jsonl $WORK/c1.jsonl $WORK/c2.jsonl"

# shellcheck disable=SC2086
cb compare $ALL --format csv
margins() {
	python3 -c 'import csv, sys
print(" ".join(sorted({r["host"] + ":" + r["measure"] + ":" + r["delta"] for r in csv.DictReader(open(sys.argv[1]))})))' "$WORK/out"
}
check "compare: b judged on c/B at 2%, c on MB/s at 5%" test "$(margins)" = "b:c/B:0.02 c:MB/s:0.05"

# shellcheck disable=SC2086
env CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot "$CRYPTOBENCH" plot $ALL -o "$WORK/charts" \
	--timelines none >/dev/null 2>"$WORK/err"
# bands HOST: the distinct band columns (10, 11) of HOST's rows in hosts-sim-a.dat
bands() {
	awk -v want="\"$1" '/^"/ { b = index($0, want) == 1; next } /^#/ || NF == 0 { next }
		b { print $(NF - 1) " " $NF }' "$WORK/charts/hosts-sim-a.dat" | sort -u
}
check "each host's rows carry its own band: b 1/1.02 to 1.02" test "$(bands b)" = "0.980392 1.02"
check "...c 1/1.05 to 1.05" test "$(bands c)" = "0.952381 1.05"
check "...and the script asks the template for the rows' bands, naming both margins" \
	grep -q "'rows ±delta (2%, 5% by row): equivalent'" "$WORK/charts/hosts-sim-a.gp"
# shellcheck disable=SC2086
env CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot "$CRYPTOBENCH" plot $WORK/a1.jsonl $WORK/a2.jsonl \
	$WORK/b1.jsonl $WORK/b2.jsonl -o "$WORK/one" --timelines none >/dev/null 2>"$WORK/err"
check "one margin (a and b alone): one band for the chart" \
	grep -q "'0.980392 1.02 ±delta (2%): equivalent'" "$WORK/one/hosts-sim-a.gp"
if [ -z "$GP" ]; then
	skip 1 "gnuplot not installed"
else
	drawn() {
		(cd "$WORK/charts" && "$GP" hosts-sim-a.gp 2>"$WORK/gp-err") && [ -s "$WORK/charts/hosts-sim-a.png" ] ||
			{ diag "$(head -c 300 "$WORK/gp-err")"; false; }
	}
	check "gnuplot draws the chart of mixed margins" drawn
fi
done_testing
