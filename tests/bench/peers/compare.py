"""The table of tests/bench/peers.sh: cryptobench / peer per cell.

usage: compare.py DIR N KNOWN [STEADY]: DIR/cb-K.tsv and DIR/peer-K.tsv for K in 1..N,
each line "label alg size ns" (the median time per call of one alternation),
DIR/noise-start.txt and DIR/noise-end.txt (the machine's noise, printed
above the table), and KNOWN, the table of known, measured differences
(known-differences.tsv, its format in peers.sh's header); DIR/steady.tsv,
when there, the CPU's speed before, between and after the two sides of each
try of each alternation ("group k try speed0 speed1 speed2 moved% kept"),
and STEADY (default 3) the movement in percent above which a try was
repeated: the table is preceded by each group's kept alternations and how
many tries each took, and one kept though it moved is named.

Prints, per cell, the ratio of cryptobench's throughput to the peer's (the
peer's time over cryptobench's) in each alternation: their median, min-max
as the spread, whether the median is within +/-5%, and for a cell outside
it the recorded difference; then "N of M cells within +/-5%". Exits 1 when
a cell outside +/-5% has no entry in KNOWN, or when a peer's cell has no
cryptobench cell to pair with (a label that matches nothing would otherwise
drop out of the table unseen)."""
import statistics
import sys

BOUND = 0.05
# label: (group, the peer's tool)
PEERS = {
    "openssl-stream": ("openssl", "openssl speed -elapsed -evp"),
    "openssl-noreuse": ("openssl", "openssl speed -elapsed -evp"),
    "sha256sum": ("commands", "hyperfine -N"), "sha512sum": ("commands", "hyperfine -N"),
    "node-crypto": ("node", "tinybench"),
    "python-hashlib": ("python", "timeit"), "python-cryptography": ("python", "timeit"),
    "python-cryptography-output=fresh": ("python", "timeit"),
    "dotnet": ("dotnet", "BenchmarkDotNet"), "dotnet-output=fresh": ("dotnet", "BenchmarkDotNet"),
    "go-crypto": ("go", "go test -bench"), "go-crypto-output=fresh": ("go", "go test -bench"),
    "rust-ring": ("rust", "Instant loop (--bench)"),
    "rust-ring-output=fresh": ("rust", "Instant loop (--bench)"),
    "java-jca": ("java", "System.nanoTime loop"),
    "java-jca-output=fresh": ("java", "System.nanoTime loop"),
}


def read(path):
    out = {}
    for line in open(path):
        label, alg, size, ns = line.rstrip("\n").split("\t")
        out[(label, alg, int(size))] = float(ns)
    return out


def read_known(path):
    """(label, alg, size or None for every size): (measured, cause)."""
    known = {}
    for number, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 6:
            sys.exit("%s:%d: want 6 tab-separated fields (group label algorithm size "
                     "measured cause), not %d" % (path, number, len(fields)))
        _, label, alg, size, measured, cause = fields
        known[(label, alg, None if size == "*" else int(size))] = (measured, cause)
    return known


def size_text(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 else "%d KiB" % (n >> 10) if n >= 1024 else "%d B" % n


def steadiness(folder, bound):
    """Each group's alternations: the kept try's speeds and how many tries."""
    try:
        rows = [line.rstrip("\n").split("\t") for line in open("%s/steady.tsv" % folder)]
    except FileNotFoundError:
        return
    groups = {}
    for group, k, _, s0, s1, s2, moved, fate in rows:
        alternation = groups.setdefault(group, {}).setdefault(int(k), [0, None])
        alternation[0] += 1
        if fate == "kept":
            alternation[1] = (s0, s1, s2, float(moved))
    print("the CPU's speed before, between and after the two sides of each alternation "
          "(openssl speed -elapsed -evp sha512, 16 KiB, MB/s; a try that moved more than "
          "%g%% was repeated):" % bound)
    repeated, unsteady = 0, []
    for group, alternations in groups.items():
        parts = []
        for k, (tries, (s0, s1, s2, moved)) in sorted(alternations.items()):
            repeated += tries - 1
            if moved > bound:
                unsteady.append("%s %d (%.1f%%)" % (group, k, moved))
            parts.append("%d: %s %s %s (%.1f%%%s)" % (
                k, s0, s1, s2, moved, ", %d tries" % tries if tries > 1 else ""))
        print("  %s: %s" % (group, "; ".join(parts)))
    print("%d tries repeated; %d alternations kept though the CPU's speed moved more than %g%%%s"
          % (repeated, len(unsteady), bound, ": " + ", ".join(unsteady) if unsteady else ""))


def main():
    folder, n, known = sys.argv[1], int(sys.argv[2]), read_known(sys.argv[3])
    ratios, unpaired = {}, set()
    for k in range(1, n + 1):
        cb, peer = read("%s/cb-%d.tsv" % (folder, k)), read("%s/peer-%d.tsv" % (folder, k))
        for cell, ns in peer.items():
            if cell in cb and cb[cell] > 0:
                ratios.setdefault(cell, []).append(ns / cb[cell])
            else:
                unpaired.add(cell)
    for when in ("start", "end"):
        print("noise at the %s: %s" % (when, "; ".join(
            open("%s/noise-%s.txt" % (folder, when)).read().strip().splitlines())))
    steadiness(folder, float(sys.argv[4]) if len(sys.argv) > 4 else 3.0)
    print()
    print("| group | cell | peer | cryptobench / peer (median of %d) | min–max | within ±5%% "
          "| known difference |" % n)
    print("|---|---|---|---|---|---|---|")
    within = unexplained = 0
    for cell in sorted(ratios):
        label, alg, size = cell
        group, tool = PEERS.get(label, (label, "?"))
        r = ratios[cell]
        med = statistics.median(r)
        inside = abs(med - 1) <= BOUND
        entry = known.get(cell) or known.get((label, alg, None))
        if inside:
            within += 1
            note = "(recorded: %s; not seen now)" % entry[0] if entry else ""
        elif entry:
            note = "%s: %s" % entry
        else:
            unexplained += 1
            note = "UNEXPLAINED"
        print("| %s | %s %s %s | %s | %.3f | %.3f–%.3f | %s | %s |" % (
            group, label, alg, size_text(size), tool, med, min(r), max(r),
            "yes" if inside else "no", note))
    print()
    print("%d of %d cells within ±5%%; %d outside with a known difference, %d unexplained" % (
        within, len(ratios), len(ratios) - within - unexplained, unexplained))
    for label, alg, size in sorted(unpaired):
        print("no cryptobench cell for the peer's %s %s %s" % (label, alg, size_text(size)))
    return 1 if unexplained or unpaired else 0


if __name__ == "__main__":
    sys.exit(main())
