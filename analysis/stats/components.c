/* components.c: Kalibera and Jones's two-level variance components. */
#include "analysis/stats/components.h"

#include "core/errbuf.h"

#include <math.h>

static void clear(struct cb_components *out)
{
	*out = (struct cb_components){0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
}

/* Run Y[0..n-1]'s finite values: their count, mean and sum of squared
 * deviations (two passes: the values are log measures, close together). */
static size_t run_moments(const double *y, size_t n, double *mean, double *ss)
{
	size_t m = 0;
	double sum = 0.0;

	for (size_t j = 0; j < n; j++)
		if (!isnan(y[j])) {
			sum += y[j];
			m++;
		}
	*mean = m ? sum / (double)m : NAN;
	*ss = 0.0;
	for (size_t j = 0; j < n; j++)
		if (!isnan(y[j]))
			*ss += (y[j] - *mean) * (y[j] - *mean);
	return m;
}

int cb_components_estimate(const double *const *y, const size_t *n, size_t k,
                           struct cb_components *out, char *err, size_t err_len)
{
	double ss_within = 0.0, df_within = 0.0, inverse_n = 0.0, sum_means = 0.0;
	size_t runs = 0;

	clear(out);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < n[i]; j++)
			if (isinf(y[i][j])) {
				cb_errorf(err, err_len, "run %zu, round %zu: value is infinite", i,
				          j);
				return -1;
			}
	for (size_t i = 0; i < k; i++) {
		double mean, ss;
		size_t m = run_moments(y[i], n[i], &mean, &ss);

		if (m < 2)
			continue;
		runs++;
		ss_within += ss;
		df_within += (double)m - 1.0;
		inverse_n += 1.0 / (double)m;
		sum_means += mean;
	}
	if (runs < 2) {
		cb_errorf(err, err_len, "variance components need two runs of two values (%zu)",
		          runs);
		return -1;
	}
	double grand = sum_means / (double)runs, ss_means = 0.0;

	for (size_t i = 0; i < k; i++) {
		double mean, ss;

		if (run_moments(y[i], n[i], &mean, &ss) >= 2)
			ss_means += (mean - grand) * (mean - grand);
	}
	out->runs = runs;
	out->rounds = (double)runs / inverse_n;
	out->mean = grand;
	out->s1 = ss_within / df_within;
	out->s2 = ss_means / ((double)runs - 1.0);
	out->within = out->s1;
	out->between_raw = out->s2 - out->s1 / out->rounds;
	out->between = fmax(0.0, out->between_raw);
	return 0;
}

double cb_components_optimal_rounds(const struct cb_components *c, double round_cost,
                                    double start_cost)
{
	if (!(round_cost > 0.0 && isfinite(round_cost) && start_cost > 0.0 &&
	      isfinite(start_cost) && c->within >= 0.0 && c->between >= 0.0))
		return NAN;
	if (c->within == 0.0)
		return 0.0;
	if (c->between == 0.0)
		return INFINITY;
	return sqrt(start_cost * c->within / (round_cost * c->between));
}
