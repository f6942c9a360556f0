# hosts-sim-drift.gp: draws hosts-sim-drift.png from hosts-sim-drift.dat with the template templates/hosts.gp.
# Run it with plain gnuplot from any folder:  gnuplot hosts-sim-drift.gp
# Edit the data or the arguments below (title, format: png, pdf or svg)
# and run it again. Written by cryptobench plot.
here = ARG0
i = strlen(here)
while (i > 0 && here[i:i] ne "/") { i = i - 1 }
if (i > 0) { cd here[1:i] }
call 'templates/hosts.gp' 'hosts-sim-drift.dat' 'hosts-sim-drift.png' 'png' 'sim-drift on 2 hosts: speed against the baseline host vm' 'golden · hosts vm (2 runs), vm2 (1 run)' 'speed relative to vm (bars: 95% intervals; vm''s own around 1)' '1' '1: as fast as vm' '0.952381 1.05 ±delta (5%): equivalent'
