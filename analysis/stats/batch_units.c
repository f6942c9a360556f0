/* batch_units.c: the batches' medians as the units of an interval, where
 * the widened sign interval has none (dependence.h).
 *
 * The widening of dependence.c reads ranks: where rounds are strongly
 * dependent (a variance factor of 30 to 60, slow noise on each side of a
 * pair), 400 rounds count as a handful of signs and no rank interval forms,
 * whatever the distance between the sides. A pair at 0.2 of its leader then
 * stays open although every round shows it far behind: the signs tell how
 * slowly the noise moves, not how far. The batches' medians tell both: each
 * batch spans the memory the widening assumes, so their spread is the slow
 * noise's, and their mean sits where the rounds sit. The interval is
 * centred on the mean of the k batch medians; its half width is the
 * normal-mixture boundary of k units (confseq.h) in the medians' standard
 * deviation, scaled by the Student t quantile's excess over the normal one
 * (the deviation is estimated from k values). That is wider than a t
 * interval at one look, and it is used at a fixed n too: batches as short
 * as 40 rounds under a memory of that length are not quite independent,
 * and the t interval covered 88.5% at 95% on test_dependence's AR(1) 0.95
 * series, this one 96%. It stands only where the rank interval is not
 * available; never beside it. */
#include "analysis/stats/dependence.h"

#include "analysis/stats/confseq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

const char cb_dependence_batch_method[] =
    "Student t over the medians of 10 batches of rounds (dependent rounds)";

int cb_dependence_batch_interval(const double *values, size_t n, double level,
                                 struct cb_stats_interval *out)
{
	size_t k = CB_DEP_BATCHES, b = n / k, skip = n - k * b;
	double medians[CB_DEP_BATCHES], *scratch;

	*out = (struct cb_stats_interval){.lo = NAN, .hi = NAN, .level = level, .coverage = NAN};
	if (!(level > 0.0 && level < 1.0))
		return -1;
	if (b < CB_DEP_MIN_BATCH)
		return 0;
	if (!(scratch = malloc(b * sizeof *scratch)))
		return -1;
	for (size_t j = 0; j < k; j++) {
		memcpy(scratch, values + skip + j * b, b * sizeof *scratch);
		gsl_sort(scratch, 1, b);
		medians[j] = gsl_stats_median_from_sorted_data(scratch, 1, b);
	}
	free(scratch);

	double alpha = 1.0 - level, df = (double)(k - 1);
	double mean = gsl_stats_mean(medians, 1, k), sd = gsl_stats_sd_m(medians, 1, k, mean);
	double t = gsl_cdf_tdist_Qinv(alpha / 2.0, df), half;

	if (!(sd > 0.0)) /* every batch the same: nothing sizes the noise */
		return 0;
	/* k units of variance 1: the sequence's boundary at t = 4k (confseq.c
	 * counts signs, of variance 1/4) */
	half = t / gsl_cdf_ugaussian_Qinv(alpha / 2.0) *
	       cb_confseq_boundary(4 * k, alpha, cb_confseq_rho(4.0 * (double)k, alpha)) /
	       (double)k * sd;
	out->available = true;
	out->lo = mean - half;
	out->hi = mean + half;
	out->coverage = level;
	out->method = cb_dependence_batch_method;
	return 0;
}
