#!/bin/sh
# Two builds of one library in one run (a variant's lib, core/builds/libbuild.h):
# the library the program linked, copied to two paths, loaded as two builds
# beside the default in one short run. Each is identified in the header
# (three paths, one SHA-256 and build id), really separate (three load
# addresses; an env mask reaches its own build alone and initialises it
# differently), placed by the default (each build in a 2 MiB slot of its
# own, its code across a 16 MiB boundary exactly when the default's is, read
# from the file with readelf; or, when the default's is, at the default's
# address modulo 1 GiB), and every trial of all three is verified; a file
# from before slots keeps its old report line. A wrong file, an ABI mismatch
# and a build that fails its known answers stop the run before anything is
# timed. The default runs the engine's shared object there, as the builds
# do; alone, the engine compiled in. Each build's code, the default's too,
# runs from a copy of its file the process made and removes (the header
# says so; a profile names the files, not the copies). The same for nettle
# with libhogweed beside it. No timing is asserted.
. "${top_srcdir:-.}/tests/lib.sh"
plan 37

# linked SONAME: the file the program's SONAME resolves to.
linked() { ldd "$CRYPTOBENCH" | awk -v so="$1" '$1 == so { print $3 }'; }
# header FILTER: the jq FILTER applied to the header of $WORK/FILE.
header() { head -n 1 "$WORK/$1" | jq -r "$2"; }
# code_of LIB: the first and one past the last address of LIB's executable
# PT_LOAD segments (a library's addresses start at 0), as readelf says.
code_of() {
	readelf -lW "$1" | awk '$1 == "LOAD" { f = ""; for (i = 7; i < NF; i++) f = f $i
		if (f ~ /E/) print $3, $6 }' | {
		lo= hi=
		while read -r vaddr memsz; do
			[ -z "$lo" ] || [ $((vaddr)) -lt "$lo" ] && lo=$((vaddr))
			[ -z "$hi" ] || [ $((vaddr + memsz)) -gt "$hi" ] && hi=$((vaddr + memsz))
		done
		echo "$lo $hi"
	}
}
# crosses BASE LO HI: 1 when code from BASE+LO to BASE+HI lies across 16 MiB.
crosses() { echo $((($1 + $2) / 16777216 != ($1 + $3 - 1) / 16777216)); }
# placed FILE LIB: every library of the header (copies of LIB) recorded in its
# 2 MiB slot with its crossing as the file says; the default's crossing
# computed; then each build either in a slot of its own (not the default's
# nor another's) crossing as the default does not, or, only when the
# default's crosses, placed alike at its address modulo 1 GiB.
placed() {
	set -- "$1" $(code_of "$2")
	header "$1" '.engines[].library | "\(.base) \(.slot) \(.crosses_16mib) \(.placement // "-") \(.placed_like_default)"' >"$WORK/placed"
	taken= default_cross= default_base=
	while read -r base slot recorded placement met; do
		c=$(crosses $((base)) "$2" "$3")
		[ "$slot" = $((base / 2097152 % 8)) ] && [ "$recorded" = "$([ "$c" = 1 ] && echo true || echo false)" ] ||
			{ diag "base $base recorded slot $slot crossing $recorded, the file says crossing $c"; return 1; }
		if [ -z "$default_base" ]; then
			default_base=$base default_cross=$c taken=" $slot "
			continue
		fi
		case $default_cross:$placement:$met in
		0:slot:true)
			[ "$c" = 0 ] && case $taken in *" $slot "*) false ;; esac ||
				{ diag "base $base in slot $slot crossing $c, slots taken:$taken"; return 1; }
			taken="$taken$slot " ;;
		1:alike:true)
			[ $((base % 1073741824)) = $((default_base % 1073741824)) ] ||
				{ diag "base $base not alike $default_base"; return 1; } ;;
		*) diag "default at $default_base crossing $default_cross: a build at $base $placement ($met)"
			return 1 ;;
		esac
	done <"$WORK/placed"
	[ -n "$default_base" ]
}
# refused PATTERN FILE: the last run exited 2 with one line matching PATTERN
# and wrote no FILE.
refused() {
	[ "$(cat "$WORK/status")" = 2 ] && [ "$(wc -l <"$WORK/err")" = 1 ] &&
		grep -q -- "$1" "$WORK/err" && [ ! -e "$2" ] || { diag "$(head -c 300 "$WORK/err")"; false; }
}
# all_valid FILE: every trial valid, as many for each of the three engines.
all_valid() {
	test "$(jq -s '[.[] | select(.type == "trial")] | group_by(.cell.engine) |
		map(length) as $n | length == 3 and $n[0] > 0 and ($n | unique | length) == 1' "$1")" = true &&
		test "$(jq -s 'all(.[] | select(.type == "trial"); .valid)' "$1")" = true
}
# scenario ENGINE A B [ENV]: default ENGINE and builds A and B (B with ENV).
scenario() {
	cat <<EOF
local cb = require "cryptobench"
cb.scenario {
  name       = "two builds of $1",
  engines    = { "$1",
    { "$1", lib = "$2", label = "copy-a" },
    { "$1", lib = "$3", label = "copy-b"$4 } },
  algorithms = { "sha256", "aes-128-gcm" },
  sizes      = { 64, 1024 },
  rounds     = 2,
  warmup     = 0,
  trial_time = "200us",
}
EOF
}

