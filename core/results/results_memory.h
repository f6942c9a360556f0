/* results_memory.h: where a read results file keeps what it reads
 * (results_read.c and results_trials.c, nothing else).
 *
 * The trials' strings and arrays come from a pool freed with the results;
 * the clock names are kept once each; a cell is added once, and found by its
 * key through a hash table that lives while the file is read. Functions that
 * can fail return NULL or -1 when memory runs out. */
#ifndef CB_RESULTS_MEMORY_H
#define CB_RESULTS_MEMORY_H

#include <stddef.h>

#include <jansson.h>

#include "core/results/results.h"
#include "core/results/results_scan.h"

/* N bytes that stay put until the results are freed; NULL out of memory. */
void *cb_results_pool_alloc(struct cb_results *r, size_t n);
/* A copy of S in the pool; NULL out of memory. */
const char *cb_results_pool_strdup(struct cb_results *r, const char *s);

/* The index of the clock named by the LEN bytes at NAME (NULL: 0, no clock);
 * -1 out of memory or when a file names more clocks than a trial can tell
 * apart. */
int cb_results_clock_index(struct cb_results *r, const char *name, size_t len);

/* The index of the trial's CELL object (its names strings, its size and
 * threads whole numbers: checked before) among the cells seen so far, added
 * when new; -1 out of memory. Cells are the same when their keys
 * ("label|algorithm|op|size|threads") are. */
long cb_results_cell_index(struct cb_results *r, json_t *cell);

/* The index of the cell a scanned trial T names, or -1 when it is not known
 * yet (its first trial is read with jansson, which keeps its cell object). */
long cb_results_scanned_cell(const struct cb_results *r, const struct cb_trial_scan *t);

/* Free the hash table of the cells (reading is over; they stay). */
void cb_results_index_free(struct cb_results *r);

/* Free the cells, the clock names, the pool and the table. */
void cb_results_memory_free(struct cb_results *r);

#endif
