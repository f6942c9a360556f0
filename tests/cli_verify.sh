#!/bin/sh
# verify: every vector on every engine, agreement on the generated input.
. "${top_srcdir:-.}/tests/lib.sh"
plan 5

usable=$("$CRYPTOBENCH" engines --json | jq '[.[] | select(.kind == "library" and .usable)] | length')
if [ -n "${CB_SANITIZED:-}" ] && [ "$usable" -gt 0 ]; then
	# Under the sanitizers (make check-sanitized) the library engines alone:
	# a worker's vectors run in its runtime, which they do not see, and the
	# plain suite verifies them.
	cb verify $("$CRYPTOBENCH" engines --json | jq -r '[.[] | select(.kind == "library") | .name] | join(" ")')
else
	cb verify
fi
if [ "$usable" -eq 0 ]; then
	# A build with every library configured out has nothing to verify, and says so.
	check "with no crypto engine, verify fails (exit 1)" status_is 1
	skip 1 "no crypto engine: no matrix to print"
else
	check "verify passes ($usable crypto engines usable)" status_is 0
	check "verify prints a matrix" out_has "sha256"
fi
# kcapi: where the kernel lacks its interface (no AF_ALG here, or no
# crypto_user), verify lists it as unusable with the reason engines gives;
# where it has it, its vectors pass (tests/cli_kcapi_qemu.sh boots such a
# kernel).
kcapi=$("$CRYPTOBENCH" engines --json | jq -r '.[] | select(.name == "kcapi") | if .usable then "usable" else .why end')
case $kcapi in
"")
	skip 1 "the kcapi engine is not built"
	;;
usable)
	check "kcapi is usable here and passes verify" "$CRYPTOBENCH" verify kcapi
	;;
*)
	check "kcapi is unusable here and verify says why: $kcapi" \
		sh -c "grep -qxF 'unusable: kcapi: $kcapi' '$WORK/out' && printf '%s' '$kcapi' | grep -q 'AF_ALG\|crypto_user'"
	;;
esac
if "$CRYPTOBENCH" engines | grep -q '^openssl .*library  OpenSSL'; then
	CRYPTOBENCH_FAULT=openssl "$CRYPTOBENCH" verify openssl >"$WORK/out" 2>&1
	echo $? >"$WORK/status"
	check "a corrupted engine fails verify (exit 1)" status_is 1
else
	skip 1 "the openssl engine is not built"
fi
cb verify nosuchengine
check "an unknown engine exits 2" status_is 2
done_testing
