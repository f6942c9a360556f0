#!/bin/sh
# explain-overhead.sh: what the profiler's sampling costs the calls it samples.
#
#   tests/bench/explain-overhead.sh [PAIRS] [FOLDER]
#
# Every profile line carries `cost`: the time per call of its profiled trial
# over the median of the cell's timed trials. That ratio holds two things:
# the sampling, and whatever differs between a profiled trial and a timed one
# (its place in the run, its size). To measure the sampling alone, each pair
# is two runs of tests/bench/explain-overhead.lua, one profiling at the
# default rate (1000 Hz asked) and one at 1 Hz (the same profiled trials,
# almost never interrupted), in alternating order (AB, BA, AB, ...). Per run
# and cell, the calls-weighted cost of its profiled trials; per pair, the
# ratio of the two runs' costs: the sampling's own cost, paired within one
# pair of adjacent runs. The script prints each cell's ratios over PAIRS
# (default 6): median, min and max, and the samples per CPU-second the
# default rate delivered.
#
# A benchmark, not a test: it asserts nothing. Run it on a quiet machine.
# FOLDER (default: a temporary one) keeps the results files. Needs jq.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
pairs=${1:-6}
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
sc=$top/tests/bench/explain-overhead.lua

run() { # NAME RATE
	"$cb" run "$sc" --set rate_hz="$2" -o "$dir/$1.jsonl" --force >"$dir/$1.log" 2>&1
}

# cost: "label algorithm sampler cost samples_per_cpu_s" per cell of a file
cost() {
	jq -r 'select(.type == "profile" and .valid)
	       | [.cell.label, .cell.algorithm, .sampler, .calls, .ns_per_call,
	          .timed_ns_per_call, (.profile.samples // 0), (.cpu_ns // 0)] | @tsv' "$1" |
	awk -F'\t' '{ k = $1 " " $2 " " $3; calls[k] += $4; prof[k] += $4 * $5;
	              timed[k] = $6; s[k] += $7; cpu[k] += $8 }
	            END { for (k in calls) printf "%s %.6f %.1f\n", k, prof[k] / calls[k] / timed[k],
	                                             cpu[k] ? s[k] / (cpu[k] / 1e9) : 0 }' | sort
}

i=1
while [ "$i" -le "$pairs" ]; do
	if [ $((i % 2)) -eq 1 ]; then
		run "p$i-default" 1000; run "p$i-1hz" 1
	else
		run "p$i-1hz" 1; run "p$i-default" 1000
	fi
	cost "$dir/p$i-default.jsonl" >"$dir/p$i-default.cost"
	cost "$dir/p$i-1hz.jsonl" >"$dir/p$i-1hz.cost"
	awk '{ print $1 "/" $2 "/" $3, $4, $5 }' "$dir/p$i-default.cost" >"$dir/a"
	awk '{ print $1 "/" $2 "/" $3, $4 }' "$dir/p$i-1hz.cost" >"$dir/b"
	join -j1 "$dir/a" "$dir/b" |
	    awk -v p="$i" '{ printf "%s %d %.6f %.6f %.6f %.1f\n", $1, p, $2 / $4, $2, $4, $3 }' \
	    >>"$dir/ratios"
	i=$((i + 1))
done

printf '%s\n' "cell (label/algorithm/sampler): sampling's cost = profiled time per call at" \
              "1000 Hz / at 1 Hz, each over its run's timed median; over $pairs pairs (AB/BA)"
printf '%-36s %8s %8s %8s %10s %10s %8s\n' cell median min max "cost@1kHz" "cost@1Hz" "smp/cpu-s"
sort -k1,1 -k2n "$dir/ratios" | awk '
	{ k = $1; n[k]++; r[k, n[k]] = $3; a[k, n[k]] = $4; b[k, n[k]] = $5; s[k] += $6 }
	function med(arr, k, m,   i, j, t, v) {
		for (i = 1; i <= m; i++) v[i] = arr[k, i]
		for (i = 2; i <= m; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	END {
		for (k in n) {
			lo = hi = r[k, 1]
			for (i = 2; i <= n[k]; i++) { if (r[k, i] < lo) lo = r[k, i]; if (r[k, i] > hi) hi = r[k, i] }
			printf "%-36s %+7.2f%% %+7.2f%% %+7.2f%% %10.4f %10.4f %8.0f\n", k,
			       100 * (med(r, k, n[k]) - 1), 100 * (lo - 1), 100 * (hi - 1),
			       med(a, k, n[k]), med(b, k, n[k]), s[k] / n[k]
		}
	}' | sort
echo "results in $dir"
