/* attribution.c: a results file's profile lines pooled per cell, and the
 * extensions each engine's hot code holds per algorithm, op and size
 * (attribution.h). */
#include "analysis/verdicts/attribution.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/stats.h"
#include "core/base/errbuf.h"

const char *const cb_attribution_classes[] = {
    "base",   "sse",        "ssse3/sse4", "avx",    "avx2", "avx512", "aes-ni",  "vaes",
    "pclmul", "vpclmulqdq", "sha-ni",     "bmi",    "adx",  "asimd",  "sve",     "aes",
    "pmull",  "sha1",       "sha2",       "sha512", "sha3", "other",  "unknown", NULL};

/* x86-64's, then AArch64's. */
const char *const cb_attribution_extensions[] = {
    "sha-ni", "aes-ni", "vaes", "pclmul", "vpclmulqdq", "avx512", "avx2", "sha2",
    "sha512", "sha3",   "sha1", "aes",    "pmull",      "sve",    NULL};

static int class_index(const char *name)
{
	for (int i = 0; cb_attribution_classes[i]; i++)
		if (strcmp(cb_attribution_classes[i], name) == 0)
			return i;
	return -1;
}

void cb_attribution_classes_text(uint32_t classes, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; cb_attribution_classes[i] && used < len; i++)
		if (classes & (1u << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
			                         cb_attribution_classes[i]);
}

/* ---- Counting ---- */

static uint64_t count_of(json_t *j)
{
	return json_is_integer(j) && json_integer_value(j) > 0 ? (uint64_t)json_integer_value(j)
	                                                       : 0;
}

/* Add the {class: samples} object CLASSES into *PARTS (one per class). */
static int add_classes(struct cb_attribution_share **parts, size_t *n, json_t *classes)
{
	const char *name;
	json_t *v;

	json_object_foreach(classes, name, v)
	{
		size_t i = 0;

		while (i < *n && strcmp((*parts)[i].what, name) != 0)
			i++;
		if (i == *n) {
			struct cb_attribution_share *more =
			    realloc(*parts, (*n + 1) * sizeof *more);

			if (!more)
				return -1;
			*parts = more;
			more[(*n)++] = (struct cb_attribution_share){.what = name};
		}
		(*parts)[i].samples += count_of(v);
	}
	return 0;
}

static uint32_t present_of(json_t *present)
{
	uint32_t set = 0;
	size_t i;
	json_t *c;

	json_array_foreach(present, i, c)
	{
		int k = json_is_string(c) ? class_index(json_string_value(c)) : -1;

		if (k >= 0)
			set |= 1u << k;
	}
	return set;
}

/* Add function F of a profile into cell C: one entry per object and name,
 * or per object and offset where there is no name. A symbol's name covers
 * every range of its function (the unwind tables may cut one function in
 * several, a compiler's cold part apart), so its ranges are one function. */
static int add_function(struct cb_attribution_cell *c, json_t *f)
{
	const char *object = json_string_value(json_object_get(f, "object")) ?: "[unknown]";
	const char *name = json_string_value(json_object_get(f, "name"));
	const char *hint = json_string_value(json_object_get(f, "hint"));
	uint64_t offset = count_of(json_object_get(f, "offset"));
	json_t *present = json_object_get(f, "present");
	struct cb_attribution_function *fn = NULL;
	char display[512];

	cb_attribution_function_name(object, offset, name, hint, display, sizeof display);
	for (size_t i = 0; i < c->n_functions && !fn; i++)
		if ((name || c->functions[i].offset == offset) &&
		    strcmp(c->functions[i].object, object) == 0 &&
		    strcmp(c->functions[i].name, display) == 0)
			fn = &c->functions[i];
	if (!fn) {
		struct cb_attribution_function *more =
		    realloc(c->functions, (c->n_functions + 1) * sizeof *more);

		if (!more)
			return -1;
		c->functions = more;
		fn = &more[c->n_functions];
		*fn =
		    (struct cb_attribution_function){.object = object,
		                                     .offset = offset,
		                                     .side = cb_attribution_side_of(object, name)};
		if (!(fn->name = strdup(display)))
			return -1;
		c->n_functions++;
	}
	fn->part.samples += count_of(json_object_get(f, "samples"));
	if (json_is_array(present)) {
		fn->present |= present_of(present);
		fn->decoded = true;
	}
	return 0;
}

