/* plan_runs_predict.c: compare's verdict on K fresh runs of n rounds,
 * predicted from a pilot (plan_runs_predict.h). */
#include "analysis/verdicts/plan_runs_predict.h"

#include "analysis/stats/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- The run's standard error at n rounds ---- */

/* Half-width over z of the exact median interval at LEVEL of n standard
 * normal values placed at their quantiles (i - 1/2) / n: how the interval
 * compare reads narrows with n, order statistics and all. NaN when n is
 * too small for LEVEL. */
static double interval_shape_exact(size_t n, double level)
{
	double *x = calloc(n ? n : 1, sizeof *x), shape = NAN; /* NULL, not a wrapped size */
	struct cb_stats_interval ci;

	if (!x)
		return NAN;
	for (size_t i = 0; i < n; i++)
		x[i] = gsl_cdf_ugaussian_Pinv(((double)i + 0.5) / (double)n);
	if (cb_stats_median_interval(x, n, level, &ci) == 0 && ci.available)
		shape = (ci.hi - ci.lo) / (2.0 * gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - level) / 2.0));
	free(x);
	return shape;
}

/* The search asks for the same few shapes hundreds of thousands of times
 * (every row, every plan tried): each (n, level) is computed once per
 * process. Levels are few (0.95, or one Bonferroni-wider level a table
 * shares); beyond the cache's reach the shape is computed. */
enum { CB_SHAPE_LEVELS = 4, CB_SHAPE_MAX_N = 4096 };
static struct {
	double level;
	double *shape; /* [CB_SHAPE_MAX_N], 0: not yet computed */
} shapes[CB_SHAPE_LEVELS];

static double interval_shape(size_t n, double level)
{
	size_t i = 0;

	if (n >= CB_SHAPE_MAX_N)
		return interval_shape_exact(n, level);
	while (i < CB_SHAPE_LEVELS && shapes[i].shape && shapes[i].level != level)
		i++;
	if (i == CB_SHAPE_LEVELS)
		return interval_shape_exact(n, level);
	if (!shapes[i].shape) {
		if (!(shapes[i].shape = calloc(CB_SHAPE_MAX_N, sizeof *shapes[i].shape)))
			return interval_shape_exact(n, level);
		shapes[i].level = level;
	}
	if (shapes[i].shape[n] == 0.0) {
		double shape = interval_shape_exact(n, level);

		shapes[i].shape[n] = isnan(shape) ? -1.0 : shape;
	}
	return shapes[i].shape[n] < 0.0 ? NAN : shapes[i].shape[n];
}

/* The shape at the pilot's rounds, or NaN when the pilot read no standard
 * error: its pilot_rounds is then NaN (runs of fewer rounds than an interval
 * needs), which must not become a count of rounds. */
static double pilot_shape(const struct cb_plan_model *m)
{
	if (!(isfinite(m->pilot_rounds) && m->pilot_rounds >= 1.0))
		return NAN;
	return interval_shape((size_t)llround(m->pilot_rounds), m->level);
}

double cb_plan_se(const struct cb_plan_model *m, size_t rounds)
{
	double at_pilot;

	if (m->scale > 0.0)
		return m->scale * interval_shape(rounds, m->level);
	if (!(m->se_pilot > 0.0) || !((at_pilot = pilot_shape(m)) > 0.0))
		return NAN;
	return m->se_pilot * interval_shape(rounds, m->level) / at_pilot;
}

/* ---- The range of K normals ---- */

/* P(range of K standard normals <= W) = K int phi(x) (Phi(x + W) - Phi(x))^(K-1)
 * dx, by Simpson's rule on [-8, 8]: error far below the 1% a plan's target
 * is read at. */
static double range_cdf_exact(size_t k, double w)
{
	enum { STEPS = 320 };
	const double a = -8.0, h = 16.0 / STEPS;
	double sum = 0.0;

	for (int j = 0; j <= STEPS; j++) {
		double x = a + h * j;
		double f =
		    gsl_ran_ugaussian_pdf(x) *
		    pow(gsl_cdf_ugaussian_P(x + w) - gsl_cdf_ugaussian_P(x), (double)k - 1.0);
		sum += f * (j == 0 || j == STEPS ? 1.0 : j % 2 ? 4.0 : 2.0);
	}
	return fmin(1.0, (double)k * sum * h / 3.0);
}

