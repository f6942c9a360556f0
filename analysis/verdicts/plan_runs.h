/* plan_runs.h: what it would take for compare to resolve a row.
 *
 * More rounds narrow each run's interval; they do not reduce the variation
 * between runs (another process, layout, clock). From a pilot of two or more
 * runs (compare.h) this module estimates, per row that compare leaves not
 * resolved, the within-run and between-run variance components on the log
 * scale of the measure compare judged (components.h), and finds the runs and
 * rounds per run with which compare's own rule (repro.h) would then resolve
 * the row, with probability at least `target`:
 *
 *   A fresh set of K runs of n rounds each. Run i's estimate is
 *   y_i = mu + b_i + u_i, b_i ~ N(0, sigma_b^2) its run offset, u_i the
 *   median's noise, whose standard error se(n) is the one compare will read
 *   from the run's interval: the pilot's, scaled from the pilot's rounds to n
 *   by the exact median interval's width on a normal sample of n. Every pair
 *   of runs has the same standard error s = sqrt(2) se(n), so compare's row
 *   verdict depends on the largest pair difference alone, the range R of the
 *   y_i, R / sqrt(sigma_b^2 + se(n)^2) being the range of K standard normals:
 *
 *     reproduced        R < m - z(1 - alpha) s        (every pair's TOST)
 *     non-reproducible  R > m + z(1 - alpha / (2 P F)) s
 *                       (Bonferroni over the P = K(K-1)/2 pairs, as repro.c;
 *                       F the rows of the table's family: Bonferroni over F
 *                       bounds compare's Benjamini-Hochberg from the safe
 *                       side, so a plan never counts on a call the family
 *                       adjustment would withdraw)
 *     not resolved      otherwise
 *
 *   with m = log(1 + delta). "Contradictory" is left out (it needs runs
 *   significant on both sides of 1; counting it would only add resolutions).
 *   This range model prunes the search. It is only approximate (a run's
 *   exact interval is wider than its median's spread, and its width varies
 *   from run to run), so a plan is confirmed by cb_plan_predict: 2000 sets
 *   drawn from the model (each run's median and exact interval from order
 *   statistics of normal rounds of the robust within-run spread, around its
 *   own N(0, sigma_b^2) offset) judged by cb_repro_compare itself, seeded by
 *   (K, n). The within-run spread is a pooled MAD and sigma_b^2 is read from
 *   the run medians (components.h): what compare's medians see.
 *
 * The pilot's uncertainty. Three runs of ten rounds cannot tell a
 * between-run spread of 0.3% from 1.5%: a plan taken at the point estimates
 * resolves far fewer rows than its target. So a plan must reach the target
 * at each of eleven quantiles (0.05, 0.1, 0.2, ..., 0.9, 0.95) of the
 * components' sampling distribution given the pilot (a flat prior on the
 * log of each variance, the usual reference prior):
 *
 *   scale_q^2  = scale^2 df_w / chi^2_0.1(df_w)   (its 90% upper bound)
 *   E_q        = median_var (k - 1) / chi^2_q(k - 1)
 *   sigma_b,q^2 = max(0, E_q - median_noise scale_q^2 / scale^2)
 *
 * df_w = 0.37 (N - k), N the pilot's rounds: the MAD's efficiency at the
 * normal (37%) times the rounds' degrees of freedom. P(resolved) is not
 * monotone in sigma_b (small: reproduced; beyond delta: non-reproducible;
 * between: neither), hence the dense quantiles: five missed the dip near
 * delta/2. A row no plan resolves so, but one would at the
 * point estimates, is "unsure": more pilot runs would tell, and `run
 * --runs auto` makes one. Validation (d) (analysis/README.md) checks that
 * the runs a plan asks for resolve its row in at least 90% of pilots.
 *
 * Rounds per run start from Kalibera and Jones's optimal repetitions n*
 * (cb_components_optimal_rounds, with the costs read from the files, below),
 * bounded to [min_rounds, max_rounds]; the plan is the cheapest (K, n), K in
 * [2, max_runs], n on a grid from min_rounds to max_rounds that holds n*, whose
 * P(resolved) reaches the target. n* minimises the cost of the grand mean's
 * variance, which compare does not judge: it is where the search starts and
 * what wins ties, not a constraint. A row no (K, n) in range resolves is
 * "cannot be resolved at delta": the between-run spread alone (sigma_b, as a
 * percentage) is then the reason given where it is at least delta, and the
 * limits (max_runs, max_rounds) where it is smaller.
 *
 * The table's plan: every run measures every cell, so one (K, n) serves
 * all rows. It is the one, of those that fit the budget, that resolves the
 * most NEEDS rows with P >= target, the cheapest of those; every row when
 * one plan can. The search counts rows by the range model over n on the
 * grid and K in 2..10, then steps of a fifth; the draws then judge the
 * search's best and the costliest rows' own plans that fit (the range
 * model is only approximate), and the most rows they resolve wins. The
 * frontier keeps the cheapest plan for each number of rows: what a larger
 * budget would buy.
 *
 * Within a budget (options.budget_s, and every decision of --runs auto) a
 * plan that promises many rows rarely fits, so the table's plan is a bet:
 * of the (K, n) that fit, the one whose runs resolve the most rows in
 * expectation (cb_plan_predict_expected: the range model averaged over
 * sigma_b^2's sampling distribution), the cheapest within 2% (at most half
 * a row) of the best; EXPECTED holds that number, COVERED the NEEDS rows the
 * draws say it resolves with P >= target.
 *
 * Costs: a round costs the measured trials' wall time per measured round
 * (every cell's trial of that round, "ns" summed); starting a run costs the
 * rest of the run's elapsed time (the end line's elapsed_s, else the header's
 * started to the end's finished): process start, calibration, warm-up
 * rounds, self-checks. The round's cost is the largest of the runs' (a
 * trial lasts at least the trial time, longer when the machine is busy: on a
 * loaded VM a set of 154 rounds took 0.87 s a round where its pilot's runs
 * took 0.57 and 0.71), the start's the mean; a set within a budget is
 * planned to take at most 90% of what is left. On the sim's virtual
 * clock the trials' time is virtual and the elapsed real: the plan says so.
 *
 * Same conventions as stats.h: 0 or a pointer on success, -1 or NULL with a
 * one-line ERR. */
