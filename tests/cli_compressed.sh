#!/bin/sh
# Results files kept compressed: report, compare, plot and export read a
# .jsonl.gz or .jsonl.zst as they read the plain file (the format told by
# the first bytes, not the name; a folder scan takes them too), and a damaged
# compressed file is refused with exit 2 and one line naming it.
. "${top_srcdir:-.}/tests/lib.sh"
plan 11
SIM="$top_srcdir/tests/scenarios/sim/ab.lua"
D="$WORK/files"
mkdir -p "$D/plain" "$D/packed"

# Outputs name their files: compare them with the names made the same.
same_as() { sed 's/\.jsonl\.\(gz\|zst\)/.jsonl/g' "$WORK/out" | cmp -s - "$1" || {
	diag "differs from $1: $(sed 's/\.jsonl\.\(gz\|zst\)/.jsonl/g' "$WORK/out" | diff - "$1" | head -5)"
	false
}; }
one_line() { [ "$(wc -l <"$WORK/err")" -eq 1 ] || { diag "stderr: $(head -c 300 "$WORK/err")"; false; }; }

cb run "$SIM" --set rounds=6 --set seed=3 -o "$D/plain/run-1.jsonl"
check "a sim run" status_is 0
cb run "$SIM" --set rounds=6 --set seed=4 -o "$D/plain/run-2.jsonl"
status_is 0 || diag "second sim run failed: $(cat "$WORK/err")"
gzip -c "$D/plain/run-1.jsonl" >"$D/packed/run-1.jsonl.gz"
zstd -q -c "$D/plain/run-2.jsonl" >"$D/packed/run-2.jsonl.zst"
cp "$D/packed/run-1.jsonl.gz" "$D/gzip-named-plain.jsonl"

(cd "$D/plain" && "$CRYPTOBENCH" report run-1.jsonl >"$WORK/plain-1.txt")
(cd "$D/plain" && "$CRYPTOBENCH" report run-2.jsonl >"$WORK/plain-2.txt")
(cd "$D/packed" && "$CRYPTOBENCH" report run-1.jsonl.gz >"$WORK/out" 2>"$WORK/err")
check "report of the .jsonl.gz is the plain file's" same_as "$WORK/plain-1.txt"
(cd "$D/packed" && "$CRYPTOBENCH" report run-2.jsonl.zst >"$WORK/out" 2>"$WORK/err")
check "report of the .jsonl.zst is the plain file's" same_as "$WORK/plain-2.txt"
(cd "$D" && "$CRYPTOBENCH" report gzip-named-plain.jsonl >"$WORK/out" 2>"$WORK/err")
sed 's/gzip-named-plain/run-1/' "$WORK/out" >"$WORK/renamed" && mv "$WORK/renamed" "$WORK/out"
check "gzip data in a file named .jsonl is told by its bytes" same_as "$WORK/plain-1.txt"

(cd "$D" && "$CRYPTOBENCH" compare plain --format csv >"$WORK/plain-cmp.csv")
(cd "$D" && "$CRYPTOBENCH" compare packed --format csv >"$WORK/out" 2>"$WORK/err")
sed 's/packed/plain/g' "$WORK/out" >"$WORK/renamed" && mv "$WORK/renamed" "$WORK/out"
check "a folder of .jsonl.gz and .jsonl.zst compares as the plain folder" same_as "$WORK/plain-cmp.csv"
cb plot "$D/packed" -o "$WORK/charts"
check "plot reads a folder of compressed runs" status_is 0

(cd "$D/plain" && "$CRYPTOBENCH" export run-2.jsonl --format csv >"$WORK/plain-export.csv")
(cd "$D/packed" && "$CRYPTOBENCH" export run-2.jsonl.zst --format csv >"$WORK/out" 2>"$WORK/err")
check "export of the .jsonl.zst is the plain file's" same_as "$WORK/plain-export.csv"

# Damage: a gzip header with an unknown method, gzip and zstd data cut short.
{ printf '\037\213\011'; tail -c +4 "$D/packed/run-1.jsonl.gz"; } >"$D/method.jsonl.gz"
cb report "$D/method.jsonl.gz"
check "a corrupt .gz: exit 2, one line naming the file" \
	sh -c '"$0" && "$1" && grep -q "method.jsonl.gz:1: corrupt gzip data" "$2"' \
	"$(status_is 2 && echo true || echo false)" "$(one_line && echo true || echo false)" "$WORK/err"
size=$(wc -c <"$D/packed/run-1.jsonl.gz")
head -c $((size / 2)) "$D/packed/run-1.jsonl.gz" >"$D/cut.jsonl.gz"
cb compare "$D/cut.jsonl.gz" "$D/plain/run-2.jsonl"
check "a .gz cut short: exit 2, one line naming the file" \
	sh -c '"$0" && "$1" && grep -q "cut.jsonl.gz:[0-9]*: gzip data cut short" "$2"' \
	"$(status_is 2 && echo true || echo false)" "$(one_line && echo true || echo false)" "$WORK/err"
size=$(wc -c <"$D/packed/run-2.jsonl.zst")
head -c $((size / 2)) "$D/packed/run-2.jsonl.zst" >"$D/cut.jsonl.zst"
cb report "$D/cut.jsonl.zst"
check "a .zst cut short: exit 2, one line naming the file" \
	sh -c '"$0" && "$1" && grep -q "cut.jsonl.zst:[0-9]*: zstd data cut short" "$2"' \
	"$(status_is 2 && echo true || echo false)" "$(one_line && echo true || echo false)" "$WORK/err"

# --resume appends to a file: a compressed one is refused, left as it was.
sum=$(sha256sum <"$D/packed/run-1.jsonl.gz")
cb run "$SIM" --set rounds=6 --set seed=3 --resume "$D/packed/run-1.jsonl.gz"
check "--resume of a compressed file: refused, exit 2, file unchanged" \
	sh -c '"$0" && grep -q "cannot be resumed" "$1" && [ "$2" = "$(sha256sum <"$3")" ]' \
	"$(status_is 2 && echo true || echo false)" "$WORK/err" "$sum" "$D/packed/run-1.jsonl.gz"
done_testing
