#!/bin/sh
# The default builds' place (cli/run_place.h): a process that measures starts
# itself again while the code of a library it linked lies across a 16 MiB
# boundary. The test switch CRYPTOBENCH_PLACEMENT_TEST_CROSS=N makes the
# first N starts count as crossing and later ones not, whatever their places;
# the scenario prints a line each time it is loaded, so stderr counts the
# starts independently of what the header says. No timing is asserted.
. "${top_srcdir:-.}/tests/lib.sh"
plan 17

# header FILE FILTER: the jq FILTER applied to the header of FILE.
header() { head -n 1 "$1" | jq -c "$2"; }
# starts: how many times the last command loaded the scenario.
starts() { grep -c '^scenario loaded$' "$WORK/err"; }
# place FILE WANT: the header's placement without max_tries is WANT.
place() {
	got=$(header "$1" '.placement | del(.max_tries)')
	[ "$got" = "$2" ] || { diag "placement $got, wanted $2"; false; }
}
# ran STATUS STARTS: the last command exited STATUS having loaded the
# scenario STARTS times.
ran() {
	[ "$(cat "$WORK/status")" = "$1" ] && [ "$(starts)" = "$2" ] ||
		{ diag "status $(cat "$WORK/status"), $(starts) starts: $(grep -v '^scenario loaded$' "$WORK/err" | head -c 300)"; false; }
}
# complete FILE SLOTS: one header, an end line not interrupted, and SLOTS
# trials, valid, one per slot.
complete() {
	[ "$(grep -c '"type":"run"' "$1")" = 1 ] &&
		tail -n 1 "$1" | jq -e '.type == "end" and .interrupted == false' >/dev/null &&
		test "$(jq -s '[.[] | select(.type == "trial") | select(.valid) | .seq] | unique | length' "$1")" = "$2" &&
		test "$(grep -c '"type":"trial"' "$1")" = "$2" || { diag "$(tail -n 1 "$1" | head -c 300)"; false; }
}

cat >"$WORK/sim.lua" <<'EOF'
local cb = require "cryptobench"
print("scenario loaded")
cb.scenario {
  name = "no library engine", engines = { "sim" }, algorithms = { "sha256" },
  sizes = { 64 }, rounds = 2, warmup = 0,
}
EOF
CRYPTOBENCH_PLACEMENT_TEST_CROSS=3 cb run "$WORK/sim.lua" -o "$WORK/sim.jsonl"
sim_once() { ran 0 1 && place "$WORK/sim.jsonl" '{"defaults":"chosen","tries":1,"checked":[],"crossing":[]}'; }
check "a run without an in-process library engine: never started again, nothing checked" sim_once

if ! "$CRYPTOBENCH" engines | grep '^openssl ' >/dev/null; then
	skip 16 "the openssl engine is not here"
	done_testing
	exit
fi
cat >"$WORK/ossl.lua" <<'EOF'
local cb = require "cryptobench"
print("scenario loaded")
cb.scenario {
  name = "default place", engines = cb.available { "openssl", "xyzzy-plugh-engine" },
  algorithms = { "sha256" }, sizes = { 64, 1024 }, rounds = 3, warmup = 0,
  trial_time = "200us",
}
EOF
slots=6 # 3 rounds x 2 sizes

CRYPTOBENCH_PLACEMENT_TEST_CROSS=2 cb run "$WORK/ossl.lua" -o "$WORK/two.jsonl"
check "the first two starts crossing: the scenario is loaded three times, the run exits 0" ran 0 3
check "...the header says three tries, openssl checked, none crossing in the last" \
	place "$WORK/two.jsonl" '{"defaults":"chosen","tries":3,"checked":["openssl"],"crossing":[]}'
check "...the engine left out is said once, not once per start" \
	test "$(grep -c 'note: xyzzy-plugh-engine left out' "$WORK/err")" = 1
check "...and the file is complete: one header, every slot once, valid" complete "$WORK/two.jsonl" $slots
cb report "$WORK/two.jsonl"
check "...the report says the process started three times" \
	out_has '^linked libraries placed: the process started 3 times until no default library'

