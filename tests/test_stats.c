/* test_stats.c: the statistics of analysis/ against hand-computed answers and
 * simulation.
 *
 * Known answers come from the formulas worked by hand (binomial ranks from exact
 * sums of C(n, i) / 2^n, quantiles by R's type 7 rule, Student t and chi-square
 * tails from their closed forms for small even or odd df). The simulations use
 * gsl_rng seeded from argv[1] (default below); the seed is printed first. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/stats/curve.h"
#include "analysis/stats/ratio.h"
#include "analysis/verdicts/repro.h"
#include "analysis/stats/robust_line.h"
#include "analysis/stats/stats.h"
#include "tests/tap.h"

#define DEFAULT_SEED 20260804UL
#define Z95 1.959963984540054

static gsl_rng *rng;

/* ---- stats.h ---- */

static void test_median_ranks(void)
{
	size_t lo, hi;
	double coverage;

	ok(cb_stats_median_ranks(5, 0.95, &lo, &hi, &coverage) == -1 && lo == 0 && isnan(coverage),
	   "n=5: no 95%% median interval");
	ok(cb_stats_median_ranks(6, 0.95, &lo, &hi, &coverage) == 0 && lo == 1 && hi == 6,
	   "n=6: ranks 1 and 6");
	near(coverage, 0.96875, 1e-12, "n=6: coverage 1 - 2/64");
	ok(cb_stats_median_ranks(10, 0.95, &lo, &hi, &coverage) == 0 && lo == 2 && hi == 9,
	   "n=10: ranks 2 and 9");
	near(coverage, 0.978515625, 1e-12, "n=10: coverage 1 - 22/1024");
	ok(cb_stats_median_ranks(30, 0.95, &lo, &hi, &coverage) == 0 && lo == 10 && hi == 21,
	   "n=30: ranks 10 and 21");
	near(coverage, 0.9572260547429323, 1e-12, "n=30: coverage");
	ok(cb_stats_median_ranks(50, 0.95, &lo, &hi, &coverage) == 0 && lo == 18 && hi == 33,
	   "n=50: ranks 18 and 33");
	near(coverage, 0.9671608624357315, 1e-12, "n=50: coverage");
	ok(cb_stats_median_ranks(30, cb_ratio_bonferroni(0.95, 10), &lo, &hi, &coverage) == 0 &&
	       lo == 7 && hi == 24,
	   "n=30, Bonferroni m=10 (level 0.995): ranks 7 and 24");
	near(coverage, 0.998569093644619, 1e-12, "n=30 at 0.995: coverage");
	ok(cb_stats_median_ranks(30, 1.0, &lo, &hi, &coverage) == -1, "level 1 is refused");
}

