/* tables.h: the tables of report and compare, one description each
 * (table.h), one file per subject (table_NAME.c), and the helpers their
 * getters share.
 *
 * The sets: a set is one X-list of its tables' names, which makes both the
 * NULL-terminated array of descriptions (cb_report_table_set, ...) and the
 * array of names the command line offers (cb_report_tables, report.h): one
 * list, so the two cannot disagree. The description cb_table_NAME has name
 * "NAME" (checked by tests/test_tables.c). */
#ifndef CB_TABLES_H
#define CB_TABLES_H

#include "analysis/report/table.h"

/* X(SYMBOL, "NAME"): the description cb_table_SYMBOL, named NAME. */
/* report: per run. Source: struct cb_analysis. */
#define CB_REPORT_TABLE_LIST(X)                                                                    \
	X(cells, "cells")                                                                          \
	X(winners, "winners")                                                                      \
	X(derived, "derived")                                                                      \
	X(slopes, "slopes")                                                                        \
	X(crossovers, "crossovers")                                                                \
	X(masks, "masks")                                                                          \
	X(explain, "explain")                                                                      \
	X(explain_summary, "explain-summary")                                                      \
	X(pk_cells, "pk-cells")                                                                    \
	X(pk_winners, "pk-winners")
/* compare: several runs of one scenario. Source: struct cb_compare. */
#define CB_COMPARE_TABLE_LIST(X)                                                                   \
	X(compare_cells, "cells")                                                                  \
	X(compare_derived, "derived")                                                              \
	X(compare_engines, "engines")                                                              \
	X(rankings, "rankings")                                                                    \
	X(flips, "flips")
/* compare --baseline (source: struct cb_baseline) and across hosts (source:
 * struct cb_hosts_pair): one table each, both named cells. */
#define CB_BASELINE_TABLE_LIST(X) X(baseline, "cells")
#define CB_HOSTS_TABLE_LIST(X) X(hosts, "cells")

/* The table NAME of SET (NULL: the first; unknown: the first). */
const struct cb_table_def *cb_report_table_of(const struct cb_table_def *const *set,
                                              const char *name);

#define CB_TABLE_EXTERN(sym, name) extern const struct cb_table_def cb_table_##sym;
CB_REPORT_TABLE_LIST(CB_TABLE_EXTERN)
CB_COMPARE_TABLE_LIST(CB_TABLE_EXTERN)
CB_BASELINE_TABLE_LIST(CB_TABLE_EXTERN)
CB_HOSTS_TABLE_LIST(CB_TABLE_EXTERN)
#undef CB_TABLE_EXTERN

/* The hosts table's source: one host against the baseline host. */
struct cb_hosts;
struct cb_hosts_pair;
struct cb_hosts_view {
	const struct cb_hosts *hosts;
	const struct cb_hosts_pair *pair;
};

/* The sets, NULL-terminated, the default first. */
extern const struct cb_table_def *const cb_report_table_set[];
extern const struct cb_table_def *const cb_compare_table_set[];
extern const struct cb_table_def *const cb_baseline_table_set[];

/* ---- Getters ----
 *
 * CB_GET(fn, T, x, body): a getter FN whose row item is a `const T *x`;
 * BODY sets V (cb_value_*), or V->missing. */
#define CB_GET(fn, T, x, ...)                                                                      \
	static void fn(const struct cb_row *r, struct cb_value *v)                                 \
	{                                                                                          \
		const T *x = r->item;                                                              \
		(void)x;                                                                           \
		(void)r;                                                                           \
		__VA_ARGS__;                                                                       \
	}

/* The six key columns of a cell (engine, label, algorithm, op, size,
 * threads) from CELL, an expression of X (the item) giving a `const struct
 * cb_result_cell *`; their JSON under PREFIX ("cell." for a row that
 * carries the results file's cell object). CB_KEY_GETTERS defines the
 * getters (PFX_engine, ...), CB_KEY_COLUMNS the columns (CB_KEY_COLUMNS_IN:
 * in the tables IN says, table.h). */
#define CB_KEY_GETTERS(pfx, T, x, cell)                                                            \
	CB_GET(pfx##_engine, T, x, cb_value_text(v, (cell)->engine))                               \
	CB_GET(pfx##_label, T, x, cb_value_text(v, (cell)->label))                                 \
	CB_GET(pfx##_algorithm, T, x, cb_value_text(v, (cell)->algorithm))                         \
	CB_GET(pfx##_op, T, x, cb_value_text(v, (cell)->op))                                       \
	CB_GET(pfx##_size, T, x, cb_value_int(v, (long long)(cell)->size))                         \
	CB_GET(pfx##_threads, T, x, cb_value_int(v, (long long)(cell)->threads))
#define CB_KEY_COLUMNS_IN(pfx, prefix, in)                                                         \
	{"engine",           CB_COL_TEXT,     NULL, pfx##_engine,                                  \
	 CB_CSV_JSON | (in), prefix "engine", NULL, NULL},                                         \
	    {"label",        CB_COL_TEXT, NULL, pfx##_label, CB_CSV_JSON | (in),                   \
	     prefix "label", NULL,        NULL},                                                   \
	    {"algorithm",        CB_COL_TEXT,        NULL, pfx##_algorithm,                        \
	     CB_CSV_JSON | (in), prefix "algorithm", NULL, NULL},                                  \
	    {"op", CB_COL_TEXT, NULL, pfx##_op, CB_CSV_JSON | (in), prefix "op", NULL, NULL},      \
	    {"size",        CB_COL_INT, "bytes", pfx##_size, CB_CSV_JSON | (in),                   \
	     prefix "size", NULL,       NULL},                                                     \
	{                                                                                          \
		"threads", CB_COL_INT, NULL, pfx##_threads, CB_CSV_JSON | (in), prefix "threads",  \
		    NULL, NULL                                                                     \
	}
#define CB_KEY_COLUMNS(pfx, prefix) CB_KEY_COLUMNS_IN(pfx, prefix, CB_IN_BYTES)

/* The text columns of a cell's key: engine (its label), algorithm, op,
 * size, and threads when THREADS_WHEN holds (0: always). */
#define CB_KEY_TEXT(threads_when)                                                                  \
	{"engine", 'l', 0, 0, "label", CB_SHOW_VALUE, NULL, NULL, false},                          \
	    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},               \
	    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},                             \
	    {"size", 'r', 0, 0, "size", CB_SHOW_SIZE, NULL, NULL, false},                          \
	{                                                                                          \
		"thr", 'r', threads_when, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false           \
	}

/* Why a report table's file and run columns are not in its JSON rows. */
#define CB_WHY_FILE "the JSON array of runs holds each run's file"
#define CB_WHY_RUN "in JSON: the run's place in the array of runs"

#endif
