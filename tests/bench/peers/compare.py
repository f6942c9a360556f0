"""The table of tests/bench/peers.sh: cryptobench / peer per cell.

usage: compare.py DIR N: DIR/cb-K.tsv and DIR/peer-K.tsv for K in 1..N, each
line "label alg size ns" (the median time per call of one alternation).
Prints, per cell, the ratio of cryptobench's throughput to the peer's
(peer's median time over cryptobench's) in each alternation: their median,
and min-max as the spread."""
import statistics
import sys

TOOLS = {"openssl": "openssl speed -evp", "node-crypto": "tinybench",
         "dotnet": "BenchmarkDotNet", "dotnet-output=fresh": "BenchmarkDotNet",
         "sha256sum": "hyperfine", "sha512sum": "hyperfine",
         "go-crypto": "go test -bench", "go-crypto-output=fresh": "go test -bench",
         "rust-ring": "Instant loop (--bench)", "rust-ring-output=fresh": "Instant loop (--bench)",
         "java-jca": "System.nanoTime loop", "java-jca-output=fresh": "System.nanoTime loop"}


def read(path):
    out = {}
    for line in open(path):
        label, alg, size, ns = line.split("\t")
        out[(label, alg, int(size))] = float(ns)
    return out


def size_text(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 else "%d KiB" % (n >> 10) if n >= 1024 else "%d B" % n


folder, n = sys.argv[1], int(sys.argv[2])
ratios = {}
for k in range(1, n + 1):
    cb, peer = read("%s/cb-%d.tsv" % (folder, k)), read("%s/peer-%d.tsv" % (folder, k))
    for cell, ns in peer.items():
        if cell in cb and cb[cell] > 0:
            ratios.setdefault(cell, []).append(ns / cb[cell])
print("| cell | peer | cryptobench / peer (median of %d) | min–max | within ±5%% |" % n)
print("|---|---|---|---|---|")
for (label, alg, size), r in sorted(ratios.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
    tool = TOOLS.get(label, "timeit")
    med = statistics.median(r)
    print("| %s %s %s | %s | %.3f | %.3f–%.3f | %s |" % (
        label, alg, size_text(size), tool, med, min(r), max(r),
        "yes" if 0.95 <= med <= 1.05 else "no"))
