/* table_flips.c: how stable the engines' order is across runs: rank flips
 * (two engines whose order differs between runs) and Kendall's W per
 * algorithm, op, size and threads (tables.h). Source: struct cb_compare. */
#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/compare.h"

/* ---- Rank flips ---- */

#define FLIP(fn, ...) CB_GET(fn, struct cb_rank_flip, x, __VA_ARGS__)

static void flip_rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_compare *c = source;

	for (size_t i = 0; i < c->n_flips; i++)
		emit(arg, &c->flips[i], 0);
}

FLIP(f_algorithm, cb_value_text(v, x->a->algorithm))
FLIP(f_op, cb_value_text(v, x->a->op))
FLIP(f_size, cb_value_int(v, (long long)x->a->size))
FLIP(f_threads, cb_value_int(v, (long long)x->a->threads))
FLIP(f_a, cb_value_text(v, x->a->label))
FLIP(f_b, cb_value_text(v, x->b->label))
FLIP(f_a_key, cb_value_text(v, x->a->key))
FLIP(f_b_key, cb_value_text(v, x->b->key))
FLIP(f_run_a, cb_value_int(v, (long long)x->run_a + 1))
FLIP(f_a_in_a, if (x->a->ops) v->missing = true; else cb_value_num(v, x->a_in_a))
FLIP(f_b_in_a, if (x->a->ops) v->missing = true; else cb_value_num(v, x->b_in_a))
FLIP(f_run_b, cb_value_int(v, (long long)x->run_b + 1))
FLIP(f_a_in_b, if (x->a->ops) v->missing = true; else cb_value_num(v, x->a_in_b))
FLIP(f_b_in_b, if (x->a->ops) v->missing = true; else cb_value_num(v, x->b_in_b))

#define WHY_KEYS "in JSON within the cells' keys a and b"

static const struct cb_column flip_columns[] = {
    {"algorithm", CB_COL_TEXT, NULL, f_algorithm, CB_CSV, NULL, WHY_KEYS, NULL},
    {"op", CB_COL_TEXT, NULL, f_op, CB_CSV, NULL, WHY_KEYS, NULL},
    {"size", CB_COL_INT, "bytes", f_size, CB_CSV, NULL, WHY_KEYS, NULL},
    {"threads", CB_COL_INT, NULL, f_threads, CB_CSV, NULL, WHY_KEYS, NULL},
    {"a", CB_COL_TEXT, NULL, f_a, CB_CSV, NULL,
     "the first engine's label: JSON's a is its cell's key (a_key)", NULL},
    {"b", CB_COL_TEXT, NULL, f_b, CB_CSV, NULL, "the same for the second engine (b_key)", NULL},
    {"a_key", CB_COL_TEXT, NULL, f_a_key, CB_JSON, "a", "the first engine's cell: CSV's a names it",
     NULL},
    {"b_key", CB_COL_TEXT, NULL, f_b_key, CB_JSON, "b",
     "the second engine's cell: CSV's b names it", NULL},
    {"run_a", CB_COL_INT, NULL, f_run_a, CB_CSV_JSON, "a_faster.run", NULL, NULL},
    {"a_mb_per_s_in_run_a", CB_COL_NUM, "MB/s", f_a_in_a, CB_CSV_JSON, "a_faster.a", NULL, NULL},
    {"b_mb_per_s_in_run_a", CB_COL_NUM, "MB/s", f_b_in_a, CB_CSV_JSON, "a_faster.b", NULL, NULL},
    {"run_b", CB_COL_INT, NULL, f_run_b, CB_CSV_JSON, "b_faster.run", NULL, NULL},
    {"a_mb_per_s_in_run_b", CB_COL_NUM, "MB/s", f_a_in_b, CB_CSV_JSON, "b_faster.a", NULL, NULL},
    {"b_mb_per_s_in_run_b", CB_COL_NUM, "MB/s", f_b_in_b, CB_CSV_JSON, "b_faster.b", NULL, NULL},
};

static void text_a_faster(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_rank_flip *x = r->item;
	char a[32], b[32];

	snprintf(buf, len, "run %zu: %s vs %s", x->run_a + 1, cb_fmt_num(x->a_in_a, a),
	         cb_fmt_num(x->b_in_a, b));
}

