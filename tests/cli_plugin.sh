#!/bin/sh
# Plug-ins against the installed interface: `make install DESTDIR=...`
# installs cryptobench/engine.h (with core/algorithms/algorithm.h) and
# cryptobench-engine.pc; examples/plugin/ builds out of tree against them
# with PKG_CONFIG_PATH (and the sysroot of DESTDIR); verify passes on it and
# a run measures it once --allow-external names it, and only then; a
# plug-in of another ABI, or a table shorter than ABI 1's, is refused with
# the reason (exit 2), while a shorter table that still holds ABI 1 loads.
. "${top_srcdir:-.}/tests/lib.sh"
: "${top_builddir:=.}"
plan 16

top_builddir=$(cd "$top_builddir" && pwd)
dest="$WORK/dest"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$top_builddir" install \
	DESTDIR="$dest" >"$WORK/install.log" 2>&1
check "make install DESTDIR=... succeeds" test $? -eq 0
pc=$(find "$dest" -name cryptobench-engine.pc | head -n 1)
header=$(find "$dest" -path '*/include/cryptobench/engine.h' | head -n 1)
check "it installs cryptobench/engine.h, core/algorithms/algorithm.h beside it, and the .pc" \
	test -n "$pc" -a -n "$header" -a -f "${header%/engine.h}/core/algorithms/algorithm.h"

if ! command -v pkg-config >/dev/null 2>&1 || ! command -v "${CC:-cc}" >/dev/null 2>&1; then
	skip 14 "no pkg-config or C compiler"
	done_testing
	exit
fi
cp -r "$top_srcdir/examples/plugin" "$WORK/plugin"
built() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PKG_CONFIG_PATH="${pc%/*}" \
		PKG_CONFIG_SYSROOT_DIR="$dest" "${MAKE:-make}" -s -C "$WORK/plugin" \
		>"$WORK/build.log" 2>&1 && [ -f "$WORK/plugin/libcbsha256.so" ] ||
		{ diag "$(tail -n 5 "$WORK/build.log")"; false; }
}
check "the example builds out of tree with pkg-config --cflags cryptobench-engine" built
so="$WORK/plugin/libcbsha256.so"

cb verify ref-sha256 --allow-external "$so"
check "verify passes on the plug-in" status_is 0
check "...its engine named by its table, sha256 checked" \
	sh -c 'grep -q "^sha256  *ok *$" "$1/out" && grep -q "ref-sha256" "$1/out" && grep -q "all passed" "$1/out"' sh "$WORK"

cat >"$WORK/plug.lua" <<LUA
local cb = require "cryptobench"
cb.scenario {
  name       = "a plug-in",
  engines    = { "sim", { "plugin", path = "$so" },
                 { "plugin", path = "$so", label = "ref-stream", mode = "stream" } },
  algorithms = { "sha256" },
  sizes      = { 64, 4096 },
  rounds     = 2,
  trial_time = "1ms",
}
LUA
cb run "$WORK/plug.lua" -o "$WORK/plug.jsonl"
check "a run naming the plug-in without the flag exits 2" status_is 2
check "...saying it is not allowed to load" err_has "plug.lua:4: plugin 'cbsha256': $so is not allowed to load"

cb run "$WORK/plug.lua" --allow-external "$so" -o "$WORK/plug.jsonl"
check "with --allow-external it runs" status_is 0
check "...its trials valid (outputs checked against the reference)" \
	test "$(jq -s '[.[] | select(.type == "trial" and .cell.engine == "ref-sha256" and .valid)] | length' "$WORK/plug.jsonl")" -ge 4
check "...the shared checks skip what it does not offer (stream mode)" \
	test "$(jq -s '[.[] | select(.type == "skip" and .cell.label == "ref-stream")] | length' "$WORK/plug.jsonl")" -ge 1
sha=$(sha256sum "$so" | cut -d' ' -f1)
check "the header records the plug-in with its SHA-256" \
	sh -c 'head -n 1 "$1" | jq -e --arg s "$2" ".externals[0] | .kind == \"plugin\" and .name == \"ref-sha256\" and .sha256 == \$s and .allowed" >/dev/null' sh "$WORK/plug.jsonl" "$sha"

# variant CFILE_SED NAME: the example with its last line replaced, as NAME.so.
variant() {
	sed "s/^CB_PLUGIN(ref_sha256);$/$1/" "$WORK/plugin/sha256.c" >"$WORK/plugin/$2.c"
	"${CC:-cc}" $(PKG_CONFIG_PATH="${pc%/*}" PKG_CONFIG_SYSROOT_DIR="$dest" pkg-config --cflags cryptobench-engine) \
		-std=c11 -fPIC -shared -o "$WORK/plugin/$2.so" "$WORK/plugin/$2.c"
}
variant 'const struct cb_plugin cb_plugin = {CB_ENGINE_ABI + 1, sizeof(struct cb_engine), \&ref_sha256};' abi2
cb verify --allow-external "$WORK/plugin/abi2.so"
check "a plug-in of another ABI is refused (exit 2)" status_is 2
check "...with the reason" err_has "built for engine ABI 2, this cryptobench has ABI 1"
sed "s|path = \"$so\" }|path = \"$WORK/plugin/abi2.so\" }|" "$WORK/plug.lua" >"$WORK/abi2.lua"
cb run "$WORK/abi2.lua" --allow-external "$WORK/plugin/abi2.so" -o "$WORK/abi2.jsonl"
check "...in a run too, at the scenario's line" \
	sh -c 'grep -q "^2$" "$1/status" && grep -q "abi2.lua:4: plugin $1/plugin/abi2.so: built for engine ABI 2" "$1/err"' sh "$WORK"

variant 'const struct cb_plugin cb_plugin = {CB_ENGINE_ABI, CB_ENGINE_ABI_1_SIZE - 1, \&ref_sha256};' short
cb verify --allow-external "$WORK/plugin/short.so"
check "a table shorter than ABI 1's is refused, saying so" \
	sh -c 'grep -q "^2$" "$1/status" && grep -q "less than ABI 1" "$1/err"' sh "$WORK"
variant 'const struct cb_plugin cb_plugin = {CB_ENGINE_ABI, CB_ENGINE_ABI_1_SIZE, \&ref_sha256};' abi1
cb verify ref-sha256 --allow-external "$WORK/plugin/abi1.so"
check "a table of exactly ABI 1's fields (an older header) loads and passes" status_is 0
done_testing
