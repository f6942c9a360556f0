#!/bin/sh
# paper/collect.sh: measure the data behind the paper again (make paper-data),
# each folder the way README.md tells users to: `run --runs auto --budget B`
# (runs until compare resolves the folder's table, within B), or `--until
# resolved` where each run is itself the question. Into DATA/NAME, replacing
# what was there, the results files then compressed with zstd as they are
# committed (paper/data/README.md). Run it on one quiet machine, nothing
# else running: 4 h 24 min at worst for all the folders below
# (`--plan` adds them up), in parts if need be.
#
#   paper/collect.sh [--plan | --dry-run] [--again] [CRYPTOBENCH [SRCDIR [DATA [FOLDER...]]]]
#
#   --plan     the folders, how each is measured, its budget, its worst-case
#              time and whether it is complete, then the totals; measures
#              nothing
#   --dry-run  each folder's `run --dry-run` (cells, trials, estimated time)
#              into a temporary folder: every row's scenario and settings
#              load; measures nothing (two-builds, which builds nettle
#              first, is left out)
#   --again    measure the complete folders again too
#   FOLDER...  measure these folders, complete or not, and no others
#
# Beside each folder's runs: noise.txt, the machine (lscpu's model name, CPU
# family and model; the kernel; the load) and its noise before and after the
# runs (the CV of five openssl speed processes, and each vCPU's speed:
# tests/bench/noise.sh, unpinned as the runs are), shown on stderr as it is
# measured; and, written last, collected.txt (the command, its start and
# end). A folder with collected.txt is complete: run again, this script
# skips it, so a collection stopped part-way goes on with the folder it
# stopped in, measured again from its start. The second CPU's
# folder (key-scaling-intel) is not measured here: it comes from another
# machine.
#
# COLLECT_QUICK=1 checks the plumbing, not the machine: runs of 2 rounds of
# 2 ms trials (an --until run stopped at 8), budgets of 20 s; it refuses to
# write into SRCDIR/paper/data.
set -eu