static void text_b_faster(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_rank_flip *x = r->item;
	char a[32], b[32];

	snprintf(buf, len, "run %zu: %s vs %s", x->run_b + 1, cb_fmt_num(x->a_in_b, a),
	         cb_fmt_num(x->b_in_b, b));
}

static const struct cb_text_column flip_text[] = {
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"size", 'l', 0, 0, "size", CB_SHOW_SIZE, NULL, NULL, false},
    {"thr", 'r', 0, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"A", 'l', 0, 0, "a", CB_SHOW_VALUE, NULL, NULL, false},
    {"B", 'l', 0, 0, "b", CB_SHOW_VALUE, NULL, NULL, false},
    {"A faster (median MB/s)", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_a_faster,
     "run_a a_mb_per_s_in_run_a b_mb_per_s_in_run_a", false},
    {"B faster (median MB/s)", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_b_faster,
     "run_b a_mb_per_s_in_run_b b_mb_per_s_in_run_b", false},
};

const struct cb_table_def cb_table_flips = {
    .name = "flips",
    .about = "one row per pair of engines whose order differs between runs",
    .json_rows = "rank_flips",
    .rows = flip_rows,
    .json_order = "a b a_faster b_faster",
    .columns = flip_columns,
    .n_columns = CB_N(flip_columns),
    .text = {flip_text, CB_N(flip_text), NULL, false},
};

/* ---- Rankings ---- */

#define RANKING(fn, ...) CB_GET(fn, struct cb_ranking, x, __VA_ARGS__)

static void ranking_rows(const void *source, cb_table_emit *emit, void *arg)
{
	const struct cb_compare *c = source;

	for (size_t i = 0; i < c->n_rankings; i++)
		emit(arg, &c->rankings[i], 0);
}

RANKING(r_algorithm, cb_value_text(v, x->cell->algorithm))
RANKING(r_op, cb_value_text(v, x->cell->op))
RANKING(r_size, cb_value_int(v, (long long)x->cell->size))
RANKING(r_threads, cb_value_int(v, (long long)x->cell->threads))
RANKING(r_engines, cb_value_int(v, (long long)x->engines))
RANKING(r_w, cb_value_num(v, x->w))
RANKING(r_p, cb_value_num(v, x->p))

static const struct cb_column ranking_columns[] = {
    {"algorithm", CB_COL_TEXT, NULL, r_algorithm, CB_CSV_JSON, "algorithm", NULL, NULL},
    {"op", CB_COL_TEXT, NULL, r_op, CB_CSV_JSON, "op", NULL, NULL},
    {"size", CB_COL_INT, "bytes", r_size, CB_CSV_JSON, "size", NULL, NULL},
    {"threads", CB_COL_INT, NULL, r_threads, CB_CSV_JSON, "threads", NULL, NULL},
    {"engines", CB_COL_INT, NULL, r_engines, CB_CSV_JSON, "engines", NULL, NULL},
    {"kendall_w", CB_COL_NUM, NULL, r_w, CB_CSV_JSON, "kendall_w", NULL, NULL},
    {"p", CB_COL_NUM, NULL, r_p, CB_CSV_JSON, "p", NULL, NULL},
};

static const struct cb_text_column ranking_text[] = {
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"size", 'l', 0, 0, "size", CB_SHOW_SIZE, NULL, NULL, false},
    {"thr", 'r', 0, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"engines", 'r', 0, 0, "engines", CB_SHOW_VALUE, NULL, NULL, false},
    {"Kendall W", 'r', 0, 0, "kendall_w", CB_SHOW_VALUE, NULL, NULL, false},
    {"p", 'r', 0, 0, "p", CB_SHOW_VALUE, NULL, NULL, false},
};

const struct cb_table_def cb_table_rankings = {
    .name = "rankings",
    .about = "one row per algorithm, op, size and threads: Kendall's W of the engines' order "
             "across runs",
    .json_rows = "rankings",
    .rows = ranking_rows,
    .columns = ranking_columns,
    .n_columns = CB_N(ranking_columns),
    .text = {ranking_text, CB_N(ranking_text), NULL, false},
};
