# throughput-size.gp: throughput against payload size, one line per series
# (engines for one algorithm, or algorithms for one engine), with interval bars.
#
#   gnuplot -c throughput-size.gp DATA OUTPUT FORMAT TITLE SUBTITLE [NREF [YLABEL [relative]]]
#
# DATA: one block per line of the chart (blocks separated by two blank lines);
# each block starts with the line's title in quotes, then rows of
#   size_bytes  MBps  lo  hi  n  statistic  flagged  [rel  rel_lo  rel_hi]
# lo and hi may be NaN (no interval: fewer than 6 samples, or not the median).
# NREF: how many of the last blocks are references (null, memcpy), drawn grey.
# "relative" adds a lower panel: each line over the fastest at each size
# (columns rel, rel_lo, rel_hi), so lines that overlap above are told apart.
# The y range is fitted to the data, intervals included.
# FORMAT: png, pdf or svg. Written by cryptobench plot; edit and re-run freely.
if (ARGC < 5) {
	print "usage: gnuplot -c throughput-size.gp DATA OUTPUT png|pdf|svg TITLE SUBTITLE [NREF [YLABEL [relative]]]"
	exit status 2
}
data = ARG1
nref = (ARGC >= 6 && strlen(ARG6) > 0) ? int(ARG6) : 0
ylab = (ARGC >= 7 && strlen(ARG7) > 0) ? ARG7 : "throughput, MB/s (10^6 bytes/s)"
rel = (ARGC >= 8 && ARG8 eq "relative") ? 1 : 0

reset
stats data using 1 nooutput
nblocks = STATS_blocks
smin = STATS_min
smax = STATS_max
stats data using (valid(2) && $2 > 0 ? 1 : 0) nooutput
npoints = STATS_sum
nothing = "no cell here has a throughput above 0"
stats data using (valid(3) && valid(4) ? 1 : 0) nooutput
nintervals = STATS_sum
# Cells whose headline is the minimum time (contaminated, under auto) among
# medians: marked, as the report's table names them.
stats data using (valid(2) && strcol(6) eq "max_MBps" ? 1 : 0) nooutput
nmin = STATS_sum
mark_min = nmin > 0 && nmin < npoints
first_ref = nblocks - nref
# The lower panel draws the engines only: a reference (memcpy, many times
# faster) would flatten them. Fewer than two engines to tell apart: no panel.
if (rel && first_ref > 1) {
	stats data index 0:first_ref - 1 using (valid(8) ? 1 : 0) nooutput
	rel = STATS_sum > 0
} else {
	rel = 0
}

w = 1100; h = rel ? 900 : 650
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
sz(x) = x >= 2**30 ? sprintf("%g GiB", x / 2**30) : \
        x >= 2**20 ? sprintf("%g MiB", x / 2**20) : \
        x >= 2**10 ? sprintf("%g KiB", x / 2**10) : sprintf("%g B", x)
# Tics at powers of 4 (of 2 when the sweep is short), labelled in bytes.
step = (smax / smin > 2**12) ? 2 : 1
# A page's width holds fewer labels: powers of 16 across a long sweep.
step = (ARG3 eq "pdf" && smax / smin > 2**16) ? 4 : step
set xtics ()
do for [e = 0:40:step] {
	if (2**e >= smin / 1.5 && 2**e <= smax * 1.5) { set xtics add (sz(2**e) 2**e) }
}
set xrange [smin / 1.5 : smax * 1.5]
set xlabel "payload size per call (bytes, log scale)"
set ylabel ylab
set mytics 10

