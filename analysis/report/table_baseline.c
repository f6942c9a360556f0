/* table_baseline.c: compare --baseline, one row per run compared and cell
 * both it and the baseline have: each side's median, the speed ratio and
 * its verdict (table_baseline.h). Source: struct cb_baseline. */
#include "analysis/report/table_baseline.h"

#include "analysis/report/report.h"
#include "analysis/verdicts/analysis.h"

/* Declared in report.h, beside the other pieces the host comparison shares. */
const char *cb_report_baseline_verdict(const struct cb_baseline_row *row)
{
	return row->family ? "not resolved (table)" : cb_ratio_verdict_name(row->verdict);
}

void cb_tb_rows(const struct cb_baseline *b, cb_table_emit *emit, void *arg)
{
	for (size_t i = 0; i < b->n_rows; i++)
		emit(arg, &b->rows[i], 0);
}

unsigned cb_tb_conditions(const struct cb_baseline *b)
{
	unsigned conds = 0;

	for (size_t i = 1; i < b->n_rows; i++) {
		if (b->rows[i].base->cell->threads != b->rows[0].base->cell->threads)
			conds |= CB_IF_THREADS;
		if (b->rows[i].measure != b->rows[0].measure)
			conds |= CB_IF_MEASURES;
	}
	return conds;
}

#define ROW(fn, ...)                                                                               \
	void fn(const struct cb_row *r, struct cb_value *v)                                        \
	{                                                                                          \
		const struct cb_baseline_row *row = r->item;                                       \
		__VA_ARGS__;                                                                       \
	}
ROW(cb_tb_cell, v->j = json_incref(row->other->cell->json))
ROW(cb_tb_engine, cb_value_text(v, row->other->cell->engine))
ROW(cb_tb_label, cb_value_text(v, row->other->cell->label))
ROW(cb_tb_algorithm, cb_value_text(v, row->other->cell->algorithm))
ROW(cb_tb_op, cb_value_text(v, row->other->cell->op))
ROW(cb_tb_size, cb_value_int(v, (long long)row->other->cell->size))
ROW(cb_tb_threads, cb_value_int(v, (long long)row->other->cell->threads))
ROW(cb_tb_measure, cb_value_text(v, cb_compare_measure_name(row->measure)))
ROW(cb_tb_base, cb_value_num(v, row->base_e.value))
ROW(cb_tb_base_lo, cb_value_num(v, row->base_e.lo))
ROW(cb_tb_base_hi, cb_value_num(v, row->base_e.hi))
ROW(cb_tb_other, cb_value_num(v, row->other_e.value))
ROW(cb_tb_other_lo, cb_value_num(v, row->other_e.lo))
ROW(cb_tb_other_hi, cb_value_num(v, row->other_e.hi))
/* A public-key cell has no MB/s: its ratio and verdict stand, in operations. */
ROW(cb_tb_base_mbs, if (row->other->cell->ops) v->missing = true;
    else cb_value_num(v, row->base_mbs.value))
ROW(cb_tb_other_mbs, if (row->other->cell->ops) v->missing = true;
    else cb_value_num(v, row->other_mbs.value))
ROW(cb_tb_ratio, cb_value_num(v, row->margin.ratio))
ROW(cb_tb_ratio_lo, cb_value_num(v, row->margin.lo))
ROW(cb_tb_ratio_hi, cb_value_num(v, row->margin.hi))
ROW(cb_tb_delta, cb_value_num(v, row->delta))
ROW(cb_tb_verdict, cb_value_text(v, cb_report_baseline_verdict(row)))
ROW(cb_tb_verdict_alone, cb_value_text(v, cb_ratio_verdict_name(row->verdict)))
ROW(cb_tb_family, cb_value_bool(v, row->family))
ROW(cb_tb_p_beyond, cb_value_num(v, row->margin.p_beyond))
ROW(cb_tb_p_within, cb_value_num(v, row->margin.p_within))
ROW(cb_tb_p_adjusted, cb_value_num(v, row->p_adjusted))

void cb_tb_text_change(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_baseline_row *row = r->item;
	char x[80];

	snprintf(buf, len, "%s",
	         cb_fmt_change(row->margin.ratio, row->margin.lo, row->margin.hi, x));
}

/* ---- The table ---- */

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	cb_tb_rows(source, emit, arg);
}

static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	(void)o;
	return cb_tb_conditions(source);
}

CB_GET(file, struct cb_baseline_row, row,
       cb_value_text(v, ((const struct cb_baseline *)r->source)->other->results->path))
CB_GET(run, struct cb_baseline_row, row, cb_value_int(v, (long long)r->run))
CB_GET(baseline_file, struct cb_baseline_row, row,
       cb_value_text(v, ((const struct cb_baseline *)r->source)->base->results->path))

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL,
     "in JSON once for the run compared (its object's file)", NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL,
     "in JSON: the run's place in the array of runs compared", NULL},
    CB_TB_KEY_COLUMNS,
    {"baseline_file", CB_COL_TEXT, NULL, baseline_file, CB_CSV, NULL,
     "in JSON once for the run compared (its object's baseline)", NULL},
    CB_TB_ROW_COLUMNS,
};

static const struct cb_text_column text[] = {
    CB_KEY_TEXT(CB_IF_THREADS),
    {"on", 'l', CB_IF_MEASURES, 0, "measure", CB_SHOW_VALUE, NULL, NULL, false},
    {"MB/s A", 'r', 0, 0, "baseline_mb_per_s_median", CB_SHOW_VALUE, NULL, NULL, false},
    {"MB/s B", 'r', 0, 0, "mb_per_s_median", CB_SHOW_VALUE, NULL, NULL, false},
    {"B/A: change [95% CI]", 'l', 0, 0, "ratio ratio_lo ratio_hi", CB_SHOW_CHANGE, NULL, NULL,
     false},
    {"verdict", 'l', 0, 0, "verdict", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_baseline = {
    .name = "cells",
    .about = "one row per run compared and common cell: each side's median, the speed ratio "
             "B/A and its verdict",
    .json_rows = "cells",
    .rows = rows,
    .conditions = conditions,
    .json_order = CB_TB_JSON_ORDER,
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
