/* summary.h: what one run says about each of its cells.
 *
 * From a results file (results.h) this module takes the valid, measured
 * (non-warm-up) trials of each cell in round order and summarises them with
 * stats.h three times over: time per call (ns), throughput (MB/s = 10^6
 * bytes/s of payload, all threads) and cycles per byte when the file has a
 * cycle counter. It adds what needs the whole file: trials preempted (thread
 * CPU time well below wall time), the harness overhead measured by the null
 * engine, and each cell's throughput per round for ratios paired by round.
 *
 * Nothing is dropped: invalid trials are counted with their first reason,
 * outliers are counted, a contaminated cell switches its headline to the
 * minimum time and says so. */
#ifndef CB_SUMMARY_H
#define CB_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/results/results.h"
#include "analysis/stats/stats.h"

struct cb_summary_options {
	double level;             /* median intervals: 0.95 */
	double contamination_max; /* median/min - 1 above this switches the headline: 0.10 */
	double drift_alpha;       /* Spearman p and lag-1 limit: 0.01 */
	double preempt_ratio;     /* a trial with cpu_ns < this x wall time was preempted: 0.9 */
	double overhead_warn;     /* null engine's share of a cell's time: warn above 0.05 */
	double overhead_max;      /* ... and mark the cell unreliable above 0.25 */
	/* Every median interval (cells, and the paired ratios built on this
	 * summary) a confidence sequence's, valid at a data-dependent stopping
	 * time (confseq.h): a run with a stopping rule. false */
	bool sequential;
};

/* The defaults above (doc/method.md). */
void cb_summary_defaults(struct cb_summary_options *opt);

struct cb_run_summary;
struct cb_cell_summary;

/* The CB_RATIO_ flags (ratio.h) of a paired ratio of the N cells CELLS of S
 * compared ON_CYCLES or on time: sequential with S's options, and on each
 * side's own machine unless every cell's cycles are its work. */
unsigned cb_summary_ratio_how(const struct cb_run_summary *s, bool on_cycles,
                              const struct cb_cell_summary *const *cells, size_t n);

/* Which statistic a headline is: an index into cb_statistics[]. AUTO is the
 * median, or the minimum time (maximum throughput) when the cell is
 * contaminated. */
enum cb_statistic { CB_STAT_AUTO, CB_STAT_MIN, CB_STAT_MEDIAN, CB_STAT_MEAN, CB_N_STATISTICS };

struct cb_cell_summary;
struct cb_headline;

/* The headline statistics, one entry per enum cb_statistic in its order
 * (summary.c): everything the report, its JSON and the charts say about one.
 * AUTO's headline and word are NULL: its pick hands over to the median or
 * the minimum. A new statistic is an enum value, an entry and its pick. */
struct cb_statistic_info {
	const char *name;     /* --statistic NAME and the JSON's options: "min" */
	const char *label;    /* the report's statistic column: "min time" */
	const char *headline; /* the headline's name (report, CSV, JSON): "min time (max MB/s)" */
	const char *word;     /* the statistic column of a chart's data, no space: "max_MBps" */
	const char *chart;    /* what a chart's throughput is: "min time = max MB/s, no interval" */
	/* Set H's figures from S (which has samples): mbs, lo, hi, ns; AUTO
	 * hands over to another entry and sets H->switched. */
	void (*pick)(const struct cb_cell_summary *s, struct cb_headline *h);
};
extern const struct cb_statistic_info cb_statistics[CB_N_STATISTICS];

/* NAME ("auto", "min", ...) -> statistic; -1 when unknown. */
int cb_statistic_parse(const char *name);

/* The wall time T's THREADS could have spent on the CPU: the sum of the
 * threads' own times, or the trial's time times THREADS when the file has
 * none per thread. A sample is preempted when its cpu_ns falls below
 * preempt_ratio times this (the summary's count, the timeline's marks). */
double cb_wall_of_threads(const struct cb_result_trial *t, unsigned threads);

struct cb_cell_summary {
	const struct cb_result_cell *cell;
	size_t index;        /* into results->cells */
	size_t n;            /* valid measured trials: the samples */
	size_t invalid;      /* trials without a timing (failed verification, ...) */
	size_t warmup;       /* valid warm-up trials, left out */
	size_t preempted;    /* samples whose CPU time was below preempt_ratio x wall */
	size_t short_trials; /* samples that fell short of the run's trial time */
	const char *first_error;
	double bytes_per_call; /* size x threads */
	bool builtin_null;     /* the cell is the null engine's: the harness itself */

