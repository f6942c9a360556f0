/* table_crossovers.c: where one engine (or algorithm) overtakes another as
 * the size grows, one row per pair of curves of a run (tables.h). */
#include <math.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "core/base/units.h"

#define CROSSING(fn, ...) CB_GET(fn, struct cb_crossing, x, __VA_ARGS__)

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_analysis *a = source;

	for (size_t i = 0; i < a->n_crossings; i++)
		emit(arg, &a->crossings[i], 0);
}

static bool engines(const struct cb_crossing *x)
{
	return strcmp(x->kind, "engines") == 0;
}

/* The two curves' names: labels for engines, algorithms for algorithms. */
static const char *name_a(const struct cb_crossing *x)
{
	return engines(x) ? x->a->label : x->a->algorithm;
}

static const char *name_b(const struct cb_crossing *x)
{
	return engines(x) ? x->b->label : x->b->algorithm;
}

CB_GET(file, struct cb_crossing, x,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_crossing, x, cb_value_int(v, (long long)r->run))
CROSSING(kind, cb_value_text(v, x->kind))
CROSSING(algorithm, cb_value_text(v, engines(x) ? x->a->algorithm : ""))
CROSSING(op, cb_value_text(v, x->a->op))
CROSSING(threads, cb_value_int(v, (long long)x->a->threads))
CROSSING(a, cb_value_text(v, name_a(x)))
CROSSING(b, cb_value_text(v, name_b(x)))
CROSSING(a_key, cb_value_text(v, x->a->key))
CROSSING(b_key, cb_value_text(v, x->b->key))
/* An unresolved crossover has no size to give, only its bracket: JSON
 * keeps the interpolated one. */
CROSSING(size, cb_value_num(v, x->x.resolved || v->for_json ? x->x.size : NAN))
CROSSING(bracket_lo, cb_value_num(v, x->x.bracket_lo))
CROSSING(bracket_hi, cb_value_num(v, x->x.bracket_hi))
CROSSING(direction, cb_value_int(v, x->x.direction))
CROSSING(overtakes, cb_value_text(v, x->x.direction > 0 ? name_a(x) : name_b(x)))
CROSSING(resolved, cb_value_bool(v, x->x.resolved))

#define WHY_KEYS "in JSON within the cells' keys a and b"

static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV, NULL, CB_WHY_RUN, NULL},
    {"kind", CB_COL_TEXT, NULL, kind, CB_CSV_JSON, "between", NULL, NULL},
    {"algorithm", CB_COL_TEXT, NULL, algorithm, CB_CSV, NULL, WHY_KEYS, NULL},
    {"op", CB_COL_TEXT, NULL, op, CB_CSV, NULL, WHY_KEYS, NULL},
    {"threads", CB_COL_INT, NULL, threads, CB_CSV, NULL, WHY_KEYS, NULL},
    {"a", CB_COL_TEXT, NULL, a, CB_CSV, NULL,
     "the first curve's label (engines) or algorithm: JSON's a is its cell's key (a_key)", NULL},
    {"b", CB_COL_TEXT, NULL, b, CB_CSV, NULL, "the same for the second curve (b_key)", NULL},
    {"a_key", CB_COL_TEXT, NULL, a_key, CB_JSON, "a", "the first curve's cell: CSV's a names it",
     NULL},
    {"b_key", CB_COL_TEXT, NULL, b_key, CB_JSON, "b", "the second curve's cell: CSV's b names it",
     NULL},
    {"crossover_size", CB_COL_NUM, "bytes", size, CB_CSV_JSON, "size", NULL, NULL},
    {"bracket_lo", CB_COL_NUM, "bytes", bracket_lo, CB_CSV_JSON, "bracket_lo", NULL, NULL},
    {"bracket_hi", CB_COL_NUM, "bytes", bracket_hi, CB_CSV_JSON, "bracket_hi", NULL, NULL},
    {"direction", CB_COL_INT, NULL, direction, CB_JSON, "direction",
     "which curve overtakes (+1: a), named by CSV's overtakes", NULL},
    {"overtakes", CB_COL_TEXT, NULL, overtakes, CB_CSV, NULL,
     "the curve that overtakes: JSON's direction says which", NULL},
    {"resolved", CB_COL_BOOL, NULL, resolved, CB_CSV_JSON, "resolved", NULL, NULL},
};

/* ---- Text ---- */

static void text_between(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_crossing *x = r->item;

	snprintf(buf, len, "%s (%s)", x->kind, engines(x) ? x->a->algorithm : x->a->label);
}

static void text_size(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_crossing *x = r->item;
	char at[32];

	snprintf(buf, len, "%s",
	         x->x.resolved ? cb_format_size((size_t)llround(x->x.size), at) : "not resolved");
}

static void text_bracket(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_crossing *x = r->item;
	char lo[32], hi[32];

	snprintf(buf, len, "%s..%s", cb_format_size((size_t)x->x.bracket_lo, lo),
	         cb_format_size((size_t)x->x.bracket_hi, hi));
}

/* Unresolved, the order may be noise at either end: both are named. */
static void text_grows(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_crossing *x = r->item;
	const char *an = name_a(x), *bn = name_b(x);

	if (x->x.resolved)
		snprintf(buf, len, "%s overtakes %s", x->x.direction > 0 ? an : bn,
		         x->x.direction > 0 ? bn : an);
	else
		snprintf(buf, len, "%s or %s (intervals overlap)", an, bn);
}

static const struct cb_text_column text[] = {
    {"between", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_between, "kind algorithm, or the label",
     false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"thr", 'r', 0, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"crossover size", 'r', 0, 0, NULL, CB_SHOW_VALUE, text_size, "crossover_size resolved", false},
    {"between sizes", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_bracket, "bracket_lo bracket_hi", false},
    {"as size grows", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_grows, "overtakes a b resolved", false},
};

const struct cb_table_def cb_table_crossovers = {
    .name = "crossovers",
    .about = "one row per run and pair of curves that cross: the size where one overtakes "
             "the other",
    .json_rows = "crossovers",
    .rows = rows,
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};
