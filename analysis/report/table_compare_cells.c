/* table_compare_cells.c: compare's cells, one row per cell and run, with
 * the cell's verdict across runs (table_compare.h). */
#include "analysis/report/report.h"
#include "analysis/report/table_compare.h"

#define ROW(fn, ...) CB_GET(fn, struct cb_compare_row, row, __VA_ARGS__)
/* A figure of the cell in the row's run: empty when the run lacks it. */
#define RUN(fn, ...)                                                                               \
	ROW(fn, const struct cb_compare_value *x = cb_tc_value(r);                                 \
	    if (!x->present) v->missing = true; else __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	cb_tc_rows(source, CB_ROW_CELL, emit, arg);
}

/* Whether the cell rows were judged on more than one measure, and whether
 * they have more than one thread count: the compact table's optional
 * columns. */
static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	(void)o;
	const struct cb_compare *c = source;
	const struct cb_compare_row *first = NULL;
	unsigned conds = 0;

	for (size_t i = 0; i < c->n_rows; i++) {
		const struct cb_compare_row *row = &c->rows[i];

		if (row->kind != CB_ROW_CELL)
			continue;
		if (!first)
			first = row;
		if (row->measure != first->measure)
			conds |= CB_IF_MEASURES;
		if (row->cell->threads != first->cell->threads)
			conds |= CB_IF_THREADS;
	}
	return conds;
}

ROW(cell, v->j = json_incref(row->cell->json))
CB_KEY_GETTERS(k, struct cb_compare_row, row, row->cell)
/* A public-key cell has no MB/s: its estimates and verdict stand. */
RUN(mbs, if (row->cell->ops) v->missing = true; else cb_value_num(v, x->mbs.value))
RUN(mbs_lo, if (row->cell->ops) v->missing = true; else cb_value_num(v, x->mbs.lo))
RUN(mbs_hi, if (row->cell->ops) v->missing = true; else cb_value_num(v, x->mbs.hi))
RUN(cpb, if (!x->have_cycles) v->missing = true; else cb_value_num(v, x->cpb.value))
RUN(contaminated, cb_value_bool(v, x->contaminated))

static const struct cb_column columns[] = {
    CB_TC_RUN_COLUMNS("n"),
    {"key", CB_COL_TEXT, NULL, cb_tc_key, CB_JSON, "key",
     "the cell's key: CSV spells out its columns", NULL},
    {"cell", CB_COL_OBJECT, NULL, cell, CB_JSON, "cell",
     "the cell as the results file gives it: CSV has its key columns", NULL},
    CB_KEY_COLUMNS(k, "cell."),
    {"n", CB_COL_INT, NULL, cb_tc_n, CB_CSV_JSON, "runs[].n", NULL, NULL},
    {"mb_per_s_median", CB_COL_NUM, "MB/s", mbs, CB_CSV_JSON, "runs[].mbs.value", NULL, NULL},
    {"mb_per_s_median_lo", CB_COL_NUM, "MB/s", mbs_lo, CB_CSV_JSON, "runs[].mbs.lo", NULL, NULL},
    {"mb_per_s_median_hi", CB_COL_NUM, "MB/s", mbs_hi, CB_CSV_JSON, "runs[].mbs.hi", NULL, NULL},
    {"cycles_per_byte_median", CB_COL_NUM, "cycles/B", cpb, CB_CSV, NULL,
     "each run's median cycles per byte beside the measure: JSON gives the measure's "
     "estimate (runs[].value) and MB/s",
     NULL},
    {"contaminated", CB_COL_BOOL, NULL, contaminated, CB_CSV_JSON, "runs[].contaminated", NULL,
     NULL},
    {"measure", CB_COL_TEXT, NULL, cb_tc_measure, CB_CSV_JSON, "test.measure", NULL, NULL},
    CB_TC_ESTIMATE_COLUMNS("estimate", "estimate_lo", "estimate_hi"),
    CB_TC_ACROSS_COLUMNS,
};

/* ---- Text ---- */

static const struct cb_text_column compact[] = {
    CB_KEY_TEXT(CB_IF_THREADS),
    {"on", 'l', CB_IF_MEASURES, 0, "measure", CB_SHOW_VALUE, NULL, NULL, false},
    {"verdict", 'l', 0, 0, "across_verdict", CB_SHOW_VALUE, NULL, NULL, false},
    {"runs differ by [CI]", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_difference,
     "pair (the deciding pair of runs)", false},
    {"across", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_across_value, "across", false},
};

static const struct cb_text_column details[] = {
    CB_KEY_TEXT(0),
    {"measure", 'l', 0, 0, "measure", CB_SHOW_VALUE, NULL, NULL, false},
    {"run %zu", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_run_value,
     "estimate estimate_lo estimate_hi mb_per_s_median contaminated, of each run", true},
    {"verdict", 'l', 0, 0, "across_verdict", CB_SHOW_VALUE, NULL, NULL, false},
    {"why", 'l', 0, 0, "why", CB_SHOW_VALUE, NULL, NULL, false},
    {"across", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_across, "across across_lo across_hi",
     false},
};

const struct cb_table_def cb_table_compare_cells = {
    .name = "cells",
    .about = "one row per cell and run: the run's estimate, and the cell's verdict across runs",
    .json_rows = "cells",
    .rows = rows,
    .conditions = conditions,
    .subs = cb_tc_runs,
    .json_order = "key cell runs verdict test statistics across_runs",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {compact, CB_N(compact), NULL, true},
    .text2 = {details, CB_N(details), NULL, true},
};
