#!/bin/sh
# A pair whose rounds are dependent (each engine's own slow noise, cycles
# estimated from time: tests/scenarios/sim/own-machine.lua) is named in every
# format: the text's "dependent rounds" column, the CSV's dependence columns,
# the JSON's dependence object and widened method; the same pair on one
# machine is not. Under a stop rule the pair, whose sides share little of
# their noise, takes the margin for slow noise of each side's own, named in
# the text and the JSON; on one machine it does not. Where the noise is so
# slow that no rank interval forms, a pair at 0.2 gets its interval from the
# batches' medians, named.
. "${top_srcdir:-.}/tests/lib.sh"
plan 14
S="$top_srcdir/tests/scenarios/sim/own-machine.lua"

cb run "$S" -o "$WORK/own.jsonl"
check "own machines: run exits 0" status_is 0
cb report "$WORK/own.jsonl"
check "...the text's derived and winners tables have a dependent rounds column" sh -c "[ \$(grep -c 'dependent rounds' '$WORK/out') -ge 2 ] && grep -q 'lag-1 0\.[0-9]*, blocks of 12 rounds, variance x' '$WORK/out'"
check "...and a warning counts the ratios" out_has "paired ratios have rounds that depend on each other"
cb report "$WORK/own.jsonl" --format json
check "...JSON: the derived ratio's dependence, its method widened" sh -c "jq -e '.[0].derived[0].ratio.dependence.lag1 > 0 and .[0].derived[0].ratio.dependence.batch_rounds == 12 and .[0].derived[0].ratio.dependence.variance_factor > 1 and (.[0].derived[0].ratio.interval.method | test(\"widened for dependent rounds\"))' '$WORK/out' >/dev/null"
check "...JSON: the winners member's ratio to the leader has it too" sh -c "jq -e '[.[0].winners.groups[0].engines[] | select(.ratio_to_leader) | .ratio_to_leader.dependence.lag1 > 0] == [true]' '$WORK/out' >/dev/null"
cb report "$WORK/own.jsonl" --format csv --table derived
check "...CSV derived: the lag-1, the block and the factor" sh -c "head -n 1 '$WORK/out' | grep -q 'dependence_lag1,dependence_block,dependence_variance' && [ \"\$(sed -n 2p '$WORK/out' | awk -F, '{for (i = 1; i <= NF; i++) if (\$i ~ /^12\$/) print \"block\"}')\" = block ]"
cb report "$WORK/own.jsonl" --format csv --table winners
check "...CSV winners: dependent_rounds names the member" sh -c "grep -q 'num: lag-1\\|den: lag-1' '$WORK/out'"
cb run "$S" --set own=0 -o "$WORK/shared.jsonl"
check "one machine: run exits 0" status_is 0
cb report "$WORK/shared.jsonl" --format json
check "...pairing cancels the slow noise: no dependence, the exact sign test" sh -c "jq -e '(.[0].derived[0].ratio | has(\"dependence\") | not) and .[0].derived[0].ratio.interval.method == \"exact sign test\"' '$WORK/out' >/dev/null"
cb run "$S" --until resolved -o "$WORK/own-seq.jsonl"
cb report "$WORK/own-seq.jsonl"
check "until resolved, own machines: the text names the margin, a warning counts it" sh -c "grep -q 'sides share -\{0,1\}0\.[0-9]*: +-[0-9.]*% for slow noise of their own' '$WORK/out' && grep -q 'sides that share little of their noise' '$WORK/out'"
cb report "$WORK/own-seq.jsonl" --format json
check "...JSON: the sides' share below 0.5, the margin in the interval's method" sh -c "jq -e '.[0].derived[0].ratio.dependence.own_noise.share < 0.5 and .[0].derived[0].ratio.dependence.own_noise.margin > 0 and (.[0].derived[0].ratio.interval.method | test(\"margin for slow noise\"))' '$WORK/out' >/dev/null"
cb run "$S" --set own=0 --until resolved -o "$WORK/shared-seq.jsonl"
cb report "$WORK/shared-seq.jsonl" --format json
check "until resolved, one machine: the sides share their noise, no margin" sh -c "jq -e '(.[0].derived[0].ratio.dependence.own_noise.margin // 0) == 0 and (.[0].derived[0].ratio.interval.method | test(\"margin\") | not)' '$WORK/out' >/dev/null"
cb run "$S" --set ar1=0.99 --set ar1_sigma=0.02 --set num_ns=5 -o "$WORK/far.jsonl"
cb report "$WORK/far.jsonl"
check "slow noise, a pair at 0.2: the text says the interval is over the blocks' medians" sh -c "grep -q 'variance x[0-9.]*, interval over the blocks. medians' '$WORK/out'"
cb report "$WORK/far.jsonl" --format json
check "...JSON: batch_units, the method named, the interval below 1" sh -c "jq -e '.[0].derived[0].ratio | .dependence.batch_units and (.interval.method | test(\"medians of 10 batches\")) and .interval.hi < 0.5 and .interval.lo > 0.1' '$WORK/out' >/dev/null"
done_testing
