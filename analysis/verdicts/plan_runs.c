/* plan_runs.c: predicting compare's verdict for K runs of n rounds, and the
 * cheapest plan that resolves a row (plan_runs.h). */
#include "analysis/verdicts/plan_runs.h"

#include "analysis/stats/stats.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/measure.h"
#include "analysis/verdicts/plan_runs_predict.h"
#include "core/measure/budget.h"
#include "core/base/errbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_plan_defaults(struct cb_plan_options *opt)
{
	opt->target = 0.9;
	opt->max_runs = 30;
	opt->min_rounds = 10;
	opt->max_rounds = 2000;
	opt->budget_s = 0.0;
	opt->cost_factor = 1.0;
	opt->cost_files = 0;
}

const char *cb_plan_status_name(enum cb_plan_status s)
{
	static const char *const names[] = {"resolved", "needs", "cannot", "unsure", "no data"};

	return names[s];
}

/* ---- The cheapest plan ---- */

static void options_or_defaults(const struct cb_plan_options *opt, struct cb_plan_options *out)
{
	if (opt)
		*out = *opt;
	else
		cb_plan_defaults(out);
	if (out->max_runs < 2)
		out->max_runs = 2;
	if (out->min_rounds < 6)
		out->min_rounds = 6;
	if (out->max_rounds < out->min_rounds)
		out->max_rounds = out->min_rounds;
}

/* The rounds tried: min_rounds up to max_rounds by factors of about 1.2
 * (every value when they are few), then EXTRA (n*, bounded) when in range.
 * Returns how many were written to GRID (room for CB_PLAN_GRID). */
enum { CB_PLAN_GRID = 64 };
static size_t rounds_grid(const struct cb_plan_options *opt, double extra, size_t *grid)
{
	size_t m = 0;

	for (double n = (double)opt->min_rounds; m < CB_PLAN_GRID - 1;) {
		size_t r = (size_t)llround(n);

		if (r > opt->max_rounds)
			r = opt->max_rounds;
		if (m == 0 || grid[m - 1] != r)
			grid[m++] = r;
		if (r == opt->max_rounds)
			break;
		n = fmax(n + 1.0, n * 1.2);
	}
	if (isfinite(extra) && extra >= 1.0) {
		size_t r = (size_t)llround(
		    fmin(fmax(extra, (double)opt->min_rounds), (double)opt->max_rounds));
		grid[m++] = r;
	}
	return m;
}

static double plan_seconds(const struct cb_plan_costs *c, size_t runs, size_t rounds)
{
	if (!c || !(c->round_s >= 0.0) || !(c->start_s >= 0.0))
		return NAN;
	return (double)runs * (c->start_s + (double)rounds * c->round_s);
}

/* A plan's cost for choosing: seconds when known, else rounds with a run's
 * start counted as ten of them. */
static double plan_cost(const struct cb_plan_costs *c, size_t runs, size_t rounds)
{
	double s = plan_seconds(c, runs, rounds);

	return isnan(s) ? (double)runs * ((double)rounds + 10.0) : s;
}

/* The fewest runs at ROUNDS whose analytic P(resolved) reaches the target;
 * 0 when none up to max_runs. BEST keeps the highest P seen (for CANNOT). */
static size_t fewest_runs(const struct cb_plan_model *m, size_t rounds,
                          const struct cb_plan_options *opt, double *p_rep, double *p_bey,
                          double *best)
{
	for (size_t k = 2; k <= opt->max_runs; k++) {
		double r, b;

		if (cb_plan_predict_range(m, k, rounds, &r, &b) != 0)
			return 0;
		if (r + b > *best)
			*best = r + b;
		if (r + b >= opt->target) {
			*p_rep = r, *p_bey = b;
			return k;
		}
	}
	return 0;
}

static size_t more_rounds(const struct cb_plan_options *opt, size_t n)
{
	size_t more = (size_t)llround(fmax((double)n + 1.0, (double)n * 1.25));

	return more > opt->max_rounds ? opt->max_rounds : more;
}

/* The analytic plan (*K, *N) checked by the draws, and grown until they
 * reach the target too: one more run or a quarter more rounds, whichever
 * the analytic prediction favours. False when neither can grow or after
 * twelve steps. */
static bool confirm(const struct cb_plan_model *m, const struct cb_plan_options *opt, size_t *k,
                    size_t *n, double *p_rep, double *p_bey)
{
	for (int step = 0; step < 12; step++) {
		double ra, ba, rb, bb;
		size_t n_more = more_rounds(opt, *n);

		double bar = opt->target;

		if (cb_plan_predict_against(m, *k, *n, bar, p_rep, p_bey) != 0)
			return false;
		if (*p_rep + *p_bey >= bar)
			return true;
		bool can_k = *k<opt->max_runs, can_n = n_more> * n;
		if (!can_k && !can_n)
			return false;
		cb_plan_predict_range(m, *k, n_more, &ra, &ba);
		cb_plan_predict_range(m, *k + 1, *n, &rb, &bb);
		if (can_k && (!can_n || rb + bb > ra + ba))
			(*k)++;
		else
			*n = n_more;
	}
	return false;
}

