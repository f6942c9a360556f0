/* plot.h: charts of results files, drawn by gnuplot from data the user keeps.
 *
 * For each chart the library writes, into the output folder:
 *
 *   NAME.dat   the numbers drawn (gnuplot data: commented columns, one block
 *              per line of the chart), taken from the analysis modules;
 *   NAME.gp    its render script: `gnuplot NAME.gp` (from any folder) calls
 *              the chart kind's template with the data, title and format;
 *   NAME.png   (or .pdf, .svg) the image, when gnuplot is there to draw it.
 *
 * The templates are copied into DIR/templates/, and DIR/render.sh re-renders
 * every chart, so the folder is self-contained: edit a .dat or a .gp and run
 * it again.
 *
 * Chart kinds (CB_PLOT_KIND_* names, file name patterns):
 *   size-algorithm   throughput against payload size of one algorithm and op,
 *                    a line per engine, and below it each engine over the
 *                    fastest at each size, so leaders that overlap are told
 *                    apart (size-algorithm-ALG-OP)
 *   size-engine      the same for one engine, a line per algorithm and op
 *                    (size-engine-LABEL)
 *   ratio            a derived ratio per engine, with its expectation drawn
 *                    (ratio-NAME)
 *   encrypt-decrypt  encrypt against decrypt throughput per engine
 *                    (encrypt-decrypt-LABEL)
 *   threads          speedup with threads (throughput over the engine's own at
 *                    the fewest threads) against the ideal (threads-ALG-OP-SIZE)
 *   extensions       which code ran (run --explain's profile lines): per
 *                    algorithm, op and size, a bar per cell, its segments
 *                    the shares of its samples by the instruction-set class
 *                    where the time stops, each class in one place and one
 *                    colour in every chart (extensions-ALG-OP-SIZE); none for
 *                    a run without profile lines
 *   timeline         time per call in each round of one cell, contamination
 *                    and drift visible (timeline/LABEL-ALG-OP-SIZE)
 *   forest           across runs: each run's estimate and interval and the
 *                    across-run value where the runs reproduced, as compare
 *                    gives it (forest-NAME, forest-cells-ALG-OP)
 *   hosts            files from several hosts: per engine, each host's speed
 *                    relative to the baseline host per algorithm, op and size,
 *                    with intervals, the delta band and the verdicts, as
 *                    compare gives them (hosts-LABEL)
 * Throughput axes are fitted to the data drawn, intervals included.
 * With several thread counts the size, encrypt-decrypt and forest-cells charts
 * get a -1thread, -2threads, ... suffix. The references (an engine's
 * `reference` flag, engine.h) are no contenders: memcpy is drawn as a
 * labelled grey line in the throughput charts but never in "over the
 * fastest", and null, which moves no bytes, is left out of throughput charts
 * (its timelines show the harness's cost).
 *
 * One results file gives its charts in DIR. Several give the forest plots in
 * DIR and each run's charts in DIR/STEM/ (STEM: the file's name without
 * .jsonl, .jsonl.gz or .jsonl.zst); runs of different scenarios get no
 * forest plot (a note says why). Files from several hosts (hosts.h) give the
 * hosts charts in DIR, and per host the forest plots of its runs (when
 * several) in DIR/host-HOST/ and each run's charts in DIR/host-HOST/STEM/;
 * the first file's host is the baseline.
 *
 * Library code: nothing goes to stdout; errors come back in ERR. */
#ifndef CB_PLOT_H
#define CB_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/verdicts/compare.h"
#include "analysis/verdicts/hosts.h"
#include "core/results/results.h"
#include "analysis/stats/summary.h"

enum cb_plot_format { CB_PLOT_PNG, CB_PLOT_PDF, CB_PLOT_SVG };

/* Which cells get a timeline. */
enum cb_plot_timelines {
	CB_PLOT_TIMELINES_ALL,     /* every cell with samples */
	CB_PLOT_TIMELINES_FLAGGED, /* cells flagged for contamination, drift or lag-1 */
	CB_PLOT_TIMELINES_NONE,
};

