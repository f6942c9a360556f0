#!/bin/sh
# cryptobench plot: every chart kind from sim runs, valid images, scripts
# beside them that redraw the same images with plain gnuplot, and data and
# scripts (with a way to draw them) when gnuplot is missing.
. "${top_srcdir:-.}/tests/lib.sh"
plan 41

S="$top_srcdir/tests/scenarios/plot/charts.lua"
GP=$(command -v gnuplot || true)

# cb_env NAME=VALUE ARGS...: cb with one more variable in the environment.
cb_env() {
	e=$1
	shift
	env "$e" "$CRYPTOBENCH" "$@" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}

# is_png FILE: the PNG signature, and more than a header.
is_png() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
		[ "$(wc -c <"$1")" -gt 1000 ] || { diag "$1 is not a PNG image"; false; }
}

# kinds DIR KIND...: DIR has at least one chart of each kind, image or script.
kinds() {
	dir=$1
	ext=$2
	shift 2
	for k in "$@"; do
		set -- "$dir"/$k*."$ext"
		[ -f "$1" ] || { diag "no $k*.$ext in $dir"; return 1; }
	done
}

# every_png_has_files DIR: each image has its data and render script beside it.
every_png_has_files() {
	find "$1" -name '*.png' | while read -r p; do
		b=${p%.png}
		[ -s "$b.dat" ] && [ -s "$b.gp" ] || { diag "$p lacks $b.dat or $b.gp"; echo bad; }
	done | grep -q bad && return 1
	[ "$(find "$1" -name '*.png' | wc -l)" -gt 0 ]
}

all_png() {
	n=0
	for p in $(find "$1" -name '*.png'); do
		is_png "$p" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# same_images A B: the same PNG files, byte for byte.
same_images() {
	(cd "$1" && find . -name '*.png' | sort) >"$WORK/list-a"
	(cd "$2" && find . -name '*.png' | sort) >"$WORK/list-b"
	cmp -s "$WORK/list-a" "$WORK/list-b" || { diag "different sets of images"; return 1; }
	while read -r p; do
		cmp -s "$1/$p" "$2/$p" || { diag "$p differs"; return 1; }
	done <"$WORK/list-a"
}

cb plot --help;                     check "plot --help exits 0" status_is 0
check "plot --help shows usage" out_has "usage: cryptobench plot"
cb plot -o "$WORK/x";               check "plot without a file exits 2" status_is 2
cb plot "$WORK/none.jsonl" -o "$WORK/x"; check "plot of a missing file exits 2" status_is 2

cb run "$S" -o "$WORK/one.jsonl";   check "the sim scenario runs" status_is 0
cb plot "$WORK/one.jsonl";          check "plot without -o exits 2" status_is 2
check "...saying -o is needed" err_has "-o DIR"
cb plot "$WORK/one.jsonl" -o "$WORK/x" --format gif; check "an unknown format exits 2" status_is 2
cb plot "$WORK/one.jsonl" -o "$WORK/x" --timelines some; check "unknown --timelines exits 2" status_is 2

# Without gnuplot: data and scripts, exit 0, and how to draw them.
cb_env CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot plot "$WORK/one.jsonl" -o "$WORK/nogp"
check "without gnuplot plot exits 0" status_is 0
check "...says gnuplot was not found" out_has "gnuplot not found"
check "...says how to draw the charts" out_has "sh $WORK/nogp/render.sh"
check "...writes no image" sh -c "[ -z \"\$(find '$WORK/nogp' -name '*.png')\" ]"
check "...writes the data and scripts of every per-run kind" \
	kinds "$WORK/nogp" gp size-algorithm- size-engine- ratio- encrypt-decrypt- threads- timeline/
check "...and copies the templates" test -s "$WORK/nogp/templates/forest.gp"
check "the ratio data holds a row per engine and op, size and threads" \
	sh -c "[ \$(grep -c '^[0-9]' '$WORK/nogp/ratio-aes256-aes128.dat') -eq 26 ]"

cb run "$S" --runs 2 -o "$WORK/runs"; check "two runs of the sim scenario" status_is 0

if [ -z "$GP" ]; then
	# every chart kind drawn, PNG images, render scripts redrawing the same
	# bytes, forest plots of two runs, pdf and svg
	skip 24 "gnuplot not installed"
	done_testing
	exit
fi

cb_env CRYPTOBENCH_GNUPLOT="$GP" plot "$WORK/one.jsonl" -o "$WORK/one"
check "plot of one run exits 0" status_is 0
check "...names the images it drew" out_has "$WORK/one/ratio-aes256-aes128.png"
check "...draws every per-run chart kind" \
	kinds "$WORK/one" png size-algorithm- size-engine- ratio- encrypt-decrypt- threads- timeline/
check "...a timeline per cell (2 engines x 2 algorithms x 2 ops x 3 sizes x 2 threads)" \
	sh -c "[ \$(ls '$WORK/one/timeline/'*.png | wc -l) -eq 48 ]"
check "...says how to find the flagged timelines" out_has "flagged: grep -l FLAGGED"
check "...and flags every timeline of the drifting engine" \
	sh -c "[ \$(grep -l 'FLAGGED: drift' '$WORK/one/timeline/'sim-drift-*.gp | wc -l) -eq 24 ]"
check "every image is a PNG" all_png "$WORK/one"
check "every image has its data and render script beside it" every_png_has_files "$WORK/one"

# The numbers drawn are the report's.
cb report --format json "$WORK/one.jsonl"
want=$(jq '.[0].cells[] | select(.key == "sim-fast|aes-128-cbc|encrypt|4096|1") | .mb_per_s.median' "$WORK/out")
got=$(awk '/^"/ { b = $0 } b == "\"sim-fast\"" && $1 == 4096 { print $2 }' \
	"$WORK/one/size-algorithm-aes-128-cbc-encrypt-1thread.dat")
check "the throughput drawn is the report's median ($got vs $want MB/s)" \
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a > 0 && b > 0 && (a - b) / b < 1e-5 && (b - a) / b < 1e-5) }'