/* The table's search asks for the range's distribution a few hundred
 * thousand times, so for K above 2 it is tabulated once per process, every
 * K at once (the integrand's parts do not depend on K: its power is built by
 * multiplying, K by K), on W in [0, 12] by steps of 0.01 and read by linear
 * interpolation: its second derivative is below 1, so the error is below
 * 2e-5. Above 12 the range's P is 1 to double precision for any K the
 * planner tries (K below 64: K (1 - Phi(12 / 2)) < 1e-7). */
enum { CB_RANGE_MAX_K = 64, CB_RANGE_POINTS = 1201, CB_RANGE_STEPS = 320 };
#define CB_RANGE_STEP 0.01
static double *range_table; /* [k * CB_RANGE_POINTS + i], k from 0 (3..63 used) */

static int range_tabulate(void)
{
	const double a = -8.0, h = 16.0 / CB_RANGE_STEPS;
	double *t = calloc((size_t)CB_RANGE_MAX_K * CB_RANGE_POINTS, sizeof *t);

	if (!t)
		return -1;
	for (size_t i = 1; i < CB_RANGE_POINTS; i++) {
		double w = CB_RANGE_STEP * (double)i;

		for (int j = 0; j <= CB_RANGE_STEPS; j++) {
			double x = a + h * j;
			double weight = (j == 0 || j == CB_RANGE_STEPS ? 1.0 : j % 2 ? 4.0 : 2.0);
			double inside = gsl_cdf_ugaussian_P(x + w) - gsl_cdf_ugaussian_P(x);
			double f = gsl_ran_ugaussian_pdf(x) * weight * inside; /* K = 3: ^2 */

			for (size_t k = 3; k < CB_RANGE_MAX_K; k++) {
				f *= inside;
				t[k * CB_RANGE_POINTS + i] += f;
			}
		}
		for (size_t k = 3; k < CB_RANGE_MAX_K; k++)
			t[k * CB_RANGE_POINTS + i] =
			    fmin(1.0, (double)k * t[k * CB_RANGE_POINTS + i] * h / 3.0);
	}
	range_table = t;
	return 0;
}

static double range_cdf(size_t k, double w)
{
	if (!(w > 0.0))
		return 0.0;
	if (isinf(w))
		return 1.0;
	if (k == 2)
		return 2.0 * gsl_cdf_ugaussian_P(w / M_SQRT2) - 1.0;
	if (k >= CB_RANGE_MAX_K)
		return range_cdf_exact(k, w);
	if (w >= CB_RANGE_STEP * (CB_RANGE_POINTS - 1))
		return 1.0;
	if (!range_table && range_tabulate() != 0)
		return range_cdf_exact(k, w);
	const double *t = range_table + k * CB_RANGE_POINTS;
	double x = w / CB_RANGE_STEP, f = floor(x);
	size_t i = (size_t)f;

	return t[i] + (x - f) * (t[i + 1] - t[i]);
}

/* The chi-square quantiles the corners and the expectation are read at,
 * for DF degrees of freedom: P of them are asked for per row and plan
 * tried, always at the same few (P, DF), so each is computed once per
 * process (a small table indexed by a hash of both; a collision computes). */
enum { CB_CHISQ_CACHE = 512 };
static struct {
	double p, df, x;
} chisq_cache[CB_CHISQ_CACHE];

static double chisq_quantile(double p, double df)
{
	uint64_t bits_p, bits_df;

	memcpy(&bits_p, &p, sizeof bits_p);
	memcpy(&bits_df, &df, sizeof bits_df);
	uint64_t h = (bits_p * 0x9e3779b97f4a7c15ull) ^ (bits_df * 0xbf58476d1ce4e5b9ull);
	size_t i = (size_t)(h >> 55) % CB_CHISQ_CACHE;

	if (chisq_cache[i].df != df || chisq_cache[i].p != p || chisq_cache[i].df == 0.0) {
		chisq_cache[i].p = p;
		chisq_cache[i].df = df;
		chisq_cache[i].x = gsl_cdf_chisq_Pinv(p, df);
	}
	return chisq_cache[i].x;
}

/* sigma_b^2 given the pilot's medians varied as X_B says (a chi^2 draw or
 * quantile with k - 1 df) and the rounds' variance was RATIO times its
 * estimate. */
static double between_given(const struct cb_plan_model *m, double x_b, double ratio)
{
	double e = m->median_var * ((double)m->pilot_runs - 1.0) / x_b;

	return fmax(0.0, e - m->median_noise * ratio);
}

static bool uncertain(const struct cb_plan_model *m)
{
	return m->pilot_runs >= 2 && m->median_var >= 0.0 && m->median_noise >= 0.0;
}

