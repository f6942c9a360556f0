/* results_read.c: reading a results file back for analysis. */
#include "core/results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errbuf.h"

static char *dup_field(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return strdup(s ? s : "");
}

static void free_cell(struct cb_result_cell *c)
{
	free(c->engine);
	free(c->label);
	free(c->algorithm);
	free(c->op);
	free(c->mode);
	free(c->key);
	json_decref(c->json);
}

/* The index of CELL (checked by check_cell) among the cells seen so far,
 * adding it when new; -1 out of memory. */
static long cell_index(struct cb_results *r, json_t *cell)
{
	struct cb_result_cell c = {0}, *grown;
	json_t *threads = json_object_get(cell, "threads");
	char *key;

	c.engine = dup_field(cell, "engine");
	c.label = dup_field(cell, "label");
	c.algorithm = dup_field(cell, "algorithm");
	c.op = dup_field(cell, "op");
	c.mode = dup_field(cell, "mode");
	c.size = (uint64_t)json_integer_value(json_object_get(cell, "size"));
	c.threads = threads ? (unsigned)json_integer_value(threads) : 1;
	if (asprintf(&key, "%s|%s|%s|%" PRIu64 "|%u", c.label, c.algorithm, c.op, c.size,
	             c.threads) < 0) {
		free_cell(&c);
		return -1;
	}
	long found = cb_results_find_cell(r, key);
	if (found >= 0) {
		free(key);
		free_cell(&c);
		return found;
	}
	c.key = key;
	c.json = json_incref(cell);
	grown = realloc(r->cells, (r->n_cells + 1) * sizeof *grown);
	if (!grown || !c.engine || !c.label || !c.algorithm || !c.op || !c.mode) {
		if (grown)
			r->cells = grown;
		free_cell(&c);
		return -1;
	}
	r->cells = grown;
	r->cells[r->n_cells] = c;
	return (long)r->n_cells++;
}

long cb_results_find_cell(const struct cb_results *r, const char *key)
{
	for (size_t i = 0; i < r->n_cells; i++)
		if (strcmp(r->cells[i].key, key) == 0)
			return (long)i;
	return -1;
}

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

static int add_trial(struct cb_results *r, json_t *line, size_t lineno, size_t *capacity, char *err,
                     size_t err_len)
{
	json_t *cell = json_object_get(line, "cell"), *valid = json_object_get(line, "valid");
	struct cb_result_trial t = {.line = lineno};
	uint64_t round = 0;
	long c;

	if (check_cell(cell, err, err_len) != 0 ||
	    uint_field(line, "trial", "round", true, UINT32_MAX, &round, err, err_len) != 0 ||
	    uint_field(line, "trial", "seq", true, (uint64_t)INT64_MAX, &t.seq, err, err_len) !=
	        0 ||
	    uint_field(line, "trial", "calls", false, (uint64_t)INT64_MAX, &t.calls, err,
	               err_len) != 0 ||
	    uint_field(line, "trial", "bytes", false, (uint64_t)INT64_MAX, &t.bytes, err,
	               err_len) != 0 ||
	    time_field(line, "ns", -1, &t.ns, err, err_len) != 0 ||
	    time_field(line, "cpu_ns", -1, &t.cpu_ns, err, err_len) != 0 ||
	    time_field(line, "cycles", -1, &t.cycles, err, err_len) != 0)
		return -1;
	if (!json_is_boolean(valid))
		return cb_errorf(err, err_len, "trial \"valid\" is not true or false");
	t.valid = json_is_true(valid);
	if (t.valid && !(t.ns > 0))
		return cb_errorf(err, err_len, "a valid trial without a time (\"ns\" above 0)");
	if (r->n_trials && t.seq <= r->trials[r->n_trials - 1].seq)
		return cb_errorf(err, err_len,
		                 "trial seq %" PRIu64 " comes after seq %" PRIu64
		                 " (line %zu): lines out of order, repeated, or of two runs",
		                 t.seq, r->trials[r->n_trials - 1].seq,
		                 r->trials[r->n_trials - 1].line);
	if ((c = cell_index(r, cell)) < 0)
		return cb_errorf(err, err_len, "out of memory");
	if (r->header_cells >= 0 && (long long)r->n_cells > r->header_cells)
		return cb_errorf(err, err_len,
		                 "a trial of a cell the run header does not have (it plans %lld "
		                 "cells): lines of another run?",
		                 r->header_cells);
	if (r->n_trials == *capacity) {
		size_t more = *capacity ? *capacity * 2 : 256;
		struct cb_result_trial *grown = realloc(r->trials, more * sizeof *grown);

		if (!grown)
			return cb_errorf(err, err_len, "out of memory");
		r->trials = grown;
		*capacity = more;
	}
	t.cell = (size_t)c;
	t.round = (unsigned)round;
	t.warmup = json_is_true(json_object_get(line, "warmup"));
	json_t *reached = json_object_get(line, "trial_time_reached");
	t.trial_time_reached = json_is_boolean(reached) ? json_is_true(reached) : -1;
	t.error = json_string_value(json_object_get(line, "error"));
	t.json = json_incref(line);
	r->trials[r->n_trials++] = t;
	return 0;
}

