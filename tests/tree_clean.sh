#!/bin/sh
# No generated file in git, and every generated file ignored:
#   1. no tracked file is one that .gitignore ignores (a build product
#      committed by mistake, like a compiled Python module);
#   2. no tracked file has the name of a build product, ignored or not
#      (objects, compiled Python, autotools' output, core/results/build.h);
#   3. after the build and the tests that ran before this one, the tree holds
#      no file that is neither tracked nor ignored (.gitignore covers what the
#      build writes).
# The last point plants a compiled module in a scratch clone, commits it, and
# makes sure the first two checks catch it. A tree without git (a release
# tarball) has nothing to check: every point is skipped, saying so.
. "${top_srcdir:-.}/tests/lib.sh"
plan 4

top=$(cd "${top_srcdir:-.}" && pwd)

# built_names ROOT: tracked files of ROOT named like a build product.
built_names() {
	git -C "$1" ls-files | grep -E '(\.(o|a|so|pyc|trs|log)$|(^|/)__pycache__/|(^|/)(Makefile\.in|configure|aclocal\.m4|config\.h|config\.status)$|^core/results/build\.h$)' |
		grep -Ev '^paper/data/[^/]*/plan\.log$' # a --runs auto folder's plan, data
}

# ignored_tracked ROOT: tracked files that .gitignore ignores.
ignored_tracked() {
	git -C "$1" ls-files -ci --exclude-standard
}

# none LABEL COMMAND...: COMMAND prints nothing (else the lines are shown).
none() {
	label=$1
	shift
	"$@" >"$WORK/found" 2>&1
	[ ! -s "$WORK/found" ] || { diag "$label: $(head -n 5 "$WORK/found" | tr '\n' ' ')"; false; }
}

if ! command -v git >/dev/null 2>&1; then
	skip 4 "no git"
	done_testing
	exit
fi
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$top" && pwd -P)" ]; then
	skip 4 "not a git checkout (a release tree has no history to check)"
	done_testing
	exit
fi

check "no tracked file is ignored by .gitignore" none "tracked but ignored" ignored_tracked "$top"
check "no tracked file is named like a build product" none "build products in git" built_names "$top"

# Untracked and not ignored, in the source tree and (out of tree) the build
# tree's share of it; the tests' own scratch folders are outside the tree.
strays() {
	git -C "$top" status --porcelain --untracked-files=all | grep '^??'
}
check "every file the build wrote is tracked or ignored" none "neither tracked nor ignored" strays

planted() {
	git clone -q --no-local "$top" "$WORK/clone" 2>/dev/null || return 1
	mkdir -p "$WORK/clone/core/engines/workers/__pycache__"
	printf 'compiled\n' >"$WORK/clone/core/engines/workers/__pycache__/afalg.cpython-311.pyc"
	git -C "$WORK/clone" add -f core/engines/workers/__pycache__ &&
		git -C "$WORK/clone" -c user.name=t -c user.email=t@t commit -q -m planted || return 1
	[ -n "$(ignored_tracked "$WORK/clone")" ] && [ -n "$(built_names "$WORK/clone")" ]
}
check "a committed compiled module is caught by both checks" planted

done_testing