/* The range model at one sigma_b^2 (BETWEEN): every run with the same
 * standard error, the largest pair difference deciding (see plan_runs.h). */
static void range_at(const struct cb_plan_model *m, size_t runs, double se, double between,
                     double *p_reproduced, double *p_beyond)
{
	double pairs = (double)runs * ((double)runs - 1.0) / 2.0;
	double family = m->family ? (double)m->family : 1.0;
	double s = M_SQRT2 * se, margin = log1p(m->delta);
	double omega = sqrt(between + se * se);
	double z_within = gsl_cdf_ugaussian_Pinv(1.0 - m->alpha);
	double z_beyond = gsl_cdf_ugaussian_Qinv(m->alpha / (2.0 * pairs * family));

	*p_reproduced = range_cdf(runs, (margin - z_within * s) / omega);
	*p_beyond = 1.0 - range_cdf(runs, (margin + z_beyond * s) / omega);
}

/* The components a plan must resolve the row under: with a pilot, sigma_b^2
 * at the CB_PLAN_CORNERS quantiles of its sampling distribution (plan_runs.h)
 * and the rounds' variance at its upper bound; without, the estimates.
 * BETWEEN and RATIO (the rounds' variance over its estimate) per corner;
 * how many. */
enum { CB_PLAN_CORNERS = 11 };
#define CB_PLAN_CONFIDENCE 0.9 /* of the rounds' variance's upper bound */
static size_t corners(const struct cb_plan_model *m, double *between, double *ratio)
{
	static const double probs[CB_PLAN_CORNERS] = {0.05, 0.1, 0.2, 0.3, 0.4, 0.5,
	                                              0.6,  0.7, 0.8, 0.9, 0.95};
	if (!uncertain(m)) {
		between[0] = m->between;
		ratio[0] = 1.0;
		return 1;
	}
	double df = fmax(1.0, m->scale_df);
	double r = df / chisq_quantile(1.0 - CB_PLAN_CONFIDENCE, df);
	for (size_t q = 0; q < CB_PLAN_CORNERS; q++) {
		double x = chisq_quantile(probs[q], (double)m->pilot_runs - 1.0);

		between[q] = between_given(m, x, r);
		ratio[q] = r;
	}
	return CB_PLAN_CORNERS;
}

/* The analytic prediction at the worst corner (the lowest P(resolved)).
 * Used to prune the search; the Monte Carlo below is what a plan is judged
 * by. */
int cb_plan_predict_range(const struct cb_plan_model *m, size_t runs, size_t rounds,
                          double *p_reproduced, double *p_beyond)
{
	double se = cb_plan_se(m, rounds), between[CB_PLAN_CORNERS], ratio[CB_PLAN_CORNERS];

	*p_reproduced = *p_beyond = NAN;
	if (runs < 2 || !(se > 0.0) || !(m->between >= 0.0) || !(m->delta > 0.0) ||
	    !(m->alpha > 0.0 && m->alpha < 0.5))
		return -1;
	size_t n = corners(m, between, ratio);
	double worst = INFINITY;
	for (size_t q = 0; q < n; q++) {
		double r, b;

		range_at(m, runs, se * sqrt(ratio[q]), between[q], &r, &b);
		if (r + b < worst) {
			worst = r + b;
			*p_reproduced = r, *p_beyond = b;
		}
	}
	return 0;
}

/* The range model's P(resolved) averaged over what the pilot leaves unknown
 * about sigma_b^2: at the midpoints (i + 1/2) / 10 of its sampling
 * distribution, equally weighted, the rounds' variance at its estimate. An
 * expectation, not a promise: the table's choice under a budget
 * (plan_runs.h), where the worst corner would rule out every plan. */
enum { CB_PLAN_MEAN_POINTS = 10 };
double cb_plan_predict_expected(const struct cb_plan_model *m, size_t runs, size_t rounds)
{
	double se = cb_plan_se(m, rounds), sum = 0.0;

	if (runs < 2 || !(se > 0.0) || !(m->between >= 0.0) || !(m->delta > 0.0) ||
	    !(m->alpha > 0.0 && m->alpha < 0.5))
		return NAN;
	if (!uncertain(m)) {
		double r, b;

		range_at(m, runs, se, m->between, &r, &b);
		return r + b;
	}
	for (size_t q = 0; q < CB_PLAN_MEAN_POINTS; q++) {
		double x = chisq_quantile(((double)q + 0.5) / CB_PLAN_MEAN_POINTS,
		                          (double)m->pilot_runs - 1.0);
		double r, b;

		range_at(m, runs, se, between_given(m, x, 1.0), &r, &b);
		sum += r + b;
	}
	return sum / CB_PLAN_MEAN_POINTS;
}

