# ratio-drift-fast.gp: draws ratio-drift-fast.png from ratio-drift-fast.dat with the template ../templates/ratio.gp.
# Run it with plain gnuplot from any folder:  gnuplot ratio-drift-fast.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../templates/ratio.gp' 'ratio-drift-fast.dat' 'ratio-drift-fast.png' 'png' 'drift/fast: throughput of sim-drift / sim-fast, per engine' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '0.5' '0.1' 'expected 0.500 ± 10% (where op=encrypt)' 'throughput ratio sim-drift / sim-fast (median of per-round ratios; bars: sign-test interval)'