int cb_plan_solve(const struct cb_plan_model *m, const struct cb_plan_costs *costs,
                  const struct cb_plan_options *options, struct cb_plan_choice *out)
{
	struct cb_plan_options opt;
	struct cb_components comp = {.within = m->within, .between = m->between};
	size_t grid[CB_PLAN_GRID] = {0}, n;
	double best_cost = INFINITY, best_p = -1.0;

	options_or_defaults(options, &opt);
	*out = (struct cb_plan_choice){.status = CB_PLAN_NO_DATA,
	                               .p_reproduced = NAN,
	                               .p_beyond = NAN,
	                               .n_star = NAN,
	                               .seconds = NAN,
	                               .spread = expm1(sqrt(m->between))};
	if (!(cb_plan_se(m, opt.min_rounds) > 0.0) || !(m->between >= 0.0))
		return isnan(m->se_pilot) ? 0 : -1;
	if (costs)
		out->n_star = cb_components_optimal_rounds(&comp, costs->round_s, costs->start_s);
	n = rounds_grid(&opt, out->n_star, grid);
	out->status = CB_PLAN_CANNOT;
	for (size_t i = 0; i < n; i++) {
		double r = NAN, b = NAN;
		size_t k = fewest_runs(m, grid[i], &opt, &r, &b, &best_p);
		double cost = k ? plan_cost(costs, k, grid[i]) : INFINITY;

		/* ties go to n*, the last entry of the grid */
		if (k && (cost < best_cost || (cost == best_cost && i == n - 1))) {
			best_cost = cost;
			*out = (struct cb_plan_choice){.status = CB_PLAN_NEEDS,
			                               .runs = k,
			                               .rounds = grid[i],
			                               .p_reproduced = r,
			                               .p_beyond = b,
			                               .n_star = out->n_star,
			                               .seconds = plan_seconds(costs, k, grid[i]),
			                               .spread = out->spread};
		}
	}
	if (out->status == CB_PLAN_NEEDS &&
	    !confirm(m, &opt, &out->runs, &out->rounds, &out->p_reproduced, &out->p_beyond))
		out->status = CB_PLAN_CANNOT;
	out->seconds = plan_seconds(costs, out->runs, out->rounds);
	if (out->status == CB_PLAN_CANNOT && m->pilot_runs >= 2 && !isnan(m->median_var)) {
		/* at the point estimates? */
		struct cb_plan_model point = *m;
		struct cb_plan_choice at_point;

		point.pilot_runs = 0;
		if (cb_plan_solve(&point, costs, options, &at_point) == 0 &&
		    at_point.status == CB_PLAN_NEEDS) {
			*out = at_point;
			out->status = CB_PLAN_UNSURE;
			return 0;
		}
	}
	if (out->status == CB_PLAN_CANNOT) {
		out->p_reproduced = best_p; /* the best analytic P(resolved) in range */
		out->p_beyond = 0.0;
		out->runs = out->rounds = 0;
		out->seconds = NAN;
	}
	return 0;
}

/* ---- The table ---- */

/* The runs tried for the table: every K up to ten, then steps of about a
 * fifth (the table's rows are many; a plan of 23 runs against one of 24 is
 * not a choice worth its time). Returns how many were written to KS. */
enum { CB_PLAN_KS = 32 };
static size_t table_ks(const struct cb_plan_options *opt, size_t *ks)
{
	size_t m = 0;

	for (size_t k = 2; k <= opt->max_runs && m < CB_PLAN_KS;
	     k = k < 10 ? k + 1 : (size_t)llround(fmax((double)k + 1.0, (double)k * 1.2)))
		ks[m++] = k;
	if (m && ks[m - 1] != opt->max_runs && m < CB_PLAN_KS)
		ks[m++] = opt->max_runs;
	return m;
}

/* NEEDS rows whose P(resolved) reaches the target with K runs of N rounds:
 * by the analytic model (DRAWS false, to search) or by the draws (true, to
 * confirm; each row's IN_PLAN set then). */
static size_t table_count(struct cb_runs_plan *p, size_t k, size_t n, bool draws)
{
	size_t count = 0;

	for (size_t i = 0; i < p->n_rows; i++) {
		struct cb_plan_row *row = &p->rows[i];
		double r, b;
		int rc;

		if (row->choice.status != CB_PLAN_NEEDS)
			continue;
		double bar = p->options.target;

		rc = draws ? cb_plan_predict_against(&row->model, k, n, bar, &r, &b)
		           : cb_plan_predict_range(&row->model, k, n, &r, &b);
		bool in = rc == 0 && r + b >= bar;
		if (draws) {
			row->in_plan = in;
			row->p_plan = rc == 0 ? r + b : NAN;
		}
		count += in;
	}
	return count;
}

/* Runs of N rounds made so far that the plan may count (SEARCH), and the
 * seconds the runs still to make take. */
static double table_seconds(const struct cb_runs_plan *p, const struct cb_plan_search *search,
                            size_t k, size_t n)
{
	size_t made = search && search->rounds == n ? search->runs_made : 0;

	return plan_seconds(&p->costs, k > made ? k - made : 0, n);
}

static bool table_fits(const struct cb_runs_plan *p, const struct cb_plan_search *search, size_t k,
                       size_t n)
{
	double s = table_seconds(p, search, k, n);

	return !(search && search->budget_s > 0.0) || !isfinite(s) || s <= search->budget_s;
}

/* Keep (K, N, COUNT) on P's frontier: the cheapest plan for each number of
 * rows it resolves, every point resolving more than the cheaper ones. */
static void frontier_add(struct cb_runs_plan *p, size_t k, size_t n, size_t count, double cost)
{
	struct cb_plan_point *f = p->frontier;
	size_t m = p->n_frontier;

	if (!count)
		return;
	for (size_t i = 0; i < m; i++)
		if (f[i].rows >= count && f[i].cost <= cost)
			return; /* dominated */
	size_t w = 0;
	for (size_t i = 0; i < m; i++)
		if (!(count >= f[i].rows && cost <= f[i].cost))
			f[w++] = f[i];
	if (w < CB_PLAN_FRONTIER) {
		f[w++] = (struct cb_plan_point){k, n, count, cost, plan_seconds(&p->costs, k, n)};
	}
	p->n_frontier = w;
	/* by cost, then rows */
	for (size_t i = 1; i < w; i++)
		for (size_t j = i; j > 0 && f[j].cost < f[j - 1].cost; j--) {
			struct cb_plan_point t = f[j];
			f[j] = f[j - 1];
			f[j - 1] = t;
		}
}