CRYPTOBENCH_PLACEMENT_TEST_CROSS=0 cb run "$WORK/ossl.lua" -o "$WORK/none.jsonl"
cb report "$WORK/none.jsonl"
quiet() {
	[ "$(header "$WORK/none.jsonl" .placement.tries)" = 1 ] &&
		! grep -q -e '^linked libraries placed' -e '^default library across' "$WORK/out"
}
check "no start crossing: one try, and the report says nothing of placement" quiet

CRYPTOBENCH_PLACEMENT_TEST_CROSS=99 cb run "$WORK/ossl.lua" -o "$WORK/out.jsonl"
ran_out() { ran 0 6 && err_has 'note: the default library of openssl has its code across a 16 MiB boundary (in each of 6 starts)'; }
check "every start crossing: six starts, then measured where it is, and said" ran_out
check "...the header says so: six tries of six, openssl crossing" \
	test "$(header "$WORK/out.jsonl" '.placement | [.tries, .max_tries, .crossing]')" = '[6,6,["openssl"]]'
cb report "$WORK/out.jsonl"
check "...and the report" \
	out_has '^default library across a 16 MiB boundary: openssl (in each of 6 starts)'

CRYPTOBENCH_PLACEMENT_TEST_CROSS=99 cb run "$WORK/ossl.lua" --kernel-place -o "$WORK/kernel.jsonl"
kernel_once() { ran 0 1 && place "$WORK/kernel.jsonl" '{"defaults":"kernel","tries":0,"checked":["openssl"],"crossing":["openssl"]}'; }
check "--kernel-place: loaded once, no tries recorded, the crossing recorded" kernel_once
cb report "$WORK/kernel.jsonl"
check "...and the report names the choice" \
	out_has '^default library across a 16 MiB boundary: openssl (run --kernel-place)'

if command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null; then
	CRYPTOBENCH_PLACEMENT_TEST_CROSS=99 setarch "$(uname -m)" -R "$CRYPTOBENCH" run "$WORK/ossl.lua" \
		-o "$WORK/fixed.jsonl" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
	fixed_once() {
		ran 0 1 && err_has 'randomisation is off' &&
			place "$WORK/fixed.jsonl" '{"defaults":"fixed","tries":1,"checked":["openssl"],"crossing":["openssl"]}'
	}
	check "address-space randomisation off (setarch -R): not started again, said" fixed_once
else
	skip 1 "no setarch -R here"
fi

# --runs: the parent measures nothing and is not started again; each run is.
CRYPTOBENCH_PLACEMENT_TEST_CROSS=1 cb run "$WORK/ossl.lua" --runs 2 -o "$WORK/runs"
runs_tries() { for f in "$WORK"/runs/run-*.jsonl; do header "$f" .placement.tries; done | tr '\n' ' '; }
runs_ran() { ran 0 5 && test "$(runs_tries)" = "2 2 "; }
check "--runs 2, the first start of each crossing: loaded 1 + 2 x 2 times, each run two tries" runs_ran

# A run started again, killed after its second trial, resumed (started again
# too): complete, with the resumed process's placement in its resume line.
CRYPTOBENCH_KILL_AT=trial:2 CRYPTOBENCH_PLACEMENT_TEST_CROSS=1 cb run "$WORK/ossl.lua" -o "$WORK/kill.jsonl"
killed() { ran 137 2 && test "$(grep -c '"type":"trial"' "$WORK/kill.jsonl")" = 2; }
check "a run started again, killed after two trials: two trial lines kept" killed
CRYPTOBENCH_PLACEMENT_TEST_CROSS=2 cb run --resume "$WORK/kill.jsonl"
resumed() { ran 0 3 && complete "$WORK/kill.jsonl" $slots; }
check "...--resume, itself started three times, completes the file: every slot once" resumed
check "...the header keeps the first process's tries, the resume line has its own" \
	test "$(jq -c 'select(.type == "run" or .type == "resume") | .placement.tries' "$WORK/kill.jsonl" | tr '\n' ' ')" = "2 3 "
done_testing
