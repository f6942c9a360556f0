/* results_schema.h: the fields of a results file's lines, described once.
 *
 * A line's fields are a table, one entry per key, in the order the writer
 * writes them: the key, the function that makes its value from what the
 * runner hands over (NULL when the line has no such key), and, for a trial,
 * what the readers keep of it. The writer (cb_results_trial_json,
 * cb_results_header_json) walks the table; both readers of a trial line
 * (results_trials.c with jansson, results_scan.c without) walk the same table
 * for its keys, their types and where each kept value goes in struct
 * cb_result_trial. doc/results-format.md describes every key, and
 * tests/test_results_schema.c holds the document against these tables.
 *
 * Adding a trial field: its entry (and value function) in results_schema.c,
 * its row in doc/results-format.md. A field the analysis keeps also names
 * what it keeps (enum cb_field_keep) and its member of struct
 * cb_result_trial. */
#ifndef CB_RESULTS_SCHEMA_H
#define CB_RESULTS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/machine/clock.h"
#include "core/measure/plan.h"
#include "core/results/results.h"
#include "core/measure/trial.h"

/* ---- The trial line ---- */

/* What the runner hands over for one trial line. */
struct cb_trial_record {
	const struct cb_cell *cell;
	unsigned round;
	uint64_t seq;
	bool warmup;
	uint64_t calls;                       /* as calibrated; 0 when the cell is broken */
	const struct cb_trial_result *result; /* the trial as measured */
	uint64_t trial_time_ns;               /* the run's: whether the trial reached it */
	bool layout_per_trial;                /* the scenario's layout = "trial" */
	struct cb_trial_layout layout;        /* where this trial's calls were placed */
	bool cycles_counted;                  /* the run counts cycles (else estimates) */
};

/* What the readers keep of a trial field, and how they check it. A reader
 * refuses a line whose kept field is ill-typed where the kind says "refused";
 * other kinds take an ill-typed value as "not recorded". */
enum cb_field_keep {
	CB_KEEP_NOTHING,  /* not read: for people, jq and export */
	CB_KEEP_COUNT,    /* a whole number from 0 to .max (refused otherwise), into
	                   * the integer of .width bytes at .at; 0 when absent */
	CB_KEEP_BYTES,    /* as COUNT, into bytes: a byte cell's work */
	CB_KEEP_OPS,      /* a public-key cell's work, into bytes (results.h) */
	CB_KEEP_TIME,     /* a number of at least 0 (refused otherwise) into the double
	                   * at .at; -1 when absent or null */
	CB_KEEP_VALID,    /* true or false (refused otherwise): valid */
	CB_KEEP_FLAG,     /* true, or anything else false: the bool at .at */
	CB_KEEP_TRISTATE, /* true 1, false 0, else -1: the int8_t at .at */
	CB_KEEP_CELL,     /* the cell object (refused when bad): cell */
	CB_KEEP_LAYOUT,   /* an object whose stack (0 to 4095) is layout_stack (its out
	                   * and input are not kept) */
	CB_KEEP_CLOCK,    /* a string: clock (interned) */
	CB_KEEP_ERROR,    /* a string: error */
	CB_KEEP_TIMES,    /* an array of numbers: thread_ns, n_thread_ns */
};

struct cb_trial_field {
	const char *key;
	/* The value of this trial's field, a new reference; NULL: not written. */
	json_t *(*value)(const struct cb_trial_record *t);
	bool valid_only; /* written for valid trials only (an invalid one keeps its
	                  * reason, never its time) */
	enum cb_field_keep keep;
	bool required;    /* COUNT: a trial without it is refused */
	uint64_t max;     /* COUNT: the largest value */
	size_t at, width; /* where the value goes in struct cb_result_trial */
};

/* The trial line's fields, in the order they are written ("type" aside). */
extern const struct cb_trial_field cb_trial_fields[];
extern const size_t cb_n_trial_fields;

/* Store the count N of a COUNT or BYTES field F where it goes in T (its
 * width: 32 or 64 bits). */
void cb_trial_field_store(const struct cb_trial_field *f, struct cb_result_trial *t, uint64_t n);

/* The line of trial T, "type" aside (cb_writer_line adds it). New reference. */
json_t *cb_results_trial_json(const struct cb_trial_record *t);
/* Append the line of trial T to W. 0, or -1 (errno set: cb_writer_line). */
int cb_results_write_trial(struct cb_writer *w, const struct cb_trial_record *t);

/* ---- The run header ---- */