crypto=$(linked libcrypto.so.3)
if [ -z "$crypto" ] || ! "$CRYPTOBENCH" engines | grep '^openssl ' >/dev/null; then
	skip 30 "the openssl engine or libcrypto.so.3 is not here"
else
	# The copies of the builds' files a process makes (code_copy.h) go here.
	TMPDIR="$WORK/tmp"
	export TMPDIR
	mkdir -p "$WORK/a" "$WORK/b" "$TMPDIR"
	cp "$crypto" "$WORK/a/libcrypto.so.3"
	cp "$crypto" "$WORK/b/libcrypto.so.3"
	mask='~0x200000200000000' # AES-NI and PCLMULQDQ cleared
	scenario openssl "$WORK/a/libcrypto.so.3" "$WORK/b/libcrypto.so.3" \
		", env = { OPENSSL_ia32cap = \"$mask\" }" >"$WORK/ossl.lua"
	cb run "$WORK/ossl.lua" -o "$WORK/ossl.jsonl"
	check "openssl: the default and two builds run in one process" status_is 0
	check "...the header names three libraries by three paths, the default's first" \
		test "$(header ossl.jsonl '[.engines[].library.path] | unique | length')" = 3 -a \
		"$(header ossl.jsonl '.engines[0].library | "\(.default) \(.path)"')" = "true $crypto"
	check "...with one SHA-256, one build id and one version" \
		test "$(header ossl.jsonl '[.engines[].library | "\(.sha256) \(.build_id) \(.version)"] | unique | length')" = 1
	check "...the builds' engines are named after their labels" \
		test "$(header ossl.jsonl '[.engines[].name] | join(" ")')" = "openssl openssl@copy-a openssl@copy-b"
	check "...and the default runs the engine's shared object, the code the builds run" \
		test "$(header ossl.jsonl '[.engines[].library.engine_code] | join(" ")')" = "object object object"
	check "...and each one's code runs from a copy the process made, the default's too" \
		test "$(header ossl.jsonl '[.engines[].library.code_from] | join(" ")')" = "copy copy copy"
	check "...each loaded at an address of its own" \
		test "$(header ossl.jsonl '[.engines[].library.base] | unique | length')" = 3
	check "...each in a 2 MiB slot of its own crossing 16 MiB as the default (or alike when it does)" \
		placed ossl.jsonl "$crypto"
	check "...the mask reached copy-b alone" \
		test "$(header ossl.jsonl '[.engines[].features.ia32cap_env] | map(. // "-") | join(" ")')" = "- - $mask"
	check "...and copy-b alone was initialised with it (its capability words differ)" \
		test "$(header ossl.jsonl '[.engines[].features.cpuinfo] | .[0] == .[1] and .[0] != .[2]')" = true
	check "...every trial of all three is valid (outputs verified)" all_valid "$WORK/ossl.jsonl"
	cb report "$WORK/ossl.jsonl"
	check "...the report carries the builds' labels" out_has '^copy-b '
	check "...and names each build's library by path and SHA-256" \
		test "$(grep -c "^library of openssl@copy-[ab]: $WORK/[ab]/libcrypto.so.3, OpenSSL" "$WORK/out")" = 2
	check "...and says the default ran through the engine's object" \
		out_has "^library of openssl (linked, through the engine.s object): $crypto"
	check "...and that each one's code ran from a copy of its file" \
		test "$(tr -s ' \n' '  ' <"$WORK/out" | grep -o 'its code ran from a copy of the file' | wc -l)" = 3
	if [ "$(head -n 1 "$WORK/placed" | cut -d' ' -f3)" = true ]; then
		placement_line='^builds placed alike: at the default.s address modulo 1 GiB, no 2 MiB'
	else
		placement_line='^builds placed apart: each in its own 2 MiB slot, none across a 16 MiB boundary, like the default'
	fi
	check "...and says how the builds were placed (apart, or alike when the default crosses 16 MiB)" \
		out_has "$placement_line"
	# The same file as one from before slots: no placement, slot or crossing.
	{ head -n 1 "$WORK/ossl.jsonl" | jq -c '.engines[].library |= del(.placement, .slot, .crosses_16mib)'
		tail -n +2 "$WORK/ossl.jsonl"; } >"$WORK/old.jsonl"
	cb report "$WORK/old.jsonl"
	check "...and of a file from before slots, as it said then: placed alike" \
		out_has '^builds placed alike: each build.s library at the default.s'


	cb verify --lib "openssl=$WORK/a/libcrypto.so.3"
	check "verify --lib checks the build beside its engine, and both pass" \
		sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] &&
			grep -q '2 of 2 engines usable.*all passed' '$WORK/out'"
	cb engines --json --lib "openssl=$WORK/b/libcrypto.so.3"
	check "engines --lib lists the build, identified, usable" \
		test "$(jq -r '.[] | select(.name == "openssl@'"$WORK"'/b/libcrypto.so.3") |
			"\(.usable) \(.library.path) \(.library.default)"' "$WORK/out")" = \
		"true $WORK/b/libcrypto.so.3 false"
	cp "$(linked libz.so.1)" "$WORK/libz.so.1" 2>/dev/null || : >"$WORK/libz.so.1"
	scenario openssl "$WORK/a/libcrypto.so.3" "$WORK/libz.so.1" >"$WORK/wrong.lua"
	cb run "$WORK/wrong.lua" -o "$WORK/wrong.jsonl"
	check "a file that is not libcrypto: exit 2, one line at its line, nothing written" \
		refused "^$WORK/wrong.lua:6: $WORK/libz.so.1" "$WORK/wrong.jsonl"
	# The same library under another ABI's soname (same length, in place).
	perl -pe 's/libcrypto\.so\.3\0/libcrypto.so.9\0/g' "$crypto" >"$WORK/libcrypto.so.9"
	scenario openssl "$WORK/a/libcrypto.so.3" "$WORK/libcrypto.so.9" >"$WORK/abi.lua"
	cb run "$WORK/abi.lua" -o "$WORK/abi.jsonl"
	check "another ABI (soname libcrypto.so.9): exit 2, said" \
		refused "is libcrypto.so.9, another ABI" "$WORK/abi.jsonl"
	cb verify --lib "openssl=$WORK/a/libcrypto.so.3" --lib "openssl=$WORK/libcrypto.so.9"
	check "verify --lib with another ABI: a usage error, exit 2" refused "another ABI" /nonexistent
	libs=
	for i in 1 2 3 4 5 6 7 8; do
		mkdir -p "$WORK/m$i"
		ln -s "$WORK/a/libcrypto.so.3" "$WORK/m$i/libcrypto.so.3"
		libs="$libs --lib openssl=$WORK/m$i/libcrypto.so.3"
	done
	# shellcheck disable=SC2086 # one word per option
	cb engines $libs
	check "an eighth build in one process is refused, naming glibc's limits" \
		refused "m8/libcrypto.so.3: more than 7 other builds.*link-map namespaces" /nonexistent
	CRYPTOBENCH_FAULT=openssl@copy-a cb run "$WORK/ossl.lua" -o "$WORK/kat.jsonl"
	check "a build that fails its known answers is refused, named, before any timing" \
		refused "a/libcrypto.so.3 fails its known answers" "$WORK/kat.jsonl"
	check "no copy is left behind, after a run or a refusal" test -z "$(ls -A "$TMPDIR")"
	cb run "$WORK/ossl.lua" --explain=10 -o "$WORK/explained.jsonl"
	check "profiled, the builds' code is named by their files, not their copies" \
		test "$(jq -r 'select(.type == "profile") | .profile.functions[]?.object' \
			"$WORK/explained.jsonl" | grep 'libcrypto' | sort -u | tr '\n' ' ')" = \
		"$(printf '%s\n' "$(realpath "$crypto")" "$WORK/a/libcrypto.so.3" "$WORK/b/libcrypto.so.3" |
			sort | tr '\n' ' ')"
	cb run --engines openssl --algorithms sha256 --sizes 64B --set rounds=1 --set warmup=0 \
		-o "$WORK/alone.jsonl"
	check "a run without another build runs the engine compiled into the program" \
		test "$(header alone.jsonl '[.engines[].library.engine_code] | join(" ")')" = program
	check "...from the library's own file" \
		test "$(header alone.jsonl '[.engines[].library.code_from] | join(" ")')" = file
	cb compare --baseline "$WORK/alone.jsonl" "$WORK/ossl.jsonl"
	check "compare --baseline says the default ran other code beside the builds than alone" \
		sh -c 'tr -s " \n" "  " <"$1" | grep -q "engine openssl: the engine.s object, its library.s code from a copy of its file (baseline: the engine compiled into the program, its library.s code from its file)"' sh "$WORK/out"
	CRYPTOBENCH_FAULT=sim@1 cb run --engines sim --algorithms sha256 --sizes 64B \
		--set rounds=2 --set warmup=0 -o "$WORK/sim.jsonl"
	check "the fault switch still reads ENGINE@ROUND for a plain engine: round 1 alone hit" \
		test "$(jq -s -c '[.[] | select(.type == "trial") | .valid]' "$WORK/sim.jsonl")" = "[true,false]"
