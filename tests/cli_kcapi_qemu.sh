#!/bin/sh
# The kcapi engine on a real kernel. This machine's kernel may have no AF_ALG
# sockets, so the test boots Debian's kernel (linux-image-amd64) under
# qemu-system-x86_64 with software emulation, from an initramfs holding the
# built cryptobench, the shared libraries it loads, a busybox for /init and
# the kernel modules AF_ALG and the algorithms need. Inside, `verify kcapi`
# runs every known-answer vector and a small scenario runs every kind of
# operation; then the same for python-afalg, Python's socket.AF_ALG in a
# worker run by Debian's /usr/bin/python3 (tests/guest.sh copies it and the
# files it loads into the image); the outputs come back on the serial console (base64 between
# markers, compressed: the emulated serial port is slow) and are checked here. Timings under emulation mean nothing: only
# correctness is checked.
#
# Needs qemu-system-x86_64, cpio, busybox and a kernel in /boot with its
# modules in /lib/modules (./bootstrap installs them); without them every
# point is a SKIP naming what is missing.
. "${top_srcdir:-.}/tests/lib.sh"
S="$top_srcdir/tests/scenarios/cli/kcapi.lua"
L="$top_srcdir/tests/scenarios/cli/kcapi-long.lua"
A="$top_srcdir/tests/scenarios/cli/afalg.lua"
N=22
plan $N

skip_all() {
	skip $N "$1"
	exit 0
}

. "$top_srcdir/tests/guest.sh"
guest_kernel
command -v qemu-system-x86_64 >/dev/null || skip_all "qemu-system-x86_64 not installed (Debian: qemu-system-x86)"
command -v cpio >/dev/null || skip_all "cpio not installed"
busybox=$(command -v busybox) || skip_all "busybox not installed (Debian: busybox-static)"
[ -n "$kernel" ] || skip_all "no readable /boot/vmlinuz-* with its /lib/modules (Debian: linux-image-amd64)"
"$CRYPTOBENCH" engines | grep -q '^kcapi ' || skip_all "the kcapi engine is not built (libkcapi-dev)"
diag "kernel $kernel"

# ---- The initramfs ----
guest_root "$WORK/root"
cp "$S" "$R/cb/kcapi.lua"
cp "$L" "$R/cb/kcapi-long.lua"
cp "$A" "$R/cb/afalg.lua"
guest_python
# libkcapi also asks the kernel about each algorithm through the crypto
# netlink interface (crypto_user).
guest_modules crypto_user af_alg algif_hash algif_skcipher algif_aead sha512_generic sha3_generic \
	blake2b_generic ctr gcm ghash-generic chacha_generic poly1305_generic chacha20poly1305

cat >"$R/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev
exec </dev/ttyS0 >/dev/ttyS0 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
t() { echo "== at $(cut -d ' ' -f 1 /proc/uptime) s: $*"; }
t booted
# crypto_user last: first kcapi must say that it is missing.
for m in $(grep -v '^crypto_user.ko$' /modules/order) crypto_user.ko; do
	[ $m = crypto_user.ko ] && /cb/cryptobench engines >/cb/engines.out 2>&1
	insmod "/modules/$m" || echo "insmod $m failed"
done
cd /cb
t modules loaded
./cryptobench verify kcapi --vectors vectors >verify.out 2>&1
echo "== verify-status $?"
t verify done
./cryptobench run kcapi.lua -o kcapi.jsonl >run.out 2>&1
echo "== run-status $?"
./cryptobench run kcapi-long.lua -o kcapi-long.jsonl >>run.out 2>&1
echo "== long-status $?"
export CRYPTOBENCH_DATADIR=/cb/share PATH=/usr/bin:/bin
./cryptobench verify python-afalg --vectors vectors >afalg-verify.out 2>&1
echo "== afalg-verify-status $?"
./cryptobench run afalg.lua -o afalg.jsonl >afalg-run.out 2>&1
echo "== afalg-status $?"
./cryptobench run kcapi-long.lua --set engine=python-afalg -o afalg-long.jsonl >>afalg-run.out 2>&1
echo "== afalg-long-status $?"
t python-afalg done
for f in engines.out verify.out run.out kcapi.jsonl kcapi-long.jsonl afalg-verify.out afalg-run.out afalg.jsonl afalg-long.jsonl; do
	echo "== begin $f"
	[ -f $f ] && gzip -c $f | base64
	echo "== end $f"
done
echo "== done"
poweroff -f
EOF
chmod +x "$R/init"
guest_pack "$WORK/initrd.cpio"

# ---- The guest ----
guest_boot_image "$WORK"
diag "booting $boot"
start=$(date +%s)
timeout 300 qemu-system-x86_64 -nodefaults -no-user-config -accel tcg -m 512M -smp 1 \
	-display none -no-reboot -serial "file:$WORK/serial.log" \
	-kernel "$boot" -initrd "$WORK/initrd.cpio" \
	-append "console=ttyS0 loglevel=1 panic=-1" </dev/null >"$WORK/qemu.out" 2>&1
