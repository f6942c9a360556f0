#!/bin/sh
# A host is a machine, not a hostname. The paper's key-scaling runs (an AMD
# EPYC VM) and those of paper/data/key-scaling-intel (an Intel Xeon VM) all
# say hostname "vm": compare must set them host against host, each host's
# runs judged only among themselves. The same files named with run --host's
# field (host.name_given) give the same table under those names; sim runs
# of this machine with --host a / --host b are two hosts, without it one;
# a few MiB of memory or a field an older file lacks do not split a host,
# another kernel does.
. "${top_srcdir:-.}/tests/lib.sh"
plan 20
AMD="$top_srcdir/paper/data/key-scaling"
INTEL="$top_srcdir/paper/data/key-scaling-intel"
ab="$top_srcdir/tests/scenarios/sim/ab.lua"
XEON='vm (Intel(R) Xeon(R) Processor)'
EPYC='vm (AMD EPYC)'
# The AMD folder's runs (a --runs auto folder: pilots and sets, all of one
# host) and its host key's CPU family/model/stepping, cores, memory and
# kernel, as its files say.
NA=$(ls "$AMD"/run-*.jsonl.zst | wc -l)
AMD_HOST=$(zstdcat "$AMD/run-1.jsonl.zst" | head -n 1 |
	jq -r '.host | "\(.cpu_family)/\(.cpu_model)/\(.cpu_stepping) | 2 cores | 24 GiB | \(.kernel.release)"')

# col NAME: the CSV column NAME of $WORK/out, its distinct values, one a line.
col() {
	python3 -c 'import csv, sys
print("\n".join(sorted({r[sys.argv[2]] for r in csv.DictReader(open(sys.argv[1]))})))' \
		"$WORK/out" "$1"
}
# numbers FILE: FILE's CSV rows without the columns that name files or hosts.
numbers() {
	python3 -c 'import csv, sys
names = ("file", "baseline_file", "host", "baseline_host")
for r in csv.DictReader(open(sys.argv[1])):
    print(",".join(v for k, v in r.items() if k not in names))' "$1"
}

cb compare "$AMD" "$INTEL" --format csv
check "compare of the two vm folders --format csv exits 0" status_is 0
check "...one host against the other: host $XEON, baseline host $EPYC" \
	test "$(col host)|$(col baseline_host)|$(col runs)|$(col baseline_runs)" = "$XEON|$EPYC|3|$NA"
cp "$WORK/out" "$WORK/plain.csv"
cb compare "$AMD" "$INTEL"
each_alone() {
	grep -q '^compare: 3 runs of scenario paper-key-scaling' "$WORK/out" &&
		grep -q "^compare: $NA runs of scenario paper-key-scaling" "$WORK/out" &&
		! grep -q "$((NA + 3)) runs" "$WORK/out" && grep -qF "host $EPYC: $NA runs" "$WORK/out" &&
		grep -qF "host $XEON: 3 runs" "$WORK/out"
}
check "text: each host's runs judged alone, never all together" each_alone
table_follows() {
	grep -qF "compare: 1 host against the baseline host $EPYC" "$WORK/out" &&
		grep -q '^vm (Intel(R) Xeon(R) Processor) is .* than vm (AMD EPYC) on ' "$WORK/out"
}
check "...then the host-against-host table and its summary line" table_follows
cb compare "$AMD" "$INTEL" --format json
check "json: the hosts' keys name CPU, cores, memory and kernel" \
	sh -c "jq -e '.[0].host_key == \"vm | Intel(R) Xeon(R) Processor | ? | 2 cores | 24 GiB | 6.18.44-fc-v1045\" and
		.[0].baseline_host_key == \"vm | AMD EPYC | $AMD_HOST\"' '$WORK/out' >/dev/null"
cb compare "$AMD" "$INTEL" --baseline-host vm
one_line() { status_is 2 && [ "$(wc -l <"$WORK/err")" = 1 ]; }
ambiguous() { one_line && grep -qF "'$EPYC'" "$WORK/err" && grep -qF "'$XEON'" "$WORK/err"; }
check "--baseline-host vm names two hosts: exit 2, one line naming both" ambiguous
cb compare "$AMD" "$INTEL" --baseline-host "$XEON" --format csv
check "--baseline-host by its label: the Xeon the baseline" \
	test "$(col host)|$(col baseline_host)" = "$EPYC|$XEON"

