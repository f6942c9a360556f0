/* table_pk_cells.c: the report's public-key cells, one row per cell whose
 * trials count operations (results.h): operations per second over all
 * threads, microseconds and cycles per operation, with the same statistics,
 * intervals and flags as the byte cells of table_cells.c (tables.h).
 *
 * A public-key trial's work is its operations, so the summaries' "MB/s" of
 * such a cell is millions of operations per second and its cycles per byte
 * are cycles per operation: this table only renames and scales. */
#include <math.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "core/algorithm.h"

#define OPS_PER_MB 1e6 /* a "byte" of a public-key trial is one operation */

#define CELL(fn, ...) CB_GET(fn, struct cb_cell_summary, s, __VA_ARGS__)
#define SAMPLES(fn, expr) CELL(fn, if (!s->n) v->missing = true; else cb_value_num(v, (expr)))
#define COUNT(fn, expr) CELL(fn, cb_value_int(v, (long long)(expr)))

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_analysis *a = source;

	for (size_t i = 0; i < a->summary->n_cells; i++)
		if (a->summary->cells[i].cell->ops)
			emit(arg, &a->summary->cells[i], 0);
}

static unsigned conditions(const void *source, const struct cb_table_options *o)
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

static void headline(const struct cb_row *r, struct cb_headline *h)
{
	cb_summary_headline(r->item, r->o->statistic, h);
}

/* RSA key generation searches for primes: its time per key varies by
 * nature, and its spread is the operation's, not the machine's noise. */
static bool variable(const struct cb_cell_summary *s)
{
	const struct cb_algorithm *alg = cb_algorithm_find(s->cell->algorithm);

	return strcmp(s->cell->op, "keygen") == 0 && alg &&
	       (alg->scheme == CB_PK_RSA_PKCS1 || alg->scheme == CB_PK_RSA_PSS);
}

/* The headline's name in operations: the minimum time is the most op/s. */
static const char *headline_name(const struct cb_headline *h)
{
	return h->stat == &cb_statistics[CB_STAT_MIN] ? "min time (max op/s)" : h->name;
}

CB_GET(file, struct cb_cell_summary, s,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_cell_summary, s, cb_value_int(v, (long long)r->run))
CB_GET(key, struct cb_cell_summary, s, cb_value_text(v, s->cell->key))
CB_GET(cell, struct cb_cell_summary, s, v->j = json_incref(s->cell->json))
CB_KEY_GETTERS(k, struct cb_cell_summary, s, s->cell)

COUNT(n, s->n)
COUNT(invalid, s->invalid)
COUNT(preempted, s->preempted)
CELL(first_error, cb_value_text(v, s->first_error))

#define HEADLINE(fn, ...)                                                                          \
	CELL(fn, struct cb_headline h; headline(r, &h); if (!s->n) v->missing = true;              \
	     else __VA_ARGS__)
HEADLINE(hl_statistic, cb_value_text(v, headline_name(&h)))
HEADLINE(hl_ops, cb_value_num(v, h.mbs *OPS_PER_MB))
HEADLINE(hl_lo, cb_value_num(v, h.lo *OPS_PER_MB))
HEADLINE(hl_hi, cb_value_num(v, h.hi *OPS_PER_MB))
HEADLINE(hl_us, cb_value_num(v, h.ns / 1000))

SAMPLES(ops_median, s->mbs.median *OPS_PER_MB)
SAMPLES(ops_lo, s->mbs.median_ci.lo *OPS_PER_MB)
SAMPLES(ops_hi, s->mbs.median_ci.hi *OPS_PER_MB)
SAMPLES(ops_min, s->mbs.min *OPS_PER_MB)
SAMPLES(ops_max, s->mbs.max *OPS_PER_MB)
SAMPLES(us_median, s->ns.median / 1000)
CELL(cpo_median, if (!s->n || !s->have_cycles) v->missing = true;
     else cb_value_num(v, s->cpb.median))
CELL(counter, if (!s->n || !s->have_cycles) v->missing = true;
     else cb_value_text(v, ((const struct cb_analysis *)r->source)->summary->counter
                               ? ((const struct cb_analysis *)r->source)->summary->counter
                               : "?"))
SAMPLES(robust_cv, s->ns.robust_cv)
CELL(contaminated, if (!s->n) v->missing = true; else cb_value_bool(v, s->ns.contaminated))
CELL(drift, if (!s->n || !s->order->drift_judged) v->missing = true;
     else cb_value_bool(v, s->order->drift))
