/* test_plan_runs.c: variance components and the plan for runs against known
 * truth.
 *
 * The components are checked on hand-computed data and on simulated runs of
 * known sigma_w and sigma_b (the estimators' means over many pilots). The
 * planner's prediction is checked against compare's own rule
 * (cb_repro_compare on runs with exact median intervals), and the plan's
 * promise (validation (d) of analysis/README.md) over simulated pilots:
 * the runs and rounds it plans resolve the row in at least 90% of
 * replications, where a plan of a quarter of its rounds, the negative
 * control, must not.
 *
 * `test_plan_runs SEED` runs the test (TAP); `test_plan_runs --validate N
 * [SEED]` prints the validation figure over N replications
 * (tests/bench/plan-runs-validation.sh). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/stats/components.h"
#include "analysis/stats/stats.h"
#include "analysis/verdicts/plan_runs.h"
#include "analysis/verdicts/repro.h"
#include "tests/tap.h"

#define DEFAULT_SEED 20260804UL

static gsl_rng *rng;

/* Plan with the pilot's uncertainty (false: at its point estimates). */
static bool uncertain = true;

/* ---- components.h ---- */

static void test_components_by_hand(void)
{
	/* run means 2 and 4; within variances 1 and 1 (n = 3): S_1^2 = 1,
	 * S_2^2 = 2, sigma_b^2 = 2 - 1/3 */
	double a[] = {1, 2, 3}, b[] = {3, 4, 5}, c[] = {7, NAN};
	const double *y[] = {a, b, c};
	size_t n[] = {3, 3, 2};
	struct cb_components k;

	ok(cb_components_estimate(y, n, 3, &k, NULL, 0) == 0 && k.runs == 2,
	   "a run of one finite value is left out");
	near(k.s1, 1.0, 1e-12, "S_1^2: the mean within-run variance");
	near(k.s2, 2.0, 1e-12, "S_2^2: the variance of the run means");
	near(k.between, 2.0 - 1.0 / 3.0, 1e-12, "sigma_b^2 = S_2^2 - S_1^2 / n");
	near(k.mean, 3.0, 1e-12, "the mean of the run means");

	double d[] = {1, 3}, e[] = {1.5, 1.5, 1.5};
	const double *z[] = {d, e};
	size_t m[] = {2, 3};
	ok(cb_components_estimate(z, m, 2, &k, NULL, 0) == 0 && k.between == 0.0 &&
	       k.between_raw < 0.0,
	   "between-run variance floored at 0 (raw %g)", k.between_raw);
	near(k.rounds, 2.4, 1e-12, "unequal rounds: the harmonic mean");

	char err[128] = "";
	ok(cb_components_estimate(z, m, 1, &k, err, sizeof err) == -1 && isnan(k.within) &&
	       strstr(err, "two runs"),
	   "one run: no components (%s)", err);
	double inf[] = {1, INFINITY};
	const double *w[] = {d, inf};
	ok(cb_components_estimate(w, (size_t[]){2, 2}, 2, &k, NULL, 0) == -1,
	   "an infinite value is refused");

	struct cb_components q = {.within = 4.0, .between = 1.0};
	near(cb_components_optimal_rounds(&q, 1.0, 9.0), 6.0, 1e-12,
	     "n* = sqrt(c_s sigma_w^2 / (c_r sigma_b^2))");
	q.between = 0.0;
	ok(isinf(cb_components_optimal_rounds(&q, 1.0, 9.0)), "no between-run variance: n* inf");
	ok(isnan(cb_components_optimal_rounds(&q, 0.0, 9.0)), "no round cost: n* NaN");
}

/* The estimators are unbiased: their means over many simulated pilots of
 * known components. */
static void test_components_unbiased(void)
{
	const double sw = 0.03, sb = 0.01;
	const size_t k = 3, n = 10, reps = 4000;
	double sum_w = 0, sum_b = 0, sum_raw = 0;
	double runs[3][10];
	const double *y[] = {runs[0], runs[1], runs[2]};
	size_t ns[] = {n, n, n};

	for (size_t r = 0; r < reps; r++) {
		struct cb_components c;

		for (size_t i = 0; i < k; i++) {
			double b = gsl_ran_gaussian(rng, sb);

			for (size_t j = 0; j < n; j++)
				runs[i][j] = 5.0 + b + gsl_ran_gaussian(rng, sw);
		}
		cb_components_estimate(y, ns, k, &c, NULL, 0);
		sum_w += c.within;
		sum_b += c.between;
		sum_raw += c.between_raw;
	}
	/* SE of the mean raw estimate: sd(S_2^2) ~ (sb^2 + sw^2/n) sqrt(2/(k-1)) */
	double se_raw = (sb * sb + sw * sw / n) / sqrt((double)reps);
	near(sum_w / reps, sw * sw, 4 * sw * sw * sqrt(2.0 / (k * (n - 1)) / reps),
	     "E[sigma_w^2 estimate] = %g (true %g)", sum_w / reps, sw * sw);
	near(sum_raw / reps, sb * sb, 4 * se_raw, "E[raw sigma_b^2 estimate] = %g (true %g)",
	     sum_raw / reps, sb * sb);
	ok(sum_b / reps >= sum_raw / reps, "the floor only raises the estimate");
}

