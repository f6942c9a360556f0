#!/bin/sh
# tests/bench/noise.sh with an openssl on PATH that prints a fixed speed and
# notes the CPUs it may run on: the noise's two lines and each vCPU's; with
# a CPU named, the five noise processes run on it (tests/bench/cpu.sh's
# pin_to), each vCPU's on its own, and the line says which CPU measures;
# without one, the kernel places them. The pinning points are skipped on a
# machine this test can only place on one CPU, where they could not fail.
. "${top_srcdir:-.}/tests/lib.sh"
plan 4
NOISE="$top_srcdir/tests/bench/noise.sh"
mkdir -p "$WORK/bin"
cat >"$WORK/bin/openssl" <<'FAKE'
#!/bin/sh
# openssl speed ... -evp ALG ...: a fixed speed; ALG and the CPUs allowed to $CPUS_LOG
while [ $# -gt 0 ]; do [ "$1" = -evp ] && alg=$2; shift; done
echo "$alg $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" >>"$CPUS_LOG"
echo "+F:1:$alg:1800000000.00"
FAKE
chmod +x "$WORK/bin/openssl"
# noise [CPU]: noise.sh's output in $WORK/out, the processes' CPUs in $WORK/cpus.
noise() {
	rm -f "$WORK/cpus"
	PATH="$WORK/bin:$PATH" CPUS_LOG="$WORK/cpus" CB_PINNED_CPU= sh "$NOISE" "$@" >"$WORK/out" 2>"$WORK/err"
}
own=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
vcpus=$(nproc --all)

noise
unpinned() {
	grep -qx 'CPU time: mean 1800.0 MB/s, CV 0.00%' "$WORK/out" &&
		grep -qx -- '-elapsed: mean 1800.0 MB/s, CV 0.00%' "$WORK/out" &&
		[ "$(grep -c '^sha256 '"$own"'$' "$WORK/cpus")" -eq 10 ] &&
		grep -q 'measuring on any cpu)$' "$WORK/out" || { diag "$(cat "$WORK/out" "$WORK/err")"; false; }
}
check "no CPU: the noise's two lines, its ten processes where this test runs" unpinned
each_vcpu() {
	want=$(seq 0 $((vcpus - 1)) | awk '{ printf "cpu%s 1800 MB/s ", $1 }')
	grep -q "^$want(sha512" "$WORK/out" &&
		[ "$(grep '^sha512 ' "$WORK/cpus")" = "$(seq 0 $((vcpus - 1)) | sed 's/^/sha512 /')" ] ||
		{ diag "$(tail -n 1 "$WORK/out")"; diag "$(grep '^sha512 ' "$WORK/cpus" | tr '\n' ' ')"; false; }
}
check "each vCPU's speed, measured on it" each_vcpu

if [ "$own" = 0 ]; then
	skip 2 "this test runs on CPU 0 alone: pinning to it would change nothing"
else
	noise 0
	pinned() {
		[ "$(grep -c '^sha256 0$' "$WORK/cpus")" -eq 10 ] && grep -q 'measuring on cpu 0)$' "$WORK/out" ||
			{ diag "$(grep '^sha256' "$WORK/cpus" | sort | uniq -c | tr '\n' ' ')"; diag "$(tail -n 1 "$WORK/out")"; false; }
	}
	check "noise.sh 0: the ten noise processes on CPU 0, and it says so" pinned
	check "noise.sh 0: each vCPU's speed still on its own" each_vcpu
fi

done_testing
