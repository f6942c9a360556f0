/* repro.h: is a metric the same across runs, and is a ranking stable?
 *
 * Each run gives an estimate with an interval for one metric (a ratio, a
 * throughput, cycles per byte: positive numbers). They are compared on the
 * log scale, where a ratio's interval is nearly symmetric, and a run's
 * standard error is taken as (log hi - log lo) / (2 z), z from the interval's
 * own level. Significance alone is no finding: with enough rounds every
 * interval narrows until any two runs differ. So every verdict is against a
 * practical margin delta.
 *
 * Same conventions as stats.h: 0 on success, -1 with a one-line ERR (which may
 * be NULL); quantities that do not exist are NaN. */
#ifndef CB_REPRO_H
#define CB_REPRO_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/stats.h"

/* ---- Two estimates against a practical margin ----
 *
 * The building block of every verdict across runs (and of a comparison with a
 * baseline): the ratio A/B of two estimates, each with an interval at its own
 * level, judged against the band E = [1/(1+DELTA), 1+DELTA]. On the log scale
 * d = log A - log B has standard error s = sqrt(se_A^2 + se_B^2) and the
 * margin is m = log(1+DELTA):
 *
 *   beyond   the two-sided 1-ALPHA interval of A/B lies wholly outside E: the
 *            two differ by more than DELTA, with confidence. p_beyond =
 *            2 Phi(-(|d| - m)/s) (capped at 1) is below ALPHA exactly then.
 *   within   the 1-2 ALPHA interval lies inside E (two one-sided tests at
 *            ALPHA each): shown equivalent within DELTA. p_within =
 *            Phi((|d| - m)/s) is below ALPHA exactly then.
 *   not resolved otherwise: the data cannot tell (the interval straddles an
 *            edge of E). Never both: p_beyond < ALPHA needs |d| > m, p_within
 *            < ALPHA needs |d| < m. */
enum cb_margin_verdict {
	CB_MARGIN_NOT_RESOLVED = 0,
	CB_MARGIN_WITHIN, /* equivalent within delta */
	CB_MARGIN_BEYOND, /* different by more than delta */
};

struct cb_margin {
	double ratio;         /* A / B */
	double log_ratio, se; /* d and s above */
	double lo, hi;        /* the ratio's two-sided 1-alpha interval */
	double half;          /* its half-width on the log scale (z(1-alpha/2) s) */
	double tost_half;     /* the TOST interval's half-width (z(1-alpha) s) */
	double margin;        /* m = log(1 + delta) */
	double p_beyond, p_within;
	enum cb_margin_verdict verdict;
};

/* The standard error on the log scale of an estimate E with an interval at
 * LEVEL: (log hi - log lo) / (2 z(1 - (1 - LEVEL)/2)). The interval's own level
 * matters: a Bonferroni-widened interval (level 1 - 0.05/m) has a larger z.
 * NaN when E has no interval or LEVEL is outside (0, 1). */
double cb_repro_log_se(const struct cb_estimate *e, double level);

/* Judge A (interval at LEVEL_A) against B (at LEVEL_B) with margin DELTA (> 0)
 * and error rate ALPHA (0 < ALPHA < 0.5), as above. -1 (OUT all NaN, not
 * resolved) when an estimate is not positive, has no interval, or an argument
 * is out of range. A zero standard error (two intervals of width 0) is judged
 * by the estimates alone. */
int cb_margin_ratio(const struct cb_estimate *a, double level_a, const struct cb_estimate *b,
                    double level_b, double delta, double alpha, struct cb_margin *out);
/* "equivalent within delta", "beyond delta", "not resolved". */
const char *cb_margin_verdict_name(enum cb_margin_verdict v);

/* ---- Many runs of one metric ---- */

enum cb_repro_verdict {
	CB_REPRO_NOT_RESOLVED = 0, /* see cb_repro.why */
	CB_REPRO_REPRODUCED,       /* every pair of runs equivalent within delta */
	CB_REPRO_NON_REPRODUCIBLE, /* some pair differs by more than delta, with confidence */
	CB_REPRO_CONTRADICTORY,    /* two runs significant in opposite directions */
};

/* Why a row is not resolved (cb_repro.why). */
enum cb_repro_why {
	CB_REPRO_WHY_NONE = 0,
	CB_REPRO_WHY_FEW_RUNS,    /* fewer than two runs have an estimate */
	CB_REPRO_WHY_NO_INTERVAL, /* a run has no interval (too few samples) */
	CB_REPRO_WHY_TOO_WIDE,    /* the runs agree within delta, but the interval is too wide
	                           * to show it: more rounds would tell */
	CB_REPRO_WHY_EDGE,        /* the runs differ by more than delta, but the interval
	                           * reaches inside the band */
	CB_REPRO_WHY_FAMILY,      /* beyond delta on its own, but not once the table's
	                           * other rows are accounted for (cb_repro_family) */
};

