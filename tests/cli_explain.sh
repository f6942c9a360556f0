#!/bin/sh
# run --explain (core/run/explain.h): profiled trials after the timed ones, one
# "profile" line each. On the sim engine (in process, a virtual clock) the
# same run with and without --explain has the same trial lines and the same
# report: a profiled trial never becomes a timing, a headline or a verdict.
# Each cell gets profile lines with the agreed keys, in order, after every
# trial line and before the end line, comparing its time per call with the
# median of the cell's timed trials. openssl's SHA-256 at 1 MiB is
# attributed to code that uses SHA-NI where the CPU has it, in process (the
# CPU-time timer) and in a worker (ptrace; skipped with the reason where
# ptrace is not allowed); under strace -f, where ptrace is refused, the
# header, stderr and the worker's line say why. A Python worker's answers longer than the
# pipe all arrive under ptrace. A command engine's cell is measured and its
# profile line says why it was not sampled, and a profiled trial whose calls
# fail is an invalid profile line, not a failed run. No check is about time.
. "${top_srcdir:-.}/tests/lib.sh"
plan 34

SIM="$top_srcdir/tests/scenarios/sim/noisy.lua"
KEYS='["type","round","seq","cell","sampler","rate_hz","calls","ns","cpu_ns","ns_per_call","timed_ns_per_call","cost","valid","error","profile","refused"]'

# profiles FILE FILTER: the profile lines of FILE through the jq FILTER (slurped).
profiles() { jq -s "[.[] | select(.type == \"profile\")] | $2" "$1"; }
# The report less its first two lines (the file's name, the run's id) and the
# account of which code ran, which only the profiled run has: its table, and
# its summary of extensions when some hot code holds a notable one.
report_body() {
	"$CRYPTOBENCH" report "$1" | tail -n +3 |
		sed -e '/^Which code ran/,/^$/d' -e "/^Which engines' hot code/,/^\$/d"
}

# ---- the sim engine: with and without --explain ----------------------------

cb run "$SIM" --set rounds=4 -o "$WORK/plain.jsonl"
check "a sim run without --explain" status_is 0
cb run "$SIM" --set rounds=4 --explain=20 -o "$WORK/explained.jsonl"
check "the same run with --explain=20" status_is 0
check "...writes profile lines, the run without none" \
	test "$(profiles "$WORK/explained.jsonl" length)" -ge 1 -a \
	"$(profiles "$WORK/plain.jsonl" length)" -eq 0
check "...and the same trial lines (placements aside: drawn per run)" \
	sh -c 'jq -c "select(.type == \"trial\") | del(.layout)" "$1" >"$3/t1" &&
		jq -c "select(.type == \"trial\") | del(.layout)" "$2" >"$3/t2" &&
		test -s "$3/t1" && cmp -s "$3/t1" "$3/t2"' sh \
	"$WORK/plain.jsonl" "$WORK/explained.jsonl" "$WORK"
report_body "$WORK/plain.jsonl" >"$WORK/r1"
report_body "$WORK/explained.jsonl" >"$WORK/r2"
check "...and the same report (headlines, cells, verdicts)" \
	sh -c 'test -s "$1" && cmp -s "$1" "$2"' sh "$WORK/r1" "$WORK/r2"
