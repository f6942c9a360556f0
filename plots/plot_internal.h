/* plot_internal.h: what the chart writers of plots/ share. */
#ifndef CB_PLOT_INTERNAL_H
#define CB_PLOT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis/verdicts/analysis.h"

/* plot.h's types, by pointer only: plot.c includes this file, and a writer
 * includes plot.h itself for their fields, so that neither header includes
 * the other. */
struct cb_plot;
struct cb_plot_kind;
struct cb_plot_options;
struct cb_compare;
struct cb_hosts;

/* Where one set of charts goes, and what they are drawn from. */
struct plot_ctx {
	const struct cb_plot_options *opt;
	const struct cb_plot_kind *kinds; /* the chart kinds (cb_plot_kinds): their templates */
	size_t n_kinds;
	struct cb_plot *plot;       /* charts are added here */
	const char *sub;            /* folder under the output folder: "" or "run-1/" */
	const struct cb_results *r; /* the run drawn (NULL for the forest plots) */
	const struct cb_analysis *a;
	const char *source; /* the results file(s), for the data files' headers */
	char where[512];    /* subtitle: scenario, CPU, kernel, date */
	char *err;
	size_t err_len;
};

/* ---- The chart writers, named in the kinds' table (plot_kinds.c) ---- */

/* Charts of one run: throughput against size, encrypt/decrypt, threads,
 * ratios (plot_charts.c, plot_ratio.c) and timelines (plot_timeline.c). */
int cb_plot_run_charts(struct plot_ctx *c);
int cb_plot_ratio_charts(struct plot_ctx *c);
int cb_plot_timelines(struct plot_ctx *c);
/* Public-key operations per second against the key size (plot_keysize.c). */
int cb_plot_keysize_charts(struct plot_ctx *c);
/* Which code ran, from the profiled trials: a chart per algorithm, op and
 * size with profiles, a bar per cell (plot_extensions.c). */
int cb_plot_extensions_charts(struct plot_ctx *c);
/* Forest plots of runs compared (plot_forest.c). */
int cb_plot_forests(struct plot_ctx *c, const struct cb_compare *cmp);
/* Hosts side by side, a chart per engine (plot_hosts.c). */
int cb_plot_hosts(struct plot_ctx *c, const struct cb_hosts *h);
/* Run the render scripts of P with GNUPLOT, JOBS at once (plot_render.c). */
void cb_plot_render(struct cb_plot *p, const char *gnuplot, unsigned jobs);

/* ---- Writing a chart (plot_files.c): what the writers use ---- */

/* mkdir -p PATH. 0, or -1 with ERR. */
int plot_mkdir_p(const char *path, char *err, size_t err_len);
/* Open DIR/SUB/NAME.dat for writing (NAME may hold one folder, created), with a
 * header saying WHAT it holds and where it comes from. NULL with c->err. */
FILE *plot_data_open(struct plot_ctx *c, const char *name, const char *what);
/* Close the data file F, write NAME.gp calling the template of the chart
 * kind named KIND (from c->kinds) with the data, the image, the format,
 * TITLE, SUBTITLE and the N_EXTRA arguments EXTRA, and add the chart. -1 with
 * c->err. */
int plot_chart_add(struct plot_ctx *c, FILE *f, const char *kind, const char *name,
                   const char *title, const char *subtitle, const char *const *extra,
                   size_t n_extra, bool flagged);
/* Start a block of a data file: the separator before every block but the first
 * (*N counts them), then TITLE quoted (gnuplot's columnheader). */
void plot_block(FILE *f, size_t *n, const char *title);
/* snprintf for text that may be cut when too long (titles, labels). */
void plot_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A number for a data file: %.6g, or NaN. */
void plot_num(FILE *f, double v);
int plot_note(struct plot_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void plot_err(struct plot_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Names (plot_names.c) ---- */

/* "16KiB", "1MiB", "64B" (NAME: no space) or "16 KiB" (display). */
void plot_size(unsigned long long size, bool display, char *buf, size_t len);
/* Copy S into BUF keeping [A-Za-z0-9._-], others become '-' (a file name). */
void plot_slug(const char *s, char *buf, size_t len);
/* LABEL with its engine's version from the results header: "openssl 3.0.22",
 * "memcpy (memory bandwidth)", "null (harness cost)". */
void plot_label(const struct cb_results *r, const struct cb_result_cell *cell, char *buf,
                size_t len);
/* Whether the cell is a reference built-in (null or memcpy): drawn grey, last. */
bool plot_is_reference(const struct cb_result_cell *cell);
/* The subtitle of a run: scenario, CPU, cores, virtualisation, kernel, the
 * run's start (WITH_DATE), rounds and trial time. */
void plot_where(const struct cb_results *r, bool with_date, char *buf, size_t len);

/* The entries of a `by` or selector object O joined by SEP (as KEY=value when
 * WITH_KEYS; sizes as "16 KiB"): the engine and label (PLOT_ENGINE_PART), the
 * other dimensions (PLOT_OTHER_PART) or all. */
enum plot_part { PLOT_ENGINE_PART, PLOT_OTHER_PART, PLOT_ALL_PARTS };
void plot_join(json_t *o, enum plot_part part, bool with_keys, const char *sep, char *buf,
               size_t len);

/* Distinct values among cells, in order of first appearance (strings) or
 * ascending (numbers). The arrays are caller-sized: at most n_cells. */
size_t plot_distinct_str(const struct cb_run_summary *s,
                         const char *(*get)(const struct cb_result_cell *), const char **out);
size_t plot_distinct_num(const struct cb_run_summary *s,
                         unsigned long long (*get)(const struct cb_result_cell *),
                         unsigned long long *out);
const char *plot_get_label(const struct cb_result_cell *c);
const char *plot_get_algorithm(const struct cb_result_cell *c);
const char *plot_get_op(const struct cb_result_cell *c);
unsigned long long plot_get_size(const struct cb_result_cell *c);
unsigned long long plot_get_threads(const struct cb_result_cell *c);

#endif
