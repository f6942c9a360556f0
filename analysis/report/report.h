/* report.h: analyses of results files, printed for people and programs.
 *
 * Every number printed says which statistic it is: a column header or a JSON
 * key names it (median, min, P10, ...), intervals name their level and method,
 * and a headline that switched from the median to the minimum says so.
 *
 * Formats: text (aligned tables, within 100 columns unless details are
 * asked for), Markdown (tables), CSV (one tidy table with one header line:
 * see below), JSON (everything, with intervals, methods, n and seeds). */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stdio.h>

#include "analysis/verdicts/compare.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/report/format.h"
#include "core/results/results.h"
#include "analysis/stats/summary.h"
#include "analysis/verdicts/baseline.h"

/* Which tables of each run to print: all, or the answer alone (the winners
 * table, a web page's first), or the rest (its title and every table but the
 * winners, in their order), so a page can put what it likes between them. */
enum cb_report_part { CB_REPORT_ALL, CB_REPORT_WINNERS, CB_REPORT_NOT_WINNERS };

struct cb_report_options {
	enum cb_report_format format;
	enum cb_statistic statistic; /* the headline; AUTO switches to min when contaminated */
	struct cb_summary_options summary;
	struct cb_derive_options derive;
	const char *table; /* CSV: one of cb_report_tables (NULL: the first, "cells") */
	bool details;      /* text and Markdown: the spread table and per-trial diagnostics */
	enum cb_report_part part; /* text, Markdown, HTML: ALL by default */
	/* HTML: what a page prints after each run's "which code ran" tables (its
	 * charts of them), given the run and EXPLAIN_FIGURES_ARG; NULL: nothing. */
	void (*explain_figures)(FILE *out, const struct cb_results *r, void *arg);
	void *explain_figures_arg;
};

/* Text, AUTO, all tables, and the summary and derive defaults. */
void cb_report_defaults(struct cb_report_options *opt);

/* ---- The sections of one run's report (report_sections.c) ----
 *
 * As data: each section's text and its JSON members, in the order both the
 * text printer (cb_report_print: text, Markdown, HTML) and the JSON printer
 * (cb_report_run_json) walk them. A section is one row: its text, its JSON,
 * or both; either prints nothing for a run it does not apply to. */
struct cb_report_section {
	const char *name; /* what it is, for a reader of the table */
	/* Print the section of A to OUT as O asks (NULL: JSON only). */
	void (*text)(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o);
	/* Add the section's members of A to the run's object J (NULL: text only). */
	void (*json)(json_t *j, const struct cb_analysis *a, const struct cb_report_options *o);
	bool answer; /* the answer (the winners): what CB_REPORT_WINNERS prints alone */
};
extern const struct cb_report_section cb_report_sections[];
extern const size_t cb_n_report_sections;

/* The answer alone: who is fastest, per algorithm, op, size (and threads);
 * nothing when the run has no winners. */
void cb_report_winners(FILE *out, const struct cb_analysis *a, const struct cb_report_options *o);

/* Analyse and print each of the N results files to OUT. 0; 1 when a file
 * holds invalid trials; -1 with ERR when an analysis fails (a malformed
 * derived-metric declaration, memory). */
int cb_report_print(FILE *out, struct cb_results *const *files, size_t n,
                    const struct cb_report_options *options, char *err, size_t err_len);

/* Print the comparison C to OUT as FORMAT; CSV prints TABLE, one of
 * cb_compare_tables (NULL: the first, "cells"); text and Markdown show each
 * run's estimate and why each verdict was given with DETAILS, else the
 * verdict, the deciding difference and the across-run value within 100
 * columns (report_compare.c). */
void cb_report_compare(FILE *out, const struct cb_compare *c, enum cb_report_format format,
                       const char *table, bool details);

/* Print the plan for runs P (plan_runs.h) to OUT as FORMAT (report_plan.c):
 * each row compare left not resolved with what would resolve it, then the
 * one plan for the whole table. CSV is not offered. */
struct cb_runs_plan;
void cb_report_plan(FILE *out, const struct cb_runs_plan *p, enum cb_report_format format);

/* Print the N comparisons B[i] of runs against one baseline to OUT as FORMAT
 * (report_baseline.c): per cell the speed ratio with its interval and
 * verdict, then one summary line per run compared. */
void cb_report_baseline(FILE *out, struct cb_baseline *const *b, size_t n,
                        enum cb_report_format format);

/* The pieces of that output the host comparison shares (report_baseline.c;
 * the verdict table_baseline.c): a row's verdict in words ("not resolved
 * (table)" where the table's adjustment withheld it), the summary line of B
 * naming the two sides NAME and BASE ("NAME is 7.2% [6.8, 7.6] faster than
 * BASE on 12 of 14 cells, equivalent on 2"), B as JSON, the text's closing
 * explanation (ALPHA: the error rate). */
const char *cb_report_baseline_verdict(const struct cb_baseline_row *row);
void cb_report_baseline_summary(const struct cb_baseline *b, const char *name, const char *base,
                                char *buf, size_t len);
