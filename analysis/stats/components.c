/* components.c: Kalibera and Jones's two-level variance components. */
#include "analysis/stats/components.h"

#include "core/base/errbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *x, size_t n)
{
	qsort(x, n, sizeof *x, by_value);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2.0;
}

double cb_components_robust_within(const double *const *y, const size_t *n, size_t k)
{
	size_t total = 0, m = 0;
	double *dev, scale;

	for (size_t i = 0; i < k; i++)
		total += n[i];
	if (!(dev = malloc((total ? total : 1) * sizeof *dev)))
		return NAN;
	for (size_t i = 0; i < k; i++) {
		size_t start = m;

		for (size_t j = 0; j < n[i]; j++)
			if (isfinite(y[i][j]))
				dev[m++] = y[i][j];
		if (m - start < 2) {
			m = start;
			continue;
		}
		double *copy = malloc((m - start) * sizeof *copy);
		if (!copy) {
			free(dev);
			return NAN;
		}
		memcpy(copy, dev + start, (m - start) * sizeof *copy);
		double med = median_of(copy, m - start);
		free(copy);
		for (size_t j = start; j < m; j++)
			dev[j] = fabs(dev[j] - med);
	}
	scale = m >= 2 ? 1.482602218505602 * median_of(dev, m) : NAN;
	free(dev);
	return scale;
}

int cb_components_medians_spread(const double *const *y, const size_t *n, size_t k, double scale,
                                 double *var, double *noise, size_t *runs_out)
{
	double sum = 0.0, sum2 = 0.0, own = 0.0;
	size_t runs = 0;

	*var = *noise = NAN;
	*runs_out = 0;
	if (!(scale >= 0.0))
		return -1;
	for (size_t i = 0; i < k; i++) {
		double *v = malloc((n[i] ? n[i] : 1) * sizeof *v);
		size_t m = 0;

		if (!v)
			return -1;
		for (size_t j = 0; j < n[i]; j++)
			if (isfinite(y[i][j]))
				v[m++] = y[i][j];
		if (m >= 2) {
			double med = median_of(v, m);
			sum += med;
			sum2 += med * med;
			own += M_PI / 2.0 * scale * scale / (double)m;
			runs++;
		}
		free(v);
	}
	if (runs < 2)
		return -1;
	double mean = sum / (double)runs;
	*var = fmax(0.0, (sum2 - (double)runs * mean * mean) / ((double)runs - 1.0));
	*noise = own / (double)runs;
	*runs_out = runs;
	return 0;
}

double cb_components_between_medians(const double *const *y, const size_t *n, size_t k,
                                     double scale)
{
	double var, noise;
	size_t runs;

	if (cb_components_medians_spread(y, n, k, scale, &var, &noise, &runs) != 0)
		return NAN;
	return fmax(0.0, var - noise);
}
