/* repro.c: reproducibility verdicts across runs and the stability of rankings. */
#include "analysis/repro.h"

#include "core/errbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

void cb_repro_defaults(struct cb_repro_options *opt)
{
	opt->level = 0.95;
	opt->delta = 0.02;
	opt->q_alpha = 0.01;
	opt->i2_max = 0.50;
	opt->i2_min_runs = 10;
	opt->reference = 1.0;
}

const char *cb_repro_verdict_name(enum cb_repro_verdict v)
{
	switch (v) {
	case CB_REPRO_REPRODUCED:
		return "reproduced";
	case CB_REPRO_NON_REPRODUCIBLE:
		return "non-reproducible";
	case CB_REPRO_CONTRADICTORY:
		return "contradictory";
	case CB_REPRO_NOT_RESOLVED:
		break;
	}
	return "not resolved";
}

int cb_repro_cochran(const double *y, const double *se, size_t k, double *q, double *p, double *i2)
{
	double sum_w = 0.0, sum_wy = 0.0, pooled, stat = 0.0;

	*q = *p = *i2 = NAN;
	if (k < 2)
		return -1;
	for (size_t i = 0; i < k; i++) {
		if (!(isfinite(se[i]) && se[i] > 0.0) || !isfinite(y[i]))
			return -1;
		double w = 1.0 / (se[i] * se[i]);
		sum_w += w;
		sum_wy += w * y[i];
	}
	pooled = sum_wy / sum_w;
	for (size_t i = 0; i < k; i++) {
		double dev = (y[i] - pooled) / se[i];
		stat += dev * dev;
	}
	double df = (double)k - 1.0;
	*q = stat;
	*p = gsl_cdf_chisq_Q(stat, df);
	*i2 = stat > df ? (stat - df) / stat : 0.0;
	return 0;
}

static bool options_valid(const struct cb_repro_options *opt)
{
	return opt->level > 0.0 && opt->level < 1.0 && opt->delta >= 0.0 && opt->q_alpha > 0.0 &&
	       opt->q_alpha < 1.0 && opt->i2_max >= 0.0 && opt->i2_max <= 1.0 &&
	       (isnan(opt->reference) || opt->reference > 0.0);
}

static int check_runs(const struct cb_estimate *runs, size_t k, bool *intervals, char *err,
                      size_t err_len)
{
	*intervals = true;
	for (size_t i = 0; i < k; i++) {
		const struct cb_estimate *r = &runs[i];
		if (!(isfinite(r->value) && r->value > 0.0)) {
			cb_errorf(err, err_len, "run %zu: estimate %g is not a positive number", i,
			          r->value);
			return -1;
		}
		if (isnan(r->lo) || isnan(r->hi)) {
			*intervals = false;
			continue;
		}
		if (!(r->lo > 0.0 && isfinite(r->hi) && r->lo <= r->value && r->value <= r->hi)) {
			cb_errorf(err, err_len,
			          "run %zu: interval [%g, %g] does not hold %g in (0, inf)", i,
			          r->lo, r->hi, r->value);
			return -1;
		}
	}
	return 0;
}

/* Across runs: the mean of the log estimates and its t-interval. */
static void across_runs(const double *y, size_t k, double level, struct cb_repro *out)
{
	double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)k - 1.0);

	out->log_mean = gsl_stats_mean(y, 1, k);
	out->log_sd = gsl_stats_sd_m(y, 1, k, out->log_mean);
	double half = t * out->log_sd / sqrt((double)k);
	out->value = (struct cb_estimate){.value = exp(out->log_mean),
	                                  .lo = exp(out->log_mean - half),
	                                  .hi = exp(out->log_mean + half)};
}

static void find_disjoint(const struct cb_estimate *runs, size_t k, struct cb_repro *out)
{
	for (size_t i = 0; i < k; i++) {
		for (size_t j = i + 1; j < k; j++) {
			if (runs[i].hi < runs[j].lo || runs[j].hi < runs[i].lo) {
				out->rules |= CB_REPRO_RULE_DISJOINT;
				out->disjoint_a = i;
				out->disjoint_b = j;
				return;
			}
		}
	}
}

/* Runs wholly above and wholly below the reference; true when both exist. */
static bool find_contradiction(const struct cb_estimate *runs, size_t k, double reference,
                               struct cb_repro *out)
{
	bool above = false, below = false;

	if (isnan(reference))
		return false;
	for (size_t i = 0; i < k; i++) {
		if (!above && runs[i].lo > reference) {
			above = true;
			out->above = i;
		}
		if (!below && runs[i].hi < reference) {
			below = true;
			out->below = i;
		}
	}
	return above && below;
}

