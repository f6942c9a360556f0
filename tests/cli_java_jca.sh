#!/bin/sh
# The java-jca worker (core/engines/workers/java/Worker.java) spoken to
# directly: its hello names the JVM, the Java release and a provider and
# both calls for every algorithm it offers; its own JSON reader refuses
# malformed and mistyped requests with an error answer and goes on to the
# next request; a cell's first generated trial is warmed up and says how,
# the same cell's next is not, a known-answer request never is, nor one
# with "warmup": false (worker-check's); decryption
# gives back the bytes whose digest the worker reports, a forged tag is
# rejected. Then `cryptobench engines` and `verify` through the engine.
# Without a JDK the engine is unavailable and every point skips.
. "${top_srcdir:-.}/tests/lib.sh"

plan 14
"$CRYPTOBENCH" engines >"$WORK/engines" 2>&1
JAVA=$(sed -n 's/^java-jca features: .*"executable":"\([^"]*\)".*/\1/p' "$WORK/engines")
CLASSES="${top_builddir:-.}/core/engines/workers/java/classes"
if [ -z "$JAVA" ] || [ ! -r "$CLASSES/Worker.class" ]; then
	skip 14 "java-jca is not usable here: $(grep '^java-jca ' "$WORK/engines" | head -n 1)"
	exit 0
fi

G='"input":{"generator":"xorshift32","seed":7,"unit":1048576}'
run() { printf '{"type":"run","id":%s,"algorithm":"%s","op":"%s","size":%s,"calls":%s%s,%s}\n' "$@"; }
{
	echo '{"type":"run","id":1,}'
	echo '{"type":"run","id":2,"id":3}'
	echo '{"type":"run","id":4,"algorithm":"sha256","op":"hash","size":"64","calls":1,'"$G"'}'
	run 5 sha256 hash 64 3 "" "$G"
	run 6 sha256 hash 64 3 "" "$G"
	echo '{"type":"run","id":7,"algorithm":"sha256","op":"hash","size":3,"calls":1,"input":{"base64":"YWJj"}}'
	run 8 aes-128-gcm decrypt 100 2 ',"output":"fresh"' "$G"
	run 9 aes-128-gcm decrypt-forged 100 2 "" "$G"
	run 10 aes-128-cbc decrypt-forged 64 1 "" "$G"
	run 11 sha512 hash 64 2 ',"warmup":false' "$G"
} >"$WORK/requests"
"$JAVA" -cp "$CLASSES" Worker <"$WORK/requests" >"$WORK/answers" 2>"$WORK/stderr"
# holds FILTER: the jq FILTER holds for the answers, all in one array.
holds() { jq -se "$1" "$WORK/answers" >/dev/null; }
# answer ID FILTER: the jq FILTER holds for the answer with ID.
answer() { jq -se "map(select(.id == $1)) | length == 1 and (.[0] | $2)" "$WORK/answers" >/dev/null; }

check "the hello: protocol 2, the JVM and Java release, a provider and both calls per algorithm" \
	holds '.[0] | .type == "hello" and .protocol == 2 and .engine == "java-jca"
		and (.runtime | test("VM .* \\(Java [0-9]")) and (.algorithms | length) >= 10'
check "the hello names SUN for the digests and SunJCE for the ciphers, and calls for every op" \
	holds '.[0] as $h | ($h.providers.sha256 | startswith("SUN "))
		and ($h.providers["aes-256-gcm"] | startswith("SunJCE "))
		and all($h.algorithms | to_entries[]; .key as $a | $h.providers[$a] != null
			and all(.value[]; $h.calls[$a][.].fresh != null and
				(. as $o | ["sign", "verify", "verify-forged", "derive", "keygen"] | index($o) != null
				 or $h.calls[$a][$o].reuse != null)))'
check "one answer per request, in order, and nothing else on stdout" \
	test "$(jq -sc '[.[1:][] | .id]' "$WORK/answers")" = '[null,null,4,5,6,7,8,9,10,11]'
check "a malformed line (a trailing comma) is answered with an error naming the column" \
	holds '.[1] | .status == "error" and (.error | test("malformed JSON at column 22: expected a key"))'
check "a duplicate key is refused as malformed" \
	holds '.[2] | .status == "error" and (.error | test("duplicate key \"id\""))'
check "a string where a number belongs is an error naming the field" \
	answer 4 '.status == "error" and (.error | test("size must be an integer"))'
check "a cell's first generated trial is warmed up until steady or the cap, and says how" \
	answer 5 '.status == "ok" and .warmup.calls >= 20000 and (.warmup.steady | type) == "boolean" and .warmup.ns > 0'
check "the same cell's next trial is not warmed up again" answer 6 '.warmup.calls == 0'
check "a known-answer request is not warmed up, and gives SHA-256(abc)" \
	answer 7 '(has("warmup") | not) and .output == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="'
check "a cell's first trial asked with \"warmup\": false is not warmed up" \
	answer 11 '.status == "ok" and (has("warmup") | not)'
# field ID FIELD: the raw value of FIELD in the answer with ID.
field() { jq -sr "map(select(.id == $1))[0] | $2" "$WORK/answers"; }
check "decryption (fresh) gives back the plaintext the worker's input digest is of" \
	test "$(field 8 .output | base64 -d | sha256sum | cut -c1-64)" = "$(field 8 .input_sha256)"
check "a forged tag is rejected by every call, with no output; no forgery is offered for CBC" \
	test "$(field 9 '.status + "/" + .output')/$(field 10 .status)" = "rejected//error"
check "cryptobench engines lists java-jca with its runtime and providers" \
	grep -Eq '^java-jca +process +OpenJDK.*\(Java [0-9.]+\), JCA providers SUN [0-9.]+, (.*, )?SunJCE [0-9.]+' "$WORK/engines"
cb verify java-jca
check "cryptobench verify java-jca: every vector and the agreement pass" status_is 0
done_testing