/* ---- A simulated run: rounds of known components ---- */

struct sim_row {
	double sw, sb;                /* per-round noise, run offsets (log scale) */
	double spike_rate, spike_log; /* the sim's spikes: rare slow rounds */
};

/* One run of N rounds: its median with the exact 95% interval (log scale
 * values back on the ratio scale: repro.h wants positive estimates). */
static void sim_run(const struct sim_row *s, size_t n, double *y, struct cb_estimate *e)
{
	double b = gsl_ran_gaussian(rng, s->sb);
	double *sorted = malloc(n * sizeof *sorted);
	struct cb_stats_interval ci;

	for (size_t j = 0; j < n; j++) {
		y[j] = b + gsl_ran_gaussian(rng, s->sw) +
		       (gsl_rng_uniform(rng) < s->spike_rate ? s->spike_log : 0.0);
		sorted[j] = y[j];
	}
	gsl_sort(sorted, 1, n);
	cb_stats_median_interval(sorted, n, 0.95, &ci);
	*e = (struct cb_estimate){exp(gsl_stats_median_from_sorted_data(sorted, 1, n)),
	                          ci.available ? exp(ci.lo) : NAN, ci.available ? exp(ci.hi) : NAN};
	free(sorted);
}

/* compare's verdict on K fresh runs of N rounds (a cell: no reference). */
static enum cb_repro_verdict judge(const struct sim_row *s, size_t k, size_t n, double delta)
{
	struct cb_estimate e[64];
	double *y = malloc(n * sizeof *y);
	struct cb_repro_options opt;
	struct cb_repro r;

	cb_repro_defaults(&opt);
	opt.delta = delta;
	opt.reference = NAN;
	for (size_t i = 0; i < k; i++)
		sim_run(s, n, y, &e[i]);
	cb_repro_compare(e, NULL, k, &opt, &r, NULL, 0);
	free(y);
	return r.verdict;
}

/* The model of a row as the planner builds it from a pilot of K runs of N
 * rounds. */
static void pilot_model(const struct sim_row *s, size_t k, size_t n, double delta,
                        struct cb_plan_model *m)
{
	double y[8][64], se2 = 0;
	const double *rows[8];
	size_t ns[8];
	struct cb_components c;
	struct cb_estimate e;

	for (size_t i = 0; i < k; i++) {
		sim_run(s, n, y[i], &e);
		double se = cb_repro_log_se(&e, 0.95);
		se2 += se * se;
		rows[i] = y[i];
		ns[i] = n;
	}
	cb_components_estimate(rows, ns, k, &c, NULL, 0);
	double scale = cb_components_robust_within(rows, ns, k);
	*m = (struct cb_plan_model){.within = c.within,
	                            .scale = scale,
	                            .se_pilot = sqrt(se2 / (double)k),
	                            .pilot_rounds = (double)n,
	                            .level = 0.95,
	                            .delta = delta,
	                            .alpha = 0.05,
	                            .family = 1};
	cb_plan_model_uncertainty(m, rows, ns, k);
	if (!uncertain)
		m->pilot_runs = 0; /* the point estimates: the control */
}

/* ---- The prediction mirrors compare ---- */