/* The interval rules and the verdict, once every run has an interval. */
static void judge(const struct cb_estimate *runs, size_t k, const double *y, double *se,
                  const struct cb_repro_options *opt, struct cb_repro *out)
{
	double z = gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - opt->level) / 2.0);

	for (size_t i = 0; i < k; i++)
		se[i] = (log(runs[i].hi) - log(runs[i].lo)) / (2.0 * z);
	find_disjoint(runs, k, out);
	/* A zero-width interval claims infinite precision: Q stays NaN rather than
	 * letting one run weigh everything; the other rules still judge it. */
	if (cb_repro_cochran(y, se, k, &out->q, &out->q_p, &out->i2) == 0 &&
	    (out->q_p < opt->q_alpha || (k >= opt->i2_min_runs && out->i2 > opt->i2_max)))
		out->rules |= CB_REPRO_RULE_HETEROGENEITY;

	if (find_contradiction(runs, k, opt->reference, out))
		out->verdict = CB_REPRO_CONTRADICTORY;
	else if (out->rules)
		out->verdict = CB_REPRO_NON_REPRODUCIBLE;
	else
		out->verdict = CB_REPRO_REPRODUCED;
}

int cb_repro_compare(const struct cb_estimate *runs, size_t k, const struct cb_repro_options *opt,
                     struct cb_repro *out, char *err, size_t err_len)
{
	struct cb_repro_options defaults;
	double *y = NULL, *se = NULL, min, max;
	bool intervals;

	memset(out, 0, sizeof(*out));
	out->k = k;
	out->spread = out->q = out->q_p = out->i2 = NAN;
	out->log_mean = out->log_sd = NAN;
	out->value = (struct cb_estimate){NAN, NAN, NAN};
	if (!opt) {
		cb_repro_defaults(&defaults);
		opt = &defaults;
	}
	if (!options_valid(opt)) {
		cb_errorf(err, err_len, "reproducibility options out of range");
		return -1;
	}
	if (check_runs(runs, k, &intervals, err, err_len) != 0)
		return -1;
	if (k < 2)
		return 0;
	y = malloc(k * sizeof(*y));
	se = malloc(k * sizeof(*se));
	if (!y || !se) {
		cb_errorf(err, err_len, "out of memory comparing %zu runs", k);
		free(y);
		free(se);
		return -1;
	}
	min = max = runs[0].value;
	for (size_t i = 0; i < k; i++) {
		y[i] = log(runs[i].value);
		min = fmin(min, runs[i].value);
		max = fmax(max, runs[i].value);
	}
	out->spread = max / min - 1.0;
	if (out->spread > 2.0 * opt->delta)
		out->rules |= CB_REPRO_RULE_SPREAD;
	across_runs(y, k, opt->level, out);
	if (intervals)
		judge(runs, k, y, se, opt, out);
	free(y);
	free(se);
	return 0;
}

/* Ranks 1..m of X (ties averaged) into RANK; the tie term sum (t^3 - t) returned. */
static double rank_row(const double *x, size_t m, size_t *order, double *rank)
{
	double ties = 0.0;

	gsl_sort_index(order, x, 1, m);
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && x[order[j]] == x[order[i]])
			j++;
		double average = ((double)i + (double)j + 1.0) / 2.0; /* ranks i+1 .. j */
		for (size_t r = i; r < j; r++)
			rank[order[r]] = average;
		double t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	return ties;
}

int cb_repro_kendall_w(const double *scores, size_t k, size_t m, double *w, double *p)
{
	size_t *order;
	double *rank, *sum, ties = 0.0, mean, s = 0.0;
	int status = -1;

	*w = *p = NAN;
	if (k < 2 || m < 2)
		return -1;
	for (size_t i = 0; i < k * m; i++)
		if (!isfinite(scores[i]))
			return -1;
	order = malloc(m * sizeof(*order));
	rank = malloc(m * sizeof(*rank));
	sum = calloc(m, sizeof(*sum));
	if (!order || !rank || !sum)
		goto done;
	for (size_t r = 0; r < k; r++) {
		ties += rank_row(scores + r * m, m, order, rank);
		for (size_t j = 0; j < m; j++)
			sum[j] += rank[j];
	}
	double kk = (double)k, mm = (double)m;
	mean = kk * (mm + 1.0) / 2.0;
	for (size_t j = 0; j < m; j++)
		s += (sum[j] - mean) * (sum[j] - mean);
	double denominator = kk * kk * (mm * mm * mm - mm) - kk * ties;
	if (denominator <= 0.0)
		goto done;
	*w = 12.0 * s / denominator;
	*p = gsl_cdf_chisq_Q(kk * (mm - 1.0) * *w, mm - 1.0);
	status = 0;
done:
	free(order);
	free(rank);
	free(sum);
	return status;
}
