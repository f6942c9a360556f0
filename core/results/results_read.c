/* results_read.c: reading a results file back for analysis: its lines in
 * order, each to the part that takes it (a trial: results_trials.c). */
#include "core/results/results.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"
#include "core/results/lines.h"
#include "core/results/results_memory.h"
#include "core/results/results_scan.h"
#include "core/results/results_schema.h"
#include "core/results/results_trials.h"

bool cb_results_file_name(const char *name)
{
	static const char *const ends[] = {".jsonl", ".jsonl.gz", ".jsonl.zst"};
	size_t len = strlen(name);

	if (name[0] == '.')
		return false;
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		size_t n = strlen(ends[i]);

		if (len > n && strcmp(name + len - n, ends[i]) == 0)
			return true;
	}
	return false;
}

long cb_results_find_cell(const struct cb_results *r, const char *key)
{
	for (size_t i = 0; i < r->n_cells; i++)
		if (strcmp(r->cells[i].key, key) == 0)
			return (long)i;
	return -1;
}

/* What reading has seen so far, to check the order of the lines. */
struct reading {
	size_t capacity;            /* of r->trials */
	size_t end_line;            /* the last end line, while no resume line followed it */
	struct cb_trial_scan *scan; /* the scanner's fields (NULL: jansson only) */
};

static const char *const known_types[] = {"run",  "trial",   "skip", "resume",
                                          "look", "profile", "end"};

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
	if (!schema || (strcmp(schema, CB_SCHEMA) != 0 && strcmp(schema, CB_SCHEMA_PK) != 0))
		return cb_errorf(err, err_len, "schema '%s' is not one this version reads (%s, %s)",
		                 schema ? schema : "(none)", CB_SCHEMA, CB_SCHEMA_PK);
	r->schema = strcmp(schema, CB_SCHEMA) == 0 ? 1 : 2;
	r->header = json_incref(line);
	r->header_cells = json_is_integer(cells) && json_integer_value(cells) >= 0
	                      ? (long long)json_integer_value(cells)
	                      : -1;
	return 0;
}

/* A profile line (a profiled trial): kept whole, apart from the trials, for
 * the report's account of which code ran; nothing that judges reads it. Its
 * cell must be an object, its profile an object or null, its refusal a
 * string or null; other fields are the analysis's to read or ignore. */
