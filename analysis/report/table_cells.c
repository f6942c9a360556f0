/* table_cells.c: the report's cells, one row per cell of a run: its
 * samples, headline, spread and diagnostics (tables.h). One description of
 * the columns serves two tables, each column in its unit's or both
 * (table.h's `in`): the cells that count bytes (cells: MB/s), and those that
 * count public-key operations (pk-cells: operations per second over all
 * threads, microseconds and cycles per operation), with the same
 * statistics, intervals and flags.
 *
 * A public-key trial's work is its operations, so the summaries' "MB/s" of
 * such a cell is millions of operations per second and its cycles per byte
 * are cycles per operation: its columns only rename and scale. */
#include <math.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "core/algorithms/algorithm.h"
#include "core/algorithms/pk.h"

#define NUM cb_report_json_number

/* Declared in report.h (its JSON is the report's per-cell statistics). */
json_t *cb_report_json_stats(const struct cb_stats_summary *s)
{
	const struct cb_stats_interval *ci = &s->median_ci;

	return json_pack(
	    "{s:I, s:o, s:o, s:o, s:{s:o, s:o, s:f, s:o, s:I, s:I, s:s}, s:o, s:o, s:o, s:o, "
	    "s:o, s:o, s:o, s:o, s:o, s:{s:{s:I, s:I}, s:{s:I, s:I}}, s:s, s:o, s:o, s:b, "
	    "s:{s:s, s:o, s:o, s:b}, s:{s:o, s:o, s:b}}",
	    "n", (json_int_t)s->n, "min", NUM(s->min), "max", NUM(s->max), "median", NUM(s->median),
	    "median_ci", "lo", NUM(ci->lo), "hi", NUM(ci->hi), "level", ci->level, "coverage",
	    NUM(ci->coverage), "rank_lo", (json_int_t)ci->rank_lo, "rank_hi",
	    (json_int_t)ci->rank_hi, "method",
	    ci->method ? ci->method : "order statistics (binomial, distribution-free)", "q1",
	    NUM(s->q1), "q3", NUM(s->q3), "p10", NUM(s->p10), "p90", NUM(s->p90), "iqr",
	    NUM(s->iqr), "mad", NUM(s->mad), "robust_cv", NUM(s->robust_cv), "mean", NUM(s->mean),
	    "sd", NUM(s->sd), "tukey_outliers", "1.5_iqr", "low", (json_int_t)s->outliers_low_15,
	    "high", (json_int_t)s->outliers_high_15, "3_iqr", "low", (json_int_t)s->outliers_low_3,
	    "high", (json_int_t)s->outliers_high_3, "best",
	    s->headline_name && strcmp(s->headline_name, "max") == 0 ? "max" : "min", "best_value",
	    NUM(s->best), "contamination", NUM(s->contamination), "contaminated", s->contaminated,
	    "drift", "method", "Spearman rho against round index", "rho", NUM(s->drift_rho), "p",
	    NUM(s->drift_p), "flag", s->drift, "lag1", "r", NUM(s->lag1), "limit",
	    NUM(s->lag1_limit), "flag", s->autocorrelated);
}

#define OPS_PER_MB 1e6 /* a "byte" of a public-key trial is one operation */

#define CELL(fn, ...) CB_GET(fn, struct cb_cell_summary, s, __VA_ARGS__)
/* A figure of the samples: missing without any. */
#define SAMPLES(fn, expr) CELL(fn, if (!s->n) v->missing = true; else cb_value_num(v, (expr)))
#define COUNT(fn, expr) CELL(fn, cb_value_int(v, (long long)(expr)))

/* The cells of SOURCE that count operations (OPS), or bytes. */
static void emit_cells(const void *source, cb_table_emit *emit, void *arg, bool ops)
{
	const struct cb_analysis *a = source;

	for (size_t i = 0; i < a->summary->n_cells; i++)
		if (a->summary->cells[i].cell->ops == ops)
			emit(arg, &a->summary->cells[i], 0);
}

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	emit_cells(source, emit, arg, false);
}

static void pk_rows(const void *source, cb_table_emit *emit, void *arg)
{
	emit_cells(source, emit, arg, true);
}

static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	(void)o;
	const struct cb_run_summary *rs = ((const struct cb_analysis *)source)->summary;

	for (size_t i = 1; i < rs->n_cells; i++)
		if (rs->cells[i].cell->threads != rs->cells[0].cell->threads)
			return CB_IF_THREADS;
	return 0;
}

