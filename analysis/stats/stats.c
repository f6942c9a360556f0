/* stats.c: per-cell summary: order statistics, fences, contamination, drift. */
#include "analysis/stats/stats.h"

#include "analysis/stats/confseq.h"
#include "analysis/stats/dependence.h"

#include "core/base/errbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* 1.4826 = 1/Phi^-1(3/4): makes the MAD estimate the SD of a normal sample. */
#define MAD_TO_SD 1.482602218505602

int cb_stats_median_ranks(size_t n, double level, size_t *rank_lo, size_t *rank_hi,
                          double *coverage)
{
	double alpha = 1.0 - level;
	/* Binomial tails are multiples of 2^-n; the slack only absorbs rounding in
	 * a level like 1 - 0.05/3 computed by the caller. */
	double limit = alpha / 2.0 * (1.0 + 1e-12);
	size_t lo = 0;

	*rank_lo = 0;
	*rank_hi = 0;
	*coverage = NAN;
	if (!(level > 0.0 && level < 1.0) || n == 0 || n > (size_t)UINT32_MAX)
		return -1;
	/* The tail P(B <= lo - 1) grows with lo; take the last lo it stays within:
	 * the first lo below n / 2 whose P(B <= lo) is beyond the limit (n / 2
	 * when none is), found by bisection. */
	size_t hi = n / 2;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (gsl_cdf_binomial_P((unsigned)mid, 0.5, (unsigned)n) <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	*rank_lo = lo;
	*rank_hi = n + 1 - lo;
	*coverage = 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(lo - 1), 0.5, (unsigned)n);
	return 0;
}

int cb_stats_median_interval(const double *sorted, size_t n, double level,
                             struct cb_stats_interval *out)
{
	size_t lo, hi;
	double coverage;

	out->available = false;
	out->lo = out->hi = NAN;
	out->rank_lo = out->rank_hi = 0;
	out->level = level;
	out->coverage = NAN;
	out->method = NULL;
	if (!(level > 0.0 && level < 1.0))
		return -1;
	if (cb_stats_median_ranks(n, level, &lo, &hi, &coverage) != 0)
		return 0;
	out->available = true;
	out->lo = sorted[lo - 1];
	out->hi = sorted[hi - 1];
	out->rank_lo = lo;
	out->rank_hi = hi;
	out->coverage = coverage;
	return 0;
}

int cb_stats_median_interval_widened(const double *sorted, size_t n, double level, double vif,
                                     struct cb_stats_interval *out)
{
	if (cb_stats_median_interval(sorted, n, level, out) != 0 || !(vif >= 1.0))
		return -1;
	if (vif == 1.0 || !out->available)
		return 0;
	/* The sign count's spread is sqrt(VIF) times the binomial's: the ranks'
	 * distance from the middle grows by as much (the normal approximation's
	 * scaling of the exact distance, so that VIF 1 gives the exact ranks). */
	double middle = (double)n / 2.0;
	double lo = floor(middle - sqrt(vif) * (middle - (double)out->rank_lo) + 1e-9);

	if (lo < 1.0) {
		cb_stats_median_interval(NULL, 0, level, out);
		return 0;
	}
	out->rank_lo = (size_t)lo;
	out->rank_hi = n + 1 - out->rank_lo;
	out->lo = sorted[out->rank_lo - 1];
	out->hi = sorted[out->rank_hi - 1];
	out->coverage = level; /* approximate: the normal scaling, not a binomial */
	return 0;
}

