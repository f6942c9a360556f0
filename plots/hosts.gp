# hosts.gp: hosts side by side for one engine. A group per algorithm, op and
# size: each host's speed relative to the baseline host with its interval
# (the baseline host at 1 with its own), the band of equivalence shaded, and
# at the right each host's verdict and its runs' reproducibility.
#
#   gnuplot -c hosts.gp DATA OUTPUT FORMAT TITLE SUBTITLE XLABEL REF REF_LABEL ["LO HI LABEL"]
#
# DATA: one block per host, the baseline host first; each block has its title
# in quotes first, rows: y  x  lo  hi  "group"  "label"  MBps  MBps_lo  MBps_hi
# band_lo  band_hi (lo, hi and the band may be NaN). REF draws a vertical
# reference line; the optional band is shaded: "LO HI LABEL" one band for the
# whole chart, "rows LABEL" each row's own band (columns 10, 11), for rows
# judged with different margins.
# FORMAT: png, pdf or svg. Written by cryptobench plot; edit and re-run freely.
if (ARGC < 8) {
	print "usage: gnuplot -c hosts.gp DATA OUTPUT png|pdf|svg TITLE SUBTITLE XLABEL REF REF_LABEL [\"LO HI LABEL\"]"
	exit status 2
}
data = ARG1
ref = real(ARG7)
reflab = ARGC >= 8 ? ARG8 : ""
row_bands = ARGC >= 9 && words(ARG9) >= 1 && word(ARG9, 1) eq "rows"
has_band = !row_bands && ARGC >= 9 && words(ARG9) >= 2
blo = has_band ? real(word(ARG9, 1)) : NaN
bhi = has_band ? real(word(ARG9, 2)) : NaN
blab = has_band && words(ARG9) > 2 ? ARG9[strlen(word(ARG9, 1)) + strlen(word(ARG9, 2)) + 3:] : \
	row_bands ? ARG9[6:] : ""

reset
# Column N, or column M where N is NaN or missing (NaN is no point to gnuplot,
# even as an argument).
lo(n, m) = valid(n) ? column(n) : column(m)
nothing = "no host has a value"
stats data using 1 nooutput
k = STATS_blocks
ybottom = STATS_min
stats data using (valid(2) ? 1 : 0) nooutput
npoints = STATS_sum
xmin = 0; xmax = 2
if (npoints > 0) {
	stats data using (lo(3, 2)) nooutput
	xmin = STATS_min
	stats data using (lo(4, 2)) nooutput
	xmax = STATS_max
	if (row_bands) {
		stats data using (lo(10, 2)) nooutput
		xmin = xmin < STATS_min ? xmin : STATS_min
		stats data using (lo(11, 2)) nooutput
		xmax = xmax > STATS_max ? xmax : STATS_max
	}
}
rows = 1 - ybottom
w = 1200; h = 230 + 15 * rows
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

xmin = xmin < ref ? xmin : ref
xmax = xmax > ref ? xmax : ref
if (has_band) {
	xmin = xmin < blo ? xmin : blo
	xmax = xmax > bhi ? xmax : bhi
	set object 1 rect from first blo, graph 0 to first bhi, graph 1 behind \
		fc rgb "#D9EAD3" fs solid 1.0 noborder
}
pad = (xmax - xmin) * 0.08
set xrange [xmin - pad : xmax + pad]
# About five tics, at 1, 2 or 5 times a power of ten: the plot is narrow
# beside its verdicts, and at a page's width ten tics ran together.
raw = (xmax - xmin + 2 * pad) / 5
if (raw > 0) {
	mag = 10 ** floor(log10(raw))
	r = raw / mag
	step = (r < 1.5 ? 1 : (r < 3.5 ? 2 : 5)) * mag
	set xtics step
}
set yrange [ybottom - 1 : 1]
set arrow 1 from first ref, graph 0 to first ref, graph 1 nohead lc rgb "#777777" lw 1.5 dt 2
set link y2
small = fnt(-1)
set ytics scale 0 font small
set y2tics scale 0 font small
set grid noxtics ytics lc rgb "#E4E4E4"
set border 1
set xlabel ARG6
set key below horizontal samplen 3 spacing 1.2 width 2
# The group's name at the left of the baseline host's row; each host's
# verdict and runs at the right of its own row.
# Each row's own band first, behind its point (rows judged with other margins).
band_x(lo, hi) = row_bands && valid(lo) && valid(hi) ? (column(lo) + column(hi)) / 2 : NaN
plot for [r = 1:(row_bands ? k - 1 : 0)] data index r \
		using (band_x(10, 11)):1:10:11:($1 - 0.45):($1 + 0.45) \
		with boxxyerror fs solid 1.0 noborder fc rgb "#D9EAD3" notitle, \
	for [r = 0:k - 1] data index r using 2:1:(lo(3, 2)):(lo(4, 2)) \
		with xerrorbars ls st(r + 1) lw 1.5 dt 1 title columnheader(1), \
	data index 0 using (NaN):1:ytic(5) with points notitle, \
	for [r = 0:k - 1] data index r using (NaN):1:y2tic(6) axes x1y2 with points notitle, \
	NaN with lines lc rgb "#777777" lw 1.5 dt 2 title reflab, \
	(has_band || row_bands ? NaN : 1/0) with boxes fs solid 1.0 fc rgb "#D9EAD3" \
		title (has_band || row_bands ? blab : "")