#ifndef CB_PLAN_RUNS_H
#define CB_PLAN_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/components.h"
#include "analysis/verdicts/compare.h"
#include "analysis/verdicts/plan_runs_predict.h" /* struct cb_plan_model, cb_plan_predict */

struct cb_plan_options {
	double target;     /* P(resolved) each planned row must reach: 0.9 */
	size_t max_runs;   /* 30 */
	size_t min_rounds; /* 10 (a median interval at 95% needs 6) */
	size_t max_rounds; /* 2000 */
	double budget_s;   /* the table plan's time at most (0: any) */
	/* The costs are read from the first cost_files files (0: all; --runs
	 * auto: its pilot) and multiplied by cost_factor (1: none; --runs
	 * auto: what the runs since cost against that model). */
	double cost_factor;
	size_t cost_files;
};

void cb_plan_defaults(struct cb_plan_options *opt);

/* ---- One row ---- */

/* Set M's between (from the run medians, as components.h), pilot_runs,
 * median_var, median_noise and scale_df from the pilot's rounds Y[i][0..n[i]-1]
 * of K runs, M's scale already set. M is left as it was when fewer than two
 * runs have two values. */
void cb_plan_model_uncertainty(struct cb_plan_model *m, const double *const *y, const size_t *n,
                               size_t k);

/* Costs in seconds (see above). */
struct cb_plan_costs {
	double round_s;     /* c_r: one round of every cell */
	double start_s;     /* c_s: starting one run */
	bool virtual_clock; /* round_s is the sim's virtual time */
};

enum cb_plan_status {
	CB_PLAN_RESOLVED = 0, /* compare already resolved the row: nothing to plan */
	CB_PLAN_NEEDS,        /* runs x rounds resolve it with P >= target */
	CB_PLAN_CANNOT,       /* no plan within max_runs and max_rounds does */
	CB_PLAN_UNSURE,       /* no plan reaches the target across what the pilot
	                       * leaves unknown, though one would at its point
	                       * estimates: more pilot runs would tell */
	CB_PLAN_NO_DATA,      /* no components: fewer than two runs with rounds, or
	                       * no run interval to read a standard error from */
};

