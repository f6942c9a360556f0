/* results_read.c: reading a results file back for analysis. */
#include "core/results/results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/algorithms/algorithm.h"
#include "core/base/errbuf.h"
#include "core/results/lines.h"
#include "core/results/results_scan.h"
#include "core/results/results_schema.h"

/* ---- Memory for the trials' strings and arrays ---- */

#define POOL_BLOCK ((size_t)64 << 10)

struct cb_results_pool {
	struct cb_results_pool *next;
	size_t used, size;
	max_align_t data[];
};

/* N bytes that stay put until the results are freed; NULL out of memory. */
static void *pool_alloc(struct cb_results *r, size_t n)
{
	struct cb_results_pool *p = r->pool;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!p || p->size - p->used < n) {
		size_t size = n > POOL_BLOCK ? n : POOL_BLOCK;

		if (!(p = malloc(sizeof *p + size)))
			return NULL;
		p->next = r->pool;
		p->used = 0;
		p->size = size;
		r->pool = p;
	}
	p->used += n;
	return (char *)p->data + p->used - n;
}

static const char *pool_strdup(struct cb_results *r, const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = pool_alloc(r, n);

	return copy ? memcpy(copy, s, n) : NULL;
}

/* The index of the clock named NAME (NULL: 0, no clock); -1 out of memory or
 * when a file names more clocks than a trial can tell apart. */
static int clock_index(struct cb_results *r, const char *name, size_t len)
{
	char **grown;

	if (!name)
		return 0;
	for (size_t i = 1; i < r->n_clocks; i++)
		if (strncmp(r->clocks[i], name, len) == 0 && r->clocks[i][len] == '\0')
			return (int)i;
	if (r->n_clocks > UINT8_MAX)
		return -1;
	if (!(grown = realloc(r->clocks, (r->n_clocks + 1) * sizeof *grown)))
		return -1;
	r->clocks = grown;
	if (!(r->clocks[r->n_clocks] = strndup(name, len)))
		return -1;
	return (int)r->n_clocks++;
}

/* ---- Finding a trial's cell: a hash table of the cells by their key ---- */

struct cell_table {
	size_t size; /* a power of two, at least twice the cells */
	long *slots; /* cell index + 1, 0 for an empty slot */
};

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
	return (h ^ 0xff) * UINT64_C(0x100000001b3);
}

static uint64_t hash_mem(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
	return (h ^ 0xff) * UINT64_C(0x100000001b3);
}

static uint64_t hash_key(const char *label, const char *algorithm, const char *op, uint64_t size,
                         unsigned threads)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	h = hash_str(h, label);
	h = hash_str(h, algorithm);
	h = hash_str(h, op);
	h = (h ^ size) * UINT64_C(0x100000001b3);
	return (h ^ threads) * UINT64_C(0x100000001b3);
}

static uint64_t cell_hash(const struct cb_result_cell *c)
{
	return hash_key(c->label, c->algorithm, c->op, c->size, c->threads);
}

static void table_put(struct cell_table *t, uint64_t h, long index)
{
	size_t i = (size_t)h & (t->size - 1);

	while (t->slots[i])
		i = (i + 1) & (t->size - 1);
	t->slots[i] = index + 1;
}

/* Make room for one more cell; -1 out of memory. */
static int table_grow(struct cb_results *r)
{
	struct cell_table *t = r->cell_index;
	size_t size;
	long *slots;

	if (!t) {
		if (!(t = calloc(1, sizeof *t)))
			return -1;
		r->cell_index = t;
	}
	if (t->size >= 2 * (r->n_cells + 1))
		return 0;
	size = t->size ? t->size * 2 : 64;
	if (!(slots = calloc(size, sizeof *slots)))
		return -1;
	free(t->slots);
	t->slots = slots;
	t->size = size;
	for (size_t i = 0; i < r->n_cells; i++)
		table_put(t, cell_hash(&r->cells[i]), (long)i);
	return 0;
}

static void table_free(struct cb_results *r)
{
	struct cell_table *t = r->cell_index;

	if (t)
		free(t->slots);
	free(t);
	r->cell_index = NULL;
}

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
 * adding it when new; -1 out of memory. Cells are the same when their keys
 * ("label|algorithm|op|size|threads") are. */