/* The cell of LINE's cell object, found or added. NULL when memory runs out. */
static struct cb_attribution_cell *cell_of(struct cb_attribution *e, json_t *cell)
{
	const char *label = json_string_value(json_object_get(cell, "label"));
	const char *engine = json_string_value(json_object_get(cell, "engine")) ?: "?";
	const char *algorithm = json_string_value(json_object_get(cell, "algorithm")) ?: "?";
	const char *op = json_string_value(json_object_get(cell, "op")) ?: "?";
	uint64_t size = count_of(json_object_get(cell, "size"));
	json_t *threads = json_object_get(cell, "threads");
	unsigned n_threads = json_is_integer(threads) ? (unsigned)json_integer_value(threads) : 1;
	struct cb_attribution_cell *more;
	char key[1024];

	if (!label)
		label = engine;
	snprintf(key, sizeof key, "%s|%s|%s|%llu|%u", label, algorithm, op,
	         (unsigned long long)size, n_threads);
	for (size_t i = 0; i < e->n_cells; i++)
		if (strcmp(e->cells[i].key, key) == 0)
			return &e->cells[i];
	if (!(more = realloc(e->cells, (e->n_cells + 1) * sizeof *more)))
		return NULL;
	e->cells = more;
	more += e->n_cells;
	*more = (struct cb_attribution_cell){.engine = engine,
	                                     .label = label,
	                                     .algorithm = algorithm,
	                                     .op = op,
	                                     .size = size,
	                                     .threads = n_threads,
	                                     .cost = NAN};
	if (!(more->key = strdup(key)))
		return NULL;
	e->n_cells++;
	return more;
}

/* A profiled trial's cost, and its cell's place. */
struct cost {
	size_t cell;
	double cost;
};

static int add_line(struct cb_attribution *e, json_t *line, struct cost **costs, size_t *n_costs)
{
	struct cb_attribution_cell *c = cell_of(e, json_object_get(line, "cell"));
	json_t *p = json_object_get(line, "profile"), *cost = json_object_get(line, "cost"), *f;
	size_t i;

	if (!c)
		return -1;
	/* A line without samples (refused, or a twin: explain = { twins = true })
	 * says nothing of what sampling costs. */
	if (!json_is_object(p)) {
		c->refused_trials++;
		if (!c->refused)
			c->refused =
			    json_string_value(json_object_get(line, "refused")) ?: "no profile";
		return 0;
	}
	if (json_is_number(cost)) {
		struct cost *more = realloc(*costs, (*n_costs + 1) * sizeof *more);

		if (!more)
			return -1;
		*costs = more;
		more[(*n_costs)++] = (struct cost){(size_t)(c - e->cells), json_number_value(cost)};
	}
	c->trials++;
	if (!c->sampler)
		c->sampler = json_string_value(json_object_get(p, "sampler"));
	if (!c->degraded)
		c->degraded = json_string_value(json_object_get(p, "degraded"));
	c->samples += count_of(json_object_get(p, "samples"));
	if (add_classes(&c->before, &c->n_before, json_object_get(p, "classes_before")) != 0 ||
	    add_classes(&c->at, &c->n_at, json_object_get(p, "classes")) != 0)
		return -1;
	json_array_foreach(json_object_get(p, "functions"), i, f)
	{
		if (json_is_object(f) && add_function(c, f) != 0)
			return -1;
	}
	return 0;
}

/* ---- Shares ---- */

static void set_share(struct cb_attribution_share *s, uint64_t total)
{
	if (total == 0 || s->samples > total) {
		s->share = s->lo = s->hi = NAN;
		return;
	}
	s->share = (double)s->samples / (double)total;
	cb_stats_proportion_interval(s->samples, total, CB_ATTRIBUTION_LEVEL, &s->lo, &s->hi);
}

