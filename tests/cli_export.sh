#!/bin/sh
# export: one row per trial, CSV (read back with Python's csv module) and
# JSON, from files and folders, streaming (its memory does not grow with the
# file).
. "${top_srcdir:-.}/tests/lib.sh"
plan 27
S="$top_srcdir/tests/scenarios/sim/cost.lua"
PY=$(command -v python3 || echo /usr/bin/python3)
COLS="host,run,engine,label,algorithm,op,mode,size,threads,round,seq,warmup,calls,bytes,ns,cpu_ns,cycles,valid,reason,file"

"$CRYPTOBENCH" run "$S" --set rounds=2 --set sizes=64B,4KiB -o "$WORK/a.jsonl" 2>/dev/null
trials=$(grep -c '"type":"trial"' "$WORK/a.jsonl")
diag "a.jsonl: $trials trials"

# Python reads the CSV: one header row, then the rows; prints what is checked.
cat >"$WORK/read_csv.py" <<'EOF'
import csv, json, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
print(json.dumps({
    "header": ",".join(header),
    "rows": len(body),
    "widths": sorted(set(len(r) for r in body)),
    "headers_seen": sum(1 for r in body if r[0] == "host"),
    "ns_sum": sum(float(r[header.index("ns")]) for r in body),
    "hosts": sorted(set(r[header.index("host")] for r in body)),
    "runs": list(dict.fromkeys(r[header.index("run")] for r in body)),
    "reasons": [r[header.index("reason")] for r in body if r[header.index("valid")] == "false"],
    "valid": sorted(set(r[header.index("valid")] for r in body)),
}))
EOF
py() { "$PY" "$WORK/read_csv.py" "$1" >"$WORK/py.json" 2>"$WORK/py.err"; }
pyq() { jq -e "$1" "$WORK/py.json" >/dev/null || { diag "python read: $(cat "$WORK/py.json" "$WORK/py.err" | head -c 400)"; false; }; }

cb export "$WORK/a.jsonl"
check "export exits 0 (CSV by default)" status_is 0
cp "$WORK/out" "$WORK/a.csv"
py "$WORK/a.csv"
check "Python's csv module reads one header row with the columns" pyq ".header == \"$COLS\" and .headers_seen == 0"
check "one row per trial line ($trials)" pyq ".rows == $trials"
check "every row has the 20 fields" pyq '.widths == [20]'
# One dialect with the report's tables (core/results/csv.h): LF line ends, no CR.
check "records end with LF alone (no CR)" sh -c "! grep -q \"\$(printf '\\r')\" '$WORK/a.csv'"
ns_sum=$(jq -s '[.[] | select(.type == "trial") | .ns] | add' "$WORK/a.jsonl")
check "the ns column adds up to the file's trials' ns ($ns_sum)" pyq ".ns_sum == $ns_sum"
check "host and run come from the header" pyq ".hosts == [\"$(head -n 1 "$WORK/a.jsonl" | jq -r .host.hostname)\"] and .runs == [\"$(head -n 1 "$WORK/a.jsonl" | jq -r .run_id)\"]"
check "warm-up and cell fields as in the file" sh -c "[ \$(grep -c ',sim-a,sha256,hash,message,64,1,0,[0-9]*,true,' '$WORK/a.csv') -eq 1 ] && [ \$(grep -c ',sim-a,sha256,hash,message,64,1,1,[0-9]*,false,' '$WORK/a.csv') -eq 1 ]"

# An invalid trial whose reason has a comma, quotes and a newline.
jq -c 'if .type == "trial" and .seq == 3 then .valid = false | .error = "output differs, got \"ab\",\nthen more" else . end' \
	"$WORK/a.jsonl" >"$WORK/bad.jsonl"
cb export "$WORK/bad.jsonl" -o "$WORK/bad.csv"
check "-o writes the file, nothing on stdout" sh -c "[ \$(cat '$WORK/status') = 0 ] && [ -s '$WORK/bad.csv' ] && [ ! -s '$WORK/out' ]"
py "$WORK/bad.csv"
check "a reason with a comma, quotes and a newline reads back whole" pyq '.reasons == ["output differs, got \"ab\",\nthen more"] and .rows == '"$trials"
cb export "$WORK/bad.jsonl" -o "$WORK/bad.csv"
check "-o refuses an existing file (exit 2)" status_is 2
check "...naming it, in one line" sh -c "grep -q 'bad.csv exists' '$WORK/err' && [ \$(wc -l <'$WORK/err') -eq 1 ]"

cb export "$WORK/a.jsonl" --format json
check "--format json exits 0" status_is 0
no_cpu=$(jq -s '[.[] | select(.type == "trial" and .cpu_ns == null)] | length' "$WORK/a.jsonl")
check "JSON: an array of one object per trial, the same columns and ns, null where absent" \
	jq -e "length == $trials and (.[0] | keys_unsorted | join(\",\")) == \"$COLS\" and ([.[].ns] | add) == $ns_sum and ([.[] | select(.cpu_ns == null)] | length) == $no_cpu" "$WORK/out"

