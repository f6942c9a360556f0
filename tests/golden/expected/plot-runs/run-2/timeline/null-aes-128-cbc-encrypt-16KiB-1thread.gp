# null-aes-128-cbc-encrypt-16KiB-1thread.gp: draws null-aes-128-cbc-encrypt-16KiB-1thread.png from null-aes-128-cbc-encrypt-16KiB-1thread.dat with the template ../../templates/timeline.gp.
# Run it with plain gnuplot from any folder:  gnuplot null-aes-128-cbc-encrypt-16KiB-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../../templates/timeline.gp' 'null-aes-128-cbc-encrypt-16KiB-1thread.dat' 'null-aes-128-cbc-encrypt-16KiB-1thread.png' 'png' 'null (harness cost) aes-128-cbc encrypt, 16 KiB: time per call in each round' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '3.55803 2.48351 61.1922 2.48351 2.73186 min' 'time per call (ns)' 'FLAGGED: contaminated · contamination 43.3% (median/min - 1; limit 10%)' 'drift: Spearman rho 0.60, p 0.21 · lag-1 of ranks -0.19 (limit ±1.05) · 6 samples, 1 outliers, 1 preempted, 0 invalid'
