/* repro.c: reproducibility verdicts across runs and the stability of rankings. */
#include "analysis/verdicts/repro.h"

#include "core/base/errbuf.h"

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
	opt->alpha = 0.05;
	opt->delta = 0.02;
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

/* ---- Two estimates against a margin ---- */

double cb_repro_log_se(const struct cb_estimate *e, double level)
{
	if (!(level > 0.0 && level < 1.0) || !(e->lo > 0.0) || !isfinite(e->hi))
		return NAN;
	return (log(e->hi) - log(e->lo)) /
	       (2.0 * gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - level) / 2.0));
}

const char *cb_margin_verdict_name(enum cb_margin_verdict v)
{
	switch (v) {
	case CB_MARGIN_WITHIN:
		return "equivalent within delta";
	case CB_MARGIN_BEYOND:
		return "beyond delta";
	case CB_MARGIN_NOT_RESOLVED:
		break;
	}
	return "not resolved";
}

int cb_margin_ratio(const struct cb_estimate *a, double level_a, const struct cb_estimate *b,
                    double level_b, double delta, double alpha, struct cb_margin *out)
{
	double se_a = cb_repro_log_se(a, level_a), se_b = cb_repro_log_se(b, level_b);

	*out = (struct cb_margin){
	    NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, CB_MARGIN_NOT_RESOLVED};
	if (!(a->value > 0.0 && b->value > 0.0 && isfinite(a->value) && isfinite(b->value)) ||
	    isnan(se_a) || isnan(se_b) || !(delta > 0.0) || !(alpha > 0.0 && alpha < 0.5))
		return -1;
	double d = log(a->value) - log(b->value), s = sqrt(se_a * se_a + se_b * se_b);
	double m = log1p(delta), excess = fabs(d) - m;

	out->ratio = exp(d);
	out->log_ratio = d;
	out->se = s;
	out->margin = m;
	out->half = gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0) * s;
	out->tost_half = gsl_cdf_ugaussian_Pinv(1.0 - alpha) * s;
	out->lo = exp(d - out->half);
	out->hi = exp(d + out->half);
	if (s > 0.0) {
		out->p_beyond = fmin(1.0, 2.0 * gsl_cdf_ugaussian_P(-excess / s));
		out->p_within = gsl_cdf_ugaussian_P(excess / s);
	} else { /* exact estimates: the difference is what it is */
		out->p_beyond = excess > 0.0 ? 0.0 : 1.0;
		out->p_within = excess < 0.0 ? 0.0 : 1.0;
	}
	if (out->p_beyond < alpha)
		out->verdict = CB_MARGIN_BEYOND;
	else if (out->p_within < alpha)
		out->verdict = CB_MARGIN_WITHIN;
	return 0;
}

/* ---- Many runs ---- */

static bool options_valid(const struct cb_repro_options *opt)
{
	return opt->level > 0.0 && opt->level < 1.0 && opt->delta > 0.0 && opt->alpha > 0.0 &&
	       opt->alpha < 0.5 && (isnan(opt->reference) || opt->reference > 0.0);
}

