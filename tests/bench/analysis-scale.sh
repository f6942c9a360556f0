#!/bin/sh
# analysis-scale.sh: how long `report` and `compare` take, and how much memory,
# on large results files.
#
#   tests/bench/analysis-scale.sh [FOLDER]
#
# Makes, with the sim engine (tests/bench/analysis-scale.lua: 100 cells on a
# virtual clock), one results file of TRIALS trials (default 1000000) and a
# `run --runs FILES` folder of FILES files (default 50) of FILE_TRIALS trials
# each (default 100000), then prints the wall time, the CPU time and the peak
# resident memory (/usr/bin/time -v, "Maximum resident set size") of
# `report` of the big file and `compare` of the folder. FOLDER (default a
# temporary one) keeps the files; files already there are used again, so
# another build can be measured on the same files:
#
#   tests/bench/analysis-scale.sh /dev/shm/scale
#   CRYPTOBENCH=/path/to/other/cryptobench tests/bench/analysis-scale.sh /dev/shm/scale
#
# (A folder on tmpfs keeps the run's fsync at every round out of the making.)
# SKIP=report or SKIP=compare leaves one of the two out. A benchmark, not a
# test: it prints figures and asserts nothing; the exit status is 0 unless a
# command fails.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
maker=${MAKER:-$top/cryptobench}
scenario=$top/tests/bench/analysis-scale.lua
trials=${TRIALS:-1000000}
files=${FILES:-50}
file_trials=${FILE_TRIALS:-100000}
skip=${SKIP:-}
[ -x /usr/bin/time ] || { echo "analysis-scale.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
if [ -n "${1:-}" ]; then
	work=$1
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# 100 cells, one warm-up round: N trials are N / 100 - 1 measured rounds.
rounds() { echo $(($1 / 100 - 1)); }

big=$work/big-$trials.jsonl
fleet=$work/runs-$files-x-$file_trials
if [ "$skip" != report ] && [ ! -s "$big" ]; then
	echo "making $big ($trials trials)..." >&2
	"$maker" run "$scenario" --set rounds="$(rounds "$trials")" -o "$big" --force >/dev/null
fi
if [ "$skip" != compare ] && [ ! -s "$fleet/run-$files.jsonl" ]; then
	echo "making $fleet ($files files of $file_trials trials)..." >&2
	"$maker" run "$scenario" --set rounds="$(rounds "$file_trials")" --runs "$files" \
		-o "$fleet" --force >/dev/null
fi

# measure WHAT COMMAND...: one line of figures.
measure() {
	what=$1
	shift
	/usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt" || {
		echo "$what: failed:" >&2
		tail -5 "$work/time.txt" >&2
		return 1
	}
	awk -v what="$what" -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
		/User time/ { user = $2 } /System time/ { sys = $2 }
		/Maximum resident set size/ { rss = $2 }
		END { printf "%-34s wall %7.2f s  cpu %7.2f s  peak RSS %8.1f MB\n", what, wall, user + sys, rss / 1024 }' \
		"$work/time.txt"
}

echo "cryptobench: $cb"
# The machine may be shared: its load beside each figure.
loadavg() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
loadavg
if [ "$skip" != report ]; then
	echo "big file: $(du -m "$big" | cut -f1) MB, $(grep -c '"type":"trial"' "$big") trials"
	measure "report (1 file, $trials trials)" "$cb" report "$big"
	loadavg
fi
if [ "$skip" != compare ]; then
	echo "folder: $(du -sm "$fleet" | cut -f1) MB in $(ls "$fleet" | grep -c '\.jsonl$') files"
	measure "compare ($files files x $file_trials)" "$cb" compare "$fleet"
	loadavg
fi