CELL(variable_by_nature, cb_value_bool(v, variable(s)))

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    {"key", CB_COL_TEXT, NULL, key, CB_JSON, "key", "the cell's key: CSV spells out its columns",
     NULL},
    {"cell", CB_COL_OBJECT, NULL, cell, CB_JSON, "cell",
     "the cell as the results file gives it: CSV has its key columns", NULL},
    CB_KEY_COLUMNS(k, "cell."),
    {"n", CB_COL_INT, NULL, n, CB_CSV_JSON, "n", NULL, NULL},
    {"invalid", CB_COL_INT, NULL, invalid, CB_CSV_JSON, "invalid", NULL, NULL},
    {"preempted", CB_COL_INT, NULL, preempted, CB_CSV_JSON, "preempted", NULL, NULL},
    {"headline_statistic", CB_COL_TEXT, NULL, hl_statistic, CB_CSV_JSON, "headline.statistic", NULL,
     NULL},
    {"headline_ops_per_s", CB_COL_NUM, "op/s", hl_ops, CB_CSV_JSON, "headline.ops_per_s", NULL,
     NULL},
    {"headline_ops_per_s_lo", CB_COL_NUM, "op/s", hl_lo, CB_CSV_JSON, "headline.lo", NULL, NULL},
    {"headline_ops_per_s_hi", CB_COL_NUM, "op/s", hl_hi, CB_CSV_JSON, "headline.hi", NULL, NULL},
    {"headline_us_per_op", CB_COL_NUM, "us", hl_us, CB_CSV_JSON, "headline.us_per_op", NULL, NULL},
    {"ops_per_s_median", CB_COL_NUM, "op/s", ops_median, CB_CSV_JSON, "ops_per_s.median", NULL,
     NULL},
    {"ops_per_s_median_lo", CB_COL_NUM, "op/s", ops_lo, CB_CSV_JSON, "ops_per_s.median_ci.lo", NULL,
     NULL},
    {"ops_per_s_median_hi", CB_COL_NUM, "op/s", ops_hi, CB_CSV_JSON, "ops_per_s.median_ci.hi", NULL,
     NULL},
    {"ops_per_s_min", CB_COL_NUM, "op/s", ops_min, CB_CSV_JSON, "ops_per_s.min", NULL, NULL},
    {"ops_per_s_max", CB_COL_NUM, "op/s", ops_max, CB_CSV_JSON, "ops_per_s.max", NULL, NULL},
    {"us_per_op_median", CB_COL_NUM, "us", us_median, CB_CSV_JSON, "us_per_op.median", NULL, NULL},
    {"cycles_per_op_median", CB_COL_NUM, "cycles", cpo_median, CB_CSV_JSON, "cycles_per_op.median",
     NULL, NULL},
    {"cycles_counter", CB_COL_TEXT, NULL, counter, CB_CSV_JSON, "cycles_per_op.counter", NULL,
     NULL},
    {"robust_cv", CB_COL_NUM, NULL, robust_cv, CB_CSV_JSON, "us_per_op.robust_cv", NULL, NULL},
    {"contaminated", CB_COL_BOOL, NULL, contaminated, CB_CSV_JSON, "us_per_op.contaminated", NULL,
     NULL},
    {"drift", CB_COL_BOOL, NULL, drift, CB_CSV_JSON, "drift", NULL, NULL},
    {"variable_by_nature", CB_COL_BOOL, NULL, variable_by_nature, CB_CSV_JSON, "variable_by_nature",
     NULL, NULL},
    {"first_error", CB_COL_TEXT, NULL, first_error, CB_CSV_JSON, "first_error", NULL, NULL},
};

/* ---- Text ---- */

static void text_ops(const struct cb_row *r, char *buf, size_t len)
{
	char x[96];

	snprintf(buf, len, "%s",
	         cb_fmt_estimate(cb_row_num(r, "headline_ops_per_s"),
	                         cb_row_num(r, "headline_ops_per_s_lo"),
	                         cb_row_num(r, "headline_ops_per_s_hi"), x));
}

static void text_statistic(const struct cb_row *r, char *buf, size_t len)
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

static const struct cb_text_column text[] = {
    {"engine", 'l', 0, 0, "label", CB_SHOW_VALUE, NULL, NULL, false},
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"thr", 'r', CB_IF_THREADS, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"n", 'r', 0, 0, "n", CB_SHOW_VALUE, NULL, NULL, false},
    {"op/s [95% CI]", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_ops,
     "headline_ops_per_s headline_ops_per_s_lo headline_ops_per_s_hi", false},
    {"statistic", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_statistic,
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
    .rows = rows,
    .conditions = conditions,
    .json_order = "key cell n invalid preempted first_error headline ops_per_s us_per_op "
                  "cycles_per_op drift variable_by_nature",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