enum { CB_PLAN_STATUSES = 5 };

/* "resolved", "needs", "cannot", "unsure", "no data". */
const char *cb_plan_status_name(enum cb_plan_status s);

struct cb_plan_choice {
	enum cb_plan_status status;
	size_t runs, rounds;           /* the plan (NEEDS) */
	double p_reproduced, p_beyond; /* predicted at the plan (NEEDS), or at the
	                                * best (K, n) tried (CANNOT) */
	double n_star;                 /* Kalibera and Jones's n*, unbounded (may be inf) */
	double seconds;                /* runs x (start_s + rounds x round_s) */
	double spread;                 /* expm1(sigma_b): the between-run spread */
};

/* The cheapest plan for one row under M, COSTS and OPT (NULL: defaults). */
int cb_plan_solve(const struct cb_plan_model *m, const struct cb_plan_costs *costs,
                  const struct cb_plan_options *opt, struct cb_plan_choice *out);

/* ---- The table ---- */

struct cb_plan_row {
	const struct cb_compare_row *row; /* into the compare */
	struct cb_components components;
	struct cb_plan_model model;
	struct cb_plan_choice choice;
	bool in_plan;  /* the table's plan resolves it with P >= target */
	double p_plan; /* its P(resolved) under the table's plan (NaN: none) */
};

/* A plan on the table's frontier: the cheapest that resolves ROWS rows. */
struct cb_plan_point {
	size_t runs, rounds, rows;
	double cost;    /* seconds (else rounds, a start as ten) */
	double seconds; /* NaN when the files say no time */
};
enum { CB_PLAN_FRONTIER = 48 };

/* Where the table's plan is searched: within BUDGET_S seconds (0: any),
 * with RUNS_MADE runs of ROUNDS rounds already made towards it. */
struct cb_plan_search {
	double budget_s;
	size_t runs_made, rounds;
	bool keep_rounds; /* only plans of ROUNDS rounds: the set grows */
	bool all_rows;    /* a bet counts the rows resolved so far too */
};

struct cb_runs_plan {
	const struct cb_compare *compare;
	struct cb_plan_options options;
	struct cb_plan_costs costs;
	/* One per row of compare (cells and derived metrics, then engine rows, in
	 * compare's order), resolved ones too (status RESOLVED). */
	struct cb_plan_row *rows;
	size_t n_rows;
	size_t status[CB_PLAN_STATUSES]; /* rows per cb_plan_status */
	/* One plan for the whole table (every run measures every cell): of the
	 * (K, n) within options.budget_s, the one that resolves the most NEEDS
	 * rows with P >= target, the cheapest of those (every NEEDS row, when
	 * one plan can); runs 0 when none resolves any. */
	size_t runs, rounds;
	size_t covered;  /* the NEEDS rows it resolves (rows' in_plan) */
	double expected; /* within a budget: the rows it resolves in expectation
	                  * (NaN: a promise, no budget) */
	double seconds;
	double p_min; /* the lowest P(resolved) of a row it resolves */
	/* The cheapest plan for each number of rows (within the budget), by
	 * cost: what a smaller or larger budget buys. */
	struct cb_plan_point frontier[CB_PLAN_FRONTIER];
	size_t n_frontier;
};

/* Plan for the rows of C (which must outlive the plan) with OPT (NULL:
 * defaults). NULL with ERR when memory runs out. */
struct cb_runs_plan *cb_runs_plan_build(const struct cb_compare *c,
                                        const struct cb_plan_options *opt, char *err,
                                        size_t err_len);
void cb_runs_plan_free(struct cb_runs_plan *p);

/* Plan only the rows SET leaves not resolved (planning those the files
 * of P's compare had resolved), and the table again: a pilot's components
 * for the rows a later set of runs has not settled. */
void cb_runs_plan_restrict(struct cb_runs_plan *p, const struct cb_compare *set);

/* The current set of runs: how many at the end of FILES[0..k-1] measured
 * as many rounds as the last, those rounds in *ROUNDS. */
size_t cb_plan_current_set(struct cb_results *const *files, size_t k, size_t *rounds);

/* Costs read from K results files (see above); -1 when no file says how long
 * it took. */
