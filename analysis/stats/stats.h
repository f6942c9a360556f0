/* stats.h: distribution-free summary of one cell's samples in one run.
 *
 * Samples are what a cell measured per round (ns per call, or throughput),
 * in round order. Nothing is dropped: outliers are counted, contamination and
 * drift are flagged, and the headline statistic is named.
 *
 * Functions here are pure: they read their arrays, never modify them, and
 * fill the caller's structures. Those that can fail return 0 on success and
 * -1 on failure, with a one-line reason in ERR (ERR may be NULL). Quantities
 * that do not exist for the data (an interval for n < 6, a correlation of
 * constant values) are NaN, never a made-up number. */
#ifndef CB_STATS_H
#define CB_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/dependence.h"
#include "analysis/stats/interval.h"

/* An estimate with its interval; lo and hi are NaN when there is none.
 * The common currency of the derived-metric modules (ratio, curve, repro). */
struct cb_estimate {
	double value;
	double lo;
	double hi;
};

/* ---- Median interval from order statistics ---- */

/* struct cb_stats_interval: interval.h. */

/* The narrowest symmetric ranks for N values: the largest RANK_LO whose coverage
 * is >= LEVEL (0 < LEVEL < 1), RANK_HI = N + 1 - RANK_LO, and that COVERAGE.
 * -1 (ranks 0, coverage NaN) when even x(1), x(N) fall short: N < 6 at 0.95. */
int cb_stats_median_ranks(size_t n, double level, size_t *rank_lo, size_t *rank_hi,
                          double *coverage);
/* Fill OUT with the median interval of SORTED (ascending, n values) at LEVEL.
 * Unavailable (not an error) when n is too small; -1 only for a bad LEVEL. */
int cb_stats_median_interval(const double *sorted, size_t n, double level,
                             struct cb_stats_interval *out);

/* The same for dependent rounds (dependence.h): the ranks' distance from
 * n/2 times sqrt(VIF), VIF >= 1 (1: the exact interval above). Unavailable
 * when the widened ranks fall outside 1..n. A widened interval's COVERAGE
 * is the level (the widening is a normal approximation, not a binomial
 * tail). -1 for a bad LEVEL or VIF. The caller sets METHOD. */
int cb_stats_median_interval_widened(const double *sorted, size_t n, double level, double vif,
                                     struct cb_stats_interval *out);

/* ---- A proportion ---- */

/* The exact (Clopper-Pearson) interval at LEVEL for a proportion of which K
 * of N trials were successes: the quantiles LEVEL's tails leave of
 * Beta(K, N - K + 1) and Beta(K + 1, N - K) (GSL's distribution function,
 * inverted by bisection), 0 when K = 0 and 1 when K = N.
 * Its coverage is never below LEVEL. -1 (LO, HI NaN) when N is 0, K > N or
 * LEVEL is not in (0, 1). */
int cb_stats_proportion_interval(unsigned long long k, unsigned long long n, double level,
                                 double *lo, double *hi);

/* ---- Dependence on round order ---- */

/* Spearman rank correlation of X and Y (ties get average ranks) and its
 * two-sided p-value from t = rho sqrt((n-2)/(1-rho^2)) with n-2 degrees of
 * freedom (R's cor.test(method = "spearman", exact = FALSE)). |rho| = 1 gives
 * p = 0. -1 with RHO and P NaN when n < 3, either series is constant, or
 * memory runs out. */
int cb_stats_spearman(const double *x, const double *y, size_t n, double *rho, double *p);

/* Kruskal-Wallis: do the N values X fall into GROUP[i] (0 .. K-1) alike? H
 * from the ranks (ties averaged, with the tie correction), P from
 * chi-square with K-1 df. -1 (H, P NaN) when fewer than two groups have
 * values, every value is equal, a group is out of range, or memory runs out. */
int cb_stats_kruskal(const double *x, const unsigned *group, size_t n, unsigned k, double *h,
                     double *p);

/* Sort V[0..n-1] (finite values) ascending. Any sort gives the same array:
 * equal values are the same bits (but for -0.0 beside 0.0, which no sort here
 * told apart before either, and no sample holds). This one is qsort, far
 * faster than GSL's heap sort on the 10,000 rounds of a cell. */
void cb_stats_sort(double *v, size_t n);

/* ---- Per-cell summary ---- */

struct cb_stats_options {
	double level;             /* median interval level: 0.95 */
	double contamination_max; /* contamination flag above this: 0.10 */
	double drift_alpha;       /* Spearman p and lag-1 significance: 0.01 */
	bool larger_is_better;    /* values are throughputs: the best is the max */
	/* The median's interval is a confidence sequence's (confseq.h), valid at
	 * a stopping time chosen on the data, instead of the fixed-n one: for
	 * runs that stop when their answer is known. VALUES must then be in the
	 * order they were measured. */
	bool sequential;
};

/* The defaults above (doc/method.md); values are times (smaller is better). */
void cb_stats_defaults(struct cb_stats_options *opt);

struct cb_stats_summary {
	size_t n;
	double min, max;
	double median;
	struct cb_stats_interval median_ci;
	double q1, q3, iqr; /* quartiles: R's quantile() type 7, as GSL computes them */
	double p10, p90;
	double mad;       /* raw median absolute deviation from the median */
	double robust_cv; /* 1.4826 * mad / median: a robust SD over the centre */
	double mean, sd;  /* reported, never the headline alone; sd NaN for n < 2 */

	/* Tukey fences: beyond q1 - k*iqr or q3 + k*iqr, counted, never dropped.
	 * The 1.5 counts include the 3 ones. */
	size_t outliers_low_15, outliers_high_15;
	size_t outliers_low_3, outliers_high_3;

	/* Contamination c = median/min - 1 for times; for throughputs max/median - 1
	 * (the same quantity seen through 1/x). NaN when the best value is <= 0. */
	double best; /* min for times, max for throughputs */
	double contamination;
	bool contaminated;         /* contamination > contamination_max */
	double headline;           /* the median, or the best value when contaminated */
	const char *headline_name; /* "median", "min" or "max" */

	/* Drift: values against round index (their position in the array). */
	double drift_rho; /* Spearman; NaN when n < 3 or values are constant */
	double drift_p;
	bool drift;        /* drift_p < drift_alpha */
	double lag1;       /* lag-1 autocorrelation (GSL's, mean-centred); NaN as above */
	double lag1_rank;  /* the same of the values' ranks (ties averaged); NaN as above */
	double lag1_limit; /* z(1 - drift_alpha/2) / sqrt(n): 2.576/sqrt(n) at 0.01 */
	/* |lag1_rank| > lag1_limit. On ranks because one spike can carry most of
	 * the sum of squares and hide a contaminated stretch from lag1 itself. */
	bool autocorrelated;
	/* Whether n allows the flags at all: the exact Spearman test's smallest
	 * p (2/n!) below drift_alpha, the lag-1 limit below 1. Otherwise the flag
	 * is never raised, and reports leave it out rather than print "no". */
	bool drift_judged, lag1_judged;
	/* Sequential only (else zero): the dependence of the values in round
	 * order that widened MEDIAN_CI (dependence.h; never held: HOLD's
	 * interval is widened by the lag-1's factor, VIF). */
	struct cb_dependence dependence;
};

/* Summarise VALUES[0..n-1], given in round order, with OPT (NULL: defaults).
 * -1 when n is 0, a value is not finite, OPT is out of range, or memory runs
 * out; OUT is then zeroed. */
int cb_stats_summarize(const double *values, size_t n, const struct cb_stats_options *opt,
                       struct cb_stats_summary *out, char *err, size_t err_len);

#endif