check "the header's explain object: samples, rate, no refusal needed to say so" \
	sh -c 'head -n 1 "$1" | jq -e ".explain.samples == 20 and .explain.rate_hz > 0 and
		(.explain | has(\"timer\") and has(\"ptrace\"))" >/dev/null &&
		head -n 1 "$2" | jq -e "has(\"explain\") | not" >/dev/null' sh \
	"$WORK/explained.jsonl" "$WORK/plain.jsonl"
check "every profile line has the agreed keys, in order" \
	test "$(profiles "$WORK/explained.jsonl" "map(keys_unsorted) | unique | .[]" | jq -c .)" = "$KEYS"
check "profile lines come after every trial line and before the end line" \
	sh -c 'jq -r .type "$1" | awk "
		/^trial\$/ { if (p) bad = 1 } /^profile\$/ { p = 1; if (e) bad = 1 } /^end\$/ { e = 1 }
		END { exit bad || !p || !e }"' sh "$WORK/explained.jsonl"
check "a sim profile is the timer's, with a profile exactly when nothing refused" \
	test "$(profiles "$WORK/explained.jsonl" \
		'all(.sampler == "timer" and .valid and ((.profile == null) == (.refused != null)))')" = true
check "timed_ns_per_call is the median of the cell's measured trials' ns per call" \
	test "$(jq -s '([.[] | select(.type == "trial" and (.warmup | not) and .valid) |
		.ns / .calls] | sort) as $t | ($t | length) as $n |
		(if $n % 2 == 1 then $t[($n - 1) / 2] else ($t[$n / 2 - 1] + $t[$n / 2]) / 2 end) as $m |
		[.[] | select(.type == "profile") | .timed_ns_per_call] |
		all((. - $m | fabs) < 1e-6 * $m)' "$WORK/explained.jsonl")" = true
check "the cell's samples reach 20, or its last profile says where they stopped" \
	test "$(profiles "$WORK/explained.jsonl" \
		'(map(.profile.samples // 0) | add) >= 20 or (last.profile.degraded // "" | test("stopped at"))')" = true
check "cost is ns_per_call over timed_ns_per_call" \
	test "$(profiles "$WORK/explained.jsonl" \
		'all((.cost - .ns_per_call / .timed_ns_per_call | fabs) < 1e-9 * .cost)')" = true
check "the end line counts the trials only" \
	test "$(tail -n 1 "$WORK/explained.jsonl" | jq .trials)" = \
	"$(jq -s '[.[] | select(.type == "trial")] | length' "$WORK/explained.jsonl")"

# Twins (explain = { twins = true }): beside each profiled trial, an unsampled
# trial of the same calls, written as a profile line without a profile,
# after it and before the next by turns; nothing else changes.
cb run "$SIM" --set rounds=4 --explain=20 --set explain_twins=true -o "$WORK/twins.jsonl"
check "explain twins: each profiled trial has an unsampled twin of its calls, sides alternating" \
	test "$(profiles "$WORK/twins.jsonl" '[group_by(.cell.label + .cell.algorithm)[] |
		[range(0; length; 2) as $i | .[$i:$i + 2]] | to_entries[] |
		(if .key % 2 == 0 then .value else (.value | reverse) end) as $p |
		$p[0].profile != null and $p[1].profile == null and ($p[1].refused | test("^a twin")) and
		$p[0].calls == $p[1].calls] | length > 0 and all')" = true
report_body "$WORK/twins.jsonl" >"$WORK/r3"
check "...and the trial lines and the report are those of the run without twins" \
	sh -c 'jq -c "select(.type == \"trial\") | del(.layout)" "$1" >"$3/t3" &&
		cmp -s "$3/t1" "$3/t3" && cmp -s "$2" "$3/r3"' sh \
	"$WORK/twins.jsonl" "$WORK/r1" "$WORK"

# The test-only fault switch (core/engine/engine.h) on the profiled round only: the
# run's rounds are 0 (warm-up) to 2, its profiled trials round 3.
CRYPTOBENCH_FAULT=sim:error@3 "$CRYPTOBENCH" run --engines sim --algorithms sha256 --sizes 64B \
	--rounds 2 --explain=5 -o "$WORK/fault.jsonl" >"$WORK/out" 2>"$WORK/err"