int cb_plan_costs_of(struct cb_results *const *files, size_t k, struct cb_plan_costs *out);

/* The pilot of a --runs auto folder: how many of FILES[0..k-1], from the
 * first, measured as many rounds as the first. */
size_t cb_plan_pilot_runs(struct cb_results *const *files, size_t k);

/* One run of ROUNDS rounds under C: start_s + ROUNDS round_s. */
double cb_plan_run_seconds(const struct cb_plan_costs *c, size_t rounds);

/* ---- `run --runs auto --budget D`: after each run, go on or stop ---- */

enum cb_plan_decision {
	CB_PLAN_CONTINUE = 0,  /* make another run of `rounds` rounds */
	CB_PLAN_STOP_RESOLVED, /* compare of the current set resolves every row */
	CB_PLAN_STOP_CANNOT,   /* every row left is one no plan in range resolves, or
	                        * the current set has its planned runs and still
	                        * leaves rows not resolved */
	CB_PLAN_STOP_BUDGET,   /* the runs left would not fit in the budget */
};

/* "continue", "resolved", "cannot", "budget". */
const char *cb_plan_decision_name(enum cb_plan_decision d);

struct cb_plan_step {
	enum cb_plan_decision decision;
	size_t rounds;       /* CONTINUE: the next run's measured rounds */
	size_t runs_planned; /* the current set's planned runs (K), 0 if none */
	size_t runs_in_set;  /* runs of the current set so far */
	size_t unresolved;   /* rows not resolved by the current set (or the pilot) */
	size_t cannot;       /* of those, rows no plan resolves */
	double seconds_left; /* predicted for the runs left */
	char why[512];       /* one line: "needs 4 more runs of 60 rounds (~2 min)" */
};

/* The plan the last decision made: RUNS runs of ROUNDS rounds (0: none). */
struct cb_plan_commitment {
	size_t runs, rounds;
};

/* Decide after the K runs FILES[0..k-1] so far (in the order they were made,
 * every one of the same scenario), ELAPSED_S seconds into a budget of
 * BUDGET_S (0: none), with compare's COPT and the planner's POPT (NULL:
 * defaults).
 *
 * The current set is the longest tail of FILES whose runs all measured the
 * same number of rounds as the last one: the runs made to the current plan.
 * Earlier runs (a pilot of other rounds) still feed the variance components
 * and the costs. In order:
 *   - fewer than two runs: CONTINUE with the last run's rounds (a pilot);
 *   - compare of the set resolves every row: STOP_RESOLVED;
 *   - within a budget: the bet over every row the next set judged must
 *     resolve, the current set's resolved rows too (a new set must resolve
 *     them again), so growing the set and a new set are weighed alike;
 *     STOP_BUDGET when nothing that fits is expected to resolve half a row
 *     more than the current set has;
 *   - with no budget, a set of two or more runs that resolves rows only
 *     grows (the plan is searched at its rounds): compare judges the last
 *     set, so a new one would have to resolve again what this one did;
 *   - the set is PLAN's (its rounds) and has fewer than its runs: CONTINUE
 *     with them, or STOP_BUDGET when they no longer fit: a set is carried
 *     out as planned, not re-planned run by run (a plan made from runs of
 *     mixed rounds and one run of the set knows no more than the plan did,
 *     and every change of course is a look at the data);
 *   - plan from all the files; no NEEDS row left: STOP_CANNOT;
 *   - the plan's rounds: the set's own when the set has started and the
 *     plan at those rounds reaches the target (re-planned from all the
 *     files, so K may grow as the components are better known); otherwise
 *     the table plan's rounds, a new set;
 *   - the set already has its K runs: STOP_CANNOT (the plan missed; its
 *     target allows that);
 *   - the runs left do not fit in BUDGET_S - ELAPSED_S: STOP_BUDGET;
 *   - else CONTINUE with those rounds.
 * 0 with OUT; -1 with ERR when the files cannot be compared or memory runs
 * out. */
int cb_plan_runs_decide(struct cb_results *const *files, size_t k,
                        const struct cb_compare_options *copt, const struct cb_plan_options *popt,
                        const struct cb_plan_commitment *plan, double budget_s, double elapsed_s,
                        struct cb_plan_step *out, char *err, size_t err_len);

#endif
