#!/bin/sh
# aa-builds.sh: are two builds of one library in one run (a variant's lib,
# core/builds/libbuild.h) compared without bias, and is a real difference seen?
#
#   tests/bench/aa-builds.sh [RUNS] [FOLDER] [-- RUN-OPTION...]
#
# 1. A/A: the libcrypto.so.3 cryptobench links, copied to two paths, loaded
#    as two builds beside the default, and the linked file itself as a third
#    build ("linked": the same file in a namespace of its own; the default,
#    beside builds, runs the engine's object in the base namespace, the code
#    every build runs); RUNS runs (default 3, at least 2; one `run --runs` folder) over
#    SHA-256, AES-128-CBC and AES-256-GCM from 64 B to 16 KiB. Per run, the
#    derived ratios copy-a/default, copy-b/default, copy-b/copy-a,
#    copy-a/linked and linked/default of each algorithm and their verdicts
#    (any "faster" or "slower" is a false difference: there should be none;
#    linked/default, the one file in two namespaces, shows whether a
#    namespace of its own costs anything); then `compare` of the runs.
# 2. Planted: one copy loaded with the mask that clears AES-NI
#    (OPENSSL_ia32cap), in the same run as the default, over AES-128-CBC: its
#    ratio to the default (expected at most 0.5); and the default's own cells
#    against runs without the masked copy, in PAIRS (default 5; PAIRS=N in the
#    environment) alternated pairs of processes, the default alone then beside
#    the masked copy, PLANTED_ROUNDS (40) fixed rounds each: per process the
#    default's MB/s and whether its code crosses a 16 MiB boundary (where the
#    kernel put it, one process in eight: placement.h), per pair `compare
#    --baseline` (equivalent within delta expected), and the means over the
#    processes whose default did not cross.
#
# A benchmark, not a test: it prints figures and asserts nothing; the exit
# status is 0 unless a command fails. FOLDER (default: a temporary one) keeps
# the copies and the results files. RUN-OPTIONs go to every `cryptobench run`
# (`--set rounds=2` to see it end). Needs jq.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
runs=3
work=
[ $# -gt 0 ] && [ "$1" != -- ] && { runs=$1; shift; }
[ $# -gt 0 ] && [ "$1" != -- ] && { work=$1; shift; }
[ $# -gt 0 ] && [ "$1" = -- ] && shift
[ "$runs" -ge 2 ] || { echo "aa-builds.sh: RUNS must be 2 or more (compare needs runs)" >&2; exit 2; }
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

# derived FILE: each derived metric of the run's report, with its verdict.
derived() {
	"$cb" report "$1" --format json | jq -r '.[0].derived[] |
		"  \(.name): \(.ratio.value // .ratio) \(.verdict)"'
}

cat >"$work/aa.lua" <<EOF
local cb = require "cryptobench"
cb.scenario {
  name       = "A/A: one libcrypto, three builds",
  engines    = { "openssl",
    { "openssl", lib = "$work/a/libcrypto.so.3", label = "copy-a" },
    { "openssl", lib = "$work/b/libcrypto.so.3", label = "copy-b" },
    { "openssl", lib = "$crypto", label = "linked" } },
  algorithms = { "sha256", "aes-128-cbc", "aes-256-gcm" },
  sizes      = { "64B", "256B", "1KiB", "4KiB", "16KiB" },
}
for _, alg in ipairs { "sha256", "aes-128-cbc", "aes-256-gcm" } do
  for _, pair in ipairs { { "copy-a", "openssl" }, { "copy-b", "openssl" },
                          { "copy-b", "copy-a" }, { "copy-a", "linked" },
                          { "linked", "openssl" } } do
    cb.derive {
      name  = pair[1] .. " over " .. pair[2] .. ", " .. alg,
      ratio = { { label = pair[1], algorithm = alg }, { label = pair[2], algorithm = alg } },
    }
  end
end
EOF
echo "# A/A: $runs runs, the default and three builds of $crypto ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$cb" run "$work/aa.lua" --runs "$runs" -o "$work/aa" --force --no-progress "$@"
for f in "$work"/aa/run-*.jsonl; do
	echo "# $(basename "$f")"
	derived "$f"
done
echo "# verdicts over all runs (faster or slower: a false difference):" \
	"$(for f in "$work"/aa/run-*.jsonl; do "$cb" report "$f" --format json; done |
		jq -s -r '[.[][0].derived[].verdict] | group_by(.) | map("\(.[0]) \(length)") | join(", ")')"
"$cb" compare "$work/aa"

mask='~0x200000000000000:~0' # AES-NI cleared (scenarios/capability-mask.lua)
# planted ENGINES: the planted scenario with ENGINES after the default.
planted() {
	cat <<EOF
local cb = require "cryptobench"
cb.scenario {
  name       = "planted: AES-NI masked in one build",
  engines    = { "openssl"$1 },
  algorithms = { "aes-128-cbc" },
  sizes      = { "1KiB", "16KiB" },
  rounds     = ${PLANTED_ROUNDS:-40},
}
EOF
}
planted ", { \"openssl\", lib = \"$work/a/libcrypto.so.3\", label = \"copy-no-aesni\",
    env = { OPENSSL_ia32cap = \"$mask\" } }" >"$work/masked.lua"
cat >>"$work/masked.lua" <<'EOF'
cb.derive {
  name  = "AES-NI masked copy over the default, aes-128-cbc",
  ratio = { { label = "copy-no-aesni", algorithm = "aes-128-cbc" },
            { label = "openssl", algorithm = "aes-128-cbc" } },
}
EOF
planted "" >"$work/alone.lua"
# default FILE: whether the default's code crosses, then its AES-128-CBC cells' MB/s.
default() {
	printf '%s' "$(zstdcat -f "$1" | head -n 1 | jq -r '[.engines[].library |
		select(.default) | if .crosses_16mib then "crosses" else "-" end] | first')"
	"$cb" report "$1" --format json | jq -r '.[0].cells[] | select(.cell.label == "openssl") |
		" \(.cell.op) \(.cell.size) \(.mb_per_s.median | floor)"' | tr -d '\n'
	echo
}
echo "# planted: ${PAIRS:-5} pairs of processes, the default alone, then beside an AES-NI-masked copy"
for i in $(seq "${PAIRS:-5}"); do
	"$cb" run "$work/alone.lua" -o "$work/alone-$i.jsonl" --force --no-progress
	"$cb" run "$work/masked.lua" -o "$work/masked-$i.jsonl" --force --no-progress
	echo "pair $i, alone:  $(default "$work/alone-$i.jsonl")"
	echo "pair $i, masked: $(default "$work/masked-$i.jsonl")"
	derived "$work/masked-$i.jsonl"
	"$cb" compare --baseline "$work/alone-$i.jsonl" "$work/masked-$i.jsonl" |
		grep -E '^openssl +aes-128-cbc' || true
done
echo "# the default's MB/s, mean over the processes whose default did not cross:"
for side in alone masked; do
	for f in "$work/$side"-*.jsonl; do default "$f"; done | awk -v side="$side" '
		$1 == "-" { for (i = 2; i + 2 <= NF; i += 3) { s[$i " " $(i + 1)] += $(i + 2); n[$i " " $(i + 1)]++ } }
		END { for (k in s) printf "%s %s %.0f (%d processes)\n", side, k, s[k] / n[k], n[k] }' | sort
done