# The folders, in the order measured. RUNS "auto": `--runs auto --budget
# BUDGET`: two pilot runs of the scenario's rounds, then after each run the
# set of runs and rounds compare --plan bets on within the budget left,
# until compare resolves every row or no plan that fits would resolve more
# (analysis/README.md, "A plan for runs"). RUNS N with UNTIL "resolved": N
# runs, each `--until resolved --budget BUDGET` (the scenario's stop rule
# ends it once every question is answered). RUNS N alone: N runs of the
# scenario's rounds (the sim validation, whose question is the false alarms
# among five runs: it runs in virtual time, seconds). BEYOND: the minutes a
# folder takes outside its budget (the noise before and after, 20 s; the
# profiled trials after an --until run; builds). A folder's worst case is
# BUDGET (times N under --until) plus BEYOND. SETTINGS: --set KEY=VALUE.
#
# The budgets come from `compare --plan --budget 30m` on the folders as
# committed before (three runs of the scenario's rounds each; on the
# machines that measured them): its bet, the runs x rounds expected to
# resolve the most rows in 30 minutes, and how many of the rows left open
# they resolve in expectation, in each row's comment. A folder whose bet
# gains by more time gets more; every budget leaves room for the two pilot
# runs and for runs dearer than predicted (on an AMD EPYC VM a 319-round
# run took 26% more than 319/20 of its 20-round pilot). The last seven
# rows' budgets were then cut (key-scaling, sha-ext, context-reuse,
# cross-runtime, which-code, file-tools, public-key: 30, 30, 30, 55, 30, 50
# and 60 min before) so that the whole collection fits one sitting on one
# machine, 4 h 24 min at worst: data from one CPU are worth more than a few
# more rows resolved. A folder left short of its rows says so in the
# paper, with the budget `compare --plan` asks for the rest. Without a budget
# the plan is a promise (P >= 90% for each row), far dearer: sweep 14 h,
# key-scaling 26 h, public-key 73 h.
folders='
# NAME            RUNS  UNTIL     BUDGET  BEYOND  SCENARIO                        SETTINGS
# sweep: 122 rows open (13 cannot be: the null engine); 2 x 383 rounds
# (28 min) resolve 72.0 of 109 in expectation; promised: 2 x 954 (68 min) 18.
sweep             auto  -         60m     1       scenarios/paper/sweep.lua
# key-scaling: 132 open; 2 x 552 (30 min) resolve 113.4 of 131 (within
# 20m, runs of 266 rounds resolved 63-67 of its 69 ratios: analysis/README.md).
key-scaling       auto  -         20m     1       scenarios/paper/key-scaling.lua
# sha-ext: 41 open (9 cannot be); 2 x 662 (28 min) resolve 25.0 of 32.
sha-ext           auto  -         15m     1       scenarios/paper/sha-ext.lua
# capability-mask: each run is the question (every mask judged); the three
# runs before stopped resolved at 40-64 rounds, in 18-30 s; across them 1
# row open, which 2 x 10 resolve.
capability-mask   3     resolved  6m      1       scenarios/capability-mask.lua
# threads: 5 open; 2 x 1648 (23 min) resolve 4.5.
threads           auto  -         25m     1       scenarios/threads.lua
# context-reuse: 82 open; 8 x 185 (28 min) resolve 76.1.
context-reuse     auto  -         15m     1       scenarios/context-reuse.lua
# chunked: 10 open; 2 x 795 (9 min) resolve 9.5.
chunked           auto  -         12m     1       scenarios/chunked.lua
# cross-runtime: 73 open (7 cannot be); 2 x 383 (28 min) resolve 51.7 of 66.
cross-runtime     auto  -         22m     1       scenarios/cross-runtime.lua
# which-code: 73 open; 2 x 74 (26 min, each run profiled after its rounds:
# 90 s) resolve 46.4. Its question is the profiles, its ratios second.
which-code        auto  -         15m     1       scenarios/paper/which-code.lua
# file-tools: 68 open (2 cannot be); 2 x 222 (28 min) resolve 53.6 of 66.
file-tools        auto  -         18m     1       scenarios/file-tools.lua        big=16MiB trial_time=50ms
# public-key: 231 open (54 cannot be); 4 x 74 (30 min) resolve 42.0 of 177:
# the budget that most of its rows would take is not in reach.
public-key        auto  -         15m     1       scenarios/paper/public-key.lua
# The sim validation: five runs each, the design its false-alarm and power
# figures are about (virtual time: seconds).
validation-aa     5     -         -       1       scenarios/paper/validation.lua
validation-shift  5     -         -       1       scenarios/paper/validation.lua  shift=0.05
# two-builds: one run until every ratio is resolved (56 rounds, 103 s
# before), its profiled trials after (3 min), the builds of nettle (80 s,
# kept in the cache after).
two-builds        1     resolved  10m     6       tests/bench/two-builds.sh
'

# rows: the table's rows, without comments or blank lines.
rows() { printf '%s\n' "$folders" | sed -e 's/[[:space:]]*#.*$//' -e '/^[[:space:]]*$/d'; }

# each FUNCTION: FUNCTION NAME RUNS UNTIL BUDGET BEYOND SCENARIO [SETTING...]
# for every row, in order (a for loop, not `while read`: the runs inside
# keep this script's standard input), with globbing on.
each() {
	each_fn=$1
	set -f
	each_ifs=$IFS
	IFS='
'
	# shellcheck disable=SC2046 # one row a line
	set -- $(rows)
	IFS=$each_ifs
	for row in "$@"; do
		# shellcheck disable=SC2086 # the row's fields, split
		set -- $row
		set +f
		"$each_fn" "$@"
		set -f
	done
	set +f
}

# minutes DURATION: a budget ("40m", or "-" for none) in whole minutes.
minutes() {
	case $1 in
	-) echo 0 ;;
	*[!0-9]*m | m) echo "collect.sh: budget '$1' is not whole minutes (like 40m)" >&2; return 1 ;;
	*m) echo "${1%m}" ;;
	*) echo "collect.sh: budget '$1' is not whole minutes (like 40m)" >&2; return 1 ;;
	esac
}