/* The plan the draws confirm: of the analytic search's best (P->runs,
 * P->rounds) and the rows' own plans that fit SEARCH, most costly first
 * (within the budget, more measuring resolves more), at most
 * CB_PLAN_CANDIDATES, the one whose draws resolve the most rows, the
 * cheapest of those. The analytic model is only approximate: a row's own
 * plan is one its draws confirmed. */
enum { CB_PLAN_CANDIDATES = 4 };
static void confirm_table(struct cb_runs_plan *p, const struct cb_plan_search *search)
{
	size_t ks[CB_PLAN_CANDIDATES], ns[CB_PLAN_CANDIDATES], m = 0;
	double costs[CB_PLAN_CANDIDATES];

	if (p->runs) {
		ks[m] = p->runs, ns[m] = p->rounds;
		costs[m++] = INFINITY; /* first */
	}
	for (size_t i = 0; i < p->n_rows; i++) {
		const struct cb_plan_choice *c = &p->rows[i].choice;
		size_t made = search && search->rounds == c->rounds ? search->runs_made : 0;
		bool seen = false;

		if (c->status != CB_PLAN_NEEDS || c->runs <= made ||
		    !table_fits(p, search, c->runs, c->rounds) ||
		    (search && search->keep_rounds && c->rounds != search->rounds))
			continue;
		for (size_t j = 0; j < m; j++)
			seen = seen || (ks[j] == c->runs && ns[j] == c->rounds);
		if (seen)
			continue;
		double cost = plan_cost(&p->costs, c->runs, c->rounds);
		size_t at = m < CB_PLAN_CANDIDATES ? m++ : m - 1;
		if (at == m - 1 && m == CB_PLAN_CANDIDATES && costs[at] >= cost)
			continue; /* full: keep the costlier */
		ks[at] = c->runs, ns[at] = c->rounds, costs[at] = cost;
		/* by cost, the costliest first */
		for (size_t j = at; j > 0 && costs[j] > costs[j - 1]; j--) {
			size_t tk = ks[j], tn = ns[j];
			double tc = costs[j];
			ks[j] = ks[j - 1], ns[j] = ns[j - 1], costs[j] = costs[j - 1];
			ks[j - 1] = tk, ns[j - 1] = tn, costs[j - 1] = tc;
		}
	}
	size_t best_count = 0, best_k = 0, best_n = 0, best_j = 0;
	double best = INFINITY;
	size_t last = m; /* the candidate the rows' in_plan were last set for */
	for (size_t j = 0; j < m; j++) {
		size_t count = table_count(p, ks[j], ns[j], true);

		last = j;
		double cost = table_seconds(p, search, ks[j], ns[j]);

		if (isnan(cost))
			cost = plan_cost(&p->costs, ks[j], ns[j]);
		if (count > best_count || (count && count == best_count && cost < best))
			best_count = count, best = cost, best_k = ks[j], best_n = ns[j], best_j = j;
	}
	p->runs = p->rounds = p->covered = 0;
	p->seconds = p->p_min = NAN;
	if (!best_count)
		return;
	p->runs = best_k, p->rounds = best_n;
	/* the rows' in_plan are the last candidate's: drawn again only if it
	 * was not the best */
	p->covered = best_j == last ? best_count : table_count(p, best_k, best_n, true);
	p->p_min = 1.0;
	for (size_t i = 0; i < p->n_rows; i++)
		if (p->rows[i].in_plan)
			p->p_min = fmin(p->p_min, p->rows[i].p_plan);
	p->seconds = table_seconds(p, search, p->runs, p->rounds);
}

/* Rows a bet counts: the open rows a plan could resolve (NEEDS, UNSURE)
 * and, for the runs of --runs auto (SEARCH->all_rows), the rows the current
 * set resolved, which the next set judged must resolve again. */
static bool counted(const struct cb_plan_row *row, const struct cb_plan_search *search)
{
	enum cb_plan_status s = row->choice.status;

	return s == CB_PLAN_NEEDS || s == CB_PLAN_UNSURE ||
	       (search->all_rows && s == CB_PLAN_RESOLVED);
}

/* The rows K runs of N rounds resolve in expectation (plan_runs_predict.h). */
static double table_expected(const struct cb_runs_plan *p, const struct cb_plan_search *search,
                             size_t k, size_t n)
{
	double sum = 0.0;

	for (size_t i = 0; i < p->n_rows; i++)
		if (counted(&p->rows[i], search)) {
			double e = cb_plan_predict_expected(&p->rows[i].model, k, n);

			sum += e >= 0.0 ? e : 0.0;
		}
	return sum;
}

/* The draws at the chosen plan: the NEEDS rows it resolves with P >=
 * target (their in_plan), and the lowest P of those. */
static void table_promise(struct cb_runs_plan *p)
{
	p->covered = table_count(p, p->runs, p->rounds, true);
	p->p_min = 1.0;
	for (size_t i = 0; i < p->n_rows; i++)
		if (p->rows[i].in_plan)
			p->p_min = fmin(p->p_min, p->rows[i].p_plan);
	if (!p->covered)
		p->p_min = NAN;
}

/* A bet within a budget: of the (K, n) on the grid that fit SEARCH, the
 * cheapest whose expected rows resolved are within 2% (at most half a row)
 * of the most any of them reaches, if that is at least half a row. */
