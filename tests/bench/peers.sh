#!/bin/sh
# Each ecosystem's own benchmark tool against cryptobench, on the same bytes
# (not in make check; run it by hand from a built tree):
#
#   tests/bench/peers.sh [ALTERNATIONS]      (default 3)
#   PEERS_GROUPS="node dotnet" tests/bench/peers.sh   (some groups only:
#                                            openssl commands node python dotnet go rust java)
#   PEERS_KEEP=DIR ...                       (keep the medians and results files)
#   PEERS_SET=NAME=VALUE ...                 (one more --set for peers.lua's runs)
#   PEERS_CPU=N, PEERS_STEADY=PCT, PEERS_TRIES=N ...   (the CPU, and when an
#                                            alternation is tried again: below)
#
# BenchmarkDotNet for dotnet (a project restored from NuGet, built here),
# tinybench for node-crypto (npm, into a temporary folder), timeit for the
# Python workers, Go's testing.B (`go test -bench`, the standard library
# only, offline) for go-crypto, a hand-written System.nanoTime loop for
# java-jca (tests/bench/peers/Peers.java, compiled here: JMH, Java's own
# harness, is not packaged in Debian), hyperfine for the command engines (Debian),
# `openssl speed -evp` for in-process openssl, and for rust-ring a plain loop
# of ring's calls timed with std::time::Instant (the worker's own `--bench`
# mode: the median of 7 batches of 20 ms, as timeit's; `cargo bench`'s own
# harness, #[bench], needs a nightly compiler, and criterion, which Debian
# packages, is not used): SHA-256, SHA-512, AES-256-GCM, AES-128-CBC at
# 64 B, 16 KiB and 1 MiB (tests/bench/peers/peers.lua), each peer written
# with the calls the worker times (reuse and fresh where the runtime has
# both). Every peer gives cryptobench's statistic, the median over batches of
# a batch's mean time per call (a batch of ~20 ms of calls), or converts to
# it: the comments at each peer below say how. Group by group, a cryptobench
# run of the group's cells and its peer alternate ALTERNATIONS times in one
# session (the commands and Go cell by cell: cells() below); the table
# (tests/bench/peers/compare.py) gives per group and cell cryptobench's
# throughput over the peer's, median against median: the median of the
# alternations' ratios with their range, within +/-5% or not,
# and "N of M cells within +/-5%". First and last the machine's noise: the
# CV of five `openssl speed -evp sha256 -bytes 16384 -seconds 1` processes,
# on CPU time (openssl speed's default) and on wall time (-elapsed):
# tests/bench/noise.sh.
#
# Exit status 1 when a cell is outside +/-5% and tests/bench/peers/known-differences.tsv
# does not record it: the table of known, measured differences, one line a
# cell, six tab-separated fields (lines starting with # are comments):
#
#   group  label  algorithm  size  measured  cause
#   openssl  openssl-noreuse  aes-256-gcm  64  0.727 (0.711-0.810), ...  openssl speed re-keys ...
#
# label as the table prints it (openssl-noreuse, dotnet-output=fresh), size
# in bytes or * for every size, measured the figure that shows the
# difference (ratio, range, date), cause what the two tools time
# differently. Such a cell is shown with its entry; an entry whose cell is
# now within +/-5% is shown as "not seen now".
#
# Everything runs on one CPU, PEERS_CPU (default 0; "none" leaves the
# kernel to place it): this VM's two vCPUs have run at different speeds
# for minutes at a time (SHA-512 at 16 KiB 987 against 724-728 MB/s,
# AES-256-GCM 4.25 against 2.43-2.54 GB/s, `taskset -c N openssl speed`,
# 2026-12-05 10:21 UTC), and an unpinned worker and its peer each land on
# either (tests/bench/cpu.sh pins it). Each vCPU's `openssl speed
# -elapsed -evp sha512` is printed first and last beside the noise.
#
# One CPU's speed moves too, by 15-50% for minutes (the .NET group at
# 22:41 UTC on 2026-12-05: SHA-512 16 KiB 19.9 us a call in one
# cryptobench run and 16.8 in the next, AES-256-GCM 64 B 1237 against
# 791 ns, SHA-256 1 MiB 594 us in both), so that a ratio says which side
# ran in the slow minutes. Each alternation reads the CPU's speed
# (`openssl speed -elapsed -evp sha512 -bytes 16384`, one second) before
# cryptobench's run, between it and the peer, and after; when the three
# differ by more than PEERS_STEADY percent (default 3; five such processes
# on a quiet machine differ by a CV under 1%) the alternation is tried
# again, up to PEERS_TRIES tries (default 3), and the steadiest try is
# kept. Whether a try is kept depends on the machine, never on the ratio.
# The table says which alternations were tried again, and names one kept
# though it moved.
set -eu
CPU=${PEERS_CPU:-0}
. "$(dirname "$0")/cpu.sh"
pin_to "$CPU" "$0" "$@"
here=$(cd "$(dirname "$0")/peers" && pwd)
top=$(cd "$here/../../.." && pwd)
CB=${CRYPTOBENCH:-$top/cryptobench}
N=${1:-3}
STEADY=${PEERS_STEADY:-3}
TRIES=${PEERS_TRIES:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/cb-peers.XXXXXX")
trap 'rm -rf "$T"' EXIT
SIZES="64 16384 1048576"
# .NET's tiered compilation off, on both sides (the worker inherits the
# environment; BenchmarkDotNet runs --inProcess): under it each process's
# final code for a 64 B call path lands on one of several levels, and the
# trials within the process agree. Eight BenchmarkDotNet processes of
# SHA-256 64 B (reuse), alternated: 468-555 ns by default, 457-485 with
# DOTNET_TieredCompilation=0 (AMD EPYC family 26 model 2, cpu 0,
# 2026-12-06 01:58 UTC). A ratio of two processes then compared which level
# each drew. It touches no other group's process.
export DOTNET_TieredCompilation=0
GROUPS=${PEERS_GROUPS:-openssl commands node python dotnet go rust java}
# wanted GROUP: whether GROUP is among those to run.
wanted() { case " $GROUPS " in *" $1 "*) return 0 ;; esac; return 1; }

