/* table_slopes.c: cost per call and per byte, one row per label,
 * algorithm, op and threads of a run measured at several sizes
 * (tables.h). */
#include <math.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"

#define SLOPE(fn, ...) CB_GET(fn, struct cb_slope, s, __VA_ARGS__)
#define FIT(fn, expr) SLOPE(fn, cb_value_num(v, (expr)))
#define CYCLES(fn, expr)                                                                           \
	SLOPE(fn, if (!s->have_cycles) v->missing = true; else cb_value_num(v, (expr)))

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_analysis *a = source;

	for (size_t i = 0; i < a->n_slopes; i++)
		emit(arg, &a->slopes[i], 0);
}

CB_GET(file, struct cb_slope, s,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_slope, s, cb_value_int(v, (long long)r->run))
SLOPE(k_engine, cb_value_text(v, s->cell->engine))
SLOPE(k_label, cb_value_text(v, s->cell->label))
SLOPE(k_algorithm, cb_value_text(v, s->cell->algorithm))
SLOPE(k_op, cb_value_text(v, s->cell->op))
SLOPE(k_threads, cb_value_int(v, (long long)s->cell->threads))
/* Size is the fit's variable: the key's size is left empty. */
SLOPE(no_size, v->missing = true)
SLOPE(points, cb_value_int(v, (long long)s->ns.n))
SLOPE(sizes, cb_value_int(v, (long long)s->ns.sizes))
SLOPE(fit, cb_value_text(v, s->ns.fit_name))
FIT(overhead, s->ns.overhead.value)
FIT(overhead_lo, s->ns.overhead.lo)
FIT(overhead_hi, s->ns.overhead.hi)
FIT(per_byte, s->ns.per_byte.value)
FIT(per_byte_lo, s->ns.per_byte.lo)
FIT(per_byte_hi, s->ns.per_byte.hi)
CYCLES(cycles, s->cycles.per_byte.value)
CYCLES(cycles_lo, s->cycles.per_byte.lo)
CYCLES(cycles_hi, s->cycles.per_byte.hi)
SLOPE(outliers, cb_value_int(v, (long long)s->ns.outliers))

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    {"engine", CB_COL_TEXT, NULL, k_engine, CB_CSV, NULL, "JSON names the variant by its label",
     NULL},
    {"label", CB_COL_TEXT, NULL, k_label, CB_CSV_JSON, "label", NULL, NULL},
    {"algorithm", CB_COL_TEXT, NULL, k_algorithm, CB_CSV_JSON, "algorithm", NULL, NULL},
    {"op", CB_COL_TEXT, NULL, k_op, CB_CSV_JSON, "op", NULL, NULL},
    {"size", CB_COL_INT, "bytes", no_size, CB_CSV, NULL,
     "always empty: the key columns' place kept, size is the fit's variable", NULL},
    {"threads", CB_COL_INT, NULL, k_threads, CB_CSV_JSON, "threads", NULL, NULL},
    {"points", CB_COL_INT, NULL, points, CB_JSON, "points", "the trials fitted, in JSON only",
     NULL},
    {"sizes", CB_COL_INT, NULL, sizes, CB_CSV_JSON, "sizes", NULL, NULL},
    {"fit", CB_COL_TEXT, NULL, fit, CB_CSV_JSON, "fit", NULL, NULL},
    {"overhead_ns", CB_COL_NUM, "ns", overhead, CB_CSV_JSON, "overhead_ns_per_call.value", NULL,
     NULL},
    {"overhead_ns_lo", CB_COL_NUM, "ns", overhead_lo, CB_CSV_JSON, "overhead_ns_per_call.lo", NULL,
     NULL},
    {"overhead_ns_hi", CB_COL_NUM, "ns", overhead_hi, CB_CSV_JSON, "overhead_ns_per_call.hi", NULL,
     NULL},
    {"ns_per_byte", CB_COL_NUM, "ns/B", per_byte, CB_CSV_JSON, "ns_per_byte.value", NULL, NULL},
    {"ns_per_byte_lo", CB_COL_NUM, "ns/B", per_byte_lo, CB_CSV_JSON, "ns_per_byte.lo", NULL, NULL},
    {"ns_per_byte_hi", CB_COL_NUM, "ns/B", per_byte_hi, CB_CSV_JSON, "ns_per_byte.hi", NULL, NULL},
    {"cycles_per_byte_slope", CB_COL_NUM, "cycles/B", cycles, CB_CSV_JSON, "cycles_per_byte.value",
     NULL, NULL},
    {"cycles_per_byte_slope_lo", CB_COL_NUM, "cycles/B", cycles_lo, CB_JSON, "cycles_per_byte.lo",
     "the slope's interval, in JSON only", NULL},
    {"cycles_per_byte_slope_hi", CB_COL_NUM, "cycles/B", cycles_hi, CB_JSON, "cycles_per_byte.hi",
     "the slope's interval, in JSON only", NULL},
    {"outliers", CB_COL_INT, NULL, outliers, CB_CSV_JSON, "outliers", NULL, NULL},
};

/* ---- Text ---- */

static void text_limit(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_curve_slope *n = &((const struct cb_slope *)r->item)->ns;
	bool resolved = !(n->per_byte.hi - n->per_byte.lo > fabs(n->per_byte.value));
	char x[32];

	snprintf(buf, len, "%s",
	         cb_fmt_num(resolved && n->per_byte.value > 0 ? 1e3 / n->per_byte.value : NAN, x));
}

#define BRIEF 0, CB_IF_DETAILS
#define DETAILS CB_IF_DETAILS, 0
static const struct cb_text_column text[] = {
    {"engine", 'l', 0, 0, "label", CB_SHOW_VALUE, NULL, NULL, false},
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"thr", 'r', 0, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"sizes", 'r', 0, 0, "sizes", CB_SHOW_VALUE, NULL, NULL, false},
    {"fit", 'l', DETAILS, "fit", CB_SHOW_VALUE, NULL, NULL, false},
    {"per call, ns [CI]", 'l', BRIEF, "overhead_ns overhead_ns_lo overhead_ns_hi", CB_SHOW_ESTIMATE,
     NULL, NULL, false},
    {"ns/call at 0 B [CI]", 'l', DETAILS, "overhead_ns overhead_ns_lo overhead_ns_hi",
     CB_SHOW_ESTIMATE, NULL, NULL, false},
    {"ns/B [CI]", 'l', 0, 0, "ns_per_byte ns_per_byte_lo ns_per_byte_hi", CB_SHOW_ESTIMATE, NULL,
     NULL, false},
    {"MB/s limit", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_limit,
     "1000 / ns_per_byte, where ns_per_byte is resolved", false},
    {"cycles/B (slope)", 'r', DETAILS, "cycles_per_byte_slope", CB_SHOW_VALUE, NULL, NULL, false},
    {"outliers", 'r', DETAILS, "outliers", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_slopes = {
    .name = "slopes",
    .about = "one row per run, label, algorithm, op and threads measured at two or more "
             "sizes: time per call = overhead + size x ns per byte",
    .json_rows = "slopes",
    .rows = rows,
    .json_order = "label algorithm op threads points sizes fit overhead_ns_per_call ns_per_byte "
                  "outliers cycles_per_byte",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
