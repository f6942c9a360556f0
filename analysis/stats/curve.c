/* curve.c: slope fits across payload sizes and crossovers between curves. */
#include "analysis/stats/curve.h"

#include "analysis/stats/robust_line.h"
#include "core/base/errbuf.h"

#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_statistics_double.h>

/* Hampel's rule: a residual beyond 3 robust SDs is an outlier. */
#define OUTLIER_SDS 3.0

struct line {
	double c0, c1; /* overhead, per byte */
	double se0, se1;
	size_t outliers;
};

/* Outliers of a robust fit: residuals beyond 3 robust SDs of them. The floor
 * keeps rounding noise on exact data from counting as outliers. */
static size_t count_outliers(double *resid, size_t n, double top)
{
	double *work = malloc(n * sizeof(*work)), limit;
	size_t outliers = 0;

	if (!work)
		return SIZE_MAX;
	limit = fmax(OUTLIER_SDS * gsl_stats_mad(resid, 1, n, work), 1e-9 * top);
	for (size_t i = 0; i < n; i++)
		outliers += fabs(resid[i]) > limit;
	free(work);
	return outliers;
}

/* GSL's robust fit of TIME on [1, SIZE / SCALE] into OUT and its residuals
 * into RESID; -1 when it fails (no convergence, no memory). */
static int fit_robust_gsl(const double *size, const double *time, size_t n, double scale,
                          double *resid, struct line *out)
{
	gsl_matrix *X = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
	gsl_vector *y = gsl_vector_alloc(n), *c = gsl_vector_alloc(2);
	gsl_multifit_robust_workspace *w =
	    gsl_multifit_robust_alloc(gsl_multifit_robust_bisquare, n, 2);
	gsl_error_handler_t *old_handler;
	int status = -1;

	if (!X || !cov || !y || !c || !w)
		goto done;
	for (size_t i = 0; i < n; i++) {
		gsl_matrix_set(X, i, 0, 1.0);
		gsl_matrix_set(X, i, 1, size[i] / scale);
		gsl_vector_set(y, i, time[i]);
	}
	/* GSL's default handler aborts; here a failed fit just falls back to OLS. */
	old_handler = gsl_set_error_handler_off();
	int rc = gsl_multifit_robust(X, y, c, cov, w);
	gsl_set_error_handler(old_handler);
	if (rc != GSL_SUCCESS)
		goto done;

	gsl_multifit_robust_stats st = gsl_multifit_robust_statistics(w);
	for (size_t i = 0; i < n; i++)
		resid[i] = gsl_vector_get(st.r, i);
	out->c0 = gsl_vector_get(c, 0);
	out->c1 = gsl_vector_get(c, 1) / scale;
	out->se0 = sqrt(gsl_matrix_get(cov, 0, 0));
	out->se1 = sqrt(gsl_matrix_get(cov, 1, 1)) / scale;
	status = 0;
done:
	if (w)
		gsl_multifit_robust_free(w);
	gsl_matrix_free(X);
	gsl_matrix_free(cov);
	gsl_vector_free(y);
	gsl_vector_free(c);
	return status;
}

/* The same estimator in O(n) per iteration (robust_line.h); GSL's when the
 * points leave the closed forms no line. */
static int fit_robust_large(const double *size, const double *time, size_t n, double scale,
                            double *resid, struct line *out)
{
	double *x = malloc(n * sizeof(*x));
	struct cb_robust_line fit;
	int rc;

	if (!x)
		return -1;
	for (size_t i = 0; i < n; i++)
		x[i] = size[i] / scale;
	rc = cb_robust_line_fit(x, time, n, resid, &fit);
	free(x);
	if (rc == 1)
		return fit_robust_gsl(size, time, n, scale, resid, out);
	if (rc != 0)
		return -1;
	out->c0 = fit.c0;
	out->c1 = fit.c1 / scale;
	out->se0 = sqrt(fit.cov[0][0]);
	out->se1 = sqrt(fit.cov[1][1]) / scale;
	return 0;
}

/* The robust fit, its standard errors, and the count of points it rejects.
 * -1 when it fails (no convergence, no memory); nothing is printed. */
static int fit_robust(const double *size, const double *time, size_t n, struct line *out)
{
	double *resid = malloc(n * sizeof(*resid));
	double scale = 0.0, top = 0.0;
	int status = -1;

	if (!resid)
		return -1;
	/* Sizes span 16 B to 128 MiB: scaling the column to 1 keeps X well-conditioned. */
	for (size_t i = 0; i < n; i++) {
		scale = fmax(scale, size[i]);
		top = fmax(top, fabs(time[i]));
	}
	status = n <= CB_CURVE_GSL_MAX_POINTS ? fit_robust_gsl(size, time, n, scale, resid, out)
	                                      : fit_robust_large(size, time, n, scale, resid, out);
	if (status == 0 && (out->outliers = count_outliers(resid, n, top)) == SIZE_MAX)
		status = -1;
	if (status == 0 && !(isfinite(out->c0) && isfinite(out->c1)))
		status = -1;
	free(resid);
	return status;
}