json_t *cb_report_baseline_json(const struct cb_baseline *b);
/* A baseline table's section: TITLE, the table T (freed), then B's notes. */
void cb_report_baseline_table(FILE *out, enum cb_report_format f, const char *title,
                              struct cb_table *t, const struct cb_baseline *b);
/* What a baseline table's ratios are of, for its title: "median MB/s",
 * "median cycles per byte", or the 'on' column's measure when ON (the rows
 * mix measures). */
void cb_report_baseline_measure(const struct cb_baseline *b, bool on, char *buf, size_t len);
void cb_report_baseline_footer(FILE *out, double alpha);

/* Files from several hosts (hosts.h; report_hosts.c), printed as FORMAT:
 * text and Markdown first show each host of several runs judged across them
 * (cb_report_compare, with DETAILS), then per host against the baseline host
 * a table with each host's estimate and interval, its runs and their
 * reproducibility, the speed ratio with its interval and the verdict, and a
 * summary line per host. CSV: one row per host and cell (the columns of
 * --baseline's, with host, baseline_host, runs, baseline_runs,
 * reproducibility and baseline_reproducibility after the key columns). JSON:
 * an array, one object per host against the baseline host (--baseline's
 * object with the same keys added). */
struct cb_hosts;
void cb_report_hosts(FILE *out, const struct cb_hosts *h, enum cb_report_format format,
                     bool details);

/* ---- CSV: one tidy table per output (report_csv.c) ----
 *
 * Every --format csv output is ONE table with one header line, one row per
 * observation (long format): report's per run and cell (or per run and
 * metric, ...), compare's per cell (or metric) and run. The tables that
 * describe cells begin with the same key columns: file, run (the file's
 * place among those given, from 1), engine (the engine's name), label (the
 * variant), algorithm, op, size (bytes) and threads; a quantity both
 * commands give has one name in both (n, mb_per_s_median,
 * mb_per_s_median_lo, ...). --table NAME chooses another table. Each table
 * is described once (table.h), its columns in tables.h's table_NAME.c; the
 * dialect is core/results/csv.h's. */

/* The tables' names, NULL-terminated; the first is the default. Made from
 * the same lists as the descriptions (tables.h). */
extern const char *const cb_report_tables[];   /* cells winners derived slopes crossovers masks
                                                * explain explain-summary pk-cells pk-winners */
extern const char *const cb_compare_tables[];  /* cells derived engines rankings flips */
extern const char *const cb_baseline_tables[]; /* cells (the baseline comparison, hosts) */
/* Index of NAME in TABLES, or -1. */
int cb_report_table_index(const char *const *tables, const char *name);
/* The report's CSV of the N analyses AS, the table O->table. */
void cb_report_csv(FILE *out, struct cb_analysis *const *as, size_t n,
                   const struct cb_report_options *o);

/* ---- Shared by the printers (the text helpers and JSON numbers: format.h) ---- */

/* The values of M's `by`, without their keys: "sim-fast 16KiB 2 threads"
 * (table_derived.c). */
void cb_report_by_values(const struct cb_derived *m, char *buf, size_t len);
/* A ratio's dependence where its rounds were shown dependent (dependence.h):
 * {"lag1", "lag1_limit", "held", "variance_factor", "batch_rounds" (where
 * the batches sized it)} (table_derived.c). */
json_t *cb_report_dependence_json(const struct cb_dependence *d);

/* MiB per MB: MiB/s = MB/s x CB_MIB_PER_MB. */
#define CB_MIB_PER_MB (1e6 / 1048576.0)

/* The analysis A of one run as JSON (report_json.c): the report's --format json
 * prints an array of these. */
json_t *cb_report_run_json(const struct cb_analysis *a, const struct cb_report_options *o);
/* The comparison C as JSON, as `compare --format json` prints it. */
json_t *cb_report_compare_json(const struct cb_compare *c);

/* The capability masks' section (text or Markdown, as O asks) of A, as the
 * analysis built them: nothing when the run has no masked variant
 * (table_masks.c). */
struct cb_table_options;
void cb_masks_print(FILE *out, const struct cb_analysis *a, const struct cb_table_options *o);
/* The same as JSON (an array, one object per mask), or NULL when the run has
 * no masked variant. */
json_t *cb_masks_json(const struct cb_analysis *a, const struct cb_table_options *o);

/* Which code ran (table_explain.c): the profiled cells' table, the summary
 * per algorithm, op and size, and the reasons profiles were refused, said
 * once; nothing when the run has no profile lines. */
void cb_report_explain(FILE *out, const struct cb_analysis *a, const struct cb_table_options *o);
/* The same as JSON: {"cells": [...], "summary": [...], "refused": [{"reason",
 * "cells"}]}. */
json_t *cb_report_explain_json(const struct cb_analysis *a, const struct cb_table_options *o);

/* A stats.h summary as JSON, with its interval's level, coverage and method
 * (table_cells.c). */
json_t *cb_report_json_stats(const struct cb_stats_summary *s);

#endif
