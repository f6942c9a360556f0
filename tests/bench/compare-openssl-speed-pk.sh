#!/bin/sh
# compare-openssl-speed-pk.sh: the openssl engine's public-key operations
# against `openssl speed -seconds 2 rsa2048 ecdsap256 ed25519 ecdhx25519`,
# measured alternately (one after the other, PAIRS times), one thread.
#
#   tests/bench/compare-openssl-speed-pk.sh [PAIRS]
#
# Both sides time the same loop: a context set up once, then one
# EVP_PKEY_sign / EVP_PKEY_verify / EVP_DigestSign / EVP_PKEY_derive per
# operation (tests/bench/openssl-speed-pk.lua). Both on CPU time and as the
# same estimator, operations over the whole measured time: openssl speed
# divides its count by its user time (times(), ticks of 10 ms: 0.5% of its
# 2 s), cryptobench's run gives the operations of its trials over their
# summed cpu_ns (CLOCK_THREAD_CPUTIME_ID). The median of PAIRS (default 5)
# runs each in operations per second, their ratio (cryptobench over openssl
# speed), and the median of the PAIRS ratios of runs made one after the
# other ("paired"), with the ratios' range. Deliberate differences that
# remain: openssl speed signs a 36-byte buffer with PKCS #1 type-1 padding and
# no DigestInfo (RSA) and a 20-byte buffer (ECDSA); cryptobench signs a
# SHA-256 digest with its DigestInfo, as PKCS #1 v1.5 does: the exponentiation
# or the scalar multiplication is the same, the padding differs by a few
# bytes. cryptobench checks every trial's output afterwards, outside the
# timing. Needs jq. A benchmark, not a test: it asserts nothing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
pairs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The five rates compared: NAME, cryptobench's algorithm and op.
rates='rsa2048-sign rsa-2048-pkcs1 sign
rsa2048-verify rsa-2048-pkcs1 verify
ecdsap256-sign ecdsa-p256 sign
ecdsap256-verify ecdsa-p256 verify
ed25519-sign ed25519 sign
ed25519-verify ed25519 verify
x25519-derive x25519 derive'

printf '# %s, load average %s, %s\n' "$(date -u +%H:%M:%SZ)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
for i in $(seq 1 "$pairs"); do
	# openssl speed's summary lines: the rates are the last columns.
	openssl speed -seconds 2 rsa2048 ecdsap256 ed25519 ecdhx25519 2>/dev/null | awk '
		/^rsa 2048 bits/ { print "rsa2048-sign", $6; print "rsa2048-verify", $7 }
		/ecdsa \(nistp256\)/ { print "ecdsap256-sign", $7; print "ecdsap256-verify", $8 }
		/EdDSA \(Ed25519\)/ { print "ed25519-sign", $7; print "ed25519-verify", $8 }
		/ecdh \(X25519\)/ { print "x25519-derive", $6 }' >"$work/speed-$i"
	"$cb" run "$top/tests/bench/openssl-speed-pk.lua" -o "$work/run-$i.jsonl" --no-progress 2>/dev/null
	echo "$rates" | while read -r name alg op; do
		c=$(jq -s -r --arg a "$alg" --arg o "$op" '[.[] | select(.type == "trial" and .valid and
			(.warmup | not) and .cell.algorithm == $a and .cell.op == $o)] |
			(map(.ops) | add) * 1e9 / (map(.cpu_ns) | add)' "$work/run-$i.jsonl")
		s=$(awk -v n="$name" '$1 == n { print $2 }' "$work/speed-$i")
		echo "$name $s $c" >>"$work/pairs"
	done
done
printf '%-18s %12s %12s  %8s  %s\n' rate "speed op/s" "cb op/s" "cb/speed" "paired: median [min, max] of $pairs"
echo "$rates" | while read -r name alg op; do
	s=$(awk -v n="$name" '$1 == n { print $2 }' "$work/pairs" | median)
	c=$(awk -v n="$name" '$1 == n { print $3 }' "$work/pairs" | median)
	awk -v n="$name" '$1 == n { print $3 / $2 }' "$work/pairs" | sort -g >"$work/ratios"
	p=$(median <"$work/ratios")
	lo=$(head -n 1 "$work/ratios")
	hi=$(tail -n 1 "$work/ratios")
	awk -v n="$name" -v s="$s" -v c="$c" -v p="$p" -v lo="$lo" -v hi="$hi" 'BEGIN {
		printf "%-18s %12.1f %12.1f  %8.3f  %.3f [%.3f, %.3f] (%+.1f%%)\n", n, s, c, c / s, p, lo, hi, (p - 1) * 100 }'
done
printf '# %s, load average %s\n' "$(date -u +%H:%M:%SZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