/* What reading has seen so far, to check the order of the lines. */
struct reading {
	size_t capacity; /* of r->trials */
	size_t end_line; /* the last end line, while no resume line followed it */
};

static const char *const known_types[] = {"run", "trial", "skip", "resume", "end"};

static bool known_type(const char *type)
{
	for (size_t i = 0; i < sizeof known_types / sizeof known_types[0]; i++)
		if (strcmp(type, known_types[i]) == 0)
			return true;
	return false;
}

/* The run header: line 1, of a schema this reader knows. */
static int take_header(struct cb_results *r, json_t *line, const char *type, char *err,
                       size_t err_len)
{
	const char *schema = json_string_value(json_object_get(line, "schema"));
	json_t *cells = json_object_get(line, "cells");

	if (strcmp(type, "run") != 0) {
		if (known_type(type))
			return cb_errorf(err, err_len,
			                 "a '%s' line first, not the run header: lines out of "
			                 "order, or not a whole results file",
			                 type);
		return cb_errorf(err, err_len,
		                 "not a cryptobench results file (line 1 is not a run header)");
	}
	if (!schema || strcmp(schema, CB_SCHEMA) != 0)
		return cb_errorf(err, err_len, "schema '%s' is not one this version reads (%s)",
		                 schema ? schema : "(none)", CB_SCHEMA);
	r->header = json_incref(line);
	r->header_cells = json_is_integer(cells) && json_integer_value(cells) >= 0
	                      ? (long long)json_integer_value(cells)
	                      : -1;
	return 0;
}

/* Handle one parsed line; -1 with ERR when it does not belong. */
static int take_line(struct cb_results *r, json_t *line, size_t lineno, struct reading *rd,
                     char *err, size_t err_len)
{
	const char *type = json_string_value(json_object_get(line, "type"));

	if (!type)
		return cb_errorf(err, err_len, "line has no \"type\"");
	if (!r->header)
		return take_header(r, line, type, err, err_len);
	if (strcmp(type, "run") == 0)
		return cb_errorf(err, err_len,
		                 "a second run header: two results files joined into one?");
	if (rd->end_line && strcmp(type, "resume") != 0)
		return cb_errorf(err, err_len,
		                 "a '%s' line after the end line (line %zu) with no resume line "
		                 "between: lines out of order, or two files joined",
		                 type, rd->end_line);
	if (strcmp(type, "trial") == 0) {
		if (add_trial(r, line, lineno, &rd->capacity, err, err_len) != 0)
			return -1;
	} else if (strcmp(type, "skip") == 0) {
		json_array_append(r->skips, line);
	} else if (strcmp(type, "resume") == 0) {
		json_array_append(r->resumes, line);
		rd->end_line = 0;
	} else if (strcmp(type, "end") == 0) {
		/* After --resume the last end line is the one that counts. */
		json_decref(r->end);
		r->end = json_incref(line);
		rd->end_line = lineno;
	}
	/* Other types (e.g. "round" notes) are kept only by what needs them. */
	return 0;
}

