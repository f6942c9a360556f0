#!/bin/sh
# fleet without a cluster: the batch script (--dry-run, then run by hand as
# two tasks of one node), the flags it refuses, and GNU parallel on this
# machine (--sshlogin :), the command as printed and as doc/fleet.md gives it.
# tests/cli_fleet_slurm.sh submits through a real Slurm.
. "${top_srcdir:-.}/tests/lib.sh"
plan 24
S="$top_srcdir/tests/scenarios/sim/cost.lua"
SABS=$(cd "$(dirname "$S")" && pwd)/cost.lua
# refused PATTERN: exit 2 with one line on stderr that has PATTERN
refused() {
	status_is 2 && err_has "$1" &&
		{ [ "$(wc -l <"$WORK/err")" -eq 1 ] || { diag "stderr: $(head -c 300 "$WORK/err")"; false; }; }
}
complete() { # FILE: a complete results file with 2 rounds + 1 warm-up of 6 cells
	tail -n 1 "$1" | jq -e '.type == "end" and .interrupted == false' >/dev/null &&
		[ "$(grep -c '"type":"trial"' "$1")" -eq 18 ]
}

cb fleet --help
check "fleet --help names both engines and the shared folder" sh -c "[ \$(cat '$WORK/status') = 0 ] && grep -q 'fleet slurm' '$WORK/out' && grep -q 'fleet parallel' '$WORK/out' && grep -q 'shared folder' '$WORK/out'"

cb fleet slurm "$S" --nodes 2 -o "$WORK/f" --set rounds=2 --set sizes=64B --dry-run
check "slurm --dry-run prints the batch script" status_is 0
check "...a two-task array, one node each, exclusive" sh -c "grep -qx '#SBATCH --array=0-1' '$WORK/out' && grep -qx '#SBATCH --nodes=1' '$WORK/out' && grep -qx '#SBATCH --exclusive' '$WORK/out'"
check "...running the scenario at its absolute path with the run's options" sh -c "grep -q ' run $SABS --set rounds=2 --set sizes=64B -o \"\$out\" --host \"\$host\" --no-progress' '$WORK/out'"
check "...and creates nothing" test ! -e "$WORK/f"
cp "$WORK/out" "$WORK/fleet.sbatch"
mkdir -p "$WORK/f/logs"
SLURM_ARRAY_TASK_ID=0 SLURMD_NODENAME=nodeA sh "$WORK/fleet.sbatch" >"$WORK/task0.out" 2>&1
check "the script, run as task 0 on nodeA, writes a complete nodeA.jsonl" complete "$WORK/f/nodeA.jsonl"
check "...naming its host by the node: host.name_given nodeA" \
	sh -c "[ \"\$(head -n 1 '$WORK/f/nodeA.jsonl' | jq -r .host.name_given)\" = nodeA ]"
check "...and records its status" sh -c "[ \"\$(cat '$WORK/f/logs/task-0.status')\" = '0 nodeA $WORK/f/nodeA.jsonl' ]"
SLURM_ARRAY_TASK_ID=1 SLURMD_NODENAME=nodeA sh "$WORK/fleet.sbatch" >"$WORK/task1.out" 2>&1
check "task 1 on the same node writes beside it (nodeA.task-1.jsonl)" complete "$WORK/f/nodeA.task-1.jsonl"
cb report "$WORK/f"
check "report reads the fleet folder" status_is 0

cb fleet slurm "$S" --nodes 2 -o "$WORK/f"
check "-o a non-empty folder: exit 2, one line" refused "is not empty"
cb fleet slurm "$S" -o "$WORK/g"
check "no --nodes: exit 2, one line" refused "--nodes N or --nodes NODE"
cb fleet slurm "$S" --nodes 2 -o "$WORK/g" --colour
check "an unknown option: exit 2, one line" refused "unknown option '--colour'"
cb fleet slurm "$S" --nodes 2 -o "$WORK/g" --resume x.jsonl
check "--resume is the fleet's to refuse: exit 2, one line" refused "--resume is the fleet's to set"
cb fleet slurm "$S" --nodes 2 -o "$WORK/g" --host one
check "--host is the fleet's to set (each machine its own): exit 2, one line" refused "--host is the fleet's to set"
cb fleet slurm "$S" --nodes 2 -o "$WORK/g" --set rounds=zero
check "a bad --set, checked before submitting: exit 2, one line" refused "rounds"
check "...and nothing created" test ! -e "$WORK/g"
cb fleet slurm "$WORK/missing.lua" --nodes 2 -o "$WORK/g"
check "a missing scenario: exit 2, one line naming it" refused "missing.lua"
cb fleet wait "$WORK/f"
check "fleet wait on a folder never submitted: exit 2" status_is 2

if ! command -v parallel >/dev/null 2>&1; then
	skip 5 "no GNU parallel (Debian package parallel)"
else
	host=$(hostname -s)
	cb fleet parallel "$S" --sshlogin : -o "$WORK/p" --set rounds=2 --set sizes=64B
	check "parallel --sshlogin : (this machine) exits 0" status_is 0
	check "...writing a complete HOST.jsonl" complete "$WORK/p/$host.jsonl"
	check "...its job log has the one login, exit 0" sh -c "[ \"\$(awk -F '\t' 'NR > 1 { print \$2 \" \" \$7 }' '$WORK/p/logs/parallel.joblog')\" = ': 0' ]"
	cb fleet parallel "$S" --sshlogin : -o "$WORK/q" --set rounds=2 --set sizes=64B --dry-run
	(cd "$WORK" && sh -c "$(cat "$WORK/out")") >/dev/null 2>&1
	check "the printed parallel command, run as written, does the same" complete "$WORK/q/$host.jsonl"
	cb fleet parallel "$S" --sshlogin : -o "$WORK/r" --set rounds=2 --set sizes=64B --cryptobench /bin/false
	check "a host whose run fails: exit 1, naming it" sh -c "[ \$(cat '$WORK/status') = 1 ] && grep -q '^:: failed (exit 1)' '$WORK/err' && grep -q '1 of 1 hosts failed' '$WORK/err'"
fi
done_testing