! wanted commands || command -v hyperfine >/dev/null || apt-get install -y hyperfine >/dev/null
"$CB" input 1MiB >"$T/input.bin"
for s in $SIZES; do head -c "$s" "$T/input.bin" >"$T/input-$s.bin"; done

echo "== setting up the peers in $T"
if wanted node; then
	(cd "$T" && npm install --silent --no-audit --no-fund tinybench@6.2.3 >/dev/null)
	cp "$here/tinybench.mjs" "$T/"
fi
if wanted dotnet; then
	mkdir "$T/bdn"
	cp "$here/Peers.cs" "$here/peers.csproj" "$T/bdn/"
	(cd "$T/bdn" && dotnet build -c Release -o out >"$T/bdn-build.log" 2>&1) ||
		{ tail -n 20 "$T/bdn-build.log"; exit 1; }
fi
# Go's benchmarks need no module: built offline, the cache in $T.
GO_PEERS="env GOCACHE=$T/gocache GOENV=off GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=0"
if wanted go; then
	mkdir "$T/gob"
	cp "$here/go/peers_test.go" "$here/go/go.mod" "$T/gob/"
	(cd "$T/gob" && $GO_PEERS go test -c -o peers.test >"$T/gob-build.log" 2>&1) ||
		{ tail -n 20 "$T/gob-build.log"; exit 1; }
fi
if wanted java; then
	mkdir "$T/java"
	javac -d "$T/java" "$here/Peers.java" >"$T/java-build.log" 2>&1 ||
		{ tail -n 20 "$T/java-build.log"; exit 1; }
fi
PY=$("$CB" engines 2>/dev/null | sed -n 's/^python-cryptography features: .*"executable":"\([^"]*\)".*/\1/p')
PY=${PY:-python3}
RUST_BIN=$top/core/engines/workers/rust/target/release/cryptobench-rust-ring
JAVA=$("$CB" engines 2>/dev/null | sed -n 's/^java-jca features: .*"executable":"\([^"]*\)".*/\1/p')
JAVA=${JAVA:-java}

