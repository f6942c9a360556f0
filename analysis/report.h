/* report.h: analyses of results files, printed for people and programs.
 *
 * Every number printed says which statistic it is: a column header or a JSON
 * key names it (median, min, P10, ...), intervals name their level and method,
 * and a headline that switched from the median to the minimum says so.
 *
 * Formats: text (aligned tables), Markdown (tables), CSV (the cell table
 * first; its first ten columns are file, label, algorithm, op, size, threads,
 * n, invalid, mb_per_s_max, mb_per_s_median; further tables follow, each
 * after an empty line with its own header), JSON (everything, with intervals,
 * methods, n and seeds). */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/derive.h"
#include "analysis/format.h"
#include "core/results.h"
#include "analysis/summary.h"

struct cb_report_options {
	enum cb_report_format format;
	enum cb_statistic statistic; /* the headline; AUTO switches to min when contaminated */
	struct cb_summary_options summary;
	struct cb_derive_options derive;
};

/* Text, AUTO, and the summary and derive defaults. */
void cb_report_defaults(struct cb_report_options *opt);

/* Analyse and print each of the N results files to OUT. 0; 1 when a file
 * holds invalid trials; -1 with ERR when an analysis fails (a malformed
 * derived-metric declaration, memory). */
int cb_report_print(FILE *out, struct cb_results *const *files, size_t n,
                    const struct cb_report_options *options, char *err, size_t err_len);

/* Print the comparison C to OUT as FORMAT (report_compare.c). */
void cb_report_compare(FILE *out, const struct cb_compare *c, enum cb_report_format format);

/* ---- Shared by the printers ---- */

/* MiB per MB: MiB/s = MB/s x CB_MIB_PER_MB. */
#define CB_MIB_PER_MB (1e6 / 1048576.0)

/* The analysis A of one run as JSON (report_json.c): the report's --format json
 * prints an array of these. */
json_t *cb_report_run_json(const struct cb_analysis *a, const struct cb_report_options *o);

/* NaN-safe JSON number: null for NaN or infinity (report_json.c). */
json_t *cb_report_json_number(double v);
/* A stats.h summary as JSON, with its interval's level, coverage and method. */
json_t *cb_report_json_stats(const struct cb_stats_summary *s);
/* "engine|algorithm|op|size|threads" as short text: "openssl aes-128-cbc encrypt 16KiB" (+ " x4t").
 */
const char *cb_report_cell_name(const struct cb_result_cell *c, char buf[256]);

#endif