static void test_summary_small(void)
{
	const double pi_digits[] = {3, 1, 4, 1, 5, 9, 2, 6, 5};
	const double one_to_ten[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	struct cb_stats_summary s;
	char err[128];

	ok(cb_stats_summarize(pi_digits, 9, NULL, &s, err, sizeof(err)) == 0, "summary of 9");
	ok(s.n == 9 && s.min == 1 && s.max == 9, "n, min, max");
	near(s.median, 4, 0, "median of 3 1 4 1 5 9 2 6 5");
	near(s.q1, 2, 1e-12, "q1 (type 7)");
	near(s.q3, 5, 1e-12, "q3 (type 7)");
	near(s.p10, 1, 1e-12, "p10");
	near(s.p90, 6.6, 1e-12, "p90");
	near(s.mad, 2, 0, "MAD");
	near(s.robust_cv, 1.482602218505602 * 2 / 4, 1e-12, "robust CV 1.4826 MAD / median");
	near(s.mean, 4, 1e-12, "mean");
	near(s.sd, sqrt(54.0 / 8.0), 1e-12, "SD (n-1)");
	ok(s.median_ci.available && s.median_ci.rank_lo == 2 && s.median_ci.rank_hi == 8,
	   "n=9: median interval from ranks 2 and 8");
	ok(s.median_ci.lo == 1 && s.median_ci.hi == 6, "n=9: interval [1, 6]");
	near(s.median_ci.coverage, 1 - 20.0 / 512, 1e-12, "n=9: coverage 1 - 2*10/512");

	cb_stats_summarize(one_to_ten, 10, NULL, &s, NULL, 0);
	near(s.median, 5.5, 1e-12, "median of 1..10");
	near(s.q1, 3.25, 1e-12, "q1 of 1..10");
	near(s.q3, 7.75, 1e-12, "q3 of 1..10");
	near(s.p10, 1.9, 1e-12, "p10 of 1..10");
	near(s.p90, 9.1, 1e-12, "p90 of 1..10");
	ok(s.median_ci.lo == 2 && s.median_ci.hi == 9, "interval of 1..10 is [2, 9]");
	ok(s.drift && s.drift_rho == 1 && s.drift_p == 0, "1..10 in order: drift, rho 1");

	cb_stats_summarize(one_to_ten, 5, NULL, &s, NULL, 0);
	ok(!s.median_ci.available && isnan(s.median_ci.lo) && isnan(s.median_ci.coverage),
	   "n=5: interval not available");

	cb_stats_summarize((const double[]){7}, 1, NULL, &s, NULL, 0);
	ok(s.n == 1 && s.median == 7 && s.min == 7 && s.mad == 0 && isnan(s.sd) &&
	       isnan(s.drift_rho) && !s.median_ci.available && !s.contaminated,
	   "one sample: median 7, no SD, no interval, no drift");

	err[0] = 0;
	ok(cb_stats_summarize(one_to_ten, 0, NULL, &s, err, sizeof(err)) == -1 && err[0],
	   "no samples: error with a reason (%s)", err);
	const double bad[] = {1, NAN, 3};
	ok(cb_stats_summarize(bad, 3, NULL, &s, err, sizeof(err)) == -1, "NaN sample refused");
}

static void test_outliers_and_contamination(void)
{
	const double tail[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 40};
	const double times[] = {100, 105, 120, 125, 130};
	const double rates[] = {10, 8, 9, 9.5, 9.2};
	struct cb_stats_options opt;
	struct cb_stats_summary s;

	/* q1 3.75, q3 9.25, IQR 5.5: fences 17.5 (1.5) and 25.75 (3). */
	cb_stats_summarize(tail, 12, NULL, &s, NULL, 0);
	near(s.iqr, 5.5, 1e-12, "IQR of the tailed sample");
	ok(s.outliers_high_15 == 2 && s.outliers_low_15 == 0, "two beyond 1.5 IQR (25, 40)");
	ok(s.outliers_high_3 == 1 && s.outliers_low_3 == 0, "one beyond 3 IQR (40)");
	ok(s.n == 12 && s.max == 40, "outliers are counted, not dropped");

	cb_stats_summarize(times, 5, NULL, &s, NULL, 0);
	near(s.contamination, 0.2, 1e-12, "contamination 120/100 - 1");
	ok(s.contaminated && s.headline == 100 && strcmp(s.headline_name, "min") == 0,
	   "contaminated: the headline is the min, named");

	cb_stats_defaults(&opt);
	opt.contamination_max = 0.25;
	cb_stats_summarize(times, 5, &opt, &s, NULL, 0);
	ok(!s.contaminated && s.headline == 120 && strcmp(s.headline_name, "median") == 0,
	   "threshold 0.25: not contaminated, the median stays");

	cb_stats_defaults(&opt);
	opt.larger_is_better = true;
	cb_stats_summarize(rates, 5, &opt, &s, NULL, 0);
	near(s.contamination, 10 / 9.2 - 1, 1e-12, "throughput: contamination max/median - 1");
	ok(!s.contaminated && s.best == 10, "throughput: best is the max, 8.7%% is clean");
}

static void test_spearman_and_lag1(void)
{
	const double shuffled[] = {12, 7, 15, 9, 20, 11, 18, 25, 14, 22};
	double index[10], squares[10], rho, p;
	struct cb_stats_summary s;

	for (int i = 0; i < 10; i++) {
		index[i] = i;
		squares[i] = (10 - i) * (10 - i);
	}
	ok(cb_stats_spearman(index, squares, 10, &rho, &p) == 0 && rho == -1 && p == 0,
	   "Spearman of a monotone decreasing series: -1, p 0");
	cb_stats_spearman(index, shuffled, 10, &rho, &p);
	near(rho, 0.6242424242424243, 1e-12, "Spearman of a shuffled series: 1 - 6*62/990");
	near(p, 0.05371776721716737, 1e-9, "its p from t with 8 df");
	ok(cb_stats_spearman(index, (const double[]){1, 1, 1}, 3, &rho, &p) == -1 && isnan(rho),
	   "Spearman of a constant series: undefined");

	cb_stats_summarize(shuffled, 10, NULL, &s, NULL, 0);
	ok(!s.drift && !s.autocorrelated, "shuffled series: no drift (p 0.054), no lag-1 flag");

	double alternating[30];
	for (int i = 0; i < 30; i++)
		alternating[i] = 100 + (i % 2 ? 1 : -1);
	cb_stats_summarize(alternating, 30, NULL, &s, NULL, 0);
	near(s.lag1, -29.0 / 30.0, 1e-12, "alternating series: lag-1 -(n-1)/n");
	near(s.lag1_limit, 2.5758293035489004 / sqrt(30), 1e-12, "lag-1 limit 2.576/sqrt(n)");
	ok(s.autocorrelated && !s.drift, "alternating: autocorrelated, no drift");

	double constant[8] = {5, 5, 5, 5, 5, 5, 5, 5};
	cb_stats_summarize(constant, 8, NULL, &s, NULL, 0);
	ok(isnan(s.drift_rho) && isnan(s.lag1) && !s.drift && !s.autocorrelated && s.iqr == 0,
	   "constant series: drift undefined and not flagged");
}

/* Kruskal-Wallis against R's kruskal.test (its help page's example, and a
 * small one with ties). */
static void test_kruskal(void)
{
	const double x[] = {2.9, 3.0, 2.5, 2.6, 3.2, 3.8, 2.7, 4.0, 2.4, 2.8, 3.4, 3.7, 2.2, 2.0};
	const unsigned g[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2};
	double h, p;

	ok(cb_stats_kruskal(x, g, 14, 3, &h, &p) == 0, "Kruskal-Wallis of three groups");
	near(h, 0.7714285714285722, 1e-9, "H 0.77143 (R: kruskal.test)");
	near(p, exp(-0.7714285714285722 / 2), 1e-9, "p from chi-square with 2 df (0.68)");
	cb_stats_kruskal((const double[]){1, 1, 2, 2}, (const unsigned[]){0, 0, 1, 1}, 4, 2, &h,
	                 &p);
	near(h, 3.0, 1e-12, "ties: H 3 after the tie correction (2.4 before)");
	ok(cb_stats_kruskal((const double[]){1, 2, 3}, (const unsigned[]){0, 0, 0}, 3, 2, &h, &p) ==
	           -1 &&
	       isnan(p),
	   "one group only: undefined");
	ok(cb_stats_kruskal((const double[]){1, 2}, (const unsigned[]){0, 5}, 2, 2, &h, &p) == -1,
	   "a group out of range: refused");
}

/* 2000 samples of 30 from a lognormal (median 1): how often the 95% interval
 * holds the true median. */
static void test_median_coverage(void)
{
	const int trials = 2000, n = 30;
	double x[30];
	int covered = 0;
	struct cb_stats_summary s;

	for (int t = 0; t < trials; t++) {
		for (int i = 0; i < n; i++)
			x[i] = gsl_ran_lognormal(rng, 0.0, 1.0);
		cb_stats_summarize(x, n, NULL, &s, NULL, 0);
		covered += s.median_ci.lo <= 1.0 && 1.0 <= s.median_ci.hi;
	}
	double rate = (double)covered / trials;
	diag("median interval coverage, n=30 lognormal: %.4f (nominal 0.9572)", rate);
	ok(rate >= 0.93 && rate <= 0.99, "median interval coverage %.4f in [0.93, 0.99]", rate);
}

/* ---- ratio.h ---- */

static void test_ratio(void)
{
	const double r[] = {1.05, 1.02, 1.08, 1.01, 1.04, 1.06, 1.03, 1.07, 1.09, 0.99, 1.5};
	double num[11], den[11];
	struct cb_ratio ratio;
	char err[128];

	for (int i = 0; i < 11; i++) {
		den[i] = 200.0 + 10 * i;
		num[i] = den[i] * r[i];
	}
	den[10] = NAN; /* round 10: no valid trial on one side */
	ok(cb_ratio_paired(num, den, 11, 0.95, &ratio, err, sizeof(err)) == 0, "paired ratio");
	ok(ratio.n == 10 && ratio.skipped == 1 && ratio.above == 9, "10 pairs, 1 skipped, 9 above");
	near(ratio.value, sqrt(1.04 * 1.05), 1e-12, "estimate: exp of the median log ratio");
	ok(ratio.ci.available && ratio.ci.rank_lo == 2 && ratio.ci.rank_hi == 9,
	   "sign-test interval from ranks 2 and 9");
	near(ratio.ci.lo, 1.01, 1e-12, "interval low: 2nd smallest ratio");
	near(ratio.ci.hi, 1.08, 1e-12, "interval high: 9th");
	is_str(cb_ratio_verdict_name(cb_ratio_verdict(ratio.value, ratio.ci.lo, ratio.ci.hi, 0.02)),
	       "faster", "1.045 in [1.01, 1.08]: faster");

	num[3] = -1;
	ok(cb_ratio_paired(num, den, 11, 0.95, &ratio, err, sizeof(err)) == -1,
	   "a negative throughput is refused: %s", err);
	ok(cb_ratio_paired(num, den, 3, 0.95, &ratio, NULL, 0) == 0 && !ratio.ci.available &&
	       isnan(ratio.ci.lo) && ratio.value > 1,
	   "three rounds: an estimate, no interval");
	num[3] = den[3] * r[3];
	cb_ratio_paired(num, den, 7, 0.95, &ratio, NULL, 0);
	ok(ratio.n == 7 && ratio.ci.available && ratio.ci.rank_lo == 1, "seven rounds: ranks 1, 7");
	near(cb_ratio_bonferroni(0.95, 5), 0.99, 1e-12, "Bonferroni 0.95 over 5: 0.99");
}

static void test_ratio_verdicts(void)
{
	is_num(cb_ratio_verdict(1.10, 1.05, 1.15, 0.02), CB_RATIO_FASTER,
	       "1.10 [1.05,1.15]: faster");
	is_num(cb_ratio_verdict(0.90, 0.85, 0.95, 0.02), CB_RATIO_SLOWER,
	       "0.90 [0.85,0.95]: slower");
	is_num(cb_ratio_verdict(1.005, 0.99, 1.015, 0.02), CB_RATIO_EQUIVALENT,
	       "1.005 [0.99,1.015]: equivalent");
	is_num(cb_ratio_verdict(1.01, 1.004, 1.016, 0.02), CB_RATIO_EQUIVALENT,
	       "significant but inside the band: equivalent");
	is_num(cb_ratio_verdict(1.03, 0.97, 1.10, 0.02), CB_RATIO_NOT_RESOLVED,
	       "interval across 1: not resolved");
	is_num(cb_ratio_verdict(1.01, 1.005, 1.03, 0.02), CB_RATIO_NOT_RESOLVED,
	       "above 1 but estimate in the band, interval out of it: not resolved");
	is_num(cb_ratio_verdict(1.10, NAN, NAN, 0.02), CB_RATIO_NOT_RESOLVED,
	       "no interval: not resolved");
	is_num(cb_ratio_verdict(0.975, 0.97, 0.985, 0.02), CB_RATIO_SLOWER,
	       "0.975 [0.97,0.985]: below 1/1.02, slower");
	is_str(cb_ratio_verdict_name(CB_RATIO_NOT_RESOLVED), "not resolved", "verdict name");

	/* 10/14 with 5% tolerance: B = [0.6786, 0.75], B2 = [0.6429, 0.7857]. */
	const double e = 10.0 / 14.0;
	is_num(cb_ratio_expect(0.70, 0.68, 0.72, e, 0.05), CB_EXPECT_CONSISTENT,
	       "0.70 [0.68,0.72] vs 10/14: consistent");
	is_num(cb_ratio_expect(0.932, 0.92, 0.94, e, 0.05), CB_EXPECT_INCONSISTENT,
	       "0.932 [0.92,0.94] vs 10/14: inconsistent");
	is_num(cb_ratio_expect(0.74, 0.60, 0.95, e, 0.05), CB_EXPECT_NOT_RESOLVED,
	       "0.74 [0.60,0.95]: too wide, not resolved");
	is_num(cb_ratio_expect(0.76, 0.74, 0.78, e, 0.05), CB_EXPECT_NOT_RESOLVED,
	       "0.76 [0.74,0.78]: estimate outside the band, not resolved");
	is_num(cb_ratio_expect(0.70, NAN, NAN, e, 0.05), CB_EXPECT_NOT_RESOLVED,
	       "no interval: not resolved");
	is_str(cb_ratio_expectation_name(CB_EXPECT_INCONSISTENT), "inconsistent", "expect name");
}

/* Paired ratios whose rounds share a load factor: the sign-test interval holds
 * the true ratio 1.1 at its nominal rate, and the verdict is faster. */
static void test_ratio_simulated(void)
{
	const int trials = 1000, n = 30;
	double num[30], den[30];
	int covered = 0, faster = 0;
	struct cb_ratio ratio;

	for (int t = 0; t < trials; t++) {
		for (int i = 0; i < n; i++) {
			double load = gsl_ran_lognormal(rng, 0.0, 0.3);
			den[i] = 1000.0 / load * exp(gsl_ran_gaussian(rng, 0.02));
			num[i] = 1100.0 / load * exp(gsl_ran_gaussian(rng, 0.02));
		}
		cb_ratio_paired(num, den, n, 0.95, &ratio, NULL, 0);
		covered += ratio.ci.lo <= 1.1 && 1.1 <= ratio.ci.hi;
		faster += cb_ratio_verdict(ratio.value, ratio.ci.lo, ratio.ci.hi, 0.02) ==
		          CB_RATIO_FASTER;
	}
	double rate = (double)covered / trials;
	diag("paired ratio interval coverage, n=30: %.4f; faster in %d of %d", rate, faster,
	     trials);
	ok(rate >= 0.92 && rate <= 0.99, "paired ratio coverage %.4f in [0.92, 0.99]", rate);
	ok(faster == trials, "a 10%% difference under shared load is always faster");
}

/* ---- curve.h ---- */

static void test_slope(void)
{
	const double sizes[] = {16, 64, 256, 1024, 4096, 16384};
	double size[18], time[18];
	struct cb_curve_slope fit;
	char err[128];

	for (int i = 0; i < 18; i++) {
		size[i] = sizes[i / 3];
		time[i] = 500 + 0.75 * size[i];
	}
	ok(cb_curve_slope(size, time, 18, 0.95, &fit, err, sizeof(err)) == 0, "slope of a line");
	ok(fit.fit == CB_CURVE_OLS && fit.outliers == 0 && fit.sizes == 6 && fit.dof == 16,
	   "exact line: OLS, no outliers, 6 sizes, 16 df");
	near(fit.overhead.value, 500, 1e-6, "exact line: overhead 500");
	near(fit.per_byte.value, 0.75, 1e-10, "exact line: 0.75 per byte");
	ok(fit.per_byte.hi - fit.per_byte.lo < 1e-9, "exact line: a zero-width interval");

	for (int i = 0; i < 18; i++)
		time[i] += gsl_ran_gaussian(rng, 3.0);
	cb_curve_slope(size, time, 18, 0.95, &fit, NULL, 0);
	ok(fit.per_byte.lo < 0.75 && 0.75 < fit.per_byte.hi, "noisy line: interval holds 0.75");
	time[10] *= 10; /* one wild point at 1 KiB */
	cb_curve_slope(size, time, 18, 0.95, &fit, NULL, 0);
	diag("with a wild point: OLS %.2f + %.5f/B, robust %.2f + %.5f/B", fit.ols_overhead,
	     fit.ols_per_byte, fit.robust_overhead, fit.robust_per_byte);
	ok(fit.fit == CB_CURVE_ROBUST && fit.outliers >= 1 && strcmp(fit.fit_name, "robust") == 0,
	   "wild point: outlier found, robust fit used");
	near(fit.overhead.value, 500, 10, "robust overhead near 500");
	near(fit.per_byte.value, 0.75, 0.002, "robust per byte near 0.75");
	ok(fabs(fit.ols_overhead - 500) > 10 * fabs(fit.overhead.value - 500),
	   "OLS is pulled by the wild point, robust is not");

	ok(cb_curve_slope(size, time, 2, 0.95, &fit, err, sizeof(err)) == -1, "two points refused");
	ok(cb_curve_slope(size, time, 3, 0.95, &fit, err, sizeof(err)) == -1,
	   "one distinct size refused: %s", err);
}

/* ---- robust_line.h: the same estimator as gsl_multifit_robust ---- */

/* |GOT - WANT| within REL of |WANT|. */
static bool close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

/* Points of one shape: 0 a payload sweep with 2% multiplicative noise (what
 * a run's trials look like), 1 the same with one point in 20 tripled, 2 a
 * line with Gaussian noise at uniform x. */
static void robust_points(gsl_rng *g, int shape, size_t n, double *x, double *y)
{
	static const double sweep[] = {16, 64, 256, 1024, 4096, 16384, 65536, 98304};

	for (size_t i = 0; i < n; i++) {
		if (shape == 2) {
			x[i] = gsl_rng_uniform(g) * 10;
			y[i] = 3 - 2 * x[i] + gsl_ran_gaussian(g, 0.5);
			continue;
		}
		x[i] = sweep[i % 8] / sweep[7];
		y[i] = (120 + 0.9 * sweep[i % 8]) * (1 + gsl_ran_gaussian(g, 0.02));
		if (shape == 1 && i % 20 == 7)
			y[i] *= 3;
	}
}

static void test_robust_line(void)
{
	/* Fixed seeds: this checks arithmetic against GSL's, not statistics. */
	static const struct {
		int shape;
		size_t n;
	} cases[] = {{0, 8000}, {1, 8000}, {2, 3000}, {1, 40}, {2, 7}};
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		size_t n = cases[k].n;
		double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
		       *resid = malloc(n * sizeof *resid);
		gsl_matrix *X = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
		gsl_vector *yv = gsl_vector_alloc(n), *c = gsl_vector_alloc(2);
		gsl_multifit_robust_workspace *w =
		    gsl_multifit_robust_alloc(gsl_multifit_robust_bisquare, n, 2);
		struct cb_robust_line fit;
		double worst = 0;

		gsl_rng_set(g, 1000 + k);
		robust_points(g, cases[k].shape, n, x, y);
		for (size_t i = 0; i < n; i++) {
			gsl_matrix_set(X, i, 0, 1.0);
			gsl_matrix_set(X, i, 1, x[i]);
			gsl_vector_set(yv, i, y[i]);
		}
		gsl_error_handler_t *old = gsl_set_error_handler_off();
		int grc = gsl_multifit_robust(X, yv, c, cov, w);
		gsl_set_error_handler(old);
		gsl_multifit_robust_stats st = gsl_multifit_robust_statistics(w);
		int rc = cb_robust_line_fit(x, y, n, resid, &fit);

		ok(grc == GSL_SUCCESS && rc == 0 && fit.iterations == st.numit,
		   "shape %d, n=%zu: both converge, in %zu and %zu iterations", cases[k].shape, n,
		   fit.iterations, st.numit);
		for (size_t i = 0; i < n; i++)
			worst = fmax(worst, fabs(resid[i] - gsl_vector_get(st.r, i)));
		ok(close_to(fit.c0, gsl_vector_get(c, 0), 1e-8) &&
		       close_to(fit.c1, gsl_vector_get(c, 1), 1e-8) &&
		       close_to(fit.sigma, st.sigma, 1e-8) &&
		       close_to(fit.cov[0][0], gsl_matrix_get(cov, 0, 0), 1e-8) &&
		       close_to(fit.cov[1][1], gsl_matrix_get(cov, 1, 1), 1e-8) &&
		       close_to(fit.cov[0][1], gsl_matrix_get(cov, 0, 1), 1e-8) &&
		       worst <= 1e-8 * st.sigma,
		   "shape %d, n=%zu: c0 %.15g (GSL %.15g), c1 %.15g (GSL %.15g), sigma %.15g (GSL "
		   "%.15g), residuals within %.3g",
		   cases[k].shape, n, fit.c0, gsl_vector_get(c, 0), fit.c1, gsl_vector_get(c, 1),
		   fit.sigma, st.sigma, worst);
		gsl_multifit_robust_free(w);
		gsl_matrix_free(X);
		gsl_matrix_free(cov);
		gsl_vector_free(yv);
		gsl_vector_free(c);
		free(x);
		free(y);
		free(resid);
	}
	gsl_rng_free(g);
}

