# size-engine-sim-fast-1thread.gp: draws size-engine-sim-fast-1thread.png from size-engine-sim-fast-1thread.dat with the template ../templates/throughput-size.gp.
# Run it with plain gnuplot from any folder:  gnuplot size-engine-sim-fast-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../templates/throughput-size.gp' 'size-engine-sim-fast-1thread.dat' 'size-engine-sim-fast-1thread.png' 'png' 'sim-fast: throughput against payload size, per algorithm, 1 thread' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '0' 'MB/s, log scale (median, 95% bars; ringed: min time)'
