# Charts: one gnuplot template per chart kind (parameters through
# `gnuplot -c`), and the code that writes their data and render scripts from
# the analysis and runs gnuplot. The templates install in $(pkgdatadir)/plots,
# where the program finds them (core/base/datadir.h) and copies them beside the
# charts.
libcbplots_a_SOURCES += \
	plots/plot.c plots/plot.h plots/plot_internal.h plots/plot_kinds.c \
	plots/plot_files.c plots/plot_names.c plots/plot_render.c \
	plots/plot_charts.c plots/plot_ratio.c plots/plot_timeline.c plots/plot_forest.c \
	plots/plot_hosts.c plots/plot_keysize.c plots/plot_extensions.c

plot_templates = \
	plots/throughput-size.gp \
	plots/ratio.gp \
	plots/encrypt-decrypt.gp \
	plots/threads.gp \
	plots/keysize.gp \
	plots/extensions.gp \
	plots/timeline.gp \
	plots/forest.gp \
	plots/hosts.gp

plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = $(plot_templates)
