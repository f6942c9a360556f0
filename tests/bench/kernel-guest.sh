#!/bin/sh
# kernel-guest.sh: the kernel's crypto interface timed, beside the runtime's
# library, in a KVM guest. This machine's kernel may have no AF_ALG sockets;
# the guest boots Debian's kernel (linux-image-amd64) with `-accel kvm -cpu
# host` from an initramfs holding the built cryptobench, Debian's Python and
# the kernel modules AF_ALG and the accelerated drivers need (tests/guest.sh,
# shared with tests/cli_kcapi_qemu.sh), and runs tests/bench/kernel-guest.lua
# there: kcapi and python-afalg (Python's socket.AF_ALG) beside in-process
# openssl and python-hashlib. The results files come back on the serial
# console (gzip, base64) and are reported here like any other; their host is
# the guest, named kvm-guest-of-HOST (the header's host.hostname).
#
#   tests/bench/kernel-guest.sh [OUTDIR] [--set KEY=VALUE]...
#
# OUTDIR (default results/kernel-guest) gets kernel-guest.jsonl (hashes, CBC,
# CTR at 64 B, 16 KiB, 16 MiB), kernel-guest-aead.jsonl (AES-256-GCM at 64 B
# and 16 KiB), the guest's console log and report.txt. --set values go to
# both runs (rounds, trial_time). Needs /dev/kvm, qemu-system-x86_64, cpio,
# busybox, a kernel in /boot with its modules, and /usr/bin/python3
# (./bootstrap installs them); without one it says which and exits 77.
#
# The guest's CPU is the host's (-cpu host; CB_GUEST_CPU replaces it) and its
# kernel's command line takes CB_GUEST_APPEND as well: a nested hypervisor
# that cannot run some instruction of the guest's kernel (`KVM internal
# error ... emulation failure` from qemu, which then stops the guest) may
# need one masked (CB_GUEST_CPU=host,-cx16; CB_GUEST_APPEND=noxsave, which
# also takes AVX from the guest). The script watches for that error and for
# a guest that never finishes (CB_GUEST_TIMEOUT seconds, default 1800), and
# stops qemu with the reason. A benchmark, not a test: it asserts nothing
# but that the runs came back.
set -eu
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
CRYPTOBENCH=${CRYPTOBENCH:-$top_srcdir/cryptobench}
out=results/kernel-guest
case ${1:-} in -* | "") ;; *)
	out=$1
	shift
	;;
esac
sets=""
while [ $# -gt 0 ]; do
	case $1 in
	--set)
		sets="$sets --set $2"
		shift 2
		;;
	*)
		echo "kernel-guest: unknown argument $1 (usage: kernel-guest.sh [OUTDIR] [--set KEY=VALUE]...)" >&2
		exit 2
		;;
	esac
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cb-guest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
diag() { echo "kernel-guest: $*" >&2; }
skip() {
	echo "kernel-guest: SKIP: $*"
	exit 77
}

. "$top_srcdir/tests/guest.sh"
guest_kernel
[ -c /dev/kvm ] || skip "/dev/kvm is absent: no KVM here (the timing needs a KVM guest; tests/cli_kcapi_qemu.sh checks correctness under emulation)"
[ -r /dev/kvm ] && [ -w /dev/kvm ] || skip "/dev/kvm is not readable and writable by $(id -un) (group kvm)"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (Debian: qemu-system-x86; ./bootstrap)"
command -v cpio >/dev/null || skip "cpio not installed (./bootstrap)"
command -v busybox >/dev/null || skip "busybox not installed (Debian: busybox-static; ./bootstrap)"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 not installed (Debian: python3; ./bootstrap)"
[ -n "$kernel" ] || skip "no readable /boot/vmlinuz-* with its /lib/modules (Debian: linux-image-amd64; ./bootstrap)"
"$CRYPTOBENCH" engines 2>/dev/null | grep '^kcapi ' >/dev/null || skip "the kcapi engine is not built (libkcapi-dev)"

# ---- The initramfs ----
guest_root "$WORK/root"
cp "$top_srcdir/tests/bench/kernel-guest.lua" "$R/cb/"
guest_python
# AF_ALG, the templates, and the accelerated drivers the kernel would load
# through udev on a real system (AES-NI, SHA-NI and SSSE3 hashes, CLMUL
# GHASH): without them it picks the generic C code.
guest_modules crypto_user af_alg algif_hash algif_skcipher algif_aead sha512_generic ctr gcm \
	ghash-generic aesni-intel sha256-ssse3 sha512-ssse3 ghash-clmulni-intel
