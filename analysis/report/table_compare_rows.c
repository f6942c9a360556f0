/* table_compare_rows.c: the columns and words compare's row tables share:
 * a row (a cell, a derived metric, an engine's pooled cells) in each run,
 * and its verdict across runs (table_compare.h). */
#include <math.h>
#include <stdlib.h>

#include "analysis/report/report.h"
#include "analysis/report/table_compare.h"

const struct cb_compare *cb_tc_compare(const struct cb_row *r)
{
	return r->source;
}

const struct cb_compare_value *cb_tc_value(const struct cb_row *r)
{
	return &((const struct cb_compare_row *)r->item)->runs[r->sub];
}

void cb_tc_rows(const void *source, enum cb_compare_kind kind, cb_table_emit *emit, void *arg)
{
	const struct cb_compare *c = source;
	const struct cb_compare_row *rows = kind == CB_ROW_ENGINE ? c->engine_rows : c->rows;
	size_t n = kind == CB_ROW_ENGINE ? c->n_engine_rows : c->n_rows;

	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; rows[i].kind == kind && r < c->k; r++)
			emit(arg, &rows[i], r);
}

size_t cb_tc_runs(const void *source)
{
	return ((const struct cb_compare *)source)->k;
}

/* ---- Words ---- */

void cb_tc_rules_text(const struct cb_compare *c, const struct cb_compare_row *row, char *buf,
                      size_t len)
{
	size_t *number = malloc((row->present ? row->present : 1) * sizeof *number);

	if (!number) {
		snprintf(buf, len, "-");
		return;
	}
	for (size_t i = 0; i < row->present; i++)
		number[i] = row->run_of[i] + 1;
	if (row->repro.why == CB_REPRO_WHY_FEW_RUNS)
		snprintf(buf, len, "only %zu run%s %s an estimate", row->present,
		         row->present == 1 ? "" : "s", row->present == 1 ? "has" : "have");
	else if (row->repro.why == CB_REPRO_WHY_NO_INTERVAL) {
		for (size_t i = 0; i < row->present; i++)
			if (isnan(row->runs[row->run_of[i]].e.lo)) {
				snprintf(buf, len, "run %zu has no interval (n %zu < 6)",
				         row->run_of[i] + 1, row->runs[row->run_of[i]].n);
				break;
			}
	} else
		cb_repro_why_text(&row->repro, row->delta, number, c->family, buf, len);
	free(number);
}

void cb_tc_difference_text(const struct cb_compare *c, const struct cb_compare_row *row, char *buf,
                           size_t len)
{
	const struct cb_margin *m = &row->repro.pair;
	char x[80];

	if (row->present < 2 || isnan(m->ratio)) {
		snprintf(buf, len, "-");
		return;
	}
	cb_fmt_change(m->ratio, m->lo, m->hi, x);
	if (c->k > 2)
		snprintf(buf, len, "%s (runs %zu, %zu)", x, row->run_of[row->repro.pair_a] + 1,
		         row->run_of[row->repro.pair_b] + 1);
	else
		snprintf(buf, len, "%s", x);
}

/* ---- Each run's figures ---- */

static json_t *runs_json(const struct cb_compare *c, const struct cb_compare_row *row)
{
	json_t *runs = json_array();

	for (size_t r = 0; r < c->k; r++) {
		const struct cb_compare_value *v = &row->runs[r];
		json_t *x;

		if (!v->present) {
			json_array_append_new(
			    runs, json_pack("{s:I, s:b}", "run", (json_int_t)r + 1, "present", 0));
			continue;
		}
		x = json_pack("{s:I, s:s, s:b, s:o, s:o, s:o, s:I, s:o, s:s}", "run",
		              (json_int_t)r + 1, "file", c->files[r]->path, "present", 1, "value",
		              cb_report_json_number(v->e.value), "lo",
		              cb_report_json_number(v->e.lo), "hi", cb_report_json_number(v->e.hi),
		              "n", (json_int_t)v->n, "level", cb_report_json_number(v->level),
		              "method",
		              row->kind == CB_ROW_CELL ? "median, order-statistic interval"
		              : row->kind == CB_ROW_ENGINE
		                  ? "median over rounds of the cells' precision-weighted geometric "
		                    "mean, order-statistic interval"
		                  : "exp(median per-round log ratio), exact sign-test interval");
		if (row->kind == CB_ROW_CELL) {
			json_object_set_new(x, "contaminated", json_boolean(v->contaminated));
			json_object_set_new(x, "mbs",
			                    json_pack("{s:o, s:o, s:o}", "value",
			                              cb_report_json_number(v->mbs.value), "lo",
			                              cb_report_json_number(v->mbs.lo), "hi",
			                              cb_report_json_number(v->mbs.hi)));
		} else if (row->kind == CB_ROW_DERIVED)
			json_object_set_new(x, "verdict",
			                    json_string(cb_ratio_verdict_name(v->verdict)));
		if (v->has_expect)
			json_object_set_new(x, "expectation",
			                    json_string(cb_ratio_expectation_name(v->expectation)));
		json_array_append_new(runs, x);
	}
	return runs;
}

#define ROW(fn, ...)                                                                               \
	void fn(const struct cb_row *r, struct cb_value *v)                                        \
	{                                                                                          \
		const struct cb_compare_row *row = r->item;                                        \
		const struct cb_repro *p = &row->repro;                                            \
		(void)p;                                                                           \
		__VA_ARGS__;                                                                       \
	}
/* A figure of the row's run: CSV leaves it empty and JSON's runs entry
 * lacks it when the run has no estimate. */
