# forest-cells-aes-128-cbc-encrypt-1thread.gp: draws forest-cells-aes-128-cbc-encrypt-1thread.png from forest-cells-aes-128-cbc-encrypt-1thread.dat with the template templates/forest.gp.
# Run it with plain gnuplot from any folder:  gnuplot forest-cells-aes-128-cbc-encrypt-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call 'templates/forest.gp' 'forest-cells-aes-128-cbc-encrypt-1thread.dat' 'forest-cells-aes-128-cbc-encrypt-1thread.png' 'png' 'aes-128-cbc encrypt, 1 thread across 2 runs: each run''s median MB/s against the across-run value' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 6 rounds of 1 ms trials · 2 runs, 2026-11-30 to 2026-11-30' 'run median / across-run value (bars: 95% intervals)' '1' '1: the across-run value' '0.980392 1.02 ±delta (2%): the practical threshold'
