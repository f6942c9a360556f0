# extensions.gp: which code ran in one algorithm, op and size (run --explain's
# profiled trials): a horizontal bar per engine, its segments the shares of
# its samples by the instruction-set class where the time stops (the class of
# the instruction before each sampled one). A class has one colour in every
# chart (colour() below) and one place along the bar (the order of CLASSES).
#
#   gnuplot -c extensions.gp DATA OUTPUT FORMAT TITLE SUBTITLE CLASSES [LABELLED]
#
# DATA: rows  row  "label"  samples  "sampler"  "note"  share...  with one
# share (0 to 1) per class, in the order of CLASSES (its names, separated by
# spaces). Row 0 is drawn on top, labelled with its engine, samples and
# sampler; a row of 0 samples draws its note instead.
# LABELLED: segments this share of the bar or wider carry their percentage
# (default 0.07), twice as wide their class's name too.
# FORMAT: png, pdf or svg. Written by cryptobench plot; edit and re-run freely.
if (ARGC < 6) {
	print "usage: gnuplot -c extensions.gp DATA OUTPUT png|pdf|svg TITLE SUBTITLE CLASSES [LABELLED]"
	exit status 2
}
data = ARG1
classes = ARG6
labelled = (ARGC >= 7 && strlen(ARG7) > 0) ? real(ARG7) : 0.07

reset
nclass = words(classes)
first = 6 # the column of the first class's share
share(k) = valid(first + k - 1) ? column(first + k - 1) : 0
# Where segment K starts: the shares of the classes before it.
start(k) = k > 1 ? sum [j = 1:k - 1] share(j) : 0
nothing = "no cell here has a sample"
stats data using 1 nooutput
nrows = STATS_records
stats data using ($3 > 0 ? 1 : 0) nooutput
nprofiled = STATS_sum
# The classes some bar holds: only they are in the key.
array held[nclass]
do for [k = 1:nclass] {
	stats data using (share(k)) nooutput
	held[k] = STATS_max > 0
}
w = 1100; h = 230 + 44 * (nrows > 3 ? nrows : 3)
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
set grid xtics ytics mytics lc rgb "#E4E4E4" lw 1 dt 1
set border 3 lc rgb "#444444"
set tics nomirror
# ---- end of the common part ----

# Nothing to draw (no row with a sample): a note in place of the chart, and on
# stderr, rather than a gnuplot error.
if (nprofiled == 0) {
	why = "nothing to draw: " . nothing
	print ARG2 . ": " . why
	unset border; unset tics; unset key; unset grid; unset logscale; unset object; unset arrow
	set xrange [0 : 1]; set yrange [0 : 1]; set xlabel ""; set ylabel ""
	set label 109 why at graph 0.5, graph 0.5 center font fnt(2) textcolor rgb "#B2182B"
	plot -1 notitle
	exit
}

# One colour per class, in families: greys for scalar code, blues for SIMD
# by width, oranges for AES, purples for carry-less multiplication, greens
# for SHA; pink where no decoder could tell. AArch64's classes take the
# colour of their x86-64 counterpart (Advanced SIMD SSE's, SVE AVX-512's),
# SHA-1, SHA-512 and SHA-3 greens of their own. Dark ones carry white text.
colour(c) = c eq "base" ? "#BDBDBD" : c eq "bmi" ? "#969696" : c eq "adx" ? "#6E6E6E" : \
	c eq "sse" ? "#C6DBEF" : c eq "ssse3/sse4" ? "#9ECAE1" : c eq "avx" ? "#6BAED6" : \
	c eq "avx2" ? "#2B7BBA" : c eq "avx512" ? "#08407E" : \
	c eq "aes-ni" ? "#FD8D3C" : c eq "vaes" ? "#B63C00" : \
	c eq "pclmul" ? "#BCBDDC" : c eq "vpclmulqdq" ? "#6A51A3" : \
	c eq "sha-ni" ? "#2CA25F" : c eq "other" ? "#E6C229" : c eq "unknown" ? "#F1A7CF" : \
	c eq "asimd" ? "#C6DBEF" : c eq "sve" ? "#08407E" : c eq "aes" ? "#FD8D3C" : \
	c eq "pmull" ? "#BCBDDC" : c eq "sha1" ? "#A1D99B" : c eq "sha2" ? "#2CA25F" : \
	c eq "sha512" ? "#006D2C" : c eq "sha3" ? "#74C476" : \
	"#000000"
ink(c) = (c eq "adx" || c eq "avx2" || c eq "avx512" || c eq "vaes" || c eq "vpclmulqdq" || \
	c eq "sha-ni" || c eq "sve" || c eq "sha2" || c eq "sha512") ? "#FFFFFF" : "#222222"
cls(k) = word(classes, k)
# A note within the plot's width (the data file has it whole).
short(s) = strlen(s) > 90 ? s[1:88] . "..." : s

set xrange [0 : 100]
set yrange [nrows - 0.5 : -0.5]
set xtics 0, 10, 100 format "%g%%"
set ytics scale 0
set grid xtics noytics nomytics
set xlabel "share of the cell's samples, by the class of the instruction where the time stops"
set bmargin 7
set key outside below center horizontal Left reverse samplen 1.5 width 1 maxcols 6
set style fill solid 1.0 border lc rgb "#FFFFFF"
half = 0.34 # half a bar's height
plot data using (NaN):1:ytic($3 > 0 ? sprintf("%s · %d samples (%s)", strcol(2), int($3), strcol(4)) \
		: strcol(2)) notitle, \
	for [k = 1:nclass] data using (share(k) > 0 ? 100 * (start(k) + share(k) / 2) : NaN):1: \
		(100 * share(k) / 2):(half) with boxxyerror fc rgb colour(cls(k)) \
		title (held[k] ? cls(k) : ""), \
	for [k = 1:nclass] data using (share(k) >= labelled ? 100 * (start(k) + share(k) / 2) : NaN):1: \
		(share(k) >= 2 * labelled ? sprintf("%s %.0f%%", cls(k), 100 * share(k)) : \
		 share(k) >= labelled ? sprintf("%.0f%%", 100 * share(k)) : "") \
		with labels font fnt(-1) textcolor rgb ink(cls(k)) notitle, \
	data using ($3 > 0 ? NaN : 1):1:(short(strcol(5))) with labels left font fnt(-1) \
		textcolor rgb "#B2182B" notitle
