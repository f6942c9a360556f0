#!/bin/sh
# cryptobench plot of public-key cells: a keysize chart per scheme, op and
# thread count (operations per second against the key size, a line per
# engine, sorted by key size, with guides from the fastest engine's smallest
# key), the report's figures in it, and no public-key cell in the throughput
# charts, which still draw the byte cells beside them.
. "${top_srcdir:-.}/tests/lib.sh"
plan 13

S="$top_srcdir/tests/scenarios/plot/keysize.lua"
GP=$(command -v gnuplot || true)
D="$WORK/charts"

# rows FILE BLOCK: the data rows of the block titled BLOCK.
rows() {
	awk -v b="\"$2\"" '/^"/ { in_b = ($0 == b); next } in_b && /^[0-9]/' "$1"
}

cb run "$S" -o "$WORK/k.jsonl"; check "the sim public-key scenario runs" status_is 0
env CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot "$CRYPTOBENCH" plot "$WORK/k.jsonl" -o "$D" \
	--timelines none >"$WORK/out" 2>"$WORK/err"
check "plot without gnuplot exits 0" test "$?" -eq 0
R="$D/keysize-rsa-pkcs1-sign-1thread"
check "a keysize chart per scheme, op and thread count (RSA and Ed25519, sign and verify, 1 and 2 threads)" \
	sh -c "[ \$(ls '$D'/keysize-*.gp | wc -l) -eq 8 ] && [ -s '$R.dat' ] && [ -s '$D/keysize-ed25519-verify-2threads.gp' ]"
check "...a block per engine, its rows in key order though the scenario lists them out of it" \
	sh -c "[ \"\$(grep -c '^\"sim-' '$R.dat')\" -eq 2 ] && [ \"\$(awk '/^\"sim-a\"/ { b = 1; next } /^\"/ { b = 0 } b && /^[0-9]/ { printf \"%s,\", \$1 }' '$R.dat')\" = 2048,3072,4096, ]"
check "...each row naming its key for the x axis" sh -c "grep -q '^3072 .* \"3072\"\$' '$R.dat' && grep -q '^255 .* \"Ed25519\"\$' '$D/keysize-ed25519-sign-1thread.dat'"

# The figures drawn are the report's.
cb report --format json "$WORK/k.jsonl"
want=$(jq '.[0].pk_cells[] | select(.key == "sim-b|rsa-3072-pkcs1|sign|32|1") | .headline.ops_per_s' "$WORK/out")
got=$(rows "$R.dat" sim-b | awk '$1 == 3072 { print $2 }')
check "the op/s drawn is the report's headline ($got vs $want)" \
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a > 0 && b > 0 && (a - b) / b < 1e-5 && (b - a) / b < 1e-5) }'
fast=$(jq '[.[0].pk_cells[] | select(.cell.algorithm == "rsa-2048-pkcs1" and .cell.op == "sign" and .cell.threads == 1) | .headline.ops_per_s] | max' "$WORK/out")
g0=$(awk -F"'" '/^call/ { print $(NF - 1) }' "$R.gp")
check "the guides start at the fastest engine's 2048-bit rate ($g0 vs $fast)" \
	awk -v a="$g0" -v b="$fast" 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-5 && (b - a) / b < 1e-5) }'
check "...and a scheme of one key size has none" sh -c "grep -q \"'255' '0'\$\" '$D/keysize-ed25519-sign-1thread.gp'"
check "no throughput chart holds a public-key cell" \
	sh -c "! ls '$D' | grep -q -e '^size-algorithm-rsa' -e '^size-algorithm-ed25519' -e '^threads-rsa' -e '^threads-ed25519' && ! grep -l -e rsa- -e ed25519 '$D'/size-engine-*.dat '$D'/threads-*.dat"
check "...while the byte cell keeps its charts" \
	sh -c "[ -s '$D/size-algorithm-sha256-hash-1thread.dat' ] && [ -s '$D/threads-sha256-hash-32B.dat' ] && grep -q '^\"sha256\"' '$D/size-engine-sim-a-1thread.dat'"

if [ -z "$GP" ]; then
	skip 3 "gnuplot not installed"
	done_testing
	exit
fi
env CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" plot "$WORK/k.jsonl" -o "$WORK/drawn" \
	--timelines none >"$WORK/out" 2>"$WORK/err"
check "plot with gnuplot exits 0" test "$?" -eq 0
check "...drawing every keysize chart" \
	sh -c "[ \$(ls '$WORK/drawn'/keysize-*.png | wc -l) -eq 8 ] && ! grep -q 'keysize' '$WORK/err'"
check "...as PNG images of more than a header" sh -c "for p in '$WORK/drawn'/keysize-*.png; do
	[ \"\$(od -An -tx1 -N8 \"\$p\" | tr -d ' \n')\" = 89504e470d0a1a0a ] && [ \$(wc -c <\"\$p\") -gt 5000 ] || exit 1; done"
done_testing
