#!/bin/sh
# External workers and the gate (core/engine/extern.h): a scenario's { "worker",
# name = ..., command = {...} } runs only when --allow-external names its
# program (compared after realpath); --dry-run lists it and starts nothing
# not allowed; the results header records what was allowed and used, with
# its file's SHA-256; a worker failing the handshake is unusable with the
# reason in `engines` and `run`.
. "${top_srcdir:-.}/tests/lib.sh"
plan 17

# The worker: a script that notes each start in $WORK/starts, then runs
# the shipped Python worker (hashlib), or one greeting with protocol 1.
cat >"$WORK/my-worker" <<SH
#!/bin/sh
echo started >>"$WORK/starts"
exec python3 "$top_srcdir/core/engines/workers/worker.py" hashlib
SH
cat >"$WORK/old-worker" <<SH
#!/bin/sh
exec python3 "$top_srcdir/tests/workers/nonconforming.py" old-protocol \
	"$top_srcdir/core/engines/workers/worker.py"
SH
chmod +x "$WORK/my-worker" "$WORK/old-worker"
ln -s my-worker "$WORK/link-to-worker"
cat >"$WORK/ext.lua" <<'LUA'
local cb = require "cryptobench"
cb.scenario {
  name       = "an external worker",
  engines    = { "sim", { "worker", name = "mylib", command = { "./my-worker", "--unused" } } },
  algorithms = { "sha256" },
  sizes      = { 64 },
  rounds     = 2,
  trial_time = "1ms",
}
LUA
cd "$WORK" || exit 1

cb run ext.lua -o out.jsonl
check "a scenario naming a worker not allowed exits 2" status_is 2
check "...naming the file, the line and the flag" \
	err_has "ext.lua:4: worker 'mylib': ./my-worker is not allowed to start (run with --allow-external ./my-worker)"
check "...and starts nothing, writes nothing" test ! -e starts -a ! -e out.jsonl

cb run ext.lua --dry-run
check "--dry-run without the flag exits 0" status_is 0
check "...listing the worker, its file, its words and NOT allowed" \
	sh -c 'grep -q "worker mylib: $1/my-worker --unused" out && grep -q "NOT allowed" out' sh "$WORK"
check "...its cells skipped with the reason, nothing started" \
	sh -c 'grep -q "mylib sha256 hash: mylib is not usable here: not allowed" out && test ! -e starts'

cb run ext.lua --dry-run --allow-external ./my-worker
check "--dry-run with the flag plans the worker's cells" \
	sh -c 'grep -q "^  mylib  *sha256" out && grep -q ", allowed$" out'

cb run ext.lua --allow-external "$WORK/link-to-worker" -o out.jsonl
check "the flag naming a symlink to the program allows it (realpath)" status_is 0
check "...its trials are measured and valid" \
	test "$(jq -s '[.[] | select(.type == "trial" and .cell.engine == "mylib" and .valid)] | length' out.jsonl)" -ge 2
sha=$(sha256sum my-worker | cut -d' ' -f1)
recorded() {
	head -n 1 out.jsonl | jq -e --arg f "$WORK/my-worker" --arg s "$sha" \
		'.externals == [{kind: "worker", name: "mylib", path: "./my-worker", file: $f, sha256: $s,
		  allowed: true, command: [$f, "--unused"]}]' >/dev/null
}
check "the header records the worker: path, file, SHA-256, command" recorded
check "...and the variant as written names its command" \
	sh -c 'head -n 1 out.jsonl | jq -e ".scenario.engines[1].as_written ==
		{command: [\"./my-worker\", \"--unused\"], external: \"worker\", engine: \"mylib\"}" >/dev/null'

cb run ext.lua --allow-external ./no-such-file -o out2.jsonl
check "--allow-external of a missing file exits 2" status_is 2
check "...naming it" err_has "no-such-file"

cb engines --allow-external ./old-worker
check "engines lists an allowed worker failing the handshake" status_is 0
check "...as unusable, with the reason" \
	grep -q "^old-worker .*UNAVAILABLE: old-worker worker did not greet with a hello of protocol 2" out

sed -e 's|"./my-worker", "--unused"|"./old-worker"|' ext.lua >old.lua
cb run old.lua --allow-external ./old-worker -o old.jsonl
check "a run skips a worker failing the handshake" status_is 0
check "...with the reason" \
	test "$(jq -s '[.[] | select(.type == "skip") | .reason | test("mylib is not usable here: mylib worker did not greet with a hello of protocol 2")] | any' old.jsonl)" = true
done_testing