static void test_prediction_mirrors_compare(void)
{
	static const struct {
		double sw, sb, delta;
		size_t k, n;
	} cases[] = {
	    {0.03, 0.002, 0.02, 2, 60},  /* mostly reproduced */
	    {0.03, 0.002, 0.02, 2, 15},  /* mostly not resolved */
	    {0.02, 0.004, 0.02, 5, 40},  /* reproduced, more pairs */
	    {0.01, 0.03, 0.02, 3, 40},   /* mostly non-reproducible */
	    {0.02, 0.012, 0.02, 4, 100}, /* both, and the edge */
	};
	const size_t reps = 3000;

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct sim_row s = {cases[c].sw, cases[c].sb, 0, 0};
		size_t rep = 0, bey = 0;

		for (size_t r = 0; r < reps; r++) {
			enum cb_repro_verdict v = judge(&s, cases[c].k, cases[c].n, cases[c].delta);
			rep += v == CB_REPRO_REPRODUCED;
			bey += v == CB_REPRO_NON_REPRODUCIBLE;
		}
		/* the model knows the truth, read its se off one long pilot's shape */
		struct cb_plan_model m;
		pilot_model(&s, 2, cases[c].n, cases[c].delta, &m);
		struct sim_row quiet = {s.sw, 0, 0, 0};
		double *y = malloc(cases[c].n * sizeof *y), se2 = 0;
		for (int r = 0; r < 400; r++) {
			struct cb_estimate e;
			sim_run(&quiet, cases[c].n, y, &e);
			se2 += pow(cb_repro_log_se(&e, 0.95), 2) / 400;
		}
		free(y);
		m.se_pilot = sqrt(se2); /* the interval's se, as a long pilot reads it */
		m.between = s.sb * s.sb;
		m.scale = NAN;
		m.pilot_runs = 0; /* the truth known */
		double pr, pb;
		cb_plan_predict(&m, cases[c].k, cases[c].n, &pr, &pb);
		double fr = (double)rep / reps, fb = (double)bey / reps;
		near(fr, pr, 0.05,
		     "%zu runs of %zu rounds (sw %g, sb %g): reproduced %.3f, "
		     "predicted %.3f",
		     cases[c].k, cases[c].n, s.sw, s.sb, fr, pr);
		near(fb, pb, 0.05, "... non-reproducible %.3f, predicted %.3f", fb, pb);
	}
}

static void test_solve(void)
{
	struct cb_plan_model m = {.scale = NAN,
	                          .between = 0.0001 * 0.0001,
	                          .within = 0.03 * 0.03,
	                          .se_pilot = 0.012,
	                          .pilot_rounds = 10,
	                          .level = 0.95,
	                          .delta = 0.02,
	                          .alpha = 0.05,
	                          .family = 1};
	struct cb_plan_costs costs = {.round_s = 0.01, .start_s = 1.0};
	struct cb_plan_choice ch;

	int rc = cb_plan_solve(&m, &costs, NULL, &ch);
	ok(rc == 0 && ch.status == CB_PLAN_NEEDS && ch.runs == 2 && ch.rounds > 10,
	   "little between-run spread: two runs of more rounds (%zu of %zu)", ch.runs, ch.rounds);
	ok(ch.p_reproduced + ch.p_beyond >= 0.9, "the plan reaches the target (%.3f)",
	   ch.p_reproduced + ch.p_beyond);
	near(ch.seconds, 2 * (1.0 + ch.rounds * 0.01), 1e-9, "its time: K (c_s + n c_r)");

	/* between-run spread right at the margin, noisy rounds, few allowed */
	m.between = 0.014 * 0.014;
	m.se_pilot = 0.05;
	struct cb_plan_options opt;
	cb_plan_defaults(&opt);
	opt.max_rounds = 200;
	opt.max_runs = 10;
	rc = cb_plan_solve(&m, &costs, &opt, &ch);
	ok(rc == 0 && ch.status == CB_PLAN_CANNOT && ch.p_reproduced < 0.9,
	   "spread at the margin, noisy rounds: cannot (best P %.3f)", ch.p_reproduced);
	near(ch.spread, expm1(0.014), 1e-12, "the between-run spread is given");
	m.se_pilot = NAN;
	ok(cb_plan_solve(&m, &costs, NULL, &ch) == 0 && ch.status == CB_PLAN_NO_DATA,
	   "no pilot interval: no data");
}

/* ---- Validation (d): the plan's runs resolve the row ---- */

struct validation {
	size_t planned, resolved, resolved_control, resolved_point, cannot, unsure;
	double mean_runs, mean_rounds;
};

/* REPS pilots of 3 runs x 10 rounds of S; each planned row's plan carried
 * out on fresh runs, and two controls: the same runs with a quarter of the
 * rounds, and the plan taken at the pilot's point estimates (what the
 * planner did before it knew how little three runs say). */
static void validate(const struct sim_row *s, size_t reps, struct validation *v)
{
	struct cb_plan_costs costs = {.round_s = 0.01, .start_s = 0.5};

	memset(v, 0, sizeof *v);
	for (size_t r = 0; r < reps; r++) {
		struct cb_plan_model m;
		struct cb_plan_choice ch, point;

		pilot_model(s, 3, 10, 0.02, &m);
		cb_plan_solve(&m, &costs, NULL, &ch);
		m.pilot_runs = 0;
		cb_plan_solve(&m, &costs, NULL, &point);
		if (ch.status == CB_PLAN_CANNOT)
			v->cannot++;
		if (ch.status == CB_PLAN_UNSURE)
			v->unsure++;
		if (ch.status != CB_PLAN_NEEDS)
			continue;
		v->planned++;
		v->mean_runs += (double)ch.runs;
		v->mean_rounds += (double)ch.rounds;
		v->resolved += judge(s, ch.runs, ch.rounds, 0.02) != CB_REPRO_NOT_RESOLVED;
		size_t quarter = ch.rounds / 4 < 6 ? 6 : ch.rounds / 4;
		v->resolved_control += judge(s, ch.runs, quarter, 0.02) != CB_REPRO_NOT_RESOLVED;
		v->resolved_point +=
		    point.status == CB_PLAN_NEEDS &&
		    judge(s, point.runs, point.rounds, 0.02) != CB_REPRO_NOT_RESOLVED;
	}
	if (v->planned) {
		v->mean_runs /= (double)v->planned;
		v->mean_rounds /= (double)v->planned;
	}
}

