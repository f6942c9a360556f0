#!/bin/sh
# cryptobench plot of a file with profile lines (tests/explain/cross-runtime.jsonl:
# openssl, go-crypto and dotnet profiled at 1 MiB, java-jca refused): an
# extensions chart per algorithm, op and size, a bar per cell whose segments
# are the shares of its samples by the class where the time stops, in the
# classes' fixed order; the refused cell's row says why; no such chart for a
# file without profile lines, and a note where every profile was refused;
# drawn by gnuplot, and in the HTML page beside the tables of which code ran.
. "${top_srcdir:-.}/tests/lib.sh"
plan 18
F="$top_srcdir/tests/explain/cross-runtime.jsonl"
GOLDEN="$top_srcdir/tests/golden/runs/run-1.jsonl"
GP=$(command -v gnuplot || true)
D="$WORK/charts"
SHA="$D/extensions-sha256-hash-1MiB"
GCM="$D/extensions-aes-256-gcm-encrypt-1MiB"
CLASSES="base sse ssse3/sse4 avx avx2 avx512 aes-ni vaes pclmul vpclmulqdq sha-ni bmi adx asimd sve aes pmull sha1 sha2 sha512 sha3 other unknown"
TITLE="sha256 hash 1 MiB: where the time stops, by instruction-set class"

# plot_without_gnuplot FILE DIR: plot FILE into DIR, data and scripts only.
plot_without_gnuplot() {
	env CRYPTOBENCH_GNUPLOT=/nonexistent/gnuplot "$CRYPTOBENCH" plot "$1" -o "$2" \
		--timelines none >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}

# share_is DAT LABEL CLASS WANT: the share of CLASS in the row whose label's
# first word is LABEL is WANT (to the data file's six digits); the column is
# the one the data file's header gives CLASS.
share_is() {
	k=$(sed -n 's/^#   order: //p' "$1" | tr ' ' '\n' | grep -n -x -F -- "$3" | cut -d: -f1)
	[ -n "$k" ] || { diag "$1 has no class $3"; return 1; }
	got=$(grep "^[0-9][0-9]* \"$2[ \"]" "$1" | sed 's/"[^"]*"/X/g' |
		awk -v k="$k" '{ print $(5 + k) }')
	awk -v a="$got" -v b="$4" 'BEGIN { exit !(a != "" && a - b < 1e-6 && b - a < 1e-6) }' ||
		{ diag "$2 $3: share '$got', wanted $4"; false; }
}

# row_sum_is_1 DAT LABEL: the shares of the row of LABEL add up to 1.
row_sum_is_1() {
	grep "^[0-9][0-9]* \"$2[ \"]" "$1" | sed 's/"[^"]*"/X/g' |
		awk '{ s = 0; for (i = 6; i <= NF; i++) s += $i }
		     END { exit !(NR == 1 && s > 0.999999 && s < 1.000001) }'
}

go_crypto_sha256() {
	share_is "$SHA.dat" go-crypto sha-ni 0 && share_is "$SHA.dat" go-crypto bmi 0.3245 &&
		share_is "$SHA.dat" go-crypto base 0.65
}

aes_gcm() {
	share_is "$GCM.dat" openssl aes-ni 0.5615 && share_is "$GCM.dat" openssl pclmul 0.2 &&
		share_is "$GCM.dat" go-crypto aes-ni 0.4875 && share_is "$GCM.dat" go-crypto sse 0.252
}

# is_png FILE: the PNG signature, and more than a header.
is_png() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
		[ "$(wc -c <"$1")" -gt 5000 ] || { diag "$1 is not a PNG image"; false; }
}

# drawn DIR: plot exited 0 and drew both charts as PNG images, without a
# complaint from the template.
drawn() {
	status_is 0 || return 1
	n=0
	for p in "$1"/extensions-*.png; do
		is_png "$p" || return 1
		n=$((n + 1))
	done
	[ "$n" -eq 2 ] && ! grep -q -e 'nothing to draw' -e 'gnuplot failed' -e 'line [0-9]' "$WORK/err" ||
		{ diag "$n charts; stderr: $(head -c 300 "$WORK/err")"; false; }
}

# line_of FILE TEXT: the number of the first line of FILE holding TEXT (0: none).
line_of() {
	n=$(grep -n -F -- "$2" "$1" | head -n 1 | cut -d: -f1)
	echo "${n:-0}"
}

