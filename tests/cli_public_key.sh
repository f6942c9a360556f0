#!/bin/sh
# Public-key cells end to end on the openssl engine: every operation runs and
# checks out against the reference; a planted wrong signature, shared secret
# or key pair makes its trials invalid with the reason, and so does a forged
# signature accepted or a good one refused; the file records operations
# (schema cryptobench/2, the keys in its header); the report speaks in op/s.
. "${top_srcdir:-.}/tests/lib.sh"
plan 17

# The openssl engine is always built: OpenSSL is the reference.
S="$top_srcdir/tests/scenarios/cli/public-key.lua"

# trials FILE FILTER: the count of trial lines matching the jq FILTER.
trials() { jq -s "[.[] | select(.type == \"trial\") | select($2)] | length" "$1"; }
# reasons FILE ALG OP: the distinct errors of that cell's trials.
reasons() { jq -r "select(.type == \"trial\" and .cell.algorithm == \"$2\" and .cell.op == \"$3\") | .error" "$1" | sort -u; }

cb run "$S" -o "$WORK/pk.jsonl"; check "every public-key operation runs on openssl" status_is 0
F="$WORK/pk.jsonl"
check "...15 cells of 3 trials, every one valid" \
	sh -c "[ $(trials "$F" true) -eq 45 ] && [ $(trials "$F" '.valid | not') -eq 0 ]"
check "...verify-forged among them: every call rejected the forged signature" \
	sh -c "[ $(trials "$F" '.cell.op == "verify-forged" and .valid and .ops > 0') -eq 9 ]"
check "each trial records its operations, the calls it made" \
	sh -c "[ $(trials "$F" '.ops != .calls or .ops < 1') -eq 0 ]"
check "the file is schema cryptobench/2 and its header names each algorithm's fixed key" \
	sh -c "head -n 1 '$F' | jq -e '.schema == \"cryptobench/2\" and (.keys | keys) == [\"ecdh-p256\", \"ecdsa-p256\", \"ed25519\", \"rsa-2048-pkcs1\", \"x25519\"] and (.keys[\"ecdh-p256\"].peer_spki_sha256 | length) == 64 and (.keys.ed25519.source | test(\"RFC 8032\"))' >/dev/null"

# The fault switch flips a bit of each output: a wrong signature, secret, key pair.
CRYPTOBENCH_FAULT=openssl "$CRYPTOBENCH" run "$S" -o "$WORK/wrong.jsonl" >/dev/null 2>"$WORK/err"
W="$WORK/wrong.jsonl"
check "a planted wrong output: every trial of sign, derive and keygen invalid, without a timing" \
	sh -c "[ $(trials "$W" '(.cell.op == "sign" or .cell.op == "derive" or .cell.op == "keygen") and (.valid or .ns != null)') -eq 0 ] && [ $(trials "$W" '.valid | not') -eq 27 ]"
# reasons_are FILE ALG OP PREFIX: every trial of the cell failed with PREFIX.
reasons_are() {
	got=$(reasons "$1" "$2" "$3" | grep -v -- "^$4" || true)
	[ -n "$(reasons "$1" "$2" "$3")" ] && [ -z "$got" ] || { diag "$2 $3: $(reasons "$1" "$2" "$3" | head -c 200)"; false; }
}
deterministic() {
	reasons_are "$W" ed25519 sign 'signature mismatch: ' &&
		reasons "$W" ed25519 sign | grep -q '(the scheme is deterministic)$' &&
		reasons_are "$W" rsa-2048-pkcs1 sign 'signature mismatch: '
}
check "...a deterministic signature unlike the reference's, with the reason" deterministic
check "...a randomized one the reference does not accept" \
	reasons_are "$W" ecdsa-p256 sign 'not a ecdsa-p256 signature: '
secrets() { reasons_are "$W" ecdh-p256 derive 'shared secret mismatch: ' && reasons_are "$W" x25519 derive 'shared secret mismatch: '; }
check "...a shared secret unlike the reference's (ECDH and X25519)" secrets
pairs() {
	reasons_are "$W" rsa-2048-pkcs1 keygen 'keygen: p does not divide n' &&
		for a in ecdsa-p256 ed25519 x25519; do
			reasons_are "$W" "$a" keygen "keygen: the public key is not the private key's" || return 1
		done
}
check "...a key pair that is not one (RSA, ECDSA, Ed25519, X25519)" pairs
check "...and run names the first invalid trial" err_has "invalid trials (no timing kept), first: openssl"

CRYPTOBENCH_FAULT=openssl:nothing "$CRYPTOBENCH" run "$S" --only op=verify-forged -o "$WORK/accept.jsonl" >/dev/null 2>&1
accepted() {
	[ "$(trials "$WORK/accept.jsonl" .valid)" -eq 0 ] &&
		for a in rsa-2048-pkcs1 ecdsa-p256 ed25519; do
			reasons_are "$WORK/accept.jsonl" "$a" verify-forged 'FORGED SIGNATURE ACCEPTED by openssl' || return 1
		done
}
check "a forged signature accepted makes every verify-forged trial invalid" accepted
CRYPTOBENCH_FAULT=openssl:error "$CRYPTOBENCH" run "$S" --only op=verify -o "$WORK/refuse.jsonl" >/dev/null 2>&1
refused() {
	[ "$(trials "$WORK/refuse.jsonl" .valid)" -eq 0 ] &&
		for a in rsa-2048-pkcs1 ecdsa-p256 ed25519; do
			reasons_are "$WORK/refuse.jsonl" "$a" verify 'openssl returned a failure' || return 1
		done
}
check "a good signature refused makes every verify trial invalid" refused

cb report "$F"
check "report: a winners table and a cells table of public-key operations" \
	sh -c "grep -q '^Fastest engine per public-key algorithm and operation' '$WORK/out' && grep -q '^Public-key cells (op/s' '$WORK/out'"
check "...a derived metric's title naming operations per cycle" \
	sh -c "tr '\n' ' ' <'$WORK/out' | grep -q 'in bytes or operations (public key) per cycle'"
cb report "$F" --format json --statistic min
check "...a minimum-time headline named in operations" \
	sh -c "jq -e '[.[0].pk_cells[].headline.statistic] | unique == [\"min time (max op/s)\"]' '$WORK/out' >/dev/null"
cb report "$F" --format csv --table pk-cells
check "...and CSV columns in op/s" sh -c "head -n 1 '$WORK/out' | grep -q 'headline_ops_per_s' && [ \$(grep -c . '$WORK/out') -eq 16 ]"
done_testing
