#!/bin/sh
# report of a file with profile lines (tests/explain/cross-runtime.jsonl:
# openssl, go-crypto and dotnet profiled at 1 MiB, java-jca refused): the
# "which code ran" tables in text, CSV, JSON and HTML, the refusal said once;
# none of it for a file without profile lines; a bad profile line refused
# with its file and line; and the same file with its profile lines removed
# gives the same headlines and verdicts, byte for byte (profiles never
# enter them).
. "${top_srcdir:-.}/tests/lib.sh"
plan 23
F="$top_srcdir/tests/explain/cross-runtime.jsonl"
GOLDEN="$top_srcdir/tests/golden/runs/run-1.jsonl"

cb report "$F"
check "report of the fixture exits 0" status_is 0
check "...with the table of which code ran" out_has "Which code ran"
check "...openssl's top function named by object, offset and hint" sh -c \
	"grep 'openssl .*sha256' '$WORK/out' | grep -q 'libcrypto.so.3+0x1d2e40 (near SHA256_Update)'"
check "...go-crypto's hot code without a notable extension" sh -c \
	"grep -q '^go-crypto  *sha256  *hash  *1MiB .* none ' '$WORK/out'"
check "...its top functions named by Go, below the table" \
	out_has "go-crypto sha256 hash 1MiB: crypto/sha256.block 92.5%, runtime.mallocgc 4.3%"
check "...the brief text within 100 columns" sh -c \
	"! sed -n '/^Which code ran/,/^Warnings/p' '$WORK/out' | awk 'length > 100' | grep -q ."
check "...the summary: sha-ni in openssl's and dotnet's hot code, not go-crypto's" sh -c \
	"grep 'sha256 .* sha-ni ' '$WORK/out' | grep 'openssl [0-9.]*%' | grep 'dotnet [0-9.]*%' |
	 grep -q ' go-crypto'"
check "...the refusal said once, with its reason" sh -c \
	"test \"\$(grep -c 'ptrace is not allowed' '$WORK/out')\" = 1 &&
	 grep -q 'no profile in 1 cell: ptrace is not allowed' '$WORK/out'"
check "...and no row for the refused cell (java-jca has its timed cells)" sh -c \
	"grep -q '^java-jca ' '$WORK/out' &&
	 ! sed -n '/^Which code ran/,/^Which engines/p' '$WORK/out' | grep -q '^java-jca '"

cb report "$F" --format csv --table explain
check "CSV --table explain: a header and five rows" sh -c \
	"head -n 1 '$WORK/out' | grep -q '^file,run,engine,label,algorithm,op,size,threads,sampler,trials,samples,top_function,' &&
	 test \"\$(wc -l <'$WORK/out')\" = 6"
check "...openssl's sha256 stops at sha-ni" sh -c \
	"grep ',openssl,openssl,sha256,hash,1048576,1,timer,2,2000,' '$WORK/out' | grep -q ',sha-ni,'"
check "...go-crypto's runtime share: 118 of 2000 samples" sh -c \
	"grep ',go-crypto,go-crypto,sha256,' '$WORK/out' | grep -q ',0.059,'"
cb report "$F" --format csv --table explain-summary
check "CSV --table explain-summary: sha256 sha-ni, aes-256-gcm aes-ni and pclmul" sh -c \
	"test \"\$(cut -d, -f3,6 '$WORK/out' | tail -n +2 | tr '\n' ' ')\" = 'sha256,sha-ni aes-256-gcm,aes-ni aes-256-gcm,pclmul '"

cb report "$F" --format json
check "JSON: five cells, three summary rows, one refusal" sh -c \
	"jq -e '.[0].explain | (.cells | length) == 5 and (.summary | length) == 3 and .refused[0].cells == 1' '$WORK/out' >/dev/null"
check "...each cell's top functions with their shares and intervals" sh -c \
	"jq -e '.[0].explain.cells[0].functions[0] | .share > .lo and .share < .hi' '$WORK/out' >/dev/null"

CRYPTOBENCH_GNUPLOT= cb report "$F" --format html -o "$WORK/page.html"
check "HTML: the page has both tables" sh -c \
	"grep -q 'data-table=\"explain\"' '$WORK/page.html' && grep -q 'data-table=\"explain-summary\"' '$WORK/page.html'"

# Every profile refused: the reason once, under its heading, and no table.
grep -v '"type":"profile".*"profile":{' "$F" >"$WORK/refused.jsonl"
cb report "$WORK/refused.jsonl"
check "profiles all refused: the reason, and no table of blanks" sh -c \
	"sed -n '/^Which code ran/,/^Warnings/p' '$WORK/out' | grep -q 'no profile in 1 cell: ptrace is not allowed' &&
	 ! grep -q 'top share' '$WORK/out'"

cb report "$GOLDEN"
check "a file without profile lines: no such table" sh -c \
	"! grep -q 'Which code ran' '$WORK/out'"
cb report "$GOLDEN" --format json
check "...and no explain key in its JSON" sh -c "jq -e '.[0] | has(\"explain\") | not' '$WORK/out' >/dev/null"

# A profile line whose cell is not an object, as the file's last line but one.
n=$(wc -l <"$F")
sed "$((n - 1))s/\"cell\":{[^}]*}/\"cell\":\"sha256\"/" "$F" >"$WORK/bad.jsonl"
cb report "$WORK/bad.jsonl"
check "a bad profile line: exit 2 naming the file and line" sh -c \
	"test \"\$(cat '$WORK/status')\" = 2 && grep -q 'bad.jsonl:$((n - 1)): profile line: \"cell\" is not an object' '$WORK/err'"

# Profiles never enter a headline or a verdict: the report without them is
# the report with them, up to the explain section.
grep -v '"type":"profile"' "$F" >"$WORK/plain.jsonl"
cp "$F" "$WORK/profiled.jsonl"
cb report "$WORK/profiled.jsonl" --format json
jq '.[0] | del(.explain, .file)' "$WORK/out" >"$WORK/with.json"
cb report "$WORK/plain.jsonl" --format json
jq '.[0] | del(.file)' "$WORK/out" >"$WORK/without.json"
check "JSON of the file without its profile lines: the same headlines and verdicts" \
	cmp -s "$WORK/with.json" "$WORK/without.json"
check "...and not vacuously: both have winners and cells" sh -c \
	"jq -e '(.winners.groups | length) > 0 and (.cells | length) == 6' '$WORK/with.json' >/dev/null"
cb report "$WORK/plain.jsonl" --format csv --table winners
sed 's/plain.jsonl/profiled.jsonl/' "$WORK/out" >"$WORK/without.csv"
cb report "$WORK/profiled.jsonl" --format csv --table winners
check "CSV winners: the same with and without the profile lines" cmp -s "$WORK/out" "$WORK/without.csv"

done_testing
