#!/bin/sh
# -o never replaces what is there without --force; the default name never collides.
. "${top_srcdir:-.}/tests/lib.sh"
S="$top_srcdir/tests/scenarios/sim/cost.lua"
echo "1..12"
trials() { grep -c '"type":"trial"' "$1"; }

cb run "$S" -o "$WORK/a.jsonl" --set rounds=1 --set sizes=64B
check "a first run writes its file" status_is 0
before=$(trials "$WORK/a.jsonl")
cb run "$S" -o "$WORK/a.jsonl" --set rounds=2
check "-o to an existing file: exit 2" status_is 2
check "...in one line naming the file and --force" sh -c "[ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q 'a.jsonl exists.*--force' '$WORK/err'"
check "...and the file is untouched" test "$(trials "$WORK/a.jsonl")" -eq "$before"
cb run "$S" -o "$WORK/a.jsonl" --set rounds=2 --set sizes=64B --force
check "--force replaces it (one header, the new run's trials)" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && [ \$(grep -c '\"type\":\"run\"' '$WORK/a.jsonl') -eq 1 ] && [ $(trials "$WORK/a.jsonl") -gt $before ]"

mkdir "$WORK/runs" && echo keep >"$WORK/runs/notes.txt"
cb run "$S" --runs 2 -o "$WORK/runs" --set rounds=1
check "--runs into a non-empty folder: exit 2, one line" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q 'not empty' '$WORK/err'"
check "...and writes nothing there" sh -c "[ \"\$(ls '$WORK/runs')\" = notes.txt ]"
mkdir "$WORK/empty"
cb run "$S" --runs 2 -o "$WORK/empty" --set rounds=1 --set sizes=64B --no-progress
check "--runs into an empty folder is fine" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && [ -s '$WORK/empty/run-2.jsonl' ]"
cb run "$S" -o "$WORK/empty" --set rounds=1
check "-o naming a folder without --runs: exit 2" status_is 2

mkdir "$WORK/cwd"
(cd "$WORK/cwd" && for i in 1 2 3; do "$CRYPTOBENCH" run "$S" --set rounds=1 --set sizes=64B >/dev/null 2>&1 || exit 1; done)
check "three default-named runs in a row give three files" sh -c "[ \$(ls '$WORK/cwd/results' | grep -c 'jsonl\$') -eq 3 ]"
check "...each complete" sh -c "for f in '$WORK'/cwd/results/*.jsonl; do tail -n 1 \"\$f\" | jq -e '.type == \"end\"' >/dev/null || exit 1; done"
(cd "$WORK/cwd" && for i in 1 2; do "$CRYPTOBENCH" run "$S" --runs 2 --set rounds=1 --set sizes=64B >/dev/null 2>&1 || exit 1; done)
check "two default-named --runs give two folders" sh -c "[ \$(find '$WORK/cwd/results' -mindepth 1 -maxdepth 1 -type d | wc -l) -eq 2 ]"
[ "$tap_failed" -eq 0 ]