/* The public-key cells' threads column: when they have several counts. */
static unsigned pk_conditions(const void *source, const struct cb_table_options *o)
{
	(void)o;
	const struct cb_run_summary *rs = ((const struct cb_analysis *)source)->summary;
	unsigned first = 0;

	for (size_t i = 0; i < rs->n_cells; i++) {
		if (!rs->cells[i].cell->ops)
			continue;
		if (!first)
			first = rs->cells[i].cell->threads;
		else if (rs->cells[i].cell->threads != first)
			return CB_IF_THREADS;
	}
	return 0;
}

static const struct cb_run_summary *run_of(const struct cb_row *r)
{
	return ((const struct cb_analysis *)r->source)->summary;
}

static void headline(const struct cb_row *r, struct cb_headline *h)
{
	cb_summary_headline(r->item, r->o->statistic, h);
}

/* ---- Keys ---- */

CB_GET(file, struct cb_cell_summary, s,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_cell_summary, s, cb_value_int(v, (long long)r->run))
CB_GET(key, struct cb_cell_summary, s, cb_value_text(v, s->cell->key))
CB_GET(cell, struct cb_cell_summary, s, v->j = json_incref(s->cell->json))
CB_KEY_GETTERS(k, struct cb_cell_summary, s, s->cell)

/* ---- Counts and the headline ---- */

COUNT(n, s->n)
COUNT(invalid, s->invalid)
COUNT(warmup, s->warmup)
COUNT(preempted, s->preempted)
COUNT(short_trials, s->short_trials)
CELL(first_error, cb_value_text(v, s->first_error))
CELL(order_on, if (!s->n) v->missing = true; else cb_value_text(v, s->order_measure))

#define HEADLINE(fn, ...)                                                                          \
	CELL(fn, struct cb_headline h; headline(r, &h); if (!s->n) v->missing = true;              \
	     else __VA_ARGS__)
HEADLINE(hl_statistic, cb_value_text(v, h.name))
HEADLINE(hl_mbs, cb_value_num(v, h.mbs))
HEADLINE(hl_mibs, cb_value_num(v, h.mbs *CB_MIB_PER_MB))
HEADLINE(hl_ns, cb_value_num(v, h.ns))
HEADLINE(hl_lo, cb_value_num(v, h.lo))
HEADLINE(hl_hi, cb_value_num(v, h.hi))
HEADLINE(hl_switched, cb_value_bool(v, h.switched))

/* ---- The summaries ---- */

CELL(mbs_summary, if (!s->n) v->missing = true; else v->j = cb_report_json_stats(&s->mbs))
CELL(ns_summary, if (!s->n) v->missing = true; else v->j = cb_report_json_stats(&s->ns))
CELL(cpb_summary, if (!s->n || !s->have_cycles) v->missing = true;
     else v->j = cb_report_json_stats(&s->cpb))
SAMPLES(mbs_median, s->mbs.median)
SAMPLES(mbs_lo, s->mbs.median_ci.lo)
SAMPLES(mbs_hi, s->mbs.median_ci.hi)
SAMPLES(mbs_min, s->mbs.min)
SAMPLES(mbs_max, s->mbs.max)
SAMPLES(mbs_mean, s->mbs.mean)
SAMPLES(mbs_sd, s->mbs.sd)
SAMPLES(mbs_p10, s->mbs.p10)
SAMPLES(mbs_q1, s->mbs.q1)
SAMPLES(mbs_q3, s->mbs.q3)
SAMPLES(mbs_p90, s->mbs.p90)
SAMPLES(mbs_robust_cv, s->mbs.robust_cv)
SAMPLES(mibs_median, s->mbs.median *CB_MIB_PER_MB)
SAMPLES(ns_median, s->ns.median)
SAMPLES(ns_min, s->ns.min)
SAMPLES(ns_max, s->ns.max)
SAMPLES(ns_mean, s->ns.mean)
CELL(cpb_median, if (!s->n || !s->have_cycles) v->missing = true;
     else cb_value_num(v, s->cpb.median))
CELL(counter, if (!s->n || !s->have_cycles) v->missing = true;
     else cb_value_text(v, run_of(r)->counter ? run_of(r)->counter : "?"))
SAMPLES(robust_cv, s->ns.robust_cv)
SAMPLES(contamination, s->ns.contamination)
CELL(contaminated, if (!s->n) v->missing = true; else cb_value_bool(v, s->ns.contaminated))
CELL(out15, if (!s->n) v->missing = true;
     else cb_value_int(v, (long long)(s->ns.outliers_low_15 + s->ns.outliers_high_15)))
CELL(out3, if (!s->n) v->missing = true;
     else cb_value_int(v, (long long)(s->ns.outliers_low_3 + s->ns.outliers_high_3)))

/* Drift and lag-1 are judged on cycles per byte where the cells have
 * cycles, else on time (summary.h): a flag that cannot be raised at this n
 * is left empty, not false. */
