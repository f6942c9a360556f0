# sim-fast-aes-128-cbc-decrypt-16KiB-2threads.gp: draws sim-fast-aes-128-cbc-decrypt-16KiB-2threads.png from sim-fast-aes-128-cbc-decrypt-16KiB-2threads.dat with the template ../templates/timeline.gp.
# Run it with plain gnuplot from any folder:  gnuplot sim-fast-aes-128-cbc-decrypt-16KiB-2threads.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../templates/timeline.gp' 'sim-fast-aes-128-cbc-decrypt-16KiB-2threads.dat' 'sim-fast-aes-128-cbc-decrypt-16KiB-2threads.png' 'png' 'sim-fast aes-128-cbc decrypt, 16 KiB, 2 threads: time per call in each round' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '8.61433 8.45709 24.6181 8.45709 9.3028 median' 'time per call (µs)' 'contamination 1.9% (median/min - 1; limit 10%)' 'drift: Spearman rho -0.54, p 0.27 · lag-1 of ranks 0.04 (limit ±1.05) · 6 samples, 1 outliers, 0 preempted, 0 invalid'
