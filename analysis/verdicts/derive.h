/* derive.h: what follows from a run's cells: declared ratios with verdicts and
 * expectations, cost per call and per byte, and where curves cross.
 *
 * Ratios come from the cb.derive{} declarations the results header keeps
 * (scenario.derive):
 *
 *   { "name": "aes256/aes128", "ratio": [ {numerator selector}, {denominator selector} ],
 *     "by": ["engine", "op", "size"],
 *     "expect": { "value": 0.714, "tolerance": 0.05, "when": {selector} } }
 *
 * A selector names cell dimensions (engine, label, algorithm, op, size,
 * threads). A numerator cell is paired with the denominator cell that agrees
 * with it on every dimension neither selector names (engine and label count as
 * one). One metric is reported per combination of the `by` dimensions (taken
 * from the numerator cell); a dimension neither in `by` nor in a selector is
 * pooled: each round contributes one observation, the geometric mean of its
 * pairs' ratios (they share the round's load and clock, so they are not
 * independent observations). The ratio is of throughputs in bytes per cycle
 * when every cell has cycles (frequency-free: a clock that moves within a
 * round, or a trial preempted, cancels), else in MB/s of CPU time when every
 * round of every cell has it (worker cells: their preemptions left out), else
 * in MB/s: the choice measure.h makes for the masks too. Either way of
 * throughputs, numerator over denominator, paired by round (ratio.h). When
 * several metrics of one declaration share a denominator cell (one baseline
 * against many), each interval is widened by Bonferroni for their number.
 *
 * Same conventions as stats.h: 0 or a pointer on success, -1 or NULL with a
 * one-line ERR; quantities that do not exist are NaN. */
#ifndef CB_DERIVE_H
#define CB_DERIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats/curve.h"
#include "analysis/stats/ratio.h"
#include "analysis/stats/summary.h"
#include "analysis/verdicts/analysis_data.h"
#include "analysis/verdicts/measure.h"

/* struct cb_derive_options: analysis_data.h. */
void cb_derive_defaults(struct cb_derive_options *opt);

/* One metric: a declaration at one combination of its `by` dimensions. */
struct cb_derived {
	const char *name;  /* the declaration's name (owned by the results header) */
	size_t decl;       /* index of the declaration in scenario.derive */
	char *by;          /* "engine=openssl op=encrypt size=16KiB", "" for no `by` */
	char *key;         /* name and by: the metric's identity across runs */
	json_t *by_json;   /* {"engine": "openssl", ...} */
	size_t n_pairs;    /* cell pairs pooled */
	size_t *num_cells; /* their cell indices */
	size_t *den_cells;
	bool ok; /* a ratio was computed; otherwise WHY says why not */
	char why[160];
	struct cb_ratio ratio;
	bool on_cycles;          /* of bytes per cycle (every cell counted cycles) */
	enum cb_measure measure; /* what the ratio is of (measure.h): cycles, CPU or wall MB/s */
	double level;            /* the interval's level, after Bonferroni */
	size_t family;           /* metrics sharing a denominator cell: Bonferroni's m */
	enum cb_ratio_verdict verdict; /* against 1 with delta */
	bool has_expect;               /* an expectation applies (its `when` matched) */
	double expect_value, expect_tolerance;
	enum cb_ratio_expectation expectation;
};

/* time = overhead + size x per_byte across the sizes of one label,
 * algorithm, op and thread count. */
struct cb_slope {
	const struct cb_result_cell *cell; /* one of its cells, for the names */
	struct cb_curve_slope ns;          /* ns per call against bytes per call */
	bool have_cycles;
	struct cb_curve_slope cycles; /* cycles per call against bytes per call */
};

/* Where one contender overtakes another as the size grows. */
struct cb_crossing {
	const char *kind; /* "engines" (same algorithm) or "algorithms" (same engine) */
	const struct cb_result_cell *a, *b; /* the cells at the smallest common size */
	struct cb_curve_crossover x;        /* found is always true here */
};

struct cb_analysis;

/* A's derived metrics, slopes and crossovers (analysis.h calls it once A
 * holds its summary and options). 0, or -1 with ERR when memory runs out or a
 * declaration is malformed. */
int cb_derive_build(struct cb_analysis *a, char *err, size_t err_len);
/* Free what cb_derive_build put in A. */
void cb_derive_free(struct cb_analysis *a);

/* Whether CELL has the dimension values SELECTOR (a JSON object) names; an
 * empty or NULL selector matches every cell. */
bool cb_derive_matches(const struct cb_result_cell *cell, json_t *selector);

#endif
