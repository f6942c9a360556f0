#!/bin/sh
# render.sh: draws every chart of this folder again from its data (NAME.dat)
# with its script (NAME.gp) and the templates in templates/. Needs gnuplot 5.4
# or later (Debian: apt-get install gnuplot-nox).  Usage: sh render.sh
cd "$(dirname "$0")" || exit 1
GNUPLOT=${GNUPLOT:-gnuplot}
command -v "$GNUPLOT" >/dev/null 2>&1 ||
	{ echo "render.sh: $GNUPLOT not found (install gnuplot, or set GNUPLOT)" >&2; exit 1; }
status=0
for s in \
	'host-vm/vm-1/size-algorithm-aes-128-cbc-encrypt-1thread.gp' \
	'host-vm/vm-1/size-algorithm-aes-128-cbc-decrypt-1thread.gp' \
	'host-vm/vm-1/size-engine-sim-fast-1thread.gp' \
	'host-vm/vm-1/encrypt-decrypt-sim-fast-1thread.gp' \
	'host-vm/vm-1/size-engine-sim-drift-1thread.gp' \
	'host-vm/vm-1/encrypt-decrypt-sim-drift-1thread.gp' \
	'host-vm/vm-1/size-algorithm-aes-128-cbc-encrypt-2threads.gp' \
	'host-vm/vm-1/size-algorithm-aes-128-cbc-decrypt-2threads.gp' \
	'host-vm/vm-1/size-engine-sim-fast-2threads.gp' \
	'host-vm/vm-1/encrypt-decrypt-sim-fast-2threads.gp' \
	'host-vm/vm-1/size-engine-sim-drift-2threads.gp' \
	'host-vm/vm-1/encrypt-decrypt-sim-drift-2threads.gp' \
	'host-vm/vm-1/threads-aes-128-cbc-encrypt-64B.gp' \
	'host-vm/vm-1/threads-aes-128-cbc-encrypt-16KiB.gp' \
	'host-vm/vm-1/threads-aes-128-cbc-decrypt-64B.gp' \
	'host-vm/vm-1/threads-aes-128-cbc-decrypt-16KiB.gp' \
	'host-vm/vm-1/ratio-decrypt-encrypt.gp' \
	'host-vm/vm-1/ratio-drift-fast.gp' \
	'host-vm/vm-2/size-algorithm-aes-128-cbc-encrypt-1thread.gp' \
	'host-vm/vm-2/size-algorithm-aes-128-cbc-decrypt-1thread.gp' \
	'host-vm/vm-2/size-engine-sim-fast-1thread.gp' \
	'host-vm/vm-2/encrypt-decrypt-sim-fast-1thread.gp' \
	'host-vm/vm-2/size-engine-sim-drift-1thread.gp' \
	'host-vm/vm-2/encrypt-decrypt-sim-drift-1thread.gp' \
	'host-vm/vm-2/size-algorithm-aes-128-cbc-encrypt-2threads.gp' \
	'host-vm/vm-2/size-algorithm-aes-128-cbc-decrypt-2threads.gp' \
	'host-vm/vm-2/size-engine-sim-fast-2threads.gp' \
	'host-vm/vm-2/encrypt-decrypt-sim-fast-2threads.gp' \
	'host-vm/vm-2/size-engine-sim-drift-2threads.gp' \
	'host-vm/vm-2/encrypt-decrypt-sim-drift-2threads.gp' \
	'host-vm/vm-2/threads-aes-128-cbc-encrypt-64B.gp' \
	'host-vm/vm-2/threads-aes-128-cbc-encrypt-16KiB.gp' \
	'host-vm/vm-2/threads-aes-128-cbc-decrypt-64B.gp' \
	'host-vm/vm-2/threads-aes-128-cbc-decrypt-16KiB.gp' \
	'host-vm/vm-2/ratio-decrypt-encrypt.gp' \
	'host-vm/vm-2/ratio-drift-fast.gp' \
	'host-vm/forest-decrypt-encrypt.gp' \
	'host-vm/forest-drift-fast.gp' \
	'host-vm/forest-cells-aes-128-cbc-encrypt-1thread.gp' \
	'host-vm/forest-cells-aes-128-cbc-encrypt-2threads.gp' \
	'host-vm/forest-cells-aes-128-cbc-decrypt-1thread.gp' \
	'host-vm/forest-cells-aes-128-cbc-decrypt-2threads.gp' \
	'host-vm2/vm2/size-algorithm-aes-128-cbc-encrypt-1thread.gp' \
	'host-vm2/vm2/size-algorithm-aes-128-cbc-decrypt-1thread.gp' \
	'host-vm2/vm2/size-engine-sim-fast-1thread.gp' \
	'host-vm2/vm2/encrypt-decrypt-sim-fast-1thread.gp' \
	'host-vm2/vm2/size-engine-sim-drift-1thread.gp' \
	'host-vm2/vm2/encrypt-decrypt-sim-drift-1thread.gp' \
	'host-vm2/vm2/size-algorithm-aes-128-cbc-encrypt-2threads.gp' \
	'host-vm2/vm2/size-algorithm-aes-128-cbc-decrypt-2threads.gp' \
	'host-vm2/vm2/size-engine-sim-fast-2threads.gp' \
	'host-vm2/vm2/encrypt-decrypt-sim-fast-2threads.gp' \
	'host-vm2/vm2/size-engine-sim-drift-2threads.gp' \
	'host-vm2/vm2/encrypt-decrypt-sim-drift-2threads.gp' \
	'host-vm2/vm2/threads-aes-128-cbc-encrypt-64B.gp' \
	'host-vm2/vm2/threads-aes-128-cbc-encrypt-16KiB.gp' \
	'host-vm2/vm2/threads-aes-128-cbc-decrypt-64B.gp' \
	'host-vm2/vm2/threads-aes-128-cbc-decrypt-16KiB.gp' \
	'host-vm2/vm2/ratio-decrypt-encrypt.gp' \
	'host-vm2/vm2/ratio-drift-fast.gp' \
	'hosts-sim-fast.gp' \
	'hosts-sim-drift.gp' \
	; do
	"$GNUPLOT" "$s" || { echo "render.sh: $s failed" >&2; status=1; }
done
exit $status
