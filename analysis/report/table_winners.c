/* table_winners.c: who is fastest, one row per algorithm, op, size and
 * threads of a run (verdicts/winners.h; tables.h): one description of the
 * columns for the byte cells' table (winners) and the public-key cells'
 * (pk-winners, in operations per second), each column in its unit's table
 * or both (table.h's `in`). */
#include <math.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"

#define GROUP(fn, ...) CB_GET(fn, struct cb_winner_group, g, __VA_ARGS__)

/* A public-key cell's "bytes" are operations (results.h): its summaries'
 * MB/s are millions of operations per second. */
#define OPS_PER_MB 1e6

static bool pk_group(const struct cb_winner_group *g)
{
	return g->members[g->best].cell->cell->ops;
}

static void emit_groups(const void *source, cb_table_emit *emit, void *arg, bool pk)
{
	const struct cb_winners *w = ((const struct cb_analysis *)source)->winners;

	for (size_t i = 0; w && i < w->n_groups; i++)
		if (pk_group(&w->groups[i]) == pk)
			emit(arg, &w->groups[i], 0);
}

static void rows(const void *source, cb_table_emit *emit, void *arg)
{
	emit_groups(source, emit, arg, false);
}

static void pk_rows(const void *source, cb_table_emit *emit, void *arg)
{
	emit_groups(source, emit, arg, true);
}

static unsigned conditions(const void *source, const struct cb_table_options *o)
{
	(void)o;
	const struct cb_winners *w = ((const struct cb_analysis *)source)->winners;
	unsigned c = w && w->several_threads ? CB_IF_THREADS : 0;

	for (size_t i = 0; w && i < w->n_groups; i++)
		for (size_t k = 0; k < w->groups[i].n_members; k++)
			if (w->groups[i].members[k].ratio_ok &&
			    cb_dependence_reported(&w->groups[i].members[k].ratio.dependence))
				c |= CB_IF_DEPENDENT;
	return c;
}

static const struct cb_result_cell *best(const struct cb_winner_group *g)
{
	return g->members[g->best].cell->cell;
}

/* The fastest of the slower engines, or NULL. */
static const struct cb_winner_member *next(const struct cb_winner_group *g)
{
	return g->next < g->n_members ? &g->members[g->next] : NULL;
}

static bool dependent(const struct cb_winner_member *m)
{
	return m->ratio_ok && cb_dependence_reported(&m->ratio.dependence);
}

/* The members whose ratio's rounds were shown dependent, in BUF: "gcrypt:
 * lag-1 0.31, blocks of 25 rounds, variance x4.2; ..."; "" when none. */
static const char *dependent_members(const struct cb_winner_group *g, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < g->n_members && used < len; k++) {
		char words[256]; /* a lag-1, its blocks, the medians and a margin */

		if (!dependent(&g->members[k]))
			continue;
		cb_dependence_words(&g->members[k].ratio.dependence, words, sizeof words);
		used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? "; " : "",
		                         g->members[k].cell->cell->label, words);
	}
	return buf;
}

static json_t *members_json(const struct cb_winner_group *g)
{
	static const char *const standing[] = {"leader", "tied", "not resolved", "slower"};
	json_t *members = json_array();
	bool pk = pk_group(g);

	for (size_t k = 0; k < g->n_members; k++) {
		const struct cb_winner_member *m = &g->members[k];
		json_t *x = json_pack(
		    "{s:s, s:s, s:s, s:o, s:o}", "engine", m->cell->cell->engine, "label",
		    m->cell->cell->label, "standing", standing[m->standing], "score",
		    cb_report_json_number(m->score), pk ? "ops_per_s_median" : "mb_per_s_median",
		    cb_report_json_number(pk ? m->mbs * OPS_PER_MB : m->mbs));

		if (k != g->best) {
			json_t *ratio = json_pack(
			    "{s:o, s:o, s:o, s:I}", "value",
			    cb_report_json_number(m->ratio_ok ? m->ratio.value : NAN), "lo",
			    cb_report_json_number(m->ratio_ok ? m->ratio.ci.lo : NAN), "hi",
			    cb_report_json_number(m->ratio_ok ? m->ratio.ci.hi : NAN), "rounds",
			    (json_int_t)(m->ratio_ok ? m->ratio.n : 0));

			if (ratio && dependent(m))
				json_object_set_new(
				    ratio, "dependence",
				    cb_report_dependence_json(&m->ratio.dependence));
			json_object_set_new(x, "ratio_to_leader", ratio);
		}
		json_array_append_new(members, x);
	}
	return members;
}

CB_GET(file, struct cb_winner_group, g,
       cb_value_text(v, ((const struct cb_analysis *)r->source)->results->path))
