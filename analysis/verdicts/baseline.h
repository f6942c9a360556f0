/* baseline.h: one configuration against a baseline, cell by cell.
 *
 * Two results files (two configurations: other scenario settings, engine
 * versions, machines) are analysed alone; every cell they both have (same
 * label, algorithm, op, size and threads) gives the speed ratio of the other
 * run to the baseline, above 1 when the other is faster. The two cells were
 * measured in different runs, so nothing pairs them: each contributes its
 * median with its exact order-statistic interval, and the ratio is judged by
 * cb_margin_ratio() (repro.h) against the band [1/(1+delta), 1+delta]:
 *
 *   faster / slower  the ratio's 1-alpha interval lies wholly outside the
 *                    band, above / below it (and the cell stays so once the
 *                    whole table is accounted for: Benjamini-Hochberg across
 *                    the cells at false discovery rate alpha)
 *   equivalent       within delta by two one-sided tests at alpha
 *   not resolved     otherwise
 *
 * The measure is cycles per byte (cycles per call below tiny_size) when both
 * cells counted cycles on the same CPU model: frequency-free, as compare
 * judges runs. Across CPU models a faster clock is part of the answer, so
 * the measure is then MB/s. The margin is compare's for the measure
 * (delta_cycles or delta_mbs).
 *
 * The summary pools each verdict's cells (DerSimonian-Laird random effects
 * on the log ratios: the interval widens when the cells disagree), which
 * gives "7.2% [6.8, 7.6] faster on 12 of 14 cells, equivalent on 2".
 *
 * Any two analyses of runs can be compared so: a host against a host is
 * one baseline comparison per host. A side may also be several runs of one
 * configuration (a host's repeated runs, cb_baseline_build_runs): each cell's
 * estimate then pools the runs' medians by random effects on the log scale
 * (DerSimonian-Laird, cb_baseline_pool, each run's standard error from its
 * exact interval): the pooled value is a weighted geometric mean, and its
 * 1-alpha interval widens with the spread between the runs beyond what their
 * own intervals explain. A side of one run keeps that run's own median and
 * exact interval, so a comparison of two single runs is unchanged. */
#ifndef CB_BASELINE_H
#define CB_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/verdicts/compare.h"

struct cb_baseline_row {
	const struct cb_cell_summary *base, *other; /* the cell in each side's first run */
	enum cb_compare_measure measure;            /* CPB, CPC or MBS */
	struct cb_estimate base_e, other_e;         /* the measure's medians and intervals */
	double base_level, other_level;             /* ... their intervals' levels */
	struct cb_estimate base_mbs, other_mbs;     /* median MB/s, pooled the same way */
	size_t base_runs, other_runs;               /* runs pooled (1: a run's own median) */
	double delta;                               /* the margin judged with */
	struct cb_margin margin;                    /* on the speed ratio other / baseline */
	double p_adjusted; /* p_beyond after Benjamini-Hochberg across the table */
	enum cb_ratio_verdict verdict;
	bool family; /* beyond delta alone, not across the table: not resolved */
};

/* The cells of one verdict, pooled: their count and the pooled ratio. */
struct cb_baseline_pool {
	size_t cells;
	struct cb_estimate ratio; /* NaN when no cell */
};

struct cb_baseline {
	const struct cb_analysis *base, *other; /* each side's first run */
	const struct cb_analysis **bases, **others;
	size_t k_base, k_other;       /* runs on each side */
	struct cb_baseline_row *rows; /* in the baseline's cell order */
	size_t n_rows;
	size_t only_base, only_other;     /* cells without a partner (or without samples) */
	struct cb_baseline_pool pools[4]; /* indexed by enum cb_ratio_verdict */
	size_t family_downgraded;
	double alpha;
	char **notes; /* what differs between the two runs: parameters, scenario, host, versions */
	size_t n_notes;
};

/* Compare OTHER with BASE (analyses that must outlive the result) under OPT
 * (NULL: compare's defaults): delta_cycles, delta_mbs, tiny_size and
 * repro.alpha are used. 0 with *OUT; -1 with ERR when memory runs out or a
 * margin is not positive. */
int cb_baseline_build(const struct cb_analysis *base, const struct cb_analysis *other,
                      const struct cb_compare_options *opt, struct cb_baseline **out, char *err,
                      size_t err_len);
/* The same with K_BASE runs on the baseline's side and K_OTHER on the
 * other's (k >= 1; the arrays are copied, the analyses must outlive the
 * result): the cells are those of BASE[0], each estimate pooled over the runs
 * that have the cell (see above), and the notes compare the first runs. */
int cb_baseline_build_runs(const struct cb_analysis *const *base, size_t k_base,
                           const struct cb_analysis *const *other, size_t k_other,
                           const struct cb_compare_options *opt, struct cb_baseline **out,
                           char *err, size_t err_len);
void cb_baseline_free(struct cb_baseline *b);

/* DerSimonian-Laird pooling of K log ratios Y with standard errors SE (> 0):
 * exp of the random-effects mean with its 1-ALPHA normal interval into OUT.
 * One value gives its own interval. -1 (OUT NaN) when k is 0 or an SE is not
 * positive and finite. */
int cb_baseline_pool(const double *y, const double *se, size_t k, double alpha,
                     struct cb_estimate *out);

#endif