static bool is_constant(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

/* Spearman's rho R as a test: its two-sided p from Student's t. */
static int spearman_test(double r, size_t n, double *rho, double *p)
{
	if (!isfinite(r))
		return -1;
	if (r >= 1.0 || r <= -1.0) {
		*rho = r > 0 ? 1.0 : -1.0;
		*p = 0.0;
		return 0;
	}
	double df = (double)n - 2.0;
	double t = r * sqrt(df / (1.0 - r * r));
	*rho = r;
	*p = 2.0 * gsl_cdf_tdist_Q(fabs(t), df);
	return 0;
}

int cb_stats_spearman(const double *x, const double *y, size_t n, double *rho, double *p)
{
	double *work, r;

	*rho = *p = NAN;
	if (n < 3 || is_constant(x, n) || is_constant(y, n))
		return -1;
	work = malloc(2 * n * sizeof(*work));
	if (!work)
		return -1;
	r = gsl_stats_spearman(x, 1, y, 1, n, work);
	free(work);
	return spearman_test(r, n, rho, p);
}

void cb_stats_defaults(struct cb_stats_options *opt)
{
	opt->level = 0.95;
	opt->contamination_max = 0.10;
	opt->drift_alpha = 0.01;
	opt->larger_is_better = false;
	opt->sequential = false;
}

static void count_outliers(const double *sorted, size_t n, struct cb_stats_summary *s)
{
	double lo15 = s->q1 - 1.5 * s->iqr, hi15 = s->q3 + 1.5 * s->iqr;
	double lo3 = s->q1 - 3.0 * s->iqr, hi3 = s->q3 + 3.0 * s->iqr;

	for (size_t i = 0; i < n; i++) {
		s->outliers_low_15 += sorted[i] < lo15;
		s->outliers_high_15 += sorted[i] > hi15;
		s->outliers_low_3 += sorted[i] < lo3;
		s->outliers_high_3 += sorted[i] > hi3;
	}
}

static void set_contamination(struct cb_stats_summary *s, const struct cb_stats_options *opt)
{
	s->best = opt->larger_is_better ? s->max : s->min;
	s->contamination = NAN;
	if (s->best > 0.0 && s->median > 0.0)
		s->contamination =
		    opt->larger_is_better ? s->max / s->median - 1.0 : s->median / s->min - 1.0;
	s->contaminated = s->contamination > opt->contamination_max;
	s->headline = s->contaminated ? s->best : s->median;
	s->headline_name = !s->contaminated ? "median" : opt->larger_is_better ? "max" : "min";
}

static int by_number(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The X in (0, 1) where Beta(A, B)'s lower tail (UPPER: its upper tail) is
 * TAIL, by bisection on GSL's distribution function: its own inverse
 * (gsl_cdf_beta_Pinv) fails to converge for the large A and B of thousands
 * of samples. Either tail is monotone in X; 100 halvings leave the interval
 * below a double's resolution. */
static double beta_quantile(double tail, double a, double b, bool upper)
{
	double lo = 0, hi = 1;

	for (int i = 0; i < 100 && hi - lo > 0; i++) {
		double mid = (lo + hi) / 2;
		double v = upper ? gsl_cdf_beta_Q(mid, a, b) : gsl_cdf_beta_P(mid, a, b);

		if (upper ? v > tail : v < tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int cb_stats_proportion_interval(unsigned long long k, unsigned long long n, double level,
                                 double *lo, double *hi)
{
	double tail = (1.0 - level) / 2;

	*lo = *hi = NAN;
	if (n == 0 || k > n || !(level > 0 && level < 1))
		return -1;
	*lo = k == 0 ? 0.0 : beta_quantile(tail, (double)k, (double)(n - k + 1), false);
	*hi = k == n ? 1.0 : beta_quantile(tail, (double)(k + 1), (double)(n - k), true);
	return 0;
}

void cb_stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof *v, by_number);
}

/* A value and where it was: sorting these sorts the positions by value
 * without an indirect comparison. */
struct ranked {
	double value;
	size_t at;
};

static int by_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->value, y = ((const struct ranked *)b)->value;

	return (x > y) - (x < y);
}

/* RANK[ORDER[k].at] from ORDER sorted by value: runs of equal values share
 * the middle of their ranks. */
static void ranks_of_order(const struct ranked *order, size_t n, double *rank)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && order[j].value == order[i].value)
			j++;
		for (size_t k = i; k < j; k++)
			rank[order[k].at] = (double)i + ((double)(j - i) + 1.0) / 2.0;
		i = j;
	}
}

/* RANK[i] = the rank (1..n, ties averaged) of X[i]: the values below it plus
 * the middle of its run of equal values, counted on the sorted order
 * (O(n log n): a cell may have many thousands of rounds; which of equal
 * values sorts first does not matter, they share a rank). Falls back to
 * counting, O(n^2), when there is no memory for the order. */
