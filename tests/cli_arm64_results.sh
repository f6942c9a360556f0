#!/bin/sh
# A results file made by the AArch64 build under qemu-user
# (tests/arm64/emulated.jsonl) reads here like any other: report, compare
# and plot, its host an aarch64 machine with its HWCAP features, and the
# report saying that its timings are the emulator's. tests/arm64/native.jsonl
# is the same one-line run made natively, on the same machine and day, for
# compare to set the two hosts against each other. doc/arm64.md says how
# both were made (tests/arm64.sh makes such a pair on every run of its own).
. "${top_srcdir:-.}/tests/lib.sh"
plan 7
E="$top_srcdir/tests/arm64/emulated.jsonl"
X="$top_srcdir/tests/arm64/native.jsonl"

check "the emulated run's host: aarch64, HWCAP features, marked qemu-user" \
	test "$(head -n 1 "$E" | jq -r '.host | [.kernel.machine, (.flags | keys | length),
		.flags.sha2, .flags.pmull, .virtualization] | map(tostring) | join(" ")')" = \
	"aarch64 14 true true qemu-user"

cb report "$E"
check "report reads it" status_is 0
check "...names its processor by MIDR and says its timings are the emulator's" \
	sh -c "tr '\n' ' ' <'$WORK/out' | tr -s ' ' | grep -q 'host: implementer 0x00 part 0x051, 2 logical cores' &&
		tr '\n' ' ' <'$WORK/out' | tr -s ' ' | grep -q 'emulated (qemu-user): the timings are the emulator.s and say nothing of any aarch64 CPU'"

cb report "$X"
check "the native run's report says nothing of emulation" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] && ! grep -q 'emulated' '$WORK/out'"

cb compare "$X" "$E"
check "compare sets the two hosts against each other, the aarch64 one named by its MIDR" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] &&
		grep -q '^compare: 1 host against the baseline host vm (AMD EPYC)' '$WORK/out' &&
		grep -q 'B1: host vm (implementer 0x00 part 0x051), 1 run' '$WORK/out'"
check "...judged as another machine, not another run of the x86-64 one" \
	grep -q 'note: another machine of that name: vm | implementer 0x00 part 0x051 | 0/81/0' "$WORK/out"

cb plot "$E" -o "$WORK/plots"
check "plot draws it" sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] && ls '$WORK/plots'/*.dat >/dev/null"
done_testing
