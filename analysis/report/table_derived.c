/* table_derived.c: the scenario's derived metrics, one row per metric of a
 * run: the ratio paired by round, its verdict and expectation (tables.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "core/base/units.h"

/* Defined here, its first user; declared in report.h. */
void cb_report_by_values(const struct cb_derived *m, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	size_t used = 0;

	buf[0] = '\0';
	json_object_foreach(m->by_json, key, v)
	{
		char x[64];

		if (strcmp(key, "size") == 0)
			cb_format_size((size_t)json_integer_value(v), x);
		else if (strcmp(key, "threads") == 0)
			snprintf(x, sizeof x, "%lld thread%s", (long long)json_integer_value(v),
			         json_integer_value(v) == 1 ? "" : "s");
		else
			snprintf(x, sizeof x, "%s",
			         json_string_value(v) ? json_string_value(v) : "?");
		if (used < len)
			used +=
			    (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", x);
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

#define METRIC(fn, ...) CB_GET(fn, struct cb_derived, m, __VA_ARGS__)
/* A figure of the ratio: JSON has it only where the metric has a ratio. */
#define RATIO(fn, ...) METRIC(fn, if (!m->ok && v->for_json) v->missing = true; else __VA_ARGS__)
#define EXPECT(fn, ...)                                                                            \
	METRIC(fn, if (!m->has_expect || (!m->ok && v->for_json)) v->missing = true;               \
	       else __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_analysis *a = source;

	for (size_t i = 0; i < a->n_derived; i++)
		emit(arg, &a->derived[i], 0);
}

/* Declared in report.h. */
json_t *cb_report_dependence_json(const struct cb_dependence *d)
{
	json_t *o = json_pack("{s:o, s:o, s:b, s:o}", "lag1", cb_report_json_number(d->lag1),
	                      "lag1_limit", cb_report_json_number(d->lag1_limit), "held", d->hold,
	                      "variance_factor", cb_report_json_number(d->vif));

	if (o && d->batches) {
		json_object_set_new(o, "batch_rounds", json_integer((json_int_t)d->batch));
		json_object_set_new(o, "batch_units", json_boolean(d->batch_units));
	}
	if (o && d->own_judged)
		json_object_set_new(
		    o, "own_noise",
		    json_pack("{s:o, s:o, s:b, s:o}", "share", cb_report_json_number(d->share),
		              "spread", cb_report_json_number(d->spread), "cleared", d->own_cleared,
		              "margin",
		              cb_report_json_number(d->margin > 0 ? exp(d->margin) - 1 : 0)));
	return o;
}

static json_t *ratio_json(const struct cb_derived *m)
{
	json_t *o = json_pack(
	    "{s:s, s:o, s:I, s:I, s:I, s:{s:o, s:o, s:f, s:o, s:s}}", "statistic",
	    "exp(median of per-round log ratios of throughput)", "value",
	    cb_report_json_number(m->ratio.value), "rounds", (json_int_t)m->ratio.n, "skipped",
	    (json_int_t)m->ratio.skipped, "above_1", (json_int_t)m->ratio.above, "interval", "lo",
	    cb_report_json_number(m->ratio.ci.lo), "hi", cb_report_json_number(m->ratio.ci.hi),
	    "level", m->level, "coverage", cb_report_json_number(m->ratio.ci.coverage), "method",
	    m->ratio.ci.method ? m->ratio.ci.method
	    : m->family > 1    ? "exact sign test, Bonferroni"
	                       : "exact sign test");

	if (o && cb_dependence_reported(&m->ratio.dependence))
		json_object_set_new(o, "dependence",
		                    cb_report_dependence_json(&m->ratio.dependence));
	return o;
}

static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	(void)o;
	const struct cb_analysis *a = source;

	for (size_t i = 0; i < a->n_derived; i++)
		if (a->derived[i].ok && cb_dependence_reported(&a->derived[i].ratio.dependence))
			return CB_IF_DEPENDENT;
	return 0;
}

CB_GET(file, struct cb_derived, m,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_derived, m, cb_value_int(v, (long long)r->run))
METRIC(name, cb_value_text(v, m->name))
METRIC(key, cb_value_text(v, m->key))
METRIC(by, cb_value_text(v, m->by))
METRIC(by_json, v->j = json_incref(m->by_json))
METRIC(pairs, cb_value_int(v, (long long)m->n_pairs))
METRIC(ok, cb_value_bool(v, m->ok))
METRIC(why, if (m->ok) v->missing = true; else cb_value_text(v, m->why))
METRIC(rounds, if (!m->ok && v->for_json) v->missing = true;
       else cb_value_int(v, m->ok ? (long long)m->ratio.n : 0))
RATIO(ratio_all, v->j = ratio_json(m))
RATIO(ratio, cb_value_num(v, m->ok ? m->ratio.value : NAN))
RATIO(ratio_lo, cb_value_num(v, m->ok ? m->ratio.ci.lo : NAN))
RATIO(ratio_hi, cb_value_num(v, m->ok ? m->ratio.ci.hi : NAN))
RATIO(level, cb_value_num(v, m->level))
RATIO(throughput, cb_value_text(v, cb_measure_names[m->measure]))
RATIO(bonferroni_m, cb_value_int(v, (long long)m->family))
RATIO(verdict, cb_value_text(v, m->ok ? cb_ratio_verdict_name(m->verdict) : "not resolved"))
/* Figures of the dependence, where the ratio's rounds were shown dependent. */
#define DEPENDENT(fn, ...)                                                                         \
	METRIC(fn, if (!m->ok || !m->ratio.dependence.dependent) v->missing = true;                \
	       else __VA_ARGS__)
DEPENDENT(dependence_lag1, cb_value_num(v, m->ratio.dependence.lag1))
DEPENDENT(dependence_block, if (!m->ratio.dependence.batches) v->missing = true;
          else cb_value_int(v, (long long)m->ratio.dependence.batch))
DEPENDENT(dependence_variance, cb_value_num(v, m->ratio.dependence.vif))
/* The margin for each side's own slow noise, where the interval took one. */
METRIC(own_noise_margin, if (!m->ok || !(m->ratio.dependence.margin > 0)) v->missing = true;
       else cb_value_num(v, exp(m->ratio.dependence.margin) - 1))
EXPECT(expected, cb_value_num(v, m->expect_value))
EXPECT(tolerance, cb_value_num(v, m->expect_tolerance))
EXPECT(expectation, cb_value_text(v, cb_ratio_expectation_name(m->expectation)))

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    {"metric", CB_COL_TEXT, NULL, name, CB_CSV_JSON, "name", NULL, NULL},
    {"key", CB_COL_TEXT, NULL, key, CB_JSON, "key", "the metric's key: CSV has metric and by",
     NULL},
    {"by", CB_COL_TEXT, NULL, by, CB_CSV, NULL, "JSON's by is the values' object (by_values)",
     NULL},
    {"by_values", CB_COL_OBJECT, NULL, by_json, CB_JSON, "by",
     "the by dimensions and their values: CSV's by spells them in one field", NULL},
    {"pairs", CB_COL_INT, NULL, pairs, CB_JSON, "pairs",
     "the cell pairs pooled into the metric, in JSON only", NULL},
    {"ok", CB_COL_BOOL, NULL, ok, CB_JSON, "ok",
     "whether the metric has a ratio: CSV's ratio is empty when not", NULL},
    {"why", CB_COL_TEXT, NULL, why, CB_JSON, "why",
     "why the metric has no ratio, in the text's interval column", NULL},
    {"ratio_all", CB_COL_OBJECT, NULL, ratio_all, CB_JSON, "ratio",
     "the ratio with its rounds, skipped rounds, interval and method: CSV has its figures", NULL},
    {"rounds", CB_COL_INT, NULL, rounds, CB_CSV_JSON, "ratio.rounds", NULL, NULL},
    {"ratio", CB_COL_NUM, NULL, ratio, CB_CSV_JSON, "ratio.value", NULL, NULL},
    {"ratio_lo", CB_COL_NUM, NULL, ratio_lo, CB_CSV_JSON, "ratio.interval.lo", NULL, NULL},
    {"ratio_hi", CB_COL_NUM, NULL, ratio_hi, CB_CSV_JSON, "ratio.interval.hi", NULL, NULL},
    {"level", CB_COL_NUM, NULL, level, CB_CSV_JSON, "ratio.interval.level", NULL, NULL},
    {"throughput", CB_COL_TEXT, NULL, throughput, CB_JSON, "throughput",
     "bytes per cycle or MB/s: the text's title says it", NULL},
    {"dependence_lag1", CB_COL_NUM, NULL, dependence_lag1, CB_CSV_JSON, "ratio.dependence.lag1",
     NULL, NULL},
    {"dependence_block", CB_COL_INT, "rounds", dependence_block, CB_CSV_JSON,
     "ratio.dependence.batch_rounds", NULL, NULL},
    {"dependence_variance", CB_COL_NUM, NULL, dependence_variance, CB_CSV_JSON,
     "ratio.dependence.variance_factor", NULL, NULL},
    {"own_noise_margin", CB_COL_NUM, NULL, own_noise_margin, CB_CSV_JSON,
     "ratio.dependence.own_noise.margin", "the margin for each side's own slow noise, a fraction",
     NULL},
    {"bonferroni_m", CB_COL_INT, NULL, bonferroni_m, CB_CSV_JSON, "bonferroni_m", NULL, NULL},
    {"verdict", CB_COL_TEXT, NULL, verdict, CB_CSV_JSON, "verdict", NULL, NULL},
    {"expected", CB_COL_NUM, NULL, expected, CB_CSV_JSON, "expectation.value", NULL, NULL},
    {"tolerance", CB_COL_NUM, NULL, tolerance, CB_CSV_JSON, "expectation.tolerance", NULL, NULL},
    {"expectation", CB_COL_TEXT, NULL, expectation, CB_CSV_JSON, "expectation.verdict", NULL, NULL},
};

/* ---- Text ---- */

static void text_by(const struct cb_row *r, char *buf, size_t len)
{
	cb_report_by_values(r->item, buf, len);
}

static void text_by_keys(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = r->item;

	snprintf(buf, len, "%s", m->by[0] ? m->by : "-");
}

/* A ratio that decides its verdict keeps its figures, however wide. */
static void text_ratio(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = r->item;
	char a[32], b[96];

	if (!m->ok)
		snprintf(buf, len, "%s", m->why);
	else if (m->verdict != CB_RATIO_NOT_RESOLVED)
		snprintf(buf, len, "%s %s", cb_fmt_num(m->ratio.value, a),
		         cb_fmt_interval(m->ratio.ci.lo, m->ratio.ci.hi, b));
	else
		snprintf(buf, len, "%s",
		         cb_fmt_estimate(m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi, b));
}

static void text_interval(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = r->item;
	char b[80];

	snprintf(buf, len, "%s",
	         m->ok ? cb_fmt_interval(m->ratio.ci.lo, m->ratio.ci.hi, b) : m->why);
}

static void text_level(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = r->item;
	char b[32];

	snprintf(buf, len, "%s%s", cb_fmt_pct(m->level, b), m->family > 1 ? " (Bonferroni)" : "");
}

static void text_expected(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = r->item;

	if (m->has_expect)
		snprintf(buf, len, "%.4g +/- %.3g%%", m->expect_value, m->expect_tolerance * 100);
	else
		snprintf(buf, len, "-");
}

/* What dependent rounds did to the interval: "lag-1 0.31, blocks of 25
 * rounds, variance x4.2", or held; "-" where the rounds count as independent. */
static void text_dependence(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_derived *m = r->item;

	if (m->ok && cb_dependence_reported(&m->ratio.dependence))
		cb_dependence_words(&m->ratio.dependence, buf, len);
	else
		snprintf(buf, len, "-");
}

#define BRIEF 0, CB_IF_DETAILS
#define DETAILS CB_IF_DETAILS, 0
static const struct cb_text_column text[] = {
    {"metric", 'l', 0, 0, "metric", CB_SHOW_VALUE, NULL, NULL, false},
    {"by", 'l', BRIEF, NULL, CB_SHOW_VALUE, text_by, "by, its values alone", false},
    {"by", 'l', DETAILS, NULL, CB_SHOW_VALUE, text_by_keys, "by", false},
    {"n", 'r', BRIEF, "rounds", CB_SHOW_VALUE, NULL, NULL, false},
    {"rounds", 'r', DETAILS, "rounds", CB_SHOW_VALUE, NULL, NULL, false},
    {"ratio [CI]", 'l', BRIEF, NULL, CB_SHOW_VALUE, text_ratio, "ratio ratio_lo ratio_hi, or why",
     false},
    {"ratio", 'r', DETAILS, "ratio", CB_SHOW_VALUE, NULL, NULL, false},
    {"interval", 'l', DETAILS, NULL, CB_SHOW_VALUE, text_interval, "ratio_lo ratio_hi, or why",
     false},
    {"level", 'r', DETAILS, NULL, CB_SHOW_VALUE, text_level, "level bonferroni_m", false},
    {"verdict", 'l', 0, 0, "verdict", CB_SHOW_VALUE, NULL, NULL, false},
    {"dependent rounds", 'l', CB_IF_DEPENDENT, 0, NULL, CB_SHOW_VALUE, text_dependence,
     "dependence_lag1 dependence_block dependence_variance own_noise_margin", false},
    {"expected", 'l', DETAILS, NULL, CB_SHOW_VALUE, text_expected, "expected tolerance", false},
    {"expectation", 'l', 0, 0, "expectation", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_derived = {
    .name = "derived",
    .about = "one row per run and derived metric: the ratio paired by round, its verdict and "
             "expectation",
    .json_rows = "derived",
    .rows = rows,
    .conditions = conditions,
    .json_order = "name key by pairs ok why ratio throughput bonferroni_m verdict expectation",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
