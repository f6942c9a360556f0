#!/bin/sh
# aa-key-scaling.sh: does compare call unchanged runs reproduced on this
# machine, and does it catch a real change of about 5%?
#
#   tests/bench/aa-key-scaling.sh [RUNS] [EXTRA] [FOLDER]
#
# 1. A/A: runs scenarios/key-scaling.lua RUNS times (default 3, one
#    `run --runs` folder) and compares them: the share of cells and of
#    derived metrics called non-reproducible (nothing changed: should be ~0),
#    and the exit status of `compare --fail-on non-reproducible` (should be 0).
# 2. A planted change: one more run of the same scenario in which the openssl
#    engine does EXTRA (default 0.05) more work per call — the engine option
#    `extra`, a busy loop after every call worth that share of the call's own
#    time, calibrated when the context opens (core/engines/openssl.c). Its
#    label stays "openssl", so its cells line up with the A/A runs'. Compared
#    with the first RUNS-1 A/A runs: the openssl cells must be called
#    non-reproducible, the other engines' cells reproduce, and --fail-on
#    exits 1. The engine rows (each label's cells pooled, one observation per
#    round) are where a change of every cell of one engine shows: openssl's
#    must be non-reproducible, the other engines' not. (Ratios of openssl's
#    own cells, AES-256/AES-128, move little:
#    the extra work scales with each call.)
#
# A benchmark, not a test: it prints figures and asserts nothing; the exit
# status is 0 unless a command fails. FOLDER (default: a temporary one) keeps
# the results files. Needs jq.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
runs=${1:-3}
extra=${2:-0.05}
if [ -n "${3:-}" ]; then
	work=$3
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# Rows of a compare (JSON on stdin) by verdict: "kind verdict count".
tally() {
	jq -r '(.cells[] | "cells \(.verdict)"), (.derived[] | "derived \(.verdict)"),
		(.engines[]? | "engines \(.verdict)")' |
		sort | uniq -c | awk '{ n[$2] += $1; v[$2 " " $3 " " $4] = $1 }
		END { for (k in v) { split(k, p, " "); printf "  %-8s %-17s %4d of %d\n", p[1], p[2] (p[3] ? " " p[3] : ""), v[k], n[p[1]] } }' | sort
}

echo "# A/A: $runs runs of key-scaling.lua, nothing changed ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$cb" run "$top/scenarios/key-scaling.lua" --until rounds --runs "$runs" -o "$work/aa" --no-progress
"$cb" compare "$work/aa" --format json >"$work/aa.json"
"$cb" compare "$work/aa" >"$work/aa.txt"
tally <"$work/aa.json"
jq -r '"  measures: " + ([.cells[].test.measure] | group_by(.) | map("\(.[0]) \(length)") | join(", "))' "$work/aa.json"
grep '^false alarms' "$work/aa.txt" | sed 's/^/  /'
jq -r '.engines[]? | "  engine \(.label) (\(.cells) cells pooled): \(.verdict): \(.test.why)"' "$work/aa.json"
status=0
"$cb" compare "$work/aa" --fail-on non-reproducible >/dev/null || status=$?
echo "  compare --fail-on non-reproducible: exit $status"

echo "# planted: openssl with extra = $extra (busy work per call), against A/A runs 1..$((runs - 1))"
sed "s/cb.available { \"openssl\",/cb.available { { \"openssl\", label = \"openssl\", extra = $extra },/" \
	"$top/scenarios/key-scaling.lua" >"$work/key-scaling-planted.lua"
grep -q "extra = $extra" "$work/key-scaling-planted.lua"
"$cb" run "$work/key-scaling-planted.lua" --until rounds -o "$work/planted.jsonl" --no-progress
set --
i=1
while [ "$i" -lt "$runs" ]; do
	set -- "$@" "$work/aa/run-$i.jsonl"
	i=$((i + 1))
done
"$cb" compare "$@" "$work/planted.jsonl" --format json >"$work/planted.json"
tally <"$work/planted.json"
jq -r '.cells | group_by(.cell.engine == "openssl") | .[] |
	"  \(if .[0].cell.engine == "openssl" then "openssl (planted)" else "other engines    " end) cells: " +
	"\(map(select(.verdict == "non-reproducible")) | length) of \(length) non-reproducible, " +
	"\(map(select(.verdict == "reproduced")) | length) reproduced"' "$work/planted.json"
jq -r '.cells[] | select(.cell.engine == "openssl") | "    \(.key): \(.verdict): \(.test.why)"' "$work/planted.json"
jq -r '.engines[]? | "  engine \(.label) (\(.cells) cells pooled): \(.verdict): \(.test.why)"' "$work/planted.json"
status=0
"$cb" compare "$@" "$work/planted.jsonl" --fail-on non-reproducible >/dev/null || status=$?
echo "  compare --fail-on non-reproducible: exit $status"
