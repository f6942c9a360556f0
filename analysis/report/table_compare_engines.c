/* table_compare_engines.c: compare's engines, one row per label and run:
 * the label's cells pooled (per round the precision-weighted geometric mean
 * over its cells), judged across runs like a cell (table_compare.h). */
#include "analysis/report/report.h"
#include "analysis/report/table_compare.h"

#define ROW(fn, ...) CB_GET(fn, struct cb_compare_row, row, __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	cb_tc_rows(source, CB_ROW_ENGINE, emit, arg);
}

ROW(engine, cb_value_text(v, row->cell->engine))
ROW(label, cb_value_text(v, row->cell->label))
ROW(cells, cb_value_int(v, (long long)row->pooled_cells))

static const struct cb_column columns[] = {
    CB_TC_RUN_COLUMNS("n"),
    {"key", CB_COL_TEXT, NULL, cb_tc_key, CB_JSON, "key", "the row's key: CSV has its label", NULL},
    {"engine", CB_COL_TEXT, NULL, engine, CB_CSV_JSON, "engine", NULL, NULL},
    {"label", CB_COL_TEXT, NULL, label, CB_CSV_JSON, "label", NULL, NULL},
    {"cells", CB_COL_INT, NULL, cells, CB_CSV_JSON, "cells", NULL, NULL},
    {"n", CB_COL_INT, NULL, cb_tc_n, CB_CSV_JSON, "runs[].n", NULL, NULL},
    {"measure", CB_COL_TEXT, NULL, cb_tc_measure, CB_CSV_JSON, "test.measure", NULL, NULL},
    CB_TC_ESTIMATE_COLUMNS("estimate", "estimate_lo", "estimate_hi"),
    CB_TC_ACROSS_COLUMNS,
};

static const struct cb_text_column text[] = {
    {"engine", 'l', 0, 0, "key", CB_SHOW_VALUE, NULL, NULL, false},
    {"cells", 'r', 0, 0, "cells", CB_SHOW_VALUE, NULL, NULL, false},
    {"on", 'l', 0, 0, "measure", CB_SHOW_VALUE, NULL, NULL, false},
    {"verdict", 'l', 0, 0, "across_verdict", CB_SHOW_VALUE, NULL, NULL, false},
    {"runs differ by [CI]", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_difference,
     "pair (the deciding pair of runs)", false},
    {"why", 'l', CB_IF_DETAILS, 0, "why", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_compare_engines = {
    .name = "engines",
    .about = "one row per label (its cells pooled) and run: the run's estimate, and the "
             "label's verdict across runs",
    .json_rows = "engines",
    .rows = rows,
    .subs = cb_tc_runs,
    .json_order = "key engine label cells runs verdict test statistics across_runs",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, true},
};