static struct cb_estimate est(double value, double half)
{
	return (struct cb_estimate){value, value - half, value + half};
}

static void test_crossover(void)
{
	const double size[] = {16, 256, 4096, 65536};
	struct cb_estimate a[4], b[4];
	struct cb_curve_crossover x;

	for (int i = 0; i < 4; i++)
		a[i] = est(100, 1);
	b[0] = est(50, 2), b[1] = est(80, 2), b[2] = est(120, 2), b[3] = est(200, 2);
	is_num(cb_curve_crossover(size, a, b, 4, 0, &x, NULL, 0), 1, "crossover found");
	near(x.size, 1177.3755458219907, 1e-6, "interpolated in log size: 1177 B");
	ok(x.bracket_lo == 256 && x.bracket_hi == 4096 && x.index == 1, "bracket 256..4096");
	ok(x.direction == -1 && x.resolved, "B overtakes A, resolved");
	is_num(cb_curve_crossover(size, a, b, 4, 2, &x, NULL, 0), 0, "no second crossover");

	b[2] = est(110, 15); /* [95, 125] overlaps A's [99, 101] */
	cb_curve_crossover(size, a, b, 4, 0, &x, NULL, 0);
	ok(x.found && !x.resolved, "overlapping intervals at a bracket end: not resolved");

	b[2] = est(100, 2);
	is_num(cb_curve_crossover(size, a, b, 4, 0, &x, NULL, 0), 1, "tie at a measured size");
	ok(x.size == 4096 && x.bracket_lo == 256 && x.bracket_hi == 65536 && x.resolved,
	   "tie: at 4096, bracket 256..65536, clear at both ends");

	for (int i = 0; i < 4; i++)
		b[i] = est(60 + i, 2);
	is_num(cb_curve_crossover(size, a, b, 4, 0, &x, NULL, 0), 0, "B always below: none");
	ok(!x.found, "not found");

	b[0] = est(150, 2), b[1] = est(50, 2), b[2] = est(150, 2), b[3] = est(150, 2);
	cb_curve_crossover(size, a, b, 4, 0, &x, NULL, 0);
	ok(x.direction == 1 && x.index == 0, "first crossing: A overtakes B");
	cb_curve_crossover(size, a, b, 4, x.index + 1, &x, NULL, 0);
	ok(x.found && x.direction == -1 && x.index == 1, "searching on: B overtakes A again");

	const double backwards[] = {16, 256, 128, 4096};
	ok(cb_curve_crossover(backwards, a, b, 4, 0, &x, NULL, 0) == -1, "unsorted sizes refused");
}

