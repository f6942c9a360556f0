#!/bin/sh
# The kcapi engine on a real kernel. This machine's kernel may have no AF_ALG
# sockets, so the test boots Debian's kernel (linux-image-amd64) under
# qemu-system-x86_64 with software emulation, from an initramfs holding the
# built cryptobench, the shared libraries it loads, a busybox for /init and
# the kernel modules AF_ALG and the algorithms need. Inside, `verify kcapi`
# runs every known-answer vector and a small scenario runs every kind of
# operation; the outputs come back on the serial console (base64 between
# markers, compressed: the emulated serial port is slow) and are checked here. Timings under emulation mean nothing: only
# correctness is checked.
#
# Needs qemu-system-x86_64, cpio, busybox and a kernel in /boot with its
# modules in /lib/modules (./bootstrap installs them); without them every
# point is a SKIP naming what is missing.
. "${top_srcdir:-.}/tests/lib.sh"
S="$top_srcdir/tests/scenarios/cli/kcapi.lua"
L="$top_srcdir/tests/scenarios/cli/kcapi-long.lua"
N=16
plan $N

skip_all() {
	skip $N "$1"
	exit 0
}

# The newest kernel in /boot whose modules are installed.
kernel=""
kver=""
for k in /boot/vmlinuz-*; do
	v=${k#/boot/vmlinuz-}
	[ -r "$k" ] && [ -f "/lib/modules/$v/modules.dep" ] || continue
	if [ -z "$kver" ] || [ "$(printf '%s\n%s\n' "$kver" "$v" | sort -V | tail -n 1)" = "$v" ]; then
		kernel=$k
		kver=$v
	fi
done
command -v qemu-system-x86_64 >/dev/null || skip_all "qemu-system-x86_64 not installed (Debian: qemu-system-x86)"
command -v cpio >/dev/null || skip_all "cpio not installed"
busybox=$(command -v busybox) || skip_all "busybox not installed (Debian: busybox-static)"
[ -n "$kernel" ] || skip_all "no readable /boot/vmlinuz-* with its /lib/modules (Debian: linux-image-amd64)"
"$CRYPTOBENCH" engines | grep -q '^kcapi ' || skip_all "the kcapi engine is not built (libkcapi-dev)"
diag "kernel $kernel"

# ---- The initramfs ----
R="$WORK/root"
mkdir -p "$R/bin" "$R/sbin" "$R/usr/bin" "$R/usr/sbin" "$R/proc" "$R/sys" "$R/dev" \
	"$R/tmp" "$R/modules" "$R/cb"

# copy_with_libs BIN DEST: BIN at DEST in the image, and every shared library
# it loads at the path the host's loader found it.
copy_with_libs() {
	cp -L "$1" "$R$2"
	ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
		while read -r lib; do
			mkdir -p "$R$(dirname "$lib")"
			cp -L "$lib" "$R$lib"
		done
}
copy_with_libs "$busybox" /bin/busybox
copy_with_libs "$CRYPTOBENCH" /cb/cryptobench
cp -R "$top_srcdir/tests/vectors" "$R/cb/vectors"
cp "$S" "$R/cb/kcapi.lua"
cp "$L" "$R/cb/kcapi-long.lua"

# The modules, each after what it depends on: modules.dep lists a module's
# dependencies with the ones to load first last. A name that is built into
# this kernel needs nothing; the algorithms are asked for by name, so each
# is listed here, not found through symbols. libkcapi also asks the kernel
# about each algorithm through the crypto netlink interface (crypto_user).
M="/lib/modules/$kver"
wanted="crypto_user af_alg algif_hash algif_skcipher algif_aead sha512_generic sha3_generic blake2b_generic
ctr gcm ghash-generic chacha_generic poly1305_generic chacha20poly1305"
order=""
add_module() { # a path as modules.dep writes it
	case " $order " in *" $1 "*) return ;; esac
	order="$order $1"
	base=$(basename "$1")
	case $base in
	*.ko) cp "$M/$1" "$R/modules/$base" ;;
	*.ko.xz) xz -dc "$M/$1" >"$R/modules/${base%.xz}" ;;
	*.ko.zst) zstd -qdc "$M/$1" >"$R/modules/${base%.zst}" ;;
	*.ko.gz) gzip -dc "$M/$1" >"$R/modules/${base%.gz}" ;;
	esac
	echo "${base%.ko*}.ko" >>"$R/modules/order"
}
: >"$R/modules/order"
for name in $wanted; do
	line=$(grep -E "/$name\\.ko(\\.[a-z]+)?:" "$M/modules.dep" | head -n 1)
	if [ -z "$line" ]; then
		grep -qE "/$name\\.ko\$" "$M/modules.builtin" 2>/dev/null || diag "module $name: not in $M"
		continue
	fi
	for dep in $(echo "${line#*:}" | tr ' ' '\n' | sed '/^$/d' | tac); do
		add_module "$dep"
	done
	add_module "${line%%:*}"
done

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
t runs done
for f in engines.out verify.out run.out kcapi.jsonl kcapi-long.jsonl; do
	echo "== begin $f"
	[ -f $f ] && gzip -c $f | base64
	echo "== end $f"
done
echo "== done"
poweroff -f
EOF
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc -R 0:0 --quiet) >"$WORK/initrd.cpio"

# ---- The guest ----
# Booted from /boot's compressed image, the emulated CPU spends half a minute
# decompressing the kernel (xz). A kernel built with PVH boots from its ELF
# image directly: decompress that here when possible, else boot the image.
boot=$kernel
if grep -qx 'CONFIG_PVH=y' "/boot/config-$kver" 2>/dev/null; then
	for off in $(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kernel" | cut -d: -f1); do
		tail -c +$((off + 1)) "$kernel" | xz -dcq --single-stream >"$WORK/vmlinux" 2>/dev/null
		if [ "$(head -c 4 "$WORK/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
			boot=$WORK/vmlinux
			break
		fi
	done
fi
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

# unpack NAME: a file the guest printed (gzip, base64), into $WORK/NAME
# (kernel messages that cut into the block are not base64 and are dropped).
unpack() {
	sed -n "/^== begin $1\$/,/^== end $1\$/p" "$WORK/serial" | sed '1d;$d' |
		grep -E '^[A-Za-z0-9+/=]+$' | base64 -d 2>/dev/null | gzip -dc >"$WORK/$1" 2>/dev/null
}
unpack engines.out
unpack verify.out
unpack run.out
unpack kcapi.jsonl
unpack kcapi-long.jsonl
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
done_testing
