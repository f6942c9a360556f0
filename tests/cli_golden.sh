#!/bin/sh
# Golden outputs: report, compare and plot of committed results files must
# print exactly what they printed when the expected files were made.
#
# tests/golden/runs/ holds two runs of tests/golden/golden.lua (sim engines,
# the null engine, two sizes, two thread counts, derived ratios), measured
# once and kept. tests/golden/expected/ holds what each command below wrote
# (stdout; exit status and stderr in status.txt; plot's data files, render
# scripts and render.sh, without images: gnuplot is not run). The commands
# run in a scratch folder with relative paths, so nothing in the outputs
# depends on the machine, the folder or the time. A change of output on
# purpose (a new column, a new wording) must update the expected files in the
# same commit: run `make golden-update` (or, from the source tree,
# `CRYPTOBENCH=./cryptobench sh tests/cli_golden.sh --update`), read the diff
# of tests/golden/expected/ with git, and commit it with the change that
# caused it. A diff nobody meant is a regression.
. "${top_srcdir:-.}/tests/lib.sh"
# One collation for the file lists, whatever the user's locale.
LC_ALL=C
export LC_ALL

# The commands run in $WORK: absolute paths for what they read and write.
golden=$(cd "$top_srcdir/tests/golden" && pwd)
case $CRYPTOBENCH in /*) ;; *) CRYPTOBENCH=$(pwd)/$CRYPTOBENCH ;; esac
update=false
[ "${1:-}" = --update ] && update=true

# The outputs: NAME then the cryptobench arguments (stdout goes to NAME).
commands() {
	cat <<'EOF'
report.txt report runs/run-1.jsonl
report.md report runs/run-1.jsonl --format markdown
report.csv report runs/run-1.jsonl --format csv
report.json report runs/run-1.jsonl --format json
report-min-two-files.txt report runs/run-1.jsonl runs/run-2.jsonl --statistic min
report-mean.csv report runs/run-2.jsonl --statistic mean --format csv
report-details.txt report runs/run-2.jsonl --details
compare.txt compare runs
compare.md compare runs/run-1.jsonl runs/run-2.jsonl --format markdown
compare.csv compare runs --format csv
compare.json compare runs --format json
compare-baseline.txt compare --baseline runs/run-1.jsonl runs/run-2.jsonl
compare-baseline.json compare --baseline runs/run-1.jsonl runs/run-2.jsonl --format json
plot-runs.txt plot runs -o plot-runs --statistic auto --timelines flagged
plot-one.txt plot runs/run-1.jsonl -o plot-one
compare-hosts.txt compare hosts
compare-hosts.md compare hosts --format markdown
compare-hosts.csv compare hosts --format csv
compare-hosts.json compare hosts --format json
plot-hosts.txt plot hosts -o plot-hosts --timelines none
EOF
}

# produce DIR: run every command in $WORK (where runs/ is) into DIR.
produce() {
	out=$1
	mkdir -p "$out"
	: >"$out/status.txt"
	while read -r name args; do
		# shellcheck disable=SC2086
		(cd "$WORK" && CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot "$CRYPTOBENCH" $args \
			>"$out/$name" 2>"$WORK/stderr"
		echo "$name: exit $?" >>"$out/status.txt")
		sed 's/^/  /' "$WORK/stderr" >>"$out/status.txt"
	done <"$WORK/commands"
	# The charts' data and scripts; the templates are the source tree's own
	# (checked below), the images are not drawn. Of the hosts' plot, the
	# charts of its folder (the hosts charts and render.sh): the runs' own
	# charts and forest plots in its subfolders are those of plot-runs.
	for d in plot-runs plot-one plot-hosts; do
		mkdir -p "$WORK/$d"
		depth=99
		[ "$d" = plot-hosts ] && depth=1
		(cd "$WORK/$d" && find . -maxdepth $depth -type f ! -path './templates/*' | sed 's|^\./||' | sort) >"$out/$d.files"
		while read -r f; do
			mkdir -p "$(dirname "$out/$d/$f")"
			cp "$WORK/$d/$f" "$out/$d/$f"
		done <"$out/$d.files"
	done
}

cp -R "$golden/runs" "$WORK/runs"
# Two hosts: vm (the two runs) and vm2 (run 2 again, its header's host name
# changed), for compare and plot across hosts.
mkdir "$WORK/hosts"
cp "$WORK/runs/run-1.jsonl" "$WORK/hosts/vm-1.jsonl"
cp "$WORK/runs/run-2.jsonl" "$WORK/hosts/vm-2.jsonl"
sed '1s/"hostname":"vm"/"hostname":"vm2"/' "$WORK/runs/run-2.jsonl" >"$WORK/hosts/vm2.jsonl"
commands >"$WORK/commands"
if $update; then
	rm -rf "$golden/expected"
	produce "$golden/expected"
	echo "golden outputs written to $golden/expected; review them with git diff"
	exit 0
fi

n_commands=$(wc -l <"$WORK/commands")
echo "1..$((n_commands + 8))"
produce "$WORK/got"

# same NAME: the file NAME of the run is the expected one, byte for byte.
same() {
	cmp -s "$golden/expected/$1" "$WORK/got/$1" && return 0
	diag "$1 differs from tests/golden/expected/$1:"
	diff -u "$golden/expected/$1" "$WORK/got/$1" | head -20 | sed 's/^/# /'
	return 1
}

# same_tree DIR: every file of DIR the same, and no file more or fewer.
same_tree() {
	same "$1.files" || return 1
	while read -r f; do
		same "$1/$f" || return 1
	done <"$golden/expected/$1.files"
}

# templates_copied DIR: DIR/templates/ holds the source tree's templates.
templates_copied() {
	n=0
	for t in "$top_srcdir"/plots/*.gp; do
		cmp -s "$t" "$WORK/$1/templates/$(basename "$t")" ||
			{ diag "$1/templates/$(basename "$t") is not plots/$(basename "$t")"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] && [ "$(ls "$WORK/$1/templates" | wc -l)" -eq "$n" ]
}

while read -r name args; do
	check "$args" same "$name"
done <"$WORK/commands"
check "exit status and stderr of every command" same status.txt
check "plot of the folder of runs: every data file and script" same_tree plot-runs
check "plot of one run: every data file and script" same_tree plot-one
check "plot of two hosts: the hosts charts' data files and scripts, render.sh" same_tree plot-hosts
check "...and no absolute path in them" sh -c "! grep -rl '$WORK' '$WORK/plot-runs' '$WORK/plot-one' '$WORK/plot-hosts' '$WORK/got'"
check "the templates copied are the source tree's (folder of runs)" templates_copied plot-runs
check "the templates copied are the source tree's (one run)" templates_copied plot-one
check "the templates copied are the source tree's (two hosts)" templates_copied plot-hosts
[ "$tap_failed" -eq 0 ]
