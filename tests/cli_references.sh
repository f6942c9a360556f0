#!/bin/sh
# memcpy and null are references, not contenders: on the demo's kind of data
# (scenarios/quickstart.lua, two quick runs of a few engines with memcpy and
# null), no winners table, crossover, rank flip or ranking names them, and the
# charts' "over the fastest" column is NaN for them; they are still measured
# and drawn (labelled) in the throughput charts.
. "${top_srcdir:-.}/tests/lib.sh"
plan 10

Q="$top_srcdir/scenarios/quickstart.lua"
GP=$(command -v gnuplot || true)
refs='test("^(memcpy|null)(\\||$)")'

cb run "$Q" --quick --runs 2 --only engine=openssl,gcrypt,nettle,memcpy,null -o "$WORK/runs"
check "two quick runs of the quickstart scenario" status_is 0
cb report --format json "$WORK/runs/run-1.jsonl"
cp "$WORK/out" "$WORK/report.json"
check "memcpy and null are measured" jq -e \
	'[.[0].cells[] | select(.cell.engine == "memcpy" or .cell.engine == "null")] | length > 0' \
	"$WORK/report.json"
check "...and no winners group names them" jq -e \
	"[.[0].winners | .. | strings | select($refs)] | length == 0" "$WORK/report.json"
check "...nor any crossover" jq -e \
	"[.[0].crossovers | .. | strings | select($refs)] | length == 0" "$WORK/report.json"
cb report "$WORK/runs/run-1.jsonl"
check "the text winners table has no memcpy or null row" sh -c \
	"awk '/^Fastest engine per/ { on = 1 } on && /^\$/ { exit } on' '$WORK/out' |
	 grep -E '(^|  )(memcpy|null)( |\$)' && exit 1 || exit 0"
cb compare --format json "$WORK/runs"
cp "$WORK/out" "$WORK/compare.json"
check "no rank flip names them" jq -e \
	"[.rank_flips | .. | strings | select($refs)] | length == 0" "$WORK/compare.json"
# Each ranking ranks the group's contenders only: as many as the group has
# engines that are not references.
jq -c '[.[0].cells[] | select(.n > 0 and .cell.engine != "memcpy" and .cell.engine != "null") |
	"\(.cell.algorithm)|\(.cell.op)|\(.cell.size)|\(.cell.threads)"] | group_by(.) |
	map({key: .[0], value: length}) | from_entries' "$WORK/report.json" >"$WORK/contenders.json"
check "every ranking counts the contenders only" jq -e --slurpfile c "$WORK/contenders.json" \
	'(.rankings | length > 0) and all(.rankings[]; .engines == $c[0]["\(.algorithm)|\(.op)|\(.size)|\(.threads)"])' \
	"$WORK/compare.json"

if [ -z "$GP" ]; then
	skip 3 "gnuplot not installed"
	done_testing
	exit
fi
CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" plot "$WORK/runs/run-1.jsonl" -o "$WORK/fig" \
	--timelines none >"$WORK/out" 2>"$WORK/err"
echo $? >"$WORK/status"
check "plot of the run exits 0" status_is 0
# Column 8 (rel): over the fastest engine. NaN for memcpy, a number for the rest.
rel_of() {
	awk -v want="$1" '/^"/ { ref = ($0 ~ /^"(memcpy|null)[ "]/) } /^[0-9]/ && ref == want { print $8 }' \
		"$WORK"/fig/size-algorithm-*.dat
}
check "the throughput charts draw memcpy (a labelled reference)" \
	sh -c "grep -l '^\"memcpy (memory bandwidth)\"' '$WORK'/fig/size-algorithm-*.dat | grep -q ."
# rel_ok: some reference rows and engine rows; every reference's NaN, some
# engine's a number.
rel_ok() {
	[ -n "$(rel_of 1)" ] && [ -z "$(rel_of 1 | grep -v '^NaN$')" ] &&
		[ -n "$(rel_of 0 | grep -v '^NaN$')" ] || { diag "references: $(rel_of 1 | sort -u | head -3)"; false; }
}
check "...with no value over the fastest, which only the engines have" rel_ok
done_testing