echo $? >"$WORK/status"
check "a profiled trial whose calls fail does not stop the run" \
	sh -c 'test "$(cat "$1/status")" = 0 &&
		test "$(jq -s "[.[] | select(.type == \"trial\") | .valid] | all" "$1/fault.jsonl")" = true' sh "$WORK"
check "...its line is invalid, with the error" \
	test "$(profiles "$WORK/fault.jsonl" 'length == 1 and .[0].round == 3 and
		(.[0].valid | not) and (.[0].error | test("failure"))')" = true

# ---- the command line --------------------------------------------------------

cb run --engines sim --algorithms sha256 --sizes 64B --explain=0 -o "$WORK/x.jsonl"
check "--explain=0 exits 2" status_is 2
check "...saying what it wants" err_has "explain wants samples per cell"
check "run --help names --explain" sh -c '"$1" run --help | grep -q -- "--explain\[=N\]"' sh "$CRYPTOBENCH"

# ---- openssl SHA-256 at 1 MiB, in process and in a worker ---------------------

# hottest FILE: the function with the most samples over FILE's profile lines,
# as {present, before: its classes_before}.
hottest() {
	profiles "$1" '[.[].profile.functions // [] | .[]] |
		group_by([.object, .offset]) |
		map({samples: (map(.samples) | add), present: .[0].present,
		     before: (map(.classes_before | to_entries) | add | group_by(.key) |
		              map({key: .[0].key, value: (map(.value) | add)}) | from_entries)}) |
		max_by(.samples)'
}
# holds FILTER FILE: whether jq's FILTER holds of FILE.
holds() { jq -e "$1" "$2" >/dev/null; }
sha_ni() { grep -q '^flags.* sha_ni' /proc/cpuinfo; }

if ! "$CRYPTOBENCH" engines | grep -q '^openssl .*library  OpenSSL'; then
	skip 14 "the openssl engine is not built"
	done_testing
	exit
fi
cat >"$WORK/sha.lua" <<'LUA'
local cb = require "cryptobench"
cb.scenario {
  name       = "explain sha256",
  engines    = { "openssl", { "openssl", label = "openssl-worker", env = {} } },
  algorithms = { "sha256" },
  sizes      = { "1MiB" },
  rounds     = 2,
  trial_time = "10ms",
  explain    = { samples = 100 },
}
LUA
cb run "$WORK/sha.lua" -o "$WORK/sha.jsonl"
check "openssl sha256 1MiB with explain = { samples = 100 }" status_is 0
jq -c 'select(.type == "profile" and .cell.label == "openssl")' "$WORK/sha.jsonl" >"$WORK/here.jsonl"
jq -c 'select(.type == "profile" and .cell.label == "openssl-worker")' "$WORK/sha.jsonl" >"$WORK/worker.jsonl"
check "in process: profile lines of the timer, 100 samples or the cap said" \
	test "$(profiles "$WORK/here.jsonl" 'length > 0 and all(.sampler == "timer" and .valid) and
		((map(.profile.samples) | add) >= 100 or (last.profile.degraded | test("cap")))')" = true
if sha_ni; then
	hottest "$WORK/here.jsonl" >"$WORK/hot"
	check "in process: the hottest function's code holds sha-ni" \
		holds '.present | index("sha-ni")' "$WORK/hot"
	check "in process: most of its samples stop just after a sha-ni instruction" \
		holds '.before["sha-ni"] > .samples / 2' "$WORK/hot"
else
	skip 2 "this CPU has no SHA-NI (sha_ni is not in /proc/cpuinfo)"
fi
refusal=$(head -n 1 "$WORK/sha.jsonl" | jq -r '.explain.ptrace // empty')
if [ -n "$refusal" ]; then
	check "in a worker: the profile line is refused, saying why" \
		test "$(profiles "$WORK/worker.jsonl" 'all(.profile == null and .refused != null)')" = true
	check "...and the header says the same" test -n "$refusal"
	skip 2 "ptrace is not allowed here: $refusal"
else
	check "in a worker: profile lines of ptrace, with samples" \
		test "$(profiles "$WORK/worker.jsonl" 'length > 0 and all(.sampler == "ptrace" and .valid and
			.refused == null) and (map(.profile.samples) | add) > 0')" = true
	check "...from the worker's process (the profile says ptrace)" \
		test "$(profiles "$WORK/worker.jsonl" 'all(.profile.sampler == "ptrace")')" = true
	if sha_ni; then
		hottest "$WORK/worker.jsonl" >"$WORK/hot"
		check "in a worker: the hottest function's code holds sha-ni" \
			holds '.present | index("sha-ni")' "$WORK/hot"
		check "in a worker: most of its samples stop just after a sha-ni instruction" \
			holds '.before["sha-ni"] > .samples / 2' "$WORK/hot"
	else
		skip 2 "this CPU has no SHA-NI (sha_ni is not in /proc/cpuinfo)"
	fi
