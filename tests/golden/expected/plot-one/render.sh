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
	'size-algorithm-aes-128-cbc-encrypt-1thread.gp' \
	'size-algorithm-aes-128-cbc-decrypt-1thread.gp' \
	'size-engine-sim-fast-1thread.gp' \
	'encrypt-decrypt-sim-fast-1thread.gp' \
	'size-engine-sim-drift-1thread.gp' \
	'encrypt-decrypt-sim-drift-1thread.gp' \
	'size-algorithm-aes-128-cbc-encrypt-2threads.gp' \
	'size-algorithm-aes-128-cbc-decrypt-2threads.gp' \
	'size-engine-sim-fast-2threads.gp' \
	'encrypt-decrypt-sim-fast-2threads.gp' \
	'size-engine-sim-drift-2threads.gp' \
	'encrypt-decrypt-sim-drift-2threads.gp' \
	'threads-aes-128-cbc-encrypt-64B.gp' \
	'threads-aes-128-cbc-encrypt-16KiB.gp' \
	'threads-aes-128-cbc-decrypt-64B.gp' \
	'threads-aes-128-cbc-decrypt-16KiB.gp' \
	'ratio-decrypt-encrypt.gp' \
	'ratio-drift-fast.gp' \
	'timeline/sim-fast-aes-128-cbc-encrypt-64B-1thread.gp' \
	'timeline/sim-fast-aes-128-cbc-encrypt-64B-2threads.gp' \
	'timeline/sim-fast-aes-128-cbc-encrypt-16KiB-1thread.gp' \
	'timeline/sim-fast-aes-128-cbc-encrypt-16KiB-2threads.gp' \
	'timeline/sim-fast-aes-128-cbc-decrypt-64B-1thread.gp' \
	'timeline/sim-fast-aes-128-cbc-decrypt-64B-2threads.gp' \
	'timeline/sim-fast-aes-128-cbc-decrypt-16KiB-1thread.gp' \
	'timeline/sim-fast-aes-128-cbc-decrypt-16KiB-2threads.gp' \
	'timeline/sim-drift-aes-128-cbc-encrypt-64B-1thread.gp' \
	'timeline/sim-drift-aes-128-cbc-encrypt-64B-2threads.gp' \
	'timeline/sim-drift-aes-128-cbc-encrypt-16KiB-1thread.gp' \
	'timeline/sim-drift-aes-128-cbc-encrypt-16KiB-2threads.gp' \
	'timeline/sim-drift-aes-128-cbc-decrypt-64B-1thread.gp' \
	'timeline/sim-drift-aes-128-cbc-decrypt-64B-2threads.gp' \
	'timeline/sim-drift-aes-128-cbc-decrypt-16KiB-1thread.gp' \
	'timeline/sim-drift-aes-128-cbc-decrypt-16KiB-2threads.gp' \
	'timeline/null-aes-128-cbc-encrypt-64B-1thread.gp' \
	'timeline/null-aes-128-cbc-encrypt-64B-2threads.gp' \
	'timeline/null-aes-128-cbc-encrypt-16KiB-1thread.gp' \
	'timeline/null-aes-128-cbc-encrypt-16KiB-2threads.gp' \
	'timeline/null-aes-128-cbc-decrypt-64B-1thread.gp' \
	'timeline/null-aes-128-cbc-decrypt-64B-2threads.gp' \
	'timeline/null-aes-128-cbc-decrypt-16KiB-1thread.gp' \
	'timeline/null-aes-128-cbc-decrypt-16KiB-2threads.gp' \
	; do
	"$GNUPLOT" "$s" || { echo "render.sh: $s failed" >&2; status=1; }
done
exit $status
