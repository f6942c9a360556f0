# timeline.gp: one cell's trials in round order, time per call against round,
# with the median and its interval, the minimum and the contamination limit.
# Drift shows as a slope; contamination as the median high above the minimum.
#
#   gnuplot -c timeline.gp DATA OUTPUT FORMAT TITLE SUBTITLE "MEDIAN LO HI MIN LIMIT [HEADLINE]" YLABEL
#                         [NOTE [NOTE2]]
#
# DATA: a title line in quotes, then rows: round  time  status  status_name, status
# 0 measured, 1 measured but preempted, 2 warm-up (not in the statistics).
# The five numbers (in the data's unit) draw the horizontal lines; LO and HI may
# be NaN (no interval). HEADLINE (median, min or mean) is the report's figure
# for the cell: its line is marked. NOTE and NOTE2 are printed under the chart
# (the cell's flags); a NOTE starting with FLAGGED is red.
# FORMAT: png, pdf or svg; or png-small, a web page's small timeline (the
# html report's, one per cell): 480 x 270, libgd's PNG (its few colours
# deflate to about a quarter of cairo's bytes at one size), the key under the
# plot, the grid on the y tics only, and no title, subtitle or notes drawn:
# the page says them in text.
# Written by cryptobench plot; edit and re-run freely.
if (ARGC < 7) {
	print "usage: gnuplot -c timeline.gp DATA OUTPUT png|pdf|svg|png-small TITLE SUBTITLE \"MEDIAN LO HI MIN LIMIT\" YLABEL [NOTE]"
	exit status 2
}
data = ARG1
med = real(word(ARG6, 1))
mlo = real(word(ARG6, 2))
mhi = real(word(ARG6, 3))
mn = real(word(ARG6, 4))
lim = real(word(ARG6, 5))
# The cell's headline (as in the report): median, min or mean. The min line
# is drawn as the headline where it is one.
hl = words(ARG6) >= 6 ? word(ARG6, 6) : "median"
note = ARGC >= 8 ? ARG8 : ""
note2 = ARGC >= 9 ? ARG9 : ""

reset
stats data using (valid(2) ? 1 : 0) nooutput
npoints = STATS_sum
nothing = "no trial has a time"
small = ARG3 eq "png-small"
w = small ? 480 : 1100; h = small ? 270 : 650
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
# A page's small timeline (FORMAT png-small, above); cairo's PNG where
# gnuplot was built without libgd.
if (small) {
	fs = 8
	pscale = 0.7
	if (strstrt(GPVAL_TERMINALS, " png ") > 0) {
		set terminal png size w,h font "DejaVu Sans,8" noenhanced background rgb "white"
	} else {
		set terminal pngcairo size w,h font "DejaVu Sans,8" noenhanced background rgb "white"
	}
	set output ARG2
	unset label 101
	unset label 102
	set tmargin 1
	set grid noxtics nomytics ytics
	set key below vertical maxrows 4 Left reverse samplen 2 spacing 1 width 0
}

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

# A flagged cell says so in red (a small timeline's page says it in text).
if (!small) {
	set bmargin 7
	set label 103 note at screen 0.5, screen 0 offset 0, 2.6 center font fnt(-1) \
		textcolor rgb (strstrt(note, "FLAGGED") == 1 ? "#B2182B" : "#444444")
	set label 104 note2 at screen 0.5, screen 0 offset 0, 1.2 center font fnt(-1) \
		textcolor rgb "#444444"
}
if (mlo == mlo && mhi == mhi) {
	set object 1 rect from graph 0, first mlo to graph 1, first mhi behind \
		fc rgb "#DCE9F5" fs solid 1.0 noborder
}
set xlabel "round (the order trials ran in)"
set ylabel ARG7
set autoscale xfix
set offsets 0.5, 0.5, 0, 0
set xtics out
set mxtics
plot data using 1:($3 < 2 ? $2 : NaN) with linespoints ls 1 lw 1 ps 0.9*pscale title "trial (measured)", \
	data using 1:($3 == 1 ? $2 : NaN) with points pt 2 ps 2.2*pscale lw 2 lc rgb "#D55E00" \
		title "preempted (CPU time well below wall time)", \
	data using 1:($3 == 2 ? $2 : NaN) with points pt 6 ps 1.3*pscale lc rgb "#888888" \
		title "warm-up (not counted)", \
	med with lines lc rgb "#0072B2" lw 2.5 dt 1 \
		title sprintf("median %.4g%s", med, hl eq "median" ? " (the headline)" : ""), \
	NaN with boxes fs solid 1.0 fc rgb "#DCE9F5" title "95% interval of the median", \
	mn with lines lc rgb (hl eq "min" ? "#B2182B" : "#000000") lw (hl eq "min" ? 3 : 1.5) dt 2 \
		title sprintf("min %.4g%s", mn, hl eq "min" ? " (the headline: max MB/s)" : ""), \
	lim with lines lc rgb "#D55E00" lw 2 dt (3, 3) \
		title sprintf("contamination limit: min + %.0f%%", (lim / mn - 1) * 100)
