#!/bin/sh
# An output that cannot be written is refused before anything is measured;
# a disk that fills mid-run stops the run with a clear error, keeps every
# whole line written, and --resume finishes the file once there is room.
# The full disk is a small tmpfs this test mounts (root only).
. "${top_srcdir:-.}/tests/lib.sh"
plan 16
S="$top_srcdir/tests/scenarios/cli/kill.lua"
MNT="$WORK/mnt"
mkdir "$MNT"
trap 'umount "$MNT" 2>/dev/null; rm -rf "$WORK"' EXIT

# A kill at the first calibration proves that nothing was measured: a run
# that refuses its output exits 2 before it could get there.
refused_early() {
	CRYPTOBENCH_KILL_AT=calibrate:1 "$CRYPTOBENCH" run "$S" -o "$1" ${2:-} --no-progress >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
	status_is 2 && [ "$(wc -l <"$WORK/err")" -eq 1 ] && err_has "^$1: cannot open for writing: $3"
}
touch "$WORK/file"
check "-o under a regular file: exit 2, named, before measuring" refused_early "$WORK/file/x.jsonl" "" "Not a directory"
mkdir "$WORK/dir"
check "-o a folder (--force): exit 2, named, before measuring" refused_early "$WORK/dir" --force "Is a directory"

# A full standard output (here /dev/full, no mount needed): report says so
# and exits 1, rather than exit 0 with its tables cut short.
"$CRYPTOBENCH" report "$top_srcdir/tests/golden/runs/run-1.jsonl" >/dev/full 2>"$WORK/err"
echo $? >"$WORK/status"
check "report > /dev/full: exit 1, one line saying the output cannot be written" sh -c "[ \$(cat '$WORK/status') -eq 1 ] && [ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q '^cryptobench report: cannot write the output: No space left on device' '$WORK/err'"

if ! mount -t tmpfs -o size=64k,ro tmpfs "$MNT" 2>"$WORK/mount-err"; then
	skip 13 "cannot mount a tmpfs here: $(head -n 1 "$WORK/mount-err")"
	done_testing
	exit
fi
check "-o on a read-only file system: exit 2, named, before measuring" refused_early "$MNT/x.jsonl" "" "Read-only file system"
check "...and no file is left" test ! -e "$MNT/x.jsonl"

# A disk full before the header: refused (exit 2), no file left behind.
mount -o remount,rw,size=64k "$MNT"
head -c 1048576 /dev/zero >"$MNT/fill" 2>/dev/null
cb run "$S" -o "$MNT/full.jsonl" --no-progress
check "a full disk before the header: exit 2, one line, named" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q '^$MNT/full.jsonl: cannot write: No space left on device' '$WORK/err'"
check "...and no file is left" test ! -e "$MNT/full.jsonl"
rm -f "$MNT/fill"

# A disk that fills mid-run: 64 KiB hold the header and part of 400 rounds.
f="$MNT/run.jsonl"
"$CRYPTOBENCH" run "$S" --set rounds=400 -o "$f" --no-progress >/dev/null 2>"$WORK/err"
echo $? >"$WORK/status"
written=$(grep -c '"type":"trial"' "$f")
diag "trial lines kept on the full disk: $written of 3208"
check "disk full mid-run: exit 1" status_is 1
check "...the error names the file and says the disk is full" err_has "^$f: cannot write trial [0-9]*: No space left on device"
check "...and says the file keeps what was written, with the command to continue" sh -c "grep -q 'keeps every trial written before' '$WORK/err' && grep -q -- '--resume $f' '$WORK/err'"
check "...the file holds whole lines only, $written trials of the 3208" sh -c "[ -z \"\$(tail -c 1 '$f')\" ] && [ $written -gt 0 ] && [ $written -lt 3208 ] && jq -e . '$f' >/dev/null"
cb report "$f"
check "...report reads it, without a warning, as interrupted" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && [ ! -s '$WORK/err' ] && grep -q INTERRUPTED '$WORK/out'"
cp "$f" "$WORK/before.jsonl"

# Room again: --resume completes it.
mount -o remount,size=4m "$MNT"
"$CRYPTOBENCH" run "$S" --set rounds=400 --resume "$f" --no-progress >/dev/null 2>"$WORK/err"
check "with room again, --resume exits 0" test $? -eq 0
check "...every line from before the disk filled is there first, unchanged" sh -c "head -n \$(grep -c '' '$WORK/before.jsonl') '$f' | cmp -s - '$WORK/before.jsonl'"
check "...every slot measured exactly once, the file complete" sh -c "[ \"\$(grep '\"type\":\"trial\"' '$f' | jq -r .seq | sort -n | uniq | wc -l)\" -eq 3208 ] && [ \$(grep -c '\"type\":\"trial\"' '$f') -eq 3208 ] && tail -n 1 '$f' | jq -e '.interrupted == false' >/dev/null"
check "...and report reads it whole" sh -c "'$CRYPTOBENCH' report '$f' >'$WORK/out' 2>'$WORK/err' && ! grep -q INTERRUPTED '$WORK/out'"
done_testing