	/* Each summary is valid when n > 0. Time (ns per call) is the primary
	 * one: its contamination flag and drift are the cell's. */
	struct cb_stats_summary ns;  /* ns per call; smaller is better */
	struct cb_stats_summary mbs; /* MB/s per trial; larger is better */
	bool have_cycles;
	/* Its cycles count the work alone: counted by the processor, or the
	 * sim's virtual work (not its time, cycles_from_time). Estimated cycles
	 * carry the machine's state as time does. */
	bool cycles_are_work;
	struct cb_stats_summary cpb; /* cycles per byte per trial (when have_cycles) */
	/* What drift and lag-1 are judged on: cpb when have_cycles (a clock that
	 * drifts moves time, not cycles: a quiet run on a VM drifts in time
	 * alone), else ns. Points into this structure; ORDER_MEASURE names it. */
	const struct cb_stats_summary *order;
	const char *order_measure; /* "c/B" or "ns/call" */

	/* Placement (core/measure/trial.h): whether ORDER's values differ between the
	 * four classes of the trial's stack offset mod 64 (16-byte steps; a 32-
	 * or 64-byte alignment effect separates them), by Kruskal-Wallis. Judged
	 * when every sample records its placement and each class has 3 samples;
	 * layout_sensitive when layout_p < drift_alpha. */
	bool layout_judged;
	double layout_h, layout_p;
	bool layout_sensitive;

	/* The null engine's median ns per call at this size and thread count,
	 * and its share of this cell's median; NaN when no null cell matches. */
	double overhead_ns;
	double overhead_share;
	bool overhead_warning; /* share > overhead_warn */
	bool unreliable;       /* share > overhead_max */

	/* Throughput of the cell in each measured round (NaN: no valid trial),
	 * indexed from the run's first measured round. */
	double *round_mbs;
	/* ... and its payload bytes per cycle in each round (NaN: no valid trial
	 * or no cycles), the frequency-free throughput paired ratios use. */
	double *round_bpc;
};

struct cb_run_summary {
	const struct cb_results *results;
	struct cb_summary_options options;
	struct cb_cell_summary *cells; /* one per results->cells, same order */
	size_t n_cells;
	unsigned first_round;    /* the first measured round's number */
	size_t n_rounds;         /* measured rounds: round_mbs holds this many */
	const char *counter;     /* cycles: "perf-cycles", "estimate", "virtual", or NULL */
	bool virtual_clock;      /* some trial ran on a virtual clock (sim) */
	bool virtual_cycles;     /* some trial has virtual cycles (the sim's work) */
	bool real_cycles;        /* some trial has counted or estimated cycles */
	size_t short_trials;     /* samples that fell short of the trial time */
	bool unknown_trial_time; /* some sample does not say (an older file) */
};

/* Summarise every cell of R with OPT (NULL: defaults). R must outlive the
 * summary. NULL with ERR when memory runs out or OPT is out of range; a cell
 * without a valid trial is no error (its n is 0). */
struct cb_run_summary *cb_summary_build(const struct cb_results *r,
                                        const struct cb_summary_options *opt, char *err,
                                        size_t err_len);
void cb_summary_free(struct cb_run_summary *s);

/* A cell's headline throughput under a statistic. */
struct cb_headline {
	double mbs;       /* MB/s */
	double lo, hi;    /* its interval (the median's), NaN for min and mean */
	double ns;        /* ns per call of the same statistic */
	const char *name; /* "median", "min time (max MB/s)", "mean": its stat's headline */
	bool switched;    /* AUTO chose the minimum because of contamination */
	const struct cb_statistic_info *stat; /* what the figures are (AUTO's choice); NULL: none */
};

/* The headline of S for STAT; all NaN (name "none") when S has no sample. */
void cb_summary_headline(const struct cb_cell_summary *s, enum cb_statistic stat,
                         struct cb_headline *h);

/* Whether the cell's samples show contamination (on time), drift or lag-1
 * dependence (on ORDER). */
bool cb_summary_flagged(const struct cb_cell_summary *s);

/* Cell C as short text: "openssl aes-128-cbc encrypt 16KiB" (+ " x4 threads"). */
const char *cb_cell_name(const struct cb_result_cell *c, char buf[256]);

#endif
