#!/bin/sh
# The layers of the tree, checked on every quoted include:
#
#   core/ (and core/engines/)  the measuring library: includes core/ (and the
#                              profiler, core/profile/, for its callers)
#   core/profile/              the profiler: core/ and core/profile/
#   core/lua/                  the Lua binding: core/ and core/lua/
#   analysis/stats/            samples to numbers: core/ and analysis/stats/
#   analysis/verdicts/         judgements: core/, analysis/stats/, analysis/verdicts/
#   analysis/report/           printing: core/ and analysis/
#   plots/                     charts: core/, analysis/ and plots/
#   cli/                       the command line: everything
#
# Includes are written from the top of the tree ("core/results/results.h"), only
# core/lua/ includes Lua's headers, and nothing but cli/ and the tests
# includes cli/. Inside plots/, the chart writers and their primitives
# never call back into plot.c or the chart kinds' table. The last two tests
# plant a wrong include and a call back in a copy of the tree and make sure
# the checks catch them.
top=${top_srcdir:-.}
echo "1..16"

# violations ROOT RULE: print "file:line: include" for each include in ROOT
# against RULE.
violations() {
	root=$1
	case $2 in
	core) files=$(cd "$root" && ls core/*/*.[ch] 2>/dev/null | grep -v -E '^core/(lua|profile)/')
	      allowed='^core/(base|machine|algorithms|engine|check|builds|measure|results|run)/[a-z_]*\.h$|^core/profile/[a-z_]*\.h$' ;;
	profile) files=$(cd "$root" && ls core/profile/*.[ch] 2>/dev/null)
		 allowed='^core/(base|machine|algorithms|engine|check|builds|measure|results|run)/[a-z_]*\.h$|^core/profile/[a-z_]*\.h$' ;;
	lua) files=$(cd "$root" && ls core/lua/*.[ch] 2>/dev/null)
	     allowed='^core/(base|machine|algorithms|engine|check|builds|measure|results|run)/[a-z_]*\.h$|^core/lua/[a-z_]*\.h$' ;;
	analysis) files=$(cd "$root" && ls analysis/*.[ch] analysis/*/*.[ch] 2>/dev/null)
		  allowed='^(core/(base|machine|algorithms|engine|check|builds|measure|results|run)|analysis/(stats|verdicts|report))/[a-z_]*\.h$' ;;
	stats) files=$(cd "$root" && ls analysis/stats/*.[ch] 2>/dev/null)
	       allowed='^(core/(base|machine|algorithms|engine|check|builds|measure|results|run)|analysis/stats)/[a-z_]*\.h$' ;;
	verdicts) files=$(cd "$root" && ls analysis/verdicts/*.[ch] 2>/dev/null)
		  allowed='^(core/(base|machine|algorithms|engine|check|builds|measure|results|run)|analysis/(stats|verdicts))/[a-z_]*\.h$' ;;
	plots) files=$(cd "$root" && ls plots/*.[ch] 2>/dev/null)
	       allowed='^(core/(base|machine|algorithms|engine|check|builds|measure|results|run)|analysis/(stats|verdicts|report)|plots)/[a-z_]*\.h$' ;;
	from-top) files=$(cd "$root" && ls core/*/*.[ch] cli/*.[ch] analysis/*/*.[ch] plots/*.[ch] 2>/dev/null)
		  allowed='^(config\.h|[a-z]+/.*\.h)$' ;;
	lua-headers) files=$(cd "$root" && ls core/*/*.[ch] cli/*.[ch] analysis/*/*.[ch] plots/*.[ch] 2>/dev/null | grep -v '^core/lua/')
		     allowed='' ;;
	esac
	[ -n "$files" ] || return 0
	for f in $files; do
		if [ "$2" = lua-headers ]; then
			grep -n -E '^#include <(lua|lauxlib|lualib)\.h>' "$root/$f" | sed "s|^|$f:|"
			continue
		fi
		grep -n -E '^#include "' "$root/$f" | while IFS= read -r line; do
			inc=$(printf '%s\n' "$line" | sed -E 's/^[0-9]+:#include "([^"]+)".*/\1/')
			[ "$inc" = config.h ] && [ "$2" != from-top ] && continue
			printf '%s\n' "$inc" | grep -q -E "$allowed" || printf '%s:%s\n' "$f" "$line"
		done
	done
}

