/* report.h: summaries of results files for people and programs. */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stdio.h>

#include "results.h"

enum cb_report_format { CB_FORMAT_TEXT, CB_FORMAT_MARKDOWN, CB_FORMAT_CSV, CB_FORMAT_JSON };

struct cb_report_options {
	enum cb_report_format format;
};

/* Print a summary of each of the N results files to OUT: per cell the number
 * of valid trials, min, median and max, as MB/s and ns per call; invalid
 * trials with their first reason; skipped combinations. 0, or 1 when a file
 * holds invalid trials. */
int cb_report_print(FILE *out, struct cb_results *const *files, size_t n,
		    const struct cb_report_options *options);

/* "text", "markdown", "csv", "json" -> format; -1 when unknown. */
int cb_report_parse_format(const char *name);

#endif
