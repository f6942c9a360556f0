/* winners.c: the fastest engine of each group, and those tied with it. */
#include "analysis/verdicts/winners.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "analysis/stats/stats.h"
#include "core/engine/engine.h"
#include "core/base/errbuf.h"

bool cb_winners_is_reference(const struct cb_result_cell *cell)
{
	return cb_engine_is_reference(cell->engine);
}

static bool same_group(const struct cb_result_cell *a, const struct cb_result_cell *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->op, b->op) == 0 &&
	       a->size == b->size && a->threads == b->threads;
}

/* The per-round throughput of S on the group's measure. */
static const double *rounds_of(const struct cb_cell_summary *s, bool on_cycles)
{
	return on_cycles ? s->round_bpc : s->round_mbs;
}

/* Median of the finite values of V[0..n-1] (SCRATCH holds n); NaN when none. */
static double median_of(const double *v, size_t n, double *scratch)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0)
			scratch[m++] = v[i];
	if (m == 0)
		return NAN;
	cb_stats_sort(scratch, m);
	return gsl_stats_median_from_sorted_data(scratch, 1, m);
}

static void judge_group(const struct cb_run_summary *s, struct cb_winner_group *g, double level,
                        double delta, double *scratch)
{
	size_t rounds = s->n_rounds;

	g->on_cycles = true;
	for (size_t i = 0; i < g->n_members; i++)
		g->on_cycles &= g->members[i].cell->have_cycles;
	g->best = 0;
	for (size_t i = 0; i < g->n_members; i++) {
		struct cb_winner_member *m = &g->members[i];

		m->score = median_of(rounds_of(m->cell, g->on_cycles), rounds, scratch);
		m->mbs = m->cell->mbs.median;
		if (m->score > g->members[g->best].score || isnan(g->members[g->best].score))
			g->best = i;
	}
	g->level = cb_ratio_bonferroni(level, g->n_members > 2 ? g->n_members - 1 : 1);
	g->next = g->n_members;
	for (size_t i = 0; i < g->n_members; i++) {
		struct cb_winner_member *m = &g->members[i];
		char why[160];
		enum cb_ratio_verdict v;

		m->ratio.value = NAN;
		if (i == g->best) {
			m->standing = CB_WINNER_LEADER;
			continue;
		}
		const struct cb_cell_summary *pair[2] = {m->cell, g->members[g->best].cell};

		m->ratio_ok =
		    cb_ratio_paired_by(rounds_of(m->cell, g->on_cycles),
		                       rounds_of(g->members[g->best].cell, g->on_cycles), rounds,
		                       g->level, cb_summary_ratio_how(s, g->on_cycles, pair, 2),
		                       &m->ratio, why, sizeof why) == 0;
		v = m->ratio_ok
		        ? cb_ratio_verdict(m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi, delta)
		        : CB_RATIO_NOT_RESOLVED;
		m->standing = v == CB_RATIO_EQUIVALENT ? CB_WINNER_TIED
		              : v == CB_RATIO_SLOWER   ? CB_WINNER_SLOWER
		                                       : CB_WINNER_NOT_RESOLVED;
		if (m->standing == CB_WINNER_SLOWER &&
		    (g->next == g->n_members || m->score > g->members[g->next].score))
			g->next = i;
	}
}

static int add_member(struct cb_winners *w, const struct cb_cell_summary *cs)
{
	struct cb_winner_group *g = NULL;

	for (size_t i = 0; i < w->n_groups && !g; i++)
		if (same_group(w->groups[i].members[0].cell->cell, cs->cell))
			g = &w->groups[i];
	if (!g) {
		struct cb_winner_group *grown =
		    realloc(w->groups, (w->n_groups + 1) * sizeof *grown);

		if (!grown)
			return -1;
		w->groups = grown;
		g = &w->groups[w->n_groups++];
		memset(g, 0, sizeof *g);
	}
	struct cb_winner_member *m = realloc(g->members, (g->n_members + 1) * sizeof *m);
	if (!m)
		return -1;
	g->members = m;
	g->members[g->n_members++] = (struct cb_winner_member){.cell = cs};
	return 0;
}

struct cb_winners *cb_winners_build(const struct cb_run_summary *s, double level, double delta,
                                    char *err, size_t err_len)
{
	struct cb_winners *w = calloc(1, sizeof *w);
	double *scratch = malloc((s->n_rounds + 1) * sizeof *scratch);

	if (!w || !scratch)
		goto oom;
	if (!(level > 0 && level < 1) || !(delta > 0)) {
		cb_errorf(err, err_len, "winners: level must be in (0, 1) and delta positive");
		goto fail;
	}
	w->delta = delta;
	w->level = level;
	for (size_t i = 0; i < s->n_cells; i++) {
		const struct cb_cell_summary *cs = &s->cells[i];

		w->several_threads |= cs->cell->threads != s->cells[0].cell->threads;
		if (cs->n == 0 || cb_winners_is_reference(cs->cell))
			continue;
		if (add_member(w, cs) != 0)
			goto oom;
	}
	for (size_t i = 0; i < w->n_groups; i++)
		judge_group(s, &w->groups[i], level, delta, scratch);
	free(scratch);
	return w;
oom:
	cb_errorf(err, err_len, "out of memory");
fail:
	free(scratch);
	cb_winners_free(w);
	return NULL;
}

void cb_winners_free(struct cb_winners *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_groups; i++)
		free(w->groups[i].members);
	free(w->groups);
	free(w);
}

const char *cb_winners_names(const struct cb_winner_group *g, enum cb_winner_standing which,
                             char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->n_members && used < len; i++)
		if (g->members[i].standing == which)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			                         g->members[i].cell->cell->label);
	return buf;
}