/* Read one line of F into *BUF (newline kept): 1, 0 at the end of the file,
 * -1 when it is longer than CB_RESULTS_MAX_LINE, -2 out of memory. NUL bytes
 * are kept (the JSON parser refuses them). */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len)
{
	int c;

	*len = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		if (*len >= CB_RESULTS_MAX_LINE)
			return -1;
		if (*len + 1 >= *cap) {
			size_t more = *cap ? *cap * 2 : 4096;
			char *grown = realloc(*buf, more);

			if (!grown)
				return -2;
			*buf = grown;
			*cap = more;
		}
		(*buf)[(*len)++] = (char)c;
		if (c == '\n')
			break;
	}
	return *len > 0;
}

/* Parse and take every line of F. 0, or -1 with "PATH:LINE: message". */
static int read_lines(struct cb_results *r, FILE *f, char *err, size_t err_len)
{
	struct reading rd = {0};
	char *buf = NULL, why[400];
	size_t cap = 0, len, lineno = 0;
	long long offset = 0;
	int got, rc = -1;

	while ((got = read_line(f, &buf, &cap, &len)) > 0) {
		bool complete = buf[len - 1] == '\n';
		json_error_t jerr;
		json_t *line;

		lineno++;
		if (len == 1 && complete) {
			offset += 1;
			continue; /* a blank line */
		}
		line = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
		if (!line && !complete && r->header) {
			/* The last line, cut by a hard kill: keep what came before. */
			r->torn_line = lineno;
			break;
		}
		if (!line) {
			cb_error_at(err, err_len, r->path, lineno, "%s (column %d): %s",
			            complete ? "not JSON" : "cut short, not JSON", jerr.column,
			            jerr.text);
			goto done;
		}
		if (!json_is_object(line))
			rc = cb_errorf(why, sizeof why, "line is not a JSON object");
		else
			rc = take_line(r, line, lineno, &rd, why, sizeof why);
		json_decref(line);
		if (rc != 0) {
			cb_error_at(err, err_len, r->path, lineno, "%s", why);
			goto done;
		}
		rc = -1;
		offset += (long long)len;
	}
	if (got == -1) {
		cb_error_at(err, err_len, r->path, lineno + 1,
		            "line longer than %zu MiB: not a results file line",
		            CB_RESULTS_MAX_LINE >> 20);
	} else if (got == -2) {
		cb_error_at(err, err_len, r->path, lineno + 1, "out of memory");
	} else if (ferror(f)) {
		cb_error_at(err, err_len, r->path, lineno + 1, "cannot read: %s", strerror(errno));
	} else if (!r->header) {
		cb_error_at(err, err_len, r->path, lineno ? lineno : 1,
		            "%s: no run header, not a results file",
		            lineno ? "only blank lines" : "empty");
	} else {
		r->complete_bytes = offset;
		rc = 0;
	}
done:
	free(buf);
	return rc;
}

struct cb_results *cb_results_read(const char *path, char *err, size_t err_len)
{
	struct cb_results *r = calloc(1, sizeof *r);
	FILE *f = fopen(path, "r");

	if (!r || !f) {
		cb_error_at(err, err_len, path, 0, "cannot open: %s", strerror(errno));
		goto fail;
	}
	r->path = strdup(path);
	r->skips = json_array();
	r->resumes = json_array();
	r->header_cells = -1;
	if (!r->path || !r->skips || !r->resumes) {
		cb_error_at(err, err_len, path, 0, "out of memory");
		goto fail;
	}
	if (read_lines(r, f, err, err_len) != 0)
		goto fail;
	r->interrupted = !r->end || json_is_true(json_object_get(r->end, "interrupted"));
	fclose(f);
	return r;
fail:
	if (f)
		fclose(f);
	cb_results_free(r);
	return NULL;
}

void cb_results_free(struct cb_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_cells; i++)
		free_cell(&r->cells[i]);
	for (size_t i = 0; i < r->n_trials; i++)
		json_decref(r->trials[i].json);
	free(r->cells);
	free(r->trials);
	json_decref(r->header);
	json_decref(r->end);
	json_decref(r->skips);
	json_decref(r->resumes);
	free(r->path);
	free(r);
}

const char *cb_results_header_string(const struct cb_results *r, const char *obj, const char *key)
{
	json_t *o = obj ? json_object_get(r->header, obj) : r->header;
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

long long cb_results_header_int(const struct cb_results *r, const char *obj, const char *key)
{
	json_t *o = obj ? json_object_get(r->header, obj) : r->header;

	return (long long)json_integer_value(json_object_get(o, key));
}