/* ---- repro.h ---- */

/* A run's estimate from its log value and standard error. */
static struct cb_estimate run(double log_value, double se)
{
	return (struct cb_estimate){exp(log_value), exp(log_value - Z95 * se),
	                            exp(log_value + Z95 * se)};
}

static void test_cochran_and_kendall(void)
{
	const double y[] = {0.1, 0.3, 0.5}, se[] = {0.1, 0.1, 0.1};
	const double close[] = {0.10, 0.11, 0.12};
	double q, p, i2, w;

	ok(cb_repro_cochran(y, se, 3, &q, &p, &i2) == 0, "Cochran's Q");
	near(q, 8, 1e-12, "Q = 100 (0.04 + 0 + 0.04) = 8");
	near(p, exp(-4), 1e-12, "p = exp(-Q/2) with 2 df");
	near(i2, 0.75, 1e-12, "I^2 = (8 - 2)/8");
	cb_repro_cochran(close, se, 3, &q, &p, &i2);
	ok(fabs(q - 0.02) < 1e-12 && i2 == 0, "Q below its df: I^2 is 0");
	ok(cb_repro_cochran(y, (const double[]){0.1, 0, 0.1}, 3, &q, &p, &i2) == -1 && isnan(q),
	   "a zero SE: Q undefined");

	const double same[] = {5, 4, 3, 2, 1, 50, 40, 30, 20, 10, 0.5, 0.4, 0.3, 0.2, 0.1};
	ok(cb_repro_kendall_w(same, 3, 5, &w, &p) == 0, "Kendall's W");
	near(w, 1, 1e-12, "identical rankings: W = 1");
	near(p, 7 * exp(-6), 1e-12, "chi-square 12 on 4 df");
	const double reversed[] = {1, 2, 3, 4, 5, 5, 4, 3, 2, 1};
	cb_repro_kendall_w(reversed, 2, 5, &w, &p);
	near(w, 0, 1e-12, "reversed rankings: W = 0");
	near(p, 1, 1e-12, "and p = 1");
	const double three[] = {1, 2, 3, 4, 2, 1, 3, 4, 1, 3, 2, 4};
	cb_repro_kendall_w(three, 3, 4, &w, &p);
	near(w, 12.0 * 35 / (9 * 60), 1e-12, "3 runs, 4 items: W = 7/9");
	near(p, 0.07189777249646513, 1e-9, "chi-square 7 on 3 df");
	const double tied[] = {1, 1, 2, 1, 2, 3};
	cb_repro_kendall_w(tied, 2, 3, &w, &p);
	near(w, 78.0 / 84.0, 1e-12, "with a tie: W = 12*6.5/(4*24 - 2*6)");
	ok(cb_repro_kendall_w(same, 1, 5, &w, &p) == -1 && isnan(w), "one run: no W");
}