#define DRIFT(fn, ...)                                                                             \
	CELL(fn, if (!s->n || !s->order->drift_judged) v->missing = true; else __VA_ARGS__)
#define LAG(fn, ...)                                                                               \
	CELL(fn, if (!s->n || !s->order->lag1_judged) v->missing = true; else __VA_ARGS__)
DRIFT(drift_rho, cb_value_num(v, s->order->drift_rho))
DRIFT(drift_p, cb_value_num(v, s->order->drift_p))
DRIFT(drift, cb_value_bool(v, s->order->drift))
SAMPLES(lag1, s->order->lag1)
SAMPLES(lag1_ranks, s->order->lag1_rank)
LAG(lag1_limit, cb_value_num(v, s->order->lag1_limit))
LAG(autocorrelated, cb_value_bool(v, s->order->autocorrelated))

/* The JSON of the summary drift and lag-1 are judged on, then PATH. */
#define ORDER_PATH(fn, path)                                                                       \
	static const char *fn(const struct cb_row *r, char buf[128])                               \
	{                                                                                          \
		const struct cb_cell_summary *s = r->item;                                         \
		snprintf(buf, 128, "%s.%s",                                                        \
		         s->order == &s->cpb ? "cycles_per_byte" : "ns_per_call", path);           \
		return buf;                                                                        \
	}
ORDER_PATH(at_drift_rho, "drift.rho")
ORDER_PATH(at_drift_p, "drift.p")
ORDER_PATH(at_drift, "drift.flag")
ORDER_PATH(at_lag1, "lag1.r")
ORDER_PATH(at_lag1_ranks, "lag1.r_ranks")
ORDER_PATH(at_lag1_limit, "lag1.limit")
ORDER_PATH(at_autocorrelated, "lag1.flag")

/* ---- Harness overhead and placement ---- */

#define OVERHEAD(fn, ...) CELL(fn, if (!s->n) v->missing = true; else __VA_ARGS__)
OVERHEAD(overhead_method, cb_value_text(v, "null engine's median ns per call at this size"))
OVERHEAD(overhead_ns, cb_value_num(v, s->overhead_ns))
OVERHEAD(overhead_share, cb_value_num(v, s->overhead_share))
OVERHEAD(overhead_warning, cb_value_bool(v, s->overhead_warning))
OVERHEAD(overhead_unreliable, cb_value_bool(v, s->unreliable))

#define LAYOUT(fn, ...) CELL(fn, if (!s->layout_judged) v->missing = true; else __VA_ARGS__)
LAYOUT(layout_test, cb_value_text(v, "Kruskal-Wallis over the stack offset mod 64"))
LAYOUT(layout_h, cb_value_num(v, s->layout_h))
LAYOUT(layout_p, cb_value_num(v, s->layout_p))
LAYOUT(layout_sensitive, cb_value_bool(v, s->layout_sensitive))

/* ---- Public-key cells: operations ---- */

/* RSA key generation searches for primes: its time per key varies by
 * nature (the scheme's row says so), and its spread is the operation's,
 * not the machine's noise. */
static bool variable(const struct cb_cell_summary *s)
{
	const struct cb_algorithm *alg = cb_algorithm_find(s->cell->algorithm);

	return strcmp(s->cell->op, "keygen") == 0 && alg && cb_alg_is_pk(alg) &&
	       cb_pk_info(alg)->keygen_variable;
}

/* The headline's name in operations: the minimum time is the most op/s. */
static const char *headline_name(const struct cb_headline *h)
{
	return h->stat == &cb_statistics[CB_STAT_MIN] ? "min time (max op/s)" : h->name;
}

HEADLINE(pk_statistic, cb_value_text(v, headline_name(&h)))
HEADLINE(hl_ops, cb_value_num(v, h.mbs *OPS_PER_MB))
HEADLINE(hl_ops_lo, cb_value_num(v, h.lo *OPS_PER_MB))
HEADLINE(hl_ops_hi, cb_value_num(v, h.hi *OPS_PER_MB))
HEADLINE(hl_us, cb_value_num(v, h.ns / 1000))
SAMPLES(ops_median, s->mbs.median *OPS_PER_MB)
SAMPLES(ops_lo, s->mbs.median_ci.lo *OPS_PER_MB)
SAMPLES(ops_hi, s->mbs.median_ci.hi *OPS_PER_MB)
SAMPLES(ops_min, s->mbs.min *OPS_PER_MB)
SAMPLES(ops_max, s->mbs.max *OPS_PER_MB)
SAMPLES(us_median, s->ns.median / 1000)
CELL(variable_by_nature, cb_value_bool(v, variable(s)))

