# null-aes-128-cbc-encrypt-64B-1thread.gp: draws null-aes-128-cbc-encrypt-64B-1thread.png from null-aes-128-cbc-encrypt-64B-1thread.dat with the template ../../templates/timeline.gp.
# Run it with plain gnuplot from any folder:  gnuplot null-aes-128-cbc-encrypt-64B-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../../templates/timeline.gp' 'null-aes-128-cbc-encrypt-64B-1thread.dat' 'null-aes-128-cbc-encrypt-64B-1thread.png' 'png' 'null (harness cost) aes-128-cbc encrypt, 64 B: time per call in each round' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '3.05065 2.30073 4.56572 2.30073 2.53081 min' 'time per call (ns)' 'FLAGGED: contaminated · contamination 32.6% (median/min - 1; limit 10%)' 'drift: Spearman rho -0.43, p 0.4 · lag-1 of ranks -0.36 (limit ±1.05) · 6 samples, 0 outliers, 0 preempted, 0 invalid'