static void rank_values(const double *x, size_t n, double *rank)
{
	struct ranked *order = malloc(n * sizeof *order);

	if (!order) {
		for (size_t i = 0; i < n; i++) {
			size_t below = 0, equal = 0;

			for (size_t j = 0; j < n; j++) {
				below += x[j] < x[i];
				equal += x[j] == x[i];
			}
			rank[i] = (double)below + ((double)equal + 1.0) / 2.0;
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (struct ranked){x[i], i};
	qsort(order, n, sizeof *order, by_ranked);
	ranks_of_order(order, n, rank);
	free(order);
}

int cb_stats_kruskal(const double *x, const unsigned *group, size_t n, unsigned k, double *h,
                     double *p)
{
	double *rank = malloc((n ? n : 1) * sizeof *rank), *sum = calloc(k ? k : 1, sizeof *sum);
	size_t *count = calloc(k ? k : 1, sizeof *count), used = 0;
	double stat = 0, ties = 0;
	int rc = -1;

	*h = *p = NAN;
	if (!rank || !sum || !count || n < 2)
		goto done;
	for (size_t i = 0; i < n; i++)
		if (group[i] >= k)
			goto done;
	rank_values(x, n, rank);
	for (size_t i = 0; i < n; i++) {
		sum[group[i]] += rank[i];
		count[group[i]]++;
	}
	for (unsigned g = 0; g < k; g++) {
		used += count[g] > 0;
		if (count[g])
			stat += sum[g] * sum[g] / (double)count[g];
	}
	/* Tie correction: 1 - sum(t^3 - t) / (n^3 - n), t the size of each run
	 * of equal values (sorted ranks: a run of equal ranks is one tie). */
	gsl_sort(rank, 1, n);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && rank[j] == rank[i])
			j++;
		ties += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
		i = j;
	}
	double nn = (double)n, correction = 1 - ties / (nn * nn * nn - nn);

	if (used < 2 || correction <= 0)
		goto done;
	*h = (12.0 / (nn * (nn + 1)) * stat - 3 * (nn + 1)) / correction;
	*p = gsl_cdf_chisq_Q(*h, (double)(used - 1));
	rc = 0;
done:
	free(rank);
	free(sum);
	free(count);
	return rc;
}

/* Rounds as their positions; the values keep their order. */
/* WORK and RANKS: room for N values each; ORDER, when not NULL, the values
 * and their positions sorted by value (the ranks are read from it). */
static void set_drift(const double *values, size_t n, const struct ranked *order, double *work,
                      double *ranks, struct cb_stats_summary *s, const struct cb_stats_options *opt)
{
	s->drift_rho = s->drift_p = s->lag1 = s->lag1_rank = NAN;
	s->lag1_limit = gsl_cdf_ugaussian_Qinv(opt->drift_alpha / 2.0) / sqrt((double)n);
	if (n < 3 || is_constant(values, n))
		return;
	/* A flag is offered only where it can be raised by the data rather than by
	 * the approximation: the exact rank test's smallest two-sided p, 2/n!,
	 * must be below alpha (n >= 6 at 0.01), and the lag-1 limit inside +/-1
	 * (n >= 7 at 0.01). */
	double min_p = 2.0;
	for (size_t i = 2; i <= n && min_p >= opt->drift_alpha; i++)
		min_p /= (double)i;
	s->drift_judged = min_p < opt->drift_alpha;
	s->lag1_judged = s->lag1_limit < 1.0;
	/* Spearman's rho of the values against their positions: the correlation
	 * of the values' ranks with 1..n, which is what gsl_stats_spearman
	 * computes (its ranks of distinct positions are 1..n, and its averaged
	 * ranks of ties are exact half-integers, as rank_values's are), without
	 * its two heap sorts. */
	if (order)
		ranks_of_order(order, n, ranks);
	else
		rank_values(values, n, ranks);
	for (size_t i = 0; i < n; i++)
		work[i] = (double)i + 1.0;
	if (spearman_test(gsl_stats_correlation(ranks, 1, work, 1, n), n, &s->drift_rho,
	                  &s->drift_p) == 0)
		s->drift = s->drift_judged && s->drift_p < opt->drift_alpha;
	s->lag1 = gsl_stats_lag1_autocorrelation(values, 1, n);
	s->lag1_rank = gsl_stats_lag1_autocorrelation(ranks, 1, n);
	s->autocorrelated = s->lag1_judged && fabs(s->lag1_rank) > s->lag1_limit;
}

