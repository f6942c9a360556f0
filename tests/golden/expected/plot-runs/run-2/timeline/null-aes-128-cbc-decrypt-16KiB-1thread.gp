# null-aes-128-cbc-decrypt-16KiB-1thread.gp: draws null-aes-128-cbc-decrypt-16KiB-1thread.png from null-aes-128-cbc-decrypt-16KiB-1thread.dat with the template ../../templates/timeline.gp.
# Run it with plain gnuplot from any folder:  gnuplot null-aes-128-cbc-decrypt-16KiB-1thread.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../../templates/timeline.gp' 'null-aes-128-cbc-decrypt-16KiB-1thread.dat' 'null-aes-128-cbc-decrypt-16KiB-1thread.png' 'png' 'null (harness cost) aes-128-cbc decrypt, 16 KiB: time per call in each round' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '3.93264 2.45404 77.0769 2.45404 2.69944 min' 'time per call (ns)' 'FLAGGED: contaminated · contamination 60.3% (median/min - 1; limit 10%)' 'drift: Spearman rho -0.14, p 0.79 · lag-1 of ranks -0.24 (limit ±1.05) · 6 samples, 0 outliers, 2 preempted, 0 invalid'
