#!/bin/sh
# cryptobench for 64-bit ARM, cross-built here and run under qemu-user
# (doc/arm64.md). The source's tracked files are copied to a build folder
# (CB_ARM64_BUILD, default build-arm64/ beside the native build), configured
# there with --host=aarch64-linux-gnu against Debian's arm64 packages (and the
# private sysroot bootstrap extracts libgcrypt's and wolfSSL's into: their
# -dev packages cannot be installed beside the amd64 ones), and the program
# and the unit tests are built, with every C library engine Debian ships for
# arm64; then, each AArch64 program run through binfmt_misc and qemu-user:
#   - every C unit test, one point each with its counts (test_profile's A64
#     decoder among them);
#   - the CLI tests of the in-process engines (CB_ARM64_CLI lists them);
#   - `verify` of every library engine built (every known answer);
#   - the capability-mask scenario's plan (--dry-run): OPENSSL_armcap masks;
#   - a run made under emulation, read here by the native program: report,
#     compare (against the same run made natively: two hosts) and plot, its
#     host an aarch64 machine with its HWCAP features, marked qemu-user.
# Timings under emulation mean nothing: only correctness is checked.
#
# Needs root to install what is missing (./bootstrap --host=aarch64-linux-gnu
# --packages-only; CB_ARM64_INSTALL=no only checks), and binfmt_misc, which it
# mounts and registers qemu-aarch64 in when it can; else every point is a SKIP
# naming what is missing. On demand only: `make check-arm64` (doc/arm64.md
# says why it is not part of `make check` or CI).
. "${top_srcdir:-.}/tests/lib.sh"
top=$(cd "${top_srcdir:-.}" && pwd)
B=${CB_ARM64_BUILD:-${top_builddir:-.}/build-arm64}
mkdir -p "$B" && B=$(cd "$B" && pwd)
# The -dev packages that cannot be installed for arm64 beside their amd64
# twins (libgcrypt20-dev, libwolfssl-dev) are extracted here by bootstrap.
R="$B/sysroot"
unit=$(sed -n '/^unit_tests = /,/^$/p' "$top/tests/local.mk" | grep -o 'tests/test_[a-z0-9_]*')
: "${CB_ARM64_CLI:=tests/cli_basics.sh tests/cli_options.sh tests/cli_bad_scenarios.sh
tests/cli_run_sim.sh tests/cli_output.sh tests/cli_plan.sh tests/cli_oneline.sh
tests/cli_openssl.sh tests/cli_verify.sh tests/cli_masks.sh tests/cli_bad_results.sh
tests/cli_compressed.sh tests/cli_until.sh tests/cli_export.sh tests/cli_csv.sh
tests/cli_public_key.sh tests/cli_references.sh}"
n_unit=$(echo $unit | wc -w)
n_cli=$(echo $CB_ARM64_CLI | wc -w)
N=$((3 + n_unit + n_cli + 6))
plan $N

skip_all() {
	skip $((N - tap_n)) "$1"
	exit 0
}