static void table_bet(struct cb_runs_plan *p, const struct cb_plan_search *search,
                      const size_t *grid, size_t n, const size_t *ks, size_t n_ks)
{
	struct bet {
		size_t k, n;
		double e, cost;
	} tried[CB_PLAN_GRID * CB_PLAN_KS];
	size_t m = 0;
	double most = 0.0, best = INFINITY;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n_ks; j++) {
			size_t made = search->rounds == grid[i] ? search->runs_made : 0;

			if (ks[j] <= made)
				continue;
			if (!table_fits(p, search, ks[j], grid[i]))
				break; /* more runs cost more */
			double e = table_expected(p, search, ks[j], grid[i]);
			double cost = table_seconds(p, search, ks[j], grid[i]);
			if (isnan(cost))
				cost = plan_cost(&p->costs, ks[j], grid[i]);
			frontier_add(p, ks[j], grid[i], (size_t)llround(e), cost);
			tried[m++] = (struct bet){ks[j], grid[i], e, cost};
			most = fmax(most, e);
		}
	if (most < 0.5)
		return;
	double slack = fmin(0.5, 0.02 * most);
	for (size_t i = 0; i < m; i++)
		if (tried[i].e >= most - slack && tried[i].cost < best) {
			best = tried[i].cost;
			p->runs = tried[i].k, p->rounds = tried[i].n, p->expected = tried[i].e;
		}
	p->seconds = table_seconds(p, search, p->runs, p->rounds);
	table_promise(p);
}

/* The table's plan. With no budget, a promise: of the (K, n) on the grid,
 * the one whose runs resolve the most NEEDS rows with P >= target, the
 * cheapest of those; searched by the analytic model, then confirmed by the
 * draws (the rows it resolves, COVERED, are the draws' count). Within a
 * budget, where a promise for many rows rarely fits, a bet (table_bet).
 * Runs already made at SEARCH's rounds count towards K and cost nothing; K
 * must exceed them. */
static void table_plan_within(struct cb_runs_plan *p, const struct cb_plan_search *search)
{
	size_t grid[CB_PLAN_GRID] = {0}, n = rounds_grid(&p->options, NAN, grid);
	size_t ks[CB_PLAN_KS], n_ks = table_ks(&p->options, ks), best_count = 0;
	double best = INFINITY;

	p->runs = p->rounds = p->covered = 0;
	p->seconds = p->p_min = p->expected = NAN;
	p->n_frontier = 0;
	for (size_t i = 0; i < p->n_rows; i++)
		p->rows[i].in_plan = false, p->rows[i].p_plan = NAN;
	if (!p->status[CB_PLAN_NEEDS] && !(search->budget_s > 0.0 && p->status[CB_PLAN_UNSURE]))
		return;
	if (search->keep_rounds && search->rounds) {
		grid[0] = search->rounds;
		n = 1;
	} else if (search->runs_made && search->rounds) {
		/* the set's own rounds are a candidate, even off the grid */
		bool on = false;
		for (size_t i = 0; i < n; i++)
			on = on || grid[i] == search->rounds;
		if (!on && n < CB_PLAN_GRID)
			grid[n++] = search->rounds;
	}
	if (search->budget_s > 0.0) {
		table_bet(p, search, grid, n, ks, n_ks);
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n_ks; j++) {
			size_t made = search->rounds == grid[i] ? search->runs_made : 0;

			if (ks[j] <= made)
				continue;
			size_t count = table_count(p, ks[j], grid[i], false);
			double cost = table_seconds(p, search, ks[j], grid[i]);
			if (isnan(cost))
				cost = plan_cost(&p->costs, ks[j], grid[i]);
			frontier_add(p, ks[j], grid[i], count, cost);
			if (count > best_count || (count && count == best_count && cost < best)) {
				best_count = count;
				best = cost;
				p->runs = ks[j];
				p->rounds = grid[i];
			}
		}
	confirm_table(p, search);
}

static void table_plan(struct cb_runs_plan *p)
{
	struct cb_plan_search s = {.budget_s = p->options.budget_s};

	table_plan_within(p, &s);
}

/* ---- Each row's rounds, on the log scale of its measure ---- */

/* Cell S's measure in round J on the log scale (c/B or MB/s), or NaN. */
static double cell_log(const struct cb_cell_summary *s, size_t j, bool cycles)
{
	double x = cycles ? s->round_bpc[j] : s->round_mbs[j];

	return x > 0.0 && isfinite(x) ? log(x) : NAN;
}

static const struct cb_cell_summary *summary_of(const struct cb_compare *c, size_t r,
                                                const char *key)
{
	long i = cb_results_find_cell(c->files[r], key);

	return i < 0 ? NULL : &c->runs[r]->summary->cells[i];
}

static const struct cb_derived *derived_of(const struct cb_compare *c, size_t r, const char *key)
{
	for (size_t i = 0; i < c->runs[r]->n_derived; i++)
		if (strcmp(c->runs[r]->derived[i].key, key) == 0 && c->runs[r]->derived[i].ok)
			return &c->runs[r]->derived[i];
	return NULL;
}

/* A derived metric's log-ratio in round J: the mean over its pairs (the
 * geometric mean derive.h pools them with), NaN when a pair has no value. */
/* Metric M's per-round log-ratio in run R on the measure it was derived on
 * (measure.h) into Y (the summary's rounds; NaN where a pair has no
 * sample). 0, or -1 when memory runs out. */
static int derived_logs(const struct cb_compare *c, size_t r, const struct cb_derived *m, double *y)
{
	const struct cb_analysis *a = c->runs[r];
	size_t rounds = a->summary->n_rounds;
	double *num = malloc((rounds ? rounds : 1) * sizeof *num);
	double *den = malloc((rounds ? rounds : 1) * sizeof *den);
	int rc = -1;

	if (!num || !den)
		goto done;
	for (size_t j = 0; j < rounds; j++)
		y[j] = 0.0;
	for (size_t p = 0; p < m->n_pairs; p++) {
		if (cb_measure_rounds(a, &a->summary->cells[m->num_cells[p]], m->measure, num) !=
		        0 ||
		    cb_measure_rounds(a, &a->summary->cells[m->den_cells[p]], m->measure, den) != 0)
			goto done;
		for (size_t j = 0; j < rounds; j++)
			y[j] += num[j] > 0.0 && den[j] > 0.0 && isfinite(num[j] / den[j])
			            ? log(num[j] / den[j]) / (double)m->n_pairs
			            : NAN;
	}
	if (!m->n_pairs)
		for (size_t j = 0; j < rounds; j++)
			y[j] = NAN;
	rc = 0;
done:
	free(num);
	free(den);
	return rc;
}

