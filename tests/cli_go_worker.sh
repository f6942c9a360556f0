#!/bin/sh
# The go-crypto engine (core/engines/go_crypto.c, core/engines/workers/go/):
# where configure found no `go` it is listed unavailable, saying the worker
# is not built; where it did, it is usable, names Go's version and library,
# offers ChaCha20-Poly1305 exactly when golang.org/x/crypto was found
# (GO_TAGS), and passes verify. Then the worker itself, spoken to over the
# protocol: a library panic (CBC on a length that is not whole blocks) is an
# error answer and the worker goes on; a forged tag is rejected with an empty
# output; the input and the reused output are placed as asked, the stack
# not claimed.
. "${top_srcdir:-.}/tests/lib.sh"
plan 8

cb engines --json
jq '.[] | select(.name == "go-crypto")' "$WORK/out" >"$WORK/go.json"
# go FILTER: whether go-crypto's entry of `engines --json` passes the jq FILTER.
go() { jq -e "$1" "$WORK/go.json" >/dev/null; }
if [ -z "${GO:-}" ]; then
	check "without go, go-crypto is unavailable and says its worker is not built" \
		go '(.usable | not) and (.why | test("Go worker is not built"))'
else
	gover=$("$GO" version | sed -n 's/^go version go\([^ ]*\) .*/\1/p')
	check "go-crypto is usable, with Go $gover and Go's standard library" \
		go ".usable and (.version | startswith(\"Go $gover, Go standard library crypto\"))"
fi
if ! go .usable; then
	skip 7 "go-crypto is not usable here: $(jq -r .why "$WORK/go.json")"
	done_testing
	exit $?
fi

if [ "${GO_TAGS:-}" = xcrypto ]; then
	check "golang.org/x/crypto found: chacha20-poly1305 offered, and the library names it" \
		go '.features.calls["chacha20-poly1305"] and (.version | test("golang.org/x/crypto"))'
else
	check "no golang.org/x/crypto: chacha20-poly1305 not offered" \
		go '.features.calls["chacha20-poly1305"] == null'
fi

cb verify go-crypto
check "verify go-crypto passes (vectors and agreement)" status_is 0

W=${top_builddir:-.}/core/engines/workers/go/bin/cryptobench-worker
abc=$(printf abc | openssl dgst -sha256 -binary | base64)
{
	echo '{"type":"run","id":1,"algorithm":"aes-128-cbc","op":"encrypt","size":15,"calls":1,"key":"counting","iv":"counting","input":{"base64":"AAAAAAAAAAAAAAAAAAAA"}}'
	echo '{"type":"run","id":2,"algorithm":"sha256","op":"hash","size":3,"calls":2,"input":{"base64":"YWJj"}}'
	echo '{"type":"run","id":3,"algorithm":"aes-128-gcm","op":"decrypt-forged","size":4096,"calls":3,"output":"reuse","key":"counting","iv":"counting","aad":null,"input":{"generator":"xorshift32","seed":20260804,"unit":1048576}}'
	echo '{"type":"run","id":4,"algorithm":"sha256","op":"hash","size":4096,"calls":1,"output":"reuse","input":{"generator":"xorshift32","seed":20260804,"unit":1048576},"input_offset":100,"layout":{"stack":32,"out":192}}'
} | "$W" >"$WORK/answers" 2>"$WORK/werr"
# answer ID FILTER: whether the answer to request ID passes the jq FILTER.
answer() { jq -e -s "[.[] | select(.type == \"result\" and .id == $1)] | length == 1 and (.[0] | $2)" "$WORK/answers" >/dev/null; }
check "the worker greets first, then answers each request once, in order" \
	test "$(jq -r '.type + (.id // "" | tostring)' "$WORK/answers" | tr '\n' ' ')" = "hello result1 result2 result3 result4 "
check "CBC on 15 bytes: an error answer of one line naming the panic" \
	answer 1 '.status == "error" and (.error | test("^panic: .*not full blocks$"))'
check "...and the worker goes on: SHA-256 of abc right after it" \
	answer 2 ".status == \"ok\" and .output == \"$abc\""
check "a forged GCM tag: every call rejects it, and the output is empty (not missing)" \
	answer 3 '.status == "rejected" and .output == "" and .calls == 3'
sum=$("$CRYPTOBENCH" input 4KiB | sha256sum | cut -c1-64)
check "the input at offset 100 and the digest at 192 past a page, the stack not claimed" \
	answer 4 ".placed == {\"input_offset\": 100, \"out\": 192, \"stack\": null} and .timed.output == \"reuse\" and .input_sha256 == \"$sum\""
done_testing
