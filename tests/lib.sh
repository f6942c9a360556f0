# lib.sh: TAP helpers for the CLI tests (sourced).
#   check NAME COMMAND...   a test point: ok when COMMAND exits 0
#   done_testing            the plan line, and the exit status
: "${CRYPTOBENCH:=${top_builddir:-.}/cryptobench}"
: "${top_srcdir:=.}"
tap_n=0
tap_failed=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cb-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

check() {
	name=$1
	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $name"
	else
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_n - $name"
	fi
}

diag() {
	echo "# $*"
}

done_testing() {
	echo "1..$tap_n"
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