static int take_profile(struct cb_results *r, json_t *line, char *err, size_t err_len)
{
	json_t *profile = json_object_get(line, "profile");
	json_t *refused = json_object_get(line, "refused");

	if (!json_is_object(json_object_get(line, "cell")))
		return cb_errorf(err, err_len, "profile line: \"cell\" is not an object");
	if (profile && !json_is_object(profile) && !json_is_null(profile))
		return cb_errorf(err, err_len,
		                 "profile line: \"profile\" is not an object or null");
	if (refused && !json_is_string(refused) && !json_is_null(refused))
		return cb_errorf(err, err_len, "profile line: \"refused\" is not a string or null");
	json_array_append(r->profiles, line);
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
		if (cb_results_add_trial(r, line, lineno, &rd->capacity, err, err_len) != 0)
			return -1;
	} else if (strcmp(type, "skip") == 0) {
		json_array_append(r->skips, line);
	} else if (strcmp(type, "look") == 0) {
		json_t *round = json_object_get(line, "round");

		if (!json_is_integer(round) || json_integer_value(round) < 0 ||
		    json_integer_value(round) > UINT32_MAX)
			return cb_errorf(err, err_len,
			                 "look \"round\" is not a whole number from 0 to %u",
			                 UINT32_MAX);
		json_array_append(r->looks, line);
	} else if (strcmp(type, "profile") == 0) {
		if (take_profile(r, line, err, err_len) != 0)
			return -1;
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

/* Parse and take every line of L. 0, or -1 with "PATH:LINE: message". */
static int read_all_lines(struct cb_results *r, struct cb_lines *l, struct reading *rd, char *err,
                          size_t err_len)
{
	const char *buf;
	char why[400];
	size_t len, lineno = 0;
	long long offset = 0;
	int got, rc = -1;

	while ((got = cb_lines_next(l, &buf, &len)) > 0) {
		bool complete = buf[len - 1] == '\n';
		json_error_t jerr;
		json_t *line;

		lineno++;
		if (len == 1 && complete) {
			offset += 1;
			continue; /* a blank line */
		}
		if (complete && r->header && !rd->end_line) {
			int taken =
			    cb_results_take_scanned(r, buf, len, lineno, &rd->capacity, rd->scan);

			if (taken < 0) {
				cb_error_at(err, err_len, r->path, lineno, "out of memory");
				return -1;
			}
			if (taken > 0) {
				offset += (long long)len;
				continue;
			}
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
			return -1;
		}
		if (!json_is_object(line))
			rc = cb_errorf(why, sizeof why, "line is not a JSON object");
		else
			rc = take_line(r, line, lineno, rd, why, sizeof why);
		json_decref(line);
		if (rc != 0) {
			cb_error_at(err, err_len, r->path, lineno, "%s", why);
			return -1;
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
	} else if (got == -3) {
		cb_error_at(err, err_len, r->path, lineno + 1, "%s", cb_lines_error(l));
	} else if (!r->header) {
		cb_error_at(err, err_len, r->path, lineno ? lineno : 1,
		            "%s: no run header, not a results file",
		            lineno ? "only blank lines" : "empty");
	} else {
		r->complete_bytes = offset;
		rc = 0;
	}
	return rc;
}

bool cb_results_scan_lines = true;

static int read_lines(struct cb_results *r, struct cb_lines *l, char *err, size_t err_len)
{
	/* Without room for the scanner's fields, jansson reads every line. */
	struct reading rd = {.scan = cb_results_scan_lines ? malloc(sizeof *rd.scan) : NULL};
	int rc = read_all_lines(r, l, &rd, err, err_len);

	free(rd.scan);
	return rc;
}

struct cb_results *cb_results_read(const char *path, char *err, size_t err_len)
{
	struct cb_results *r = calloc(1, sizeof *r);
	struct cb_lines *l = NULL;

	if (!r) {
		cb_error_at(err, err_len, path, 0, "out of memory");
		return NULL;
	}
	if (!(l = cb_lines_open(path, CB_RESULTS_MAX_LINE, err, err_len)))
		goto fail;
	r->path = strdup(path);
	r->compression = cb_lines_compression(l);
	r->skips = json_array();
	r->resumes = json_array();
	r->looks = json_array();
	r->profiles = json_array();
	r->clocks = calloc(1, sizeof *r->clocks);
	r->n_clocks = 1;
	r->header_cells = -1;
	if (!r->path || !r->skips || !r->resumes || !r->looks || !r->profiles || !r->clocks) {
		cb_error_at(err, err_len, path, 0, "out of memory");
		goto fail;
	}
	if (read_lines(r, l, err, err_len) != 0)
		goto fail;
	r->interrupted = !r->end || json_is_true(json_object_get(r->end, "interrupted"));
	cb_lines_close(l);
	cb_results_index_free(r);
	/* The trials are all in: give back the room kept for more. */
	if (r->n_trials) {
		struct cb_result_trial *fit = realloc(r->trials, r->n_trials * sizeof *fit);

		if (fit)
			r->trials = fit;
	}
	return r;
fail:
	/* One line, whatever the file held: a string from it (a schema, a type,
	 * the parser's quote of a token) may carry control characters. */
	for (char *p = err; p && p < err + err_len && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	cb_lines_close(l);
	cb_results_free(r);
	return NULL;
}

void cb_results_free(struct cb_results *r)
{
	if (!r)
		return;
	cb_results_memory_free(r);
	free(r->trials);
	json_decref(r->header);
	json_decref(r->end);
	json_decref(r->skips);
	json_decref(r->resumes);
	json_decref(r->looks);
	json_decref(r->profiles);
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
