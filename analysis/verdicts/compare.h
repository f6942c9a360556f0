/* compare.h: is what one run measured what the other runs measured?
 *
 * Runs are results files of one scenario (one file per run, e.g. the folder
 * `cryptobench run --runs N` writes). Each run is analysed alone (derive.h);
 * then every cell and every derived metric is compared across the runs that
 * have it with repro.h:
 *
 *   cell     each run's median with its exact order-statistic interval, on the
 *            frequency-free measure when every run has cycles (cycles per
 *            byte, or per call below tiny_size bytes), else on MB/s; no
 *            reference value, so never "contradictory". The MB/s stay beside.
 *   derived  each run's paired ratio with its sign-test interval (at its own,
 *            possibly Bonferroni-widened, level); reference 1, so two runs
 *            significant in opposite directions are contradictory.
 *
 * Every verdict is against a practical margin (repro.h), per measure: a clock
 * that moves between runs moves MB/s but not cycles, so MB/s get a wider one.
 * The whole table (cells and derived metrics) is one family: its false
 * alarms are controlled by Benjamini-Hochberg at the false discovery rate
 * alpha (cb_repro_family).
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

#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/repro.h"

struct cb_compare_options {
	struct cb_summary_options summary;
	struct cb_derive_options derive; /* derive.delta: the margin of derived metrics */
	struct cb_repro_options repro;   /* level follows derive; delta and reference per row */
	double delta_cycles;             /* margin of cells judged on cycles: 0.02 */
	double delta_mbs;                /* ... and of cells judged on MB/s: 0.05 */
	unsigned long long tiny_size;    /* below this payload, cycles per call: 64 */
};

/* What a row's verdict was judged on. */
enum cb_compare_measure {
	CB_MEASURE_RATIO, /* derived: ratio of throughputs */
	CB_MEASURE_MBS,   /* cell: MB/s (some run has no cycles) */
	CB_MEASURE_CPB,   /* cell: cycles per byte */
	CB_MEASURE_CPC,   /* cell: cycles per call (payload below tiny_size) */
};

/* "ratio", "MB/s", "c/B", "cycles/call". */
const char *cb_compare_measure_name(enum cb_compare_measure m);

void cb_compare_defaults(struct cb_compare_options *opt);

/* CB_ROW_ENGINE: one label's cells pooled (cb_compare.engine_rows, never in
 * rows): per round, the precision-weighted geometric mean of the measure over
 * the label's cells, one observation per round (the cells of a round share
 * it); per run, the median of those with its exact interval; judged across
 * runs like a cell. A change that moves every cell of an engine a little
 * (each cell alone within its noise) moves this one clearly. */
enum cb_compare_kind { CB_ROW_CELL, CB_ROW_DERIVED, CB_ROW_ENGINE };

/* One run's estimate in a row. */
struct cb_compare_value {
	bool present;                  /* the run has this cell or metric with an estimate */
	struct cb_estimate e;          /* of the row's measure; lo/hi NaN without interval */
	struct cb_estimate mbs;        /* cell: median MB/s, always (beside a cycles measure) */
	bool have_cycles;              /* cell: every sample has cycles */
	struct cb_estimate cpb;        /* cell: median cycles per byte, when have_cycles */
	double bytes_per_call;         /* cell: size x threads */
	size_t n;                      /* samples (cell) or rounds paired (derived) */
	double level;                  /* of the interval */
	bool contaminated;             /* cell: median/min - 1 above the limit in this run */
	enum cb_ratio_verdict verdict; /* derived: against 1 */
	bool has_expect;
	enum cb_ratio_expectation expectation; /* derived, when has_expect */
};

struct cb_compare_row {
	enum cb_compare_kind kind;
	const char *key;                   /* cell key, or metric name and by */
	const struct cb_result_cell *cell; /* CELL: the cell in the first run that has it;
	                                    * ENGINE: the label's first cell */
	const struct cb_derived *derived;  /* DERIVED: the metric in the first run that has it */
	struct cb_compare_value *runs;     /* one per run */
	enum cb_compare_measure measure;   /* what the verdict was judged on */
	double delta;                      /* the margin it was judged with */
	size_t present;                    /* runs with an estimate */
	size_t *run_of;                    /* repro's index i is run run_of[i] */
	struct cb_repro repro;
	bool has_expect;                       /* DERIVED with an expectation in some run */
	enum cb_ratio_expectation expectation; /* across runs (see above) */
	size_t expect_consistent, expect_inconsistent, expect_runs;
	size_t pooled_cells; /* ENGINE: the label's cells present in every run */
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
	struct cb_compare_row *engine_rows; /* one per label with two or more cells */
	size_t n_engine_rows;
	size_t cells[4], derived[4], engines[4]; /* rows per cb_repro_verdict */
	size_t family;            /* rows in the family (with a p; engine rows too) */
	size_t family_downgraded; /* beyond delta alone, not across the family */
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

/* Whether any row (cell, derived metric, pooled engine) is non-reproducible
 * or contradictory. */
bool cb_compare_any_unreproduced(const struct cb_compare *c);

/* The weights of an engine row's pooled mean over its N CELLS (on c/B when
 * CYCLES, else MB/s): each cell's inverse variance on the log scale, averaged
 * over C's runs, normalised to sum 1; equal weights when some cell has no
 * usable standard error. W holds N. */
void cb_compare_pooled_weights(const struct cb_compare *c,
                               const struct cb_compare_row *const *cells, size_t n, bool cycles,
                               double *w);

#endif
