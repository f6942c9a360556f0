#!/bin/sh
# The installed program works without its source and build trees:
# `make install DESTDIR=...` into a temporary folder, then, in a private
# mount namespace where a tmpfs covers both trees (root and unshare needed,
# else those points are skipped with the reason), the installed `verify`,
# `run`, `plot` (with gnuplot's images when gnuplot is there) and
# `man cryptobench` work from the installed data (core/datadir.h). The last
# point takes the installed data away and expects verify to fail, naming
# the installed folder: proof that it was read from there.
. "${top_srcdir:-.}/tests/lib.sh"
: "${top_builddir:=.}"
plan 10

top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
dest="$WORK/dest"

# make install, with no job server or flags of the make that runs the tests.
installed() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$top_builddir" install \
		DESTDIR="$dest" >"$WORK/install.log" 2>&1 || { diag "$(tail -n 5 "$WORK/install.log")"; false; }
}
check "make install DESTDIR=... succeeds" installed

bin=$(find "$dest" -path '*/bin/cryptobench' -type f 2>/dev/null | head -n 1)
prefix=${bin%/bin/cryptobench}
has_files() {
	[ -x "$bin" ] && [ -f "$prefix/share/cryptobench/vectors/gcm-spec.vec" ] &&
		[ -f "$prefix/share/cryptobench/plots/ratio.gp" ] &&
		[ -f "$prefix/share/man/man1/cryptobench.1" ] ||
		{ diag "missing under $dest: $(find "$dest" -type f | head -n 20)"; false; }
}
check "it installs the program, the vectors, the templates and the man page" has_files

# hidden COMMAND...: run COMMAND from / with a tmpfs over the source and
# the build trees, and over the configured $(pkgdatadir) should a copy be
# installed there (only in this process's own mount namespace); stdout,
# stderr and the status go to $WORK as cb() keeps them.
hidden() {
	unshare --mount sh -c '
		for d in "$1" "$2" "$3"; do
			[ -d "$d" ] && { mount -t tmpfs cb-hidden "$d" || exit 99; }
		done
		cd / && shift 3 && exec "$@"' sh "$top_builddir" "$top_srcdir" "${pkgdatadir:-/nonexistent}" "$@" \
		>"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}

reason=
if [ "$(id -u)" != 0 ]; then
	reason="hiding the source tree needs root (unshare --mount)"
elif ! command -v unshare >/dev/null 2>&1; then
	reason="no unshare(1)"
elif ! unshare --mount sh -c "mount -t tmpfs cb-hidden '$top_srcdir'" 2>/dev/null; then
	reason="cannot mount in a private namespace here"
elif [ -z "$bin" ]; then
	reason="nothing was installed"
fi

if [ -n "$reason" ]; then
	skip 8 "$reason"
	done_testing
	exit
fi

cp "$top_srcdir/tests/scenarios/sim/cost.lua" "$WORK/cost.lua"
trees_gone() {
	hidden sh -c 'for f in "$@"; do [ -e "$f" ] && echo "$f"; done; true' sh \
		"$top_srcdir/tests/vectors/gcm-spec.vec" "$top_srcdir/plots/ratio.gp" \
		"$top_builddir/cryptobench" "$top_srcdir/man/cryptobench.1"
	status_is 0 && [ ! -s "$WORK/out" ] || { diag "still visible: $(cat "$WORK/out")"; false; }
}
check "inside the namespace the source and build trees are out of reach" trees_gone

verified() {
	hidden env -u CRYPTOBENCH_DATADIR "$bin" verify
	status_is 0 && grep -q 'vectors: [1-9][0-9]* passed, 0 failed' "$WORK/out" &&
		out_has "all passed"
}
check "the installed verify runs the installed vectors and passes" verified

ran() {
	hidden env -u CRYPTOBENCH_DATADIR "$bin" run "$WORK/cost.lua" \
		--set algorithms=sha256 --set sizes=64B,4KiB -o "$WORK/cost.jsonl"
	status_is 0 && [ -s "$WORK/cost.jsonl" ]
}
check "the installed run writes a results file" ran

hidden env -u CRYPTOBENCH_DATADIR "$bin" plot "$WORK/cost.jsonl" -o "$WORK/charts" --timelines none
check "the installed plot exits 0" status_is 0
plotted() {
	[ -s "$WORK/charts/size-algorithm-sha256-hash.dat" ] &&
		[ -s "$WORK/charts/size-algorithm-sha256-hash.gp" ] &&
		cmp -s "$WORK/charts/templates/throughput-size.gp" \
			"$prefix/share/cryptobench/plots/throughput-size.gp"
}
check "it writes .dat and .gp files, with the installed templates beside them" plotted

if [ -n "$(grep -s '^#define GNUPLOT_PATH "/' "$top_builddir/config.h")" ] ||
	command -v gnuplot >/dev/null 2>&1; then
	check "gnuplot renders the charts" \
		grep -q 'size-algorithm-sha256-hash\.png' "$WORK/out"
else
	skip 1 "no gnuplot"
fi

man_page() {
	if ! command -v man >/dev/null 2>&1; then
		echo "no man(1)" >"$WORK/err"
		echo 127 >"$WORK/status"
		return
	fi
	hidden env MANPATH="$prefix/share/man" MANPAGER=cat PAGER=cat man cryptobench
}
man_page
if [ "$(cat "$WORK/status")" = 127 ]; then
	skip 1 "no man(1): ./bootstrap installs man-db"
else
	check "man cryptobench shows the installed page" \
		sh -c 'grep -q "^CRYPTOBENCH(1)" "$1" && grep -q "known.answer vectors" "$1"' sh "$WORK/out"
fi

mv "$prefix/share/cryptobench" "$prefix/share/cryptobench.away"
hidden env -u CRYPTOBENCH_DATADIR "$bin" verify
check "without the installed data verify fails with exit 2, naming its folder" \
	sh -c 'grep -q "^2$" "$1/status" && grep -q "/share/cryptobench/vectors" "$1/err"' sh "$WORK"

done_testing