/* An engine row's cells: the cell rows of its label present in every run,
 * in compare's order (as compare pools them). */
static size_t engine_cells(const struct cb_compare *c, const struct cb_compare_row *row,
                           const struct cb_compare_row **cells)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].kind == CB_ROW_CELL && c->rows[i].present == c->k &&
		    strcmp(c->rows[i].cell->label, row->key) == 0)
			cells[n++] = &c->rows[i];
	return n;
}

/* Run R's rounds of ROW into Y (room for the run's rounds); how many. */
static size_t row_rounds(const struct cb_compare *c, const struct cb_compare_row *row, size_t r,
                         const struct cb_compare_row *const *cells, const double *w, size_t n_cells,
                         double *y)
{
	size_t rounds = c->runs[r]->summary->n_rounds;
	bool cycles = row->measure != CB_MEASURE_MBS;
	const struct cb_cell_summary *s = NULL;
	const struct cb_derived *m = NULL;

	if (row->kind == CB_ROW_CELL && !(s = summary_of(c, r, row->key)))
		return 0;
	if (row->kind == CB_ROW_DERIVED && !(m = derived_of(c, r, row->key)))
		return 0;
	if (m)
		return derived_logs(c, r, m, y) == 0 ? rounds : 0;
	for (size_t j = 0; j < rounds; j++) {
		if (s)
			y[j] = cell_log(s, j, cycles);
		else {
			y[j] = 0.0;
			for (size_t i = 0; i < n_cells && !isnan(y[j]); i++) {
				const struct cb_cell_summary *e = summary_of(c, r, cells[i]->key);

				y[j] = e ? y[j] + w[i] * cell_log(e, j, cycles) : NAN;
			}
		}
	}
	return rounds;
}

void cb_plan_model_uncertainty(struct cb_plan_model *m, const double *const *y, const size_t *n,
                               size_t k)
{
	double var, noise, rounds = 0.0;
	size_t runs;

	if (cb_components_medians_spread(y, n, k, m->scale, &var, &noise, &runs) != 0)
		return;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < n[i]; j++)
			rounds += isfinite(y[i][j]);
	m->between = fmax(0.0, var - noise);
	m->pilot_runs = runs;
	m->median_var = var;
	m->median_noise = noise;
	m->scale_df = 0.37 * (rounds - (double)runs);
}

/* ROW's components and model from C's runs. */
static int model_row(const struct cb_compare *c, const struct cb_compare_row *row,
                     struct cb_plan_row *out)
{
	size_t k = c->k, n_cells = 0, max_rounds = 1;
	const struct cb_compare_row **cells = calloc(c->n_rows + 1, sizeof *cells);
	double **y = calloc(k, sizeof *y), *w = calloc(c->n_rows + 1, sizeof *w);
	size_t *n = calloc(k, sizeof *n);
	double se2 = 0.0, inv_n = 0.0, level = NAN;
	size_t with_se = 0;
	int rc = -1;

	out->model = (struct cb_plan_model){.between = NAN,
	                                    .within = NAN,
	                                    .scale = NAN,
	                                    .se_pilot = NAN,
	                                    .pilot_rounds = NAN,
	                                    .level = NAN,
	                                    .delta = row->delta,
	                                    .alpha = c->options.repro.alpha,
	                                    .family = c->family,
	                                    .median_var = NAN,
	                                    .median_noise = NAN,
	                                    .scale_df = NAN};
	if (!cells || !y || !w || !n)
		goto done;
	if (row->kind == CB_ROW_ENGINE) {
		n_cells = engine_cells(c, row, cells);
		cb_compare_pooled_weights(c, cells, n_cells, row->measure != CB_MEASURE_MBS, w);
	}
	for (size_t r = 0; r < k; r++)
		if (c->runs[r]->summary->n_rounds > max_rounds)
			max_rounds = c->runs[r]->summary->n_rounds;
	for (size_t r = 0; r < k; r++) {
		const struct cb_compare_value *v = &row->runs[r];
		double se = cb_repro_log_se(&v->e, v->level);

		if (!(y[r] = malloc(max_rounds * sizeof **y)))
			goto done;
		n[r] = v->present ? row_rounds(c, row, r, cells, w, n_cells, y[r]) : 0;
		if (v->present && se > 0.0 && isfinite(se)) {
			se2 += se * se;
			inv_n += 1.0 / (double)v->n;
			level = isnan(level) ? v->level : level;
			with_se++;
		}
	}
	rc = 0;
	if (cb_components_estimate((const double *const *)y, n, k, &out->components, NULL, 0) !=
	        0 ||
	    !with_se)
		goto done;
	out->model.between = out->components.between;
	out->model.within = out->components.within;
	out->model.scale = cb_components_robust_within((const double *const *)y, n, k);
	cb_plan_model_uncertainty(&out->model, (const double *const *)y, n, k);
	out->model.se_pilot = sqrt(se2 / (double)with_se);
	out->model.pilot_rounds = (double)with_se / inv_n;
	out->model.level = level;
done:
	for (size_t r = 0; y && r < k; r++)
		free(y[r]);
	free(y);
	free(n);
	free(w);
	free(cells);
	return rc;
}

/* ---- Costs ---- */

/* A file's measured rounds, what they cost per round and what the rest of
 * the run cost (NaN when the file does not say), by the clock the run
 * counted its time on (plan_runs.h, "Costs"). */