# Column N, or column M where N is NaN or missing (NaN is no point to gnuplot,
# even as an argument).
lo(n, m) = valid(n) ? column(n) : column(m)
# What cannot be drawn is said in the chart and on stderr, not a failure:
# no throughput at all (a note instead of the chart), or no interval.
if (nintervals == 0) {
	set tmargin 6
	set label 104 "no 95% intervals: too few samples per cell, or a statistic without one" \
		at screen 0.5, screen 1 offset 0, -4.3 center font fnt(-1) textcolor rgb "#B2182B"
}
# The y range fitted to what is drawn, interval ends included: gnuplot's own
# would stretch a log axis to whole decades and squeeze lines that nearly tie.
stats data using (lo(3, 2)) nooutput
ymin = STATS_min
stats data using (lo(4, 2)) nooutput
ymax = STATS_max
if (ymin > 0 && ymax > ymin) {
	pad = (ymax / ymin) ** 0.06
	ybot = ymin / pad
	ytop = ymax * pad
	set yrange [ybot : ytop]
	# Less than a decade shows no power of ten: tics at round steps instead.
	if (ymax / ymin < 10) {
		ystep = 10.0 ** floor(log10(ytop - ybot))
		ystep = (ytop - ybot) / ystep < 2.5 ? ystep / 5 : \
		        ((ytop - ybot) / ystep < 5 ? ystep / 2 : ystep)
		set ytics ()
		set mytics 1
		do for [k = 0:60] {
			v = (ceil(ybot / ystep) + k) * ystep
			if (v <= ytop) { set ytics add (sprintf("%g", v) v) }
		}
	} else {
		if (ymax / ymin < 1000) {
			# Up to three decades: 1, 2 and 5 of each, labelled.
			set ytics ()
			do for [e = floor(log10(ybot)):ceil(log10(ytop))] {
				do for [m in "1 2 5"] {
					v = real(m) * 10 ** e
					if (v >= ybot && v <= ytop) { set ytics add (sprintf("%g", v) v) }
				}
			}
		}
	}
}
sty(i) = i < first_ref ? st(i + 1) : 101 + (i - first_ref) % 2
if (rel) {
	set multiplot
	# The key's room at the right: more of a page's width (PDF: larger text).
	set lmargin at screen (ARG3 eq "pdf" ? 0.11 : 0.09)
	set rmargin at screen (ARG3 eq "pdf" ? 0.67 : 0.82)
	set size 1, 0.64
	set origin 0, 0.36
	set bmargin 2
	set xlabel ""
}
# Interval bars solid, lines dashed: a dotted bar would vanish. A cell
# drawn at its minimum time gets a red ring (the key says so).
ismin(y) = strcol(6) eq "max_MBps" ? y : NaN
plot for [i = 0:nblocks - 1] data index i using 1:2:(lo(3, 2)):(lo(4, 2)) \
		with yerrorbars ls sty(i) dt 1 pt -1 notitle, \
	for [i = 0:nblocks - 1] data index i using 1:2 with linespoints ls sty(i) \
		title columnheader(1), \
	for [i = 0:(mark_min ? nblocks - 1 : -1)] data index i using 1:(ismin($2)) with points \
		pt 6 ps 3*pscale lw 2 lc rgb "#B2182B" \
		title (i == 0 ? "ringed: min time (contaminated)" : "")
if (rel) {
	# Each line over the fastest engine at each size (1 = the fastest).
	unset label 101
	unset label 102
	set tmargin 1
	set bmargin 3.5
	set size 1, 0.36
	set origin 0, 0
	unset logscale y
	set autoscale y
	set format y "%.3g"
	set ytics auto
	set mytics 2
	stats data index 0:first_ref - 1 using (lo(9, 8)) nooutput
	rmin = STATS_min
	stats data index 0:first_ref - 1 using (lo(10, 8)) nooutput
	rmax = STATS_max
	rmax = rmax > 1 ? rmax : 1
	rpad = (rmax - rmin) * 0.08 + 0.002
	set yrange [rmin - rpad : rmax + rpad]
	set ylabel "over the fastest (1)"
	set xlabel "payload size per call (bytes, log scale)"
	unset key
	unset label 104
	plot for [i = 0:first_ref - 1] data index i using 1:8:(lo(9, 8)):(lo(10, 8)) \
			with yerrorbars ls sty(i) dt 1 pt -1 notitle, \
		for [i = 0:first_ref - 1] data index i using 1:8 with linespoints ls sty(i) notitle, \
		1 with lines lc rgb "#999999" dt 2 lw 1 notitle
	unset multiplot
}
