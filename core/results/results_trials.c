/* results_trials.c: a trial line into a struct cb_result_trial, as the
 * schema's table says (results_schema.h): with jansson, every check in the
 * reader's words, or from the scanner's fields (results_scan.h) when it
 * answers for the line (results_trials.h). */
#include "core/results/results_trials.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"
#include "core/results/results_memory.h"
#include "core/results/results_schema.h"

/* A field of a trial line that must be a non-negative integer no larger than
 * MAX (absent: *OUT is left alone, or an error when REQUIRED). 0, or -1 with
 * ERR. */
static int uint_field(json_t *obj, const char *what, const char *key, bool required, uint64_t max,
                      uint64_t *out, char *err, size_t err_len)
{
	json_t *v = json_object_get(obj, key);

	if (!v && !required)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max)
		return cb_errorf(err, err_len, "%s \"%s\" %s a whole number from 0 to %" PRIu64,
		                 what, key, v ? "is not" : "is missing: it must be", max);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* A field that must be a number of at least 0 when present (FALLBACK when not). */
static int time_field(json_t *obj, const char *key, double fallback, double *out, char *err,
                      size_t err_len)
{
	json_t *v = json_object_get(obj, key);

	*out = fallback;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v) || json_number_value(v) < 0)
		return cb_errorf(err, err_len, "trial \"%s\" is not a number of at least 0", key);
	*out = json_number_value(v);
	return 0;
}

/* Check the cell object of a trial line: its names are strings, its size and
 * threads whole numbers. */
static int check_cell(json_t *cell, char *err, size_t err_len)
{
	static const char *const names[] = {"engine", "label", "algorithm", "op"};
	uint64_t n = 1;

	if (!json_is_object(cell))
		return cb_errorf(err, err_len, "trial line without a valid \"cell\" object");
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!json_is_string(json_object_get(cell, names[i])))
			return cb_errorf(err, err_len, "the trial's cell has no \"%s\" string",
			                 names[i]);
	if (json_object_get(cell, "mode") && !json_is_string(json_object_get(cell, "mode")))
		return cb_errorf(err, err_len, "the trial's cell \"mode\" is not a string");
	if (uint_field(cell, "cell", "size", true, UINT64_C(1) << 48, &n, err, err_len) != 0 ||
	    uint_field(cell, "cell", "threads", false, 65536, &n, err, err_len) != 0)
		return -1;
	if (n == 0)
		return cb_errorf(err, err_len, "the trial's cell \"threads\" is 0");
	return 0;
}

/* Room for one more trial; -1 out of memory. */
static int grow_trials(struct cb_results *r, size_t *capacity)
{
	if (r->n_trials == *capacity) {
		size_t more = *capacity ? *capacity * 2 : 256;
		struct cb_result_trial *grown = realloc(r->trials, more * sizeof *grown);

		if (!grown)
			return -1;
		r->trials = grown;
		*capacity = more;
	}
	return 0;
}

/* A trial's work: "bytes" for a byte cell, "ops" for a public-key cell, in
 * a file whose schema has them (results.h), into T->bytes. */
static int unit_field(const struct cb_results *r, const struct cb_result_cell *cell, json_t *line,
                      struct cb_result_trial *t, char *err, size_t err_len)
{
	bool has_ops = json_object_get(line, "ops") != NULL;

	if (!cell->ops)
		return has_ops ? cb_errorf(err, err_len,
		                           "trial \"ops\" in a cell of %s, which counts bytes",
		                           cell->algorithm)
		               : 0;
	if (r->schema < 2)
		return cb_errorf(err, err_len, "a public-key cell (%s) in a %s file: it needs %s",
		                 cell->algorithm, CB_SCHEMA, CB_SCHEMA_PK);
	if (json_object_get(line, "bytes"))
		return cb_errorf(
		    err, err_len,
		    "trial \"bytes\" in a cell of %s, which counts operations (\"ops\")",
		    cell->algorithm);
	return uint_field(line, "trial", "ops", true, (uint64_t)INT64_MAX, &t->bytes, err, err_len);
}

/* Field F of trial LINE into T, for the kinds a reader refuses ill-typed
 * (results_schema.h); the others are left alone. 0, or -1 with ERR. */
static int checked_field(const struct cb_trial_field *f, json_t *line, struct cb_result_trial *t,
                         char *err, size_t err_len)
{
	char *at = (char *)t + f->at;
	uint64_t n = 0;
	double d;

	switch (f->keep) {
	case CB_KEEP_COUNT:
	case CB_KEEP_BYTES:
		if (uint_field(line, "trial", f->key, f->required, f->max, &n, err, err_len) != 0)
			return -1;
		cb_trial_field_store(f, t, n);
		return 0;
	case CB_KEEP_TIME:
		if (time_field(line, f->key, -1, &d, err, err_len) != 0)
			return -1;
		memcpy(at, &d, sizeof d);
		return 0;
	default:
		return 0;
	}
}

/* The fields a trial keeps without refusing it: an ill-typed value is "not
 * recorded". 0, or -1 out of memory (or too many clock names). */
static int lenient_field(struct cb_results *r, const struct cb_trial_field *f, json_t *v,
                         struct cb_result_trial *t)
{
	char *at = (char *)t + f->at;