static bool options_valid(const struct cb_stats_options *opt)
{
	return opt->level > 0.0 && opt->level < 1.0 && opt->contamination_max >= 0.0 &&
	       opt->drift_alpha > 0.0 && opt->drift_alpha < 1.0;
}

int cb_stats_summarize(const double *values, size_t n, const struct cb_stats_options *opt,
                       struct cb_stats_summary *out, char *err, size_t err_len)
{
	struct cb_stats_options defaults;
	double *sorted = NULL, *work = NULL;
	struct ranked *order;

	memset(out, 0, sizeof(*out));
	if (!opt) {
		cb_stats_defaults(&defaults);
		opt = &defaults;
	}
	if (!options_valid(opt)) {
		cb_errorf(err, err_len, "summary options out of range");
		return -1;
	}
	if (n == 0) {
		cb_errorf(err, err_len, "no samples to summarise");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(values[i])) {
			cb_errorf(err, err_len, "sample %zu is not a finite number", i);
			return -1;
		}
	}
	sorted = malloc(n * sizeof(*sorted));
	work = malloc(n * sizeof(*work));
	if (!sorted || !work) {
		cb_errorf(err, err_len, "out of memory summarising %zu samples", n);
		free(sorted);
		free(work);
		return -1;
	}
	/* One sort gives the sorted values and, for the drift, their ranks. */
	order = malloc(n * sizeof(*order));
	if (order) {
		for (size_t i = 0; i < n; i++)
			order[i] = (struct ranked){values[i], i};
		qsort(order, n, sizeof(*order), by_ranked);
		for (size_t i = 0; i < n; i++)
			sorted[i] = order[i].value;
	} else {
		memcpy(sorted, values, n * sizeof(*sorted));
		cb_stats_sort(sorted, n);
	}

	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	/* A sequential interval decides a question (a precision): widened where
	 * the rounds were shown dependent (dependence.h), by the lag-1's factor
	 * while too few rounds size it (a cell's interval is shown, not held:
	 * its precision question asks for a narrow one anyway). A fixed run's
	 * cells keep the exact interval and their lag-1 flag. */
	if (opt->sequential)
		cb_dependence_of(values, n, &out->dependence);
	out->dependence.hold = false;
	double vif = opt->sequential ? out->dependence.vif : 1.0;

	if (!opt->sequential)
		cb_stats_median_interval(sorted, n, opt->level, &out->median_ci);
	else if (cb_confseq_median_widened(values, n, opt->level, vif, &out->median_ci) != 0) {
		cb_errorf(err, err_len, "out of memory summarising %zu samples", n);
		free(sorted);
		free(work);
		free(order);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	if (opt->sequential) {
		cb_confseq_hold_widened(&out->median_ci, sorted, n, out->median, vif);
		if (out->dependence.dependent && out->median_ci.available)
			out->median_ci.method = cb_dependence_sequence_method;
	}
	out->q1 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
	out->q3 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75);
	out->iqr = out->q3 - out->q1;
	out->p10 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.10);
	out->p90 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.90);
	out->mad = gsl_stats_mad0(sorted, 1, n, work);
	out->robust_cv = out->median != 0.0 ? MAD_TO_SD * out->mad / fabs(out->median) : NAN;
	out->mean = gsl_stats_mean(sorted, 1, n);
	out->sd = n >= 2 ? gsl_stats_sd_m(sorted, 1, n, out->mean) : NAN;
	count_outliers(sorted, n, out);
	set_contamination(out, opt);
	set_drift(values, n, order, work, sorted, out, opt); /* sorted is done with */

	free(order);
	free(sorted);
	free(work);
	return 0;
}