echo "== noise: five openssl speed -evp sha256 -bytes 16384 -seconds 1"
sh "$top/tests/bench/noise.sh" "$CPU" | tee "$T/noise-start.txt"

# medians: from lines "label alg size ns" on stdin, one per cell, the median.
medians() {
	sort -k1,1 -k2,2 -k3,3n -k4,4g |
		awk -F '\t' '{ k = $1 "\t" $2 "\t" $3; v[k, ++n[k]] = $4 }
			END { for (k in n) { c = n[k]; m = c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2; print k "\t" m } }'
}

# cb_medians FILE: "label alg size ns" per cell, the median of ns/calls over
# the valid measured trials.
cb_medians() {
	jq -r 'select(.type == "trial" and .valid and (.warmup | not))
		| [.cell.label, .cell.algorithm, .cell.size, .ns / .calls] | @tsv' "$1" | medians
}

# peer GROUP OUT: one alternation of GROUP's peer, appended to OUT.
peer() {
	out=$2
	case $1 in
	openssl) # wall time (-elapsed), as cryptobench's: by default openssl speed divides by CPU time.
		# Each against the cryptobench loop that is openssl speed's (peers.lua):
		# CBC stream mode, digests and GCM a new context per message (noreuse).
		# A process's figure is its bytes over its 1 s, the mean over its calls
		# (cryptobench's, a median of 20 ms batches' means: the two agree
		# unless the machine's load moves within the second); the median of three.
		for alg in sha256 sha512 aes-256-gcm aes-128-cbc; do
			case $alg in aes-128-cbc) label=openssl-stream ;; *) label=openssl-noreuse ;; esac
			for s in $SIZES; do
				for i in 1 2 3; do
					openssl speed -elapsed -evp "$alg" -bytes "$s" -seconds 1 -mr 2>/dev/null |
						sed -n 's/^+F:[0-9]*:[^:]*://p'
				done | sort -g | sed -n 2p |
					awk -v l="$label" -v a="$alg" -v s="$s" '{ printf "%s\t%s\t%s\t%.3f\n", l, a, s, s / $1 * 1e9 }' >>"$out"
			done
		done ;;
	node) # tinybench's samples are batches of ~20 ms: p50 over calls per batch.
		# glibc malloc's thresholds as the worker runs with them (core/engines/node_crypto.c):
		# left to move, they cost both sides page faults that follow the heap's history.
		(cd "$T" && env MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824 \
			node tinybench.mjs "$T/input.bin") >>"$out" ;;
	python) "$PY" "$here/timeit_peers.py" "$T/input.bin" >>"$out" ;;
	rust) "$RUST_BIN" --bench "$T/input.bin" >>"$out" ;;
	java) # the java the worker runs (its hello's executable)
		"$JAVA" -cp "$T/java" Peers "$T/input.bin" >>"$out" ;;
	dotnet) # no collection forced before each iteration, as none is before a
		# cryptobench trial (BenchmarkDotNet's default forces one, and its fresh
		# 1 MiB cells pay for it: AES-128-CBC 2.44-2.68 ms a call at 20 ms
		# iterations, 1.16-1.37 without, 2026-12-05 23:05 UTC).
		# Its iterations stay 100 ms: at 20 ms (cryptobench's trial) its fresh
		# SHA-512 16 KiB read 28-30 us a call against 16.3 for reuse in three
		# processes (23:31 UTC), which it does not read at 100 ms.
		rm -rf "$T/bdn/BenchmarkDotNet.Artifacts"
		(cd "$T/bdn" && PEERS_INPUT="$T/input.bin" dotnet out/peers.dll --filter '*' --inProcess \
			--warmupCount 3 --iterationCount 10 --iterationTime 100 --noForcedGCs true \
			--exporters json >"$T/bdn.log" 2>&1) ||
			{ tail -n 20 "$T/bdn.log"; exit 1; }
		jq -r '.Benchmarks[] | [(if .Method == "Reuse" then "dotnet" else "dotnet-output=fresh" end),
			(.Parameters | capture("Alg=(?<a>[^&]*)").a), (.Parameters | capture("Size=(?<s>[0-9]*)").s),
			.Statistics.Median] | @tsv' "$T"/bdn/BenchmarkDotNet.Artifacts/results/*-report-full*.json >>"$out" ;;
	esac
}

