/* ratio.c: paired ratios, sign-test intervals, verdicts and expectations. */
#include "analysis/stats/ratio.h"

#include "analysis/stats/confseq.h"
#include "analysis/stats/stats.h"
#include "core/base/errbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

int cb_ratio_paired(const double *num, const double *den, size_t n, double level,
                    struct cb_ratio *out, char *err, size_t err_len)
{
	return cb_ratio_paired_by(num, den, n, level, 0, out, err, err_len);
}

int cb_ratio_paired_by(const double *num, const double *den, size_t n, double level, unsigned how,
                       struct cb_ratio *out, char *err, size_t err_len)
{
	bool sequential = how & CB_RATIO_SEQUENTIAL;
	double *logs;
	size_t used = 0;

	memset(out, 0, sizeof(*out));
	out->value = out->log_value = NAN;
	cb_stats_median_interval(NULL, 0, level, &out->ci);
	if (!(level > 0.0 && level < 1.0)) {
		cb_errorf(err, err_len, "ratio level %g is outside (0, 1)", level);
		return -1;
	}
	logs = malloc((n ? n : 1) * sizeof(*logs));
	if (!logs) {
		cb_errorf(err, err_len, "out of memory pairing %zu rounds", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (isnan(num[i]) || isnan(den[i])) {
			out->skipped++;
			continue;
		}
		if (!(isfinite(num[i]) && num[i] > 0.0 && isfinite(den[i]) && den[i] > 0.0)) {
			cb_errorf(err, err_len,
			          "round %zu: ratio of %g to %g is not of two positive "
			          "numbers",
			          i, num[i], den[i]);
			free(logs);
			return -1;
		}
		/* Difference of logs rather than log of the quotient: no overflow. */
		logs[used] = log(num[i]) - log(den[i]);
		out->above += logs[used] > 0.0;
		used++;
	}
	if (used == 0) {
		cb_errorf(err, err_len, "no round has both sides of the ratio");
		free(logs);
		return -1;
	}
	/* The sequence and the dependence read the log ratios in round order,
	 * before the sort. */
	cb_dependence_of(logs, used, &out->dependence);
	double vif = out->dependence.vif;
	bool held = sequential && out->dependence.hold;

	out->dependence.hold = held; /* a fixed run's is widened by the lag-1's factor */
	if (sequential && (how & CB_RATIO_OWN_MACHINE))
		cb_dependence_own_noise(num, den, n, logs, used, level, &out->dependence);

	struct cb_stats_interval by_batches = {0};

	if ((sequential && !held &&
	     cb_confseq_median_widened(logs, used, level, vif, &out->ci) != 0) ||
	    (out->dependence.dependent && out->dependence.batches &&
	     cb_dependence_batch_interval(logs, used, level, &by_batches) != 0)) {
		cb_errorf(err, err_len, "out of memory pairing %zu rounds", n);
		free(logs);
		return -1;
	}
	cb_stats_sort(logs, used);
	out->n = used;
	out->log_value = gsl_stats_median_from_sorted_data(logs, 1, used);
	out->value = exp(out->log_value);
	if (held) /* no interval until the batches can size the dependence */
		cb_confseq_median(NULL, 0, level, &out->ci);
	else if (!sequential)
		cb_stats_median_interval_widened(logs, used, level, vif, &out->ci);
	else
		cb_confseq_hold_widened(&out->ci, logs, used, out->log_value, vif);
	if (out->dependence.dependent && out->ci.available)
		out->ci.method =
		    sequential ? cb_dependence_sequence_method : cb_dependence_exact_method;
	else if (!held && !out->ci.available && by_batches.available) {
		/* so dependent that no rank interval forms: the batches' medians */
		out->ci = by_batches;
		out->ci.lo = fmin(out->ci.lo, out->log_value);
		out->ci.hi = fmax(out->ci.hi, out->log_value);
		out->dependence.batch_units = true;
	}
	if (out->dependence.margin > 0 && out->ci.available) {
		out->ci.lo -= out->dependence.margin;
		out->ci.hi += out->dependence.margin;
		out->ci.method = cb_dependence_own_method;
	}
	if (out->ci.available) {
		out->ci.lo = exp(out->ci.lo);
		out->ci.hi = exp(out->ci.hi);
	}
	free(logs);
	return 0;
}

double cb_ratio_bonferroni(double level, size_t m)
{
	return m > 1 ? 1.0 - (1.0 - level) / (double)m : level;
}

enum cb_ratio_verdict cb_ratio_verdict(double value, double lo, double hi, double delta)
{
	double upper = 1.0 + delta, lower = 1.0 / (1.0 + delta);

	if (isnan(value) || isnan(lo) || isnan(hi) || !(delta > 0.0))
		return CB_RATIO_NOT_RESOLVED;
	if (lo > 1.0 && value > upper)
		return CB_RATIO_FASTER;
	if (hi < 1.0 && value < lower)
		return CB_RATIO_SLOWER;
	if (lo >= lower && hi <= upper)
		return CB_RATIO_EQUIVALENT;
	return CB_RATIO_NOT_RESOLVED;
}

const char *cb_ratio_verdict_name(enum cb_ratio_verdict v)
{
	switch (v) {
	case CB_RATIO_FASTER:
		return "faster";
	case CB_RATIO_SLOWER:
		return "slower";
	case CB_RATIO_EQUIVALENT:
		return "equivalent";
	case CB_RATIO_NOT_RESOLVED:
		break;
	}
	return "not resolved";
}

enum cb_ratio_expectation cb_ratio_expect(double value, double lo, double hi, double expected,
                                          double tol)
{
	double band_lo = expected * (1.0 - tol), band_hi = expected * (1.0 + tol);
	double wide_lo = expected * (1.0 - 2.0 * tol), wide_hi = expected * (1.0 + 2.0 * tol);

	if (isnan(value) || isnan(lo) || isnan(hi) || lo > hi || !(expected > 0.0) ||
	    !(tol > 0.0 && tol < 1.0))
		return CB_EXPECT_NOT_RESOLVED;
	if (hi < band_lo || lo > band_hi)
		return CB_EXPECT_INCONSISTENT;
	if (value >= band_lo && value <= band_hi && lo >= wide_lo && hi <= wide_hi)
		return CB_EXPECT_CONSISTENT;
	return CB_EXPECT_NOT_RESOLVED;
}

const char *cb_ratio_expectation_name(enum cb_ratio_expectation e)
{
	switch (e) {
	case CB_EXPECT_CONSISTENT:
		return "consistent";
	case CB_EXPECT_INCONSISTENT:
		return "inconsistent";
	case CB_EXPECT_NOT_RESOLVED:
		break;
	}
	return "not resolved";
}