# ---- What the cross build needs ----
if [ "${CB_ARM64_INSTALL:-yes}" != no ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	CB_ARM64_SYSROOT="$R" "$top/bootstrap" --host=aarch64-linux-gnu --packages-only >"$WORK/bootstrap.log" 2>&1 ||
		skip_all "installing the arm64 packages failed: $(tail -n 1 "$WORK/bootstrap.log")"
	grep -E 'left out|extracted into' "$WORK/bootstrap.log" | sed 's/^/# /'
fi
command -v aarch64-linux-gnu-gcc >/dev/null ||
	skip_all "no aarch64-linux-gnu-gcc (Debian: crossbuild-essential-arm64; ./bootstrap --host=aarch64-linux-gnu --packages-only)"
for pc in lua5.4 gsl jansson zlib libzstd libcrypto libdw capstone; do
	[ -f "/usr/lib/aarch64-linux-gnu/pkgconfig/$pc.pc" ] || [ -f "/usr/share/pkgconfig/$pc.pc" ] ||
		[ -f "/usr/local/lib/aarch64-linux-gnu/pkgconfig/$pc.pc" ] ||
		skip_all "no arm64 $pc.pc: the arm64 -dev packages are missing (./bootstrap --host=aarch64-linux-gnu --packages-only)"
done
command -v git >/dev/null && git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
	skip_all "not a git checkout: the build copies the tracked files"

# An AArch64 program must run as one: binfmt_misc hands it to qemu-aarch64
# (cryptobench starts itself again for a variant with env, so a wrapper that
# runs only the first program is not enough).
printf 'int main(void) { return 0; }\n' >"$WORK/hello.c"
aarch64-linux-gnu-gcc -o "$WORK/hello" "$WORK/hello.c" || skip_all "the cross compiler cannot link a program"
if ! "$WORK/hello" 2>/dev/null; then
	[ -e /proc/sys/fs/binfmt_misc/register ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null
	command -v update-binfmts >/dev/null && update-binfmts --enable qemu-aarch64 2>/dev/null
	"$WORK/hello" 2>/dev/null ||
		skip_all "AArch64 programs do not run here: binfmt_misc has no qemu-aarch64 (Debian: qemu-user-static, binfmt-support; mounting binfmt_misc needs root)"
fi
diag "$(qemu-aarch64-static --version 2>/dev/null | head -n 1)"

# ---- The cross build ----
S="$B/src"
O="$B/build"
mkdir -p "$S" "$O"
# Tracked and new files as the work tree has them; tar keeps their times, so
# an unchanged file is not built again.
(cd "$top" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
	tar -C "$S" -xf -
configured() {
	if [ ! -x "$S/configure" ] || [ "$S/configure.ac" -nt "$S/configure" ]; then
		(cd "$S" && autoreconf -fi) >"$WORK/autoreconf.log" 2>&1 || return 1
	fi
	[ -f "$O/config.status" ] && [ "$O/config.status" -nt "$S/configure" ] &&
		{ [ ! -f "$R/packages" ] || [ "$O/config.status" -nt "$R/packages" ]; } && return 0
	# The workers of other runtimes are not cross-built: their tools here
	# would build x86-64 programs. The sysroot's pkg-config files first.
	(cd "$O" && "$S/configure" --host=aarch64-linux-gnu --quiet \
		PKG_CONFIG=pkg-config \
		PKG_CONFIG_PATH="$R/pkgconfig" \
		PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/local/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
		ac_cv_path_GO= ac_cv_path_CARGO= ac_cv_path_JAVAC= ac_cv_path_JAVA= \
		ac_cv_path_DOTNET=) >"$O/configure.out" 2>&1
}
check "configure --host=aarch64-linux-gnu in $O" configured ||
	{ tail -n 20 "$O/configure.out" "$WORK/autoreconf.log" 2>/dev/null | sed 's/^/# /'; skip_all "no cross build"; }
grep -E '^  (engines|profiler):' "$O/configure.out" 2>/dev/null | sed 's/^/# /'

# The engines' shared objects too (configure's CB_ENGINE_OBJECTS): a variant
# with `lib = FILE` loads them, and without them the scenario checks of `lib`
# meet "none here" instead of the file that is not there.
built() {
	objects=$(sed -n 's/^CB_ENGINE_OBJECTS = //p' "$O/Makefile")
	make -C "$O" -j2 cryptobench $objects $unit tests/profile_loop >"$WORK/make.log" 2>&1 || return 1
	# e_machine of the ELF header: 183, EM_AARCH64.
	[ "$(od -An -tu2 -j18 -N2 "$O/cryptobench" | tr -d ' ')" = 183 ]
}
check "build: cryptobench and the unit tests, AArch64 programs" built ||
	{ grep -E 'error|warning' "$WORK/make.log" | head -n 20 | sed 's/^/# /'; skip_all "the cross build failed"; }
# Debian 12 ships all eight for arm64 (doc/arm64.md); kcapi is built even
# where the kernel has no AF_ALG (then unavailable at run time).
: "${CB_ARM64_LIBRARIES:=gcrypt gnutls kcapi mbedtls nettle openssl sodium wolfssl}"
built_libraries=$("$O/cryptobench" engines 2>/dev/null | awk '$2 == "library" { print $1 }' | sort | tr '\n' ' ')
check "the cross build has every C library engine Debian ships for arm64: $CB_ARM64_LIBRARIES" \
	test "$built_libraries" = "$CB_ARM64_LIBRARIES " || diag "built: $built_libraries"

# ---- Under qemu-user ----
# Points that fail only because of the emulator, each with its reason; any
# other failure fails its test. test_scenario's huge table reaches the
# sandbox's 2 s CPU budget before its 256 MiB memory limit when every string
# copy runs emulated; qemu-user implements no ptrace, so test_profile's
# refused tracer hears ENOSYS, not the kernel's EPERM. tests/cli_bad_scenarios.sh
# meets the same budget and names its points otherwise.
emulation_slow='^not ok [0-9]* - (hostile-huge-table.lua: (the error (starts with|says "not enough memory)|names file and line|says .not enough memory)|a refusal says why: ptrace: .*Function not implemented)'

# tap_counts LOG: "N passed, M skipped" of a TAP log; false when any failed
# for a reason other than the emulator's speed.
tap_counts() {
	passed=$(grep -c '^ok' "$1")
	skipped=$(grep -c '^ok.*# SKIP' "$1")
	slow=$(grep -Ec "$emulation_slow" "$1")
	failed=$(($(grep -c '^not ok' "$1") - slow))
	counts="$((passed - skipped)) passed, $skipped skipped, $failed failed"
	[ "$slow" -eq 0 ] || counts="$counts, $slow failed for the emulator (named in the script)"
	[ "$failed" -eq 0 ]
}
# emulated LOG COMMAND...: COMMAND's TAP into LOG, with the environment of
# the suite's tests pointing at the cross build. CB_EMULATOR tells a test that
# its figures are the emulator's (tests/cli_export.sh's peak RSS).
emulated() {
	log=$1
	shift
	(cd "$O" && env top_srcdir="$S" top_builddir="$O" CRYPTOBENCH="$O/cryptobench" \
		CB_EMULATOR=qemu-user OPENSSL_CMD="${OPENSSL_CMD:-}" GO= GO_TAGS= "$@") >"$log" 2>&1
}
total_passed=0
total_skipped=0
for t in $unit $CB_ARM64_CLI; do
	log="$WORK/$(basename "$t").log"
	case $t in
	*.sh) emulated "$log" sh "$S/$t" ;;
	*) emulated "$log" "./$t" ;;
	esac
	rc=$?
	tap_counts "$log"
	total_passed=$((total_passed + passed - skipped))
	total_skipped=$((total_skipped + skipped))
	check "$t under qemu-user: $counts" test "$failed" -eq 0 -a \( "$rc" -eq 0 -o "$slow" -gt 0 \) ||
		{ grep -E '^(not ok|Bail out)' "$log" | head -n 10 | sed 's/^/# /'; tail -n 5 "$log" | sed 's/^/# /'; }
	grep '^ok.*# SKIP' "$log" | sed 's/.*# SKIP /skipped: /' | sort | uniq -c | sed 's/^/# /' | head -n 5
done
diag "under qemu-user: $total_passed points passed, $total_skipped skipped"

ARM="$O/cryptobench"
libraries=$("$ARM" engines 2>/dev/null | awk '$2 == "library" && !/UNAVAILABLE/ { print $1 }')
"$ARM" verify $libraries >"$WORK/verify.out" 2>&1
echo $? >"$WORK/verify.status"
check "verify under qemu-user: every known answer of $(echo $libraries | wc -w) library engines ($(echo $libraries))" \
	test "$(cat "$WORK/verify.status")" = 0 || tail -n 15 "$WORK/verify.out" | sed 's/^/# /'

"$ARM" run "$S/scenarios/capability-mask.lua" --dry-run >"$WORK/masks.out" 2>&1
check "capability-mask on AArch64 plans OPENSSL_armcap masks of SHA-2, AES and PMULL" \
	sh -c "grep -Eq '^  openssl-no-sha2 +OPENSSL_armcap=0x[0-9a-f]+\$' '$WORK/masks.out' &&
		grep -Eq '^  openssl-no-aes +OPENSSL_armcap=0x' '$WORK/masks.out' &&
		grep -Eq '^  openssl-no-pmull +OPENSSL_armcap=0x' '$WORK/masks.out' &&
		! grep -q 'OPENSSL_ia32cap=:' '$WORK/masks.out'" ||
	head -n 30 "$WORK/masks.out" | sed 's/^/# /'

# One small run on each side, the same one-line scenario.
run_args="--engines openssl,memcpy --algorithms sha256,aes-128-gcm --sizes 4KiB --rounds 3 --trial-time 2ms --no-progress"
"$ARM" run $run_args -o "$WORK/arm64.jsonl" >"$WORK/arm64-run.out" 2>&1
"$CRYPTOBENCH" run $run_args -o "$WORK/x86.jsonl" >"$WORK/x86-run.out" 2>&1
check "a run under qemu-user: its host is aarch64, with HWCAP features, marked qemu-user" \
	test "$(head -n 1 "$WORK/arm64.jsonl" | jq -r '.host | [.kernel.machine, (.flags | has("sha2") and has("pmull") and has("sve")), .virtualization] | join(" ")')" = "aarch64 true qemu-user" ||
	{ tail -n 5 "$WORK/arm64-run.out" | sed 's/^/# /'; head -n 1 "$WORK/arm64.jsonl" | jq -c .host | sed 's/^/# /'; }
cb report "$WORK/arm64.jsonl"
check "report (natively) reads the emulated run" status_is 0
cb compare "$WORK/x86.jsonl" "$WORK/arm64.jsonl"
check "compare (natively) sets it against the native run: two hosts" \
	sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] && grep -qi 'host' '$WORK/out'"
cb plot "$WORK/arm64.jsonl" -o "$WORK/plots"
check "plot (natively) draws it" sh -c "[ \"\$(cat '$WORK/status')\" = 0 ] && ls '$WORK/plots'/*.dat >/dev/null"
done_testing