echo $? >"$WORK/qemu.status"
diag "the guest ran $(($(date +%s) - start)) s (qemu exit $(cat "$WORK/qemu.status"))"
tr -d '\r' <"$WORK/serial.log" >"$WORK/serial"
sed -n 's/^== at /# guest clock at /p' "$WORK/serial"

for f in engines.out verify.out run.out kcapi.jsonl kcapi-long.jsonl afalg-verify.out \
	afalg-run.out afalg.jsonl afalg-long.jsonl; do
	guest_unpack "$WORK/serial" $f "$WORK"
done
guest_status() { sed -n "s/^== $1-status //p" "$WORK/serial"; }
sed 's/^/#   /' "$WORK/verify.out"

# if_failed COMMAND...: diagnostics, when the last point failed.
seen=0
if_failed() {
	[ "$tap_failed" -eq "$seen" ] || "$@" 2>&1 | sed 's/^/# /'
	seen=$tap_failed
}

check "the guest booted Debian's kernel, ran cryptobench and powered off" \
	sh -c "grep -q '^== done\$' '$WORK/serial' && [ \"\$(cat '$WORK/qemu.status')\" = 0 ]"
if_failed tail -n 30 "$WORK/qemu.out" "$WORK/serial"
check "the AF_ALG modules loaded" sh -c "! grep -q '^insmod .* failed' '$WORK/serial'"
if_failed grep -i insmod "$WORK/serial"
check "without crypto_user loaded, kcapi is unusable and names it" \
	grep -q '^kcapi .*UNAVAILABLE: .*crypto_user' "$WORK/engines.out"
if_failed grep '^kcapi' "$WORK/engines.out"
check "verify kcapi exits 0 in the guest" test "$(guest_status verify)" = 0
check "...kcapi is usable there and passes every vector" \
	grep -qE '^verify: 1 of 1 engines usable; vectors: [1-9][0-9]* passed, 0 failed, 0 skipped; agreement: [1-9][0-9]* checked, 0 failed: all passed$' "$WORK/verify.out"
# Every algorithm kcapi offers has its row of the matrix, and it reads ok.
offered=$("$CRYPTOBENCH" engines --json | jq '.[] | select(.name == "kcapi") | .algorithms | length')
ok_rows=$(awk '$1 == "algorithm" { m = 1; next } m && NF == 0 { exit } m && $2 == "ok" { n++ } END { print n + 0 }' "$WORK/verify.out")
check "...every algorithm it offers reads ok ($ok_rows of $offered)" test "$ok_rows" -eq "$offered" -a "$offered" -gt 0
check "the kcapi scenario exits 0 in the guest" test "$(guest_status run)" = 0
if_failed cat "$WORK/run.out"
# results EXPR: EXPR holds for the results file as one array of its lines.
results() { jq -se "$1" "$WORK/kcapi.jsonl" >/dev/null 2>&1; }
check "its results file came back whole: every line JSON, header to end line" \
	results '.[0].type == "run" and .[-1].type == "end" and .[-1].interrupted == false'
check "it was measured on the booted kernel ($kver)" results ".[0].host.kernel.release == \"$kver\""
# 2 rounds x 3 sizes x 13 cells: 6 in message mode and 6 with a new handle
# per message (hash, CBC both ways, GCM three ways), and stream sha256
# (stream ciphers are not offered: those cells are dropped).
check "all 78 kcapi trials are there and valid (outputs checked, forged tags rejected)" \
	sh -c "[ \"\$(jq -r 'select(.type == \"trial\") | \"\(.cell.engine) \(.valid)\"' '$WORK/kcapi.jsonl' | sort | uniq -c | awk '{ print \$1, \$2, \$3 }')\" = '78 kcapi true' ]"