cb compare "$AMD"
runs_of_one() { # [N]: compared as N runs of one host (any number: a --runs auto folder's judged set)
	status_is 0 && grep -q "^compare: ${1:-[0-9]*} runs of scenario" "$WORK/out" && ! grep -q '^host ' "$WORK/out"
}
check "the AMD runs alone stay runs of one host" runs_of_one
cb report "$INTEL/run-1.jsonl.zst" "$AMD/run-1.jsonl.zst" "$INTEL/run-2.jsonl.zst"
check "report of the two hosts' files groups them by host, in the order hosts first come" \
	test "$(grep -E "^(host |.*paper/data/)" "$WORK/out" | sed 's|.*/paper/data/|paper/data/|' | tr '\n' ';')" = \
	"host $XEON: 2 runs;paper/data/key-scaling-intel/run-1.jsonl.zst;paper/data/key-scaling-intel/run-2.jsonl.zst;host $EPYC: 1 run;paper/data/key-scaling/run-1.jsonl.zst;"

# named DIR NAME FROM: FROM's runs with host.name_given = NAME, in DIR.
named() {
	mkdir -p "$1" && for f in "$3"/run-*.jsonl.zst; do
		out="$1/$(basename "$f" .zst)"
		{ zstdcat "$f" | head -n 1 | jq -c --arg h "$2" '.host.name_given = $h'
			zstdcat "$f" | tail -n +2; } >"$out" || return 1
	done
}
both_named() { named "$WORK/amd" amd "$AMD" && named "$WORK/intel" intel "$INTEL"; }
check "the files copied with the names amd and intel given" both_named
cb compare "$WORK/amd" "$WORK/intel" --format csv
same_table() {
	status_is 0 && [ "$(numbers "$WORK/out")" = "$(numbers "$WORK/plain.csv")" ] &&
		[ "$(col host)|$(col baseline_host)" = "intel|amd" ]
}
check "given names: the same table under them (host intel, baseline host amd)" same_table

# sim runs of this machine, with and without --host
run() { # FILE ARGS...
	f=$1
	shift
	"$CRYPTOBENCH" run "$ab" --no-progress -o "$WORK/$f" "$@" >/dev/null 2>"$WORK/err" ||
		{ diag "run $f: $(head -c 300 "$WORK/err")"; return 1; }
}
sim_runs() {
	run a1.jsonl --host a --set seed=1 && run a2.jsonl --host a --set seed=2 &&
		run b1.jsonl --host b --set seed=3 && run b2.jsonl --host b --set seed=4 &&
		run p1.jsonl --set seed=5 && run p2.jsonl --set seed=6
}
check "sim runs: two with --host a, two with --host b, two without" sim_runs
check "...--host recorded as host.name_given" \
	test "$(head -n 1 "$WORK/a1.jsonl" | jq -r .host.name_given)" = a
cb compare "$WORK/a1.jsonl" "$WORK/a2.jsonl" "$WORK/b1.jsonl" "$WORK/b2.jsonl" --format csv
check "...a and b are two hosts of two runs each, by the names given" \
	test "$(cat "$WORK/status")|$(col host)|$(col baseline_host)|$(col runs)" = "0|b|a|2"
cb compare "$WORK/p1.jsonl" "$WORK/p2.jsonl"
check "...without --host, one host's two runs" runs_of_one 2

# edit FROM TO FILTER: FROM with its header passed through jq FILTER (and a new run_id).
edit() {
	{ head -n 1 "$WORK/$1" | jq -c "$3 | .run_id = \"00000000000000ff\""; tail -n +2 "$WORK/$1"; } >"$WORK/$2"
}
edit p2.jsonl mem.jsonl '.host.memory_bytes -= 3 * 1048576'
cb compare "$WORK/p1.jsonl" "$WORK/mem.jsonl"
check "3 MiB less memory reported: still one host" runs_of_one 2
edit p2.jsonl old.jsonl 'del(.host.cpu_family, .host.cpu_model, .host.cpu_stepping)'
cb compare "$WORK/p1.jsonl" "$WORK/old.jsonl"
check "a file without family/model/stepping (older): one host with the file that has them" \
	runs_of_one 2
edit p2.jsonl kernel.jsonl '.host.kernel.release = "0.0.1-other"'
cb compare "$WORK/p1.jsonl" "$WORK/kernel.jsonl" --format csv
other_kernel() { status_is 0 && [ "$(col runs)" = 1 ] && [ "$(col host)" = "$(col baseline_host) #2" ]; }
check "another kernel release: another host (one name, one CPU: numbered)" other_kernel

cb run "$ab" --host 'a b' -o "$WORK/bad.jsonl"
bad_name() { one_line && err_has --host; }
check "run --host with a blank: exit 2, one line" bad_name
cb run --resume "$WORK/a1.jsonl" --host b
other_name() { one_line && err_has a1.jsonl; }
check "run --resume of host a's file with --host b: exit 2, one line naming the file" other_name
done_testing
