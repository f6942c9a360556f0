#!/bin/sh
# default-place.sh: how often the libraries a process linked have their code
# across a 16 MiB boundary, and how many starts `run` takes to avoid it
# (cli/run_place.h).
#
#   tests/bench/default-place.sh [PROCESSES] [FOLDER]
#
# Two scenarios, openssl alone and every in-process library engine (the
# quick start's list), PROCESSES times each (default 200), alternated: a run
# with --kernel-place (the libraries where the kernel put them: which cross)
# and a run as runs are made (how many starts it took). Each run stops right
# after its header (CRYPTOBENCH_KILL_AT=header): nothing is timed, so it
# needs no quiet machine. Prints, per scenario, the processes whose default
# libraries cross (any, and each library's), and the starts: mean, largest,
# and how many runs still crossed when they ran out. Needs jq.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
n=${1:-200}
work=${2:-}
if [ -n "$work" ]; then
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# run NAME ENGINES I [FLAG]: one run of ENGINES stopped after its header,
# its header's placement and libraries appended to $work/NAME.jsonl.
run() {
	file=$work/$1-$3.jsonl
	# shellcheck disable=SC2086 # FLAG is one word or none
	CRYPTOBENCH_KILL_AT=header "$cb" run ${4:-} --engines "$2" --algorithms sha256 \
		--sizes 64B -o "$file" 2>/dev/null || :
	head -n 1 "$file" | jq -c '{placement, libraries: [.engines[] | select(.library) |
		{name, crosses: .library.crosses_16mib, slot: .library.slot}]}' >>"$work/$1.jsonl"
	rm -f "$file"
}

all=openssl,gcrypt,nettle,sodium,mbedtls,wolfssl,gnutls
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	run openssl-kernel openssl "$i" --kernel-place
	run openssl-chosen openssl "$i"
	run all-kernel "$all" "$i" --kernel-place
	run all-chosen "$all" "$i"
done

for s in openssl all; do
	echo "== $s ($n processes each way)"
	jq -s -r 'length as $n |
		"where the kernel put them: \(map(select(.placement.crossing | length > 0)) | length) of \($n) processes with a default across 16 MiB",
		(map(.libraries[]) | group_by(.name)[] |
			"  \(.[0].name): \(map(select(.crosses)) | length) of \(length)")' \
		"$work/$s-kernel.jsonl"
	jq -s -r 'length as $n | map(.placement.tries) as $t |
		"chosen: starts mean \(($t | add) / $n), largest \($t | max); \(map(select(.placement.tries > 1)) | length) of \($n) started again; \(map(select(.placement.crossing | length > 0)) | length) still across when the starts ran out"' \
		"$work/$s-chosen.jsonl"
done
