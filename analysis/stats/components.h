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

#endif