#define WHY_SUMMARY                                                                                \
	"the whole summary with its methods; CSV and the text carry its figures as columns"
#define WHY_HEADLINE                                                                               \
	"the headline's other figures: in the text's MB/s [95% CI] and ns/call; CSV has the "      \
	"median's interval and ns_per_call_median, _min and _mean, headline_statistic naming "     \
	"the one"

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV | CB_IN_BOTH, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV | CB_IN_BOTH, NULL, CB_WHY_RUN, NULL},
    {"key", CB_COL_TEXT, NULL, key, CB_JSON | CB_IN_BOTH, "key",
     "the cell's key: CSV spells out its columns", NULL},
    {"cell", CB_COL_OBJECT, NULL, cell, CB_JSON | CB_IN_BOTH, "cell",
     "the cell as the results file gives it: CSV has its key columns", NULL},
    CB_KEY_COLUMNS_IN(k, "cell.", CB_IN_BOTH),
    {"n", CB_COL_INT, NULL, n, CB_CSV_JSON | CB_IN_BOTH, "n", NULL, NULL},
    {"invalid", CB_COL_INT, NULL, invalid, CB_CSV_JSON | CB_IN_BOTH, "invalid", NULL, NULL},
    {"warmup", CB_COL_INT, NULL, warmup, CB_CSV_JSON, "warmup", NULL, NULL},
    {"preempted", CB_COL_INT, NULL, preempted, CB_CSV_JSON | CB_IN_BOTH, "preempted", NULL, NULL},
    {"drift_and_lag1_on", CB_COL_TEXT, NULL, order_on, CB_JSON, "drift_and_lag1_on",
     "which summary's drift and lag-1 the CSV's columns are: the JSON path says it", NULL},
    {"headline_statistic", CB_COL_TEXT, NULL, hl_statistic, CB_CSV_JSON, "headline.statistic", NULL,
     NULL},
    {"headline_mb_per_s", CB_COL_NUM, "MB/s", hl_mbs, CB_CSV_JSON, "headline.mb_per_s", NULL, NULL},
    {"headline_mib_per_s", CB_COL_NUM, "MiB/s", hl_mibs, CB_JSON, "headline.mib_per_s",
     "headline_mb_per_s in MiB/s", NULL},
    {"headline_ns_per_call", CB_COL_NUM, "ns", hl_ns, CB_JSON, "headline.ns_per_call", WHY_HEADLINE,
     NULL},
    {"headline_lo", CB_COL_NUM, "MB/s", hl_lo, CB_JSON, "headline.lo", WHY_HEADLINE, NULL},
    {"headline_hi", CB_COL_NUM, "MB/s", hl_hi, CB_JSON, "headline.hi", WHY_HEADLINE, NULL},
    {"headline_switched", CB_COL_BOOL, NULL, hl_switched, CB_JSON,
     "headline.switched_for_contamination",
     "whether auto chose the minimum: CSV's headline_statistic and contaminated say it", NULL},
    {"mb_per_s", CB_COL_OBJECT, NULL, mbs_summary, CB_JSON, "mb_per_s", WHY_SUMMARY, NULL},
    {"ns_per_call", CB_COL_OBJECT, NULL, ns_summary, CB_JSON, "ns_per_call", WHY_SUMMARY, NULL},
    {"cycles_per_byte", CB_COL_OBJECT, NULL, cpb_summary, CB_JSON, "cycles_per_byte", WHY_SUMMARY,
     NULL},
    {"mb_per_s_median", CB_COL_NUM, "MB/s", mbs_median, CB_CSV_JSON, "mb_per_s.median", NULL, NULL},
    {"mb_per_s_median_lo", CB_COL_NUM, "MB/s", mbs_lo, CB_CSV_JSON, "mb_per_s.median_ci.lo", NULL,
     NULL},
    {"mb_per_s_median_hi", CB_COL_NUM, "MB/s", mbs_hi, CB_CSV_JSON, "mb_per_s.median_ci.hi", NULL,
     NULL},
    {"mb_per_s_min", CB_COL_NUM, "MB/s", mbs_min, CB_CSV_JSON, "mb_per_s.min", NULL, NULL},
    {"mb_per_s_max", CB_COL_NUM, "MB/s", mbs_max, CB_CSV_JSON, "mb_per_s.max", NULL, NULL},
    {"mb_per_s_mean", CB_COL_NUM, "MB/s", mbs_mean, CB_CSV_JSON, "mb_per_s.mean", NULL, NULL},
    {"mb_per_s_sd", CB_COL_NUM, "MB/s", mbs_sd, CB_CSV_JSON, "mb_per_s.sd", NULL, NULL},
    {"mb_per_s_p10", CB_COL_NUM, "MB/s", mbs_p10, CB_CSV_JSON, "mb_per_s.p10", NULL, NULL},
    {"mb_per_s_q1", CB_COL_NUM, "MB/s", mbs_q1, CB_CSV_JSON, "mb_per_s.q1", NULL, NULL},
    {"mb_per_s_q3", CB_COL_NUM, "MB/s", mbs_q3, CB_CSV_JSON, "mb_per_s.q3", NULL, NULL},
    {"mb_per_s_p90", CB_COL_NUM, "MB/s", mbs_p90, CB_CSV_JSON, "mb_per_s.p90", NULL, NULL},
    {"mb_per_s_robust_cv", CB_COL_NUM, NULL, mbs_robust_cv, CB_JSON, "mb_per_s.robust_cv",
     "the throughput's robust CV, in the text's spread; CSV's robust_cv is the time's", NULL},
    {"mib_per_s_median", CB_COL_NUM, "MiB/s", mibs_median, CB_CSV, NULL,
     "mb_per_s_median in MiB/s (x 10^6/2^20): JSON keeps MB/s", NULL},
    {"ns_per_call_median", CB_COL_NUM, "ns", ns_median, CB_CSV_JSON, "ns_per_call.median", NULL,
     NULL},
    {"ns_per_call_min", CB_COL_NUM, "ns", ns_min, CB_CSV_JSON, "ns_per_call.min", NULL, NULL},
    {"ns_per_call_max", CB_COL_NUM, "ns", ns_max, CB_CSV_JSON, "ns_per_call.max", NULL, NULL},
    {"ns_per_call_mean", CB_COL_NUM, "ns", ns_mean, CB_CSV_JSON, "ns_per_call.mean", NULL, NULL},
    {"cycles_per_byte_median", CB_COL_NUM, "cycles/B", cpb_median, CB_CSV_JSON,
     "cycles_per_byte.median", NULL, NULL},
    {"cycles_counter", CB_COL_TEXT, NULL, counter, CB_CSV_JSON, "cycles_per_byte.counter", NULL,
     NULL},
    {"robust_cv", CB_COL_NUM, NULL, robust_cv, CB_CSV_JSON, "ns_per_call.robust_cv", NULL, NULL},
    {"contamination", CB_COL_NUM, NULL, contamination, CB_CSV_JSON, "ns_per_call.contamination",
     NULL, NULL},
    {"contaminated", CB_COL_BOOL, NULL, contaminated, CB_CSV_JSON, "ns_per_call.contaminated", NULL,
     NULL},
    {"drift_rho", CB_COL_NUM, NULL, drift_rho, CB_CSV_JSON, NULL, NULL, at_drift_rho},
    {"drift_p", CB_COL_NUM, NULL, drift_p, CB_CSV_JSON, NULL, NULL, at_drift_p},
    {"drift", CB_COL_BOOL, NULL, drift, CB_CSV_JSON, NULL, NULL, at_drift},
    {"lag1", CB_COL_NUM, NULL, lag1, CB_CSV_JSON, NULL, NULL, at_lag1},
    {"lag1_ranks", CB_COL_NUM, NULL, lag1_ranks, CB_CSV_JSON, NULL, NULL, at_lag1_ranks},
    {"lag1_limit", CB_COL_NUM, NULL, lag1_limit, CB_CSV_JSON, NULL, NULL, at_lag1_limit},
    {"autocorrelated", CB_COL_BOOL, NULL, autocorrelated, CB_CSV_JSON, NULL, NULL,
     at_autocorrelated},
    {"outliers_1_5iqr", CB_COL_INT, NULL, out15, CB_CSV, NULL,
     "the time's outliers beyond 1.5 IQR, low and high added: JSON's "
     "ns_per_call.tukey_outliers keeps them apart",
     NULL},
    {"outliers_3iqr", CB_COL_INT, NULL, out3, CB_CSV, NULL,
     "the same beyond 3 IQR (ns_per_call.tukey_outliers.3_iqr)", NULL},
    {"overhead_method", CB_COL_TEXT, NULL, overhead_method, CB_JSON, "overhead.method",
     "how the overhead is measured, the same on every row", NULL},
    {"overhead_null_ns_per_call", CB_COL_NUM, "ns", overhead_ns, CB_JSON,
     "overhead.null_ns_per_call",
     "the null engine's time, in the text's warnings: CSV has its share (overhead_share)", NULL},
    {"overhead_share", CB_COL_NUM, NULL, overhead_share, CB_CSV_JSON, "overhead.share", NULL, NULL},
    {"overhead_warning", CB_COL_BOOL, NULL, overhead_warning, CB_JSON, "overhead.warning",
     "overhead_share above 5%: the text's warnings", NULL},
    {"overhead_unreliable", CB_COL_BOOL, NULL, overhead_unreliable, CB_JSON, "overhead.unreliable",
     "overhead_share above 25%: the text's flags", NULL},
    {"layout_test", CB_COL_TEXT, NULL, layout_test, CB_JSON, "layout.test",
     "the test's name, the same on every row", NULL},
    {"layout_h", CB_COL_NUM, NULL, layout_h, CB_CSV_JSON, "layout.h", NULL, NULL},
    {"layout_p", CB_COL_NUM, NULL, layout_p, CB_CSV_JSON, "layout.p", NULL, NULL},
    {"layout_sensitive", CB_COL_BOOL, NULL, layout_sensitive, CB_CSV_JSON, "layout.sensitive", NULL,
     NULL},
    {"short_trials", CB_COL_INT, NULL, short_trials, CB_CSV_JSON, "short_trials", NULL, NULL},
    /* The public-key cells' figures, in operations. */
    {"headline_statistic", CB_COL_TEXT, NULL, pk_statistic, CB_CSV_JSON | CB_IN_OPS,
     "headline.statistic", NULL, NULL},
    {"headline_ops_per_s", CB_COL_NUM, "op/s", hl_ops, CB_CSV_JSON | CB_IN_OPS,
     "headline.ops_per_s", NULL, NULL},
    {"headline_ops_per_s_lo", CB_COL_NUM, "op/s", hl_ops_lo, CB_CSV_JSON | CB_IN_OPS, "headline.lo",
     NULL, NULL},
    {"headline_ops_per_s_hi", CB_COL_NUM, "op/s", hl_ops_hi, CB_CSV_JSON | CB_IN_OPS, "headline.hi",
     NULL, NULL},
    {"headline_us_per_op", CB_COL_NUM, "us", hl_us, CB_CSV_JSON | CB_IN_OPS, "headline.us_per_op",
     NULL, NULL},
    {"ops_per_s_median", CB_COL_NUM, "op/s", ops_median, CB_CSV_JSON | CB_IN_OPS,
     "ops_per_s.median", NULL, NULL},
    {"ops_per_s_median_lo", CB_COL_NUM, "op/s", ops_lo, CB_CSV_JSON | CB_IN_OPS,
     "ops_per_s.median_ci.lo", NULL, NULL},
    {"ops_per_s_median_hi", CB_COL_NUM, "op/s", ops_hi, CB_CSV_JSON | CB_IN_OPS,
     "ops_per_s.median_ci.hi", NULL, NULL},
    {"ops_per_s_min", CB_COL_NUM, "op/s", ops_min, CB_CSV_JSON | CB_IN_OPS, "ops_per_s.min", NULL,
     NULL},
    {"ops_per_s_max", CB_COL_NUM, "op/s", ops_max, CB_CSV_JSON | CB_IN_OPS, "ops_per_s.max", NULL,
     NULL},
    {"us_per_op_median", CB_COL_NUM, "us", us_median, CB_CSV_JSON | CB_IN_OPS, "us_per_op.median",
     NULL, NULL},
    {"cycles_per_op_median", CB_COL_NUM, "cycles", cpb_median, CB_CSV_JSON | CB_IN_OPS,
     "cycles_per_op.median", NULL, NULL},
    {"cycles_counter", CB_COL_TEXT, NULL, counter, CB_CSV_JSON | CB_IN_OPS, "cycles_per_op.counter",
     NULL, NULL},
    {"robust_cv", CB_COL_NUM, NULL, robust_cv, CB_CSV_JSON | CB_IN_OPS, "us_per_op.robust_cv", NULL,
     NULL},
    {"contaminated", CB_COL_BOOL, NULL, contaminated, CB_CSV_JSON | CB_IN_OPS,
     "us_per_op.contaminated", NULL, NULL},
    {"drift", CB_COL_BOOL, NULL, drift, CB_CSV_JSON | CB_IN_OPS, "drift", NULL, NULL},
    {"variable_by_nature", CB_COL_BOOL, NULL, variable_by_nature, CB_CSV_JSON | CB_IN_OPS,
     "variable_by_nature", NULL, NULL},
    {"first_error", CB_COL_TEXT, NULL, first_error, CB_CSV_JSON | CB_IN_BOTH, "first_error", NULL,
     NULL},
};