fi

# ---- ptrace refused: under strace -f every child is traced already ----------------

if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	sed -e 's/"1MiB"/"4KiB"/' -e 's/samples = 100/samples = 10/' "$WORK/sha.lua" >"$WORK/small.lua"
	# LeakSanitizer cannot run under a tracer: a sanitized build leaves it out here.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o /dev/null "$CRYPTOBENCH" run "$WORK/small.lua" -o "$WORK/traced.jsonl" \
		>"$WORK/out" 2>"$WORK/err"
	echo $? >"$WORK/status"
	check "ptrace refused: the run still measures" \
		sh -c 'test "$(cat "$1/status")" = 0 && test "$(jq -s "[.[] | select(.type == \"trial\" and
			.cell.label == \"openssl-worker\" and .valid)] | length" "$1/traced.jsonl")" -gt 0' sh "$WORK"
	check "...the header and one line on stderr say why" \
		sh -c 'head -n 1 "$1/traced.jsonl" | jq -e ".explain.ptrace | test(\"ptrace is not allowed\")" >/dev/null &&
			test "$(grep -c "^explain: no profiles of workers (ptrace is not allowed" "$1/err")" = 1' sh "$WORK"
	check "...and the worker's profile line is refused, without a profile" \
		test "$(profiles "$WORK/traced.jsonl" 'map(select(.cell.label == "openssl-worker")) |
			length > 0 and all(.profile == null and (.refused | test("ptrace is not allowed")))')" = true
else
	skip 3 "no strace that may trace here, to make ptrace refuse"
fi

# ---- a Python worker whose answers are longer than the pipe ------------------
# Each answer carries a 256 KiB ciphertext (350 KB in base64), written while
# the ptrace sampler stops the worker again and again: CPython's buffered
# stdout lost the rest of such a line after a write cut short by a stop, and
# the profiled request then timed out (core/engines/workers/worker.py, send).

if [ -z "$refusal" ] && "$CRYPTOBENCH" engines | grep -q '^python-pycryptodome .*process  CPython'; then
	CRYPTOBENCH_WORKER_TIMEOUT=15 cb run --engines python-pycryptodome --algorithms aes-128-ctr \
		--sizes 256KiB --rounds 2 --trial-time 10ms --explain=100 -o "$WORK/long.jsonl"
	# long_answered: the run exited 0 and every profile line has samples; on
	# failure, its status, its stderr's end and each profile line's summary.
	long_answered() {
		test "$(cat "$WORK/status")" = 0 && test "$(jq -s '[.[] | select(.type == "profile")] |
			length > 0 and all(.valid and .error == null and .profile.samples > 0)' "$WORK/long.jsonl")" = true ||
			{ diag "exit $(cat "$WORK/status"); stderr: $(tail -n 3 "$WORK/err" | tr '\n' ' ')"
			  jq -c 'select(.type == "profile") | {calls, valid, error, refused, samples: .profile.samples}' \
				"$WORK/long.jsonl" 2>&1 | head -n 8 | sed 's/^/# /'; false; }
	}
	check "a Python worker's long answers under ptrace: every profiled request answered" long_answered
else
	skip 1 "no python-pycryptodome worker, or ptrace is not allowed here"
fi

# ---- a command engine: measured, not sampled, and said --------------------------

if "$CRYPTOBENCH" engines | grep -q '^sha256sum .*command'; then
	cb run --engines sha256sum --algorithms sha256 --sizes 4KiB --rounds 2 --trial-time 1ms \
		--explain=10 -o "$WORK/cmd.jsonl"
	check "a command engine's run with --explain measures" \
		sh -c 'test "$(cat "$1/status")" = 0 &&
			test "$(jq -s "[.[] | select(.type == \"trial\" and .valid)] | length" "$1/cmd.jsonl")" -gt 0' sh "$WORK"
	check "...and its profile line says why it was not sampled" \
		test "$(profiles "$WORK/cmd.jsonl" 'length == 1 and .[0].profile == null and
			(.[0].refused | test("command engine")) and .[0].sampler == "ptrace"')" = true
else
	skip 2 "no sha256sum engine"
fi
done_testing