static void test_margin(void)
{
	struct cb_estimate base = run(0.0, 0.005), x = run(log(1.05), 0.005);
	struct cb_margin m;
	int agree = 0, trials = 2000, beyond = 0, within = 0;

	near(cb_repro_log_se(&x, 0.95), 0.005, 1e-12, "SE from a 95% interval");
	near(cb_repro_log_se(&x, 0.99), 0.005 * Z95 / gsl_cdf_ugaussian_Pinv(0.995), 1e-12,
	     "a 99% interval (Bonferroni-widened) of the same width: a smaller SE");
	ok(isnan(cb_repro_log_se(&(struct cb_estimate){1, NAN, NAN}, 0.95)), "no interval: no SE");

	ok(cb_margin_ratio(&x, 0.95, &base, 0.95, 0.02, 0.05, &m) == 0 &&
	       m.verdict == CB_MARGIN_BEYOND,
	   "5%% apart, SE 0.5%% each: beyond a 2%% margin (p %.3g)", m.p_beyond);
	near(m.ratio, 1.05, 1e-12, "the ratio A/B");
	near(m.se, 0.005 * sqrt(2.0), 1e-12, "SE of the log ratio: sqrt(se_a^2 + se_b^2)");
	ok(m.lo > 1.02 && m.p_beyond < 0.05, "its interval [%.4f, %.4f] lies above 1.02", m.lo,
	   m.hi);
	cb_margin_ratio(&base, 0.95, &x, 0.95, 0.02, 0.05, &m);
	ok(m.verdict == CB_MARGIN_BEYOND && m.hi < 1 / 1.02, "and below 1/1.02 the other way");
	x = run(log(1.05), 0.05);
	cb_margin_ratio(&x, 0.95, &base, 0.95, 0.02, 0.05, &m);
	is_num(m.verdict, CB_MARGIN_NOT_RESOLVED, "5%% apart with SE 5%%: not resolved");
	x = run(log(1.005), 0.002);
	cb_margin_ratio(&x, 0.95, &base, 0.95, 0.02, 0.05, &m);
	ok(m.verdict == CB_MARGIN_WITHIN && m.p_within < 0.05,
	   "0.5%% apart, SE 0.2%%: equivalent within 2%% (p %.3g)", m.p_within);
	ok(cb_margin_ratio(&x, 0.95, &base, 0.95, 0, 0.05, &m) == -1, "a margin of 0 is refused");

	/* The p-values and the intervals say the same thing, everywhere. */
	for (int i = 0; i < trials; i++) {
		struct cb_estimate a =
		    run(gsl_ran_flat(rng, -0.08, 0.08), gsl_ran_flat(rng, 1e-4, 0.03));
		struct cb_estimate b = run(0.0, gsl_ran_flat(rng, 1e-4, 0.03));
		double m2 = log(1.02), zt = gsl_cdf_ugaussian_Pinv(0.95);

		cb_margin_ratio(&a, 0.95, &b, 0.95, 0.02, 0.05, &m);
		bool outside = m.lo > 1.02 || m.hi < 1 / 1.02;
		bool inside = fabs(m.log_ratio) + zt * m.se < m2;
		agree += (m.verdict == CB_MARGIN_BEYOND) == outside &&
		         (m.verdict == CB_MARGIN_WITHIN) == inside;
		beyond += m.verdict == CB_MARGIN_BEYOND;
		within += m.verdict == CB_MARGIN_WITHIN;
	}
	is_num(agree, trials,
	       "beyond <=> 95%% interval outside the band, within <=> 90%% inside "
	       "(%d beyond, %d within)",
	       beyond, within);
}

