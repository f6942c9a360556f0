/* ratio.h: paired ratios between two cells, their verdicts and expectations.
 *
 * A ratio compares two cells measured in the same rounds: round i gives
 * num[i] / den[i]. Pairing by round cancels what a round shares (background
 * load, frequency), which unpaired medians would keep. The estimate is the
 * median of the per-round log ratios with the exact sign-test interval (the
 * order-statistic interval of stats.h applied to the log ratios), both
 * exponentiated back; widened when the log ratios' rounds are shown
 * dependent (dependence.h: each side's own slow noise, which pairing does
 * not cancel). Pass throughputs (or den time / num time) so that a
 * ratio above 1 means the numerator is faster.
 *
 * Bonferroni: when one baseline faces m others, ask each ratio for
 * cb_ratio_bonferroni(0.95, m) instead of 0.95. */
#ifndef CB_RATIO_H
#define CB_RATIO_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/dependence.h"
#include "analysis/stats/stats.h"

struct cb_ratio {
	size_t n;                    /* rounds paired */
	size_t skipped;              /* rounds left out because one side was NaN (no valid trial) */
	size_t above;                /* rounds with num > den: the sign test's count */
	double value;                /* exp(median of log(num/den)) */
	double log_value;            /* median of log(num/den) */
	struct cb_stats_interval ci; /* on the ratio scale; not available for n < 6 at 0.95 */
	/* Of the log ratios in round order: where the rounds are shown
	 * dependent, CI is widened (its method says so) or, for a sequential
	 * interval whose batches are still too short, held: not available. */
	struct cb_dependence dependence;
};

/* The paired ratio of NUM and DEN (N rounds each) at LEVEL. A round where
 * either side is NaN is skipped; any other value must be finite and > 0. -1
 * with ERR when a value is bad, LEVEL is outside (0, 1), no round is left, or
 * memory runs out. */
int cb_ratio_paired(const double *num, const double *den, size_t n, double level,
                    struct cb_ratio *out, char *err, size_t err_len);
/* How cb_ratio_paired_by builds the interval. */
enum {
	/* The confidence sequence of the per-round log ratios in round order
	 * (confseq.h), valid at a stopping time chosen on the data; without it
	 * the exact sign-test interval above. */
	CB_RATIO_SEQUENTIAL = 1,
	/* The values carry each side's machine (time, or cycles estimated from
	 * it): a sequential interval takes the margin for slow noise of each
	 * side's own where the sides share little (dependence.h). */
	CB_RATIO_OWN_MACHINE = 2,
};

/* The same, with the interval HOW asks for (CB_RATIO_ flags, 0: the one
 * above). */
int cb_ratio_paired_by(const double *num, const double *den, size_t n, double level, unsigned how,
                       struct cb_ratio *out, char *err, size_t err_len);

/* LEVEL adjusted for M simultaneous comparisons: 1 - (1 - LEVEL) / M. */
double cb_ratio_bonferroni(double level, size_t m);

/* ---- Verdict against a practical threshold ---- */

enum cb_ratio_verdict {
	CB_RATIO_NOT_RESOLVED = 0,
	CB_RATIO_FASTER,
	CB_RATIO_SLOWER,
	CB_RATIO_EQUIVALENT,
};

/* With the band E = [1/(1+DELTA), 1+DELTA] (DELTA default 0.02), for a ratio
 * VALUE with interval [LO, HI]:
 *   faster      LO > 1 and VALUE > 1+DELTA  (a real difference, and not a small one)
 *   slower      HI < 1 and VALUE < 1/(1+DELTA)
 *   equivalent  [LO, HI] inside E           (whatever the difference, it is small)
 *   not resolved otherwise, and whenever LO or HI is NaN or DELTA <= 0.
 * The cases are disjoint: faster needs VALUE above E, equivalent needs HI in it. */
enum cb_ratio_verdict cb_ratio_verdict(double value, double lo, double hi, double delta);
/* "faster", "slower", "equivalent", "not resolved". */
const char *cb_ratio_verdict_name(enum cb_ratio_verdict v);

/* ---- Expectation ---- */

enum cb_ratio_expectation {
	CB_EXPECT_NOT_RESOLVED = 0,
	CB_EXPECT_CONSISTENT,
	CB_EXPECT_INCONSISTENT,
};

/* Checks a measured ratio against a declared EXPECTED value (e.g. 10/14) with
 * relative tolerance TOL (0 < TOL < 1). With the band B = [EXPECTED(1-TOL),
 * EXPECTED(1+TOL)] and the doubled band B2 = [EXPECTED(1-2TOL), EXPECTED(1+2TOL)]:
 *   inconsistent  [LO, HI] and B are disjoint: every value the data allow is
 *                 outside the tolerance.
 *   consistent    VALUE lies in B and [LO, HI] lies in B2: the estimate agrees and
 *                 no value the data allow is farther off than twice the tolerance.
 *   not resolved  otherwise: the interval touches B but is too wide (or sits too
 *                 far off) to say, or LO/HI are NaN, or the arguments are bad.
 * The interval must be informative for "consistent": a wide interval that merely
 * overlaps B does not confirm anything. */
enum cb_ratio_expectation cb_ratio_expect(double value, double lo, double hi, double expected,
                                          double tol);
/* "consistent", "inconsistent", "not resolved". */
const char *cb_ratio_expectation_name(enum cb_ratio_expectation e);

#endif