static int check_runs(const struct cb_estimate *runs, const double *levels, size_t k,
                      bool *intervals, char *err, size_t err_len)
{
	*intervals = true;
	for (size_t i = 0; i < k; i++) {
		const struct cb_estimate *r = &runs[i];
		if (!(isfinite(r->value) && r->value > 0.0)) {
			cb_errorf(err, err_len, "run %zu: estimate %g is not a positive number", i,
			          r->value);
			return -1;
		}
		if (levels && !(levels[i] > 0.0 && levels[i] < 1.0)) {
			cb_errorf(err, err_len, "run %zu: interval level %g is not in (0, 1)", i,
			          levels[i]);
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

/* Every pair of runs against the margin: the row's p_beyond (Bonferroni over
 * pairs) and p_within (intersection-union: the worst pair), and the deciding
 * pair. */
static void judge_pairs(const struct cb_estimate *runs, const double *levels, size_t k,
                        const struct cb_repro_options *opt, struct cb_repro *out)
{
	size_t pairs = k * (k - 1) / 2, beyond_a = 0, beyond_b = 1, within_a = 0, within_b = 1;
	double min_beyond = INFINITY, max_within = -INFINITY, widest = -1.0;
	struct cb_margin m;

	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k; j++) {
			double li = levels ? levels[i] : opt->level,
			       lj = levels ? levels[j] : opt->level;

			cb_margin_ratio(&runs[j], lj, &runs[i], li, opt->delta, opt->alpha, &m);
			/* ties (p 0 for exact estimates): the larger difference */
			if (m.p_beyond < min_beyond ||
			    (m.p_beyond == min_beyond && fabs(m.log_ratio) > widest)) {
				min_beyond = m.p_beyond;
				widest = fabs(m.log_ratio);
				beyond_a = i, beyond_b = j;
			}
			if (m.p_within > max_within) {
				max_within = m.p_within;
				within_a = i, within_b = j;
			}
		}
	out->pairs = pairs;
	out->p_beyond = out->p_adjusted = fmin(1.0, (double)pairs * min_beyond);
	out->p_within = max_within;
	if (out->p_beyond < opt->alpha) {
		out->verdict = CB_REPRO_NON_REPRODUCIBLE;
		out->pair_a = beyond_a, out->pair_b = beyond_b;
	} else {
		out->verdict =
		    out->p_within < opt->alpha ? CB_REPRO_REPRODUCED : CB_REPRO_NOT_RESOLVED;
		out->pair_a = within_a, out->pair_b = within_b;
	}
	/* The deciding pair's interval: Bonferroni-wide when it carries the verdict
	 * of many pairs, plain otherwise. */
	size_t a = out->pair_a, b = out->pair_b;
	double alpha =
	    out->verdict == CB_REPRO_NON_REPRODUCIBLE ? opt->alpha / (double)pairs : opt->alpha;
	cb_margin_ratio(&runs[b], levels ? levels[b] : opt->level, &runs[a],
	                levels ? levels[a] : opt->level, opt->delta, alpha, &out->pair);
	if (out->verdict == CB_REPRO_NOT_RESOLVED)
		out->why = fabs(out->pair.log_ratio) > out->pair.margin ? CB_REPRO_WHY_EDGE
		                                                        : CB_REPRO_WHY_TOO_WIDE;
}

/* Q and I^2, reported beside the verdict. */
static void heterogeneity(const struct cb_estimate *runs, const double *levels, size_t k,
                          const double *y, double *se, const struct cb_repro_options *opt,
                          struct cb_repro *out)
{
	for (size_t i = 0; i < k; i++)
		se[i] = cb_repro_log_se(&runs[i], levels ? levels[i] : opt->level);
	/* A zero-width interval claims infinite precision: Q stays NaN rather than
	 * letting one run weigh everything. */
	cb_repro_cochran(y, se, k, &out->q, &out->q_p, &out->i2);
}

int cb_repro_compare(const struct cb_estimate *runs, const double *levels, size_t k,
                     const struct cb_repro_options *opt, struct cb_repro *out, char *err,
                     size_t err_len)
{
	struct cb_repro_options defaults;
	double *y = NULL, *se = NULL, min, max;
	bool intervals;

	memset(out, 0, sizeof(*out));
	out->k = k;
	out->spread = out->q = out->q_p = out->i2 = NAN;
	out->p_beyond = out->p_within = out->p_adjusted = NAN;
	out->log_mean = out->log_sd = NAN;
	out->value = (struct cb_estimate){NAN, NAN, NAN};
	out->pair = (struct cb_margin){
	    NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, CB_MARGIN_NOT_RESOLVED};
	out->why = CB_REPRO_WHY_FEW_RUNS;
	if (!opt) {
		cb_repro_defaults(&defaults);
		opt = &defaults;
	}
	if (!options_valid(opt)) {
		cb_errorf(err, err_len, "reproducibility options out of range");
		return -1;
	}
	if (check_runs(runs, levels, k, &intervals, err, err_len) != 0)
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
	across_runs(y, k, opt->level, out);
	out->why = CB_REPRO_WHY_NO_INTERVAL;
	if (intervals) {
		out->why = CB_REPRO_WHY_NONE;
		heterogeneity(runs, levels, k, y, se, opt, out);
		judge_pairs(runs, levels, k, opt, out);
		if (find_contradiction(runs, k, opt->reference, out)) {
			out->verdict = CB_REPRO_CONTRADICTORY;
			out->why = CB_REPRO_WHY_NONE;
		}
	}
	free(y);
	free(se);
	return 0;
}

/* ---- In words ---- */

static size_t run_no(const size_t *run_number, size_t i)
{
	return run_number ? run_number[i] : i + 1;
}

/* A p-value for people: "< 1e-6" below 1e-6 (nothing that small is meant). */
static const char *p_text(double p, char buf[32])
{
	if (p < 1e-6)
		snprintf(buf, 32, "< 1e-6");
	else
		snprintf(buf, 32, "%.2g", p);
	return buf;
}

void cb_repro_why_text(const struct cb_repro *r, double delta, const size_t *run_number,
                       size_t family, char *buf, size_t len)
{
	const struct cb_margin *m = &r->pair;
	size_t a = run_no(run_number, r->pair_a), b = run_no(run_number, r->pair_b);
	double diff = 100.0 * (m->ratio - 1.0), d = 100.0 * delta;

	switch (r->verdict) {
	case CB_REPRO_REPRODUCED:
		snprintf(
		    buf, len,
		    "within delta %.3g%%: largest difference %+.2f%% +/-%.2f%% (runs %zu, %zu)", d,
		    diff, 100.0 * expm1(m->tost_half), a, b);
		return;
	case CB_REPRO_NON_REPRODUCIBLE: {
		char p[32], q[32];
		int used =
		    snprintf(buf, len,
		             "runs %zu, %zu differ by %+.2f%% [%+.2f%%, %+.2f%%], beyond delta "
		             "%.3g%% (p %s",
		             a, b, diff, 100.0 * (m->lo - 1.0), 100.0 * (m->hi - 1.0), d,
		             p_text(r->p_beyond, p));
		if (used >= 0 && (size_t)used < len)
			snprintf(buf + used, len - (size_t)used, family ? ", adjusted %s)" : ")",
			         p_text(r->p_adjusted, q));
		return;
	}
	case CB_REPRO_CONTRADICTORY:
		snprintf(buf, len, "run %zu above 1, run %zu below 1", run_no(run_number, r->above),
		         run_no(run_number, r->below));
		return;
	case CB_REPRO_NOT_RESOLVED:
		break;
	}
	switch (r->why) {
	case CB_REPRO_WHY_TOO_WIDE:
		snprintf(
		    buf, len,
		    "too few rounds to tell: interval +/-%.2f%% against delta %.3g%% (runs %zu, "
		    "%zu differ by %+.2f%%)",
		    100.0 * expm1(m->tost_half), d, a, b, diff);
		return;
	case CB_REPRO_WHY_EDGE:
		snprintf(buf, len,
		         "runs %zu, %zu differ by %+.2f%% +/-%.2f%%: beyond delta %.3g%% or not, "
		         "too few rounds to tell",
		         a, b, diff, 100.0 * expm1(m->half), d);
		return;
	case CB_REPRO_WHY_FAMILY: {
		char p[32], q[32];

		snprintf(
		    buf, len,
		    "runs %zu, %zu differ by %+.2f%%, beyond delta %.3g%% alone (p %s) but not "
		    "across the %zu rows (adjusted p %s)",
		    a, b, diff, d, p_text(r->p_beyond, p), family, p_text(r->p_adjusted, q));
		return;
	}
	case CB_REPRO_WHY_FEW_RUNS:
		snprintf(buf, len, "fewer than two runs have an estimate");
		return;
	case CB_REPRO_WHY_NO_INTERVAL:
		snprintf(buf, len, "a run has no interval (too few samples)");
		return;
	case CB_REPRO_WHY_NONE:
		break;
	}
	snprintf(buf, len, "-");
}

/* ---- The table as one family ---- */

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->p, y = ((const struct ranked *)b)->p;

	return x < y ? -1 : x > y;
}

int cb_repro_bh(const double *p, size_t n, double *adj)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof *r);
	size_t m = 0;

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked){p[i], i};
	qsort(r, m, sizeof *r, by_p);
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	double running = 1.0;
	for (size_t j = m; j-- > 0;) {
		running = fmin(running, fmin(1.0, (double)m * r[j].p / (double)(j + 1)));
		adj[r[j].i] = running;
	}
	free(r);
	return 0;
}

long cb_repro_family(struct cb_repro *const *rows, size_t n, double alpha)
{
	double *p = calloc(n ? n : 1, sizeof *p);
	long downgraded = 0;

	if (!p)
		return -1;
	for (size_t i = 0; i < n; i++)
		p[i] = rows[i]->p_beyond;
	if (cb_repro_bh(p, n, p) != 0) {
		free(p);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i]->p_adjusted = p[i];
		if (rows[i]->verdict == CB_REPRO_NON_REPRODUCIBLE && !(p[i] < alpha)) {
			rows[i]->verdict = CB_REPRO_NOT_RESOLVED;
			rows[i]->why = CB_REPRO_WHY_FAMILY;
			downgraded++;
		}
	}
	free(p);
	return downgraded;
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