# The folder redraws itself with plain gnuplot: the same bytes.
cp -R "$WORK/one" "$WORK/one-before"
check "render.sh redraws every chart" env GNUPLOT="$GP" sh "$WORK/one/render.sh"
check "...into the same images, byte for byte" same_images "$WORK/one-before" "$WORK/one"
rm -f "$WORK/one/ratio-aes256-aes128.png"
(cd / && "$GP" "$WORK/one/ratio-aes256-aes128.gp") 2>"$WORK/gp-err"
check "one chart's script redraws it from any folder" \
	cmp -s "$WORK/one/ratio-aes256-aes128.png" "$WORK/one-before/ratio-aes256-aes128.png"
check "the folder written without gnuplot draws its charts later" \
	env GNUPLOT="$GP" sh "$WORK/nogp/render.sh"
check "...byte for byte" same_images "$WORK/one" "$WORK/nogp"

cb_env CRYPTOBENCH_GNUPLOT="$GP" plot "$WORK/runs" -o "$WORK/two" --timelines none
check "plot of two runs exits 0" status_is 0
check "...draws a forest plot of the derived ratio" is_png "$WORK/two/forest-aes256-aes128.png"
check "...and of the cells" kinds "$WORK/two" png forest-cells-aes-128-cbc-encrypt-1thread
check "...and each run's charts in its own folder" \
	kinds "$WORK/two" png run-1/ratio- run-2/ratio- run-2/size-engine-
check "...with no timeline when asked for none" sh -c "[ ! -d '$WORK/two/run-1/timeline' ]"
check "the forest data has each run and the across-run value" \
	sh -c "grep -q '^\"run 1 (run-1.jsonl)\"' '$WORK/two/forest-aes256-aes128.dat' &&
	       grep -q '^\"run 2 (run-2.jsonl)\"' '$WORK/two/forest-aes256-aes128.dat' &&
	       grep -q '^\"across runs' '$WORK/two/forest-aes256-aes128.dat'"
cb plot "$WORK/one.jsonl" "$S" -o "$WORK/bad"; check "a scenario given as a results file exits 2" status_is 2

cb_env CRYPTOBENCH_GNUPLOT="$GP" plot "$WORK/one.jsonl" -o "$WORK/pdf" --format pdf --timelines flagged
check "--format pdf exits 0" status_is 0
check "...and writes PDF files" sh -c "head -c 4 '$WORK/pdf/ratio-aes256-aes128.pdf' | grep -q '%PDF'"
cb_env CRYPTOBENCH_GNUPLOT="$GP" plot "$WORK/one.jsonl" -o "$WORK/svg" --format svg --timelines none
check "--format svg writes SVG files" grep -q '<svg' "$WORK/svg/ratio-aes256-aes128.svg"
done_testing