/* The within-run scale the pilot's intervals imply: se_pilot over the
 * interval's shape at the pilot's rounds. */
static double within_scale(const struct cb_plan_model *m)
{
	if (m->scale > 0.0)
		return m->scale;
	return m->se_pilot / pilot_shape(m);
}

/* U_(lo), U_(mid), [U_(mid+1)], U_(hi) of N uniforms from gamma spacings
 * (U_(j) = G_j / G_(n+1), G_j a sum of j exponentials), to normal. */
static void order_stats(gsl_rng *rng, size_t n, size_t lo, size_t hi, double *x_lo, double *x_med,
                        double *x_hi)
{
	size_t mid = (n + 1) / 2;
	double g_lo = gsl_ran_gamma(rng, (double)lo, 1.0);
	double g_mid = g_lo + (mid > lo ? gsl_ran_gamma(rng, (double)(mid - lo), 1.0) : 0.0);
	double g_mid2 = n % 2 ? g_mid : g_mid + gsl_ran_exponential(rng, 1.0);
	double g_hi = g_mid2 + (hi > mid + (n % 2 ? 0 : 1)
	                            ? gsl_ran_gamma(rng, (double)(hi - mid - (n % 2 ? 0 : 1)), 1.0)
	                            : 0.0);
	double total = g_hi + gsl_ran_gamma(rng, (double)(n + 1 - hi), 1.0);

	*x_lo = gsl_cdf_ugaussian_Pinv(g_lo / total);
	*x_hi = gsl_cdf_ugaussian_Pinv(g_hi / total);
	*x_med =
	    (gsl_cdf_ugaussian_Pinv(g_mid / total) + gsl_cdf_ugaussian_Pinv(g_mid2 / total)) / 2;
}

enum { CB_PLAN_DRAWS = 1000 };

/* The draws are made at the three corners the range model puts lowest, not
 * at all eleven: the model ranks the corners well though its P is only
 * approximate, and the draws are the planner's cost. */
enum { CB_PLAN_DRAWN_CORNERS = 3 };

/* Whether HITS of D draws already tell which side of TARGET the P lies on,
 * by four standard errors (the binomial's, at least that of P = 0.05):
 * a plan far from its target needs no thousand draws to say so. NaN
 * TARGET: never. */
static bool settled(size_t hits, size_t d, double target)
{
	double p = (double)hits / (double)d;
	double se = sqrt(fmax(p * (1.0 - p), 0.05 * 0.95) / (double)d);

	return !isnan(target) && fabs(p - target) > 3.0 * se;
}

/* compare's rule (cb_repro_compare, repro.h) on one simulated set, in the
 * log space the draws are made in. Every pair (i, j) has the excess
 * E_ij = (|y_i - y_j| - m) / sqrt(se_i^2 + se_j^2); the row is
 * non-reproducible when P Bonferroni's 2 Q(E) < alpha for some pair, else
 * reproduced when Phi(E) < alpha for every pair: both depend on the largest
 * E alone, so the rule is two comparisons of it with thresholds computed
 * once per plan (the same verdicts as cb_repro_compare, without its logs,
 * exponentials and normal quantiles per pair, which were most of the
 * planner's time). */
struct judge {
	double margin;    /* log(1 + delta) */
	double z_se;      /* 2 z(1 - (1 - level) / 2): an interval's width over se */
	double z_within;  /* reproduced: largest E < -z(1 - alpha) */
	double z_beyond;  /* non-reproducible: largest E > z(1 - alpha / (2 P)) */
	double z_counted; /* and counted: > z(1 - alpha / (2 P F)) */
};

static double largest_excess(const double *y, const double *se, size_t runs, double margin)
{
	double largest = -INFINITY;

	for (size_t i = 0; i < runs; i++)
		for (size_t j = i + 1; j < runs; j++) {
			double s = sqrt(se[i] * se[i] + se[j] * se[j]);
			double excess = fabs(y[i] - y[j]) - margin;
			/* exact estimates (s 0): the difference is what it is */
			double e = s > 0.0 ? excess / s : excess > 0.0 ? INFINITY : -INFINITY;

			largest = fmax(largest, e);
		}
	return largest;
}

/* CB_PLAN_DRAWS simulated sets: RUNS runs, each of ROUNDS normal rounds of
 * sd SIGMA around its own N(0, SB^2) offset, each with its exact median
 * interval, judged by compare's rule (above); a non-reproducible set counts
 * when its p is below alpha / family. The draws are seeded by (runs,
 * rounds): the same plan, the same answer. */