struct cb_repro_options {
	double level;     /* of the runs' intervals when not given per run, and of the
	                   * across-run t-interval: 0.95 */
	double alpha;     /* error rate of each test (beyond, within): 0.05 */
	double delta;     /* practical margin: 0.02 */
	double reference; /* value with no effect (1 for a ratio); NaN: no contradiction test */
};

/* The defaults above, with reference 1 (a ratio). */
void cb_repro_defaults(struct cb_repro_options *opt);

struct cb_repro {
	size_t k; /* runs */
	enum cb_repro_verdict verdict;
	enum cb_repro_why why; /* when not resolved */
	/* The deciding pair of runs (indices into the runs given) and its margin
	 * test: for "non-reproducible", the pair most clearly beyond delta, its
	 * interval at 1 - alpha/P (Bonferroni over the P = k(k-1)/2 pairs); else
	 * the pair least clearly within delta. */
	size_t pair_a, pair_b;
	struct cb_margin pair;
	size_t pairs;        /* P */
	double p_beyond;     /* min(1, P x the smallest pair p_beyond): the row's p */
	double p_within;     /* the largest pair p_within (intersection-union) */
	double p_adjusted;   /* p_beyond after cb_repro_family (= p_beyond until then) */
	double spread;       /* max/min - 1 of the run estimates (reported) */
	double q, q_p, i2;   /* Cochran's Q, its chi-square (k-1) p, and I^2 (reported:
	                      * significance without a margin, no verdict rests on them);
	                      * NaN when a run's interval has zero width */
	size_t above, below; /* first run whose interval is wholly above / below the
	                      * reference (meaningful when contradictory) */
	/* Across runs: exp of the mean of the log estimates (a geometric mean) and
	 * exp of its t-interval (k-1 df). Always computed for k >= 2; only a
	 * reproduced metric should be headlined with it. */
	struct cb_estimate value;
	double log_mean, log_sd;
};

/* Compare the K runs' estimates RUNS[0..k-1] (value, lo, hi, all > 0 and
 * lo <= value <= hi when present), interval I at level LEVELS[i] (NULL: all
 * at OPT's level), with OPT (NULL: defaults). Verdicts in order of
 * precedence: not resolved (k < 2, or some run's lo/hi is NaN), then
 * contradictory, then non-reproducible (p_beyond < alpha), then reproduced
 * (p_within < alpha), else not resolved (TOO_WIDE or EDGE). -1 with ERR
 * (verdict not resolved) when RUNS holds a non-positive or inconsistent
 * number, OPT is out of range, or memory runs out. */
int cb_repro_compare(const struct cb_estimate *runs, const double *levels, size_t k,
                     const struct cb_repro_options *opt, struct cb_repro *out, char *err,
                     size_t err_len);
/* "reproduced", "non-reproducible", "contradictory", "not resolved". */
const char *cb_repro_verdict_name(enum cb_repro_verdict v);

/* Why R got its verdict, in one line of words, into BUF: e.g. "within delta
 * 2%: largest difference +0.4% +/-0.6% (runs 1, 3)", "too few rounds to tell:
 * interval +/-3.1% against delta 2% (runs 1, 2 differ by +0.9%)". Runs are
 * numbered RUN_NUMBER[i] (NULL: i + 1); DELTA is the margin R was judged
 * with; FAMILY the number of rows adjusted together (0: none). */
void cb_repro_why_text(const struct cb_repro *r, double delta, const size_t *run_number,
                       size_t family, char *buf, size_t len);

/* A table of N rows is one family. Benjamini-Hochberg across the rows'
 * p_beyond at false discovery rate ALPHA: each row's p_adjusted is set, and a
 * non-reproducible row whose adjusted p is not below ALPHA becomes not
 * resolved (why FAMILY). Rows not non-reproducible take part with their
 * p_beyond all the same (they are tests of the family too). Returns the
 * number of rows downgraded, -1 when memory runs out. */
long cb_repro_family(struct cb_repro *const *rows, size_t n, double alpha);

/* Benjamini-Hochberg adjusted p-values of P[0..n-1] into ADJ (may be P):
 * adj_(i) = min over j >= i of min(1, n p_(j) / j) in sorted order. NaN
 * p-values are left out of n and stay NaN. 0, or -1 when memory runs out. */
int cb_repro_bh(const double *p, size_t n, double *adj);

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