/* What the runner hands over for the header. */
struct cb_header_record {
	const struct cb_plan *plan;
	const char *command_line; /* or NULL */
	const char *host_name;    /* run --host, or NULL */
	size_t input_len;         /* bytes generated */
	const char *input_sha256, *unit_sha256;
	const struct cb_cycles *cycles;
	uint64_t resolution_ns; /* the wall clock's */
	double core_hz_start;
	uint64_t trial_time_ns; /* the scenario's, raised to the clock's floor */
	unsigned run_index, runs;
	uint64_t layout_seed;
	json_t *explain; /* the profiled trials' settings and samplers (core/run/explain.h),
	                  * borrowed; NULL: the run has none */
};

struct cb_header_field {
	const char *key;
	json_t *(*value)(const struct cb_header_record *h); /* NULL: not written */
};

/* The header's fields in the order they are written; the run command adds
 * "only", "stop" and "placement", and the writer "schema" when the header
 * has none (cb_writer_header). */
extern const struct cb_header_field cb_header_fields[];
extern const size_t cb_n_header_fields;

/* The header of a new results file, "type" aside. New reference. */
json_t *cb_results_header_json(const struct cb_header_record *h);

/* ---- The other lines ---- */

/* A skip line: the combination's cell and why it cannot run. */
json_t *cb_results_skip_json(const struct cb_skip *skip);
/* Append the skip line of SKIP to W. 0, or -1 (errno set). */
int cb_results_write_skip(struct cb_writer *w, const struct cb_skip *skip);

/* A look line (results.h): ROUND, ELAPSED_S, the hook's FIELDS (borrowed;
 * NULL: none), QUESTIONS_OPEN and "measuring", the keys of PLAN's cells
 * still OPEN. New reference. */
json_t *cb_results_look_json(const struct cb_plan *plan, const bool *open, unsigned round,
                             double elapsed_s, json_t *fields, size_t questions_open);
/* Append that look line to W. 0, or -1 (errno set). */
int cb_results_write_look(struct cb_writer *w, const struct cb_plan *plan, const bool *open,
                          unsigned round, double elapsed_s, json_t *fields, size_t questions_open);

/* What the profiled pass hands over for a profile line (core/run/explain.h):
 * one profiled trial of a cell, never a timing. */
struct cb_profile_record {
	const struct cb_cell *cell;
	unsigned round; /* the round after the run's last */
	uint64_t seq;   /* counting on from the plan's last slot */
	const char *sampler;
	double rate_hz;
	uint64_t calls;
	const struct cb_trial_result *result; /* the profiled trial (NULL: none ran) */
	double timed_ns_per_call;             /* median of the cell's timed trials; < 0: none */
	json_t *profile;                      /* cb_profile_json, borrowed; NULL when refused */
	const char *refused;                  /* why no samples were taken, or NULL */
};

/* A profile line (doc/results-format.md), "type" aside. New reference. */
json_t *cb_results_profile_json(const struct cb_profile_record *p);
/* Append that profile line to W. 0, or -1 (errno set). */
int cb_results_write_profile(struct cb_writer *w, const struct cb_profile_record *p);

/* What the runner hands over for the end line. */
struct cb_end_record {
	uint64_t trials, invalid;
	bool interrupted;
	double elapsed_s;
	double rounds_s;    /* the measured rounds' wall time; < 0: not written */
	double core_hz_end; /* < 0: not written (no real clock) */
	/* A sequential run (outcome not NULL): why it ended and what was left. */
	const char *outcome;
	unsigned looks, measured_rounds;
	size_t open_cells, questions_open;
	double stop_elapsed_s;
};

/* The end line, "type" aside. New reference. */
json_t *cb_results_end_json(const struct cb_end_record *e);

/* ---- Going on from a resumed file ---- */

/* The per-trial placements' seed R's header records (setup.layout_seed), or
 * -1. */
long long cb_results_layout_seed(const struct cb_results *r);

/* The last look line of a file (results.h). */
struct cb_results_look {
	size_t n_looks; /* look lines in the file */
	long long round;
	double elapsed_s;
	size_t questions_open;
	const json_t *measuring; /* the keys of the cells still measured */
};

/* R's last look into LOOK: true, or false when R has none. */
bool cb_results_last_look(const struct cb_results *r, struct cb_results_look *look);
/* Whether LOOK still measured the cell of KEY (cb_cell_key). */
bool cb_results_look_measures(const struct cb_results_look *look, const char *key);

#endif