/* ---- Text: the cells ---- */

/* The null engine moves no bytes: its only figure is time per call. */
static bool harness(const struct cb_row *r)
{
	return strcmp(((const struct cb_cell_summary *)r->item)->cell->engine, "null") == 0;
}

static void text_mbs(const struct cb_row *r, char *buf, size_t len)
{
	char x[96];

	if (harness(r))
		snprintf(buf, len, "harness cost");
	else
		snprintf(buf, len, "%s",
		         cb_fmt_estimate(cb_row_num(r, "headline_mb_per_s"),
		                         cb_row_num(r, "headline_lo"), cb_row_num(r, "headline_hi"),
		                         x));
}

static void text_statistic(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_cell_summary *s = r->item;
	struct cb_headline h;

	headline(r, &h);
	snprintf(buf, len, "%s%s", s->n ? h.stat->label : "-",
	         h.switched && !harness(r) ? " (contaminated)" : "");
}

static void text_cpb(const struct cb_row *r, char *buf, size_t len)
{
	char x[32];

	snprintf(buf, len, "%s",
	         cb_fmt_num(harness(r) ? NAN : cb_row_num(r, "cycles_per_byte_median"), x));
}

/* ns/call last: scripts read it at the end of a cell's line. */
static const struct cb_text_column text[] = {
    CB_KEY_TEXT(CB_IF_THREADS),
    {"n", 'r', 0, 0, "n", CB_SHOW_VALUE, NULL, NULL, false},
    {"MB/s [95% CI]", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_mbs,
     "headline_mb_per_s headline_lo headline_hi, or 'harness cost' for the null engine", false},
    {"statistic", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_statistic,
     "headline_statistic, in the statistic's short name", false},
    {"cycles/B", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_cpb,
     "cycles_per_byte_median, none for the null engine", false},
    {"ns/call", 'r', 0, 0, "headline_ns_per_call", CB_SHOW_VALUE, NULL, NULL, false},
};

