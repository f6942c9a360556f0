#!/bin/sh
# verify: every vector on every engine, agreement on the generated input.
. "${top_srcdir:-.}/tests/lib.sh"

cb verify
check "verify passes" status_is 0
check "verify prints a matrix" out_has "sha256"
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
