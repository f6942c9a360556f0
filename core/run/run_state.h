/* run_state.h: the state of a run, shared by its preparation
 * (run_prepare.c: inputs, references, buffers, the header) and its loop
 * (runner.c: calibration, trials, looks, stops). Not for other modules:
 * runner.h is the interface. */
#ifndef CB_RUN_STATE_H
#define CB_RUN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/algorithms/input.h"
#include "core/machine/clock.h"
#include "core/measure/plan.h"
#include "core/measure/trial.h"

struct cb_run_options; /* runner.h */
struct cb_explain;     /* explain.h */
struct ciphertext;     /* run_prepare.c */

struct cb_run {
	const struct cb_plan *plan;
	const struct cb_run_options *options;
	struct cb_input input;
	struct ciphertext *ciphertexts;
	size_t n_ciphertexts;
	struct cb_cell_state *states;
	struct cb_trial_buffers buffers;
	struct cb_trial_context tc;
	struct cb_cycles cycles; /* probed once, for the header */
	uint64_t trial_time_ns;  /* the scenario's, raised to the clock's floor */
	uint64_t resolution_ns;
	bool real_clock;      /* some cell runs on the wall clock */
	uint64_t layout_seed; /* placements per trial (cb_trial_layout_draw) */
	double core_hz_start;
	size_t input_len; /* kept when the input itself is freed */
	char input_sha256[65], unit_sha256[65];
	uint64_t started_ns;
	/* A sequential run (cb_run_execute): */
	bool sequential;
	bool *open;                 /* per cell: still in the rotation */
	unsigned first_look;        /* measured rounds before the first look */
	unsigned stratum_pad;       /* added to the round a placement is drawn for, so that
	                             * the layout's strata of 8 rounds (trial.h) are the
	                             * blocks of measured rounds, warm-up before them */
	unsigned looked;            /* measured rounds at the last look (of this file) */
	double elapsed_before;      /* wall seconds the file had counted before a resume */
	uint64_t measured_from_ns;  /* when its first measured trial began (0: none yet) */
	double virtual_s;           /* the trials' virtual seconds (a plan of virtual clocks) */
	uint64_t trials_total;      /* in the file, this process's and before */
	struct cb_explain *explain; /* profiled trials after the timed ones, or NULL */
};

#endif
