# ratio-decrypt-encrypt.gp: draws ratio-decrypt-encrypt.png from ratio-decrypt-encrypt.dat with the template ../templates/ratio.gp.
# Run it with plain gnuplot from any folder:  gnuplot ratio-decrypt-encrypt.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call '../templates/ratio.gp' 'ratio-decrypt-encrypt.dat' 'ratio-decrypt-encrypt.png' 'png' 'decrypt/encrypt: throughput of decrypt / encrypt, per engine' 'golden · AMD EPYC, 2 CPUs (kvm) · Linux 6.18.44-fc-v782 · 2026-11-30 12:19 UTC · 6 rounds of 1 ms trials' '' '' '' 'throughput ratio decrypt / encrypt (median of per-round ratios; bars: sign-test interval)'
