/* robust_line.c: the bisquare M-estimate of a straight line in O(n) per
 * iteration (robust_line.h says which estimator, and how it differs from
 * GSL's routine). */
#include "analysis/stats/robust_line.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

#define TUNE 4.685 /* the bisquare's tuning constant, GSL's default */
#define MAX_ITERATIONS 100
#define MAX_LEVERAGE 0.9999
#define PARAMETERS 2

static void swap(double *a, size_t i, size_t j)
{
	double t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/* The K-th smallest of A[0..N-1] (K < N), by selection: afterwards A[0..K-1]
 * are at most A[K] and A[K+1..N-1] at least A[K]. */
static double select_rank(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo + 1) {
		size_t mid = lo + (hi - lo) / 2, i = lo + 1, j = hi;
		double pivot;

		/* Median of three as the pivot, kept at lo + 1; a[lo] <= it <= a[hi]. */
		swap(a, mid, lo + 1);
		if (a[lo] > a[hi])
			swap(a, lo, hi);
		if (a[lo + 1] > a[hi])
			swap(a, lo + 1, hi);
		if (a[lo] > a[lo + 1])
			swap(a, lo, lo + 1);
		pivot = a[lo + 1];
		for (;;) {
			do
				i++;
			while (a[i] < pivot);
			do
				j--;
			while (a[j] > pivot);
			if (j < i)
				break;
			swap(a, i, j);
		}
		a[lo + 1] = a[j];
		a[j] = pivot;
		if (j >= k)
			hi = j - 1;
		if (j <= k)
			lo = i;
	}
	if (hi == lo + 1 && a[hi] < a[lo])
		swap(a, lo, hi);
	return a[k];
}

/* The median of |R| without its PARAMETERS - 1 smallest values (GSL's, from
 * the sorted values), found by selection. R is the residuals of the line C
 * times FACTOR (or R as it is, when X is NULL), set in the same pass.
 * *GUESS (0: none) is the last iteration's median: the values within a few
 * percent of it are gathered in that pass, and when the median's ranks fall
 * among them only those are searched. WORK holds N values. */
static double abs_median(const double *x, const double *y, const double c[2], const double *factor,
                         size_t n, double *r, double *work, double *guess)
{
	size_t m = n - PARAMETERS + 1, first = PARAMETERS - 1;
	size_t lhs = first + (m - 1) / 2, rhs = first + m / 2, below = 0, inside = 0;
	double lo = *guess * (1 - 1.0 / 32), hi = *guess * (1 + 1.0 / 32), median;

	for (size_t i = 0; i < n; i++) {
		double a;

		if (x)
			r[i] = (y[i] - (c[0] + c[1] * x[i])) * factor[i];
		a = fabs(r[i]);
		below += a < lo;
		if (a >= lo && a <= hi)
			work[inside++] = a;
	}
	if (!(*guess > 0) || below > lhs || below + inside <= rhs) {
		for (size_t i = 0; i < n; i++)
			work[i] = fabs(r[i]);
		below = 0;
		inside = n;
	}
	median = select_rank(work, inside, lhs - below);
	if (rhs != lhs) {
		double next = work[rhs - below];

		for (size_t i = rhs - below + 1; i < inside; i++)
			if (work[i] < next)
				next = work[i];
		median = (median + next) / 2.0;
	}
	*guess = median;
	return median;
}

static double bisquare_weight(double u)
{
	return fabs(u) < 1.0 ? (1.0 - u * u) * (1.0 - u * u) : 0.0;
}

/* Weighted least squares of Y on X by centred sums: W NULL, unweighted;
 * else W[i] is set first to the bisquare weight of U[i] * SCALE. 0, or 1
 * when the weights or the x values leave no line. */
static int least_squares(const double *x, const double *y, double *w, const double *u, double scale,
                         size_t n, double c[2], double *mean_x, double *sxx)
{
	double sw = 0, sx = 0, sy = 0, xm, ym, sxy = 0;

	*sxx = 0;
	for (size_t i = 0; i < n; i++) {
		double wi = w ? (w[i] = bisquare_weight(u[i] * scale)) : 1.0;

		sw += wi;
		sx += wi * x[i];
		sy += wi * y[i];
	}
	if (!(sw > 0))
		return 1;
	xm = sx / sw;
	ym = sy / sw;
	for (size_t i = 0; i < n; i++) {
		double wi = w ? w[i] : 1.0, dx = x[i] - xm;

		*sxx += wi * dx * dx;
		sxy += wi * dx * (y[i] - ym);
	}
	if (!(*sxx > 0) || !isfinite(*sxx) || !isfinite(sxy))
		return 1;
	c[1] = sxy / *sxx;
	c[0] = ym - c[1] * xm;
	*mean_x = xm;
	return isfinite(c[0]) && isfinite(c[1]) ? 0 : 1;
}

