#!/bin/sh
# SIGKILL at several points of a run (CRYPTOBENCH_KILL_AT, core/base/killpoint.h),
# then --resume: no trial line written before the kill is lost or changed,
# every slot is measured exactly once, and the trials are those of the same
# run never killed (the sim engine's virtual clock makes them identical).
. "${top_srcdir:-.}/tests/lib.sh"
plan 64
S="$top_srcdir/tests/scenarios/cli/kill.lua"
slots=40 # (4 rounds + 1 warm-up) x 8 cells

# trials FILE: one line per trial, as written
trials() { grep '"type":"trial"' "$1"; }
# measured FILE: the trials without the fields that hold the output buffer's
# poison (a pattern new to each trial of the process, core/measure/trial.h) and the
# placement (drawn from a seed per run, kept by --resume): what a trial
# measured
measured() { jq -c 'select(.type == "trial") | del(.digest, .output_sha256, .layout)' "$1"; }
"$CRYPTOBENCH" run "$S" -o "$WORK/ref.jsonl" --no-progress 2>"$WORK/err"
check "the run never killed has its $slots trials" test "$(trials "$WORK/ref.jsonl" | wc -l)" -eq $slots

kept=0
points=0
# whole FILE: the whole lines of FILE (a torn last line left out)
whole() {
	n=$(grep -c '' "$1")
	[ -n "$(tail -c 1 "$1")" ] && n=$((n - 1))
	head -n "$n" "$1"
}
# starts_with FILE PREFIX: FILE begins with every line of PREFIX, unchanged
starts_with() { head -n "$(grep -c '' "$2")" "$1" | cmp -s - "$2"; }
# kill_run NAME SPEC [--resume]: run (or resume) with CRYPTOBENCH_KILL_AT=SPEC,
# expect SIGKILL, and keep the whole lines it left in $WORK/NAME.before.
kill_run() {
	name=$1 spec=$2 f="$WORK/$1.jsonl"
	shift 2
	points=$((points + 1))
	if [ "${1:-}" = --resume ]; then
		CRYPTOBENCH_KILL_AT=$spec "$CRYPTOBENCH" run "$S" --resume "$f" --no-progress >/dev/null 2>&1
	else
		CRYPTOBENCH_KILL_AT=$spec "$CRYPTOBENCH" run "$S" -o "$f" --no-progress >/dev/null 2>&1
	fi
	echo $? >"$WORK/status"
	cp "$f" "$WORK/$name.killed"
	whole "$f" >"$WORK/$name.before"
	n=$(trials "$WORK/$name.before" | wc -l)
	kept=$((kept + n))
	check "$name ($spec${1:+ in --resume}): killed by SIGKILL, $n trial lines written" status_is 137
}
# resumed NAME: --resume completes the file; nothing from before is lost.
resumed() {
	f="$WORK/$1.jsonl"
	"$CRYPTOBENCH" run "$S" --resume "$f" --no-progress >/dev/null 2>"$WORK/err"
	echo $? >"$WORK/status"
	check "$1: --resume exits 0, the file complete" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && tail -n 1 '$f' | jq -e '.type == \"end\" and .interrupted == false' >/dev/null"
	check "$1: every whole line from before the kill is there first, unchanged" starts_with "$f" "$WORK/$1.before"
	check "$1: every slot measured exactly once" test "$(trials "$f" | jq -r .seq | sort -n | tr '\n' ' ')" = "$(seq 0 $((slots - 1)) | tr '\n' ' ')"
	check "$1: the trials measured are those of the run never killed" sh -c "jq -c 'select(.type == \"trial\") | del(.digest, .output_sha256, .layout)' '$f' | cmp -s - '$WORK/ref.trials'"
}
killed() {
	kill_run "$1" "$2"
	resumed "$1"
}
measured "$WORK/ref.jsonl" >"$WORK/ref.trials"

killed header header
check "header: the header alone was written" test "$(grep -c '' "$WORK/header.before")" -eq 1
killed calibrate-first calibrate:1
killed calibrate-later calibrate:5
killed first-trial trial:1
killed mid-round trial:13
killed round-end trial:16
killed torn torn:9
check "torn: the kill left half a line, after 8 whole trial lines" sh -c "[ -n \"\$(tail -c 1 '$WORK/torn.killed')\" ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/torn.before') -eq 8 ]"
killed all-written trial:40
# Killed, resumed, killed again in the middle of writing a line, resumed.
kill_run twice trial:10
cp "$WORK/twice.before" "$WORK/twice.first"
kill_run twice torn:6 --resume
resumed twice
check "twice: the lines from before the first kill are there too" starts_with "$WORK/twice.jsonl" "$WORK/twice.first"