static void file_costs(const struct cb_results *f, double *rounds, double *round_s, double *start_s,
                       bool *virtual_clock)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	double measured_ns = 0.0, warmup_ns = 0.0;
	bool on_virtual = false;

	for (size_t i = 0; i < f->n_trials; i++) {
		const struct cb_result_trial *t = &f->trials[i];
		const char *clock = cb_results_trial_clock(f, t);
		double ns = t->valid && t->ns > 0.0 ? t->ns : 0.0;

		on_virtual = on_virtual || (clock && strcmp(clock, "virtual") == 0);
		if (t->warmup) {
			warmup_ns += ns;
			continue;
		}
		lo = t->round < lo ? t->round : lo;
		hi = t->round > hi ? t->round : hi;
		measured_ns += ns;
	}
	*virtual_clock = *virtual_clock || on_virtual;
	*rounds = lo <= hi ? (double)(hi - lo) + 1.0 : 0.0;
	*round_s = *start_s = NAN;
	if (!(*rounds > 0.0))
		return;
	if (on_virtual) { /* the run counted its valid trials' virtual time */
		*round_s = measured_ns * 1e-9 / *rounds;
		*start_s = warmup_ns * 1e-9;
		return;
	}
	json_t *e = f->end ? json_object_get(f->end, "elapsed_s") : NULL;
	json_t *r = f->end ? json_object_get(f->end, "rounds_s") : NULL;
	double elapsed_s = json_is_number(e) ? json_number_value(e) : NAN;
	/* the measured rounds' wall time, harness and all; files before it
	 * say only the trials' */
	double rounds_wall = json_is_number(r) ? json_number_value(r) : measured_ns * 1e-9;

	*round_s = rounds_wall / *rounds;
	*start_s = elapsed_s > 0.0 ? fmax(0.0, elapsed_s - rounds_wall) : NAN;
}

int cb_plan_costs_of(struct cb_results *const *files, size_t k, struct cb_plan_costs *out)
{
	double round_s = 0.0, start_s = 0.0, rounds_made = 0.0;
	size_t used = 0;

	*out = (struct cb_plan_costs){NAN, NAN, false};
	for (size_t r = 0; r < k; r++) {
		double rounds, per_round, start;

		file_costs(files[r], &rounds, &per_round, &start, &out->virtual_clock);
		if (!(rounds > 0.0) || !(start >= 0.0) || !(per_round >= 0.0))
			continue;
		round_s += per_round * rounds; /* per round over all the rounds made */
		rounds_made += rounds;
		start_s += start;
		used++;
	}
	if (!used)
		return -1;
	out->round_s = round_s / rounds_made;
	out->start_s = start_s / (double)used;
	return 0;
}

size_t cb_plan_pilot_runs(struct cb_results *const *files, size_t k)
{
	double first = 0.0, rounds, round_s, start_s;
	bool virtual_clock = false;
	size_t n = 0;

	for (size_t i = 0; i < k; i++) {
		file_costs(files[i], &rounds, &round_s, &start_s, &virtual_clock);
		if (i == 0)
			first = rounds;
		if (rounds != first)
			break;
		n++;
	}
	return n;
}

double cb_plan_run_seconds(const struct cb_plan_costs *c, size_t rounds)
{
	return c->start_s + (double)rounds * c->round_s;
}

/* The costs a decision plans with: read from OPT's cost_files first files
 * (0: all K), times its cost_factor. */
static void decision_costs(struct cb_results *const *files, size_t k,
                           const struct cb_plan_options *opt, struct cb_plan_costs *out)
{
	size_t n = opt->cost_files && opt->cost_files < k ? opt->cost_files : k;
	double factor = opt->cost_factor > 0.0 ? opt->cost_factor : 1.0;

	cb_plan_costs_of(files, n, out);
	out->round_s *= factor;
	out->start_s *= factor;
}

/* ---- The whole table ---- */

static int plan_rows(struct cb_runs_plan *p, const struct cb_compare_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct cb_plan_row *out = &p->rows[p->n_rows++];

		out->row = &rows[i];
		out->choice = (struct cb_plan_choice){.status = CB_PLAN_RESOLVED,
		                                      .p_reproduced = NAN,
		                                      .p_beyond = NAN,
		                                      .n_star = NAN,
		                                      .seconds = NAN,
		                                      .spread = NAN};
		if (model_row(p->compare, &rows[i], out) != 0)
			return -1;
		out->choice.spread = expm1(sqrt(out->model.between));
		if (rows[i].repro.verdict == CB_REPRO_NOT_RESOLVED &&
		    cb_plan_solve(&out->model, &p->costs, &p->options, &out->choice) != 0)
			out->choice.status = CB_PLAN_NO_DATA;
		p->status[out->choice.status]++;
	}
	return 0;
}

