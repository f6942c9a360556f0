#!/bin/sh
# cryptobench worker-check: every worker engine the registry knows (kind
# process, from `engines --json`, so a worker added later is checked too)
# and `cryptobench worker openssl` pass it (exit 0, no FAIL); the planted
# faults of tests/workers/nonconforming.py each fail it (exit 1) naming the
# check that caught them; a missing command is bad usage (exit 2).
. "${top_srcdir:-.}/tests/lib.sh"

BAD="$top_srcdir/tests/workers/nonconforming.py"
WORKER_PY="$top_srcdir/core/engines/workers/worker.py"
"$CRYPTOBENCH" engines --json >"$WORK/engines.json"
workers=$(jq -r '.[] | select(.kind == "process") | .name' "$WORK/engines.json")
n=$(echo "$workers" | grep -c .)
plan $((2 * n + 1 + 2 + 10 + 2))
check "the registry knows worker engines ($n)" test "$n" -ge 1

# passes NAME: worker-check --engine NAME exits 0 with no FAIL line.
passes() {
	status_is 0 && ! grep -q '^FAIL' "$WORK/out" && out_has "0 failed" ||
		{ diag "$(grep '^FAIL' "$WORK/out" | head -n 3)"; false; }
}
for e in $workers; do
	why=$(jq -r --arg e "$e" '.[] | select(.name == $e) | .why // ""' "$WORK/engines.json")
	if [ -n "$why" ]; then
		skip 2 "$e is unavailable here: $why"
		continue
	fi
	cb worker-check --engine "$e"
	check "$e passes worker-check" passes
	check "$e: its hello, vectors, input and end of input were checked" \
		sh -c 'grep -q "^ok    hello" "$1" && grep -q "^ok    vectors " "$1" &&
			grep -q "^ok    input " "$1" && grep -q "^ok    malformed request" "$1" &&
			grep -q "^ok    end of input: exited" "$1"' sh "$WORK/out"
done

cb worker-check "$CRYPTOBENCH" worker openssl
if grep -q "^FAIL  hello: .*openssl" "$WORK/out"; then
	skip 2 "openssl is not usable here"
else
	check "cryptobench worker openssl passes worker-check" passes
	check "...and its AEADs reject a forged tag" grep -q "^ok    forged tag aes-128-gcm: rejected" "$WORK/out"
fi

# planted FAULT: worker-check on nonconforming.py FAULT (answers bounded to 2 s).
planted() {
	CRYPTOBENCH_WORKER_TIMEOUT=2 "$CRYPTOBENCH" worker-check python3 "$BAD" "$1" "$WORKER_PY" \
		>"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
}
planted wrong-digest
check "a wrong digest fails worker-check (exit 1)" status_is 1
check "...in the vectors check, naming the digest" \
	grep -q '^FAIL  vectors sha256: .*digest differs at byte 0' "$WORK/out"
planted forged-accepted
if grep -q "^FAIL  hello" "$WORK/out"; then
	skip 2 "no cryptography module for the forged-tag worker"
else
	check "an accepted forged tag fails worker-check (exit 1)" status_is 1
	check "...in the forged tag check" \
		grep -q '^FAIL  forged tag aes-128-gcm: accepted a tag with one bit flipped' "$WORK/out"
fi
planted non-json
check "answers that are not JSON fail worker-check (exit 1)" status_is 1
check "...the malformed request check naming the line" \
	grep -q "^FAIL  malformed request: .*not a JSON object: 'this is not JSON'" "$WORK/out"
planted hang
check "a worker that never answers fails worker-check (exit 1)" status_is 1
check "...each request check saying it gave no answer" \
	grep -q '^FAIL  input sha256 hash: .*gave no answer within 2 s' "$WORK/out"
planted old-protocol
check "a hello of protocol 1 fails worker-check (exit 1)" status_is 1
check "...in the hello check, with the reason" \
	grep -q '^FAIL  hello: .*did not greet with a hello of protocol 2' "$WORK/out"

cb worker-check
check "worker-check without a command exits 2" status_is 2
check "...saying which is missing" err_has "which worker"
done_testing
