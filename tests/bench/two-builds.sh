#!/bin/sh
# two-builds.sh: nettle with against without its assembler, and both against
# the system's build, in one run (a variant's lib, core/builds/libbuild.h).
#
#   tests/bench/two-builds.sh [CACHE] [-- RUN-OPTION...]
#
# 1. Debian's source of nettle: `apt-get source nettle`, after adding a
#    deb-src entry for the system's release when apt has none (root, or
#    sudo, for that and apt-get update).
# 2. Two builds of it under CACHE (default ~/.cache/cryptobench/two-builds),
#    each installed in a folder of its own: `asm` (configure's defaults, the
#    assembler in) and `noasm` (--disable-assembler). A build already there
#    is kept; remove CACHE to build again.
# 3. One run of the system's nettle and both builds over SHA-256,
#    AES-128-CBC and AES-256-GCM from 64 B to 1 MiB, `--until resolved`
#    (RUN-OPTIONs after `--` go to `cryptobench run`: `--set
#    stop_max_rounds=2` to see it end), then its report: the fastest per
#    cell with those tied with it, every cell's interval, the derived
#    ratios noasm/asm and asm/system per algorithm, op and size with their
#    verdicts, and (`run --explain=300`: profiled trials after the timed
#    ones, doc/explain.md) which functions and instruction-set extensions
#    each build's hot code holds, cell by cell.
#
# A benchmark, not a test: it prints figures and asserts nothing; the exit
# status is 0 unless a step fails. Run it on a quiet machine. Needs
# build-essential, m4, libgmp-dev and dpkg-dev.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cryptobench/two-builds
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	cache=$1
	shift
fi
[ $# -gt 0 ] && [ "$1" = -- ] && shift
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. The source, once.
src=$(find "$cache/src" -maxdepth 1 -type d -name 'nettle-*' 2>/dev/null | head -n 1)
if [ -z "$src" ]; then
	if ! grep -rqs '^deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d; then
		. /etc/os-release
		echo "# adding a deb-src entry for $VERSION_CODENAME (/etc/apt/sources.list.d/cryptobench-src.sources)"
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$VERSION_CODENAME" "$VERSION_CODENAME" |
			as_root tee /etc/apt/sources.list.d/cryptobench-src.sources >/dev/null
		as_root apt-get update -qq
	fi
	mkdir -p "$cache/src"
	(cd "$cache/src" && apt-get source -qq nettle)
	src=$(find "$cache/src" -maxdepth 1 -type d -name 'nettle-*' | head -n 1)
fi
echo "# source: $src"

# 2. The two builds, each configured and built in a copy of the source.
# soname_file NAME: the build's libnettle.so.N (it sorts before .so.N.M).
soname_file() { ls "$cache/$1/lib"/libnettle.so.* 2>/dev/null | sort | head -n 1; }
build() {
	name=$1
	shift
	prefix=$cache/$name
	if [ -n "$(soname_file "$name")" ]; then
		echo "# $name: kept ($prefix)"
		return
	fi
	echo "# $name: configure${*:+ $*} ($(date -u +%H:%M:%S) UTC)"
	rm -rf "$cache/build-$name"
	cp -a "$src" "$cache/build-$name"
	(cd "$cache/build-$name" &&
		./configure --prefix="$prefix" --libdir="$prefix/lib" --disable-documentation \
			--disable-static "$@" >configure.log 2>&1 &&
		make -j"$(nproc)" >make.log 2>&1 && make install >install.log 2>&1) ||
		{ echo "$name: the build failed: $cache/build-$name/*.log" >&2; exit 1; }
	echo "# $name: built ($(date -u +%H:%M:%S) UTC)"
}
build asm
build noasm --disable-assembler
asm_lib=$(soname_file asm)
noasm_lib=$(soname_file noasm)

# 3. One run of the three, and its report.
scenario=$cache/two-builds.lua
cat >"$scenario" <<EOF
local cb = require "cryptobench"
cb.scenario {
  name       = "nettle with and without its assembler",
  engines    = { "nettle",
    { "nettle", lib = "$asm_lib", label = "nettle-asm" },
    { "nettle", lib = "$noasm_lib", label = "nettle-noasm" } },
  algorithms = { "sha256", "aes-128-cbc", "aes-256-gcm" },
  sizes      = { "64B", "256B", "1KiB", "4KiB", "16KiB", "64KiB", "256KiB", "1MiB" },
}
for _, alg in ipairs { "sha256", "aes-128-cbc", "aes-256-gcm" } do
  cb.derive {
    name  = "no assembler over assembler, " .. alg,
    ratio = { { label = "nettle-noasm", algorithm = alg },
              { label = "nettle-asm", algorithm = alg } },
    by    = { "op", "size" },
  }
  cb.derive {
    name  = "this build over the system's, " .. alg,
    ratio = { { label = "nettle-asm", algorithm = alg },
              { label = "nettle", algorithm = alg } },
    by    = { "op", "size" },
  }
end
EOF
results=$cache/two-builds.jsonl
echo "# run ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)): $scenario"
"$cb" run "$scenario" --until resolved --explain=300 -o "$results" --force --no-progress "$@"
"$cb" report "$results"
