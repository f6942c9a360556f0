#!/bin/sh
# The layers of the tree, checked on every quoted include. Each folder of C
# may include itself and the folders its row names; a folder's row names only
# folders below it, so the rows hold no circle (checked too), and a folder
# without a row fails.
#
#   core/base/          what every layer uses (error buffers, units, data dir)
#   core/machine/       clocks, the host
#   core/algorithms/    what a cell computes: algorithms, keys, input, reference
#   core/engine/        the engine plumbing (engine.h, registry, workers, gate)
#   core/engines/       one file per engine
#   core/check/         known answers, verify
#   core/builds/        other builds of a library, checked by the known answers
#   core/measure/       scenario, plan, trial, budget
#   core/profile/       the profiler
#   core/results/       the results file: schema, writer, header, readers
#   core/run/           running a plan, the profiled trials
#   core/lua/           the Lua binding
#   analysis/stats/     samples to numbers
#   analysis/verdicts/  judgements
#   analysis/report/    printing
#   plots/              charts
#   cli/                the command line: everything (and nothing includes it)
#
# Beside the rows: includes are written from the top of the tree
# ("core/results/results.h"); only core/lua/ includes Lua's headers; there
# is no include cycle between modules (a .c and its .h are one module, named
# by its path without the extension: a circle of quoted includes among
# modules is one); inside plots/, the chart writers and their primitives
# never call back into plot.c or the chart kinds' table. The last points
# plant each fault in a copy of the tree (an include against the grain, an
# include that closes a cycle in each folder of core/ and in cli/, a circle
# between rows, a call back) and make sure the checks catch it.
top=${top_srcdir:-.}
echo "1..44"

# The rows: FOLDER, then the folders it may include besides itself.
core_data='core/base core/machine core/algorithms core/engine core/measure core/results'
rows="core/base
core/machine core/base
core/algorithms core/base
core/engine core/base core/machine core/algorithms
core/engines core/base core/machine core/algorithms core/engine
core/check core/base core/machine core/algorithms core/engine
core/builds core/base core/machine core/algorithms core/engine core/check
core/measure core/base core/machine core/algorithms core/engine
core/profile core/base
core/results core/base core/machine core/algorithms core/engine core/builds core/measure
core/run core/base core/machine core/algorithms core/engine core/measure core/profile core/results
core/lua core/base core/machine core/algorithms core/engine core/builds core/measure
analysis/stats $core_data
analysis/verdicts $core_data analysis/stats
analysis/report $core_data analysis/stats analysis/verdicts
plots $core_data analysis/stats analysis/verdicts analysis/report
cli core/base core/machine core/algorithms core/engine core/engines core/check core/builds core/measure core/profile core/results core/run core/lua analysis/stats analysis/verdicts analysis/report plots"

point=0
# result OK DESCRIPTION DETAILS: one TAP point, DETAILS as diagnostics.
result() {
	point=$((point + 1))
	if [ "$1" = ok ]; then
		echo "ok $point - $2"
	else
		echo "not ok $point - $2"
		printf '%s\n' "$3" | sed 's/^/# /'
	fi
}
# none DESCRIPTION TEXT: ok when TEXT is empty.
none() {
	if [ -z "$2" ]; then result ok "$1"; else result fail "$1" "$2"; fi
}