fi

nettle=$(linked libnettle.so.8)
hogweed=$(linked libhogweed.so.6)
if [ -z "$nettle" ] || [ -z "$hogweed" ] || ! "$CRYPTOBENCH" engines | grep '^nettle ' >/dev/null; then
	skip 7 "the nettle engine or libnettle.so.8 and libhogweed.so.6 are not here"
else
	for d in na nb; do
		mkdir -p "$WORK/$d"
		cp "$nettle" "$WORK/$d/libnettle.so.8"
		cp "$hogweed" "$WORK/$d/libhogweed.so.6"
	done
	scenario nettle "$WORK/na/libnettle.so.8" "$WORK/nb/libnettle.so.8" >"$WORK/nettle.lua"
	cb run "$WORK/nettle.lua" -o "$WORK/nettle.jsonl"
	check "nettle: the default and two builds run in one process" status_is 0
	check "...three paths, one SHA-256" \
		test "$(header nettle.jsonl '[.engines[].library.path] | unique | length'
			header nettle.jsonl '[.engines[].library.sha256] | unique | length')" = "3
1"
	check "...three load addresses" \
		test "$(header nettle.jsonl '[.engines[].library.base] | unique | length')" = 3
	check "...every trial valid" all_valid "$WORK/nettle.jsonl"
	check "...the default through nettle's object, as the builds" \
		test "$(header nettle.jsonl '[.engines[].library.engine_code] | join(" ")')" = "object object object"
	check "...each one's code from a copy" \
		test "$(header nettle.jsonl '[.engines[].library.code_from] | join(" ")')" = "copy copy copy"
	scenario nettle "$WORK/na/libnettle.so.8" "$crypto" >"$WORK/nwrong.lua"
	cb run "$WORK/nwrong.lua" -o "$WORK/nwrong.jsonl"
	check "libcrypto given to nettle is refused" refused "defines no nettle_version_major: not nettle" \
		"$WORK/nwrong.jsonl"
fi
done_testing
