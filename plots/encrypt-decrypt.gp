# encrypt-decrypt.gp: encrypt against decrypt throughput of one engine, a pair
# of bars (with interval bars) per algorithm, or algorithm and size.
#
#   gnuplot -c encrypt-decrypt.gp DATA OUTPUT FORMAT TITLE SUBTITLE [YLABEL]
#
# DATA: block 0 names the categories (rows: x "label"); then one block per op,
# its title in quotes first, rows: x MBps lo hi [...] (lo, hi may be NaN).
# FORMAT: png, pdf or svg. Written by cryptobench plot; edit and re-run freely.
if (ARGC < 5) {
	print "usage: gnuplot -c encrypt-decrypt.gp DATA OUTPUT png|pdf|svg TITLE SUBTITLE [YLABEL]"
	exit status 2
}
data = ARG1
ylab = ARGC >= 6 && strlen(ARG6) > 0 ? ARG6 : "throughput, MB/s (10^6 bytes/s)"

reset
# Column N, or column M where N is NaN or missing (NaN is no point to gnuplot,
# even as an argument).
lo(n, m) = valid(n) ? column(n) : column(m)
nothing = "no op has a throughput"
stats data index 0 using 1 nooutput
ncat = STATS_records
stats data using 1 nooutput
nser = STATS_blocks - 1
stats data index 1:(nser > 0 ? nser : 1) using (valid(2) ? 1 : 0) nooutput
npoints = nser > 0 ? STATS_sum : 0
w = ncat > 8 ? 1100 + 40 * (ncat - 8) : 1100; h = 650
# ---- terminal, title, styles (the same in every cryptobench template) ----
# fs: the base font size; the other text is sized from it.
if (ARG3 eq "pdf") {
	# Drawn at a page's text width (6.5 in = 468 pt: set it at \linewidth,
	# not scaled), so its smallest text (fs - 1) prints at 8 pt.
	fs = 9
	set terminal pdfcairo size 6.5,(6.5 * h / w) font "DejaVu Sans,9" linewidth 0.7 noenhanced
	pscale = 0.5
} else {
	if (ARG3 eq "svg") {
		fs = 11
		pscale = 1
		set terminal svg size w,h font "DejaVu Sans,11" noenhanced background rgb "white"
	} else {
		fs = 10
		pscale = 1
		set terminal pngcairo size w,h font "DejaVu Sans,10" noenhanced background rgb "white"
	}
}
fnt(d) = sprintf(",%g", fs + d)
set output ARG2
set tmargin 5
set label 101 ARG4 at screen 0.5, screen 1 offset 0, -1.2 center font fnt(3)
set label 102 ARG5 at screen 0.5, screen 1 offset 0, -2.9 center font fnt(-1) textcolor rgb "#444444"
# Colour-blind safe colours, and a dash type and point shape per line, so
# lines stay apart in greyscale print.
# Styles 1-16 cycle (st(i)); 101 and 102 are grey references.
set style line 1 lc rgb "#0072B2" lw 2 dt 1 pt 7 ps 1.2*pscale
set style line 2 lc rgb "#D55E00" lw 2 dt 2 pt 5 ps 1.1*pscale
set style line 3 lc rgb "#009E73" lw 2 dt 4 pt 9 ps 1.4*pscale
set style line 4 lc rgb "#CC79A7" lw 2 dt 5 pt 13 ps 1.5*pscale
set style line 5 lc rgb "#C68A00" lw 2 dt 3 pt 11 ps 1.4*pscale
set style line 6 lc rgb "#3B9AD6" lw 2 dt (14,4,3,4) pt 15 ps 1.4*pscale
set style line 7 lc rgb "#000000" lw 2 dt (20,6) pt 6 ps 1.3*pscale
set style line 8 lc rgb "#882255" lw 2 dt (3,3) pt 4 ps 1.3*pscale
# 9-16 repeat the colours with open points and other dashes.
set style line 9 lc rgb "#0072B2" lw 2 dt (8,4,2,4) pt 6 ps 1.2*pscale
set style line 10 lc rgb "#D55E00" lw 2 dt (2,2) pt 4 ps 1.1*pscale
set style line 11 lc rgb "#009E73" lw 2 dt (12,3) pt 8 ps 1.4*pscale
set style line 12 lc rgb "#CC79A7" lw 2 dt (5,2,1,2) pt 12 ps 1.5*pscale
set style line 13 lc rgb "#C68A00" lw 2 dt (10,2,2,2,2,2) pt 10 ps 1.4*pscale
set style line 14 lc rgb "#3B9AD6" lw 2 dt (1,3) pt 14 ps 1.4*pscale
set style line 15 lc rgb "#000000" lw 2 dt (6,2) pt 3 ps 1.3*pscale
set style line 16 lc rgb "#882255" lw 2 dt (16,4,4,4) pt 1 ps 1.3*pscale
st(i) = (i - 1) % 16 + 1
set style line 101 lc rgb "#777777" lw 1.5 dt (6,4) pt 1 ps 1.2*pscale
set style line 102 lc rgb "#AAAAAA" lw 1.5 dt (2,3) pt 2 ps 1.2*pscale
set grid xtics ytics mytics lc rgb "#E4E4E4" lw 1 dt 1
set border 3 lc rgb "#444444"
set tics nomirror
set key outside right top vertical Left reverse samplen 4 spacing 1.3 width 1
# ---- end of the common part ----

# Nothing to draw (no valid point, e.g. every value NaN): a note in place
# of the chart, and on stderr, rather than a gnuplot error.
if (npoints == 0) {
	why = "nothing to draw: " . nothing
	print ARG2 . ": " . why
	unset border; unset tics; unset key; unset grid; unset logscale; unset object; unset arrow
	set xrange [0 : 1]; set yrange [0 : 1]; set xlabel ""; set ylabel ""
	set label 109 why at graph 0.5, graph 0.5 center font fnt(2) textcolor rgb "#B2182B"
	plot -1 notitle
	exit
}

set xrange [-0.6 : ncat - 0.4]
set yrange [0 : *]
if (ncat > 7) { set xtics rotate by -30 left }
set xtics scale 0
set grid noxtics
set ylabel ylab
set xlabel "algorithm"
bw = 0.8 / nser
off(i) = (i - 1 - (nser - 1) / 2.0) * bw
# Solid and hatched bars: the pair stays apart in greyscale too.
plot data index 0 using 1:(NaN):xtic(2) notitle, \
	for [i = 1:nser] data index i using ($1 + off(i)):2:(lo(3, 2)):(lo(4, 2)):(bw * 0.9) \
		with boxerrorbars ls st(i) lw 1.5 dt 1 fs pattern (i == 1 ? 3 : i + 2) border title columnheader(1)
