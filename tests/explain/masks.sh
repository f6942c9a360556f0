#!/bin/sh
# Makes tests/explain/masks.jsonl, the fixture of tests/cli_mask_join.sh and
# tests/test_tables.c: capability masks whose timings and profiles agree or
# disagree in every way the report tells apart. From the top of the tree, with
# cryptobench built:
#
#   sh tests/explain/masks.sh [CRYPTOBENCH] >tests/explain/masks.jsonl
#
# The trials are the sim's (tests/scenarios/masks/join.lua: its truth is
# known); the sim is a built-in and cannot carry env, so the header is
# rewritten into a masked run's, as tests/cli_masks.sh does: each "masked-*"
# variant gets its env and every variant's options leave the header (and the
# command line names the fixture, not the temporary file it was made in). The
# profile lines are written here by hand, in the format of
# tests/explain/cross-runtime.jsonl (doc/results-format.md), one per cell:
#
#   cell                    timing          profiles (code with sha-ni)   join
#   masked-4x sha256        beyond delta    96% -> 0%                     agrees
#   masked-4x aes-128-cbc   beyond delta    0% -> 0%                      disagrees: time, not code
#   masked-1pct sha256      within delta    96% -> 0%                     disagrees: code, not time
#   masked-1pct aes-128-cbc within delta    0% -> 0%                      agrees
#   masked-armcap sha256    beyond delta    (OPENSSL_armcap: no class)    not judged
#   masked-armcap aes-...   beyond delta    no profile line               no profile
#   masked-noisy sha256     not resolved    96% -> 96%                    not judged
#   masked-noisy aes-...    not resolved    refused (ptrace)              no profile
set -e
CRYPTOBENCH=${1:-./cryptobench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$CRYPTOBENCH" run tests/scenarios/masks/join.lua -o "$tmp/run.jsonl" --no-progress >/dev/null 2>&1
jq -c 'if .type == "run" then (.tool.command_line |= sub(" -o [^ ]*"; " -o masks.jsonl"))
	| .scenario.engines |= map(.options = {}
	| if .label == "masked-armcap" then .env = {"OPENSSL_armcap": "0"}
	  elif (.label | startswith("masked-")) then .env = {"OPENSSL_ia32cap": ":~0x20000000"}
	  else . end) else . end' "$tmp/run.jsonl" | grep -v '"type":"end"' >"$tmp/body.jsonl"

# The profiled trials come after the run's last round, numbered on from its
# last line.
round=$(jq -s '[.[] | select(.type == "trial") | .round] | max + 1' "$tmp/run.jsonl")
seq=$(jq -s '[.[] | select(.type == "trial") | .seq] | max + 1' "$tmp/run.jsonl")
jq -n -c --argjson round "$round" --argjson seq "$seq" '
def fn(object; offset; name; hint; samples; present; class):
	{object: object, build_id: "4a1f0c2d9e3b7a6c5d8e9f0a1b2c3d4e5f607182", offset: offset,
	 size: 1664, range: (if name then "symbol" else "cfi" end), name: name, samples: samples,
	 classes: {(class): samples}, present: present, hint: hint,
	 classes_before: {(class): samples}};
def libcrypto: "/usr/lib/x86_64-linux-gnu/libcrypto.so.3";
def sha_ni(n): fn(libcrypto; 1912384; null; "SHA256_Update"; n;
	["base", "sse", "ssse3/sse4", "sha-ni"]; "sha-ni");
def sha_avx2(n): fn(libcrypto; 1900544; null; "SHA256_Update"; n;
	["base", "avx", "avx2", "bmi"]; "avx2");
def aes_ni(n): fn(libcrypto; 1556992; null; "AES_cbc_encrypt"; n;
	["base", "sse", "aes-ni"]; "aes-ni");
def harness(n): fn("/usr/local/bin/cryptobench"; 193696; "sim_loop"; null; n; ["base"]; "base");
def sum(f): reduce (.[] | f | to_entries[]) as $e ({}; .[$e.key] += $e.value);
def line(i; variant; alg; op; fns; refused):
	{type: "profile", round: $round, seq: ($seq + i),
	 cell: {engine: "sim", label: variant, algorithm: alg, op: op, size: 16384, threads: 1,
	        mode: "message"},
	 sampler: "ptrace", rate_hz: 1000.0, calls: 1000, ns: 4000000000, cpu_ns: 4000000000,
	 ns_per_call: 4000000.0, timed_ns_per_call: 3900000.0, cost: (4000000.0 / 3900000.0),
	 valid: true, error: null,
	 profile: (if refused then null else
	           {sampler: "ptrace", rate_hz: 1000.0, cpu_ns: 4000000000,
	            samples: (fns | map(.samples) | add), lost: 0, merged: 0,
	            classes: (fns | sum(.classes)), functions: fns, degraded: null,
	            classes_before: (fns | sum(.classes_before))} end),
	 refused: refused};
line(0; "sim"; "sha256"; "hash"; [sha_ni(960), harness(40)]; null),
line(1; "sim"; "aes-128-cbc"; "encrypt"; [aes_ni(950), harness(50)]; null),
line(2; "masked-4x"; "sha256"; "hash"; [sha_avx2(970), harness(30)]; null),
line(3; "masked-4x"; "aes-128-cbc"; "encrypt"; [aes_ni(955), harness(45)]; null),
line(4; "masked-1pct"; "sha256"; "hash"; [sha_avx2(965), harness(35)]; null),
line(5; "masked-1pct"; "aes-128-cbc"; "encrypt"; [aes_ni(948), harness(52)]; null),
line(6; "masked-armcap"; "sha256"; "hash"; [sha_ni(958), harness(42)]; null),
line(7; "masked-noisy"; "sha256"; "hash"; [sha_ni(962), harness(38)]; null),
line(8; "masked-noisy"; "aes-128-cbc"; "encrypt"; [];
	"ptrace is not allowed: the process is traced already (a debugger, strace)")
' >"$tmp/profiles.jsonl"
cat "$tmp/body.jsonl" "$tmp/profiles.jsonl"
grep '"type":"end"' "$tmp/run.jsonl"
