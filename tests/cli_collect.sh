#!/bin/sh
# paper/collect.sh's plumbing, measuring nothing real: its table covers every
# folder of paper/data but the second CPU's, and its --plan total is the one
# the script's header and paper/data/README.md state; a folder marked
# complete is skipped and a folder named is measured again whatever its
# state. Then COLLECT_QUICK=1 on the sim validation folder (virtual time),
# with an openssl on PATH that prints fixed speeds: the folder gets its runs
# compressed, noise.txt with the machine and the noise before and after, and
# collected.txt last; run again with every folder complete, nothing is
# measured. COLLECT_QUICK=1 refuses to
# write into paper/data.
. "${top_srcdir:-.}/tests/lib.sh"
plan 9
COLLECT="$top_srcdir/paper/collect.sh"
DATA="$top_srcdir/paper/data"
collect() { sh "$COLLECT" "$@" >"$WORK/out" 2>"$WORK/err"; echo $? >"$WORK/status"; }

# 1: the table's folders are paper/data's, but key-scaling-intel.
collect --plan "$CRYPTOBENCH" "$top_srcdir" "$WORK/none"
table_covers() {
	status_is 0 || return 1
	sed -n '2,$p' "$WORK/out" | grep -v '^all folders:' | cut -d' ' -f1 | sort >"$WORK/listed"
	find "$DATA" -mindepth 1 -maxdepth 1 -type d ! -name key-scaling-intel -exec basename {} \; |
		sort >"$WORK/folders"
	cmp -s "$WORK/listed" "$WORK/folders" ||
		{ diag "listed, not folders / folders, not listed: $(comm -3 "$WORK/listed" "$WORK/folders" | tr '\n' ' ')"; false; }
}
check "--plan lists every folder of paper/data but key-scaling-intel" table_covers

# 2: the total --plan adds up is the one stated.
total_stated() {
	total=$(sed -n 's/^all folders: \(.*\) at worst;.*/\1/p' "$WORK/out")
	[ -n "$total" ] || { diag "no total: $(tail -n 1 "$WORK/out")"; return 1; }
	grep -q "$total at worst" "$COLLECT" || { diag "collect.sh's header does not say $total"; return 1; }
	grep -q "$total at worst" "$top_srcdir"/paper/data/README.md || { diag "paper/data/README.md does not say $total"; false; }
}
check "the --plan total is the one the header and paper/data/README.md state" total_stated

# 3-4: a complete folder is skipped, unless named or --again.
mkdir -p "$WORK/marked/sweep" && echo "ended: then" >"$WORK/marked/sweep/collected.txt"
collect --plan "$CRYPTOBENCH" "$top_srcdir" "$WORK/marked"
skipped() {
	grep -q '^sweep .*complete (then)$' "$WORK/out" &&
		grep -q '^key-scaling .*not measured; to measure$' "$WORK/out" &&
		! grep -q 'to measure now: '"$total" "$WORK/out" ||
		{ diag "$(head -n 3 "$WORK/out")"; false; }
}
check "a folder with collected.txt is complete, and left out" skipped
collect --plan "$CRYPTOBENCH" "$top_srcdir" "$WORK/marked" sweep
named() { grep -q '^sweep .*complete (then); to measure$' "$WORK/out" && ! grep -q '^key-scaling .*to measure' "$WORK/out"; }
check "a folder named is measured, complete or not, and no other" named

# 5-8: COLLECT_QUICK=1 on the sim validation folder, openssl speed faked.
mkdir -p "$WORK/bin"
cat >"$WORK/bin/openssl" <<'EOF'
#!/bin/sh
echo "+F:1:sha256:1800000000.00"
EOF
chmod +x "$WORK/bin/openssl"
PATH="$WORK/bin:$PATH" COLLECT_QUICK=1 collect "$CRYPTOBENCH" "$top_srcdir" "$WORK/data" validation-aa
folder_made() {
	status_is 0 || return 1
	[ "$(ls "$WORK/data/validation-aa"/run-*.jsonl.zst | wc -l)" -eq 5 ] &&
		! ls "$WORK/data/validation-aa"/*.jsonl >/dev/null 2>&1 ||
		{ diag "$(ls "$WORK/data/validation-aa")"; false; }
}
check "COLLECT_QUICK=1: five runs, compressed" folder_made
noise_written() {
	f=$WORK/data/validation-aa/noise.txt
	grep -q '^kernel: ' "$f" && grep -q '^load: ' "$f" &&
		[ "$(grep -c '^  CPU time: mean 1800.0 MB/s, CV 0.00%$' "$f")" -eq 2 ] &&
		grep -q '^noise before' "$f" && grep -q '^noise after' "$f" &&
		grep -q 'CV 0.00%' "$WORK/err" || { diag "$(cat "$f")"; false; }
}
check "noise.txt: the machine and the noise before and after, shown too" noise_written
stamped() {
	f=$WORK/data/validation-aa/collected.txt
	grep -q '^command: cryptobench run scenarios/paper/validation.lua .*--runs 5' "$f" &&
		grep -q '^ended: ' "$f" && "$CRYPTOBENCH" compare "$WORK/data/validation-aa" >/dev/null ||
		{ diag "$(cat "$f")"; false; }
}
check "collected.txt names the command; compare reads the folder" stamped
# The others marked complete: a run again measures nothing.
for d in $(cut -d' ' -f1 "$WORK/folders"); do
	[ "$d" = validation-aa ] || { mkdir -p "$WORK/data/$d" && echo "ended: then" >"$WORK/data/$d/collected.txt"; }
done
cp "$WORK/data/validation-aa/collected.txt" "$WORK/stamp"
PATH="$WORK/bin:$PATH" COLLECT_QUICK=1 collect "$CRYPTOBENCH" "$top_srcdir" "$WORK/data"
all_skipped() {
	status_is 0 && err_has "every folder is complete" && ! grep -q '^paper-data: ' "$WORK/err" &&
		cmp -s "$WORK/stamp" "$WORK/data/validation-aa/collected.txt"
}
check "run again with every folder complete: nothing measured" all_skipped

# 9: no quick data into the paper's.
COLLECT_QUICK=1 collect "$CRYPTOBENCH" "$top_srcdir" "$DATA" validation-aa
check "COLLECT_QUICK=1 refuses paper/data" sh -c "[ \$(cat '$WORK/status') = 2 ] && grep -q 'another DATA' '$WORK/err'"

done_testing
