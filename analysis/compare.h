/* compare.h: is what one run measured what the other runs measured?
 *
 * Runs are results files of one scenario (one file per run, e.g. the folder
 * `cryptobench run --runs N` writes). Each run is analysed alone (derive.h);
 * then every cell and every derived metric is compared across the runs that
 * have it with repro.h:
 *
 *   cell     each run's median throughput (MB/s) with its exact order-statistic
 *            interval; no reference value, so never "contradictory".
 *   derived  each run's paired ratio with its sign-test interval; reference 1,
 *            so two runs significant in opposite directions are contradictory.
 *
 * A reproduced row gets an across-run value: the geometric mean of the run
 * estimates with a t-interval on k-1 degrees of freedom. Rank flips: within
 * one algorithm, op, size and thread count, two engines whose order by median
 * throughput differs between runs; Kendall's W measures how stable the whole
 * ranking is.
 *
 * An expectation across runs holds ("consistent") when it is consistent in
 * every run that has the metric, fails ("inconsistent") when it is
 * inconsistent in every such run, and is not resolved otherwise. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/derive.h"
#include "analysis/repro.h"

struct cb_compare_options {
	struct cb_summary_options summary;
	struct cb_derive_options derive;
	struct cb_repro_options repro; /* delta and level follow derive; reference per row kind */
};

void cb_compare_defaults(struct cb_compare_options *opt);

enum cb_compare_kind { CB_ROW_CELL, CB_ROW_DERIVED };

/* One run's estimate in a row. */
struct cb_compare_value {
	bool present;         /* the run has this cell or metric with an estimate */
	struct cb_estimate e; /* MB/s (cell) or ratio (derived); lo/hi NaN without interval */
	size_t n;             /* samples (cell) or rounds paired (derived) */
	double level;         /* of the interval */
	bool contaminated;    /* cell: median/min - 1 above the limit in this run */
	enum cb_ratio_verdict verdict; /* derived: against 1 */
	bool has_expect;
	enum cb_ratio_expectation expectation; /* derived, when has_expect */
};

struct cb_compare_row {
	enum cb_compare_kind kind;
	const char *key;                   /* cell key, or metric name and by */
	const struct cb_result_cell *cell; /* CELL: the cell in the first run that has it */
	const struct cb_derived *derived;  /* DERIVED: the metric in the first run that has it */
	struct cb_compare_value *runs;     /* one per run */
	size_t present;                    /* runs with an estimate */
	size_t *run_of;                    /* repro's index i is run run_of[i] */
	struct cb_repro repro;
	bool has_expect;                       /* DERIVED with an expectation in some run */
	enum cb_ratio_expectation expectation; /* across runs (see above) */
	size_t expect_consistent, expect_inconsistent, expect_runs;
};

/* Two engines whose order flips between runs. */
struct cb_rank_flip {
	const struct cb_result_cell *a, *b; /* in the first run that has both */
	size_t run_a, run_b;                /* a run where a is faster, one where b is */
	double a_in_a, b_in_a;              /* their median MB/s in run_a */
	double a_in_b, b_in_b;              /* ... and in run_b */
};

/* Kendall's W of the engines' ranking in one algorithm, op, size, threads. */
struct cb_ranking {
	const struct cb_result_cell *cell; /* one of its cells, for the names */
	size_t engines;                    /* ranked (present in every run) */
	double w, p;
};

struct cb_compare {
	size_t k;
	struct cb_results *const *files;
	struct cb_analysis **runs;
	struct cb_compare_options options;
	struct cb_compare_row *rows;
	size_t n_rows;
	struct cb_rank_flip *flips;
	size_t n_flips;
	struct cb_ranking *rankings;
	size_t n_rankings;
	char **notes; /* what differs between the runs besides the numbers */
	size_t n_notes;
	size_t cells[4], derived[4]; /* rows per cb_repro_verdict */
};

#define CB_COMPARE_MISMATCH (-2)

/* Compare the K runs FILES (which must outlive the result) with OPT (NULL:
 * defaults). 0 with *OUT; CB_COMPARE_MISMATCH with ERR when the files cannot
 * be compared (fewer than two, different scenarios or schemas, one run given
 * twice); -1 with ERR when memory runs out or an option is out of range. */
int cb_compare_build(struct cb_results *const *files, size_t k,
                     const struct cb_compare_options *opt, struct cb_compare **out, char *err,
                     size_t err_len);
void cb_compare_free(struct cb_compare *c);

/* Whether any row is non-reproducible or contradictory. */
bool cb_compare_any_unreproduced(const struct cb_compare *c);

#endif
