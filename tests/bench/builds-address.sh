#!/bin/sh
# builds-address.sh: is a build's offset in one process set by where its code
# and data land (address-space randomisation), rather than by the build?
#
#   tests/bench/builds-address.sh [PAIRS] [FOLDER]
#
# The A/A of tests/bench/aa-builds.sh, smaller: the default openssl and two
# copies of the libcrypto.so.3 it links (`lib = FILE`), AES-128-CBC at 1 KiB
# and 16 KiB, encrypt and decrypt, 40 rounds. PAIRS times (default 4), one
# process with randomisation off (`setarch -R`: the same addresses in every
# process) and one with it on, alternated. Per process, each copy over the
# default, paired by round; "*" marks a ratio the report did not call
# equivalent within delta. If the offsets are set by addresses, the processes
# with randomisation off agree with each other (the same layout every time),
# and offsets appear only among those with it on.
#
# A benchmark, not a test: it prints figures and asserts nothing. Run it on
# a quiet machine. Needs jq and setarch (util-linux).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
pairs=${1:-4}
work=${2:-}
if [ -n "$work" ]; then
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
crypto=$(ldd "$cb" | awk '$1 == "libcrypto.so.3" { print $3 }')
mkdir -p "$work/a" "$work/b"
cp "$crypto" "$work/a/libcrypto.so.3"
cp "$crypto" "$work/b/libcrypto.so.3"
cat >"$work/aa.lua" <<EOF
local cb = require "cryptobench"
cb.scenario {
  name       = "A/A: the default and two copies, by address randomisation",
  engines    = { "openssl",
    { "openssl", lib = "$work/a/libcrypto.so.3", label = "copy-a" },
    { "openssl", lib = "$work/b/libcrypto.so.3", label = "copy-b" } },
  algorithms = { "aes-128-cbc" },
  sizes      = { "1KiB", "16KiB" },
  rounds     = 40,
}
for _, copy in ipairs { "copy-a", "copy-b" } do
  cb.derive {
    name  = copy .. " over openssl",
    ratio = { { label = copy }, { label = "openssl" } },
    by    = { "op", "size" },
  }
end
EOF

# ratios FILE: each copy over the default, per op and size, on one line.
ratios() {
	"$cb" report "$1" --format json | jq -r '[.[0].derived[] |
		"\(.name | split(" ")[0])/\(.by.op[0:3])/\(.by.size)=\(.ratio.value // .ratio |
		. * 1000 | round / 1000)\(if .verdict == "equivalent" then "" else "*" end)"] | join(" ")'
}

echo "# $pairs pairs of processes ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
i=1
while [ "$i" -le "$pairs" ]; do
	setarch -R "$cb" run "$work/aa.lua" -o "$work/off-$i.jsonl" --force --no-progress 2>/dev/null
	echo "randomisation off, $i: $(ratios "$work/off-$i.jsonl")"
	"$cb" run "$work/aa.lua" -o "$work/on-$i.jsonl" --force --no-progress 2>/dev/null
	echo "randomisation on,  $i: $(ratios "$work/on-$i.jsonl")"
	i=$((i + 1))
done
