/* results_scan.h: the fields of a trial line, read without building its JSON.
 *
 * A results file of a million trials is a million JSON objects; building
 * each with jansson (every key, every string of a digest) and dropping it
 * cost most of the reading time. This scanner reads the plain lines a run
 * writes and takes only the fields the analysis keeps. It is a fast path,
 * never a second judge: it answers only for lines that jansson would read
 * without complaint, with the very values jansson would give (integers as
 * exact 64-bit numbers, reals by strtod as jansson converts them), and says
 * "not mine" for anything else: a string with an escape, a control or a
 * non-ASCII byte; a key given twice; an object nested in another field than
 * "cell"; a number jansson might refuse or round differently; a field the
 * results reader would refuse (a missing seq, a negative time, ...). The
 * reader then reads the line with jansson, as before, and says what is wrong
 * with it in the same words. */
#ifndef CB_RESULTS_SCAN_H
#define CB_RESULTS_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/results/results.h"

/* A string of the line, not NUL-terminated; p NULL when absent (or, for the
 * optional ones, not a string). */
struct cb_scan_string {
	const char *p;
	size_t len;
};

#define CB_SCAN_MAX_THREADS 256 /* more thread times: not scanned */

struct cb_trial_scan {
	/* The cell: engine, label, algorithm and op strings; mode a string or
	 * absent; size from 0 to 2^48; threads from 1 to 65536 (1 when absent). */
	struct cb_scan_string engine, label, algorithm, op, mode;
	uint64_t size;
	unsigned threads;
	/* The fields kept by their kind in the schema (results_schema.h), as
	 * the reader keeps them: round, seq, calls, bytes (0 when absent), ns,
	 * cpu_ns, cycles (-1 when absent or null), valid, warmup,
	 * trial_time_reached, layout_stack. Its cell, clock, error and thread
	 * times are the reader's to set (below). */
	struct cb_result_trial trial;
	uint64_t ops;            /* 0 when absent */
	bool has_bytes, has_ops; /* whether each was there */
	struct cb_scan_string clock, error;
	double thread_ns[CB_SCAN_MAX_THREADS];
	uint32_t n_thread_ns; /* 0 when absent, empty or not an array */
};

/* Scan LINE (LEN bytes, its newline included or not): 1 when it is a trial
 * line this scanner answers for, with its fields in OUT (pointing into
 * LINE); 0 when the line must be read with jansson. */
int cb_trial_scan(const char *line, size_t len, struct cb_trial_scan *out);

#endif