if_failed sh -c "jq -c 'select(.type == \"trial\" and .valid != true) | [.cell, .error]' '$WORK/kcapi.jsonl' | head -n 5; grep -c '\"type\":\"trial\"' '$WORK/kcapi.jsonl'"
# The same scenario with the openssl engine on this host gives the outputs
# to compare (stream digests depend on the number of calls: not compared).
# outputs NAME SCENARIO CELLS: the outputs (first bytes and the SHA-256 of
# the whole) of the guest's NAME.jsonl equal those of SCENARIO run here
# with the openssl engine, over CELLS cells in message mode.
cells='select(.type == "trial" and .cell.mode == "message") | "\(.cell.algorithm) \(.cell.op) \(.cell.size) \(.output) \(.output_sha256)"'
outputs() {
	"$CRYPTOBENCH" run "$2" --set engine=openssl -o "$WORK/$1-openssl.jsonl" >/dev/null 2>&1 &&
		jq -r "$cells" "$WORK/$1.jsonl" | sort -u >"$WORK/$1.k" &&
		jq -r "$cells" "$WORK/$1-openssl.jsonl" | sort -u >"$WORK/$1.o" &&
		[ "$(wc -l <"$WORK/$1.k")" -eq "$3" ] && cmp -s "$WORK/$1.k" "$WORK/$1.o"
}
check "its outputs are the host's openssl outputs, cell by cell (18 cells)" outputs kcapi "$S" 18
if_failed diff "$WORK/kcapi.k" "$WORK/kcapi.o"
want=$("$CRYPTOBENCH" input 16KiB | sha256sum | cut -c1-64)
check "its sha256 of 16 KiB is sha256sum's of the same generated bytes" \
	sh -c "[ \"\$(jq -r 'select(.type == \"trial\" and .cell.mode == \"message\" and .cell.algorithm == \"sha256\" and .cell.size == 16384) | .digest' '$WORK/kcapi.jsonl' | sort -u)\" = '$want' ]"
check "the header names the kernel drivers behind sha256 and cbc(aes)" \
	results '[.[0].engines[] | select(.name == "kcapi") | .features.drivers | (.sha256 | type == "string") and (."cbc(aes)" | type == "string")] == [true]'
if_failed jq -sc '.[0].engines[] | select(.name == "kcapi")' "$WORK/kcapi.jsonl"
cb report "$WORK/kcapi.jsonl"
check "report reads it" status_is 0
check "messages longer than a kernel operation (CBC, CTR, both ways): 8 valid trials" \
	sh -c "[ \"\$(cat '$WORK/serial' | sed -n 's/^== long-status //p')\" = 0 ] && [ \"\$(jq -r 'select(.type == \"trial\") | \"\(.cell.engine) \(.valid)\"' '$WORK/kcapi-long.jsonl' | sort | uniq -c | awk '{ print \$1, \$2, \$3 }')\" = '8 kcapi true' ]"
if_failed sh -c "tail -n 3 '$WORK/run.out'; jq -c 'select(.type == \"trial\" and .valid != true) | [.cell, .error]' '$WORK/kcapi-long.jsonl' | head -n 4"
check "...whose outputs are the host's openssl outputs (4 cells)" outputs kcapi-long "$L" 4
if_failed diff "$WORK/kcapi-long.k" "$WORK/kcapi-long.o"

# ---- python-afalg: Python's socket.AF_ALG in a worker ----
sed 's/^/#   /' "$WORK/afalg-verify.out"
# valid STATUS FILE N: the guest's run exited 0, and its results file has
# N trials, all python-afalg and valid.
valid() {
	[ "$(guest_status "$1")" = 0 ] || return 1
	[ "$(jq -r 'select(.type == "trial") | "\(.cell.engine) \(.valid)"' "$WORK/$2" | sort | uniq -c |
		awk '{ print $1, $2, $3 }')" = "$3 python-afalg true" ]
}
invalid() { jq -c 'select(.type == "trial" and .valid != true) | [.cell, .error]' "$WORK/$1" | head -n 5; }
verified() {
	[ "$(guest_status afalg-verify)" = 0 ] &&
		grep -qE '^verify: 1 of 1 engines usable; vectors: [1-9][0-9]* passed, 0 failed, 0 skipped' "$WORK/afalg-verify.out"
}
check "verify python-afalg: Debian's Python in the guest passes every vector" verified
if_failed cat "$WORK/afalg-verify.out" "$WORK/afalg-run.out"
# 1 round x 2 sizes x 8 cells: sha256, CBC and CTR both ways, GCM three ways.
check "the python-afalg scenario exits 0: all 16 trials there and valid" valid afalg afalg.jsonl 16
if_failed invalid afalg.jsonl
check "...its outputs are the host's openssl outputs (16 cells)" outputs afalg "$A" 16
if_failed diff "$WORK/afalg.k" "$WORK/afalg.o"
named() {
	jq -se '[.[0].engines[] | select(.name == "python-afalg") | .features |
		(.executable == "/usr/bin/python3") and (.library | test("AF_ALG .*cbc\\(aes\\)="))] == [true]' \
		"$WORK/afalg.jsonl" >/dev/null
}
check "...its header names Debian's Python and the kernel's drivers" named
if_failed jq -sc '.[0].engines[] | select(.name == "python-afalg")' "$WORK/afalg.jsonl"
check "python-afalg past one 64 KiB piece (CBC, CTR, both ways): 8 valid trials" \
	valid afalg-long afalg-long.jsonl 8
if_failed invalid afalg-long.jsonl
check "...whose outputs are the host's openssl outputs (4 cells)" outputs afalg-long "$L" 4
if_failed diff "$WORK/afalg-long.k" "$WORK/afalg-long.o"
done_testing