static void test_repro_verdicts(void)
{
	struct cb_repro_options opt;
	struct cb_repro r;
	char err[128], why[256];

	cb_repro_defaults(&opt);
	struct cb_estimate good[5];
	const double v[] = {1.10, 1.105, 1.095, 1.1025, 1.0975};
	double log_mean = 0;
	for (int i = 0; i < 5; i++)
		log_mean += log(v[i]) / 5;
	for (int i = 0; i < 5; i++)
		good[i] = run(log(v[i]), 0.002);
	ok(cb_repro_compare(good, NULL, 5, NULL, &r, err, sizeof(err)) == 0, "compare 5 runs");
	is_str(cb_repro_verdict_name(r.verdict), "reproduced",
	       "five runs within 0.9%%, SE 0.2%%: reproduced");
	ok(r.pairs == 10 && r.pair_a == 1 && r.pair_b == 2, "the least clear pair is runs 1, 2");
	cb_repro_why_text(&r, opt.delta, NULL, 0, why, sizeof why);
	diag("%s", why);
	near(r.value.value, exp(log_mean), 1e-12, "across runs: geometric mean");
	near(r.spread, 1.105 / 1.095 - 1, 1e-12, "spread max/min - 1");

	for (int i = 0; i < 5; i++)
		good[i] = run(log(v[i]), 0.02 / Z95);
	cb_repro_compare(good, NULL, 5, NULL, &r, NULL, 0);
	ok(r.verdict == CB_REPRO_NOT_RESOLVED && r.why == CB_REPRO_WHY_TOO_WIDE,
	   "the same with +/-2%% intervals: too few rounds to tell");
	cb_repro_why_text(&r, opt.delta, NULL, 0, why, sizeof why);
	ok(strstr(why, "too few rounds to tell") != NULL, "and says so: %s", why);
	ok(r.q > 0 && r.q_p > 0.5, "Q of the five reported (%.3g, p %.3g)", r.q, r.q_p);

	/* Disjoint intervals 1% apart: significant, but inside the margin. */
	struct cb_estimate apart[8];
	for (int i = 0; i < 8; i++)
		apart[i] = run(0.05, 0.001);
	apart[6] = run(0.045, 0.001), apart[7] = run(0.055, 0.001);
	cb_repro_compare(apart, NULL, 8, &opt, &r, NULL, 0);
	ok(apart[6].hi < apart[7].lo && r.verdict == CB_REPRO_REPRODUCED,
	   "disjoint intervals 1%% apart: reproduced within 2%%");
	ok(r.q_p < 0.01, "(Cochran's Q calls them heterogeneous, p %.2g: no margin)", r.q_p);

	struct cb_estimate far[2] = {run(0.2, 0.005), run(0.25, 0.005)};
	cb_repro_compare(far, NULL, 2, &opt, &r, NULL, 0);
	ok(r.verdict == CB_REPRO_NON_REPRODUCIBLE && r.pair_a == 0 && r.pair_b == 1,
	   "5%% apart, SE 0.5%%: non-reproducible");
	ok(r.pair.lo > 1.02, "the pair's interval [%.4f, %.4f] lies beyond 1.02", r.pair.lo,
	   r.pair.hi);
	cb_repro_why_text(&r, opt.delta, NULL, 0, why, sizeof why);
	diag("%s", why);

	struct cb_estimate wide[2] = {run(0.2, 0.05), run(0.249, 0.05)};
	cb_repro_compare(wide, NULL, 2, &opt, &r, NULL, 0);
	ok(r.verdict == CB_REPRO_NOT_RESOLVED && r.why == CB_REPRO_WHY_EDGE,
	   "5%% apart with wide intervals: not resolved, beyond or not");

	/* The interval's own level: a Bonferroni-widened 99% interval is tighter
	 * in SE than the same width at 95%. */
	struct cb_estimate edge[2] = {run(0.0, 0.008), run(0.040, 0.008)};
	const double levels[2] = {0.999, 0.999};
	cb_repro_compare(edge, NULL, 2, &opt, &r, NULL, 0);
	is_num(r.verdict, CB_REPRO_NOT_RESOLVED,
	       "4.1%% apart, taken as 95%% intervals: not resolved");
	cb_repro_compare(edge, levels, 2, &opt, &r, NULL, 0);
	is_num(r.verdict, CB_REPRO_NON_REPRODUCIBLE, "the same widths at 99.9%%: non-reproducible");

	struct cb_estimate flip[3] = {{1.05, 1.02, 1.08}, {1.0, 0.97, 1.03}, {0.95, 0.92, 0.98}};
	cb_repro_compare(flip, NULL, 3, &opt, &r, NULL, 0);
	is_str(cb_repro_verdict_name(r.verdict), "contradictory", "significant both ways");
	ok(r.above == 0 && r.below == 2, "runs 0 (above) and 2 (below)");
	opt.reference = NAN;
	cb_repro_compare(flip, NULL, 3, &opt, &r, NULL, 0);
	is_num(r.verdict, CB_REPRO_NON_REPRODUCIBLE, "no reference: non-reproducible instead");

	cb_repro_compare(good, NULL, 1, NULL, &r, NULL, 0);
	ok(r.verdict == CB_REPRO_NOT_RESOLVED && r.why == CB_REPRO_WHY_FEW_RUNS &&
	       isnan(r.value.value),
	   "one run: not resolved");
	good[2].lo = good[2].hi = NAN;
	ok(cb_repro_compare(good, NULL, 5, NULL, &r, NULL, 0) == 0 &&
	       r.verdict == CB_REPRO_NOT_RESOLVED && r.why == CB_REPRO_WHY_NO_INTERVAL,
	   "a run without an interval: not resolved");
	good[2].lo = 2, good[2].hi = 3;
	ok(cb_repro_compare(good, NULL, 5, NULL, &r, err, sizeof(err)) == -1,
	   "an interval not holding its estimate is refused: %s", err);
}

