/* analysis_data.h: one run's analysis as data (struct cb_analysis), what
 * its steps (derive.c, masks.c, measure.c, stopping.c) read and fill.
 *
 * Apart from analysis.h, which builds it from those steps, so that a step
 * includes the data and not the builder: the members' types are the steps'
 * own (derive.h, masks.h, winners.h, attribution.h, stats/summary.h), named
 * here by pointer only. */
#ifndef CB_ANALYSIS_DATA_H
#define CB_ANALYSIS_DATA_H

#include <stddef.h>

struct cb_results;
struct cb_run_summary;
struct cb_derived;
struct cb_slope;
struct cb_crossing;
struct cb_winners;
struct cb_masks;
struct cb_attribution;

/* The options of the derived metrics and the verdicts (cb_derive_defaults). */
struct cb_derive_options {
	double level; /* of ratio and slope intervals before Bonferroni: 0.95 */
	double delta; /* practical threshold of the verdicts: 0.02 */
};

struct cb_analysis {
	const struct cb_results *results;
	struct cb_run_summary *summary;
	struct cb_derive_options options;
	struct cb_derived *derived;
	size_t n_derived;
	char **notes; /* declarations that matched no cell pair, and the like */
	size_t n_notes;
	struct cb_slope *slopes;
	size_t n_slopes;
	struct cb_crossing *crossings;
	size_t n_crossings;
	struct cb_winners *winners; /* the fastest engines per algorithm, op, size, threads */
	struct cb_masks *masks;     /* capability masks, judged at delta and 1 - level */
	struct cb_attribution
	    *attribution; /* which code ran, from the profile lines (none: empty) */
};

#endif
