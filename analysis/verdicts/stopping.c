/* stopping.c: the stopping rule, its questions, and which cells stay open. */
#include "analysis/verdicts/stopping.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/summary.h"
#include "analysis/verdicts/analysis_data.h"
#include "analysis/verdicts/derive.h"
#include "analysis/verdicts/masks.h"
#include "analysis/verdicts/winners.h"
#include "core/measure/budget.h"
#include "core/base/errbuf.h"
#include "core/base/units.h"

void cb_stop_defaults(struct cb_stop_rule *rule)
{
	*rule = (struct cb_stop_rule){.until_resolved = false,
	                              .alpha = 0.05,
	                              .delta = 0.02,
	                              .precision = 0,
	                              .block = 8,
	                              .min_rounds = 8,
	                              .max_rounds = 400,
	                              .budget_s = 0};
}

/* ---- The rule as JSON ---- */

enum field_type { FIELD_BOOL, FIELD_REAL, FIELD_COUNT };

static const struct {
	const char *name;
	enum field_type type;
	size_t offset;
} rule_fields[] = {
    {"until_resolved", FIELD_BOOL, offsetof(struct cb_stop_rule, until_resolved)},
    {"alpha", FIELD_REAL, offsetof(struct cb_stop_rule, alpha)},
    {"delta", FIELD_REAL, offsetof(struct cb_stop_rule, delta)},
    {"precision", FIELD_REAL, offsetof(struct cb_stop_rule, precision)},
    {"block", FIELD_COUNT, offsetof(struct cb_stop_rule, block)},
    {"min_rounds", FIELD_COUNT, offsetof(struct cb_stop_rule, min_rounds)},
    {"max_rounds", FIELD_COUNT, offsetof(struct cb_stop_rule, max_rounds)},
    {"budget_s", FIELD_REAL, offsetof(struct cb_stop_rule, budget_s)},
};
#define N_RULE_FIELDS (sizeof rule_fields / sizeof rule_fields[0])