static void test_family(void)
{
	const double p[] = {0.01, 0.04, 0.03, 0.2, NAN};
	double adj[5];
	struct cb_repro rows[20], *ptr[20];

	ok(cb_repro_bh(p, 5, adj) == 0, "Benjamini-Hochberg");
	near(adj[0], 0.04, 1e-12, "smallest of 4: 4 x 0.01");
	near(adj[2], 0.16 / 3, 1e-12, "0.03: min(4 x 0.03 / 2, the next one's 4 x 0.04 / 3)");
	near(adj[1], 0.16 / 3, 1e-12, "0.04: 4 x 0.04 / 3");
	near(adj[3], 0.2, 1e-12, "largest: itself");
	ok(isnan(adj[4]), "NaN left out");

	for (int i = 0; i < 20; i++) {
		memset(&rows[i], 0, sizeof rows[i]);
		rows[i].verdict = CB_REPRO_REPRODUCED;
		rows[i].p_beyond = 0.5;
		ptr[i] = &rows[i];
	}
	rows[0].verdict = rows[1].verdict = CB_REPRO_NON_REPRODUCIBLE;
	rows[0].p_beyond = 0.01; /* 20 x 0.01 / 1 = 0.2: not across 20 rows */
	rows[1].p_beyond = 1e-4;
	is_num(cb_repro_family(ptr, 20, 0.05), 1, "one row downgraded");
	ok(rows[0].verdict == CB_REPRO_NOT_RESOLVED && rows[0].why == CB_REPRO_WHY_FAMILY,
	   "p 0.01 alone among 20 rows: not resolved (adjusted %.3g)", rows[0].p_adjusted);
	ok(rows[1].verdict == CB_REPRO_NON_REPRODUCIBLE && rows[1].p_adjusted < 0.05,
	   "p 1e-4 stays non-reproducible (adjusted %.3g)", rows[1].p_adjusted);
}