# The commands and Go alternate cell by cell: cryptobench's run of one
# cell (--only), then the peer on that cell, each side a second or less, so
# that the two sides of a pair are that far apart, not a whole group's run.
# A command's processes share nothing, so a cell alone is the cell in its
# group; a process's start costs what the machine's memory management costs
# that minute, not what the CPU speed probe says: the six command cells run
# as two 20-s sides (cryptobench, then hyperfine's 3 s a cell) read
# 0.81-1.33 apart within one session, one at a time 0.956-1.047. A Go cell
# alone in its process is a testing.B benchmark's own process: in a group's
# run a cell's allocations start from the heap the cells before it left
# (page faults, the collector's pace): 19 of 24 cells within 5% of testing.B
# in two whole runs, 23 of 24 cell by cell in three pairs a cell
# (analysis/README.md).
# cells GROUP: a by-cell group's cells, "label algorithm size" a line;
# nothing for a group run whole.
cells() {
	case $1 in
	commands) for t in sha256sum sha512sum; do for s in $SIZES; do echo "$t ${t%sum} $s"; done; done ;;
	go) for l in go-crypto go-crypto-output=fresh; do
			for a in sha256 sha512 aes-256-gcm aes-128-cbc; do for s in $SIZES; do echo "$l $a $s"; done; done
		done ;;
	esac
}

# cell_peer GROUP LABEL ALG SIZE CB_RESULTS OUT: the peer on one cell,
# a line "label alg size ns" appended to OUT.
cell_peer() {
	case $1 in
	commands) # hyperfine -N for as many processes as cryptobench timed (its
		# measured trials' calls), cut into consecutive batches of ~22 ms, as
		# cryptobench calibrates a trial's processes (core/run/runner.c): the
		# median of the batches' means (hyperfine's own median is of single
		# runs, below the mean of a right-skewed spread)
		runs=$(jq -s '[.[] | select(.type == "trial" and .valid and (.warmup | not)) | .calls] | add' "$5")
		hyperfine -N --warmup 3 --runs "$runs" --export-json "$T/hf.json" "$2 $T/input-$4.bin" >/dev/null 2>&1
		jq -r --arg l "$2" --arg a "$3" --arg s "$4" '.results[0] as $r
			| ([1, (0.022 / $r.median | ceil)] | max) as $k
			| [range(0; ($r.times | length) - $k + 1; $k) as $i | $r.times[$i:$i + $k] | add / $k] | sort
			| (if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end) as $m
			| "\($l)\t\($a)\t\($s)\t\($m * 1e9)"' "$T/hf.json" >>"$6" ;;
	go) # five 100 ms runs of the cell's benchmark (its calls grow until one
		# lasts the time): their median ns/op
		case $3 in sha256) b=SHA256 ;; sha512) b=SHA512 ;; aes-256-gcm) b=AESGCM ;; *) b=AESCBC ;; esac
		case $2 in go-crypto) m=reuse ;; *) m=fresh ;; esac
		(cd "$T/gob" && PEERS_INPUT="$T/input.bin" ./peers.test -test.run '^$' -test.bench "^Benchmark$b\$/^$m\$/^$4\$" \
			-test.benchtime 100ms -test.count 5 >"$T/gob.log" 2>&1) || { tail -n 20 "$T/gob.log"; exit 1; }
		awk -v l="$2" -v a="$3" -v s="$4" '/^Benchmark.* ns\/op/ { print l "\t" a "\t" s "\t" $3 }' "$T/gob.log" | medians >>"$6" ;;
	esac
}

# cb_run GROUP OUT [--only TERMS]: cryptobench's run of peers.lua's GROUP.
cb_run() {
	g=$1 out=$2
	shift 2
	rm -f "$out"
	"$CB" run "$here/peers.lua" --set group="$g" ${PEERS_SET:+--set "$PEERS_SET"} "$@" -o "$out" >/dev/null 2>"$T/cb.err" ||
		{ cat "$T/cb.err"; exit 1; }
}

