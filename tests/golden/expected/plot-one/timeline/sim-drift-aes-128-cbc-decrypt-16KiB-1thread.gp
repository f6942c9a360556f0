# sim-drift-aes-128-cbc-decrypt-16KiB-1thread.gp: draws sim-drift-aes-128-cbc-decrypt-16KiB-1thread.png from sim-drift-aes-128-cbc-decrypt-16KiB-1thread.dat with the template ../templates/timeline.gp.
# Run it with plain gnuplot from any folder:  gnuplot sim-drift-aes-128-cbc-decrypt-16KiB-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../templates/timeline.gp' 'sim-drift-aes-128-cbc-decrypt-16KiB-1thread.dat' 'sim-drift-aes-128-cbc-decrypt-16KiB-1thread.png' 'png' 'sim-drift aes-128-cbc decrypt, 16 KiB: time per call in each round' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '26.127 24.6468 27.6289 24.6468 27.1115 median' 'time per call (µs)' 'contamination 6.0% (median/min - 1; limit 10%)' 'drift: Spearman rho 0.77, p 0.072 · lag-1 of ranks 0.04 (limit ±1.05) · 6 samples, 0 outliers, 0 preempted, 0 invalid'
