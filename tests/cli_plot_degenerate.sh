#!/bin/sh
# cryptobench plot never breaks: every chart kind draws a valid image, exit 0,
# from data of every degenerate shape (one round, too few rounds for an
# interval, one size, one engine, a cell whose trials are all invalid, a cell
# without throughput, mixed statistics, runs and hosts of one round), and
# says on stderr what it could not draw. Also the README's preview:
# run payload-sweep --quick, then plot.
. "${top_srcdir:-.}/tests/lib.sh"
plan 42

S="$top_srcdir/tests/scenarios/plot/degenerate.lua"
GP=$(command -v gnuplot || true)

# images_ok DIR: at least one image; each a PNG (signature, a width and a
# height above 0 in its header) of more than a header's bytes.
images_ok() {
	n=0
	for p in $(find "$1" -name '*.png'); do
		[ "$(od -An -tx1 -N8 "$p" | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
			{ diag "$p: not a PNG"; return 1; }
		wh=$(od -An -tu1 -j16 -N8 "$p" | awk '{ print ($1*2^24+$2*2^16+$3*2^8+$4) * ($5*2^24+$6*2^16+$7*2^8+$8) }')
		[ "$wh" -gt 0 ] && [ "$(wc -c <"$p")" -gt 1000 ] || { diag "$p: empty image"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || { diag "no image in $1"; return 1; }
}

# kinds DIR KIND...: DIR has an image of each kind.
kinds() {
	dir=$1
	shift
	for k in "$@"; do
		set -- "$dir"/$k*.png
		[ -f "$1" ] || { diag "no $k*.png in $dir"; return 1; }
	done
}

# plotted NAME FILE... [-- OPTIONS]: plot into $WORK/NAME, keeping the output.
plotted() {
	name=$1
	shift
	CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" plot "$@" -o "$WORK/$name" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}

cb run "$S" -o "$WORK/base.jsonl";  check "the degenerate scenario runs" status_is 0
cb run "$S" --set rounds=1 -o "$WORK/one-round.jsonl"
check "...with one round" status_is 0
cb run "$S" --set rounds=3 -o "$WORK/few.jsonl"
check "...with three rounds (no interval)" status_is 0
cb run "$S" --set sizes=4KiB -o "$WORK/one-size.jsonl"
check "...with one size" status_is 0
cb run "$S" --only label=sim-a -o "$WORK/one-engine.jsonl"
check "...with one engine" status_is 0
cb run "$S" --set rounds=1 --runs 2 -o "$WORK/runs"
check "...twice with one round" status_is 0
# A cell with every trial invalid; a cell without throughput (no bytes).
jq -c 'if .type == "trial" and .cell.label == "sim-a" and .cell.size == 4096 and
	.cell.algorithm == "aes-128-cbc" and .cell.op == "encrypt" and .cell.threads == 1
	then .valid = false | .error = "planted: output does not match" else . end' \
	"$WORK/base.jsonl" >"$WORK/invalid-cell.jsonl"
jq -c 'if .type == "trial" and .cell.label == "sim-b" and .cell.size == 64 and
	.cell.algorithm == "aes-128-cbc" and .cell.op == "decrypt" and .cell.threads == 2
	then .bytes = 0 else . end' "$WORK/base.jsonl" >"$WORK/no-throughput.jsonl"
# The one-round file as if from another host: the hosts charts.
{ head -n 1 "$WORK/one-round.jsonl" | jq -c '.host.hostname = "other"'
  tail -n +2 "$WORK/one-round.jsonl"; } >"$WORK/other-host.jsonl"

if [ -z "$GP" ]; then
	skip 36 "gnuplot not installed"
	done_testing
	exit
fi

per_run="size-algorithm- size-engine- ratio- encrypt-decrypt- threads-"
for shape in base one-round few one-size one-engine invalid-cell no-throughput; do
	# Timelines where they are the shape's point (the machine is shared: a
	# gnuplot per chart adds up).
	case $shape in one-round | one-engine | invalid-cell) t=all k=timeline/ ;; *) t=none k= ;; esac
	plotted "$shape" "$WORK/$shape.jsonl" --timelines $t
	check "plot of $shape data exits 0" status_is 0
	check "...every image of $shape data is a PNG with pixels" images_ok "$WORK/$shape"
	# shellcheck disable=SC2086
	check "...of every per-run chart kind${k:+, timelines too}" kinds "$WORK/$shape" $per_run $k
done
plotted few-notes "$WORK/few.jsonl" --timelines none
check "...and a run without intervals says so on stderr" err_has "no 95% interval to draw"
plotted invalid-notes "$WORK/invalid-cell.jsonl" --timelines flagged
check "...a cell without valid trials is named on stderr" \
	err_has "no timeline of sim-a aes-128-cbc encrypt 4096 B, 1 thread: no valid measured trial"
plotted mixed "$WORK/base.jsonl" --statistic auto --timelines none
check "mixed statistics (the contaminated engine's minimum) plot" status_is 0
check "...with every image valid" images_ok "$WORK/mixed"
plotted forest "$WORK/runs" --timelines none
check "forest plots of two one-round runs exit 0" status_is 0
check "...are valid images" images_ok "$WORK/forest"
check "...of the forest kind, derived and cells" kinds "$WORK/forest" forest-aes256 forest-cells-
plotted hosts "$WORK/one-round.jsonl" "$WORK/other-host.jsonl" --timelines none
check "hosts charts of one-round files exit 0" status_is 0
check "...are valid images" images_ok "$WORK/hosts"
check "...of the hosts kind" kinds "$WORK/hosts" hosts-

# Edited data a writer would not give: every throughput NaN. The template
# draws a note in place of the chart instead of failing.
d="$WORK/base/size-algorithm-aes-128-cbc-encrypt-1thread"
awk '/^[0-9]/ { $2 = "NaN"; $8 = "NaN" } { print }' "$d.dat" >"$d.tmp" && mv "$d.tmp" "$d.dat"
rm -f "$d.png"
"$GP" "$d.gp" 2>"$WORK/gp-err"
check "a template given only NaN draws a note, exit 0" images_ok "$d.png"
check "...and says so on stderr" grep -q "nothing to draw" "$WORK/gp-err"

# The README's preview: a quick run of the payload sweep (openssl, memcpy,
# null where usable), then its charts.
cb run "$top_srcdir/scenarios/payload-sweep.lua" --quick -o "$WORK/p.jsonl"
check "run payload-sweep --quick exits 0" status_is 0
plotted fig "$WORK/p.jsonl"
check "...and plot of it exits 0" status_is 0
check "...with every image a PNG with pixels" images_ok "$WORK/fig"
done_testing
