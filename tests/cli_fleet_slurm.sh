#!/bin/sh
# fleet slurm through a real Slurm: a one-node cluster on this machine
# (munged, slurmctld and slurmd started here as root, from a generated munge
# key and slurm.conf in a temporary folder, on free ports, without cgroups),
# stopped at the end however the test ends.
#
# One node, two tasks: `--nodes 2` makes a two-task array; each task takes
# the whole node (--exclusive), so they run one after the other on it, and
# the second writes HOST.task-1.jsonl beside HOST.jsonl: the fleet's rule
# for two tasks that meet on one node. `--nodes HOST` pins the task to the
# node by name (held, updated, released). A program that fails on the node
# makes `wait` name the task and exit 1. Each submission is given 20 s (a
# job that never runs fails its point); the whole takes about 15 s. Where
# Slurm cannot start, every point is skipped, naming what is missing.
. "${top_srcdir:-.}/tests/lib.sh"
plan 12
S="$top_srcdir/tests/scenarios/sim/cost.lua"
SETS="--set rounds=2 --set sizes=64B"
C="$WORK/slurm"
stop_cluster() {
	# Every job of this private cluster (SLURM_CONF names it), then the daemons.
	[ -n "${SLURM_CONF:-}" ] && scancel --user="$(id -un)" 2>/dev/null
	for p in slurmd slurmctld munged; do
		[ -f "$C/$p.pid" ] && kill "$(cat "$C/$p.pid")" 2>/dev/null
	done
	for p in slurmd slurmctld munged; do # until they are gone (at most 5 s)
		n=0
		while [ -f "$C/$p.pid" ] && kill -0 "$(cat "$C/$p.pid")" 2>/dev/null && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
	done
	rm -rf "$WORK"
}
trap stop_cluster EXIT
trap 'exit 1' INT TERM

missing=""
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel; do
	command -v "$tool" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null 2>&1 ||
		missing="$missing $tool"
done
PATH="$PATH:/usr/sbin:/sbin"
why=""
if [ -n "$missing" ]; then
	why="no$missing (Debian packages slurm-wlm and munge)"
elif [ "$(id -u)" != 0 ]; then
	why="starting slurmctld and slurmd needs root"
fi

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
		echo $((20000 + $$ % 20000 + $1))
}

start_cluster() {
	mkdir -m 700 -p "$C/munge" "$C/state" "$C/spool" "$C/log"
	chmod 755 "$C/munge" # munged wants its socket's folder reachable
	head -c 128 /dev/urandom >"$C/munge/munge.key" && chmod 400 "$C/munge/munge.key"
	munged --force --socket="$C/munge/socket" --key-file="$C/munge/munge.key" \
		--pid-file="$C/munged.pid" --seed-file="$C/munge/seed" \
		--log-file="$C/log/munged.log" 2>"$C/log/munged.err" ||
		{ why="munged does not start: $(tail -n 1 "$C/log/munged.err")"; return 1; }
	host=$(hostname -s)
	node=$(slurmd -C 2>/dev/null | sed -n 's/ UpTime=.*//; /^NodeName=/p')
	[ -n "$node" ] || { why="slurmd -C does not describe this machine"; return 1; }
	ctld_port=$(free_port 0)
	slurmd_port=$(free_port 1)
	[ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))
	cat >"$C/slurm.conf" <<EOF
ClusterName=cbtest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$C/munge/socket
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/log/slurmctld.log
SlurmdLogFile=$C/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
ReturnToService=2
MinJobAge=300
$node State=UNKNOWN
PartitionName=fleet Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF="$C/slurm.conf"
	slurmctld -i 2>"$C/log/slurmctld.err" ||
		{ why="slurmctld does not start: $(tail -n 1 "$C/log/slurmctld.err")"; return 1; }
	slurmd 2>"$C/log/slurmd.err" ||
		{ why="slurmd does not start: $(tail -n 1 "$C/log/slurmd.err")"; return 1; }
	n=0
	while [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" != idle ]; do
		n=$((n + 1))
		if [ $n -gt 40 ]; then
			why="the node never became idle: $(tail -n 1 "$C/log/slurmctld.log" 2>/dev/null)"
			return 1
		fi
		sleep 0.25
	done
}

if [ -z "$why" ] && ! start_cluster; then
	[ -n "$why" ] || why="the cluster does not start"
fi
if [ -n "$why" ]; then
	skip 12 "$why"
	done_testing
	exit
fi
diag "one-node cluster: $node"
export CRYPTOBENCH_FLEET_POLL=1
# Time-boxed: a job that never ends fails its point instead of hanging.
cbt() {
	timeout 20 "$CRYPTOBENCH" "$@" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}
complete() { # FILE: a complete results file of the scenario (2 rounds + 1 warm-up, 6 cells)
	tail -n 1 "$1" | jq -e '.type == "end" and .interrupted == false' >/dev/null &&
		[ "$(grep -c '"type":"trial"' "$1")" -eq 18 ] ||
		{ diag "$1: $(tail -c 300 "$1" 2>&1)"; false; }
}

# shellcheck disable=SC2086
cbt fleet slurm "$S" --nodes 2 -o "$WORK/f" --wait $SETS
check "a two-task array through sbatch, waited for: exit 0" status_is 0
check "...task 0 wrote $host.jsonl, complete" complete "$WORK/f/$host.jsonl"
check "...task 1, on the same node after it, $host.task-1.jsonl, complete" complete "$WORK/f/$host.task-1.jsonl"
check "...wait names both tasks and no failure" sh -c "grep -q '^task 0 on $host: ' '$WORK/out' && grep -q '^task 1 on $host: ' '$WORK/out' && grep -q '0 of 2 tasks failed' '$WORK/out'"
check "...the batch script is kept in the folder" grep -qx '#SBATCH --array=0-1' "$WORK/f/fleet.sbatch"
cb report "$WORK/f"
check "report reads both results files" sh -c "[ \$(cat '$WORK/status') = 0 ] && [ \$(grep -c 'sim-a' '$WORK/out') -ge 2 ]"

# shellcheck disable=SC2086
cbt fleet slurm "$S" --nodes "$host" -o "$WORK/g" $SETS
check "--nodes $host without --wait: submitted, says how to wait" sh -c "[ \$(cat '$WORK/status') = 0 ] && grep -q 'cryptobench fleet wait $WORK/g' '$WORK/err'"
cbt fleet wait "$WORK/g"
check "fleet wait: the pinned task ran on $host, exit 0" sh -c "[ \$(cat '$WORK/status') = 0 ] && grep -q '^task 0 on $host: ' '$WORK/out'"
check "...its file complete" complete "$WORK/g/$host.jsonl"

printf '#!/bin/sh\necho "no engine here" >&2\nexit 3\n' >"$WORK/failing"
chmod +x "$WORK/failing"
# shellcheck disable=SC2086
cbt fleet slurm "$S" --nodes 1 -o "$WORK/h" --wait --cryptobench "$WORK/failing" $SETS
check "a task whose run fails: wait exits 1" status_is 1
check "...naming the task, its host and status" grep -q "^task 0 on $host: FAILED with exit status 3" "$WORK/out"
check "...and its log holds the run's error" grep -q "no engine here" "$WORK/h/logs/task-0.log"
done_testing