	switch (f->keep) {
	case CB_KEEP_FLAG:
		*(bool *)at = json_is_true(v);
		return 0;
	case CB_KEEP_TRISTATE:
		*(int8_t *)at = json_is_boolean(v) ? json_is_true(v) : -1;
		return 0;
	case CB_KEEP_LAYOUT: {
		json_t *stack = json_object_get(v, "stack");

		t->layout_stack = json_is_integer(stack) && json_integer_value(stack) >= 0 &&
		                          json_integer_value(stack) < 4096
		                      ? (int16_t)json_integer_value(stack)
		                      : -1;
		return 0;
	}
	case CB_KEEP_CLOCK: {
		const char *name = json_string_value(v);
		int clock = cb_results_clock_index(r, name, name ? strlen(name) : 0);

		if (clock < 0)
			return -1;
		t->clock = (uint8_t)clock;
		return 0;
	}
	case CB_KEEP_ERROR:
		return json_string_value(v) &&
		               !(t->error = cb_results_pool_strdup(r, json_string_value(v)))
		           ? -1
		           : 0;
	case CB_KEEP_TIMES:
		if (json_is_array(v) && json_array_size(v) > 0) {
			double *ns = cb_results_pool_alloc(r, json_array_size(v) * sizeof *ns);
			json_t *x;
			size_t i;

			if (!ns)
				return -1;
			json_array_foreach(v, i, x) ns[i] = json_number_value(x);
			t->thread_ns = ns;
			t->n_thread_ns = (uint32_t)json_array_size(v);
		}
		return 0;
	default:
		return 0;
	}
}

/* The trial's cell object: the schema's cell field. */
static json_t *cell_of(json_t *line)
{
	for (size_t i = 0; i < cb_n_trial_fields; i++)
		if (cb_trial_fields[i].keep == CB_KEEP_CELL)
			return json_object_get(line, cb_trial_fields[i].key);
	return NULL;
}

int cb_results_add_trial(struct cb_results *r, json_t *line, size_t lineno, size_t *capacity,
                         char *err, size_t err_len)
{
	json_t *cell = cell_of(line);
	struct cb_result_trial t = {.line = lineno};
	const struct cb_trial_field *valid = NULL;
	long c;

	/* The cell first, then the numbers, then valid: a line with several
	 * faults is refused for the same one whichever reader meets it. */
	if (check_cell(cell, err, err_len) != 0)
		return -1;
	for (size_t i = 0; i < cb_n_trial_fields; i++) {
		if (checked_field(&cb_trial_fields[i], line, &t, err, err_len) != 0)
			return -1;
		if (cb_trial_fields[i].keep == CB_KEEP_VALID)
			valid = &cb_trial_fields[i];
	}
	if (valid && !json_is_boolean(json_object_get(line, valid->key)))
		return cb_errorf(err, err_len, "trial \"%s\" is not true or false", valid->key);
	t.valid = valid && json_is_true(json_object_get(line, valid->key));
	if (t.valid && !(t.ns > 0))
		return cb_errorf(err, err_len, "a valid trial without a time (\"ns\" above 0)");
	if (r->n_trials && t.seq <= r->trials[r->n_trials - 1].seq)
		return cb_errorf(err, err_len,
		                 "trial seq %" PRIu64 " comes after seq %" PRIu64
		                 " (line %zu): lines out of order, repeated, or of two runs",
		                 t.seq, r->trials[r->n_trials - 1].seq,
		                 r->trials[r->n_trials - 1].line);
	if ((c = cb_results_cell_index(r, cell)) < 0)
		return cb_errorf(err, err_len, "out of memory");
	if (r->header_cells >= 0 && (long long)r->n_cells > r->header_cells)
		return cb_errorf(err, err_len,
		                 "a trial of a cell the run header does not have (it plans %lld "
		                 "cells): lines of another run?",
		                 r->header_cells);
	if (unit_field(r, &r->cells[c], line, &t, err, err_len) != 0)
		return -1;
	if (grow_trials(r, capacity) != 0)
		return cb_errorf(err, err_len, "out of memory");
	t.cell = (uint32_t)c;
	for (size_t i = 0; i < cb_n_trial_fields; i++)
		if (lenient_field(r, &cb_trial_fields[i],
		                  json_object_get(line, cb_trial_fields[i].key), &t) != 0)
			return cb_errorf(err, err_len, "out of memory, or more than %d clock names",
			                 UINT8_MAX);
	r->trials[r->n_trials++] = t;
	return 0;
}

int cb_results_take_scanned(struct cb_results *r, const char *buf, size_t len, size_t lineno,
                            size_t *capacity, struct cb_trial_scan *scan)
{
	const struct cb_trial_scan *s = scan;
	struct cb_result_trial t;
	long c;
	int clock;

	if (!s || cb_trial_scan(buf, len, scan) != 1 ||
	    (r->n_trials && s->trial.seq <= r->trials[r->n_trials - 1].seq) ||
	    (c = cb_results_scanned_cell(r, s)) < 0 ||
	    (clock = cb_results_clock_index(r, s->clock.p, s->clock.len)) < 0)
		return 0;
	if (grow_trials(r, capacity) != 0)
		return -1;
	/* Anything but the cell's own unit is cb_results_add_trial's to refuse. */
	if (r->cells[c].ops ? r->schema < 2 || !s->has_ops || s->has_bytes : s->has_ops)
		return 0;
	t = s->trial;
	t.line = lineno;
	if (r->cells[c].ops)
		t.bytes = s->ops;
	t.cell = (uint32_t)c;
	t.clock = (uint8_t)clock;
	if (s->error.p) {
		char *e = cb_results_pool_alloc(r, s->error.len + 1);

		if (!e)
			return -1;
		memcpy(e, s->error.p, s->error.len);
		e[s->error.len] = '\0';
		t.error = e;
	}
	if (s->n_thread_ns) {
		double *ns = cb_results_pool_alloc(r, s->n_thread_ns * sizeof *ns);

		if (!ns)
			return -1;
		memcpy(ns, s->thread_ns, s->n_thread_ns * sizeof *ns);
		t.thread_ns = ns;
		t.n_thread_ns = s->n_thread_ns;
	}
	r->trials[r->n_trials++] = t;
	return 1;
}