/* Five runs of 30 rounds with nothing changed between them, load shared by
 * each round: how are they judged? */
static void test_repro_false_alarms(void)
{
	const int sets = 400, k = 5, n = 30;
	double num[30], den[30];
	int alarms = 0, reproduced = 0;

	for (int s = 0; s < sets; s++) {
		struct cb_estimate runs[5];
		struct cb_ratio ratio;
		struct cb_repro r;
		for (int j = 0; j < k; j++) {
			for (int i = 0; i < n; i++) {
				double load = gsl_ran_lognormal(rng, 0.0, 0.2);
				den[i] = 1000.0 / load * exp(gsl_ran_gaussian(rng, 0.01));
				num[i] = 1050.0 / load * exp(gsl_ran_gaussian(rng, 0.01));
			}
			cb_ratio_paired(num, den, n, 0.95, &ratio, NULL, 0);
			runs[j] = (struct cb_estimate){ratio.value, ratio.ci.lo, ratio.ci.hi};
		}
		cb_repro_compare(runs, NULL, k, NULL, &r, NULL, 0);
		alarms += r.verdict == CB_REPRO_NON_REPRODUCIBLE;
		reproduced += r.verdict == CB_REPRO_REPRODUCED;
	}
	diag("no change, 5 runs x 30 rounds, %d sets: non-reproducible %d, reproduced %d", sets,
	     alarms, reproduced);
	ok(alarms <= sets / 100, "nothing changed: non-reproducible in %d of %d", alarms, sets);
	ok(reproduced >= sets * 8 / 10, "nothing changed: reproduced in %d of %d", reproduced,
	   sets);
}

int main(int argc, char **argv)
{
	tap_plan(184);
	unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : DEFAULT_SEED;

	diag("seed %lu", seed);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);

	test_median_ranks();
	test_summary_small();
	test_outliers_and_contamination();
	test_spearman_and_lag1();
	test_kruskal();
	test_median_coverage();
	test_ratio();
	test_ratio_verdicts();
	test_ratio_simulated();
	test_slope();
	test_robust_line();
	test_crossover();
	test_cochran_and_kendall();
	test_margin();
	test_repro_verdicts();
	test_family();
	test_repro_false_alarms();

	gsl_rng_free(rng);
	return tap_done();
}