"$CRYPTOBENCH" run "$S" --set rounds=1 --set sizes=64B --runs 2 -o "$WORK/runs" 2>/dev/null
cb export "$WORK/runs"
py "$WORK/out"
check "a --runs folder: both files' rows, run-1's first" pyq ".runs == [\"$(head -n 1 "$WORK/runs/run-1.jsonl" | jq -r .run_id)\", \"$(head -n 1 "$WORK/runs/run-2.jsonl" | jq -r .run_id)\"]"
check "...as many rows as both files' trials" pyq ".rows == $(cat "$WORK"/runs/run-*.jsonl | grep -c '"type":"trial"')"

# A hard kill cuts the last line: the complete lines before it count.
head -n 11 "$WORK/a.jsonl" >"$WORK/cut.jsonl"
sed -n 12p "$WORK/a.jsonl" | head -c 40 >>"$WORK/cut.jsonl"
cb export "$WORK/cut.jsonl"
py "$WORK/out"
cut_ok() { pyq '.rows == 10' && err_has "cut.jsonl:12: warning: the last line is cut short"; }
check "a cut file: its 10 complete trials, and a warning naming the cut line" cut_ok

printf '{"type":"run","schema":"cryptobench/1"}\n{"type":"trial","round":0}\n' >"$WORK/nocell.jsonl"
cb export "$WORK/nocell.jsonl"
check "a trial without a cell: exit 2" status_is 2
check "...one line naming file:line" sh -c "grep -q 'nocell.jsonl:2: trial line without a valid \"cell\"' '$WORK/err' && [ \$(wc -l <'$WORK/err') -eq 1 ]"
cb export "$S"
check "not a results file: exit 2 naming file:1" sh -c "[ \$(cat '$WORK/status') = 2 ] && grep -q 'cost.lua:1: not JSON' '$WORK/err'"
cb export "$WORK/a.jsonl" --format xlsx
check "an unknown format: exit 2, one line" sh -c "[ \$(cat '$WORK/status') = 2 ] && [ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q \"unknown format 'xlsx'\" '$WORK/err'"

# Streaming: 60,000 trial lines (about 25 MB) take no more memory than a few.
{
	head -n 1 "$WORK/a.jsonl"
	line=$(grep -m 1 '"type":"trial"' "$WORK/a.jsonl")
	awk -v line="$line" 'BEGIN { for (i = 0; i < 60000; i++) print line }'
} >"$WORK/big.jsonl"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o "$WORK/rss" "$CRYPTOBENCH" export "$WORK/big.jsonl" -o "$WORK/big.csv" 2>/dev/null
	check "a 60,000-trial file ($(($(wc -c <"$WORK/big.jsonl") / 1048576)) MiB) exports every row" \
		sh -c "[ \$(wc -l <'$WORK/big.csv') -eq 60001 ]"
	if grep -q 'fsanitize=address' "${top_builddir:-.}/Makefile" 2>/dev/null; then
		skip 1 "peak RSS under AddressSanitizer counts its shadow memory and quarantine"
	elif [ -n "${CB_EMULATOR:-}" ]; then
		# tests/arm64.sh: qemu-user's own code cache is about 11 MiB of it
		skip 1 "peak RSS under $CB_EMULATOR counts the emulator's own memory"
	else
		check "...in under 16 MiB of memory (peak RSS $(cat "$WORK/rss") KiB)" sh -c "[ \$(cat '$WORK/rss') -lt 16384 ]"
	fi
else
	skip 2 "/usr/bin/time is missing (Debian package time)"
fi
# An empty folder: its error alone, before any output (no CSV header, no "[").
mkdir -p "$WORK/empty"
cb export "$WORK/empty" --format csv
check "an empty folder: exit 2, one line naming it" \
	sh -c "[ \$(cat '$WORK/status') = 2 ] && [ \$(wc -l <'$WORK/err') = 1 ] && grep -q '$WORK/empty' '$WORK/err'"
check "...and nothing on stdout, not even the CSV header" test ! -s "$WORK/out"
cb export "$WORK/a.jsonl" "$WORK/empty" --format json
check "an empty folder after a file, JSON: exit 2 and nothing written" \
	sh -c "[ \$(cat '$WORK/status') = 2 ] && [ ! -s '$WORK/out' ]"
"$CRYPTOBENCH" run "$S" --set rounds=2 --set sizes=64B --host named -o "$WORK/named.jsonl" 2>/dev/null
cb export "$WORK/named.jsonl"
check "a run with --host: export's host column is the name given" \
	test "$(tail -n +2 "$WORK/out" | cut -d, -f1 | sort -u)" = named
done_testing