# --runs 3: the parent killed between run 1 and run 2, then a run's own
# process killed mid-round; --runs 3 --resume DIR finishes each.
CRYPTOBENCH_KILL_AT=run:1 "$CRYPTOBENCH" run "$S" --runs 3 -o "$WORK/runs" --no-progress >/dev/null 2>&1
check "--runs 3, killed between runs 1 and 2: SIGKILL" test $? -eq 137
points=$((points + 1))
cp "$WORK/runs/run-1.jsonl" "$WORK/runs-1.before"
kept=$((kept + $(trials "$WORK/runs-1.before" | wc -l)))
check "...run 1 complete, run 2 not begun" sh -c "tail -n 1 '$WORK/runs/run-1.jsonl' | jq -e '.interrupted == false' >/dev/null && [ ! -e '$WORK/runs/run-2.jsonl' ]"
"$CRYPTOBENCH" run "$S" --runs 3 --resume "$WORK/runs" --no-progress >/dev/null 2>"$WORK/err"
check "...--runs 3 --resume DIR exits 0" test $? -eq 0
check "...run 1 untouched, runs 2 and 3 complete with $slots trials each" sh -c "cmp -s '$WORK/runs-1.before' '$WORK/runs/run-1.jsonl' && for k in 2 3; do [ \$(grep -c '\"type\":\"trial\"' '$WORK/runs/run-'\$k.jsonl) -eq $slots ] && tail -n 1 '$WORK/runs/run-'\$k.jsonl | jq -e '.interrupted == false' >/dev/null || exit 1; done"

CRYPTOBENCH_KILL_AT=trial:23 "$CRYPTOBENCH" run "$S" --runs 2 -o "$WORK/runs2" --no-progress >/dev/null 2>"$WORK/err"
echo $? >"$WORK/status"
check "--runs 2, run 1's process killed mid-round: the parent stops (exit 1), saying so" sh -c "[ \$(cat '$WORK/status') -eq 1 ] && grep -q 'run 1: its process was killed (Killed)' '$WORK/err'"
points=$((points + 1))
cp "$WORK/runs2/run-1.jsonl" "$WORK/runs2-1.before"
kept=$((kept + $(trials "$WORK/runs2-1.before" | wc -l)))
check "...run 1 keeps its 23 trials" test "$(trials "$WORK/runs2-1.before" | wc -l)" -eq 23
"$CRYPTOBENCH" run "$S" --runs 2 --resume "$WORK/runs2" --no-progress >/dev/null 2>"$WORK/err"
check "...--runs 2 --resume DIR exits 0" test $? -eq 0
check "...run 1 finished after its 23 trials, each slot once; run 2 complete" sh -c "head -n \$(grep -c '' '$WORK/runs2-1.before') '$WORK/runs2/run-1.jsonl' | cmp -s - '$WORK/runs2-1.before' && [ \"\$(grep '\"type\":\"trial\"' '$WORK/runs2/run-1.jsonl' | jq -r .seq | sort -n | tr '\n' ' ')\" = \"$(seq 0 $((slots - 1)) | tr '\n' ' ')\" ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/runs2/run-2.jsonl') -eq $slots ]"
# A --set number with more digits than Lua's own tostring keeps (14): the
# file records it exactly, so --resume rebuilds the same engines; a resume
# with another value is refused, naming the setting and both values whole.
x=1.0309278350515465
CRYPTOBENCH_KILL_AT=trial:13 "$CRYPTOBENCH" run "$S" --set b_per_byte=$x -o "$WORK/exact.jsonl" --no-progress >/dev/null 2>&1
check "--set b_per_byte=$x, killed mid-round: SIGKILL" test $? -eq 137
check "...the file records the value in full" sh -c "head -n 1 '$WORK/exact.jsonl' | jq -e '.scenario.params.b_per_byte.value == \"$x\"' >/dev/null"
cp "$WORK/exact.jsonl" "$WORK/exact-other.jsonl"
"$CRYPTOBENCH" run "$S" --set b_per_byte=1.030927835051546 --resume "$WORK/exact-other.jsonl" --no-progress >/dev/null 2>"$WORK/err"
echo $? >"$WORK/status"
check "...--resume with a value that differs in its 16th digit: exit 2" status_is 2
check "...naming that one setting, with both values in full" sh -c "grep -q 'params.b_per_byte.value \"$x\" (this run: \"1.030927835051546\"); give' '$WORK/err' && [ \$(grep -o '(this run:' '$WORK/err' | wc -l) -eq 1 ]"
"$CRYPTOBENCH" run --resume "$WORK/exact.jsonl" --no-progress >/dev/null 2>"$WORK/err"
echo $? >"$WORK/status"
check "...--resume FILE exits 0" status_is 0
check "...the file complete, every slot measured once" sh -c "tail -n 1 '$WORK/exact.jsonl' | jq -e '.type == \"end\" and .interrupted == false' >/dev/null && [ \"\$(grep '\"type\":\"trial\"' '$WORK/exact.jsonl' | jq -r .seq | sort -n | tr '\n' ' ')\" = \"$(seq 0 $((slots - 1)) | tr '\n' ' ')\" ]"
diag "kill points: $points; trial lines written before the kills: $kept, all found unchanged after --resume"
done_testing
