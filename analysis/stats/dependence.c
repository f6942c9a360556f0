/* dependence.c: dependent rounds and the variance they add (dependence.h). */
#include "analysis/stats/dependence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

const char cb_dependence_exact_method[] =
    "sign test widened for dependent rounds (batch means of the signs)";
const char cb_dependence_sequence_method[] =
    "confidence sequence (normal mixture) widened for dependent rounds (batch means of the signs)";
const char cb_dependence_own_method[] =
    "confidence sequence (normal mixture) with a margin for slow noise of each side's own";

struct ranked {
	double value;
	size_t at;
};

static int by_value(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->value, y = ((const struct ranked *)b)->value;

	return (x > y) - (x < y);
}

/* RANK[i]: the rank (1..n, ties averaged) of X[i]; -1 when memory runs out. */
static int ranks_of(const double *x, size_t n, double *rank)
{
	struct ranked *order = malloc(n * sizeof *order);

	if (!order)
		return -1;
	for (size_t i = 0; i < n; i++)
		order[i] = (struct ranked){x[i], i};
	qsort(order, n, sizeof *order, by_value);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && order[j].value == order[i].value)
			j++;
		for (size_t k = i; k < j; k++)
			rank[order[k].at] = (double)i + ((double)(j - i) + 1.0) / 2.0;
		i = j;
	}
	free(order);
	return 0;
}

/* b Var(batch means of Z) / Var(Z) over K contiguous batches of SIGNS (the
 * first n mod k rounds left out, so that every batch has b rounds). */
static double batch_vif(const double *signs, size_t n, size_t k)
{
	size_t b = n / k, skip = n - k * b;
	double means[CB_DEP_BATCHES];
	double var = gsl_stats_variance(signs + skip, 1, k * b);

	for (size_t j = 0; j < k; j++)
		means[j] = gsl_stats_mean(signs + skip + j * b, 1, b);
	if (!(var > 0))
		return 1.0;
	return (double)b * gsl_stats_variance(means, 1, k) / var;
}

void cb_dependence_of(const double *values, size_t n, struct cb_dependence *out)
{
	double *rank, half = ((double)n + 1.0) / 2.0;
	size_t k = CB_DEP_BATCHES;

	*out = (struct cb_dependence){.n = n, .lag1 = NAN, .batch_vif = NAN, .vif = 1.0};
	out->lag1_limit = n ? CB_DEP_LAG1_Z / sqrt((double)n) : NAN;
	if (n < 8 || !(rank = malloc(n * sizeof *rank)))
		return;
	if (ranks_of(values, n, rank) != 0) {
		free(rank);
		return;
	}
	out->judged = true;
	out->lag1 = gsl_stats_lag1_autocorrelation(rank, 1, n);
	if (!isfinite(out->lag1)) { /* every value equal: nothing moves */
		out->lag1 = NAN;
		free(rank);
		return;
	}
	if (n >= k * CB_DEP_MIN_BATCH) {
		/* The signs, in place of the ranks: below the median 1, above 0,
		 * on it 1/2. */
		for (size_t i = 0; i < n; i++)
			rank[i] = rank[i] < half ? 1.0 : rank[i] > half ? 0.0 : 0.5;
		out->batches = k;
		out->batch = n / k;
		out->batch_vif = batch_vif(rank, n, k);
	}
	free(rank);

	double df = (double)(k - 1);
	bool by_lag1 = out->lag1 > out->lag1_limit;
	bool by_batches =
	    out->batches && out->batch_vif > gsl_cdf_chisq_Qinv(CB_DEP_BATCH_ALPHA, df) / df;
	double lag1_vif = out->lag1 > 0 ? (1 + out->lag1) / (1 - out->lag1) : 1.0;

	out->dependent = by_lag1 || by_batches;
	if (!out->dependent)
		return;
	/* The batch estimate's upper bound: of slow noise it sees only what a
	 * batch spans, so its point value is low. */
	out->vif = lag1_vif;
	if (out->batches)
		out->vif =
		    fmax(out->vif, out->batch_vif * df / gsl_cdf_chisq_Pinv(CB_DEP_UPPER_Q, df));
	else
		out->hold = true;
	out->vif = fmax(out->vif, 1.0);
}

void cb_dependence_words(const struct cb_dependence *d, char *buf, size_t len)
{
	int at = 0;

	buf[0] = '\0';
	if (!d->dependent)
		;
	else if (d->hold)
		at = snprintf(buf, len, "lag-1 %.2f in %zu rounds: too few to size the dependence",
		              d->lag1, d->n);
	else if (!d->batches)
		at = snprintf(buf, len, "lag-1 %.2f in %zu rounds, variance x%.1f", d->lag1, d->n,
		              d->vif);
	else
		at = snprintf(buf, len, "lag-1 %.2f, blocks of %zu rounds, variance x%.1f%s",
		              d->lag1, d->batch, d->vif,
		              d->batch_units ? ", interval over the blocks' medians" : "");
	if (d->margin > 0 && at >= 0 && (size_t)at < len)
		snprintf(buf + at, len - (size_t)at,
		         "%ssides share %.2f: +-%.1f%% for slow noise of their own", at ? "; " : "",
		         d->share, 100.0 * (exp(d->margin) - 1.0));
}