# worst RUNS UNTIL BUDGET BEYOND: a folder's worst-case minutes.
worst() {
	b=$(minutes "$3")
	case $1:$2 in
	auto:*) echo $((b + $4)) ;;
	*:resolved) echo $(($1 * b + $4)) ;;
	*) echo $((b + $4)) ;;
	esac
}

# hm MINUTES: "2 h 05 min".
hm() { printf '%d h %02d min\n' $(($1 / 60)) $(($1 % 60)); }

mode=measure again=0
while [ $# -gt 0 ]; do
	case $1 in
	--plan) mode=plan ;;
	--dry-run) mode=dry ;;
	--again) again=1 ;;
	--) shift; break ;;
	-*) echo "collect.sh: unknown option $1 (--plan, --dry-run, --again)" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
cb=${1:-./cryptobench}
src=${2:-.}
data=${3:-$src/paper/data}
[ $# -gt 3 ] && shift 3 || set --
only=" $* "
quick=${COLLECT_QUICK:-0}

# Every FOLDER named is a row of the table.
for name in $only; do
	rows | grep -q "^$name[[:space:]]" ||
		{ echo "collect.sh: no folder '$name' in the table (--plan lists them)" >&2; exit 2; }
done

# complete NAME: whether DATA/NAME was measured to its end.
complete() { [ -f "$data/$1/collected.txt" ]; }

# wanted NAME: whether NAME is to be measured now.
wanted() {
	case $only in
	"  ") [ "$again" = 1 ] || ! complete "$1" ;;
	*" $1 "*) true ;;
	*) false ;;
	esac
}

total=0 todo=0
plan_row() {
	w=$(worst "$2" "$3" "$4" "$5")
	total=$((total + w))
	if complete "$1"; then
		state="complete ($(sed -n 's/^ended: //p' "$data/$1/collected.txt"))"
	else
		state="not measured"
	fi
	if wanted "$1"; then
		todo=$((todo + w))
		state="$state; to measure"
	fi
	how="--runs $2"
	[ "$3" = resolved ] && how="$how --until resolved"
	[ "$4" = - ] || how="$how --budget $4"
	printf '%-17s %-40s %7s  %s\n' "$1" "$how" "${w} min" "$state"
}

if [ "$mode" = plan ]; then
	printf '%-17s %-40s %7s  %s\n' folder how "worst" state
	each plan_row
	echo "all folders: $(hm $total) at worst; to measure now: $(hm $todo)"
	exit 0
fi

[ "$mode" = dry ] && again=1 # a dry run checks every row (or those named)
wanted_rows=0
count_wanted() { ! wanted "$1" || wanted_rows=$((wanted_rows + 1)); }
each count_wanted
if [ "$wanted_rows" = 0 ]; then
	echo "collect.sh: every folder is complete (--again, or name folders, to measure again)" >&2
	exit 0
fi
if [ "$quick" = 1 ]; then
	d=$(mkdir -p "$data" && cd "$data" && pwd -P)
	p=$(cd "$src/paper" && pwd -P)/data
	[ "$d" != "$p" ] ||
		{ echo "collect.sh: COLLECT_QUICK=1 writes no data for the paper: give another DATA" >&2; exit 2; }