static int by_samples(const void *a, const void *b)
{
	const struct cb_attribution_share *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->what, y->what); /* ties in a fixed order */
}

static int by_function_samples(const void *a, const void *b)
{
	const struct cb_attribution_function *x = a, *y = b;

	if (x->part.samples != y->part.samples)
		return x->part.samples < y->part.samples ? 1 : -1;
	return strcmp(x->name, y->name); /* ties in a fixed order */
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the costs of cell C. */
static double median_cost(const struct cost *costs, size_t n, size_t c)
{
	double *v = malloc((n ? n : 1) * sizeof *v), m = NAN;
	size_t k = 0;

	if (!v)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (costs[i].cell == c)
			v[k++] = costs[i].cost;
	if (k) {
		qsort(v, k, sizeof *v, by_value);
		m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
	return m;
}

static void finish_cell(struct cb_attribution_cell *c)
{
	/* qsort wants an array even of none: a cell of refused profiles has none */
	if (c->n_before)
		qsort(c->before, c->n_before, sizeof *c->before, by_samples);
	if (c->n_at)
		qsort(c->at, c->n_at, sizeof *c->at, by_samples);
	if (c->n_functions)
		qsort(c->functions, c->n_functions, sizeof *c->functions, by_function_samples);
	for (size_t i = 0; i < c->n_before; i++)
		set_share(&c->before[i], c->samples);
	for (size_t i = 0; i < c->n_at; i++)
		set_share(&c->at[i], c->samples);
	for (int s = 0; s < CB_SIDE_COUNT; s++)
		c->sides[s] = (struct cb_attribution_share){.what = cb_attribution_side_name(s)};
	for (size_t i = 0; i < c->n_functions; i++) {
		struct cb_attribution_function *f = &c->functions[i];

		set_share(&f->part, c->samples);
		c->sides[f->side].samples += f->part.samples;
		if (c->samples &&
		    (double)f->part.samples >= CB_ATTRIBUTION_HOT * (double)c->samples) {
			c->present |= f->present;
			c->present_known |= f->decoded;
		}
	}
	for (int s = 0; s < CB_SIDE_COUNT; s++)
		set_share(&c->sides[s], c->samples);
}

/* ---- The summary ---- */

static bool same_group(const struct cb_attribution_cell *a, const struct cb_attribution_cell *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->op, b->op) == 0 &&
	       a->size == b->size;
}

/* Append "WHAT" to the list TEXT (", " between). */
static int append(char **text, const char *what)
{
	size_t used = *text ? strlen(*text) : 0;
	char *more = realloc(*text, used + strlen(what) + 3);

	if (!more)
		return -1;
	snprintf(more + used, strlen(what) + 3, "%s%s", used ? ", " : "", what);
	*text = more;
	return 0;
}

/* The row of EXTENSION (class index K) for the group of cell FIRST. */
static int summary_row(struct cb_attribution *e, size_t first, int k,
                       struct cb_attribution_summary *row)
{
	const struct cb_attribution_cell *g = &e->cells[first];

	*row = (struct cb_attribution_summary){.algorithm = g->algorithm,
	                                       .op = g->op,
	                                       .size = g->size,
	                                       .extension = cb_attribution_classes[k]};
	for (size_t i = first; i < e->n_cells; i++) {
		const struct cb_attribution_cell *c = &e->cells[i];
		struct cb_attribution_engine_use *u;
		char name[300], part[64];
		char **list;

		if (!same_group(c, g) || c->trials == 0)
			continue;
		if (!(u = realloc(row->engines, (row->n_engines + 1) * sizeof *u)))
			return -1;
		row->engines = u;
		u += row->n_engines++;
		*u = (struct cb_attribution_engine_use){
		    .label = c->label,
		    .threads = c->threads,
		    .uses = !c->present_known ? -1 : (c->present & (1u << k)) != 0,
		    .part = {.what = cb_attribution_classes[k]}};
		for (size_t f = 0; f < c->n_functions; f++)
			if (c->functions[f].present & (1u << k))
				u->part.samples += c->functions[f].part.samples;
		set_share(&u->part, c->samples);
		if (c->threads > 1)
			snprintf(name, sizeof name, "%s (%u threads)", c->label, c->threads);
		else
			snprintf(name, sizeof name, "%s", c->label);
		list = u->uses > 0 ? &row->uses : u->uses == 0 ? &row->not_used : &row->unknown;
		if (u->uses > 0) {
			snprintf(part, sizeof part, " %.1f%% [%.1f, %.1f]", u->part.share * 100,
			         u->part.lo * 100, u->part.hi * 100);
			strncat(name, part, sizeof name - strlen(name) - 1);
		}
		if (append(list, name) != 0)
			return -1;
	}
	if ((!row->uses && append(&row->uses, "") != 0) ||
	    (!row->not_used && append(&row->not_used, "") != 0) ||
	    (!row->unknown && append(&row->unknown, "") != 0))
		return -1;
	return 0;
}

static int build_summary(struct cb_attribution *e)
{
	for (size_t first = 0; first < e->n_cells; first++) {
		bool seen = false;

		for (size_t i = 0; i < first && !seen; i++)
			seen = same_group(&e->cells[i], &e->cells[first]);
		if (seen)
			continue;
		for (int x = 0; cb_attribution_extensions[x]; x++) {
			int k = class_index(cb_attribution_extensions[x]);
			bool anyone = false;
			struct cb_attribution_summary *more;

			for (size_t i = first; i < e->n_cells && !anyone; i++)
				anyone = same_group(&e->cells[i], &e->cells[first]) &&
				         e->cells[i].trials && (e->cells[i].present & (1u << k));
			if (!anyone)
				continue;
			if (!(more = realloc(e->summary, (e->n_summary + 1) * sizeof *more)))
				return -1;
			e->summary = more;
			if (summary_row(e, first, k, &more[e->n_summary++]) != 0)
				return -1;
		}
	}
	return 0;
}

static int add_refusal(struct cb_attribution *e, const char *reason)
{
	struct cb_attribution_refusal *more;

	for (size_t i = 0; i < e->n_refusals; i++)
		if (strcmp(e->refusals[i].reason, reason) == 0) {
			e->refusals[i].cells++;
			return 0;
		}
	if (!(more = realloc(e->refusals, (e->n_refusals + 1) * sizeof *more)))
		return -1;
	e->refusals = more;
	more[e->n_refusals++] = (struct cb_attribution_refusal){reason, 1};
	return 0;
}

/* ---- Entry ---- */

struct cb_attribution *cb_attribution_build(const struct cb_results *r, char *err, size_t err_len)
{
	struct cb_attribution *e = calloc(1, sizeof *e);
	struct cost *costs = NULL;
	size_t n_costs = 0, i;
	json_t *line;

	if (!e)
		goto fail;
	json_array_foreach(r->profiles, i, line)
	{
		if (add_line(e, line, &costs, &n_costs) != 0)
			goto fail;
		e->lines++;
	}
	for (i = 0; i < e->n_cells; i++) {
		struct cb_attribution_cell *c = &e->cells[i];

		finish_cell(c);
		c->cost = median_cost(costs, n_costs, i);
		if (c->trials == 0 && add_refusal(e, c->refused) != 0)
			goto fail;
	}
	if (build_summary(e) != 0)
		goto fail;
	free(costs);
	return e;
fail:
	free(costs);
	cb_attribution_free(e);
	cb_errorf(err, err_len, "out of memory");
	return NULL;
}

void cb_attribution_free(struct cb_attribution *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n_cells; i++) {
		struct cb_attribution_cell *c = &e->cells[i];

		for (size_t f = 0; f < c->n_functions; f++)
			free(c->functions[f].name);
		free(c->functions);
		free(c->before);
		free(c->at);
		free(c->key);
	}
	free(e->cells);
	for (size_t i = 0; i < e->n_summary; i++) {
		free(e->summary[i].engines);
		free(e->summary[i].uses);
		free(e->summary[i].not_used);
		free(e->summary[i].unknown);
	}
	free(e->summary);
	free(e->refusals);
	free(e);
}
