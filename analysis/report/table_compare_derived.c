/* table_compare_derived.c: compare's derived metrics, one row per metric
 * and run, with the metric's verdict across runs (table_compare.h). */
#include "analysis/report/report.h"
#include "analysis/report/table_compare.h"

#define ROW(fn, ...) CB_GET(fn, struct cb_compare_row, row, __VA_ARGS__)
#define RUN(fn, ...)                                                                               \
	ROW(fn, const struct cb_compare_value *x = cb_tc_value(r);                                 \
	    if (!x->present) v->missing = true; else __VA_ARGS__)
#define EXPECT(fn, ...) ROW(fn, if (!row->has_expect) v->missing = true; else __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	cb_tc_rows(source, CB_ROW_DERIVED, emit, arg);
}

ROW(metric, cb_value_text(v, row->derived->name))
ROW(by, cb_value_text(v, row->derived->by))
ROW(by_json, v->j = json_incref(row->derived->by_json))
RUN(verdict, cb_value_text(v, cb_ratio_verdict_name(x->verdict)))
EXPECT(expected, cb_value_num(v, row->derived->expect_value))
EXPECT(tolerance, cb_value_num(v, row->derived->expect_tolerance))
RUN(expectation, if (!x->has_expect) v->missing = true;
    else cb_value_text(v, cb_ratio_expectation_name(x->expectation)))
EXPECT(across_expectation, cb_value_text(v, cb_ratio_expectation_name(row->expectation)))
EXPECT(consistent, cb_value_int(v, (long long)row->expect_consistent))
EXPECT(inconsistent, cb_value_int(v, (long long)row->expect_inconsistent))
EXPECT(expect_runs, cb_value_int(v, (long long)row->expect_runs))

static const struct cb_column columns[] = {
    CB_TC_RUN_COLUMNS("rounds"),
    {"key", CB_COL_TEXT, NULL, cb_tc_key, CB_JSON, "key", "the metric's key: CSV has metric and by",
     NULL},
    {"metric", CB_COL_TEXT, NULL, metric, CB_CSV_JSON, "metric", NULL, NULL},
    {"by", CB_COL_TEXT, NULL, by, CB_CSV, NULL, "JSON's by is the values' object (by_values)",
     NULL},
    {"by_values", CB_COL_OBJECT, NULL, by_json, CB_JSON, "by",
     "the by dimensions and their values: CSV's by spells them in one field", NULL},
    {"rounds", CB_COL_INT, NULL, cb_tc_n, CB_CSV_JSON, "runs[].n", NULL, NULL},
    CB_TC_ESTIMATE_COLUMNS("ratio", "ratio_lo", "ratio_hi"),
    {"verdict", CB_COL_TEXT, NULL, verdict, CB_CSV_JSON, "runs[].verdict", NULL, NULL},
    {"expected", CB_COL_NUM, NULL, expected, CB_CSV_JSON, "expectation.value", NULL, NULL},
    {"tolerance", CB_COL_NUM, NULL, tolerance, CB_CSV_JSON, "expectation.tolerance", NULL, NULL},
    {"expectation", CB_COL_TEXT, NULL, expectation, CB_CSV_JSON, "runs[].expectation", NULL, NULL},
    {"across_expectation", CB_COL_TEXT, NULL, across_expectation, CB_CSV_JSON,
     "expectation.verdict", NULL, NULL},
    {"consistent_runs", CB_COL_INT, NULL, consistent, CB_JSON, "expectation.consistent_runs",
     "the runs whose expectation is consistent: CSV's expectation per run", NULL},
    {"inconsistent_runs", CB_COL_INT, NULL, inconsistent, CB_JSON, "expectation.inconsistent_runs",
     "the same, inconsistent", NULL},
    {"expectation_runs", CB_COL_INT, NULL, expect_runs, CB_JSON, "expectation.runs",
     "the runs judged against the expectation", NULL},
    {"measure", CB_COL_TEXT, NULL, cb_tc_measure, CB_JSON, "test.measure",
     "always ratio for a derived metric", NULL},
    CB_TC_ACROSS_COLUMNS,
};

/* ---- Text ---- */

static void text_by(const struct cb_row *r, char *buf, size_t len)
{
	cb_report_by_values(((const struct cb_compare_row *)r->item)->derived, buf, len);
}

static void text_by_keys(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = ((const struct cb_compare_row *)r->item)->derived;

	snprintf(buf, len, "%s", m->by[0] ? m->by : "-");
}

static void text_expected(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_compare_row *row = r->item;

	if (row->has_expect)
		snprintf(buf, len, "%.4g +/- %.3g%%", row->derived->expect_value,
		         row->derived->expect_tolerance * 100);
	else
		snprintf(buf, len, "-");
}

static void text_expectation(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_compare_row *row = r->item;

	if (row->has_expect)
		snprintf(buf, len, "%s (consistent in %zu of %zu runs)",
		         cb_ratio_expectation_name(row->expectation), row->expect_consistent,
		         row->expect_runs);
	else
		snprintf(buf, len, "-");
}

static const struct cb_text_column compact[] = {
    {"metric", 'l', 0, 0, "metric", CB_SHOW_VALUE, NULL, NULL, false},
    {"by", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_by, "by, its values alone", false},
    {"verdict", 'l', 0, 0, "across_verdict", CB_SHOW_VALUE, NULL, NULL, false},
    {"runs differ by [CI]", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_difference,
     "pair (the deciding pair of runs)", false},
    {"across", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_across_value, "across", false},
};

static const struct cb_text_column details[] = {
    {"metric", 'l', 0, 0, "metric", CB_SHOW_VALUE, NULL, NULL, false},
    {"by", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_by_keys, "by", false},
    {"run %zu", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_run_value,
     "ratio ratio_lo ratio_hi, of each run", true},
    {"verdict", 'l', 0, 0, "across_verdict", CB_SHOW_VALUE, NULL, NULL, false},
    {"why", 'l', 0, 0, "why", CB_SHOW_VALUE, NULL, NULL, false},
    {"across", 'r', 0, 0, NULL, CB_SHOW_VALUE, cb_tc_text_across, "across across_lo across_hi",
     false},
    {"expected", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_expected, "expected tolerance", false},
    {"expectation", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_expectation,
     "across_expectation consistent_runs expectation_runs", false},
};

const struct cb_table_def cb_table_compare_derived = {
    .name = "derived",
    .about = "one row per derived metric and run: the run's ratio, and the metric's verdict "
             "across runs",
    .json_rows = "derived",
    .rows = rows,
    .subs = cb_tc_runs,
    .json_order = "key metric by runs verdict test statistics across_runs expectation",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {compact, CB_N(compact), NULL, true},
    .text2 = {details, CB_N(details), NULL, true},
};
