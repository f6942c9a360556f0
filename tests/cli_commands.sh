#!/bin/sh
# Command engines (core/engine/command.h) and env variants (cryptobench worker).
# A command that prints nothing, or a wrong digest, makes invalid trials with
# the reason; the `true` baseline is valid; an in-process engine with env
# runs in a worker child started with that environment.
. "${top_srcdir:-.}/tests/lib.sh"

N=10
echo "1..$N"
D="$top_srcdir/tests/scenarios/workers"
trials() { jq -s "[.[] | select(.type == \"trial\") | select($2)] | length" "$1"; }

if ! command -v sha256sum >/dev/null; then
	i=1; while [ $i -le 6 ]; do echo "ok $i # SKIP sha256sum is not on PATH"; i=$((i + 1)); done
	tap_n=6
else
	cb run "$D/commands.lua" -o "$WORK/c.jsonl"
	check "commands: the run completes" status_is 0
	check "commands: every trial valid, digests checked" \
		test "$(trials "$WORK/c.jsonl" '.valid')" -eq "$(trials "$WORK/c.jsonl" true)"
	check "commands: sha256sum's digest is the generator's" \
		test "$(trials "$WORK/c.jsonl" ".cell.engine == \"sha256sum\" and .digest == \"$("$CRYPTOBENCH" input 4KiB | sha256sum | cut -c1-64)\"")" -ge 1
	# A sha256sum that prints nothing, and one that prints a wrong digest.
	mkdir -p "$WORK/silent" "$WORK/wrong"
	printf '#!/bin/sh\necho "read error: pretend" >&2\n' >"$WORK/silent/sha256sum"
	printf '#!/bin/sh\necho "0000000000000000000000000000000000000000000000000000000000000000  $1"\n' >"$WORK/wrong/sha256sum"
	chmod +x "$WORK/silent/sha256sum" "$WORK/wrong/sha256sum"
	PATH="$WORK/silent:$PATH" "$CRYPTOBENCH" run "$D/commands.lua" -o "$WORK/s.jsonl" >/dev/null 2>&1
	check "prints nothing: every sha256sum trial invalid, with the command's stderr" \
		test "$(trials "$WORK/s.jsonl" '.cell.engine == "sha256sum" and (.valid | not) and (.error | test("printed no sha256 digest.*read error: pretend"))')" -eq "$(trials "$WORK/s.jsonl" '.cell.engine == "sha256sum"')"
	check "prints nothing: the true baseline is still valid" \
		test "$(trials "$WORK/s.jsonl" '.cell.engine == "true" and .valid')" -eq "$(trials "$WORK/s.jsonl" '.cell.engine == "true"')"
	PATH="$WORK/wrong:$PATH" "$CRYPTOBENCH" run "$D/commands.lua" -o "$WORK/w.jsonl" >/dev/null 2>&1
	check "wrong digest: invalid, never a timing" \
		test "$(trials "$WORK/w.jsonl" '.cell.engine == "sha256sum" and (.valid | not) and (.ns == null) and (.error | test("digest mismatch"))')" -ge 1
fi

if ! "$CRYPTOBENCH" engines | grep -q '^openssl .*library'; then
	i=$((tap_n + 1)); while [ $i -le $N ]; do echo "ok $i # SKIP openssl engine not built"; i=$((i + 1)); done
	tap_n=$N
else
	cb run "$D/env.lua" -o "$WORK/e.jsonl"
	check "env: the run completes" status_is 0
	check "env: the masked variant runs in a worker child, valid" \
		test "$(trials "$WORK/e.jsonl" '.cell.label == "openssl-no-aesni" and .clock == "worker" and .valid and (.warmup | not)')" -eq 2
	check "env: the plain variant runs in process" \
		test "$(trials "$WORK/e.jsonl" '.cell.label == "openssl" and .clock == null and .valid and (.warmup | not)')" -eq 2
	echo '{"type":"run","id":1,"algorithm":"sha256","op":"hash","size":3,"calls":2,"input":{"generator":"xorshift32","seed":20260804}}' |
		env OPENSSL_ia32cap=":~0x20000000" "$CRYPTOBENCH" worker openssl >"$WORK/wk" 2>&1
	check "worker: the child's libcrypto read the mask (SHA bit off in its words)" \
		sh -c "head -n 1 '$WORK/wk' | jq -e '.features.ia32cap_features | index(\"sha\") | not' >/dev/null && sed -n 2p '$WORK/wk' | jq -e '.status == \"ok\" and .calls == 2' >/dev/null"
fi
[ "$tap_n" -eq "$N" ] || echo "not ok $((tap_n + 1)) - the plan said $N tests, $tap_n ran"
[ "$tap_failed" -eq 0 ]