/* The settings of the validation: the sim's own noise (jitter, 2% spikes
 * of x1.5) with a run offset, against delta 2%. */
static const struct {
	const char *name;
	struct sim_row row;
} settings[] = {
    {"quiet between runs (sw 3%, sb 0.3%)", {0.03, 0.003, 0.02, 0.405}},
    {"between-run spread near delta/2 (sw 2%, sb 0.8%)", {0.02, 0.008, 0.02, 0.405}},
    {"between-run spread beyond delta (sw 2%, sb 2.5%)", {0.02, 0.025, 0.02, 0.405}},
};

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : NAN;
}

static void print_validation(size_t reps)
{
	printf("%-50s %7s %6s %6s %5s %7s %8s %8s %8s\n", "setting", "planned", "cannot", "unsure",
	       "runs", "rounds", "resolved", "quarter", "point");
	for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
		struct validation v;
		clock_t t0 = clock();

		validate(&settings[i].row, reps, &v);
		printf("%-50s %7zu %6zu %6zu %5.1f %7.1f %7.1f%% %7.1f%% %7.1f%%   (%.0f s)\n",
		       settings[i].name, v.planned, v.cannot, v.unsure, v.mean_runs, v.mean_rounds,
		       pct(v.resolved, v.planned), pct(v.resolved_control, v.planned),
		       pct(v.resolved_point, v.planned), (double)(clock() - t0) / CLOCKS_PER_SEC);
	}
}

/* make check's small version: 80 pilots per setting, pooled. */
static void test_validation_small(void)
{
	const size_t reps = 80;
	struct validation all = {0};

	for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
		struct validation v;

		validate(&settings[i].row, reps, &v);
		diag("%s: %zu planned, resolved %.1f%%, quarter %.1f%%, point %.1f%%",
		     settings[i].name, v.planned, pct(v.resolved, v.planned),
		     pct(v.resolved_control, v.planned), pct(v.resolved_point, v.planned));
		all.planned += v.planned;
		all.resolved += v.resolved;
		all.resolved_control += v.resolved_control;
		all.resolved_point += v.resolved_point;
	}
	double rate = pct(all.resolved, all.planned);
	/* more than half: a planner that called every row unsure or cannot
	 * would pass the rates below */
	ok(all.planned >= 3 * reps / 2, "%zu of %zu pilots planned", all.planned, 3 * reps);
	/* about 180 planned: 85% is 2.2 standard errors below 90% */
	ok(rate >= 85.0, "the planned runs resolved %.1f%%", rate);
	ok(pct(all.resolved_control, all.planned) < rate - 15.0,
	   "a quarter of the rounds (control) %.1f%%: clearly fewer",
	   pct(all.resolved_control, all.planned));
	ok(pct(all.resolved_point, all.planned) < rate - 10.0,
	   "the plan at the point estimates (control) %.1f%%: clearly fewer",
	   pct(all.resolved_point, all.planned));
}

int main(int argc, char **argv)
{
	unsigned long seed = DEFAULT_SEED;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (argc > 2 && strcmp(argv[1], "--validate") == 0) {
		if (argc > 3)
			seed = strtoul(argv[3], NULL, 0);
		gsl_rng_set(rng, seed);
		printf("# seed %lu, %s replications per setting\n", seed, argv[2]);
		print_validation(strtoul(argv[2], NULL, 0));
		gsl_rng_free(rng);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--validate-check") == 0) {
		gsl_rng_set(rng, seed);
		tap_plan(4);
		test_validation_small();
		gsl_rng_free(rng);
		return tap_done();
	}
	if (argc > 1)
		seed = strtoul(argv[1], NULL, 0);
	tap_plan(35);
	diag("seed %lu", seed);
	gsl_rng_set(rng, seed);
	test_components_by_hand();
	test_components_unbiased();
	test_prediction_mirrors_compare();
	test_solve();
	gsl_rng_set(rng, DEFAULT_SEED); /* the validation's figures are fixed */
	test_validation_small();
	gsl_rng_free(rng);
	return tap_done();
}
