#!/bin/sh
# The tree's documents are in the tree: no file of the project points outside
# it (a path into a parent folder's shared/), and every document a file cites
# (a path ending in .md) exists. A citation is found relative to the citing
# file's folder or to the top of the tree; a bare name (PROTOCOL.md) also when
# a file of that name is somewhere in the tree. A Markdown link into a
# document's section (the document's path, #, an anchor) must name a heading
# of that document.
# The files are those git tracks, or every file of a tree without git (a
# distribution). The README stays a five-minute read: at most 160 lines
# (the reference is man/cryptobench.1, the rest is in doc/). The last two
# points plant each fault in a copy and make sure the checks catch it.
. "${top_srcdir:-.}/tests/lib.sh"
plan 5

# files ROOT: the project's text files (not binary, not empty), one per
# line, relative to ROOT. One grep reads them all (xargs), not one a file:
# the tree has a thousand.
files() {
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
		[ "$(git -C "$1" rev-parse --show-toplevel)" = "$(cd "$1" && pwd -P)" ]; then
		git -C "$1" ls-files -z
	else
		(cd "$1" && find . -type f ! -path './.git/*' -print0 | sed -z 's|^\./||')
	fi | (cd "$1" && xargs -0 -r grep -I -l -e . -- 2>/dev/null)
}

# outside ROOT: "file:line: text" for each mention of a parent's shared/
# (the pattern is built, so that this file does not name it).
outside() {
	pattern=../
	pattern=${pattern}shared
	files "$1" | tr '\n' '\0' | (cd "$1" && xargs -0 -r grep -n -H -F -e "$pattern" --)
}

# has_anchor FILE ANCHOR: FILE has a heading whose anchor is ANCHOR (the
# heading in lower case; letters, digits, spaces, hyphens and underscores
# kept; spaces to hyphens). The headings are filtered together, in one
# pipeline per call, not one process pair per heading.
has_anchor() {
	sed -n 's/^#\{1,6\} \{1,\}//p' "$1" | tr 'A-Z' 'a-z' |
		sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g' | grep -qxF -- "$2"
}

# inside PATH: PATH, once resolved, lies in the tree missing reads,
# $root_real (a citation may not leave the tree through "..").
inside() {
	case $(realpath -m "$1") in
	"$root_real"/*) true ;;
	*) false ;;
	esac
}

# missing ROOT: "file:line: NAME" for each cited document not in ROOT.
missing() {
	root=$1
	root_real=$(realpath -m "$root")
	files "$root" >"$WORK/files"
	sed 's|.*/||' "$WORK/files" | sort -u >"$WORK/basenames"
	while IFS= read -r f; do
		case $f in
		*/*) dir=${f%/*} ;;
		*) dir=. ;;
		esac
		grep -n -o -E '[A-Za-z0-9_.][A-Za-z0-9_./-]*\.md(#[a-z0-9_-]+)?\b' "$root/$f" |
			while IFS=: read -r line ref; do
				doc=${ref%%#*}
				frag=
				[ "$doc" != "$ref" ] && frag=${ref#*#}
				if [ -f "$root/$dir/$doc" ] && inside "$root/$dir/$doc"; then
					target=$root/$dir/$doc
				elif [ -f "$root/$doc" ] && inside "$root/$doc"; then
					target=$root/$doc
				elif [ "${doc#*/}" = "$doc" ] && grep -qxF "$doc" "$WORK/basenames"; then
					target=
				else
					echo "$f:$line: $doc"
					continue
				fi
				if [ -n "$frag" ] && [ -n "$target" ] && ! has_anchor "$target" "$frag"; then
					echo "$f:$line: $ref (no such section)"
				fi
			done
	done <"$WORK/files"
}

top=$(cd "$top_srcdir" && pwd)

no_outside() {
	bad=$(outside "$top")
	[ -z "$bad" ] || { printf '%s\n' "$bad" | head -n 10 | sed 's/^/# /'; false; }
}
check "no file refers to a path outside the project" no_outside

all_there() {
	bad=$(missing "$top")
	[ -z "$bad" ] || { printf '%s\n' "$bad" | head -n 10 | sed 's/^/# /'; false; }
}
check "every document a file cites is in the tree, and every section it links to" all_there

readme_short() {
	lines=$(wc -l <"$top"/README.md)
	[ "$lines" -le 160 ] || { diag "README.md has $lines lines"; false; }
}
check "README.md is at most 160 lines" readme_short

# The checks themselves, on a copy of a few files without git: a planted
# reference to a parent's shared/, a cited document that does not exist, a
# link to a section that does not exist.
copy=$WORK/copy
mkdir -p "$copy/doc" "$copy/core/results"
cp "$top"/README.md "$copy/"
cp "$top"/doc/*.md "$copy/doc/"
cp "$top"/core/results/results.h "$copy/core/results/"
# (The planted names are built, so that this file cites none of them.)
printf '\nSee ../%s/DESIGN.%s.\n' shared md >>"$copy"/doc/style.md
printf '/* As doc/nowhere.%s says. */\n' md >>"$copy"/core/results/results.h
printf '\n[x](method.%s#no-such-heading)\n' md >>"$copy"/doc/extending.md

planted_outside() {
	caught=$(outside "$copy")
	printf '%s\n' "$caught" | grep -q '^doc/style\.md:[0-9]*:See \.\./shared/DESIGN\.md\.$' ||
		{ diag "caught: $caught"; false; }
}
check "a planted path outside the project is caught" planted_outside

planted_missing() {
	caught=$(missing "$copy")
	printf '%s\n' "$caught" | grep -q '^core/results/results\.h:[0-9]*: doc/nowhere\.md$' &&
		printf '%s\n' "$caught" | grep -q '^doc/extending\.md:[0-9]*: method\.md#no-such-heading (no such section)$' &&
		printf '%s\n' "$caught" | grep -q '^doc/style\.md:[0-9]*: \.\./shared/DESIGN\.md$' ||
		{ diag "caught: $caught"; false; }
}
check "a planted citation of a missing document, or of a missing section, is caught" planted_missing

done_testing
