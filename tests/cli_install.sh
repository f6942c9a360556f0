#!/bin/sh
# The installed program works without its source and build trees:
# `make install DESTDIR=...` into a temporary folder, then, in a private
# mount namespace where a tmpfs covers both trees (root and unshare needed,
# else those points are skipped with the reason), the installed `verify`,
# `run`, `plot` (with gnuplot's images when gnuplot is there) and
# `man cryptobench` work from the installed data (core/base/datadir.h); the
# installed `engines` finds every engine the build tree's finds, the worker
# programs make built included (installed in $(pkglibexecdir) and
# $(pkgdatadir)/workers); the installed quickstart scenario runs; and the
# example plug-in builds with pkg-config against the installed
# cryptobench-engine.pc (PKG_CONFIG_SYSROOT_DIR stands for DESTDIR) and the
# installed program loads it. The last point takes the installed data away
# and expects verify to fail, naming the installed folder: proof that it was
# read from there.
. "${top_srcdir:-.}/tests/lib.sh"
: "${top_builddir:=.}"
plan 14

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
# the build trees, and over the configured $(pkgdatadir) and
# $(pkglibexecdir) should a copy be installed there (only in this process's
# own mount namespace), with no variable pointing elsewhere; stdout, stderr
# and the status go to $WORK as cb() keeps them.
hidden() {
	unshare --mount sh -c '
		for d in "$1" "$2" "$3" "$4"; do
			[ -d "$d" ] && { mount -t tmpfs cb-hidden "$d" || exit 99; }
		done
		cd / && shift 4 && exec "$@"' sh "$top_builddir" "$top_srcdir" \
		"${pkgdatadir:-/nonexistent}" "${pkglibexecdir:-/nonexistent}" \
		env -u CRYPTOBENCH_DATADIR -u CRYPTOBENCH_LIBEXECDIR "$@" >"$WORK/out" 2>"$WORK/err"
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
	skip 12 "$reason"
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
	hidden "$bin" verify
	status_is 0 && grep -q 'vectors: [1-9][0-9]* passed, 0 failed' "$WORK/out" &&
		out_has "all passed"
}
check "the installed verify runs the installed vectors and passes" verified

ran() {
	hidden "$bin" run "$WORK/cost.lua" \
		--set algorithms=sha256 --set sizes=64B,4KiB -o "$WORK/cost.jsonl"
	status_is 0 && [ -s "$WORK/cost.jsonl" ]
}
check "the installed run writes a results file" ran

hidden "$bin" plot "$WORK/cost.jsonl" -o "$WORK/charts" --timelines none
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

# usable FILE: the names of the usable engines in FILE, `engines --json`.
usable() { jq -r '.[] | select(.usable) | .name' "$1" | sort; }
if command -v jq >/dev/null 2>&1; then
	env -u CRYPTOBENCH_DATADIR -u CRYPTOBENCH_LIBEXECDIR "$top_builddir/cryptobench" engines \
		--json >"$WORK/engines-build.json" 2>/dev/null
	usable "$WORK/engines-build.json" >"$WORK/engines-build"
	hidden "$bin" engines --json
	usable "$WORK/out" >"$WORK/engines-installed"
	same_engines() {
		[ -s "$WORK/engines-build" ] &&
			cmp -s "$WORK/engines-build" "$WORK/engines-installed" || {
			diag "usable in the build tree only: $(comm -23 "$WORK/engines-build" \
				"$WORK/engines-installed" | tr '\n' ' ')"
			diag "usable installed only: $(comm -13 "$WORK/engines-build" \
				"$WORK/engines-installed" | tr '\n' ' ')"
			for e in $(comm -23 "$WORK/engines-build" "$WORK/engines-installed"); do
				diag "$e: $(jq -r ".[] | select(.name == \"$e\") | .why" "$WORK/out")"
			done
			false
		}
	}
	check "the installed engines finds the build tree's usable engines, workers included" \
		same_engines
else
	skip 1 "no jq"
fi

quickstart() {
	hidden "$bin" run "$prefix/share/cryptobench/scenarios/quickstart.lua" --set rounds=1 \
		--set trial_time=1ms --only size=64B -o "$WORK/quickstart.jsonl"
	status_is 0 && [ -s "$WORK/quickstart.jsonl" ] && err_has "trials written, 0 invalid"
}
check "the installed quickstart scenario runs and writes a results file" quickstart

if command -v pkg-config >/dev/null 2>&1 && command -v "${CC:-cc}" >/dev/null 2>&1; then
	cp -r "$top_srcdir/examples/plugin" "$WORK/plugin"
	plugin_built() {
		hidden env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			PKG_CONFIG_PATH="$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
			"${MAKE:-make}" -s -C "$WORK/plugin"
		status_is 0 && [ -f "$WORK/plugin/libcbsha256.so" ] ||
			{ diag "$(tail -n 5 "$WORK/err")"; false; }
	}
	check "the example plug-in builds against the installed cryptobench-engine.pc" plugin_built
	plugin_loaded() {
		hidden "$bin" engines --allow-external "$WORK/plugin/libcbsha256.so"
		status_is 0 && grep -q '^ref-sha256  *plugin ' "$WORK/out" &&
			! grep -q '^ref-sha256 .*UNAVAILABLE' "$WORK/out" ||
			{ diag "$(grep '^ref-sha256' "$WORK/out") $(head -c 300 "$WORK/err")"; false; }
	}
	check "...and the installed engines loads it with --allow-external" plugin_loaded
else
	skip 2 "no pkg-config or C compiler"
fi

mv "$prefix/share/cryptobench" "$prefix/share/cryptobench.away"
hidden "$bin" verify
check "without the installed data verify fails with exit 2, naming its folder" \
	sh -c 'grep -q "^2$" "$1/status" && grep -q "/share/cryptobench/vectors" "$1/err"' sh "$WORK"

done_testing