# sources ROOT: the C files of the layers, relative to ROOT.
sources() {
	(cd "$1" && ls core/*/*.[ch] cli/*.[ch] analysis/*/*.[ch] plots/*.[ch] 2>/dev/null)
}

# against ROOT FOLDER ALLOWED...: "file:line:#include ..." for each quoted
# include of FOLDER's files in none of FOLDER and ALLOWED (config.h aside).
against() {
	root=$1 folder=$2
	shift 2
	files=$(cd "$root" && ls "$folder"/*.[ch] 2>/dev/null)
	[ -n "$files" ] || return 0
	(cd "$root" && awk -v allowed="$folder $*" '
		BEGIN { n = split(allowed, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
		/^#include "/ {
			inc = $0; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
			dir = inc; sub(/\/[^\/]*$/, "", dir)
			if (inc != "config.h" && !(dir in ok)) print FILENAME ":" FNR ":" $0
		}' $files)
}

# edges ROOT [FILE...]: "MODULE MODULE" for each quoted include from one
# module to another (every source of ROOT when no FILE is given).
edges() {
	root=$1
	shift
	[ $# -gt 0 ] || set -- $(sources "$root")
	(cd "$root" && awk '
		FNR == 1 { m = FILENAME; sub(/\.[ch]$/, "", m) }
		/^#include "/ {
			t = $0; sub(/^#include "/, "", t); sub(/".*/, "", t); sub(/\.h$/, "", t)
			if (t != "config" && t != m) print m, t
		}' "$@")
}
# loops: the circles tsort finds among the edges on stdin, one a line.
loops() {
	sort -u | tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' |
		awk '/input contains a loop/ { if (l != "") print l; l = ""; next } { l = l " " $0 } END { if (l != "") print l }'
}

# 1..17: each folder's row.
while read -r folder allowed; do
	none "$folder includes only itself and: ${allowed:-nothing}" "$(against "$top" "$folder" $allowed)"
done <<EOF
$rows
EOF

# Every folder of C has a row.
unruled() {
	sources "$1" | sed 's|/[^/]*$||' | sort -u | while read -r d; do
		printf '%s\n' "$rows" | awk -v d="$d" '$1 == d { f = 1 } END { exit !f }' || echo "$d"
	done
}
none "every folder of C has a row" "$(unruled "$top")"

# The rows hold no circle.
row_edges() {
	printf '%s\n' "$1" | while read -r folder allowed; do
		for a in $allowed; do echo "$folder $a"; done
	done
}
none "the rows hold no circle between folders" "$(row_edges "$rows" | loops)"

# Every include is written from the top of the tree (or is config.h).
from_top() {
	(cd "$1" && grep -n -E '^#include "' $(sources "$1") | grep -v -E ':#include "(config\.h|[a-z]+/[^"]*\.h)"')
}
none "every include is written from the top of the tree" "$(from_top "$top")"

# Only core/lua/ includes Lua's headers.
lua_headers() {
	(cd "$1" && grep -n -E '^#include <(lua|lauxlib|lualib)\.h>' $(sources "$1" | grep -v '^core/lua/'))
}
none "only core/lua/ includes Lua's headers" "$(lua_headers "$top")"

none "no include cycle between modules (a .c and its .h)" "$(edges "$top" | loops)"

