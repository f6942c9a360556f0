# threads-aes-128-cbc-encrypt-16KiB.gp: draws threads-aes-128-cbc-encrypt-16KiB.png from threads-aes-128-cbc-encrypt-16KiB.dat with the template templates/threads.gp.
# Run it with plain gnuplot from any folder:  gnuplot threads-aes-128-cbc-encrypt-16KiB.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call 'templates/threads.gp' 'threads-aes-128-cbc-encrypt-16KiB.dat' 'threads-aes-128-cbc-encrypt-16KiB.png' 'png' 'aes-128-cbc encrypt, 16 KiB per call: speedup with threads, against the ideal' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '0' 'speedup: MB/s over MB/s at the fewest threads (median with 95% interval, max MB/s where contaminated, scaled)'
