/* own_noise.c: a margin for slow noise each side of a pair has on its own
 * (dependence.h).
 *
 * Pairing by round cancels what the two sides share. A slowly moving state
 * that one side has and the other not (each engine on its own machine
 * state, as a VM without cycle counters shows it) is not cancelled, and in
 * the first few dozen rounds it is an offset under white noise that no test
 * on those rounds tells from a real difference: an AR(1) term of 0.95 shows
 * a lag-1 of about 0.2 in 24 rounds, and the rule stopped on it in half of
 * the A/A runs (analysis/README.md). So where the sides share little of
 * their noise, the interval takes a margin sized by a prior: a slow part as
 * large as the per-round spread, with the memory of an AR(1) term of 0.95,
 * whose mean over n rounds moves by spread x sqrt(39 / n) once n is long
 * against its memory (and by the spread itself before). Where the sides
 * share most of their noise, the machine's slow state is the pair's and
 * pairing cancels it; where the measure is the work's own count (cycles
 * counted by the processor, the sim's virtual work) the machine does not
 * reach it: no margin there (the caller says which). The margin goes once
 * the rounds can size the memory (CB_OWN_SIZED_ROUNDS) and the batch means
 * of the signs show it short: their upper bound at most CB_OWN_SHORT_VIF,
 * the widening of dependence.c taking over. */
#include "analysis/stats/dependence.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* 1.4826 x the median absolute deviation of X[0..n-1] (n > 0). */
static double spread_of(const double *x, size_t n, double *scratch)
{
	double median;

	for (size_t i = 0; i < n; i++)
		scratch[i] = x[i];
	gsl_sort(scratch, 1, n);
	median = gsl_stats_median_from_sorted_data(scratch, 1, n);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(x[i] - median);
	gsl_sort(scratch, 1, n);
	return 1.4826 * gsl_stats_median_from_sorted_data(scratch, 1, n);
}

void cb_dependence_own_noise(const double *num, const double *den, size_t n, const double *logs,
                             size_t used, double level, struct cb_dependence *out)
{
	double *buf;
	size_t m = 0;

	out->own_judged = false;
	out->own_cleared = false;
	out->share = out->spread = NAN;
	out->margin = 0;
	if (used < 3 || !(buf = malloc(4 * n * sizeof *buf)))
		return;
	for (size_t i = 0; i < n; i++)
		if (!isnan(num[i]) && !isnan(den[i])) {
			buf[m] = num[i];
			buf[n + m] = den[i];
			m++;
		}
	out->share = gsl_stats_spearman(buf, 1, buf + n, 1, m, buf + 2 * n);
	out->spread = spread_of(logs, used, buf);
	free(buf);
	out->own_judged = true;
	if (!(out->share < CB_OWN_SHARE_MIN)) /* NaN: every value equal, nothing moves */
		return;
	if (used >= CB_OWN_SIZED_ROUNDS && out->batches &&
	    out->batch_vif * (double)(out->batches - 1) /
	            gsl_cdf_chisq_Pinv(CB_DEP_UPPER_Q, (double)(out->batches - 1)) <=
	        CB_OWN_SHORT_VIF) {
		out->own_cleared = true;
		return;
	}
	out->margin = gsl_cdf_ugaussian_Qinv((1.0 - level) / 2.0) * out->spread *
	              fmin(1.0, sqrt(CB_OWN_PRIOR_VIF / (double)used));
}

bool cb_dependence_reported(const struct cb_dependence *d)
{
	return d->dependent || d->margin > 0;
}