# Inside plots/: plot.c (the folder, render.sh, which charts a run gets) and
# plot_kinds.c (the chart kinds' table, naming the writers) sit above the
# chart writers and their primitives. Nothing else in plots/ names what those
# two define, so the writers never call back (no cycle).
upper_names() {
	sed -n -E '/^static/d; s/^[a-z][a-z_ ]*[ *](cb_plot_[a-z_]+|plot_[a-z_]+)(\[\])? *(\(|=).*/\1/p' \
		"$1/plots/plot.c" "$1/plots/plot_kinds.c" | sort -u
}
callbacks() {
	names=$(upper_names "$1")
	[ -n "$names" ] || { echo "no names found in plots/plot.c and plots/plot_kinds.c"; return; }
	for f in $(cd "$1" && ls plots/*.c); do
		case $f in plots/plot.c | plots/plot_kinds.c) continue ;; esac
		for n in $names; do
			grep -n -w "$n" "$1/$f" | sed "s|^|$f: $n: |"
		done
	done
}
none "no chart writer or primitive calls back into plots/plot.c or the kinds' table" "$(callbacks "$top")"

# The checks themselves, on copies. plant FILE INCLUDE: FILE copied from the
# tree into the scratch tree with INCLUDE added before its first include.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cb-layers.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
plant() {
	mkdir -p "$scratch/$(dirname "$1")"
	cp "$top/$1" "$scratch/$1"
	sed -i "0,/^#include \"/s//#include \"$(printf '%s' "$2" | sed 's|/|\\/|g')\"\n#include \"/" "$scratch/$1"
}

# planted_include FILE INCLUDE: the rows name exactly that line.
planted_include() {
	rm -rf "$scratch"/*
	plant "$1" "$2"
	folder=${1%/*}
	allowed=$(printf '%s\n' "$rows" | awk -v f="$folder" '$1 == f { $1 = ""; print }')
	caught=$(against "$scratch" "$folder" $allowed)
	if printf '%s\n' "$caught" | grep -q "^$1:[0-9]*:#include \"$2\""; then
		result ok "a planted include of $2 in $1 is caught ($caught)"
	else
		result fail "a planted include of $2 in $1 is caught" "$caught"
	fi
}
planted_include analysis/stats/stats.c plots/plot.h
planted_include analysis/verdicts/masks.c analysis/report/report.h
planted_include analysis/stats/ratio.c analysis/verdicts/repro.h
planted_include analysis/report/report.c cli/cli.h
planted_include core/profile/profile.c core/lua/sandbox.h
planted_include core/base/errbuf.c core/engine/engine.h
planted_include core/engine/registry.c core/check/vectors.h
planted_include core/measure/trial.c core/results/results.h
planted_include core/results/results.c core/run/runner.h

# planted_cycle FILE INCLUDE [FILE INCLUDE]: the tree's modules, FILEs with
# INCLUDEs added, hold a cycle through FILE's module.
planted_cycle() {
	rm -rf "$scratch"/*
	plant "$1" "$2"
	changed=$1
	if [ $# -eq 4 ]; then
		plant "$3" "$4"
		changed="$1 $3"
	fi
	others=$(sources "$top" | grep -v -x -F "$(printf '%s\n' $changed)")
	caught=$({ edges "$top" $others; edges "$scratch" $changed; } | loops)
	if printf '%s\n' "$caught" | grep -q -w "${1%.*}"; then
		result ok "a cycle planted in ${1%/*}/ is caught:$caught"
	else
		result fail "a cycle planted in ${1%/*}/ is caught" "$caught"
	fi
}
planted_cycle core/base/errbuf.c core/base/units.h core/base/units.c core/base/errbuf.h
planted_cycle core/machine/clock.c core/machine/host.h
planted_cycle core/algorithms/algorithm.c core/algorithms/pk.h
planted_cycle core/engine/worker.c core/engine/process.h
planted_cycle core/check/vectors.c core/check/verify.h
planted_cycle core/builds/elf_info.c core/builds/libbuild.h
planted_cycle core/measure/scenario.c core/measure/plan.h
planted_cycle core/results/results.c core/results/results_scan.h
planted_cycle core/run/explain.c core/run/runner.h
planted_cycle cli/cli.c cli/html_page.h

# A row naming a folder above it: a circle between folders.
caught=$(row_edges "$rows
core/base core/run" | loops)
if printf '%s\n' "$caught" | grep -q 'core/base'; then
	result ok "a planted circle between rows is caught:$caught"
else
	result fail "a planted circle between rows is caught" "$caught"
fi

# ...and a planted call back: a primitive that frees the plot (plot.c's).
rm -rf "$scratch"/*
mkdir -p "$scratch/plots"
cp "$top"/plots/*.c "$scratch/plots/"
printf 'void planted(void)\n{\n\tcb_plot_free(NULL);\n}\n' >>"$scratch/plots/plot_files.c"
caught=$(callbacks "$scratch")
if printf '%s\n' "$caught" | grep -q '^plots/plot_files.c: cb_plot_free: '; then
	result ok "a planted call from plot_files.c back into plot.c is caught"
else
	result fail "a planted call from plot_files.c back into plot.c is caught" "$caught"
fi