static size_t count_distinct(const double *x, size_t n)
{
	size_t distinct = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && x[j] != x[i])
			j++;
		distinct += j == i;
	}
	return distinct;
}

static struct cb_estimate with_interval(double value, double se, double t)
{
	return (struct cb_estimate){.value = value, .lo = value - t * se, .hi = value + t * se};
}

int cb_curve_slope(const double *size, const double *time, size_t n, double level,
                   struct cb_curve_slope *out, char *err, size_t err_len)
{
	struct line ols = {0}, rob = {0};
	double cov00, cov01, cov11, sumsq;

	memset(out, 0, sizeof(*out));
	if (!(level > 0.0 && level < 1.0)) {
		cb_errorf(err, err_len, "slope level %g is outside (0, 1)", level);
		return -1;
	}
	if (n < 3) {
		cb_errorf(err, err_len, "a slope with intervals needs 3 points, not %zu", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(size[i]) || !isfinite(time[i]) || size[i] < 0.0) {
			cb_errorf(err, err_len, "point %zu (size %g, time %g) is not usable", i,
			          size[i], time[i]);
			return -1;
		}
	}
	out->sizes = count_distinct(size, n);
	if (out->sizes < 2) {
		cb_errorf(err, err_len, "a slope needs at least two distinct sizes");
		return -1;
	}
	gsl_fit_linear(size, 1, time, 1, n, &ols.c0, &ols.c1, &cov00, &cov01, &cov11, &sumsq);
	ols.se0 = sqrt(cov00);
	ols.se1 = sqrt(cov11);

	out->n = n;
	out->dof = (double)n - 2.0;
	out->ols_overhead = ols.c0;
	out->ols_per_byte = ols.c1;
	out->robust_overhead = out->robust_per_byte = NAN;
	const struct line *used = &ols;
	out->fit = CB_CURVE_OLS;
	if (fit_robust(size, time, n, &rob) == 0) {
		out->robust_overhead = rob.c0;
		out->robust_per_byte = rob.c1;
		out->outliers = rob.outliers;
		if (rob.outliers > 0) {
			used = &rob;
			out->fit = CB_CURVE_ROBUST;
		}
	}
	out->fit_name = out->fit == CB_CURVE_ROBUST ? "robust" : "ols";
	double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, out->dof);
	out->overhead = with_interval(used->c0, used->se0, t);
	out->per_byte = with_interval(used->c1, used->se1, t);
	out->overhead_se = used->se0;
	out->per_byte_se = used->se1;
	return 0;
}

static bool disjoint(const struct cb_estimate *a, const struct cb_estimate *b)
{
	/* NaN bounds compare false: a missing interval never separates. */
	return a->lo > b->hi || b->lo > a->hi;
}

static int sign_of(double x)
{
	return (x > 0.0) - (x < 0.0);
}

static void bracket(const double *size, const struct cb_estimate *a, const struct cb_estimate *b,
                    size_t lo, size_t hi, double at, struct cb_curve_crossover *out)
{
	out->found = true;
	out->size = at;
	out->bracket_lo = size[lo];
	out->bracket_hi = size[hi];
	out->resolved = disjoint(&a[lo], &b[lo]) && disjoint(&a[hi], &b[hi]);
}

int cb_curve_crossover(const double *size, const struct cb_estimate *a, const struct cb_estimate *b,
                       size_t n, size_t from, struct cb_curve_crossover *out, char *err,
                       size_t err_len)
{
	memset(out, 0, sizeof(*out));
	out->size = out->bracket_lo = out->bracket_hi = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(size[i]) && size[i] > 0.0) || (i > 0 && !(size[i] > size[i - 1]))) {
			cb_errorf(err, err_len, "size %zu (%g) is not positive and increasing", i,
			          size[i]);
			return -1;
		}
		if (!(isfinite(a[i].value) && a[i].value > 0.0 && isfinite(b[i].value) &&
		      b[i].value > 0.0)) {
			cb_errorf(err, err_len, "at size %g the curves (%g, %g) are not positive",
			          size[i], a[i].value, b[i].value);
			return -1;
		}
	}
	for (size_t i = from; i + 1 < n; i++) {
		/* Compared as log(a/b): the gap in relative terms, as throughputs are. */
		double d0 = log(a[i].value) - log(b[i].value);
		double d1 = log(a[i + 1].value) - log(b[i + 1].value);
		int s0 = sign_of(d0), s1 = sign_of(d1);

		if (s0 != 0 && s1 != 0 && s0 != s1) {
			double t = d0 / (d0 - d1);
			double at = exp(log(size[i]) + t * (log(size[i + 1]) - log(size[i])));
			bracket(size, a, b, i, i + 1, at, out);
			out->index = i;
			out->direction = s1;
			return 1;
		}
		/* A tie at a measured size i+1 with a change of sign across it. */
		if (s0 != 0 && s1 == 0 && i + 2 < n) {
			int s2 = sign_of(log(a[i + 2].value) - log(b[i + 2].value));
			if (s2 != 0 && s2 != s0) {
				bracket(size, a, b, i, i + 2, size[i + 1], out);
				out->index = i;
				out->direction = s2;
				return 1;
			}
		}
	}
	return 0;
}
