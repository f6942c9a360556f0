/* dependence.h: rounds that are not independent, and what a median's
 * interval pays for them.
 *
 * The intervals of stats.h (exact, fixed n) and confseq.h (valid at any
 * stopping time) count each round as one observation independent of the
 * others. Pairing by round cancels what the two sides of a ratio share; it
 * does not cancel what each side has on its own: a VM whose cycle count is
 * estimated from time carries the machine's slowly moving state (an AR(1)
 * term, a drifting clock) into each engine's figures separately. The sign
 * count those intervals rest on then varies more than a binomial does, and an
 * interval that assumes independence is too narrow: a lag-1 of only 0.3 in a
 * paired series can hide a long-run variance many times the per-round one.
 *
 * Method: batch means of the signs. The intervals are ranks of the sorted
 * values, set by the spread of S_n, the count of values below the median;
 * its variance is n/4 for independent rounds and n/4 x VIF for dependent
 * ones, VIF = 1 + 2 sum_h corr(Z_i, Z_i+h) of the sign series Z_i = 1{Y_i <
 * median}. VIF is estimated by cutting the series, in round order, into
 * CB_DEP_BATCHES batches of n/k rounds each (the batch grows with n, so
 * slower dependence is seen as more rounds come):
 *
 *   VIF_bm = b Var(batch means of Z) / Var(Z)
 *
 * which is about chi^2_(k-1)/(k-1) for independent rounds. Dependence is
 * taken as shown when the ranks' lag-1 exceeds CB_DEP_LAG1_Z / sqrt(n)
 * (one-sided: slow noise makes it positive) or VIF_bm exceeds its 95% point
 * for independent rounds; otherwise the rounds count as independent and the
 * interval is the one of today (no price on independent data but the cost of
 * a false alarm). When shown, the interval is widened as if the sign count's
 * standard deviation were sqrt(VIF) times larger, VIF the larger of the
 * batch estimate's upper 90% bound, b Var/Var x (k-1)/chi^2_(k-1)(0.10) (a
 * batch estimate of slow dependence is biased low), and (1 + r)/(1 - r) for
 * the lag-1 r: for the exact interval, the ranks' distance from n/2 is
 * multiplied by sqrt(VIF); for a confidence sequence, its boundary b(t) at
 * every t (the variance proxy V_t = VIF t/4), so its protection against
 * repeated looks is kept.
 *
 * Assumption: the dependence is short against n/k rounds (each batch
 * spans several times the memory of the noise). While the batches are too
 * short to say (fewer than CB_DEP_BATCHES x CB_DEP_MIN_BATCH rounds) and the
 * lag-1 shows dependence, a sequential question is held open (HOLD); a fixed
 * run's interval is widened by the lag-1's factor alone. */
#ifndef CB_DEPENDENCE_H
#define CB_DEPENDENCE_H

#include "analysis/stats/interval.h"

#include <stdbool.h>
#include <stddef.h>

#define CB_DEP_BATCHES 10       /* k: batches of the sign series */
#define CB_DEP_MIN_BATCH 4      /* rounds per batch before the batches are judged */
#define CB_DEP_LAG1_Z 1.645     /* the lag-1 limit: one-sided 5% */
#define CB_DEP_BATCH_ALPHA 0.05 /* the batch estimate's test for independent rounds */
#define CB_DEP_UPPER_Q 0.10     /* its upper bound: chi^2_(k-1)'s 10% point */

/* Slow noise each side has on its own (own_noise.c). */
#define CB_OWN_SHARE_MIN 0.5    /* sides whose Spearman is below this: noise of their own */
#define CB_OWN_PRIOR_VIF 39.0   /* (1 + 0.95) / (1 - 0.95): an AR(1) term of 0.95 */
#define CB_OWN_SIZED_ROUNDS 120 /* rounds before the batches may clear the margin */
#define CB_OWN_SHORT_VIF 2.0    /* the batches' upper bound that shows a short memory */