/* ---- Text: the spread (--details) ---- */

static bool no_samples(const struct cb_row *r)
{
	return ((const struct cb_cell_summary *)r->item)->n == 0;
}

static void text_tukey(const struct cb_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f/%.0f", cb_row_num(r, "outliers_1_5iqr"),
	         cb_row_num(r, "outliers_3iqr"));
}

static void text_drift(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_cell_summary *s = r->item;
	char a[32], b[32];

	if (s->order->drift_judged)
		snprintf(buf, len, "%s (%s)", cb_fmt_num(cb_row_num(r, "drift_rho"), a),
		         cb_fmt_p(cb_row_num(r, "drift_p"), b));
	else
		snprintf(buf, len, "- (n %zu)", s->n);
}

static void text_lag(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_cell_summary *s = r->item;
	char a[32];

	if (s->order->lag1_judged)
		snprintf(buf, len, "%s", cb_fmt_num(cb_row_num(r, "lag1_ranks"), a));
	else
		snprintf(buf, len, "- (n %zu)", s->n);
}

/* Short flags for the notes column. */
static void text_flags(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_cell_summary *s = r->item;
	char pct[32];
	size_t used = 0;

#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
	buf[0] = '\0';
	if (s->invalid)
		ADD("%s%zu invalid", used ? ", " : "", s->invalid);
	if (s->ns.contaminated)
		ADD("%scontaminated %s", used ? ", " : "", cb_fmt_pct(s->ns.contamination, pct));
	if (s->order->drift)
		ADD("%sdrift", used ? ", " : "");
	if (s->order->autocorrelated)
		ADD("%slag-1", used ? ", " : "");
	if (s->layout_sensitive)
		ADD("%slayout-sensitive", used ? ", " : "");
	if (s->ns.outliers_low_15 + s->ns.outliers_high_15)
		ADD("%s%zu outliers", used ? ", " : "",
		    s->ns.outliers_low_15 + s->ns.outliers_high_15);
	if (s->preempted)
		ADD("%s%zu preempted", used ? ", " : "", s->preempted);
	if (s->unreliable)
		ADD("%sunreliable: overhead %s", used ? ", " : "",
		    cb_fmt_pct(s->overhead_share, pct));
	else if (s->overhead_warning)
		ADD("%soverhead %s", used ? ", " : "", cb_fmt_pct(s->overhead_share, pct));
	if (s->n < 6)
		ADD("%sn<6: no interval", used ? ", " : "");
#undef ADD
	if (!buf[0])
		snprintf(buf, len, "-");
}

