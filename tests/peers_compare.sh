#!/bin/sh
# The table of tests/bench/peers.sh (tests/bench/peers/compare.py) on
# alternations written here, no timing: the median of the alternations'
# ratios and their range, the exit status a cell outside +/-5% gives with and
# without an entry in the table of known differences, a size "*" entry, an
# entry whose cell is now within, the tries the CPU's speed made peers.sh
# repeat, a peer's cell with no cryptobench cell, and a malformed entry.
. "${top_srcdir:-.}/tests/lib.sh"
plan 7

compare=${top_srcdir:-.}/tests/bench/peers/compare.py
if ! command -v python3 >/dev/null 2>&1; then
	skip 7 "no python3"
	done_testing
	exit
fi

# cells DIR K LINES: DIR/cb-K.tsv or DIR/peer-K.tsv from "label alg size ns" lines.
cells() {
	printf '%s\n' "$3" | tr ' ' '\t' >"$1/$2.tsv"
}

d=$WORK/alt
mkdir "$d"
for k in 1 2 3; do
	cells "$d" "cb-$k" "dotnet sha256 64 100
dotnet sha512 64 100
dotnet sha512 16384 1000
dotnet-output=fresh sha256 64 200"
done
# sha256 64 B: 1.01, 0.99, 1.02 (within); sha512 64 B 0.90 in each; sha512
# 16 KiB 0.80, 0.85, 0.70; fresh sha256 64 B 1.00.
cells "$d" peer-1 "dotnet sha256 64 101
dotnet sha512 64 90
dotnet sha512 16384 800
dotnet-output=fresh sha256 64 200"
cells "$d" peer-2 "dotnet sha256 64 99
dotnet sha512 64 90
dotnet sha512 16384 850
dotnet-output=fresh sha256 64 200"
cells "$d" peer-3 "dotnet sha256 64 102
dotnet sha512 64 90
dotnet sha512 16384 700
dotnet-output=fresh sha256 64 200"
echo "CPU time: mean 1700.0 MB/s, CV 0.50%" >"$d/noise-start.txt"
echo "CPU time: mean 1710.0 MB/s, CV 0.40%" >"$d/noise-end.txt"
# Alternation 1 took two tries, 3 took three and was kept though it moved.
printf 'dotnet\t1\t1\t1000\t1000\t950\t5.3\trepeated
dotnet\t1\t2\t1000\t1005\t1002\t0.5\tkept
dotnet\t2\t1\t1001\t1000\t1003\t0.3\tkept
dotnet\t3\t1\t900\t1000\t1000\t11.1\trepeated
dotnet\t3\t2\t1000\t1042\t1000\t4.2\tkept
dotnet\t3\t3\t1000\t1000\t940\t6.4\trepeated
' >"$d/steady.tsv"

# table KNOWN-LINES: compare.py on $d with those entries; output in $WORK/out, status in $WORK/status.
table() {
	printf '# a comment line\n%s' "$1" >"$WORK/known.tsv"
	python3 "$compare" "$d" 3 "$WORK/known.tsv" 3 >"$WORK/out" 2>&1
	echo $? >"$WORK/status"
}
# says STATUS LINE...: the last table exited STATUS ("any": either way) and
# printed each LINE.
says() {
	says_status=$(cat "$WORK/status")
	[ "$1" = any ] || [ "$says_status" = "$1" ] || { diag "exit status $says_status, not $1"; return 1; }
	shift
	for line; do
		grep -qF -- "$line" "$WORK/out" || { diag "no line with: $line"; return 1; }
	done
}

table ""
check "the median of the alternations' ratios, with their range" \
	says any "| dotnet | dotnet sha512 16 KiB | BenchmarkDotNet | 0.800 | 0.700–0.850 | no | UNEXPLAINED |"
check "an unexplained cell outside +/-5% fails the table" \
	says 1 "2 of 4 cells within ±5%; 0 outside with a known difference, 2 unexplained"

entry_512_64=$(printf 'dotnet\tdotnet\tsha512\t64\t0.900 measured\tthe two loops differ\n')
entry_512_all=$(printf 'dotnet\tdotnet\tsha512\t*\t0.8 at every size\tthe same cause everywhere\n')
entry_256=$(printf 'dotnet\tdotnet\tsha256\t64\t0.7 once\twas slower once\n')
table "$entry_512_64
$entry_512_all
"
check "a recorded difference explains its cell, and the table passes" \
	says 0 "| 0.900 | 0.900–0.900 | no | 0.900 measured: the two loops differ |" \
	"2 of 4 cells within ±5%; 2 outside with a known difference, 0 unexplained"

table "$entry_512_all
$entry_256
"
check "a * entry covers every size; an entry whose cell is within is not seen now" \
	says any "| 0.900 | 0.900–0.900 | no | 0.8 at every size: the same cause everywhere |" \
	"| 0.800 | 0.700–0.850 | no | 0.8 at every size: the same cause everywhere |" \
	"| 1.010 | 0.990–1.020 | yes | (recorded: 0.7 once; not seen now) |"

check "the tries repeated, and an alternation kept though the CPU's speed moved" \
	says any "  dotnet: 1: 1000 1005 1002 (0.5%, 2 tries); 2: 1001 1000 1003 (0.3%); 3: 1000 1042 1000 (4.2%, 3 tries)" \
	"3 tries repeated; 1 alternations kept though the CPU's speed moved more than 3%: dotnet 3 (4.2%)"

printf 'dotnet\tsha256\t16384\t5000\n' >>"$d/peer-2.tsv"
table "$entry_512_all
"
check "a peer's cell with no cryptobench cell fails the table, named" \
	says 1 "no cryptobench cell for the peer's dotnet sha256 16 KiB"

table "$(printf 'dotnet\tdotnet\tsha512\t64\tfive fields only')
"
check "a malformed entry is an error naming its file and line" \
	says 1 "known.tsv:2: want 6 tab-separated fields"
done_testing