# beside_explain PAGE: the chart's figure comes once, after the tables of
# which code ran and before the page's Charts section.
beside_explain() {
	img=$(line_of "$1" "alt=\"$TITLE\"")
	table=$(line_of "$1" 'data-table="explain-summary"')
	charts=$(line_of "$1" '<h2>Charts</h2>')
	[ "$(grep -c -F "alt=\"$TITLE\"" "$1")" -eq 1 ] && [ "$table" -gt 0 ] &&
		[ "$img" -gt "$table" ] && [ "$img" -lt "$charts" ] ||
		{ diag "figure at line $img, explain-summary at $table, Charts at $charts"; false; }
}

plot_without_gnuplot "$F" "$D"
check "plot of the profiled fixture exits 0" status_is 0
check "...an extensions chart per algorithm, op and size with profiles: two" \
	sh -c "[ \$(ls '$D'/extensions-*.gp | wc -l) -eq 2 ] && [ -s '$SHA.dat' ] && [ -s '$GCM.dat' ]"
check "...listed in plot's summary" out_has "$SHA.gp"
check "...a row per cell, in the report's order, the refused java-jca's included" sh -c \
	"[ \"\$(grep '^[0-9]' '$SHA.dat' | cut -d'\"' -f2 | cut -d' ' -f1 | tr '\n' ' ')\" = 'openssl go-crypto dotnet java-jca ' ]"
check "...the classes in their fixed order, in the data and to the template" sh -c \
	"grep -q -x -F '#   order: $CLASSES' '$SHA.dat' && grep -q -F \"'$CLASSES'\" '$SHA.gp'"
check "openssl: its engine's version, its samples and sampler in its row" \
	grep -q '^0 "openssl 3.0.19" 2000 "timer" "-"' "$SHA.dat"
check "...its time stops at sha-ni for 84.3% of its samples (1686 of 2000)" \
	share_is "$SHA.dat" openssl sha-ni 0.843
check "...and its shares add up to 1" row_sum_is_1 "$SHA.dat" openssl
check "dotnet: sha-ni 77% (1540 of 2000)" share_is "$SHA.dat" dotnet sha-ni 0.77
check "go-crypto: no sha-ni, bmi 32.45%, base 65%" go_crypto_sha256
check "AES-256-GCM: openssl aes-ni 56.15%, pclmul 20%; go-crypto aes-ni 48.75%, sse 25.2%" aes_gcm
check "java-jca, refused: no samples, the reason in its row" \
	grep -q '^3 "java-jca [^"]*" 0 "-" "no profile: ptrace is not allowed' "$SHA.dat"
check "the subtitle names the CPU and the notable extensions its flags offer" \
	grep -q -F "'AMD EPYC (kvm) · CPU flags: sha-ni aes-ni pclmul vaes vpclmulqdq avx512 avx2 · cross-runtime, 2026-12-02'" "$SHA.gp"

plot_without_gnuplot "$GOLDEN" "$WORK/plain"
check "a file without profile lines: no extensions chart, and not a word of it" sh -c \
	"[ \"\$(cat '$WORK/status')\" = 0 ] && [ -s '$WORK/plain/render.sh' ] &&
	 ! ls '$WORK/plain' | grep -q extensions && ! grep -q -i extensions '$WORK/out' '$WORK/err'"

# Every profile refused: the cells keep their reason, and no chart is drawn.
grep -v '"type":"profile".*"profile":{' "$F" >"$WORK/refused.jsonl"
plot_without_gnuplot "$WORK/refused.jsonl" "$WORK/refused"
check "every profile refused: no chart, a note saying why" sh -c \
	"[ \"\$(cat '$WORK/status')\" = 0 ] && ! ls '$WORK/refused' | grep -q extensions &&
	 grep -q 'note: no extensions chart for sha256 hash 1 MiB: no cell has a profile (ptrace is not allowed' '$WORK/err'"

if [ -z "$GP" ]; then
	skip 3 "gnuplot not installed"
	done_testing
	exit
fi
env CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" plot "$F" -o "$WORK/drawn" --timelines none \
	>"$WORK/out" 2>"$WORK/err"
echo $? >"$WORK/status"
check "drawn by gnuplot: both charts, PNG images, no complaint" drawn "$WORK/drawn"

env CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" report "$F" --format html -o "$WORK/page.html" \
	>"$WORK/out" 2>"$WORK/err"
check "HTML page: the chart once, beside the tables of which code ran" beside_explain "$WORK/page.html"
env CRYPTOBENCH_GNUPLOT="$GP" "$CRYPTOBENCH" report "$GOLDEN" --format html \
	-o "$WORK/plain.html" >"$WORK/out" 2>"$WORK/err"
check "...and a file without profile lines has none (but its other charts)" sh -c \
	"grep -q '<h2>Charts</h2>' '$WORK/plain.html' && ! grep -q 'where the time stops' '$WORK/plain.html'"
done_testing