struct cb_runs_plan *cb_runs_plan_build(const struct cb_compare *c,
                                        const struct cb_plan_options *opt, char *err,
                                        size_t err_len)
{
	struct cb_runs_plan *p = calloc(1, sizeof *p);

	if (!p || !(p->rows = calloc(c->n_rows + c->n_engine_rows + 1, sizeof *p->rows))) {
		free(p);
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	p->compare = c;
	options_or_defaults(opt, &p->options);
	decision_costs(c->files, c->k, &p->options, &p->costs);
	if (plan_rows(p, c->rows, c->n_rows) != 0 ||
	    plan_rows(p, c->engine_rows, c->n_engine_rows) != 0) {
		cb_runs_plan_free(p);
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	table_plan(p);
	return p;
}

void cb_runs_plan_free(struct cb_runs_plan *p)
{
	if (!p)
		return;
	free(p->rows);
	free(p);
}

/* ---- After each run of --runs auto ---- */

const char *cb_plan_decision_name(enum cb_plan_decision d)
{
	static const char *const names[] = {"continue", "resolved", "cannot", "budget"};

	return names[d];
}

static const struct cb_compare_row *find_row(const struct cb_compare *c,
                                             const struct cb_compare_row *like)
{
	const struct cb_compare_row *rows = like->kind == CB_ROW_ENGINE ? c->engine_rows : c->rows;
	size_t n = like->kind == CB_ROW_ENGINE ? c->n_engine_rows : c->n_rows;

	for (size_t i = 0; i < n; i++)
		if (rows[i].kind == like->kind && strcmp(rows[i].key, like->key) == 0)
			return &rows[i];
	return NULL;
}

/* Keep planned only the rows SET (NULL: the plan's own compare) leaves not
 * resolved, planning those the pilot alone had resolved. */
static void restrict_to(struct cb_runs_plan *p, const struct cb_compare *set)
{
	for (size_t s = 0; s < CB_PLAN_STATUSES; s++)
		p->status[s] = 0;
	for (size_t i = 0; i < p->n_rows; i++) {
		struct cb_plan_row *row = &p->rows[i];
		const struct cb_compare_row *in_set = set ? find_row(set, row->row) : row->row;
		bool open = in_set && in_set->repro.verdict == CB_REPRO_NOT_RESOLVED;

		if (!open)
			row->choice.status = CB_PLAN_RESOLVED;
		else if (row->choice.status == CB_PLAN_RESOLVED &&
		         cb_plan_solve(&row->model, &p->costs, &p->options, &row->choice) != 0)
			row->choice.status = CB_PLAN_NO_DATA;
		p->status[row->choice.status]++;
	}
}

void cb_runs_plan_restrict(struct cb_runs_plan *p, const struct cb_compare *set)
{
	restrict_to(p, set);
	table_plan(p);
}

size_t cb_plan_current_set(struct cb_results *const *files, size_t k, size_t *rounds)
{
	double last = 0.0, n, round_s, start_s;
	bool virtual_clock = false;
	size_t tail = 0;

	for (size_t i = k; i-- > 0;) {
		file_costs(files[i], &n, &round_s, &start_s, &virtual_clock);
		if (i == k - 1)
			last = n;
		if (n != last)
			break;
		tail++;
	}
	*rounds = (size_t)last;
	return tail;
}

static size_t count_open(const struct cb_compare *c)
{
	return c->cells[CB_REPRO_NOT_RESOLVED] + c->derived[CB_REPRO_NOT_RESOLVED] +
	       c->engines[CB_REPRO_NOT_RESOLVED];
}

static void say_plan(char *buf, size_t len, const struct cb_runs_plan *p, size_t more)
{
	snprintf(buf, len,
	         "%zu runs of %zu rounds resolve %zu of the %zu rows a plan can (P >= %.0f%%); "
	         "%zu more",
	         p->runs, p->rounds, p->covered, p->status[CB_PLAN_NEEDS],
	         100.0 * p->options.target, more);
}

/* No row has a plan, but some would at the pilot's estimates: one more
 * run at the pilot's rounds, which also joins its set (no budget: with one,
 * decide_bet weighs such rows by their expectation). */
static void more_pilot(const struct cb_runs_plan *p, size_t set_rounds, struct cb_plan_step *out)
{
	out->rounds = set_rounds;
	out->runs_planned = out->runs_in_set + 1;
	out->seconds_left = plan_seconds(&p->costs, 1, set_rounds);
	out->decision = CB_PLAN_CONTINUE;
	snprintf(out->why, sizeof out->why,
	         "%zu rows have a plan only at the pilot's estimates, none across their "
	         "uncertainty: one more pilot run of %zu rounds (about %.0f s)",
	         p->status[CB_PLAN_UNSURE], set_rounds, out->seconds_left);
}

static void cannot_any(const struct cb_runs_plan *p, struct cb_plan_step *out)
{
	out->decision = CB_PLAN_STOP_CANNOT;
	snprintf(out->why, sizeof out->why,
	         "%zu rows not resolved, none of which a plan within %zu runs of up to %zu "
	         "rounds resolves",
	         out->unresolved, p->options.max_runs, p->options.max_rounds);
}

/* The next set, or the current one grown, to P's plan. */
static void go_on(const struct cb_runs_plan *p, size_t set_rounds, struct cb_plan_step *out)
{
	if (p->rounds != set_rounds)
		out->runs_in_set = 0; /* a new set */
	out->rounds = p->rounds;
	out->runs_planned = p->runs;
	out->seconds_left = p->seconds;
	out->decision = CB_PLAN_CONTINUE;
}

/* The share of the budget left a new set may be planned to take: a set cut
 * short by the budget is judged on fewer runs than it was chosen for. */
#define CB_PLAN_BUDGET_SHARE 0.9

/* Within a budget: the bet (table_bet) over every row the next set judged
 * must resolve, those the current set resolved included, so that a new set
 * of other rounds is taken only when it is expected to resolve more than
 * growing this one (a set of two pilot runs resolves a few rows; a set of
 * many more rounds is likely to resolve those and more). It stops when no
 * runs that fit are expected to resolve half a row more than the set has. */
static void decide_bet(struct cb_runs_plan *p, size_t set_rounds, double budget_s, double elapsed_s,
                       struct cb_plan_step *out)
{
	double left = budget_s - elapsed_s;
	struct cb_plan_search search = {fmax(CB_PLAN_BUDGET_SHARE * left, 1e-9), out->runs_in_set,
	                                set_rounds, false, true};
	size_t resolved = p->status[CB_PLAN_RESOLVED];

	if (!p->status[CB_PLAN_NEEDS] && !p->status[CB_PLAN_UNSURE]) {
		cannot_any(p, out);
		return;
	}
	table_plan_within(p, &search);
	if (!p->runs || !(p->expected >= (double)resolved + 0.5)) {
		out->decision = CB_PLAN_STOP_BUDGET;
		snprintf(out->why, sizeof out->why,
		         "no runs that fit the %.0f s of the budget left are expected to resolve "
		         "more rows than the %zu resolved",
		         fmax(left, 0.0), resolved);
		return;
	}
	go_on(p, set_rounds, out);
	snprintf(out->why, sizeof out->why,
	         "%zu runs of %zu rounds resolve about %.1f of the %zu rows in expectation (%zu "
	         "with P >= %.0f%%); %zu more (about %.0f s)",
	         p->runs, p->rounds, p->expected, p->n_rows, p->covered, 100.0 * p->options.target,
	         p->runs - out->runs_in_set, out->seconds_left);
}

/* Given the plan P restricted to the open rows: go on, or why not. With no
 * budget, the promise (table_plan_within): a set that resolves rows grows,
 * only the pilot's rounds are left. */
static void decide(struct cb_runs_plan *p, size_t set_rounds, double budget_s, double elapsed_s,
                   struct cb_plan_step *out)
{
	struct cb_plan_search search = {0.0, out->runs_in_set, set_rounds,
	                                out->runs_in_set >= 2 && out->unresolved < p->n_rows,
	                                false};
	char words[200];

	out->cannot = p->status[CB_PLAN_CANNOT] + p->status[CB_PLAN_NO_DATA];
	if (budget_s > 0.0) {
		decide_bet(p, set_rounds, budget_s, elapsed_s, out);
		return;
	}
	if (!p->status[CB_PLAN_NEEDS] && p->status[CB_PLAN_UNSURE]) {
		more_pilot(p, set_rounds, out);
		return;
	}
	if (!p->status[CB_PLAN_NEEDS]) {
		cannot_any(p, out);
		return;
	}
	table_plan_within(p, &search);
	if (!p->runs && p->status[CB_PLAN_UNSURE]) {
		more_pilot(p, set_rounds, out);
		return;
	}
	if (!p->runs) {
		out->decision = CB_PLAN_STOP_CANNOT;
		snprintf(out->why, sizeof out->why,
		         "no plan within %zu runs of up to %zu rounds resolves any of the %zu open "
		         "rows",
		         p->options.max_runs, p->options.max_rounds, out->unresolved);
		return;
	}
	go_on(p, set_rounds, out);
	say_plan(words, sizeof words, p, p->runs - out->runs_in_set);
	snprintf(out->why, sizeof out->why, "%s (about %.0f s)", words, out->seconds_left);
}

/* Carry out PLAN's set: its runs left, if they fit (true); false with
 * MISS saying by how much they do not. */
static bool carry_on(struct cb_results *const *files, size_t k,
                     const struct cb_plan_commitment *plan, const struct cb_plan_options *opt,
                     double budget_s, double elapsed_s, struct cb_plan_step *out, char *miss,
                     size_t miss_len)
{
	struct cb_plan_costs costs;
	size_t more = plan->runs - out->runs_in_set;
	double seconds;

	decision_costs(files, k, opt, &costs);
	seconds = plan_seconds(&costs, more, plan->rounds);
	if (!cb_budget_fits(budget_s, elapsed_s, seconds)) {
		snprintf(miss, miss_len,
		         "%zu more runs of %zu rounds would need about %.0f s, %.0f s of the "
		         "budget left",
		         more, plan->rounds, seconds, budget_s - elapsed_s);
		return false;
	}
	out->rounds = plan->rounds;
	out->runs_planned = plan->runs;
	out->seconds_left = seconds;
	out->decision = CB_PLAN_CONTINUE;
	snprintf(out->why, sizeof out->why,
	         "carrying out the plan: %zu more runs of %zu rounds (about %.0f s)", more,
	         plan->rounds, seconds);
	return true;
}

int cb_plan_runs_decide(struct cb_results *const *files, size_t k,
                        const struct cb_compare_options *copt, const struct cb_plan_options *popt,
                        const struct cb_plan_commitment *plan, double budget_s, double elapsed_s,
                        struct cb_plan_step *out, char *err, size_t err_len)
{
	struct cb_compare *all = NULL, *set = NULL;
	struct cb_runs_plan *p = NULL;
	size_t set_rounds;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->seconds_left = NAN;
	if (k == 0) {
		cb_errorf(err, err_len, "no run to plan from");
		return -1;
	}
	out->runs_in_set = cb_plan_current_set(files, k, &set_rounds);
	out->rounds = set_rounds;
	if (k < 2) {
		out->decision = CB_PLAN_CONTINUE;
		snprintf(out->why, sizeof out->why, "a pilot needs two runs");
		return 0;
	}
	if (cb_compare_build(files, k, copt, &all, err, err_len) != 0)
		goto done;
	if (out->runs_in_set >= 2 && out->runs_in_set < k &&
	    cb_compare_build(files + (k - out->runs_in_set), out->runs_in_set, copt, &set, err,
	                     err_len) != 0)
		goto done;
	const struct cb_compare *judged = set ? set : out->runs_in_set >= 2 ? all : NULL;
	out->unresolved = count_open(judged ? judged : all);
	rc = 0;
	if (judged && out->unresolved == 0) {
		out->decision = CB_PLAN_STOP_RESOLVED;
		snprintf(out->why, sizeof out->why, "every row resolved by %zu runs of %zu rounds",
		         out->runs_in_set, set_rounds);
		goto done;
	}
	struct cb_plan_options opt;
	char miss[200] = "";

	options_or_defaults(popt, &opt);
	if (plan && plan->runs > out->runs_in_set && plan->rounds == set_rounds &&
	    out->runs_in_set < k &&
	    carry_on(files, k, plan, &opt, budget_s, elapsed_s, out, miss, sizeof miss))
		goto done;
	/* No plan, or its set no longer fits: choose again among the plans
	 * that fit what is left, the runs made counted at their rounds. */
	rc = -1;
	if (!(p = cb_runs_plan_build(all, &opt, err, err_len)))
		goto done;
	restrict_to(p, judged);
	decide(p, set_rounds, budget_s, elapsed_s, out);
	if (miss[0]) {
		char then[sizeof out->why];

		memcpy(then, out->why, sizeof then);
		snprintf(out->why, sizeof out->why, "re-planned (%.180s): %.300s", miss, then);
	}
	rc = 0;
done:
	cb_runs_plan_free(p);
	cb_compare_free(set);
	cb_compare_free(all);
	return rc;
}