point=0
rule() {
	point=$((point + 1))
	bad=$(violations "$top" "$1")
	if [ -z "$bad" ]; then
		echo "ok $point - $2"
	else
		echo "not ok $point - $2"
		printf '%s\n' "$bad" | sed 's/^/# /'
	fi
}

rule core "core/ includes only core/ and core/profile/ (not core/lua, cli, analysis, plots)"
rule profile "core/profile/ includes only core/ and core/profile/"
rule lua "core/lua/ includes only core/ and core/lua/"
rule analysis "analysis/ includes only core/ and analysis/'s three layers"
rule stats "analysis/stats/ includes only core/ and analysis/stats/"
rule verdicts "analysis/verdicts/ includes only core/, analysis/stats/ and analysis/verdicts/"
rule plots "plots/ includes only core/, analysis/ and plots/"
rule from-top "every include is written from the top of the tree"
rule lua-headers "only core/lua/ includes Lua's headers"

# cli/ is included by nobody but itself.
point=$((point + 1))
bad=$(cd "$top" && grep -n -E '^#include "cli/' core/*/*.[ch] analysis/*/*.[ch] plots/*.[ch] 2>/dev/null)
if [ -z "$bad" ]; then echo "ok $point - nothing below the command line includes cli/"; else
	echo "not ok $point - nothing below the command line includes cli/"; printf '%s\n' "$bad" | sed 's/^/# /'; fi

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
point=$((point + 1))
bad=$(callbacks "$top")
if [ -z "$bad" ]; then
	echo "ok $point - no chart writer or primitive calls back into plots/plot.c or the kinds' table"
else
	echo "not ok $point - no chart writer or primitive calls back into plots/plot.c or the kinds' table"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

# The check itself: copies of analysis/ with a deliberate include against
# the grain, each of which its rule must name.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cb-layers.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# planted RULE FILE INCLUDE: FILE (from the tree) copied with INCLUDE added
# after its first include; pass when RULE names exactly that line.
planted() {
	point=$((point + 1))
	rm -rf "$scratch/analysis"
	mkdir -p "$scratch/$(dirname "$2")"
	cp "$top/$2" "$scratch/$2"
	sed -i "0,/^#include \"/s//#include \"$(printf '%s' "$3" | sed 's|/|\\/|g')\"\n#include \"/" "$scratch/$2"
	caught=$(violations "$scratch" "$1")
	if printf '%s\n' "$caught" | grep -q "^$2:[0-9]*:#include \"$3\""; then
		echo "ok $point - a planted include of $3 in $2 is caught ($caught)"
	else
		echo "not ok $point - a planted include of $3 in $2 is caught"
		printf '%s\n' "$caught" | sed 's/^/# /'
	fi
}
planted analysis analysis/stats/stats.c plots/plot.h
planted verdicts analysis/verdicts/masks.c analysis/report/report.h
planted stats analysis/stats/ratio.c analysis/verdicts/repro.h
planted profile core/profile/profile.c core/lua/sandbox.h

# ...and a planted call back: a primitive that frees the plot (plot.c's).
point=$((point + 1))
mkdir -p "$scratch/plots"
cp "$top"/plots/*.c "$scratch/plots/"
printf 'void planted(void)\n{\n\tcb_plot_free(NULL);\n}\n' >>"$scratch/plots/plot_files.c"
caught=$(callbacks "$scratch")
if printf '%s\n' "$caught" | grep -q '^plots/plot_files.c: cb_plot_free: '; then
	echo "ok $point - a planted call from plot_files.c back into plot.c is caught"
else
	echo "not ok $point - a planted call from plot_files.c back into plot.c is caught ($caught)"
fi
