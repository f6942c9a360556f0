# forest-decrypt-encrypt.gp: draws forest-decrypt-encrypt.png from forest-decrypt-encrypt.dat with the template templates/forest.gp.
# Run it with plain gnuplot from any folder:  gnuplot forest-decrypt-encrypt.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call 'templates/forest.gp' 'forest-decrypt-encrypt.dat' 'forest-decrypt-encrypt.png' 'png' 'decrypt/encrypt across 2 runs: each run''s ratio and the across-run value' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 6 rounds of 1 ms trials · 2 runs, 2026-11-30 to 2026-11-30' 'throughput ratio (bars: each run''s sign-test interval)' '1' '1: no difference' ''
