/* curve.h: what a payload-size sweep shows: cost per call and per byte, and
 * where one contender overtakes another.
 *
 * Same conventions as stats.h: 0 on success, -1 with a one-line ERR (which may
 * be NULL); missing intervals are NaN. */
#ifndef CB_CURVE_H
#define CB_CURVE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/stats.h"

/* ---- Slope: time = overhead + size * per_byte ---- */

/* Up to this many points the robust fit is GSL's gsl_multifit_robust; above,
 * the same estimator in O(n) per iteration (robust_line.h), whose figures
 * agree with GSL's to about 1e-10 of their size rather than to the last bit.
 * GSL's routine sorts every residual at every iteration: a fit over 250,000
 * trials took it some 10 s. */
#define CB_CURVE_GSL_MAX_POINTS 10000

enum cb_curve_fit {
	CB_CURVE_OLS,    /* ordinary least squares (gsl_fit_linear) */
	CB_CURVE_ROBUST, /* bisquare M-estimate (gsl_multifit_robust) */
};

struct cb_curve_slope {
	size_t n;                    /* points fitted */
	size_t sizes;                /* distinct sizes among them */
	enum cb_curve_fit fit;       /* the fit reported in overhead and per_byte */
	const char *fit_name;        /* "ols" or "robust" */
	struct cb_estimate overhead; /* time at size 0: the per-call cost, with interval */
	struct cb_estimate per_byte; /* marginal time per byte, with interval */
	double overhead_se, per_byte_se;
	double dof;                              /* n - 2: the t quantile's degrees of freedom */
	size_t outliers;                         /* points with |robust residual| > 3 robust SDs */
	double ols_overhead, ols_per_byte;       /* the OLS fit, always */
	double robust_overhead, robust_per_byte; /* the robust fit; NaN if it failed */
};

/* Fit TIME[i] = overhead + SIZE[i] * per_byte over N points (several may share
 * a size), with intervals at LEVEL from the fit's standard errors and a t
 * quantile with n - 2 degrees of freedom. Both fits are made; the robust one is
 * reported when it finds outliers (a point whose residual from the robust line
 * exceeds 3 x 1.4826 x MAD of those residuals), the OLS one otherwise (and
 * when the robust fit does not converge in 100 iterations). Times in
 * ns and sizes in bytes give ns and ns/byte. -1 with ERR when n < 3, fewer than
 * two distinct sizes, a value is not finite, a size is negative, or LEVEL is
 * outside (0, 1). */
int cb_curve_slope(const double *size, const double *time, size_t n, double level,
                   struct cb_curve_slope *out, char *err, size_t err_len);

/* ---- Crossover of two curves ---- */

struct cb_curve_crossover {
	bool found;
	double size;       /* interpolated: where log(a/b) is 0, linear in log size */
	double bracket_lo; /* the measured sizes either side (when the curves tie at a */
	double bracket_hi; /*   measured size, size is that one and these its neighbours) */
	size_t index;      /* index of bracket_lo: search on from index + 1 */
	int direction; /* +1: A overtakes B as size grows (A below, then above); -1: B overtakes A
	                */
	bool resolved; /* at both bracket ends the two intervals are disjoint */
};

/* The first crossover at or after index FROM of curves A and B (estimates with
 * intervals, e.g. throughput, all > 0) measured at SIZE[0..n-1] (> 0, strictly
 * increasing): consecutive sizes where the sign of a - b changes, or a size
 * where a == b with opposite signs on either side. Not resolved when the
 * intervals overlap (or are missing) at either bracket end: the order there may
 * be noise. Returns 1 when found, 0 when the curves do not cross (OUT->found
 * false), -1 with ERR on bad input. */
int cb_curve_crossover(const double *size, const struct cb_estimate *a, const struct cb_estimate *b,
                       size_t n, size_t from, struct cb_curve_crossover *out, char *err,
                       size_t err_len);

#endif
