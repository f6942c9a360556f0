# lib.sh: TAP helpers for the CLI tests (sourced).
#   plan N                  the plan, fixed in advance (first thing a test does)
#   check NAME COMMAND...   a test point: ok when COMMAND exits 0 (its status too)
#   skip N REASON           N test points skipped, each "ok # SKIP REASON"
#   done_testing            the exit status (and the plan line, if none was given)
: "${CRYPTOBENCH:=${top_builddir:-.}/cryptobench}"
: "${top_srcdir:=.}"
tap_n=0
tap_failed=0
tap_plan=
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cb-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

check() {
	tap_name=$1
	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $tap_name"
	else
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_n - $tap_name"
		return 1
	fi
}

plan() {
	tap_plan=$1
	echo "1..$tap_plan"
}

skip() {
	count=$1
	shift
	while [ "$count" -gt 0 ]; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $*"
		count=$((count - 1))
	done
}

diag() {
	echo "# $*"
}

done_testing() {
	if [ -z "$tap_plan" ]; then
		echo "1..$tap_n"
	elif [ "$tap_n" -ne "$tap_plan" ]; then
		diag "planned $tap_plan test points, ran $tap_n"
		return 1
	fi
	[ "$tap_failed" -eq 0 ]
}

# cb ARGS...: run cryptobench, keeping stdout, stderr and the status in $WORK.
cb() {
	"$CRYPTOBENCH" "$@" >"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}
status_is() { [ "$(cat "$WORK/status")" = "$1" ] || { diag "status $(cat "$WORK/status"), wanted $1: $(head -c 300 "$WORK/err")"; false; }; }
err_has() { grep -q -- "$1" "$WORK/err" || { diag "stderr lacks '$1': $(head -c 300 "$WORK/err")"; false; }; }
out_has() { grep -q -- "$1" "$WORK/out" || { diag "stdout lacks '$1'"; false; }; }
