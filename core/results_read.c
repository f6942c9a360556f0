/* results_read.c: reading a results file back for analysis. */
#include "core/results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errbuf.h"

static void say(char *err, size_t err_len, const char *path, size_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_verror_at(err, err_len, path, line, fmt, ap);
	va_end(ap);
}

static char *dup_field(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return strdup(s ? s : "");
}

static double number_or(json_t *obj, const char *key, double fallback)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : fallback;
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

/* The index of CELL among the cells seen so far, adding it when new. */
static long cell_index(struct cb_results *r, json_t *cell)
{
	struct cb_result_cell c = {0}, *grown;
	char key[512];

	c.engine = dup_field(cell, "engine");
	c.label = dup_field(cell, "label");
	c.algorithm = dup_field(cell, "algorithm");
	c.op = dup_field(cell, "op");
	c.mode = dup_field(cell, "mode");
	c.size = (uint64_t)number_or(cell, "size", 0);
	c.threads = (unsigned)number_or(cell, "threads", 1);
	snprintf(key, sizeof key, "%s|%s|%s|%" PRIu64 "|%u", c.label, c.algorithm, c.op, c.size,
	         c.threads);
	long found = cb_results_find_cell(r, key);
	if (found >= 0) {
		free_cell(&c);
		return found;
	}
	c.key = strdup(key);
	c.json = json_incref(cell);
	grown = realloc(r->cells, (r->n_cells + 1) * sizeof *grown);
	if (!grown) {
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

static int add_trial(struct cb_results *r, json_t *line, size_t *capacity)
{
	json_t *cell = json_object_get(line, "cell");
	struct cb_result_trial *t;
	long c;

	if (!json_is_object(cell))
		return -1;
	if ((c = cell_index(r, cell)) < 0)
		return -1;
	if (r->n_trials == *capacity) {
		size_t more = *capacity ? *capacity * 2 : 256;
		struct cb_result_trial *grown = realloc(r->trials, more * sizeof *grown);

		if (!grown)
			return -1;
		r->trials = grown;
		*capacity = more;
	}
	t = &r->trials[r->n_trials++];
	memset(t, 0, sizeof *t);
	t->cell = (size_t)c;
	t->round = (unsigned)number_or(line, "round", 0);
	t->seq = (uint64_t)number_or(line, "seq", 0);
	t->warmup = json_is_true(json_object_get(line, "warmup"));
	t->valid = json_is_true(json_object_get(line, "valid"));
	t->calls = (uint64_t)number_or(line, "calls", 0);
	t->bytes = (uint64_t)number_or(line, "bytes", 0);
	t->ns = number_or(line, "ns", -1);
	t->cpu_ns = number_or(line, "cpu_ns", -1);
	t->cycles = number_or(line, "cycles", -1);
	json_t *reached = json_object_get(line, "trial_time_reached");
	t->trial_time_reached = json_is_boolean(reached) ? json_is_true(reached) : -1;
	t->error = json_string_value(json_object_get(line, "error"));
	t->json = line;
	return 0;
}

/* Handle one parsed line; -1 with ERR when it does not belong. */
static int take_line(struct cb_results *r, json_t *line, size_t lineno, size_t *capacity, char *err,
                     size_t err_len)
{
	const char *type = json_string_value(json_object_get(line, "type"));

	if (!type) {
		say(err, err_len, r->path, lineno, "line has no \"type\"");
		return -1;
	}
	if (lineno == 1) {
		const char *schema = json_string_value(json_object_get(line, "schema"));

		if (strcmp(type, "run") != 0) {
			say(err, err_len, r->path, lineno,
			    "not a cryptobench results file (first line is not a run header)");
			return -1;
		}
		if (!schema || strcmp(schema, CB_SCHEMA) != 0) {
			say(err, err_len, r->path, lineno,
			    "schema '%s' is not one this version reads (%s)",
			    schema ? schema : "(none)", CB_SCHEMA);
			return -1;
		}
		r->header = json_incref(line);
		return 0;
	}
	if (strcmp(type, "trial") == 0) {
		if (add_trial(r, json_incref(line), capacity) != 0) {
			json_decref(line);
			say(err, err_len, r->path, lineno, "trial line without a valid \"cell\"");
			return -1;
		}
	} else if (strcmp(type, "skip") == 0) {
		json_array_append(r->skips, line);
	} else if (strcmp(type, "resume") == 0) {
		json_array_append(r->resumes, line);
	} else if (strcmp(type, "end") == 0) {
		/* After --resume the last end line is the one that counts. */
		json_decref(r->end);
		r->end = json_incref(line);
	} else if (strcmp(type, "run") == 0) {
		say(err, err_len, r->path, lineno,
		    "a second run header: two results files joined into one?");
		return -1;
	}
	/* Other types (e.g. "round" notes) are kept only by what needs them. */
	return 0;
}

struct cb_results *cb_results_read(const char *path, char *err, size_t err_len)
{
	struct cb_results *r = calloc(1, sizeof *r);
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, lineno = 0, capacity = 0;
	ssize_t n;

	if (!r || !f) {
		say(err, err_len, path, 0, "cannot open: %s", strerror(errno));
		goto fail;
	}
	r->path = strdup(path);
	r->skips = json_array();
	r->resumes = json_array();
	while ((n = getline(&buf, &cap, f)) >= 0) {
		json_error_t jerr;
		json_t *line;
		int complete = n > 0 && buf[n - 1] == '\n';

		lineno++;
		if (n == 0 || (n == 1 && complete))
			continue;
		line = json_loadb(buf, (size_t)n, 0, &jerr);
		if (!line) {
			if (!complete && lineno > 1)
				break; /* the last line was cut by a hard kill: keep what came
				          before */
			say(err, err_len, path, lineno, "not JSON: %s", jerr.text);
			goto fail;
		}
		if (!json_is_object(line) ||
		    take_line(r, line, lineno, &capacity, err, err_len) != 0) {
			if (!json_is_object(line))
				say(err, err_len, path, lineno, "line is not a JSON object");
			json_decref(line);
			goto fail;
		}
		json_decref(line);
	}
	if (!r->header) {
		say(err, err_len, path, 0, "empty: no run header");
		goto fail;
	}
	r->interrupted = !r->end || json_is_true(json_object_get(r->end, "interrupted"));
	free(buf);
	fclose(f);
	return r;
fail:
	free(buf);
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
