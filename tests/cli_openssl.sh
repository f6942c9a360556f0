#!/bin/sh
# The OpenSSL engine measures the right bytes: digests match sha256sum's,
# ciphertexts the published ones, and a corrupted output is caught.
. "${top_srcdir:-.}/tests/lib.sh"
D="$top_srcdir/tests/scenarios/cli/digest.lua"

if ! "$CRYPTOBENCH" engines | grep -q '^openssl .*library  OpenSSL'; then
	echo "1..0 # SKIP the openssl engine is not built"
	exit 0
fi
plan 19

cb input 128MiB
check "input 128MiB exits 0" status_is 0
check "sha256 of the 128 MiB input is the published 885a4d877a6979ff" sh -c "sha256sum < '$WORK/out' | grep -q '^885a4d877a6979ff'"

cb input 1MiB
want=$(sha256sum <"$WORK/out" | cut -c1-64)
cb run "$D" -o "$WORK/d.jsonl"
check "openssl sha256 1MiB runs" status_is 0
check "the recorded digest is what sha256sum gives for the same bytes" \
	sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | .digest' '$WORK/d.jsonl' | sort -u)\" = '$want' ]"
check "every trial is valid" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .valid' '$WORK/d.jsonl' | sort -u) = true ]"

cb run "$D" --set algorithm=aes-128-cbc --set op=encrypt -o "$WORK/c.jsonl"
check "openssl aes-128-cbc 1MiB runs" status_is 0
check "its ciphertext starts 452baef136354a6d, as every library agrees" \
	sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | .output' '$WORK/c.jsonl' | sort -u)\" = 452baef136354a6d ]"

cb run "$D" --set algorithm=aes-256-gcm --set op=decrypt-forged --set size=4KiB -o "$WORK/f.jsonl"
check "a forged tag is rejected: trials valid" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .valid' '$WORK/f.jsonl' | sort -u) = true ]"

for engine in openssl gcrypt nettle; do
	if ! "$CRYPTOBENCH" engines | grep -q "^$engine "; then
		skip 2 "the $engine engine is not built"
		continue
	fi
	cb run "$top_srcdir/tests/scenarios/cli/stream.lua" --set engine=$engine -o "$WORK/s-$engine.jsonl"
	check "$engine stream mode (hash, CBC and CTR both ways, mid-block sizes) runs" status_is 0
	check "...and every output checks out" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .valid' '$WORK/s-$engine.jsonl' | sort -u) = true ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/s-$engine.jsonl') -eq 40 ]"
done

CRYPTOBENCH_FAULT=openssl "$CRYPTOBENCH" run "$D" -o "$WORK/x.jsonl" >/dev/null 2>"$WORK/err"
check "with the fault switch every trial is invalid" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .valid' '$WORK/x.jsonl' | sort -u) = false ]"
check "...with the reason" sh -c "jq -r 'select(.type == \"trial\") | .error' '$WORK/x.jsonl' | grep -q 'digest mismatch'"
check "...and no timing" sh -c "! jq -e 'select(.type == \"trial\") | .ns' '$WORK/x.jsonl' >/dev/null 2>&1"
check "run warns about them" err_has "invalid"
cb report "$WORK/x.jsonl"
check "report shows n = 0 valid and the reason" sh -c "grep -q 'invalid trial' '$WORK/out' && grep -q 'digest mismatch' '$WORK/out'"
done_testing
