#!/bin/sh
# A one-line run (a scenario from flags), --only, and the printed resume hint
# run verbatim.
. "${top_srcdir:-.}/tests/lib.sh"
echo "1..22"
# The hint names "cryptobench": put this build first on PATH under that name.
mkdir "$WORK/bin" && ln -s "$CRYPTOBENCH" "$WORK/bin/cryptobench"
PATH="$WORK/bin:$PATH"
export PATH

cb run --engines sim --algorithms sha256,sha512 --sizes 64B,1MiB --rounds 3 --trial-time 1ms -o "$WORK/a.jsonl"
check "a one-line run exits 0" status_is 0
check "...2 algorithms x 2 sizes x (3 + 1) rounds = 16 trials" test "$(grep -c '"type":"trial"' "$WORK/a.jsonl")" -eq 16
check "...its generated scenario is in the header" sh -c "head -n 1 '$WORK/a.jsonl' | jq -r .scenario.source | grep -q 'sizes      = { \"64B\", \"1MiB\" }'"
cb report "$WORK/a.jsonl"
check "...and reports" status_is 0
cb run --engines sim --algorithms sha256 --sizes 64
check "a one-line run checks units like a scenario: exit 2, one line" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q '^(command line):.*no unit' '$WORK/err'"

# Public key: the message size hardly matters, so --sizes may be left out
# (32 bytes, as the public-key scenarios sign); not for a byte algorithm.
cb run --engines openssl --algorithms ed25519 --ops sign --rounds 2 --trial-time 1ms -o "$WORK/pk.jsonl"
check "a public-key one-line run without --sizes exits 0" status_is 0
check "...and signs 32-byte messages" sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | .cell.size' '$WORK/pk.jsonl' | sort -u)\" = 32 ]"
cb run --engines openssl --algorithms ed25519,sha256 --ops sign --rounds 2 --trial-time 1ms -o "$WORK/mixed.jsonl"
check "without --sizes and with a byte algorithm: exit 2, one line" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q 'needs --engines, --algorithms and --sizes' '$WORK/err'"
# The CSV's default table is the cells of what the file holds.
cb report "$WORK/pk.jsonl" --format csv
check "report --format csv of public-key cells alone: the pk-cells table, one row" sh -c "head -n 1 '$WORK/out' | grep -q headline_ops_per_s && [ \$(wc -l < '$WORK/out') -eq 2 ]"

cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only label=sim-a,op=hash,size=64B,1MiB -o "$WORK/only.jsonl"
check "--only runs the matching cells (sim-a, hash, 64B and 1MiB)" sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | \"\(.cell.label) \(.cell.op) \(.cell.size)\"' '$WORK/only.jsonl' | sort -u | tr '\n' ' ')\" = 'sim-a hash 1048576 sim-a hash 64 ' ]"
# engine= is the engine's name, label= the variant's label (as in cb.derive):
# a value that is the other key's is refused, saying which key to write.
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only engine=sim-a --dry-run
check "--only engine=LABEL: exit 2, one line, naming the key to write" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q \"^--only engine=sim-a: 'sim-a' is a label: write label=sim-a\" '$WORK/err'"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only label=sim --dry-run
check "--only label=ENGINE: exit 2, saying to write engine=" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -q \"^--only label=sim: 'sim' is an engine: write engine=sim\" '$WORK/err'"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only engine=sim,label=sim-b --dry-run
check "--only engine=NAME,label=LABEL: the labelled variant's cells" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && grep -q '^  9 cells' '$WORK/out'"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only engine=nope --dry-run
check "--only engine= neither a name nor a label: no cell, as before" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -q 'no cell' '$WORK/err'"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only op=hash,size=16384 --dry-run
check "--only size= without a unit: exit 2, one line, asking for the unit" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && [ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q '^--only size=16384: not a size (write it like 64B or 16KiB' '$WORK/err'"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --only algorithm=md5
check "--only matching nothing: exit 2" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -q 'no cell' '$WORK/err'"

# Interrupted one-line run with --set: the printed hint, run as printed, completes it.
"$CRYPTOBENCH" run --engines null --algorithms sha256 --sizes 64B,1KiB --rounds 100 --trial-time 10ms --set rounds=200 --only size=1KiB -o "$WORK/i.jsonl" --no-progress >/dev/null 2>"$WORK/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
check "SIGINT: exit 130" test $? -eq 130
hint=$(tail -n 1 "$WORK/err")
diag "hint:$hint"
check "the hint is short: the file records the scenario, --set and --only" test "$hint" = "  cryptobench run --resume $WORK/i.jsonl"
cb run --engines null --algorithms sha256 --sizes 64B,1KiB --rounds 100 --trial-time 10ms --set rounds=150 --only size=1KiB --resume "$WORK/i.jsonl"
check "resuming with another --set: exit 2 naming the setting and both values" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -Eq 'rounds(\\.value)? \"?200\"? \\(this run: \"?150\"?\\)' '$WORK/err'"
cb run --engines null --algorithms sha256 --sizes 64B,1KiB --rounds 100 --trial-time 10ms --set rounds=200 --resume "$WORK/i.jsonl"
check "resuming without the --only: exit 2 naming it" sh -c "[ \$(cat '$WORK/status') -eq 2 ] && grep -q 'only \"size=1KiB\" (this run: \"\")' '$WORK/err'"
(cd "$WORK" && eval "$hint") >/dev/null 2>"$WORK/err2"
check "the hint run verbatim completes the file" sh -c "tail -n 1 '$WORK/i.jsonl' | jq -e '.interrupted == false' >/dev/null"
check "...every slot exactly once: 201 trials of the one cell" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .seq' '$WORK/i.jsonl' | sort -n | uniq | wc -l) -eq 201 ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/i.jsonl') -eq 201 ]"
[ "$tap_failed" -eq 0 ]
