#!/bin/sh
# verify: every vector on every engine, agreement on the generated input.
. "${top_srcdir:-.}/tests/lib.sh"

usable=$("$CRYPTOBENCH" engines --json | jq '[.[] | select(.kind == "library" and .usable)] | length')
cb verify
if [ "$usable" -eq 0 ]; then
	# A build with every library configured out has nothing to verify, and says so.
	check "with no crypto engine, verify fails (exit 1)" status_is 1
else
	check "verify passes ($usable crypto engines usable)" status_is 0
	check "verify prints a matrix" out_has "sha256"
fi
check "kcapi, if built, is listed with its reason rather than failed" \
	sh -c "! grep -q kcapi '$WORK/out' || grep -q 'AF_ALG\|kcapi' '$WORK/out'"
if "$CRYPTOBENCH" engines | grep -q '^openssl .*library  OpenSSL'; then
	CRYPTOBENCH_FAULT=openssl "$CRYPTOBENCH" verify openssl >"$WORK/out" 2>&1
	echo $? >"$WORK/status"
	check "a corrupted engine fails verify (exit 1)" status_is 1
fi
cb verify nosuchengine
check "an unknown engine exits 2" status_is 2
done_testing
