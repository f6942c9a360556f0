# keysize.gp: operations per second against the key size (RSA modulus, curve
# field), a line per engine with interval bars, on log-log axes: a cost that
# grows as the key size to the power k is a straight line of slope -k. Guides
# of slope -2 and -3 start at X0, Y0 (the fastest engine at the smallest key).
#
#   gnuplot -c keysize.gp DATA OUTPUT FORMAT TITLE SUBTITLE [YLABEL [X0 Y0]]
#
# DATA: one block per engine, its title in quotes first, rows:
#   key_bits  ops_per_s  lo  hi  n  statistic  flagged  key
# lo and hi may be NaN (no interval); key: the tic label ("2048", "P-256").
# Y0 = 0 (a single key size): no guides.
# FORMAT: png, pdf or svg. Written by cryptobench plot; edit and re-run freely.
if (ARGC < 5) {
	print "usage: gnuplot -c keysize.gp DATA OUTPUT png|pdf|svg TITLE SUBTITLE [YLABEL [X0 Y0]]"
	exit status 2
}
data = ARG1
ylab = (ARGC >= 6 && strlen(ARG6) > 0) ? ARG6 : "operations per second, log scale"
x0 = (ARGC >= 8) ? real(ARG7) : 0
y0 = (ARGC >= 8) ? real(ARG8) : 0

reset
# Column N, or column M where N is NaN or missing (NaN is no point to gnuplot,
# even as an argument).
lo(n, m) = valid(n) ? column(n) : column(m)
nothing = "no cell here has an operation rate above 0"
stats data using 1 nooutput
nblocks = STATS_blocks
kmin = STATS_min
kmax = STATS_max
stats data using (valid(2) && $2 > 0 ? 1 : 0) nooutput
npoints = STATS_sum
stats data using (valid(2) && strcol(6) eq "min_time" ? 1 : 0) nooutput
nmin = STATS_sum
mark_min = nmin > 0 && nmin < npoints
w = 1100; h = 650
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

set logscale x 2
set logscale y 10
set format y "%.10g"
set xrange [kmin / 1.25 : kmax * 1.25]
set xlabel "key size (bits, log scale)"
set ylabel ylab
set mytics 10
# The y range fitted to what is drawn, interval ends included.
stats data using (lo(3, 2)) nooutput
ymin = STATS_min
stats data using (lo(4, 2)) nooutput
ymax = STATS_max
if (y0 > 0) {
	ymin = (y0 * (kmax / x0) ** -3 < ymin) ? y0 * (kmax / x0) ** -3 : ymin
}
if (ymin > 0 && ymax > ymin) {
	pad = (ymax / ymin) ** 0.06
} else {
	pad = 2
}
ybot = ymin / pad
ytop = ymax * pad
set yrange [ybot : ytop]
# Up to three decades: 1, 2 and 5 of each decade labelled (gnuplot's own
# would label the powers of ten alone, often one or none).
if (ybot > 0 && ytop / ybot < 1000) {
	set ytics ()
	do for [e = floor(log10(ybot)):ceil(log10(ytop))] {
		do for [m in "1 2 5"] {
			v = real(m) * 10 ** e
			if (v >= ybot && v <= ytop) { set ytics add (sprintf("%g", v) v) }
		}
	}
}
# The x tics are the keys measured, named (the modulus, or the curve).
set xtics ()
sty(i) = st(i + 1)
ismin(y) = strcol(6) eq "min_time" ? y : NaN
# The guides first (drawn under the data), absent with a single key size.
guide(x, k) = y0 > 0 ? y0 * (x / x0) ** -k : NaN
gx1 = y0 > 0 ? x0 : kmin
gx2 = y0 > 0 ? kmax : kmin * 1.01
plot sample [x = gx1:gx2] guide(x, 2) with lines lc rgb "#777777" lw 1.2 dt (10, 6) \
		title (y0 > 0 ? "cost as the key size squared (slope -2)" : ""), \
	[x = gx1:gx2] guide(x, 3) with lines lc rgb "#222222" lw 1.2 dt (4, 4) \
		title (y0 > 0 ? "cost as the key size cubed (slope -3)" : ""), \
	for [i = 0:nblocks - 1] data index i using 1:2:(lo(3, 2)):(lo(4, 2)):xtic(8) \
		with yerrorbars ls sty(i) dt 1 pt -1 notitle, \
	for [i = 0:nblocks - 1] data index i using 1:2 with linespoints ls sty(i) \
		title columnheader(1), \
	for [i = 0:(mark_min ? nblocks - 1 : -1)] data index i using 1:(ismin($2)) with points \
		pt 6 ps 3*pscale lw 2 lc rgb "#B2182B" \
		title (i == 0 ? "ringed: min time (contaminated)" : "")
