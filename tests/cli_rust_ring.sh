#!/bin/sh
# rust-ring, the worker over Rust's ring crate (core/engines/workers/rust):
# listed with its compiler and ring's version, verify and worker-check pass,
# its hello names the copy its in-place AEAD calls need with "reuse" and no
# "reuse" for a digest, and, spoken to directly, a reused buffer still gives the
# answer of one call (the message is copied back before every in-place
# call), a forged tag is rejected by every call, a bad request or a line
# that is not JSON is answered with an error and the worker goes on. Last,
# its --bench mode (tests/bench/peers.sh's peer) prints one line per cell.
# Without cargo or Debian's ring crate the worker is not built: skipped,
# with the reason the engine gives.
. "${top_srcdir:-.}/tests/lib.sh"
: "${top_builddir:=.}"
plan 10
# jqe FILTER FILE...: whether jq's FILTER holds (jq -e, its output dropped).
jqe() { jq -e "$@" >/dev/null; }

BIN="$top_builddir/core/engines/workers/rust/target/release/cryptobench-rust-ring"
"$CRYPTOBENCH" engines --json >"$WORK/engines.json"
why=$(jq -r '.[] | select(.name == "rust-ring") | if .usable then "" else .why end' "$WORK/engines.json")
if [ -n "$why" ] || [ ! -x "$BIN" ]; then
	skip 10 "rust-ring is not usable here: ${why:-its worker is not built}"
	done_testing
	exit $?
fi

check "engines lists rust-ring usable, with rustc and ring 0.16.20" \
	jqe '.[] | select(.name == "rust-ring") | .usable and (.features.runtime | startswith("rustc "))
		and .features.library == "ring 0.16.20" and (.version | endswith(", ring 0.16.20"))' \
	"$WORK/engines.json"
cb verify rust-ring
check "verify rust-ring passes (vectors, agreement, forged tags)" status_is 0
cb worker-check --engine rust-ring
check "worker-check passes the worker (hello, vectors, input, malformed requests, exit)" status_is 0
check "the hello: reuse names the copy before the in-place seal and open; no reuse for a digest" \
	jqe '.[] | select(.name == "rust-ring") | .features.calls
		| (.["aes-256-gcm"].encrypt.reuse
			| endswith("once; in_out.copy_from_slice(data); key.seal_in_place_separate_tag(nonce, aad, in_out)"))
		and (.["chacha20-poly1305"].decrypt.reuse | test("; in_out.copy_from_slice\\([a-z_]+\\); key.open_in_place"))
		and .sha256.hash.reuse == null and (.sha512.hash.fresh | test("digest::digest"))' \
	"$WORK/engines.json"

# ask LINE...: the worker's answers to the request LINEs (the hello dropped).
ask() { printf '%s\n' "$@" | "$BIN" | tail -n +2; }
gen='"input":{"generator":"xorshift32","seed":20260804,"unit":1048576}'
req() { printf '{"type":"run","id":%s,"algorithm":"%s","op":"%s","size":4096,"calls":%s,"output":"%s",%s,"input_offset":100,"layout":{"stack":0,"out":192}}' "$@" "$gen"; }
ask "$(req 1 aes-256-gcm encrypt 1 reuse)" "$(req 2 aes-256-gcm encrypt 3 reuse)" \
	"$(req 3 aes-256-gcm encrypt 2 fresh)" "$(req 4 chacha20-poly1305 decrypt 3 reuse)" \
	"$(req 5 chacha20-poly1305 decrypt-forged 3 reuse)" >"$WORK/answers"
sha=$("$CRYPTOBENCH" input 4KiB | sha256sum | cut -c1-64)
plain=$("$CRYPTOBENCH" input 4KiB | base64 -w0)
check "three reused seals give one seal's output, as do fresh ones; input and output placed" \
	jqe -s --arg sha "$sha" 'length == 5 and .[0].output == .[1].output and .[0].output == .[2].output
		and ([.[0:3][] | .status == "ok" and .input_sha256 == $sha and .placed.input_offset == 100] | all)
		and .[1].placed.out == 192 and .[2].placed.out == null and .[1].timed.output == "reuse"' \
	"$WORK/answers"
check "three reused opens give the plaintext back" \
	jqe -s --arg p "$plain" '.[3].status == "ok" and .[3].output == $p and .[3].timed.calls == 3' \
	"$WORK/answers"
check "a forged tag: every call rejects it, no output" \
	jqe -s '.[4].status == "rejected" and .[4].output == "" and .[4].id == 5' "$WORK/answers"
ask '{"type":"run","id":7,"algorithm":"sha256","op":"hash","size":3,"calls":1,"output":"sometimes","input":{"base64":"YWJj"}}' \
	'%%% not json' \
	'{"type":"run","id":8,"algorithm":"sha256","op":"hash","size":3,"calls":2,"output":"reuse","input":{"base64":"YWJj"}}' \
	>"$WORK/faults"
check "a bad output mode and a line that is not JSON are answered with errors" \
	jqe -s '.[0].id == 7 and .[0].status == "error" and (.[0].error | test("reuse or fresh"))
		and .[1].status == "error" and (.[1].error | startswith("not JSON"))' "$WORK/faults"
check "then the worker goes on: sha256 of abc, timed fresh for reuse" \
	jqe -s '.[2].id == 8 and .[2].status == "ok" and .[2].timed.output == "fresh"
		and .[2].output == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="' "$WORK/faults"

"$CRYPTOBENCH" input 1MiB >"$WORK/input.bin"
"$BIN" --bench "$WORK/input.bin" >"$WORK/bench.tsv" 2>"$WORK/bench.err"
check "--bench: one line per label, algorithm and size of peers.lua's rust-ring cells" \
	sh -c "[ \$(awk -F '\t' 'NF == 4 && \$1 ~ /^rust-ring(-output=fresh)?\$/ &&
		\$2 ~ /^(sha256|sha512|aes-256-gcm)\$/ && \$3 ~ /^(64|16384|1048576)\$/ && \$4 > 0' \
		'$WORK/bench.tsv' | sort -u | wc -l) -eq 18 ] && [ \$(wc -l <'$WORK/bench.tsv') -eq 18 ]"
done_testing