CB_GET(run, struct cb_winner_group, g, cb_value_int(v, (long long)r->run))
GROUP(algorithm, cb_value_text(v, best(g)->algorithm))
GROUP(op, cb_value_text(v, best(g)->op))
GROUP(size, cb_value_int(v, (long long)best(g)->size))
GROUP(threads, cb_value_int(v, (long long)best(g)->threads))
GROUP(engines, cb_value_int(v, (long long)g->n_members))
/* What the verdict was judged on, in the table's unit. */
static const struct {
	const char *cycles, *rate;
} measures[] = {
    [CB_UNIT_BYTES] = {"bytes per cycle", "MB/s"},
    [CB_UNIT_OPS] = {"cycles per operation", "op/s"},
};
GROUP(measure,
      cb_value_text(v, g->on_cycles ? measures[r->def->unit].cycles : measures[r->def->unit].rate))
GROUP(fastest, cb_value_text(v, best(g)->label))
GROUP(fastest_engine, cb_value_text(v, best(g)->engine))
GROUP(mbs_median, cb_value_num(v, g->members[g->best].mbs))
GROUP(headline, struct cb_headline h;
      cb_summary_headline(g->members[g->best].cell, r->o->statistic, &h); cb_value_num(v, h.mbs))
GROUP(pk_headline, struct cb_headline h;
      cb_summary_headline(g->members[g->best].cell, r->o->statistic, &h);
      cb_value_num(v, h.mbs *OPS_PER_MB))
GROUP(pk_us, struct cb_headline h;
      cb_summary_headline(g->members[g->best].cell, r->o->statistic, &h);
      cb_value_num(v, h.ns / 1000))
GROUP(tied, cb_value_text(v, cb_winners_names(g, CB_WINNER_TIED, v->buf, sizeof v->buf)))
GROUP(unresolved,
      cb_value_text(v, cb_winners_names(g, CB_WINNER_NOT_RESOLVED, v->buf, sizeof v->buf)))
GROUP(dependent_rounds, dependent_members(g, v->buf, sizeof v->buf);
      if (v->buf[0]) cb_value_text(v, v->buf); else v->missing = true)
GROUP(next_label, if (!next(g)) v->missing = true;
      else cb_value_text(v, next(g)->cell->cell->label))
GROUP(next_ratio, if (!next(g)) v->missing = true; else cb_value_num(v, next(g)->ratio.value))
GROUP(next_lo, if (!next(g)) v->missing = true; else cb_value_num(v, next(g)->ratio.ci.lo))
GROUP(next_hi, if (!next(g)) v->missing = true; else cb_value_num(v, next(g)->ratio.ci.hi))
GROUP(level, cb_value_num(v, g->level))
CB_GET(delta, struct cb_winner_group, g,
       cb_value_num(v, ((const struct cb_analysis *)r->source)->winners->delta))
GROUP(members, v->j = members_json(g))

#define WHY_MEMBERS(what) "in JSON: " what " of the engines array (each engine's standing)"

/* One description for both units (table.h's `in`): the byte cells' table
 * has the size and MB/s, the public-key one operations per second and
 * microseconds per operation. */
static const struct cb_column columns[] = {
    {"file", CB_COL_TEXT, NULL, file, CB_CSV | CB_IN_BOTH, NULL, CB_WHY_FILE, NULL},
    {"run", CB_COL_INT, NULL, run, CB_CSV | CB_IN_BOTH, NULL, CB_WHY_RUN, NULL},
    {"algorithm", CB_COL_TEXT, NULL, algorithm, CB_CSV_JSON | CB_IN_BOTH, "algorithm", NULL, NULL},
    {"op", CB_COL_TEXT, NULL, op, CB_CSV_JSON | CB_IN_BOTH, "op", NULL, NULL},
    {"size", CB_COL_INT, "bytes", size, CB_CSV_JSON, "size", NULL, NULL},
    {"threads", CB_COL_INT, NULL, threads, CB_CSV_JSON | CB_IN_BOTH, "threads", NULL, NULL},
    {"engines", CB_COL_INT, NULL, engines, CB_CSV | CB_IN_BOTH, NULL, WHY_MEMBERS("the length"),
     NULL},
    {"measure", CB_COL_TEXT, NULL, measure, CB_CSV_JSON | CB_IN_BOTH, "measure", NULL, NULL},
    {"fastest", CB_COL_TEXT, NULL, fastest, CB_CSV_JSON | CB_IN_BOTH, "fastest", NULL, NULL},
    {"fastest_engine", CB_COL_TEXT, NULL, fastest_engine, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("the engine of the leader"), NULL},
    {"mb_per_s_median", CB_COL_NUM, "MB/s", mbs_median, CB_CSV, NULL,
     WHY_MEMBERS("the leader's mb_per_s_median"), NULL},
    {"headline_mb_per_s", CB_COL_NUM, "MB/s", headline, CB_CSV_JSON, "headline_mb_per_s", NULL,
     NULL},
    {"headline_ops_per_s", CB_COL_NUM, "op/s", pk_headline, CB_CSV_JSON | CB_IN_OPS,
     "headline_ops_per_s", NULL, NULL},
    {"headline_us_per_op", CB_COL_NUM, "us", pk_us, CB_CSV_JSON | CB_IN_OPS, "headline_us_per_op",
     NULL, NULL},
    {"tied", CB_COL_TEXT, NULL, tied, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("the labels standing tied"), NULL},
    {"not_resolved", CB_COL_TEXT, NULL, unresolved, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("the labels standing not resolved"), NULL},
    {"dependent_rounds", CB_COL_TEXT, NULL, dependent_rounds, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("each ratio_to_leader's dependence"), NULL},
    {"next", CB_COL_TEXT, NULL, next_label, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("the fastest label standing slower"), NULL},
    {"next_ratio", CB_COL_NUM, NULL, next_ratio, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("its ratio_to_leader"), NULL},
    {"next_ratio_lo", CB_COL_NUM, NULL, next_lo, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("its ratio_to_leader"), NULL},
    {"next_ratio_hi", CB_COL_NUM, NULL, next_hi, CB_CSV | CB_IN_BOTH, NULL,
     WHY_MEMBERS("its ratio_to_leader"), NULL},
    {"level", CB_COL_NUM, NULL, level, CB_CSV_JSON | CB_IN_BOTH, "level", NULL, NULL},
    {"delta", CB_COL_NUM, NULL, delta, CB_CSV, NULL, "in JSON once for the run (winners.delta)",
     NULL},
    {"members", CB_COL_OBJECT, NULL, members, CB_JSON | CB_IN_BOTH, "engines",
     "every engine's standing, score and ratio to the leader: CSV and the text give the "
     "leader, the tied, the not resolved and the next",
     NULL},
};