#define NUM_TEXT(header, of)                                                                       \
	{                                                                                          \
		header, 'r', 0, 0, of, CB_SHOW_VALUE, NULL, NULL, false                            \
	}
static const struct cb_text_column spread[] = {
    CB_KEY_TEXT(0),
    NUM_TEXT("max MB/s", "mb_per_s_max"),
    NUM_TEXT("P90", "mb_per_s_p90"),
    NUM_TEXT("Q3", "mb_per_s_q3"),
    NUM_TEXT("Q1", "mb_per_s_q1"),
    NUM_TEXT("P10", "mb_per_s_p10"),
    NUM_TEXT("min MB/s", "mb_per_s_min"),
    NUM_TEXT("MiB/s (median)", "mib_per_s_median"),
    {"robust CV", 'r', 0, 0, "mb_per_s_robust_cv", CB_SHOW_PCT, NULL, NULL, false},
    NUM_TEXT("mean MB/s", "mb_per_s_mean"),
    NUM_TEXT("SD", "mb_per_s_sd"),
    {"median/min-1", 'r', 0, 0, "contamination", CB_SHOW_PCT, NULL, NULL, false},
    {"Tukey 1.5/3", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_tukey, "outliers_1_5iqr outliers_3iqr",
     false},
    {"drift rho (p)", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_drift, "drift_rho drift_p", false},
    {"lag-1 (ranks)", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_lag, "lag1_ranks", false},
    {"null overhead", 'r', 0, 0, "overhead_share", CB_SHOW_PCT, NULL, NULL, false},
    {"flags", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_flags,
     "invalid contaminated drift autocorrelated layout_sensitive outliers_1_5iqr preempted "
     "overhead_unreliable overhead_warning n, in words",
     false},
};