# alternation GROUP K TRY: cryptobench's run of GROUP, then its peer, the
# CPU's speed before, between and after, into $T/try-*-TRY.* and a line
# "group k try speed0 speed1 speed2 moved%" appended to $T/steady.tsv. A
# by-cell group's pairs run cell after cell, its speed read before, after
# half its cells and after.
alternation() {
	s0=$(cpu_speed)
	: >"$T/try-cb-$3.jsonl"
	: >"$T/try-peer-$3.tsv"
	cells "$1" >"$T/cells.txt"
	if [ -s "$T/cells.txt" ]; then
		n=$(wc -l <"$T/cells.txt") i=0
		while read -r label alg size <&3; do
			cb_run "$1" "$T/cell.jsonl" --only "label=$label,algorithm=$alg,size=${size}B"
			cat "$T/cell.jsonl" >>"$T/try-cb-$3.jsonl"
			cell_peer "$1" "$label" "$alg" "$size" "$T/cell.jsonl" "$T/try-peer-$3.tsv"
			i=$((i + 1))
			[ "$i" -ne $((n / 2)) ] || s1=$(cpu_speed)
		done 3<"$T/cells.txt"
	else
		cb_run "$1" "$T/try-cb-$3.jsonl"
		s1=$(cpu_speed)
		peer "$1" "$T/try-peer-$3.tsv"
	fi
	s2=$(cpu_speed)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$s0" "$s1" "$s2" |
		awk -F '\t' -v OFS='\t' '{ lo = $4; hi = $4; for (i = 5; i <= 6; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
			print $0, sprintf("%.1f", 100 * (hi / lo - 1)) }' >>"$T/steady.tsv"
}

for group in $GROUPS; do
	if [ "$group" = rust ] && [ ! -x "$RUST_BIN" ]; then
		echo "== rust: skipped, the worker is not built ($RUST_BIN: make builds it with cargo)"
		continue
	fi
	k=1
	while [ "$k" -le "$N" ]; do
		try=1 best=1 least=
		while :; do
			echo "== $group, alternation $k of $N, try $try: cryptobench, then its peer ($(date -u +%H:%M:%S))"
			alternation "$group" "$k" "$try"
			moved=$(tail -n 1 "$T/steady.tsv" | cut -f 7)
			echo "   the CPU's speed: $(tail -n 1 "$T/steady.tsv" | cut -f 4-6 | tr '\t' ' ') MB/s, moved $moved%"
			if [ -z "$least" ] || awk -v m="$moved" -v l="$least" 'BEGIN { exit !(m < l) }'; then
				least=$moved best=$try
			fi
			awk -v m="$moved" -v s="$STEADY" 'BEGIN { exit !(m <= s) }' && break
			[ "$try" -lt "$TRIES" ] || break
			try=$((try + 1))
		done
		mv "$T/try-cb-$best.jsonl" "$T/cb-$group-$k.jsonl"
		cb_medians "$T/cb-$group-$k.jsonl" >>"$T/cb-$k.tsv"
		cat "$T/try-peer-$best.tsv" >>"$T/peer-$k.tsv"
		awk -F '\t' -v OFS='\t' -v g="$group" -v k="$k" -v b="$best" '$1 == g && $2 == k { $8 = ($3 == b) ? "kept" : "repeated" } 1' \
			"$T/steady.tsv" >"$T/steady.new" && mv "$T/steady.new" "$T/steady.tsv"
		rm -f "$T"/try-*
		k=$((k + 1))
	done
done
echo "== noise at the end:"
sh "$top/tests/bench/noise.sh" "$CPU" | tee "$T/noise-end.txt"
if [ -n "${PEERS_KEEP:-}" ]; then
	mkdir -p "$PEERS_KEEP" && cp "$T"/*.tsv "$T"/*.jsonl "$T"/noise-*.txt "$PEERS_KEEP/"
fi
echo "== $(lscpu | sed -n 's/^Model name: *//p'), $(date -u '+%Y-%m-%d %H:%M UTC')"
"$PY" "$here/compare.py" "$T" "$N" "$here/known-differences.tsv" "$STEADY"