json_t *cb_stop_rule_json(const struct cb_stop_rule *rule)
{
	json_t *o = json_object();

	for (size_t i = 0; i < N_RULE_FIELDS && o; i++) {
		const void *at = (const char *)rule + rule_fields[i].offset;
		json_t *v = rule_fields[i].type == FIELD_BOOL ? json_boolean(*(const bool *)at)
		            : rule_fields[i].type == FIELD_REAL
		                ? json_real(*(const double *)at)
		                : json_integer((json_int_t) * (const size_t *)at);

		if (json_object_set_new(o, rule_fields[i].name, v) != 0) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

static int read_field(size_t f, json_t *v, struct cb_stop_rule *rule, char *err, size_t err_len)
{
	void *at = (char *)rule + rule_fields[f].offset;

	switch (rule_fields[f].type) {
	case FIELD_BOOL:
		if (!json_is_boolean(v))
			return cb_errorf(err, err_len, "stop: %s must be true or false",
			                 rule_fields[f].name);
		*(bool *)at = json_is_true(v);
		return 0;
	case FIELD_REAL:
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			return cb_errorf(err, err_len, "stop: %s must be a number",
			                 rule_fields[f].name);
		*(double *)at = json_number_value(v);
		return 0;
	case FIELD_COUNT:
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return cb_errorf(err, err_len, "stop: %s must be a whole number >= 0",
			                 rule_fields[f].name);
		*(size_t *)at = (size_t)json_integer_value(v);
		return 0;
	}
	return -1;
}

int cb_stop_rule_parse(json_t *o, struct cb_stop_rule *rule, char *err, size_t err_len)
{
	const char *key;
	json_t *v;

	cb_stop_defaults(rule);
	if (!json_is_object(o))
		return cb_errorf(err, err_len, "stop must be an object");
	json_object_foreach(o, key, v)
	{
		size_t f = 0;

		while (f < N_RULE_FIELDS && strcmp(rule_fields[f].name, key) != 0)
			f++;
		if (f == N_RULE_FIELDS)
			return cb_errorf(err, err_len, "stop: unknown key \"%s\"", key);
		if (read_field(f, v, rule, err, err_len) != 0)
			return -1;
	}
	if (!(rule->alpha > 0 && rule->alpha < 0.5) || !(rule->delta > 0) ||
	    !(rule->precision >= 0 && rule->precision < 1) || rule->block < 1 ||
	    rule->min_rounds < 1 || rule->max_rounds < rule->min_rounds || !(rule->budget_s >= 0))
		return cb_errorf(
		    err, err_len,
		    "stop: out of range (alpha in (0, 0.5), delta > 0, precision in "
		    "[0, 1), block >= 1, 1 <= min_rounds <= max_rounds, budget_s >= 0)");
	return 0;
}

int cb_stop_rule_of(const struct cb_results *r, struct cb_stop_rule *rule, char *err,
                    size_t err_len)
{
	json_t *o = json_object_get(r->header, "stop");

	if (!o) {
		cb_stop_defaults(rule);
		return 0;
	}
	return cb_stop_rule_parse(o, rule, err, err_len);
}

void cb_stop_analysis_options(const struct cb_stop_rule *rule, struct cb_summary_options *sopt,
                              struct cb_derive_options *dopt)
{
	cb_summary_defaults(sopt);
	sopt->sequential = true;
	sopt->level = 1 - rule->alpha;
	cb_derive_defaults(dopt);
	dopt->level = 1 - rule->alpha;
	dopt->delta = rule->delta;
}

static const char *const kind_names[] = {
    [CB_Q_WINNERS] = "winners", [CB_Q_DERIVED] = "derived",     [CB_Q_EXPECTATION] = "expectation",
    [CB_Q_MASK] = "mask",       [CB_Q_PRECISION] = "precision",
};

const char *cb_question_kind_name(enum cb_question_kind kind)
{
	return kind_names[kind];
}

/* ---- The questions ---- */

struct builder {
	struct cb_stop_state *s;
	size_t cap;
};

/* A new question of KIND named by the format, open, without cells; NULL
 * when memory runs out. */
static struct cb_question *add_question(struct builder *b, enum cb_question_kind kind,
                                        const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static struct cb_question *add_question(struct builder *b, enum cb_question_kind kind,
                                        const char *fmt, ...)
{
	struct cb_question *q;
	va_list ap;

	if (b->s->n_questions == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct cb_question *grown = realloc(b->s->questions, cap * sizeof *grown);

		if (!grown)
			return NULL;
		b->s->questions = grown;
		b->cap = cap;
	}
	q = &b->s->questions[b->s->n_questions++];
	memset(q, 0, sizeof *q);
	q->kind = kind;
	q->open = true;
	va_start(ap, fmt);
	vsnprintf(q->name, sizeof q->name, fmt, ap);
	va_end(ap);
	return q;
}

/* Add cell C to Q's cells, once. */
static int add_cell(struct cb_question *q, size_t c)
{
	size_t *grown;

	for (size_t i = 0; i < q->n_cells; i++)
		if (q->cells[i] == c)
			return 0;
	if (!(grown = realloc(q->cells, (q->n_cells + 1) * sizeof *grown)))
		return -1;
	q->cells = grown;
	q->cells[q->n_cells++] = c;
	return 0;
}

static void answer(struct cb_question *q, bool answered, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void answer(struct cb_question *q, bool answered, const char *fmt, ...)
{
	va_list ap;

	q->open = !answered;
	va_start(ap, fmt);
	vsnprintf(q->answer, sizeof q->answer, fmt, ap);
	va_end(ap);
}

/* Why a not-resolved member's ratio may be slow to resolve, in NOTE: its
 * rounds shown dependent (the first such member); "" when none. */
static const char *dependence_note(const struct cb_winner_group *g, char *note, size_t len)
{
	note[0] = '\0';
	for (size_t k = 0; k < g->n_members; k++) {
		const struct cb_winner_member *m = &g->members[k];
		char dep[256];

		if (m->standing != CB_WINNER_NOT_RESOLVED || !m->ratio_ok ||
		    !cb_dependence_reported(&m->ratio.dependence))
			continue;
		cb_dependence_words(&m->ratio.dependence, dep, sizeof dep);
		snprintf(note, len, " (%s: dependent rounds, %s)", m->cell->cell->label, dep);
		break;
	}
	return note;
}

static int winners_questions(struct builder *b, const struct cb_winners *w)
{
	for (size_t i = 0; w && i < w->n_groups; i++) {
		const struct cb_winner_group *g = &w->groups[i];
		const struct cb_result_cell *c = g->members[0].cell->cell;
		char size[32], threads[32] = "", names[160], leader[160], note[384];
		struct cb_question *q;

		if (g->n_members < 2) /* one contender: nothing to ask */
			continue;
		if (c->threads > 1)
			snprintf(threads, sizeof threads, " x%u threads", c->threads);
		q = add_question(b, CB_Q_WINNERS, "winners %s %s %s%s", c->algorithm, c->op,
		                 cb_format_size(c->size, size), threads);
		if (!q)
			return -1;
		for (size_t k = 0; k < g->n_members; k++)
			if (add_cell(q, g->members[k].cell->index) != 0)
				return -1;
		snprintf(leader, sizeof leader, "%s", g->members[g->best].cell->cell->label);
		cb_winners_names(g, CB_WINNER_NOT_RESOLVED, names, sizeof names);
		if (names[0])
			answer(q, false, "not resolved against %s: %s%s", leader, names,
			       dependence_note(g, note, sizeof note));
		else {
			cb_winners_names(g, CB_WINNER_TIED, names, sizeof names);
			answer(q, true, "fastest %s%s%s", leader, names[0] ? ", tied: " : " alone",
			       names);
		}
	}
	return 0;
}

/* The ratio's figures and, where its rounds were shown dependent, what
 * that did: the interval was widened, or is held back until the batches
 * can size the dependence. */
static void ratio_words(const struct cb_ratio *r, char *buf, size_t len)
{
	char dep[256];

	cb_dependence_words(&r->dependence, dep, sizeof dep);
	if (r->dependence.hold)
		snprintf(buf, len, "%.4g, held open: dependent rounds, %s", r->value, dep);
	else
		snprintf(buf, len, "%.4g [%.4g, %.4g]%s%s", r->value, r->ci.lo, r->ci.hi,
		         dep[0] ? "; dependent rounds: " : "", dep);
}

static int derived_questions(struct builder *b, const struct cb_analysis *a)
{
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];
		struct cb_question *q, *e = NULL;
		char figures[352];

		if (!add_question(b, CB_Q_DERIVED, "derived %s", m->key) ||
		    (m->has_expect && !add_question(b, CB_Q_EXPECTATION, "expectation %s", m->key)))
			return -1;
		/* Both taken once added: the second add may move the first. */
		q = &b->s->questions[b->s->n_questions - (m->has_expect ? 2 : 1)];
		if (m->has_expect)
			e = q + 1;
		for (size_t p = 0; p < m->n_pairs; p++)
			if (add_cell(q, m->num_cells[p]) != 0 ||
			    add_cell(q, m->den_cells[p]) != 0 ||
			    (e && (add_cell(e, m->num_cells[p]) != 0 ||
			           add_cell(e, m->den_cells[p]) != 0)))
				return -1;
		if (!m->ok) {
			answer(q, false, "%s", m->why);
			if (e)
				answer(e, false, "%s", m->why);
			continue;
		}
		ratio_words(&m->ratio, figures, sizeof figures);
		answer(q, m->verdict != CB_RATIO_NOT_RESOLVED, "%s: %s",
		       cb_ratio_verdict_name(m->verdict), figures);
		if (e)
			answer(e, m->expectation != CB_EXPECT_NOT_RESOLVED, "%s with %.4g: %s",
			       cb_ratio_expectation_name(m->expectation), m->expect_value, figures);
	}
	return 0;
}

static int mask_questions(struct builder *b, const struct cb_masks *ms)
{
	for (size_t i = 0; ms && i < ms->n; i++) {
		const struct cb_mask *m = &ms->masks[i];
		struct cb_question *q =
		    add_question(b, CB_Q_MASK, "mask %s (%s)", m->label, m->env_text);

		if (!q)
			return -1;
		for (size_t k = 0; k < m->n_cells; k++)
			if (add_cell(q, m->cells[k].masked->index) != 0 ||
			    add_cell(q, m->cells[k].reference->index) != 0)
				return -1;
		if (m->verdict != CB_MASK_NOT_RESOLVED)
			answer(q, true, "%s", cb_mask_verdict_name(m->verdict));
		else if (!m->reference || m->n_cells == 0) /* no round can answer it */
			answer(q, true, "not resolved, and no round can tell: %s", m->why);
		else
			answer(q, false, "%s", m->why);
	}
	return 0;
}

/* The largest relative distance of the MB/s median's interval from it. */
static double relative_halfwidth(const struct cb_cell_summary *cs)
{
	const struct cb_stats_interval *ci = &cs->mbs.median_ci;

	if (cs->n == 0 || !ci->available || !(cs->mbs.median > 0))
		return NAN;
	return fmax(ci->hi / cs->mbs.median - 1, 1 - ci->lo / cs->mbs.median);
}

static int precision_questions(struct builder *b, const struct cb_analysis *a, double precision)
{
	for (size_t c = 0; precision > 0 && c < a->summary->n_cells; c++) {
		const struct cb_cell_summary *cs = &a->summary->cells[c];
		char name[256];
		double w = relative_halfwidth(cs);
		struct cb_question *q =
		    add_question(b, CB_Q_PRECISION, "precision %s", cb_cell_name(cs->cell, name));

		if (!q || add_cell(q, c) != 0)
			return -1;
		if (isnan(w))
			answer(q, false, "no interval yet (%zu samples)", cs->n);
		else
			answer(q, w <= precision, "median MB/s within +-%.2f%% (asked +-%.2f%%)",
			       w * 100, precision * 100);
	}
	return 0;
}

/* ---- The cells ---- */

static void judge_cells(struct cb_stop_state *s, const struct cb_analysis *a,
                        const struct cb_stop_rule *rule, double elapsed_s)
{
	bool budget_over = cb_budget_spent(rule->budget_s, elapsed_s);

	for (size_t q = 0; q < s->n_questions; q++)
		for (size_t k = 0; k < s->questions[q].n_cells; k++) {
			struct cb_stop_cell *c = &s->cells[s->questions[q].cells[k]];

			c->n_questions++;
			c->n_open += s->questions[q].open;
		}
	for (size_t i = 0; i < s->n_cells; i++) {
		struct cb_stop_cell *c = &s->cells[i];
		const struct cb_cell_summary *cs = &a->summary->cells[i];

		c->rounds = cs->n + cs->invalid;
		c->open = false;
		if (budget_over)
			snprintf(c->why, sizeof c->why, "budget of %.0f s ended", rule->budget_s);
		else if (c->rounds >= rule->max_rounds)
			snprintf(c->why, sizeof c->why, "max_rounds %zu reached", rule->max_rounds);
		else if (c->n_questions == 0)
			snprintf(c->why, sizeof c->why, "serves no question");
		else if (c->rounds < rule->min_rounds) {
			c->open = true;
			snprintf(c->why, sizeof c->why, "min_rounds %zu not reached",
			         rule->min_rounds);
		} else if (c->n_open > 0) {
			c->open = true;
			snprintf(c->why, sizeof c->why, "%zu of %zu questions open", c->n_open,
			         c->n_questions);
		} else
			snprintf(c->why, sizeof c->why, "all %zu questions answered",
			         c->n_questions);
		s->n_open_cells += c->open;
	}
}

struct cb_stop_state *cb_stop_check(const struct cb_analysis *a, const struct cb_stop_rule *rule,
                                    double elapsed_s, char *err, size_t err_len)
{
	struct cb_stop_state *s = calloc(1, sizeof *s);
	struct builder b = {.s = s};

	if (!s)
		goto oom;
	s->n_cells = a->summary->n_cells;
	if (!(s->cells = calloc(s->n_cells ? s->n_cells : 1, sizeof *s->cells)))
		goto oom;
	if (winners_questions(&b, a->winners) != 0 || derived_questions(&b, a) != 0 ||
	    mask_questions(&b, a->masks) != 0 || precision_questions(&b, a, rule->precision) != 0)
		goto oom;
	for (size_t q = 0; q < s->n_questions; q++)
		s->n_open += s->questions[q].open;
	judge_cells(s, a, rule, elapsed_s);
	return s;
oom:
	cb_errorf(err, err_len, "out of memory checking the stopping rule");
	cb_stop_state_free(s);
	return NULL;
}

void cb_stop_state_free(struct cb_stop_state *s)
{
	if (!s)
		return;
	for (size_t q = 0; q < s->n_questions; q++)
		free(s->questions[q].cells);
	free(s->questions);
	free(s->cells);
	free(s);
}

/* ---- The look line ---- */

static json_t *question_json(const struct cb_question *q)
{
	return json_pack("{s:s, s:s, s:s}", "kind", cb_question_kind_name(q->kind), "name", q->name,
	                 q->open ? "missing" : "answer", q->answer);
}

json_t *cb_stop_state_json(const struct cb_stop_state *s, const struct cb_results *r)
{
	json_t *open = json_array(), *answered = json_array(), *open_cells = json_array(),
	       *closed = json_array();

	for (size_t q = 0; q < s->n_questions; q++)
		json_array_append_new(s->questions[q].open ? open : answered,
		                      question_json(&s->questions[q]));
	for (size_t i = 0; i < s->n_cells; i++) {
		const struct cb_stop_cell *c = &s->cells[i];

		if (c->open)
			json_array_append_new(open_cells, json_string(r->cells[i].key));
		else
			json_array_append_new(closed, json_pack("{s:s, s:s, s:I}", "cell",
			                                        r->cells[i].key, "why", c->why,
			                                        "rounds", (json_int_t)c->rounds));
	}
	return json_pack("{s:I, s:I, s:o, s:o, s:I, s:o, s:o}", "questions",
	                 (json_int_t)s->n_questions, "questions_open", (json_int_t)s->n_open,
	                 "open_questions", open, "answered", answered, "cells_open",
	                 (json_int_t)s->n_open_cells, "open_cells", open_cells, "closed_cells",
	                 closed);
}
