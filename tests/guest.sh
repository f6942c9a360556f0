# guest.sh: an initramfs that boots Debian's kernel with cryptobench inside
# (sourced by tests/cli_kcapi_qemu.sh and tests/bench/kernel-guest.sh).
#
#   guest_kernel              set $kernel and $kver: the newest /boot/vmlinuz-*
#                             whose modules are installed (empty when none)
#   guest_root DIR            start the image in DIR ($R): busybox, the built
#                             cryptobench at /cb/cryptobench, the vectors
#   guest_copy BIN DEST       BIN at DEST in the image, with its shared libraries
#   guest_modules NAME...     the kernel modules NAME and what they depend on,
#                             in load order, listed in /modules/order
#   guest_python              Debian's /usr/bin/python3, the files its workers
#                             load, and the worker programs under /cb/share
#   guest_pack FILE           the image as a cpio archive
#   guest_boot_image DIR      set $boot: the kernel's ELF image decompressed into
#                             DIR when it boots that way (PVH), else $kernel
#   guest_unpack LOG NAME DIR a file the guest printed on its console between
#                             "== begin NAME" and "== end NAME" (gzip, base64)
#
# The guest's /init is the caller's: it loads /modules/order with insmod.

guest_kernel() {
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
}

guest_root() {
	R=$1
	mkdir -p "$R/bin" "$R/sbin" "$R/usr/bin" "$R/usr/sbin" "$R/proc" "$R/sys" "$R/dev" \
		"$R/tmp" "$R/modules" "$R/cb" "$R/etc"
	guest_copy "$(command -v busybox)" /bin/busybox
	guest_copy "$CRYPTOBENCH" /cb/cryptobench
	cp -R "$top_srcdir/tests/vectors" "$R/cb/vectors"
	: >"$R/modules/order"
	guest_order=""
}

guest_copy() {
	mkdir -p "$R$(dirname "$2")"
	cp -L "$1" "$R$2"
	ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
		while read -r lib; do
			[ -f "$R$lib" ] && continue
			mkdir -p "$R$(dirname "$lib")"
			cp -L "$lib" "$R$lib"
		done
}

# The modules, each after what it depends on: modules.dep lists a module's
# dependencies with the ones to load first last. A name that is built into
# this kernel needs nothing; the algorithms are asked for by name, so each
# is listed by the caller, not found through symbols.
guest_add_module() { # a path as modules.dep writes it
	case " $guest_order " in *" $1 "*) return ;; esac
	guest_order="$guest_order $1"
	base=$(basename "$1")
	case $base in
	*.ko) cp "$M/$1" "$R/modules/$base" ;;
	*.ko.xz) xz -dc "$M/$1" >"$R/modules/${base%.xz}" ;;
	*.ko.zst) zstd -qdc "$M/$1" >"$R/modules/${base%.zst}" ;;
	*.ko.gz) gzip -dc "$M/$1" >"$R/modules/${base%.gz}" ;;
	esac
	echo "${base%.ko*}.ko" >>"$R/modules/order"
}

guest_modules() {
	M="/lib/modules/$kver"
	for name in "$@"; do
		line=$(grep -E "/$name\\.ko(\\.[a-z]+)?:" "$M/modules.dep" | head -n 1)
		if [ -z "$line" ]; then
			grep -qE "/$name\\.ko\$" "$M/modules.builtin" 2>/dev/null || diag "module $name: not in $M"
			continue
		fi
		for dep in $(echo "${line#*:}" | tr ' ' '\n' | sed '/^$/d' | tac); do
			guest_add_module "$dep"
		done
		guest_add_module "${line%%:*}"
	done
}

# Python: the files the interpreter opens while each worker starts, found
# by running the workers here under `python3 -v`, which names every module
# file and extension it loads (the AF_ALG worker stops early on a kernel
# without AF_ALG, after its imports). The guest finds the worker programs
# through CRYPTOBENCH_DATADIR=/cb/share.
guest_python() {
	py=/usr/bin/python3
	w="$top_srcdir/core/engines/workers"
	guest_copy "$py" /usr/bin/python3
	mkdir -p "$R/cb/share/workers"
	cp "$w/worker.py" "$w/worker_pk.py" "$w/afalg.py" "$R/cb/share/workers/"
	lib=$("$py" -c 'import os; print(os.path.dirname(os.__file__))')
	{
		echo "$lib/os.py"
		for worker in "worker.py hashlib" afalg.py; do
			# shellcheck disable=SC2086
			"$py" -v $w/$worker </dev/null 2>&1 >/dev/null | grep -o "$lib/[^ ']*"
		done
	} | sort -u | while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.so) guest_copy "$f" "$f" ;;
		*)
			mkdir -p "$R$(dirname "$f")"
			cp -L "$f" "$R$f"
			;;
		esac
	done
}

guest_pack() {
	(cd "$R" && find . | cpio -o -H newc -R 0:0 --quiet) >"$1"
}

# Booted from /boot's compressed image, an emulated CPU spends half a minute
# decompressing the kernel (xz). A kernel built with PVH boots from its ELF
# image directly: decompress that when possible, else boot the image.
guest_boot_image() {
	boot=$kernel
	grep -qx 'CONFIG_PVH=y' "/boot/config-$kver" 2>/dev/null || return 0
	for off in $(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kernel" | cut -d: -f1); do
		tail -c +$((off + 1)) "$kernel" | xz -dcq --single-stream >"$1/vmlinux" 2>/dev/null
		if [ "$(head -c 4 "$1/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
			boot=$1/vmlinux
			return 0
		fi
	done
}

# Kernel messages that cut into the block are not base64 and are dropped.
guest_unpack() {
	sed -n "/^== begin $2\$/,/^== end $2\$/p" "$1" | sed '1d;$d' |
		grep -E '^[A-Za-z0-9+/=]+$' | base64 -d 2>/dev/null | gzip -dc >"$3/$2" 2>/dev/null
}