static long cell_index(struct cb_results *r, json_t *cell)
{
	struct cb_result_cell c = {0}, *grown;
	struct cell_table *t;
	json_t *threads = json_object_get(cell, "threads");
	const char *label = json_string_value(json_object_get(cell, "label"));
	const char *algorithm = json_string_value(json_object_get(cell, "algorithm"));
	const char *op = json_string_value(json_object_get(cell, "op"));
	uint64_t size = (uint64_t)json_integer_value(json_object_get(cell, "size")), h;
	unsigned n_threads = threads ? (unsigned)json_integer_value(threads) : 1;
	char *key;

	if (table_grow(r) != 0)
		return -1;
	t = r->cell_index;
	h = hash_key(label, algorithm, op, size, n_threads);
	for (size_t i = (size_t)h & (t->size - 1); t->slots[i]; i = (i + 1) & (t->size - 1)) {
		const struct cb_result_cell *o = &r->cells[t->slots[i] - 1];

		if (o->size == size && o->threads == n_threads && strcmp(o->label, label) == 0 &&
		    strcmp(o->algorithm, algorithm) == 0 && strcmp(o->op, op) == 0)
			return t->slots[i] - 1;
	}
	c.engine = dup_field(cell, "engine");
	c.label = dup_field(cell, "label");
	c.algorithm = dup_field(cell, "algorithm");
	c.op = dup_field(cell, "op");
	c.mode = dup_field(cell, "mode");
	c.size = size;
	c.threads = n_threads;
	c.ops =
	    algorithm && cb_algorithm_find(algorithm) && cb_alg_is_pk(cb_algorithm_find(algorithm));
	if (asprintf(&key, "%s|%s|%s|%" PRIu64 "|%u", c.label, c.algorithm, c.op, c.size,
	             c.threads) < 0) {
		free_cell(&c);
		return -1;
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
	table_put(t, h, (long)r->n_cells);
	return (long)r->n_cells++;
}

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
		int clock = clock_index(r, name, name ? strlen(name) : 0);

		if (clock < 0)
			return -1;
		t->clock = (uint8_t)clock;
		return 0;
	}
	case CB_KEEP_ERROR:
		return json_string_value(v) && !(t->error = pool_strdup(r, json_string_value(v)))
		           ? -1
		           : 0;
	case CB_KEEP_TIMES:
		if (json_is_array(v) && json_array_size(v) > 0) {
			double *ns = pool_alloc(r, json_array_size(v) * sizeof *ns);
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

static int add_trial(struct cb_results *r, json_t *line, size_t lineno, size_t *capacity, char *err,
                     size_t err_len)
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
	if ((c = cell_index(r, cell)) < 0)
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

/* What reading has seen so far, to check the order of the lines. */
struct reading {
	size_t capacity;            /* of r->trials */
	size_t end_line;            /* the last end line, while no resume line followed it */
	struct cb_trial_scan *scan; /* the scanner's fields (NULL: jansson only) */
};

static bool same_string(const char *s, const struct cb_scan_string *x)
{
	return strncmp(s, x->p, x->len) == 0 && s[x->len] == '\0';
}

/* The index of the cell a scanned trial names, or -1 when it is not known yet
 * (its first trial is read with jansson, which keeps its cell object). */
static long scanned_cell(const struct cb_results *r, const struct cb_trial_scan *t)
{
	const struct cell_table *tab = r->cell_index;
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	if (!tab || !tab->size)
		return -1;
	h = hash_mem(h, t->label.p, t->label.len);
	h = hash_mem(h, t->algorithm.p, t->algorithm.len);
	h = hash_mem(h, t->op.p, t->op.len);
	h = (h ^ t->size) * UINT64_C(0x100000001b3);
	h = (h ^ t->threads) * UINT64_C(0x100000001b3);
	for (size_t i = (size_t)h & (tab->size - 1); tab->slots[i]; i = (i + 1) & (tab->size - 1)) {
		const struct cb_result_cell *o = &r->cells[tab->slots[i] - 1];

		if (o->size == t->size && o->threads == t->threads &&
		    same_string(o->label, &t->label) && same_string(o->algorithm, &t->algorithm) &&
		    same_string(o->op, &t->op))
			return tab->slots[i] - 1;
	}
	return -1;
}

/* A trial line the scanner answers for (results_scan.h), taken as add_trial
 * would take it: 1 taken, 0 for jansson to read (whatever add_trial would
 * refuse, it refuses itself, in its words), -1 out of memory. */
static int take_scanned(struct cb_results *r, const char *buf, size_t len, size_t lineno,
                        struct reading *rd)
{
	const struct cb_trial_scan *s = rd->scan;
	struct cb_result_trial t;
	long c;
	int clock;

	if (!s || cb_trial_scan(buf, len, rd->scan) != 1 ||
	    (r->n_trials && s->trial.seq <= r->trials[r->n_trials - 1].seq) ||
	    (c = scanned_cell(r, s)) < 0 || (clock = clock_index(r, s->clock.p, s->clock.len)) < 0)
		return 0;
	if (grow_trials(r, &rd->capacity) != 0)
		return -1;
	/* Anything but the cell's own unit is add_trial's to refuse. */
	if (r->cells[c].ops ? r->schema < 2 || !s->has_ops || s->has_bytes : s->has_ops)
		return 0;
	t = s->trial;
	t.line = lineno;
	if (r->cells[c].ops)
		t.bytes = s->ops;
	t.cell = (uint32_t)c;
	t.clock = (uint8_t)clock;
	if (s->error.p) {
		char *e = pool_alloc(r, s->error.len + 1);

		if (!e)
			return -1;
		memcpy(e, s->error.p, s->error.len);
		e[s->error.len] = '\0';
		t.error = e;
	}
	if (s->n_thread_ns) {
		double *ns = pool_alloc(r, s->n_thread_ns * sizeof *ns);

		if (!ns)
			return -1;
		memcpy(ns, s->thread_ns, s->n_thread_ns * sizeof *ns);
		t.thread_ns = ns;
		t.n_thread_ns = s->n_thread_ns;
	}
	r->trials[r->n_trials++] = t;
	return 1;
}

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
		if (add_trial(r, line, lineno, &rd->capacity, err, err_len) != 0)
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
			int taken = take_scanned(r, buf, len, lineno, rd);

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
	table_free(r);
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
	for (size_t i = 0; i < r->n_cells; i++)
		free_cell(&r->cells[i]);
	free(r->cells);
	free(r->trials);
	for (size_t i = 0; i < r->n_clocks; i++)
		free(r->clocks[i]);
	free(r->clocks);
	while (r->pool) {
		struct cb_results_pool *next = r->pool->next;

		free(r->pool);
		r->pool = next;
	}
	table_free(r);
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