static void residuals(const double *x, const double *y, size_t n, const double c[2], double *r)
{
	for (size_t i = 0; i < n; i++)
		r[i] = y[i] - (c[0] + c[1] * x[i]);
}

static double bisquare_dpsi(double u)
{
	return fabs(u) < 1.0 ? (1.0 - u * u) * (1.0 - 5.0 * u * u) : 0.0;
}

static bool converged(const double before[2], const double after[2])
{
	const double tol = sqrt(DBL_EPSILON);

	for (int i = 0; i < 2; i++)
		if (fabs(after[i] - before[i]) > tol * fmax(fabs(before[i]), fabs(after[i])))
			return false;
	return true;
}

/* Street, Carroll and Ruppert's sigma from the final residuals R, their MAD
 * sigma S and the leverage factors. */
static double street_sigma(const double *r, const double *resfac, size_t n, double s)
{
	const double st = s * TUNE, scale = 1.0 / st;
	double a = 0, b = 0, lambda;

	for (size_t i = 0; i < n; i++) {
		double u = r[i] * resfac[i] * scale, psi = bisquare_weight(u) * u;

		a += bisquare_dpsi(u);
		b += 1.0 / (resfac[i] * resfac[i]) * psi * psi;
	}
	a /= (double)n;
	b /= (double)(n - PARAMETERS);
	lambda = 1.0 + (double)PARAMETERS / (double)n * (1.0 - a) / a;
	return lambda * sqrt(b) * st / a;
}

int cb_robust_line_fit(const double *x, const double *y, size_t n, double *resid,
                       struct cb_robust_line *out)
{
	double *resfac = malloc(n * sizeof *resfac), *w = malloc(n * sizeof *w),
	       *work = malloc(n * sizeof *work);
	double c[2], before[2], mean_x, sxx, wmean, wsxx, sig_lower, sigma_ols = 0;
	double sigma_mad, sigma_rob, p2 = PARAMETERS * PARAMETERS, guess = 0;
	size_t numit = 0;
	bool done = false;
	int rc = -1;

	if (!resfac || !w || !work || n < 3)
		goto out;
	rc = 1;
	sig_lower = 1.0e-6 * gsl_stats_sd(y, 1, n);
	if (sig_lower == 0.0)
		sig_lower = 1.0;
	if (least_squares(x, y, NULL, NULL, 0, n, c, &mean_x, &sxx) != 0)
		goto out;
	/* Leverage of a line's point: 1/n + (x - mean)^2 / Sxx. */
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mean_x, h = 1.0 / (double)n + dx * dx / sxx;

		resfac[i] = 1.0 / sqrt(1.0 - fmin(h, MAX_LEVERAGE));
	}
	residuals(x, y, n, c, resid);
	for (size_t i = 0; i < n; i++)
		sigma_ols += resid[i] * resid[i];
	sigma_ols = sqrt(sigma_ols) / sqrt((double)(n - PARAMETERS));
	while (!done && ++numit <= MAX_ITERATIONS) {
		double sig, scale;

		/* GSL's MAD sigma of the residuals scaled by 1 / sqrt(1 - leverage) */
		sig = abs_median(x, y, c, resfac, n, resid, work, &guess) / 0.6745;
		scale = 1.0 / (fmax(sig, sig_lower) * TUNE);
		before[0] = c[0];
		before[1] = c[1];
		if (least_squares(x, y, w, resid, scale, n, c, &wmean, &wsxx) != 0)
			goto out;
		done = converged(before, c);
	}
	rc = -1;
	if (!done)
		goto out;
	residuals(x, y, n, c, resid);
	guess = 0;
	sigma_mad = abs_median(NULL, NULL, c, NULL, n, resid, work, &guess) / 0.6745;
	sigma_rob = street_sigma(resid, resfac, n, sigma_mad);
	out->sigma =
	    fmax(sigma_rob, sqrt((sigma_ols * sigma_ols * p2 + sigma_rob * sigma_rob * (double)n) /
	                         (p2 + (double)n)));
	out->c0 = c[0];
	out->c1 = c[1];
	{
		double s2 = out->sigma * out->sigma;

		out->cov[0][0] = s2 * (1.0 / (double)n + mean_x * mean_x / sxx);
		out->cov[0][1] = out->cov[1][0] = -s2 * mean_x / sxx;
		out->cov[1][1] = s2 / sxx;
	}
	out->iterations = numit;
	rc = isfinite(out->sigma) ? 0 : 1;
out:
	free(resfac);
	free(w);
	free(work);
	return rc;
}
