#!/bin/sh
# paper/collect.sh: re-measure the data behind the paper (make paper-data).
# Each scenario runs three times (the sim validation five) into
# DATA/NAME/run-K.jsonl, replacing what was there. Run it on a quiet machine:
# nothing else should compete for the cores while it measures.
#
#   paper/collect.sh [CRYPTOBENCH [SRCDIR [DATA [FOLDER...]]]]
#
# FOLDERs (names below) measure those alone, the others left as they are.
# The files are written uncompressed; the committed folders hold them
# compressed with zstd (paper/data/README.md).
set -eu
cb=${1:-./cryptobench}
src=${2:-.}
data=${3:-$src/paper/data}
[ $# -gt 3 ] && shift 3 || set --
only=" $* "
s=$src/scenarios

# wanted NAME: whether NAME is to be measured now.
wanted() { [ "$only" = "  " ] || case $only in *" $1 "*) true ;; *) false ;; esac; }

measure() {
	name=$1 runs=$2
	shift 2
	wanted "$name" || return 0
	echo "paper-data: $name" >&2
	rm -rf "$data/$name"
	"$cb" run "$@" --runs "$runs" --no-progress -o "$data/$name"
}

measure sweep 3 "$s/paper/sweep.lua"
measure key-scaling 3 "$s/paper/key-scaling.lua"
measure sha-ext 3 "$s/paper/sha-ext.lua"
# Masks run until every mask is judged (the scenario's stop rule: blocks of
# 8 rounds after its first 40), each run within 6 minutes.
measure capability-mask 3 "$s/capability-mask.lua" --until resolved --budget 6m
measure threads 3 "$s/threads.lua"
measure context-reuse 3 "$s/context-reuse.lua" --set rounds=10
measure chunked 3 "$s/chunked.lua" --set rounds=10
measure cross-runtime 3 "$s/cross-runtime.lua"
# Each cell timed, then profiled (run --explain through the scenario).
measure which-code 3 "$s/paper/which-code.lua"
measure file-tools 3 "$s/file-tools.lua" --set big=16MiB --set trial_time=50ms --set rounds=8
measure public-key 3 "$s/paper/public-key.lua"
measure validation-aa 5 "$s/paper/validation.lua"
measure validation-shift 5 "$s/paper/validation.lua" --set shift=0.05
# Two builds of nettle, with and without its assembler, beside the system's
# (tests/bench/two-builds.sh: Debian's source, built once into its cache),
# one run until every ratio is resolved, profiled after.
if wanted two-builds; then
	echo "paper-data: two-builds" >&2
	rm -rf "$data/two-builds"
	mkdir -p "$data/two-builds"
	CRYPTOBENCH=$cb sh "$src/tests/bench/two-builds.sh" -- --budget 10m >/dev/null
	cp "${XDG_CACHE_HOME:-$HOME/.cache}/cryptobench/two-builds/two-builds.jsonl" \
		"$data/two-builds/run-1.jsonl"
fi
