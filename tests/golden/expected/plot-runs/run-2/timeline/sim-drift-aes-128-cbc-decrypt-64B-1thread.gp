# sim-drift-aes-128-cbc-decrypt-64B-1thread.gp: draws sim-drift-aes-128-cbc-decrypt-64B-1thread.png from sim-drift-aes-128-cbc-decrypt-64B-1thread.dat with the template ../../templates/timeline.gp.
# Run it with plain gnuplot from any folder:  gnuplot sim-drift-aes-128-cbc-decrypt-64B-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../../templates/timeline.gp' 'sim-drift-aes-128-cbc-decrypt-64B-1thread.dat' 'sim-drift-aes-128-cbc-decrypt-64B-1thread.png' 'png' 'sim-drift aes-128-cbc decrypt, 64 B: time per call in each round' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '246.915 227.289 265.583 227.289 250.018 median' 'time per call (ns)' 'FLAGGED: drift · contamination 8.6% (median/min - 1; limit 10%)' 'drift: Spearman rho 1.00, p 0 · lag-1 of ranks 0.50 (limit ±1.05) · 6 samples, 1 outliers, 0 preempted, 0 invalid'