struct cb_dependence {
	size_t n;
	bool judged;       /* n allows the lag-1 test (n >= 8) */
	double lag1;       /* lag-1 autocorrelation of the values' ranks; NaN when not judged */
	double lag1_limit; /* CB_DEP_LAG1_Z / sqrt(n) */
	size_t batches;    /* k, 0 while n < CB_DEP_BATCHES x CB_DEP_MIN_BATCH */
	size_t batch;      /* rounds per batch (the unit), n / k rounded down */
	double batch_vif;  /* b Var(batch means) / Var(Z); NaN without batches */
	bool dependent;    /* dependence shown: the interval is widened (or held) */
	bool hold;         /* shown, but the batches are too short to size it */
	double vif;        /* the factor applied to the sign count's variance: >= 1 */
	bool batch_units;  /* the interval is over the batches' medians (batch_units.c) */

	/* Slow noise of each side's own (own_noise.c), a sequential pair only,
	 * on a measure that carries each side's machine (time, or cycles
	 * estimated from it). */
	bool own_judged;  /* the sides' sharing was judged */
	double share;     /* Spearman correlation of the sides' per-round values */
	double spread;    /* 1.4826 x MAD of the log ratios: the per-round spread */
	bool own_cleared; /* sized: the batches show a short memory, no margin */
	double margin;    /* log margin added to each end of the interval; 0: none */
};

/* The methods of a widened interval (cb_stats_interval.method). */
extern const char cb_dependence_exact_method[];
extern const char cb_dependence_sequence_method[];
extern const char cb_dependence_own_method[];
extern const char cb_dependence_batch_method[];

/* The dependence of VALUES[0..n-1], in the order they were observed (not
 * modified; finite). Never fails: where memory runs out or n is too small,
 * OUT says independent (vif 1, dependent false). */
void cb_dependence_of(const double *values, size_t n, struct cb_dependence *out);

/* The margin for slow noise that each side of a pair has on its own, into
 * OUT's own_* fields, share, spread and margin (OUT already holds the
 * dependence of the log ratios LOGS[0..used-1], in round order). NUM and
 * DEN are the sides' per-round values (N of them, NaN where a round has no
 * pair). A margin is taken when the sides share less than
 * CB_OWN_SHARE_MIN: z x spread x min(1, sqrt(CB_OWN_PRIOR_VIF / used)), z
 * the normal quantile of LEVEL, until from CB_OWN_SIZED_ROUNDS on the
 * batches' upper bound shows a memory short against them. */
void cb_dependence_own_noise(const double *num, const double *den, size_t n, const double *logs,
                             size_t used, double level, struct cb_dependence *out);

/* The interval over the medians of CB_DEP_BATCHES contiguous batches of
 * VALUES[0..n-1] (round order; the first n mod k left out), for where the
 * widened rank interval is not available: around the medians' mean, the
 * normal-mixture boundary of k units at LEVEL in their standard deviation,
 * widened by Student t's excess over the normal. OUT is not available while a batch is
 * shorter than CB_DEP_MIN_BATCH or every batch has the same median. -1 on
 * a LEVEL outside (0, 1) or no memory. */
int cb_dependence_batch_interval(const double *values, size_t n, double level,
                                 struct cb_stats_interval *out);

/* Whether a report names the series: dependence shown, or a margin taken. */
bool cb_dependence_reported(const struct cb_dependence *d);

/* What a report says of a dependent series, in BUF: "lag-1 0.31, blocks of
 * 25 rounds, variance x4.2" or, held, "lag-1 0.45 in 24 rounds: too few to
 * size the dependence"; with a margin for each side's own slow noise, "sides
 * share 0.21: +-2.9% for slow noise of their own" after it. "" when not
 * reported. */
void cb_dependence_words(const struct cb_dependence *d, char *buf, size_t len);

#endif
