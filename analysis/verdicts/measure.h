/* measure.h: what cells are compared on, round by round: one choice for the
 * masks' verdicts (masks.h) and the declared ratios (derive.h).
 *
 * Bytes per cycle when every cell has cycles (a clock that moves within a
 * round cancels). Else MB/s of CPU time when every measured round of every
 * cell that has a sample has CPU time and the cells run one thread count: a
 * worker process and a variant in a worker child have no cycle count, and the
 * wall time of a busy machine carries its preemptions, which CPU time leaves
 * out (summed over threads it is no throughput across thread counts). Else
 * MB/s of wall time. */
#ifndef CB_MEASURE_H
#define CB_MEASURE_H

#include <stddef.h>

#include "analysis/stats/summary.h"

struct cb_analysis;

enum cb_measure {
	CB_MEASURE_WALL = 0, /* MB/s of wall time */
	CB_MEASURE_CPU,      /* MB/s of the threads' CPU time */
	CB_MEASURE_CYCLES,   /* bytes per cycle */
};

/* Each measure in words, long ("MB/s of CPU time") and short ("CPU MB/s"). */
extern const char *const cb_measure_names[];
extern const char *const cb_measure_short[];

/* The measure the N cells CELLS of A are compared on (above). */
enum cb_measure cb_measure_choose(const struct cb_analysis *a,
                                  const struct cb_cell_summary *const *cells, size_t n);

/* CELL's throughput in each measured round of A on MEASURE into OUT (the
 * summary's n_rounds values; NaN for a round without a sample; on CPU time, a
 * resumed round's later trial wins, as in the summary). 0, or -1 when memory
 * runs out. */
int cb_measure_rounds(const struct cb_analysis *a, const struct cb_cell_summary *cell,
                      enum cb_measure measure, double *out);

#endif