/* ---- Text ---- */

static void text_fastest(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_winner_group *g = r->item;
	char tied[512];

	cb_winners_names(g, CB_WINNER_TIED, tied, sizeof tied);
	snprintf(buf, len, "%s%s%s", best(g)->label, tied[0] ? ", " : "", tied);
}

static void text_unresolved(const struct cb_row *r, char *buf, size_t len)
{
	cb_winners_names(r->item, CB_WINNER_NOT_RESOLVED, buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void text_next(const struct cb_row *r, char *buf, size_t len)
{
	const struct cb_winner_member *x = next(r->item);
	char c[80];

	if (x)
		snprintf(buf, len, "%s %s", x->cell->cell->label,
		         cb_fmt_change(x->ratio.value, x->ratio.ci.lo, x->ratio.ci.hi, c));
	else
		snprintf(buf, len, "-");
}

static void text_dependent(const struct cb_row *r, char *buf, size_t len)
{
	dependent_members(r->item, buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
}

static const struct cb_text_column text[] = {
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"size", 'r', 0, 0, "size", CB_SHOW_SIZE, NULL, NULL, false},
    {"thr", 'r', CB_IF_THREADS, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"fastest", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_fastest, "fastest tied", false},
    {"MB/s", 'r', 0, 0, "headline_mb_per_s", CB_SHOW_VALUE, NULL, NULL, false},
    {"not resolved", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_unresolved, "not_resolved", false},
    {"next: change [95% CI]", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_next,
     "next next_ratio next_ratio_lo next_ratio_hi", false},
    {"dependent rounds", 'l', CB_IF_DEPENDENT, 0, NULL, CB_SHOW_VALUE, text_dependent,
     "dependent_rounds", false},
};

const struct cb_table_def cb_table_winners = {
    .name = "winners",
    .about = "one row per run, algorithm, op, size and threads: the fastest engine, those "
             "tied with it, the not resolved and the next",
    .json_rows = "winners.groups",
    .rows = rows,
    .conditions = conditions,
    .json_order = "algorithm op size threads measure fastest level engines",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {text, CB_N(text), NULL, false},
};

/* ---- Public-key cells: the same verdicts in operations, the same columns ---- */

static const struct cb_text_column pk_text[] = {
    {"algorithm", 'l', 0, 0, "algorithm", CB_SHOW_VALUE, NULL, NULL, false},
    {"op", 'l', 0, 0, "op", CB_SHOW_VALUE, NULL, NULL, false},
    {"thr", 'r', CB_IF_THREADS, 0, "threads", CB_SHOW_VALUE, NULL, NULL, false},
    {"fastest", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_fastest, "fastest tied", false},
    {"op/s", 'r', 0, 0, "headline_ops_per_s", CB_SHOW_VALUE, NULL, NULL, false},
    {"us/op", 'r', 0, 0, "headline_us_per_op", CB_SHOW_VALUE, NULL, NULL, false},
    {"not resolved", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_unresolved, "not_resolved", false},
    {"next: change [95% CI]", 'l', 0, 0, NULL, CB_SHOW_VALUE, text_next,
     "next next_ratio next_ratio_lo next_ratio_hi", false},
    {"dependent rounds", 'l', CB_IF_DEPENDENT, 0, NULL, CB_SHOW_VALUE, text_dependent,
     "dependent_rounds", false},
};

const struct cb_table_def cb_table_pk_winners = {
    .name = "pk-winners",
    .about = "one row per run, public-key algorithm, op and threads: the fastest engine in "
             "operations per second, those tied with it, the not resolved and the next",
    .json_rows = "pk_winners",
    .rows = pk_rows,
    .conditions = conditions,
    .json_order = "algorithm op threads measure fastest level engines",
    .columns = columns,
    .n_columns = CB_N(columns),
    .text = {pk_text, CB_N(pk_text), NULL, false},
    .unit = CB_UNIT_OPS,
};