host=$(uname -n)
cat >"$R/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev
exec </dev/ttyS0 >/dev/ttyS0 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
t() { echo "== at \$(cut -d ' ' -f 1 /proc/uptime) s: \$*"; }
t booted
for m in \$(cat /modules/order); do insmod "/modules/\$m" || echo "insmod \$m failed"; done
hostname kvm-guest-of-$host
export CRYPTOBENCH_DATADIR=/cb/share PATH=/usr/bin:/bin HOME=/tmp
cd /cb
t modules loaded
./cryptobench engines >engines.out 2>&1
./cryptobench run kernel-guest.lua$sets -o kernel-guest.jsonl >run.out 2>&1
echo "== main-status \$?"
t main done
./cryptobench run kernel-guest.lua --set part=aead$sets -o kernel-guest-aead.jsonl >>run.out 2>&1
echo "== aead-status \$?"
t aead done
for f in engines.out run.out kernel-guest.jsonl kernel-guest-aead.jsonl; do
	echo "== begin \$f"
	[ -f \$f ] && gzip -c \$f | base64
	echo "== end \$f"
done
echo "== done"
poweroff -f
EOF
chmod +x "$R/init"
guest_pack "$WORK/initrd.cpio"
guest_boot_image "$WORK"

# ---- The guest ----
mkdir -p "$out"
diag "booting $boot under KVM ($(du -h "$WORK/initrd.cpio" | cut -f1) initramfs)"
start=$(date +%s)
limit=${CB_GUEST_TIMEOUT:-1800}
qemu-system-x86_64 -nodefaults -no-user-config -accel kvm -cpu "${CB_GUEST_CPU:-host}" -m 1G -smp 1 \
	-display none -no-reboot -serial "file:$WORK/serial.log" \
	-kernel "$boot" -initrd "$WORK/initrd.cpio" \
	-append "console=ttyS0 loglevel=1 panic=-1 ${CB_GUEST_APPEND:-}" </dev/null >"$WORK/qemu.out" 2>&1 &
qemu=$!
# qemu keeps a guest it could not run stopped, alive: watch for that.
why=""
while kill -0 $qemu 2>/dev/null; do
	if grep -q 'KVM internal error' "$WORK/qemu.out"; then
		why="KVM could not run the guest's kernel: qemu reports an emulation failure (code bytes below; try CB_GUEST_CPU / CB_GUEST_APPEND)"
	elif [ $(($(date +%s) - start)) -gt "$limit" ]; then
		why="the guest did not finish within $limit s (CB_GUEST_TIMEOUT)"
	fi
	[ -z "$why" ] || { kill $qemu; break; }
	sleep 5
done
status=0
wait $qemu || status=$?
diag "the guest ran $(($(date +%s) - start)) s (qemu exit $status)"
tr -d '\r' <"$WORK/serial.log" >"$out/console.log"
sed -n 's/^== at /kernel-guest: guest clock at /p' "$out/console.log" >&2
if [ -n "$why" ] || ! grep -q '^== done$' "$out/console.log"; then
	diag "FAILED: ${why:-the guest stopped before it finished}; qemu says:"
	grep -E 'internal error|emulation failure|^RIP|^Code=' "$WORK/qemu.out" >&2 || tail -n 5 "$WORK/qemu.out" >&2
	diag "the guest's console ends:"
	tail -n 5 "$out/console.log" >&2
	exit 1
fi
for f in engines.out run.out kernel-guest.jsonl kernel-guest-aead.jsonl; do
	guest_unpack "$out/console.log" $f "$out"
done
grep -h 'insmod .* failed' "$out/console.log" >&2 || true
sed 's/^/kernel-guest: guest engines: /' "$out/engines.out" | grep -E ' (kcapi|python-afalg|python-hashlib|openssl) ' >&2 || true
for part in main:kernel-guest aead:kernel-guest-aead; do
	f=${part#*:}
	[ "$(sed -n "s/^== ${part%%:*}-status //p" "$out/console.log")" = 0 ] ||
		{ diag "the $f run failed in the guest:"; tail -n 5 "$out/run.out" >&2; }
	jq -r 'select(.type == "trial") | "\(.cell.engine) \(.valid)"' "$out/$f.jsonl" | sort | uniq -c |
		sed "s/^/kernel-guest: $f.jsonl trials: /" >&2
done
"$CRYPTOBENCH" report "$out/kernel-guest.jsonl" "$out/kernel-guest-aead.jsonl" | tee "$out/report.txt"
diag "results in $out (the guest's CPU: $(jq -sr '.[0].host.cpu' "$out/kernel-guest.jsonl"), host $(jq -sr '.[0].host.hostname' "$out/kernel-guest.jsonl"))"
