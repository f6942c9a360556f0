/* results_memory.c: where a read results file keeps what it reads: a pool
 * for the trials' strings and arrays, the clock names, and the cells, found
 * by their key through a hash table while reading (results_memory.h). */
#include "core/results/results_memory.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/algorithms/algorithm.h"

/* ---- Memory for the trials' strings and arrays ---- */

#define POOL_BLOCK ((size_t)64 << 10)

struct cb_results_pool {
	struct cb_results_pool *next;
	size_t used, size;
	max_align_t data[];
};

/* N bytes that stay put until the results are freed; NULL out of memory. */
void *cb_results_pool_alloc(struct cb_results *r, size_t n)
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

const char *cb_results_pool_strdup(struct cb_results *r, const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = cb_results_pool_alloc(r, n);

	return copy ? memcpy(copy, s, n) : NULL;
}

/* The index of the clock named NAME (NULL: 0, no clock); -1 out of memory or
 * when a file names more clocks than a trial can tell apart. */
int cb_results_clock_index(struct cb_results *r, const char *name, size_t len)
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

void cb_results_index_free(struct cb_results *r)
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

/* The index of CELL (checked by the trial reader) among the cells seen so far,
 * adding it when new; -1 out of memory. Cells are the same when their keys
 * ("label|algorithm|op|size|threads") are. */
long cb_results_cell_index(struct cb_results *r, json_t *cell)
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

static bool same_string(const char *s, const struct cb_scan_string *x)
{
	return strncmp(s, x->p, x->len) == 0 && s[x->len] == '\0';
}

/* The index of the cell a scanned trial names, or -1 when it is not known yet
 * (its first trial is read with jansson, which keeps its cell object). */
long cb_results_scanned_cell(const struct cb_results *r, const struct cb_trial_scan *t)
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

void cb_results_memory_free(struct cb_results *r)
{
	for (size_t i = 0; i < r->n_cells; i++)
		free_cell(&r->cells[i]);
	free(r->cells);
	r->cells = NULL;
	r->n_cells = 0;
	for (size_t i = 0; i < r->n_clocks; i++)
		free(r->clocks[i]);
	free(r->clocks);
	r->clocks = NULL;
	r->n_clocks = 0;
	while (r->pool) {
		struct cb_results_pool *next = r->pool->next;

		free(r->pool);
		r->pool = next;
	}
	cb_results_index_free(r);
}
