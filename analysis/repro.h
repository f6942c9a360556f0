/* repro.h: is a metric the same across runs, and is a ranking stable?
 *
 * Each run gives an estimate with an interval for one metric (a ratio, a
 * throughput: positive numbers). They are compared on the log scale, where a
 * ratio's interval is nearly symmetric, and a run's standard error is taken
 * as (log hi - log lo) / (2 z), z = 1.96 at level 0.95.
 *
 * Same conventions as stats.h: 0 on success, -1 with a one-line ERR (which may
 * be NULL); quantities that do not exist are NaN. */
#ifndef CB_REPRO_H
#define CB_REPRO_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats.h"

enum cb_repro_verdict {
	CB_REPRO_NOT_RESOLVED = 0, /* fewer than 2 runs, or a run without an interval */
	CB_REPRO_REPRODUCED,       /* no rule fired: the across-run value may be a headline */
	CB_REPRO_NON_REPRODUCIBLE, /* at least one rule below fired */
	CB_REPRO_CONTRADICTORY,    /* two runs significant in opposite directions */
};

/* The rules of non-reproducibility, as bits of cb_repro.rules. */
#define CB_REPRO_RULE_DISJOINT 1u      /* two runs' intervals do not overlap */
#define CB_REPRO_RULE_SPREAD 2u        /* max/min - 1 of the estimates exceeds 2 delta */
#define CB_REPRO_RULE_HETEROGENEITY 4u /* Cochran's Q p < q_alpha, or I^2 > i2_max (k >= 10) */

/* Why I^2 waits for i2_min_runs: I^2 > 50% is Q > 2(k-1), which happens by
 * chance with probability P(chi2(k-1) > 2(k-1)) when nothing changed: 15.7% at
 * k = 2, 9.2% at k = 5, 5.1% at k = 8, 3.5% at k = 10. Below 10 runs I^2 is
 * too noisy to raise an alarm on its own (it is still reported); Q's own test
 * at q_alpha keeps the false alarms it adds at q_alpha. */
struct cb_repro_options {
	double level;       /* of the runs' intervals and of the t-interval: 0.95 */
	double delta;       /* practical threshold: 0.02, spread rule at 2 delta */
	double q_alpha;     /* Cochran's Q significance: 0.01 */
	double i2_max;      /* I^2 above this is heterogeneity: 0.50 */
	size_t i2_min_runs; /* ... when there are at least this many runs: 10 */
	double reference;   /* value with no effect (1 for a ratio); NaN: no contradiction test */
};

/* The defaults above, with reference 1 (a ratio). */
void cb_repro_defaults(struct cb_repro_options *opt);

struct cb_repro {
	size_t k; /* runs */
	enum cb_repro_verdict verdict;
	unsigned rules;                /* CB_REPRO_RULE_* that fired, whatever the verdict */
	size_t disjoint_a, disjoint_b; /* the first disjoint pair of runs (when the rule fired) */
	double spread;                 /* max/min - 1 of the run estimates */
	double q, q_p, i2;             /* Cochran's Q, its chi-square (k-1) p, and I^2; NaN
	                                * when a run's interval has zero width */
	size_t above, below;           /* first run whose interval is wholly above / below the
	                                * reference (meaningful when contradictory) */
	/* Across runs: exp of the mean of the log estimates (a geometric mean) and
	 * exp of its t-interval (k-1 df). Always computed for k >= 2; only a
	 * reproduced metric should be headlined with it. */
	struct cb_estimate value;
	double log_mean, log_sd;
};

/* Compare the K runs' estimates RUNS[0..k-1] (value, lo, hi, all > 0 and
 * lo <= value <= hi when present) with OPT (NULL: defaults). Verdicts in order
 * of precedence: not resolved (k < 2, or some run's lo/hi is NaN), then
 * contradictory, then non-reproducible, then reproduced. -1 with ERR (verdict
 * not resolved) when RUNS holds a non-positive or inconsistent number, OPT is
 * out of range, or memory runs out. */
int cb_repro_compare(const struct cb_estimate *runs, size_t k, const struct cb_repro_options *opt,
                     struct cb_repro *out, char *err, size_t err_len);
/* "reproduced", "non-reproducible", "contradictory", "not resolved". */
const char *cb_repro_verdict_name(enum cb_repro_verdict v);

/* Cochran's Q of K estimates Y with standard errors SE (all > 0): Q = sum
 * w (y - ybar_w)^2 with w = 1/se^2, P from chi-square with k-1 df, and
 * I^2 = max(0, (Q - (k-1)) / Q) (0 when Q is 0). -1 (all NaN) when k < 2 or an
 * SE is not positive and finite. */
int cb_repro_cochran(const double *y, const double *se, size_t k, double *q, double *p, double *i2);

/* Kendall's coefficient of concordance of K runs ranking M items: SCORES is k
 * rows of m values (row r is run r; any monotone score, e.g. throughput, ranked
 * within its row with ties averaged). W = 12 S / (k^2 (m^3 - m) - k T), with S
 * the sum of squared deviations of the items' rank sums and T the tie
 * correction sum (t^3 - t); W is 1 for identical rankings, 0 for no agreement.
 * P is the chi-square (m-1 df) p-value of k (m-1) W against no agreement.
 * -1 (W and P NaN) when k < 2, m < 2, a score is not finite, every row is all
 * ties, or memory runs out. */
int cb_repro_kendall_w(const double *scores, size_t k, size_t m, double *w, double *p);

#endif
