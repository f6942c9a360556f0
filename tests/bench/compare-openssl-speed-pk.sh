#!/bin/sh
# compare-openssl-speed-pk.sh: the openssl engine's public-key operations
# against `openssl speed -seconds 2 rsa2048 ecdsap256 ed25519 ecdhx25519`,
# measured alternately, algorithm by algorithm, PAIRS times, one thread.
#
#   tests/bench/compare-openssl-speed-pk.sh [PAIRS [KEEP]]
#   tests/bench/compare-openssl-speed-pk.sh --summary FILE...
#
# KEEP: a file the pairs are appended to (NAME SPEED_OPS CB_OPS per line);
# --summary prints the table of the pairs of several such files pooled, so
# that sessions of the same build add up.
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
# other ("paired"), with the ratios' range and the paired median's 95%
# interval (distribution-free: order statistics). On a shared VM one pair's
# ratio moves by 10-20%; 15 pairs are what bring the interval to a few per
# cent. Deliberate differences that
# remain: openssl speed signs a 36-byte buffer with PKCS #1 type-1 padding and
# no DigestInfo (RSA) and a 20-byte buffer (ECDSA); cryptobench signs a
# SHA-256 digest with its DigestInfo, as PKCS #1 v1.5 does: the exponentiation
# or the scalar multiplication is the same, the padding differs by a few
# bytes. cryptobench checks every trial's output afterwards, outside the
# timing. Needs jq. A benchmark, not a test: it asserts nothing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cb=${CRYPTOBENCH:-$top/cryptobench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary_only=false
if [ "${1:-}" = --summary ]; then
	shift
	cat "$@" >"$work/pairs"
	summary_only=true
	pairs=$(($(wc -l <"$work/pairs") / 7))
else
	pairs=${1:-5}
	keep=${2:-}
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The five rates compared: NAME, cryptobench's algorithm and op.
rates='rsa2048-sign rsa-2048-pkcs1 sign
rsa2048-verify rsa-2048-pkcs1 verify
ecdsap256-sign ecdsa-p256 sign
ecdsap256-verify ecdsa-p256 verify
ed25519-sign ed25519 sign
ed25519-verify ed25519 verify
x25519-derive x25519 derive'

$summary_only || printf '# %s, load average %s, %s\n' "$(date -u +%H:%M:%SZ)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
# One pair per algorithm and round: openssl speed on that algorithm alone,
# then cryptobench on its cells alone, seconds apart, the order swapped every
# other round (ABBA) so that a drift of the machine's speed during a round
# weighs on both sides alike.
speed() { # ALG I: openssl speed's summary line for ALG, as NAME RATE lines
	openssl speed -seconds 2 "$1" 2>/dev/null | awk '
		/^rsa 2048 bits/ { print "rsa2048-sign", $6; print "rsa2048-verify", $7 }
		/ecdsa \(nistp256\)/ { print "ecdsap256-sign", $7; print "ecdsap256-verify", $8 }
		/EdDSA \(Ed25519\)/ { print "ed25519-sign", $7; print "ed25519-verify", $8 }
		/ecdh \(X25519\)/ { print "x25519-derive", $6 }' >>"$work/speed-$2"
}
bench() { # ALG I: cryptobench's run of ALG's cells
	"$cb" run "$top/tests/bench/openssl-speed-pk.lua" --only "algorithm=$1" \
		-o "$work/run-$2-$1.jsonl" --no-progress 2>/dev/null
}
$summary_only || for i in $(seq 1 "$pairs"); do
	for pair in rsa2048:rsa-2048-pkcs1 ecdsap256:ecdsa-p256 ed25519:ed25519 ecdhx25519:x25519; do
		if [ $((i % 2)) -eq 1 ]; then
			speed "${pair%%:*}" "$i"
			bench "${pair#*:}" "$i"
		else
			bench "${pair#*:}" "$i"
			speed "${pair%%:*}" "$i"
		fi
	done
	echo "$rates" | while read -r name alg op; do
		c=$(jq -s -r --arg a "$alg" --arg o "$op" '[.[] | select(.type == "trial" and .valid and
			(.warmup | not) and .cell.algorithm == $a and .cell.op == $o)] |
			(map(.ops) | add) * 1e9 / (map(.cpu_ns) | add)' "$work/run-$i-$alg.jsonl")
		s=$(awk -v n="$name" '$1 == n { print $2 }' "$work/speed-$i")
		echo "$name $s $c" >>"$work/pairs"
		[ -z "$keep" ] || echo "$name $s $c" >>"$keep"
	done
done
# The median's 95% interval without assumptions (the sign test's order
# statistics): the K-th smallest and largest of N ratios, K the largest with
# P(Binomial(N, 1/2) < K) <= 0.025; none below 6 pairs.
ci_rank() {
	awk -v n="$1" 'BEGIN { c = 0; p = 0.5 ^ n; k = 0
		for (i = 0; i < n; i++) { c += p; if (c > 0.025) break; k = i + 1; p = p * (n - i) / (i + 1) }
		print k }'
}
k=$(ci_rank "$pairs")
printf '%-18s %12s %12s  %8s  %s\n' rate "speed op/s" "cb op/s" "cb/speed" \
	"paired: median [min, max] of $pairs, the median's 95% interval"
echo "$rates" | while read -r name alg op; do
	s=$(awk -v n="$name" '$1 == n { print $2 }' "$work/pairs" | median)
	c=$(awk -v n="$name" '$1 == n { print $3 }' "$work/pairs" | median)
	awk -v n="$name" '$1 == n { print $3 / $2 }' "$work/pairs" | sort -g >"$work/ratios"
	p=$(median <"$work/ratios")
	lo=$(head -n 1 "$work/ratios")
	hi=$(tail -n 1 "$work/ratios")
	if [ "$k" -gt 0 ]; then
		ci=$(awk -v k="$k" -v n="$pairs" 'NR == k { a = $1 } NR == n - k + 1 { b = $1 }
			END { printf "[%.3f, %.3f]", a, b }' "$work/ratios")
	else
		ci="(none: fewer than 6 pairs)"
	fi
	awk -v n="$name" -v s="$s" -v c="$c" -v p="$p" -v lo="$lo" -v hi="$hi" -v ci="$ci" 'BEGIN {
		printf "%-18s %12.1f %12.1f  %8.3f  %.3f [%.3f, %.3f] (%+.1f%%) %s\n", n, s, c, c / s, p, lo, hi, (p - 1) * 100, ci }'
done
$summary_only || printf '# %s, load average %s\n' "$(date -u +%H:%M:%SZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
