#!/bin/sh
# One option parser for every command: names matched whole (an abbreviation
# is refused with the option it was meant to be, exit 2), the same message
# shape everywhere, "--name V" and "--name=V" alike, and an output that
# cannot be written is exit 1 with a message, not a silently cut output.
. "${top_srcdir:-.}/tests/lib.sh"
plan 20
F="$top_srcdir/tests/golden/runs/run-1.jsonl"
G="$top_srcdir/tests/golden/runs/run-2.jsonl"

# refused MESSAGE: exit 2, and stderr is that one line.
refused() {
	status_is 2 && [ "$(wc -l <"$WORK/err")" -eq 1 ] && err_has "$1"
}

cb run --eng sim --algorithms sha256 --sizes 64B --dry-run
check "run --eng: refused, did you mean --engines" refused "^cryptobench run: unknown option '--eng'; did you mean '--engines'?"
cb report --form text "$F"
check "report --form: refused, did you mean --format" refused "^cryptobench report: unknown option '--form'; did you mean '--format'?"
cb compare --detail "$F" "$G"
check "compare --detail: refused, did you mean --details" refused "^cryptobench compare: unknown option '--detail'; did you mean '--details'?"
cb plot --statistc median -o "$WORK/p" "$F"
check "plot --statistc (a typo): did you mean --statistic" refused "^cryptobench plot: unknown option '--statistc'; did you mean '--statistic'?"
cb export --out "$WORK/x.csv" "$F"
check "export --out: did you mean --output" refused "^cryptobench export: unknown option '--out'; did you mean '--output'?"
cb fleet slurm --node 2 -o "$WORK/f" x.lua
check "fleet slurm --node: did you mean --nodes" refused "^cryptobench fleet: unknown option '--node'; did you mean '--nodes'?"
cb report --zzzzzz "$F"
check "an option near none: no suggestion" sh -c "grep -q \"unknown option '--zzzzzz' (see\" '$WORK/err'"
cb report --format=xml "$F"
check "report and export say an unknown format alike (report)" refused "^cryptobench report: unknown format 'xml' (text, markdown, csv, json, html)"
cb export --format=xml "$F"
check "...(export)" refused "^cryptobench export: unknown format 'xml' (csv, json)"
cb report "$F" --format
check "an option without its value: refused, named" refused "^cryptobench report: --format wants a value"
cb run --quick=yes x.lua
check "a flag given a value: refused, named" refused "^cryptobench run: --quick takes no value"
cb report --format=json "$F"
check "--name=V works" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && jq -e . '$WORK/out' >/dev/null"
cb report "$F" --format json
check "...and --name V after the operand" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && jq -e . '$WORK/out' >/dev/null"
cb run --engines=sim --algorithms sha256 --sizes 64B --dry-run -o"$WORK/r.jsonl"
check "run: -oFILE and --name=V still work" status_is 0

# A full output: exit 1 with one line, for every command that prints.
for c in report compare engines; do
	case $c in
	report) set -- report "$F" ;;
	compare) set -- compare "$F" "$G" ;;
	engines) set -- engines ;;
	esac
	"$CRYPTOBENCH" "$@" >/dev/full 2>"$WORK/err"
	echo $? >"$WORK/status"
	check "$c > /dev/full: exit 1, one line saying the output cannot be written" sh -c "[ \$(cat '$WORK/status') -eq 1 ] && [ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q '^cryptobench $c: cannot write the output: No space left on device' '$WORK/err'"
done
cb_full() {
	"$CRYPTOBENCH" "$@" >/dev/full 2>"$WORK/err"
	echo $? >"$WORK/status"
}
cb_full export "$F"
check "export > /dev/full: exit 1, named" sh -c "[ \$(cat '$WORK/status') -eq 1 ] && grep -q '^(standard output): cannot write: No space left on device' '$WORK/err'"
cb report "$F"
check "report with room: exit 0, nothing on stderr" sh -c "[ \$(cat '$WORK/status') -eq 0 ] && [ ! -s '$WORK/err' ] && [ -s '$WORK/out' ]"
cb_full input 1KiB
check "input > /dev/full: exit 1, with the message" sh -c "[ \$(cat '$WORK/status') -eq 1 ] && grep -q '^cryptobench input: cannot write the output' '$WORK/err'"
done_testing