struct cb_plot_options {
	enum cb_plot_format format;
	enum cb_statistic statistic;      /* the throughput drawn: CB_STAT_AUTO by default */
	enum cb_plot_timelines timelines; /* ALL by default */
	const char *templates;            /* folder of the *.gp templates */
	const char *gnuplot;              /* program that renders; NULL: data and scripts only */
	unsigned jobs;                    /* gnuplot processes at once (>= 1) */
	/* Timelines as a web page's small PNGs whatever the format (timeline.gp's
	 * png-small: no title, subtitle or notes drawn; the chart's caption has
	 * the notes). false by default. */
	bool small_timelines;
	struct cb_compare_options analysis; /* summary, derive and across-run options */
};

/* Defaults: PNG, auto (the report's headline), all timelines, templates in TEMPLATES, no gnuplot,
 * 2 jobs, the analysis modules' defaults. */
void cb_plot_defaults(struct cb_plot_options *opt, const char *templates);

/* "png", "pdf", "svg" -> format; -1 when unknown. */
int cb_plot_format_parse(const char *name);
const char *cb_plot_format_name(enum cb_plot_format f);

/* "all", "flagged", "none" -> timelines; -1 when unknown. */
int cb_plot_timelines_parse(const char *name);

struct plot_ctx; /* plot_internal.h */

/* The chart kinds (plot_kinds.c), one entry each. The writers run in the
 * table's order, which sets the order of the charts (render.sh); the command
 * lists the per-cell kinds first, then the others in the table's order. A
 * new kind is an entry, its template (plots/NAME.gp, also listed in
 * plots/local.mk) and its writer. */
struct cb_plot_kind {
	const char *name; /* the charts' kind and the start of their names: "ratio" */
	const char *what; /* a line of the command's summary */
	const char *tmpl; /* its gnuplot template, a file of the templates folder */
	bool per_cell;    /* one chart per cell (timelines): listed first, by folder */
	/* The writer of this kind's charts of one run, and of charts across
	 * runs; NULL when there is none, or when the writer of an earlier kind
	 * draws them too (size-algorithm's draws size-engine, encrypt-decrypt
	 * and threads, interleaved). 0, or -1 with the context's error. */
	int (*draw_run)(struct plot_ctx *c);
	int (*draw_across)(struct plot_ctx *c, const struct cb_compare *cmp);
	/* ... and of files from several hosts (NULL: none). */
	int (*draw_hosts)(struct plot_ctx *c, const struct cb_hosts *h);
};
extern const struct cb_plot_kind cb_plot_kinds[];
extern const size_t cb_plot_n_kinds;

struct cb_plot_chart {
	const char *kind; /* its kind's name: "size-algorithm", ..., "forest" (static) */
	char *name;       /* NAME, relative to the output folder ("timeline/x", "run-1/y") */
	char *image;      /* DIR/NAME.png (or .pdf, .svg), drawn or not */
	char *data;       /* DIR/NAME.dat */
	char *script;     /* DIR/NAME.gp */
	char *title;
	/* The run it draws (a page puts it beside that run's tables); NULL for
	 * a chart across runs or hosts. */
	const struct cb_results *run;
	char *caption; /* what is written under a timeline (its cell's flags), or NULL */
	bool flagged;  /* a timeline of a flagged cell */
	bool rendered; /* gnuplot drew the image */
	char *error;   /* why gnuplot failed to draw it, or NULL */
};

struct cb_plot {
	char *dir;
	char *render_all; /* DIR/render.sh */
	struct cb_plot_chart *charts;
	size_t n_charts;
	char **notes; /* charts not drawn and why, e.g. "no forest plot: ..." */
	size_t n_notes;
	bool gnuplot_ran; /* a gnuplot program was given and run */
	size_t failed;    /* charts gnuplot failed to draw */
};

/* Analyse the K results FILES (which must outlive the call) and write the
 * charts' data and scripts into DIR (created if missing, parents too), then
 * render them with OPT->gnuplot when it is set. 0 with *OUT, also when some
 * charts failed to render (OUT->failed counts them); -1 with ERR when a file
 * cannot be analysed or written, or memory runs out. */
int cb_plot_write(struct cb_results *const *files, size_t k, const char *dir,
                  const struct cb_plot_options *opt, struct cb_plot **out, char *err,
                  size_t err_len);
void cb_plot_free(struct cb_plot *p);

/* The gnuplot to run: ENV_VALUE when not NULL (the user's choice, used only
 * if executable), else CONFIGURED when executable, else "gnuplot" found on
 * PATH. Copies it into BUF and returns BUF, or returns NULL when none. */
const char *cb_plot_find_gnuplot(const char *env_value, const char *configured, char *buf,
                                 size_t len);

#endif
