/* components.h: within-run and between-run variance of one measure.
 *
 * A pilot of k runs, run i with n_i rounds, of one cell or metric, each round
 * one value y_ij on the log scale (log c/B, log MB/s, a round's log-ratio).
 * The two-level model of Kalibera and Jones ("Rigorous benchmarking in
 * reasonable time", 2013):
 *
 *   y_ij = mu + b_i + e_ij,   b_i ~ (0, sigma_b^2) the run's own offset (its
 *                             process, layout, clock), e_ij ~ (0, sigma_w^2)
 *                             the round's noise
 *
 * estimated as in their reference code (libkalibera), with unbiased
 * estimators for equal n:
 *
 *   S_1^2 = mean over runs of the within-run sample variance (n_i - 1 df)
 *   S_2^2 = sample variance of the k run means (k - 1 df)
 *   sigma_w^2 = S_1^2
 *   sigma_b^2 = S_2^2 - S_1^2 / n, floored at 0
 *
 * E[S_2^2] = sigma_b^2 + sigma_w^2 / n, hence the subtraction. With unequal
 * round counts, n is the harmonic mean of the n_i (the run means' within
 * part then averages sigma_w^2 / n_i) and S_1^2 pools the runs' variances
 * weighted by their degrees of freedom; with equal n both reduce to the
 * above. NaN values (a round without a valid trial) are left out of their
 * run.
 *
 * Same conventions as stats.h: 0 on success, -1 with a one-line ERR (which
 * may be NULL); quantities that do not exist are NaN. */
#ifndef CB_COMPONENTS_H
#define CB_COMPONENTS_H

#include <stddef.h>

struct cb_components {
	size_t runs;        /* k: runs with at least two values */
	double rounds;      /* n: the harmonic mean of their value counts */
	double mean;        /* mu: the mean of the run means */
	double s1, s2;      /* S_1^2 and S_2^2 above */
	double within;      /* sigma_w^2 */
	double between;     /* sigma_b^2 (floored at 0) */
	double between_raw; /* S_2^2 - S_1^2 / n before the floor (may be < 0) */
};

/* Estimate the components of the K runs Y[i][0..n[i]-1] into OUT. -1 with
 * ERR (OUT all NaN) when fewer than two runs have two finite values, or a
 * value is infinite. */
int cb_components_estimate(const double *const *y, const size_t *n, size_t k,
                           struct cb_components *out, char *err, size_t err_len);

/* Kalibera and Jones's optimal repetitions of the inner level: with a round
 * costing ROUND_COST and a run's start (process, calibration, warm-up)
 * START_COST, the rounds per run that minimise the cost of a given variance
 * of the grand mean, sqrt(START_COST sigma_w^2 / (ROUND_COST sigma_b^2)).
 * +inf when sigma_b^2 is 0 (more rounds are always cheaper); NaN when a cost
 * or component is not a positive finite number (a zero within variance gives
 * 0). */
double cb_components_optimal_rounds(const struct cb_components *c, double round_cost,
                                    double start_cost);

/* A robust within-run standard deviation: 1.4826 times the median absolute
 * deviation of every finite value from its own run's median, pooled over
 * the runs (runs of fewer than two values left out). The spread a median
 * sees: a rare slow round inflates S_1^2 but not this. NaN when fewer than
 * two values are left or memory runs out. */
double cb_components_robust_within(const double *const *y, const size_t *n, size_t k);

/* The between-run variance as the runs' medians see it: the sample variance
 * of the run medians less their own noise, pi/2 SCALE^2 / n_i averaged over
 * the runs (a median of n normal rounds of sd SCALE), floored at 0. A rare
 * slow round moves a run's mean by its size over n, so S_2^2 of a short
 * pilot is at its mercy; the medians compare judges are not. NaN when fewer
 * than two runs have two values, SCALE is not a number, or memory runs out. */
double cb_components_between_medians(const double *const *y, const size_t *n, size_t k,
                                     double scale);

/* The parts of the above: VAR the sample variance of the RUNS run medians
 * (RUNS - 1 degrees of freedom), NOISE their own noise, pi/2 SCALE^2 / n_i
 * averaged. What a plan needs to say how well the pilot knows sigma_b^2
 * (plan_runs.h). -1 (all NaN, RUNS 0) in the cases above. */
int cb_components_medians_spread(const double *const *y, const size_t *n, size_t k, double scale,
                                 double *var, double *noise, size_t *runs);

#endif
