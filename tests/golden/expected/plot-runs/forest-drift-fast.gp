# forest-drift-fast.gp: draws forest-drift-fast.png from forest-drift-fast.dat with the template templates/forest.gp.
# Run it with plain gnuplot from any folder:  gnuplot forest-drift-fast.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call 'templates/forest.gp' 'forest-drift-fast.dat' 'forest-drift-fast.png' 'png' 'drift/fast across 2 runs: each run''s ratio and the across-run value' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 6 rounds of 1 ms trials · 2 runs, 2026-11-30 to 2026-11-30' 'throughput ratio (bars: each run''s sign-test interval)' '1' '1: no difference' '0.45 0.55 expected 0.500 ± 10% (where op=encrypt)'