const struct cb_table_def cb_table_cells = {
    .name = "cells",
    .about = "one row per run and cell: samples, headline, spread, diagnostics",
    .json_rows = "cells",
    .rows = rows,
    .conditions = conditions,
    .json_order = "key cell n invalid warmup preempted first_error short_trials "
                  "drift_and_lag1_on layout headline mb_per_s ns_per_call cycles_per_byte "
                  "overhead",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
    .text2 = {spread, CB_N(spread), no_samples, false},
};

/* ---- Text: the public-key cells ---- */

static void text_ops(const struct cb_row *r, char *buf, size_t len)
{
	char x[96];

	snprintf(buf, len, "%s",
	         cb_fmt_estimate(cb_row_num(r, "headline_ops_per_s"),
	                         cb_row_num(r, "headline_ops_per_s_lo"),
	                         cb_row_num(r, "headline_ops_per_s_hi"), x));
}

static void text_pk_statistic(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_cell_summary *s = r->item;
	struct cb_headline h;

	headline(r, &h);
	snprintf(buf, len, "%s%s", s->n ? h.stat->label : "-", h.switched ? " (contaminated)" : "");
}

static void text_notes(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_cell_summary *s = r->item;
	size_t used = 0;

#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
	buf[0] = '\0';
	if (variable(s))
		ADD("variable by nature (prime search)");
	if (s->invalid)
		ADD("%s%zu invalid", used ? ", " : "", s->invalid);
	if (s->order->drift)
		ADD("%sdrift", used ? ", " : "");
	if (s->preempted)
		ADD("%s%zu preempted", used ? ", " : "", s->preempted);
	if (s->n < 6)
		ADD("%sn<6: no interval", used ? ", " : "");
#undef ADD
	if (!buf[0])
		snprintf(buf, len, "-");
}

static const struct cb_text_column pk_text[] = {
    {"engine", 'l', 0, 0, "label", CB_SHOW_VALUE, NULL, NULL, false},
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"thr", 'r', CB_IF_THREADS, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"n", 'r', 0, 0, "n", CB_SHOW_VALUE, NULL, NULL, false},
    {"op/s [95% CI]", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_ops,
     "headline_ops_per_s headline_ops_per_s_lo headline_ops_per_s_hi", false},
    {"statistic", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_pk_statistic,
     "headline_statistic, in the statistic's short name", false},
    {"us/op", 'r', 0, 0, "headline_us_per_op", CB_SHOW_VALUE, NULL, NULL, false},
    {"cycles/op", 'r', 0, 0, "cycles_per_op_median", CB_SHOW_VALUE, NULL, NULL, false},
    {"notes", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_notes,
     "variable_by_nature invalid drift preempted n, in words", false},
};

const struct cb_table_def cb_table_pk_cells = {
    .name = "pk-cells",
    .about = "one row per run and public-key cell: operations per second, microseconds and "
             "cycles per operation, flags",
    .json_rows = "pk_cells",
    .rows = pk_rows,
    .conditions = pk_conditions,
    .json_order = "key cell n invalid preempted first_error headline ops_per_s us_per_op "
                  "cycles_per_op drift variable_by_nature",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {pk_text, CB_N(pk_text), NULL, false},
    .unit = CB_UNIT_OPS,
};
