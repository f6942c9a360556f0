#!/bin/sh
# explain-overhead.sh: what the profiler's sampling costs the calls it samples.
#
#   tests/bench/explain-overhead.sh [RUNS] [FOLDER]
#
# Each run of tests/bench/explain-overhead.lua profiles every cell at the
# default rate (1000 Hz asked) with twins (explain = { twins = true }):
# beside each profiled trial, a trial of the same calls that no sampler
# touches, right after it or right before it by turns. A pair is one
# profiled trial and its twin: the same calls, the same moment, the same
# process; its ratio, profiled time per call over the twin's, is what the
# sampling cost those calls. (The cost field of a profile line compares
# with the cell's timed median instead, trials of another size at another
# moment: for a runtime whose time per call depends on how many calls a
# request holds, Node.js's AES-GCM, that says more of the request than of
# the sampler.) The script prints, per cell over every pair of RUNS runs
# (default 3): the calls-weighted ratio of the pairs together, the median,
# min and max of the pairs' ratios, their count, and the samples per
# CPU-second the sampler delivered.
#
# A benchmark, not a test: it asserts nothing. Run it on a quiet machine.
# FOLDER (default: a temporary one) keeps the results files. Needs jq.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
runs=${1:-3}
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
sc=$top/tests/bench/explain-overhead.lua

: >"$dir/pairs"
i=1
while [ "$i" -le "$runs" ]; do
	"$cb" run "$sc" --set explain_twins=true -o "$dir/run-$i.jsonl" --force \
		>"$dir/run-$i.log" 2>&1
	# per pair: "label/algorithm/sampler calls profiled_ns twin_ns samples cpu_ns"
	jq -s -r '[.[] | select(.type == "profile")] |
		group_by(.cell.label + "/" + .cell.algorithm)[] |
		[range(0; length - 1) as $i | .[$i:$i + 2] |
		 select(length == 2 and .[0].calls == .[1].calls and .[0].valid and .[1].valid and
		        ((.[0].profile == null) != (.[1].profile == null)))] |
		.[] | (map(select(.profile != null))[0]) as $p | (map(select(.profile == null))[0]) as $t |
		[$p.cell.label + "/" + $p.cell.algorithm + "/" + $p.sampler, $p.calls, $p.ns, $t.ns,
		 $p.profile.samples, ($p.profile.cpu_ns // 0)] | @tsv' "$dir/run-$i.jsonl" \
		>>"$dir/pairs"
	i=$((i + 1))
done

printf '%s\n' "cell (label/algorithm/sampler): sampling's cost = profiled time per call over" \
              "its twin's (the same calls, unsampled, beside it); $runs runs"
printf '%-36s %8s %8s %8s %8s %6s %9s\n' cell pooled median min max pairs smp/cpu-s
sort -k1,1 "$dir/pairs" | awk -F'\t' '
	{ k = $1; n[k]++; r[k, n[k]] = $3 / $4; p[k] += $3; t[k] += $4; s[k] += $5; c[k] += $6 }
	function med(k, m,   i, j, x, v) {
		for (i = 1; i <= m; i++) v[i] = r[k, i]
		for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	END {
		for (k in n) {
			lo = hi = r[k, 1]
			for (i = 2; i <= n[k]; i++) { if (r[k, i] < lo) lo = r[k, i]; if (r[k, i] > hi) hi = r[k, i] }
			printf "%-36s %+7.2f%% %+7.2f%% %+7.2f%% %+7.2f%% %6d %9.0f\n", k,
			       100 * (p[k] / t[k] - 1), 100 * (med(k, n[k]) - 1), 100 * (lo - 1),
			       100 * (hi - 1), n[k], c[k] ? s[k] / (c[k] / 1e9) : 0
		}
	}' | sort
echo "results in $dir"
