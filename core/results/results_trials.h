/* results_trials.h: a trial line into the results being read
 * (results_read.c): the fields the schema describes (results_schema.h),
 * kept as struct cb_result_trial. */
#ifndef CB_RESULTS_TRIALS_H
#define CB_RESULTS_TRIALS_H

#include <stddef.h>

#include <jansson.h>

#include "core/results/results.h"
#include "core/results/results_scan.h"

/* Add the trial LINE (line LINENO of the file) to R, growing R->trials
 * (*CAPACITY of them) as needed. The cell first, then the numbers, then
 * valid: a line with several faults is refused for the same one whichever
 * reader meets it. 0, or -1 with ERR (one line, without the file's name). */
int cb_results_add_trial(struct cb_results *r, json_t *line, size_t lineno, size_t *capacity,
                         char *err, size_t err_len);

/* The trial line of LEN bytes at BUF, taken as cb_results_add_trial would
 * take it, from the scanner's fields (SCAN: room for them): 1 taken, 0 for
 * jansson to read (whatever cb_results_add_trial would refuse, it refuses
 * itself, in its words), -1 out of memory. */
int cb_results_take_scanned(struct cb_results *r, const char *buf, size_t len, size_t lineno,
                            size_t *capacity, struct cb_trial_scan *scan);

#endif
