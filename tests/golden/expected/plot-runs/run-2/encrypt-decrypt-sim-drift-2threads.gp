# encrypt-decrypt-sim-drift-2threads.gp: draws encrypt-decrypt-sim-drift-2threads.png from encrypt-decrypt-sim-drift-2threads.dat with the template ../templates/encrypt-decrypt.gp.
# Run it with plain gnuplot from any folder:  gnuplot encrypt-decrypt-sim-drift-2threads.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../templates/encrypt-decrypt.gp' 'encrypt-decrypt-sim-drift-2threads.dat' 'encrypt-decrypt-sim-drift-2threads.png' 'png' 'sim-drift: encrypt against decrypt throughput, 2 threads' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' 'MB/s (median, 95% bars; ringed: min time)'
