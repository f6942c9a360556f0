#!/bin/sh
# The layers of the tree, checked on every quoted include:
#
#   core/ (and core/engines/)  the measuring library: includes core/ only
#   core/lua/                  the Lua binding: core/ and core/lua/
#   analysis/                  statistics: core/ and analysis/
#   plots/                     charts: core/, analysis/ and plots/
#   core/cli/                  the command line: everything
#
# Includes are written from the top of the tree ("core/results.h"), only
# core/lua/ includes Lua's headers, and nothing but core/cli/ and the tests
# includes core/cli/. The last test plants a wrong include in a copy of the
# tree and makes sure the check catches it.
top=${top_srcdir:-.}
echo "1..8"

# violations ROOT RULE: print "file:line: include" for each include in ROOT
# against RULE.
violations() {
	root=$1
	case $2 in
	core) files=$(cd "$root" && ls core/*.[ch] core/engines/*.[ch] 2>/dev/null)
	      allowed='^core/[a-z_]*\.h$' ;;
	lua) files=$(cd "$root" && ls core/lua/*.[ch] 2>/dev/null)
	     allowed='^core/(lua/)?[a-z_]*\.h$' ;;
	analysis) files=$(cd "$root" && ls analysis/*.[ch] 2>/dev/null)
		  allowed='^(core|analysis)/[a-z_]*\.h$' ;;
	plots) files=$(cd "$root" && ls plots/*.[ch] 2>/dev/null)
	       allowed='^(core|analysis|plots)/[a-z_]*\.h$' ;;
	from-top) files=$(cd "$root" && ls core/*.[ch] core/*/*.[ch] analysis/*.[ch] plots/*.[ch] 2>/dev/null)
		  allowed='^(config\.h|[a-z]+/.*\.h)$' ;;
	lua-headers) files=$(cd "$root" && ls core/*.[ch] core/engines/*.[ch] core/cli/*.[ch] analysis/*.[ch] plots/*.[ch] 2>/dev/null)
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

rule core "core/ includes only core/ (not core/lua, core/cli, analysis, plots)"
rule lua "core/lua/ includes only core/ and core/lua/"
rule analysis "analysis/ includes only core/ and analysis/"
rule plots "plots/ includes only core/, analysis/ and plots/"
rule from-top "every include is written from the top of the tree"
rule lua-headers "only core/lua/ includes Lua's headers"

# core/cli/ is included by nobody but itself.
point=$((point + 1))
bad=$(cd "$top" && grep -n -E '^#include "core/cli/' core/*.[ch] core/engines/*.[ch] core/lua/*.[ch] analysis/*.[ch] plots/*.[ch] 2>/dev/null)
if [ -z "$bad" ]; then echo "ok $point - nothing below the command line includes core/cli/"; else
	echo "not ok $point - nothing below the command line includes core/cli/"; printf '%s\n' "$bad" | sed 's/^/# /'; fi

# The check itself: a copy of analysis/ with a deliberate include of plots/.
point=$((point + 1))
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cb-layers.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/analysis"
cp "$top"/analysis/stats.c "$scratch/analysis/"
sed -i '0,/^#include "analysis\/stats.h"/s//#include "analysis\/stats.h"\n#include "plots\/plot.h"/' "$scratch/analysis/stats.c"
caught=$(violations "$scratch" analysis)
if printf '%s\n' "$caught" | grep -q 'analysis/stats.c:[0-9]*:#include "plots/plot.h"'; then
	echo "ok $point - a planted include of plots/ in analysis/ is caught ($caught)"
else
	echo "not ok $point - a planted include of plots/ in analysis/ is caught"
fi
