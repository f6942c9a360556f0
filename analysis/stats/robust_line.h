/* robust_line.h: the bisquare M-estimate of a straight line, y = c0 + c1 x,
 * in O(n) per iteration, for fits over hundreds of thousands of points.
 *
 * The estimator is the one gsl_multifit_robust computes with its default
 * (bisquare) weights, step for step: an ordinary least-squares start;
 * residuals scaled by 1 / sqrt(1 - leverage) (DuMouchel and O'Brien);
 * sigma from the median of the absolute residuals without the smallest p - 1,
 * over 0.6745, floored at 1e-6 of the SD of y; weights (1 - u^2)^2 for
 * |u| = |r| / (4.685 sigma) < 1; weighted least squares; until every
 * coefficient moves by at most sqrt(DBL_EPSILON) of itself, at most 100
 * iterations. The final sigma (Street, Carroll and Ruppert's, bounded below
 * by DuMouchel and O'Brien's blend with the OLS sigma) and the covariance
 * sigma^2 (X'X)^-1 are GSL's too.
 *
 * What differs is the arithmetic: with two parameters the least-squares
 * solutions are closed forms over weighted sums instead of a singular value
 * decomposition, and the median is found by selection instead of a full
 * sort. Same estimator, other rounding: the figures agree with GSL's to
 * about 1e-10 of their size (tests/test_stats.c checks 1e-8), not to the
 * last bit. cb_curve_slope uses GSL's routine up to
 * CB_CURVE_GSL_MAX_POINTS points, so that smaller fits give the very same
 * figures as before, and this one above. */
#ifndef CB_ROBUST_LINE_H
#define CB_ROBUST_LINE_H

#include <stddef.h>

struct cb_robust_line {
	double c0, c1;     /* intercept and slope */
	double cov[2][2];  /* sigma^2 (X'X)^-1 */
	double sigma;      /* the final sigma */
	size_t iterations; /* reweighting iterations made */
};

/* Fit Y[i] = c0 + c1 X[i] over N >= 3 points (finite values, at least two
 * distinct X). RESID (N values) receives the final residuals y - c0 - c1 x.
 * 0 on success; 1 when the points are degenerate for the closed forms (the
 * caller may use GSL's routine instead); -1 when 100 iterations did not
 * converge (GSL's GSL_EMAXITER) or memory ran out. */
int cb_robust_line_fit(const double *x, const double *y, size_t n, double *resid,
                       struct cb_robust_line *out);

#endif