fi
command -v zstd >/dev/null || { echo "collect.sh: no zstd (./bootstrap installs it)" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cb-collect.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# machine: the lines that say which machine measures, and how busy it is.
machine() {
	lscpu | awk -F': *' '/^Model name:/ && !n++ { print "cpu: " $2 }
		/^CPU family:/ && !f++ { print "cpu family: " $2 } /^Model:/ && !m++ { print "model: " $2 }'
	echo "kernel: $(uname -r)"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# noise WHEN: the noise now, a line "noise WHEN (date)" and noise.sh's two
# lines, into the folder's noise file and on stderr.
noise() {
	echo "noise $1 ($(date -u '+%Y-%m-%d %H:%M:%S') UTC), five openssl speed -evp sha256 -bytes 16384 -seconds 1:" |
		tee -a "$scratch/noise.txt" >&2
	sh "$src/tests/bench/noise.sh" | sed 's/^/  /' | tee -a "$scratch/noise.txt" >&2
}

# run_args RUNS UNTIL BUDGET [SETTING...]: the options of the folder's run.
run_args() {
	runs=$1 until=$2 budget=$3
	shift 3
	if [ "$quick" = 1 ]; then
		[ "$budget" = - ] || budget=20s
		set -- "$@" rounds=2 trial_time=2ms
		[ "$until" = - ] || set -- "$@" stop_max_rounds=8
	fi
	for setting in "$@"; do printf '%s\n' --set "$setting"; done
	printf '%s\n' --runs "$runs"
	[ "$until" = - ] || printf '%s\n' --until "$until"
	[ "$budget" = - ] || printf '%s\n' --budget "$budget"
}

# run_folder NAME RUNS UNTIL BUDGET BEYOND SCENARIO [SETTING...]: the
# folder's runs into the folder $out (made here), the command written to
# $scratch/command; $dry_run, when set, is passed on.
run_folder() {
	name=$1 runs=$2 until=$3 budget=$4 scenario=$6
	shift 6
	case $scenario in
	*.sh) # a script that makes its own scenario (tests/bench/two-builds.sh),
		# its builds kept in its cache from one collection to the next
		[ "$quick" = 1 ] && budget=20s
		echo "sh $scenario -- --budget $budget" >"$scratch/command"
		CRYPTOBENCH=$cb sh "$src/$scenario" -- --budget "$budget" >/dev/null
		mkdir -p "$out"
		cp "${XDG_CACHE_HOME:-$HOME/.cache}/cryptobench/$name/$name.jsonl" "$out/run-1.jsonl"
		;;
	*)
		set -f
		ifs_was=$IFS
		IFS='
'
		# shellcheck disable=SC2046 # one option a line
		set -- $(run_args "$runs" "$until" "$budget" "$@")
		IFS=$ifs_was
		set +f
		echo "cryptobench run $scenario $* -o $name" >"$scratch/command"
		"$cb" run "$src/$scenario" "$@" --no-progress ${dry_run:+"$dry_run"} -o "$out"
		;;
	esac
}

# measure NAME ...: the folder measured, with its noise, into DATA/NAME.
measure() {
	name=$1
	wanted "$name" || return 0
	out=$data/$name
	echo "paper-data: $name (at worst $(worst "$2" "$3" "$4" "$5") min)" >&2
	rm -rf "$scratch"/* "$out"
	mkdir -p "$data"
	machine | tee "$scratch/noise.txt" >&2
	noise before
	started=$(date -u '+%Y-%m-%d %H:%M:%S')
	t0=$(date +%s)
	run_folder "$@"
	t1=$(date +%s)
	noise after
	mv "$scratch/noise.txt" "$out/noise.txt"
	for f in "$out"/*.jsonl; do zstd -q -19 --rm "$f"; done
	{
		echo "command: $(cat "$scratch/command")"
		echo "started: $started UTC"
		echo "ended: $(date -u '+%Y-%m-%d %H:%M:%S') UTC"
		echo "runs took: $((t1 - t0)) s"
		[ "$quick" = 0 ] || echo "COLLECT_QUICK=1: a check of the plumbing, not data"
	} >"$out/collected.txt.tmp"
	mv "$out/collected.txt.tmp" "$out/collected.txt"
}

# dry_row NAME ...: the folder's run --dry-run, into a scratch folder.
dry_row() {
	name=$1
	wanted "$name" || return 0
	case $6 in
	*.sh) echo "paper-data: $name: $6 builds before it runs: not dry-run" >&2; return 0 ;;
	esac
	echo "paper-data: $name (dry run)" >&2
	out=$scratch/$name
	run_folder "$@"
}

dry_run=
if [ "$mode" = dry ]; then
	dry_run=--dry-run
	each dry_row
else
	each measure
fi