#define RUN(fn, ...)                                                                               \
	ROW(fn, const struct cb_compare_value *x = cb_tc_value(r);                                 \
	    if (!x->present) v->missing = true; else __VA_ARGS__)

ROW(cb_tc_file, if (v->for_json && !cb_tc_value(r)->present) v->missing = true;
    else cb_value_text(v, cb_tc_compare(r)->files[r->sub]->path))
ROW(cb_tc_run, cb_value_int(v, (long long)r->sub + 1))
ROW(cb_tc_key, cb_value_text(v, row->key))
ROW(cb_tc_n, const struct cb_compare_value *x = cb_tc_value(r);
    if (v->for_json && !x->present) v->missing = true;
    else cb_value_int(v, x->present ? (long long)x->n : 0))
RUN(cb_tc_estimate, cb_value_num(v, x->e.value))
RUN(cb_tc_estimate_lo, cb_value_num(v, x->e.lo))
RUN(cb_tc_estimate_hi, cb_value_num(v, x->e.hi))
RUN(cb_tc_level, cb_value_num(v, x->level))
ROW(cb_tc_measure, cb_value_text(v, cb_compare_measure_name(row->measure)))
ROW(cb_tc_runs_json, v->j = runs_json(cb_tc_compare(r), row))
ROW(cb_tc_verdict, cb_value_text(v, cb_repro_verdict_name(p->verdict)))
/* The across-run value is given when reproduced; JSON keeps it always,
 * with headline false. */
#define ACROSS(fn, expr)                                                                           \
	ROW(fn, cb_value_num(v, p->verdict == CB_REPRO_REPRODUCED || v->for_json ? (expr) : NAN))
ACROSS(cb_tc_across, p->value.value)
ACROSS(cb_tc_across_lo, p->value.lo)
ACROSS(cb_tc_across_hi, p->value.hi)
ROW(cb_tc_across_method, cb_value_text(v, "geometric mean of run estimates, t-interval on k-1 df"))
ROW(cb_tc_across_level, cb_value_num(v, cb_tc_compare(r)->options.repro.level))
ROW(cb_tc_across_headline, cb_value_bool(v, p->verdict == CB_REPRO_REPRODUCED))
ROW(cb_tc_delta, cb_value_num(v, row->delta))
ROW(cb_tc_stat_runs, cb_value_int(v, (long long)p->k))
ROW(cb_tc_spread, cb_value_num(v, p->spread))
ROW(cb_tc_q, cb_value_num(v, p->q))
ROW(cb_tc_q_p, cb_value_num(v, p->q_p))
ROW(cb_tc_i2, cb_value_num(v, p->i2))
ROW(cb_tc_p_beyond, cb_value_num(v, p->p_beyond))
ROW(cb_tc_p_within, cb_value_num(v, p->p_within))
ROW(cb_tc_p_adjusted, cb_value_num(v, p->p_adjusted))
ROW(cb_tc_pair, v->j = isnan(p->pair.ratio)
                           ? json_null()
                           : json_pack("{s:[I, I], s:o, s:o, s:o}", "runs",
                                       (json_int_t)row->run_of[p->pair_a] + 1,
                                       (json_int_t)row->run_of[p->pair_b] + 1, "ratio",
                                       cb_report_json_number(p->pair.ratio), "lo",
                                       cb_report_json_number(p->pair.lo), "hi",
                                       cb_report_json_number(p->pair.hi)))
ROW(cb_tc_why, cb_tc_rules_text(cb_tc_compare(r), row, v->buf, sizeof v->buf);
    cb_value_text(v, v->buf))

/* ---- Text ---- */

void cb_tc_text_verdict(const struct cb_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
	         cb_repro_verdict_name(((const struct cb_compare_row *)r->item)->repro.verdict));
}

void cb_tc_text_difference(const struct cb_row *r, char *buf, size_t len)
{
	cb_tc_difference_text(cb_tc_compare(r), r->item, buf, len);
}

/* The value alone: its t-interval is in --details. */
void cb_tc_text_across_value(const struct cb_row *r, char *buf, size_t len)
{
	char x[32];

	snprintf(buf, len, "%s", cb_fmt_num(cb_row_num(r, "across"), x));
}

void cb_tc_text_across(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_compare_row *row = r->item;
	char v[32], ci[80];

	if (row->repro.verdict != CB_REPRO_REPRODUCED) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%s %s", cb_fmt_num(row->repro.value.value, v),
	         cb_fmt_interval(row->repro.value.lo, row->repro.value.hi, ci));
}

void cb_tc_text_run_value(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_compare_row *row = r->item;
	const struct cb_compare_value *v = cb_tc_value(r);
	char x[32], ci[80];

	if (!v->present) {
		snprintf(buf, len, "-");
		return;
	}
	int used = snprintf(buf, len, "%s %s", cb_fmt_num(v->e.value, x),
	                    cb_fmt_interval(v->e.lo, v->e.hi, ci));
	if (used < 0 || (size_t)used >= len)
		return;
	if (row->measure != CB_MEASURE_MBS && row->measure != CB_MEASURE_RATIO)
		used += snprintf(buf + used, len - (size_t)used, " (%s MB/s)",
		                 cb_fmt_num(v->mbs.value, x));
	if (v->contaminated && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, " (contaminated)");
}

void cb_tc_text_why(const struct cb_row *r, char *buf, size_t len)
{
	cb_tc_rules_text(cb_tc_compare(r), r->item, buf, len);
}
