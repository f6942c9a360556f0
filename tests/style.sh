#!/bin/sh
# The automated parts of doc/style.md: every C file of the tree is formatted as
# .clang-format says, and cppcheck finds nothing at the levels warning,
# portability and performance (a finding that is wrong is suppressed where
# it occurs, with `// cppcheck-suppress ID` and a comment saying why), and
# every Go file is as gofmt writes it, and every Rust file as rustfmt does;
# and no C file of the command line or of core/ (the Lua binding aside) is
# over 600 lines, so that a module that grows is split by responsibility.
# Each is skipped, with the reason, when its tool is missing (./bootstrap
# installs the first three; rustfmt comes with the Rust toolchain).
. "${top_srcdir:-.}/tests/lib.sh"
: "${top_builddir:=.}"
plan 5

files=$(cd "$top_srcdir" && find core cli analysis plots tests -name '*.[ch]' | sort)
sources=$(cd "$top_srcdir" && find core cli analysis plots tests -name '*.c' | sort)

formatted() {
	(cd "$top_srcdir" && clang-format --dry-run -Werror $files) >"$WORK/format" 2>&1 ||
		{ diag "$(grep 'error:' "$WORK/format" | head -n 10)"; diag "fix: clang-format -i FILE"; false; }
}
if command -v clang-format >/dev/null 2>&1; then
	check "the C files are formatted as .clang-format says" formatted
else
	skip 1 "no clang-format (./bootstrap installs it)"
fi

# The build's own defines, with placeholder paths: one configuration, checked
# in full.
cppcheck_clean() {
	(cd "$top_srcdir" && cppcheck -q --std=c11 --enable=warning,portability,performance \
		--inline-suppr --error-exitcode=1 -j2 -I . -I "$top_builddir" -D_GNU_SOURCE \
		-DCB_SRCDIR='"src"' -DCB_BUILDDIR='"build"' -DCB_PKGDATADIR='"data"' \
		-DCB_PKGLIBEXECDIR='"libexec"' -DCB_PKGLIBDIR='"lib"' $sources) \
		>"$WORK/cppcheck" 2>&1 || { diag "$(head -n 20 "$WORK/cppcheck")"; false; }
}
if command -v cppcheck >/dev/null 2>&1; then
	check "cppcheck finds nothing" cppcheck_clean
else
	skip 1 "no cppcheck (./bootstrap installs it)"
fi

gofmt_clean() {
	(cd "$top_srcdir" && gofmt -l $(find core tests -name '*.go' | sort)) >"$WORK/gofmt" 2>&1 &&
		[ ! -s "$WORK/gofmt" ] || { diag "$(head -n 10 "$WORK/gofmt")"; diag "fix: gofmt -w FILE"; false; }
}
if command -v gofmt >/dev/null 2>&1; then
	check "the Go files are formatted as gofmt writes them" gofmt_clean
else
	skip 1 "no gofmt (./bootstrap installs golang-go)"
fi

# rustfmt reads the worker's rustfmt.toml, found beside the files.
rustfmt_clean() {
	(cd "$top_srcdir" && rustfmt --edition 2021 --check $(find core tests -name '*.rs' | sort)) \
		>"$WORK/rustfmt" 2>&1 || { diag "$(head -n 10 "$WORK/rustfmt")"; diag "fix: rustfmt --edition 2021 FILE"; false; }
}
if command -v rustfmt >/dev/null 2>&1; then
	check "the Rust files are formatted as rustfmt writes them" rustfmt_clean
else
	skip 1 "no rustfmt (it comes with cargo and rustc)"
fi

# long_files: the C files of cli/ and core/ (core/lua/ aside) over 600 lines.
long_files() {
	(cd "$top_srcdir" && wc -l $(find cli core -name '*.[ch]' ! -path 'core/lua/*' | sort)) |
		awk '$2 != "total" && $1 > 600 { print $2 ": " $1 " lines" }'
}
short_files() {
	long_files >"$WORK/long"
	[ ! -s "$WORK/long" ] || { diag "$(cat "$WORK/long")"; diag "split it by responsibility"; false; }
}
check "no C file of cli/ or core/ (core/lua/ aside) is over 600 lines" short_files

done_testing