static int predict_at(const struct cb_plan_model *m, size_t runs, size_t rounds, double sigma,
                      double sb, double target, double *p_reproduced, double *p_beyond)
{
	size_t d = 0;
	size_t lo, hi, rep = 0, bey = 0;
	double coverage, pairs = (double)runs * ((double)runs - 1.0) / 2.0;
	double family = (double)(m->family ? m->family : 1);
	double *y = malloc((runs ? runs : 1) * sizeof *y);
	double *se = malloc((runs ? runs : 1) * sizeof *se);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = -1;

	if (!y || !se || !rng || !(m->level > 0.0 && m->level < 1.0) || !(m->delta > 0.0) ||
	    !(m->alpha > 0.0 && m->alpha < 0.5) ||
	    cb_stats_median_ranks(rounds, m->level, &lo, &hi, &coverage) != 0)
		goto done;
	struct judge j = {log1p(m->delta),
	                  2.0 * gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - m->level) / 2.0),
	                  gsl_cdf_ugaussian_Pinv(1.0 - m->alpha),
	                  gsl_cdf_ugaussian_Qinv(m->alpha / (2.0 * pairs)),
	                  gsl_cdf_ugaussian_Qinv(m->alpha / (2.0 * pairs * family))};
	gsl_rng_set(rng, 20260804u ^ (runs << 20) ^ rounds);
	for (; d < CB_PLAN_DRAWS; d++) {
		if (d >= 100 && d % 50 == 0 && settled(rep + bey, d, target))
			break;
		for (size_t i = 0; i < runs; i++) {
			double b = sb > 0.0 ? gsl_ran_gaussian(rng, sb) : 0.0, x_lo, x_med, x_hi;

			order_stats(rng, rounds, lo, hi, &x_lo, &x_med, &x_hi);
			y[i] = b + sigma * x_med;
			se[i] = sigma * (x_hi - x_lo) / j.z_se;
		}
		double e = largest_excess(y, se, runs, j.margin);

		if (e > j.z_beyond)
			bey += e > j.z_counted;
		else
			rep += e < -j.z_within;
	}
	*p_reproduced = (double)rep / (double)d;
	*p_beyond = (double)bey / (double)d;
	rc = 0;
done:
	gsl_rng_free(rng);
	free(se);
	free(y);
	return rc;
}

int cb_plan_predict(const struct cb_plan_model *m, size_t runs, size_t rounds, double *p_reproduced,
                    double *p_beyond)
{
	return cb_plan_predict_against(m, runs, rounds, NAN, p_reproduced, p_beyond);
}

/* The draws at every corner; the worst one's P. */
int cb_plan_predict_against(const struct cb_plan_model *m, size_t runs, size_t rounds,
                            double target, double *p_reproduced, double *p_beyond)
{
	double sigma = within_scale(m), between[CB_PLAN_CORNERS], ratio[CB_PLAN_CORNERS];
	double analytic[CB_PLAN_CORNERS], worst = INFINITY;
	size_t order[CB_PLAN_CORNERS];

	*p_reproduced = *p_beyond = NAN;
	if (runs < 2 || !(sigma > 0.0) || !(m->between >= 0.0))
		return -1;
	size_t n = corners(m, between, ratio);
	double se = cb_plan_se(m, rounds);
	/* the corners by the range model's P, lowest first: the draws go
	 * where the row is likeliest to fail */
	for (size_t q = 0; q < n; q++) {
		double r = NAN, b = NAN;

		if (se > 0.0)
			range_at(m, runs, se * sqrt(ratio[q]), between[q], &r, &b);
		analytic[q] = isnan(r + b) ? 0.0 : r + b;
		order[q] = q;
		for (size_t j = q; j > 0 && analytic[order[j]] < analytic[order[j - 1]]; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	}
	if (n > CB_PLAN_DRAWN_CORNERS)
		n = CB_PLAN_DRAWN_CORNERS;
	for (size_t i = 0; i < n; i++) {
		size_t q = order[i];
		double r, b;

		if (predict_at(m, runs, rounds, sigma * sqrt(ratio[q]), sqrt(between[q]), target,
		               &r, &b) != 0) {
			*p_reproduced = *p_beyond = NAN;
			return -1;
		}
		if (r + b < worst) {
			worst = r + b;
			*p_reproduced = r, *p_beyond = b;
		}
		if (worst < (isnan(target) ? 0.5 : target))
			break; /* below the target: no need to look further */
	}
	return 0;
}
