/* derive.c: declared ratios, slopes across sizes, crossovers. */
#include "analysis/verdicts/derive.h"
#include "analysis/verdicts/analysis_data.h"
#include "core/results/results.h"

#include "core/engine/engine.h"
#include "core/base/errbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/units.h"

void cb_derive_defaults(struct cb_derive_options *opt)
{
	opt->level = 0.95;
	opt->delta = 0.02;
}

/* ---- Cell dimensions ---- */

enum dim { DIM_ENGINE, DIM_LABEL, DIM_ALGORITHM, DIM_OP, DIM_SIZE, DIM_THREADS, N_DIMS };

static const char *const dim_names[N_DIMS] = {"engine", "label", "algorithm",
                                              "op",     "size",  "threads"};

static int dim_index(const char *name)
{
	for (int d = 0; d < N_DIMS; d++)
		if (strcmp(name, dim_names[d]) == 0)
			return d;
	return -1;
}

static const char *dim_text(const struct cb_result_cell *c, int d)
{
	switch (d) {
	case DIM_ENGINE:
		return c->engine;
	case DIM_LABEL:
		return c->label;
	case DIM_ALGORITHM:
		return c->algorithm;
	case DIM_OP:
		return c->op;
	}
	return NULL;
}

static unsigned long long dim_number(const struct cb_result_cell *c, int d)
{
	return d == DIM_SIZE ? (unsigned long long)c->size : c->threads;
}

static bool dim_equal(const struct cb_result_cell *a, const struct cb_result_cell *b, int d)
{
	return d < DIM_SIZE ? strcmp(dim_text(a, d), dim_text(b, d)) == 0
	                    : dim_number(a, d) == dim_number(b, d);
}

bool cb_derive_matches(const struct cb_result_cell *cell, json_t *selector)
{
	const char *key;
	json_t *v;

	json_object_foreach(selector, key, v)
	{
		int d = dim_index(key);

		if (d < 0)
			return false;
		if (d < DIM_SIZE
		        ? !json_is_string(v) || strcmp(json_string_value(v), dim_text(cell, d))
		        : !json_is_number(v) ||
		              (unsigned long long)json_number_value(v) != dim_number(cell, d))
			return false;
	}
	return true;
}

/* "name=value" of dimension D of C. */
static void dim_pair(const struct cb_result_cell *c, int d, char *buf, size_t len)
{
	if (d == DIM_SIZE) {
		char size[32];

		snprintf(buf, len, "size=%s", cb_format_size(c->size, size));
	} else if (d == DIM_THREADS) {
		snprintf(buf, len, "threads=%u", c->threads);
	} else {
		snprintf(buf, len, "%s=%s", dim_names[d], dim_text(c, d));
	}
}

/* ---- Ratios ---- */

/* What a declaration says, checked. */
struct declaration {
	const char *name;
	json_t *num, *den, *when;
	bool named[N_DIMS]; /* named by a selector: not paired on */
	int by[N_DIMS];
	size_t n_by;
	bool has_expect;
	double expect_value, expect_tolerance;
};

static int check_selector(json_t *sel, const char *name, const char *what, bool *named, char *err,
                          size_t err_len)
{
	const char *key;
	json_t *v;

	if (!json_is_object(sel)) {
		cb_errorf(err, err_len, "derived metric '%s': %s is not a selector object", name,
		          what);
		return -1;
	}
	json_object_foreach(sel, key, v)
	{
		int d = dim_index(key);

		if (d < 0) {
			cb_errorf(err, err_len, "derived metric '%s': unknown dimension '%s' in %s",
			          name, key, what);
			return -1;
		}
		if (named)
			named[d] = true;
	}
	return 0;
}

static int read_declaration(json_t *j, struct declaration *d, char *err, size_t err_len)
{
	json_t *ratio = json_object_get(j, "ratio"), *by = json_object_get(j, "by");
	json_t *expect = json_object_get(j, "expect"), *v;
	size_t i;

	memset(d, 0, sizeof *d);
	d->name = json_string_value(json_object_get(j, "name"));
	if (!d->name) {
		cb_errorf(err, err_len, "a derived metric without a name");
		return -1;
	}
	if (!json_is_array(ratio) || json_array_size(ratio) != 2) {
		cb_errorf(err, err_len,
		          "derived metric '%s': ratio is not [numerator, denominator]", d->name);
		return -1;
	}
	d->num = json_array_get(ratio, 0);
	d->den = json_array_get(ratio, 1);
	if (check_selector(d->num, d->name, "the numerator", d->named, err, err_len) != 0 ||
	    check_selector(d->den, d->name, "the denominator", d->named, err, err_len) != 0)
		return -1;
	/* A variant is an engine under a label: naming one names both. */
	if (d->named[DIM_ENGINE] || d->named[DIM_LABEL])
		d->named[DIM_ENGINE] = d->named[DIM_LABEL] = true;
	json_array_foreach(by, i, v)
	{
		int dim = json_is_string(v) ? dim_index(json_string_value(v)) : -1;

		if (dim < 0) {
			cb_errorf(err, err_len,
			          "derived metric '%s': 'by' names an unknown dimension", d->name);
			return -1;
		}
		d->by[d->n_by++] = dim;
		if (d->n_by == N_DIMS)
			break;
	}
	if (json_is_object(expect)) {
		d->has_expect = true;
		d->expect_value = json_number_value(json_object_get(expect, "value"));
		d->expect_tolerance = json_number_value(json_object_get(expect, "tolerance"));
		d->when = json_object_get(expect, "when");
		if (d->when && check_selector(d->when, d->name, "expect.when", NULL, err, err_len))
			return -1;
	}
	return 0;
}

/* NUM and DEN pair when they agree on every dimension no selector names. */
static bool paired(const struct declaration *d, const struct cb_result_cell *num,
                   const struct cb_result_cell *den)
{
	for (int dim = 0; dim < N_DIMS; dim++)
		if (!d->named[dim] && !dim_equal(num, den, dim))
			return false;
	return true;
}

static void by_text(const struct declaration *d, const struct cb_result_cell *c, char *buf,
                    size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->n_by && used < len; i++) {
		char pair[160];

		dim_pair(c, d->by[i], pair, sizeof pair);
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", pair);
	}
}

static json_t *by_json(const struct declaration *d, const struct cb_result_cell *c)
{
	json_t *o = json_object();

	for (size_t i = 0; i < d->n_by; i++) {
		int dim = d->by[i];

		json_object_set_new(o, dim_names[dim],
		                    dim < DIM_SIZE ? json_string(dim_text(c, dim))
		                                   : json_integer((json_int_t)dim_number(c, dim)));
	}
	return o;
}

static int push_note(struct cb_analysis *a, const char *fmt, ...)
{
	char buf[512], **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	grown = realloc(a->notes, (a->n_notes + 1) * sizeof *grown);
	if (!grown)
		return -1;
	a->notes = grown;
	if (!(a->notes[a->n_notes] = strdup(buf)))
		return -1;
	a->n_notes++;
	return 0;
}

/* The metric of declaration DECL at the `by` values of NUM, created on first sight. */
static struct cb_derived *metric_for(struct cb_analysis *a, const struct declaration *d,
                                     size_t decl, const struct cb_result_cell *num)
{
	char by[512], key[1024];
	struct cb_derived *m, *grown;

	by_text(d, num, by, sizeof by);
	snprintf(key, sizeof key, "%s%s%s", d->name, by[0] ? " " : "", by);
	for (size_t i = 0; i < a->n_derived; i++)
		if (strcmp(a->derived[i].key, key) == 0)
			return &a->derived[i];
	grown = realloc(a->derived, (a->n_derived + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	a->derived = grown;
	m = &a->derived[a->n_derived++];
	memset(m, 0, sizeof *m);
	m->name = d->name;
	m->decl = decl;
	m->by = strdup(by);
	m->key = strdup(key);
	m->by_json = by_json(d, num);
	m->has_expect = d->has_expect;
	m->expect_value = d->expect_value;
	m->expect_tolerance = d->expect_tolerance;
	return m->by && m->key ? m : NULL;
}

static int add_pair(struct cb_derived *m, size_t num, size_t den)
{
	size_t *n = realloc(m->num_cells, (m->n_pairs + 1) * sizeof *n);

	if (!n)
		return -1;
	m->num_cells = n;
	size_t *d = realloc(m->den_cells, (m->n_pairs + 1) * sizeof *d);
	if (!d)
		return -1;
	m->den_cells = d;
	m->num_cells[m->n_pairs] = num;
	m->den_cells[m->n_pairs++] = den;
	return 0;
}

/* Metrics sharing one of M's denominator cells (M included). */
static size_t family_of(const struct cb_analysis *a, size_t first, size_t end,
                        const struct cb_derived *m)
{
	size_t most = 1;

	for (size_t p = 0; p < m->n_pairs; p++) {
		size_t sharing = 0;

		for (size_t i = first; i < end; i++) {
			const struct cb_derived *o = &a->derived[i];
			bool uses = false;

			for (size_t q = 0; q < o->n_pairs && !uses; q++)
				uses = o->den_cells[q] == m->den_cells[p];
			sharing += uses;
		}
		if (sharing > most)
			most = sharing;
	}
	return most;
}

static int compute_ratio(struct cb_analysis *a, struct cb_derived *m, const struct declaration *d)
{
	const struct cb_run_summary *s = a->summary;
	size_t rounds = s->n_rounds, n = 0;
	double *num = malloc((rounds + 1) * sizeof *num);
	double *den = malloc((rounds + 1) * sizeof *den);
	const struct cb_cell_summary **cells = calloc(2 * m->n_pairs + 1, sizeof *cells);
	double *values = malloc((2 * m->n_pairs * rounds + 1) * sizeof *values);
	bool all_when = true;
	int rc = -1;

	if (!num || !den || !cells || !values)
		goto done;
	for (size_t p = 0; p < m->n_pairs; p++) {
		all_when &= !d->when || cb_derive_matches(s->cells[m->num_cells[p]].cell, d->when);
		cells[2 * p] = &s->cells[m->num_cells[p]];
		cells[2 * p + 1] = &s->cells[m->den_cells[p]];
	}
	m->measure = cb_measure_choose(a, cells, 2 * m->n_pairs);
	m->on_cycles = m->measure == CB_MEASURE_CYCLES;
	for (size_t i = 0; i < 2 * m->n_pairs; i++) /* pair p's rounds: 2p (num), 2p + 1 (den) */
		if (cb_measure_rounds(a, cells[i], m->measure, values + i * rounds) != 0)
			goto done;
	/* The pooled pairs of one round share its load and clock: one observation
	 * per round (the geometric means of its pairs), not one per pair, or the
	 * sign test would count the round's shared luck several times. */
	for (size_t r = 0; r < rounds; r++, n++) {
		double log_num = 0, log_den = 0;
		size_t used = 0;

		for (size_t p = 0; p < m->n_pairs; p++) {
			double x = values[2 * p * rounds + r], y = values[(2 * p + 1) * rounds + r];

			if (isnan(x) || isnan(y) || !(x > 0) || !(y > 0))
				continue;
			log_num += log(x);
			log_den += log(y);
			used++;
		}
		num[n] = used ? exp(log_num / (double)used) : NAN;
		den[n] = used ? exp(log_den / (double)used) : NAN;
	}
	m->has_expect = d->has_expect && all_when;
	m->level = cb_ratio_bonferroni(a->options.level, m->family);
	m->ok = cb_ratio_paired_by(num, den, n, m->level,
	                           cb_summary_ratio_how(s, m->on_cycles, cells, 2 * m->n_pairs),
	                           &m->ratio, m->why, sizeof m->why) == 0;
	if (m->ok) {
		m->verdict = cb_ratio_verdict(m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi,
		                              a->options.delta);
		if (m->has_expect)
			m->expectation =
			    cb_ratio_expect(m->ratio.value, m->ratio.ci.lo, m->ratio.ci.hi,
			                    m->expect_value, m->expect_tolerance);
	}
	rc = 0;
done:
	free(num);
	free(den);
	free(cells);
	free(values);
	return rc;
}

static int derive_declaration(struct cb_analysis *a, json_t *j, size_t decl, char *err,
                              size_t err_len)
{
	const struct cb_results *r = a->results;
	struct declaration d;
	size_t first = a->n_derived;

	if (read_declaration(j, &d, err, err_len) != 0)
		return -1;
	for (size_t i = 0; i < r->n_cells; i++) {
		if (!cb_derive_matches(&r->cells[i], d.num))
			continue;
		for (size_t k = 0; k < r->n_cells; k++) {
			struct cb_derived *m;

			if (k == i || !cb_derive_matches(&r->cells[k], d.den) ||
			    !paired(&d, &r->cells[i], &r->cells[k]))
				continue;
			if (!(m = metric_for(a, &d, decl, &r->cells[i])) ||
			    add_pair(m, i, k) != 0) {
				cb_errorf(err, err_len, "out of memory");
				return -1;
			}
		}
	}
	if (a->n_derived == first)
		return push_note(a, "derived metric '%s': no pair of cells matches its selectors",
		                 d.name);
	for (size_t i = first; i < a->n_derived; i++)
		a->derived[i].family = family_of(a, first, a->n_derived, &a->derived[i]);
	for (size_t i = first; i < a->n_derived; i++)
		if (compute_ratio(a, &a->derived[i], &d) != 0) {
			cb_errorf(err, err_len, "out of memory");
			return -1;
		}
	return 0;
}

/* ---- Slopes and crossovers ---- */

static bool same_curve(const struct cb_result_cell *a, const struct cb_result_cell *b)
{
	return strcmp(a->label, b->label) == 0 && strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->threads == b->threads;
}

static bool on_curve(const struct cb_result_trial *t)
{
	return t->valid && !t->warmup && t->ns > 0 && t->calls;
}

/* Fit the curve of cell FIRST (all cells of its label, algorithm, op, threads). */
static int fit_curve(struct cb_analysis *a, size_t first)
{
	const struct cb_results *r = a->results;
	const struct cb_result_cell *c0 = &r->cells[first];
	size_t n = 0, nc = 0, sizes = 0, points = 0;
	struct cb_slope sl = {.cell = c0};
	double *x = NULL, *y = NULL, *cy = NULL;
	char why[160];
	int rc = -1;

	for (size_t c = 0; c < r->n_cells; c++)
		if (same_curve(c0, &r->cells[c]) && a->summary->cells[c].n > 0)
			sizes++;
	if (sizes < 2)
		return 0;
	for (size_t i = 0; i < r->n_trials; i++)
		points += on_curve(&r->trials[i]) && same_curve(c0, &r->cells[r->trials[i].cell]);
	x = calloc(points + 1, sizeof *x);
	y = calloc(points + 1, sizeof *y);
	cy = calloc(points + 1, sizeof *cy);
	if (!x || !y || !cy)
		goto done;
	for (size_t i = 0; i < r->n_trials; i++) {
		const struct cb_result_trial *t = &r->trials[i];
		const struct cb_result_cell *c = &r->cells[t->cell];

		if (!on_curve(t) || !same_curve(c0, c))
			continue;
		x[n] = (double)c->size;
		y[n++] = t->ns / (double)t->calls;
		if (t->cycles > 0)
			cy[nc++] = t->cycles / (double)t->calls;
	}
	rc = 0;
	if (cb_curve_slope(x, y, n, a->options.level, &sl.ns, why, sizeof why) != 0)
		goto done; /* e.g. all at one size: nothing to fit, not an error */
	/* A clock counted in cycles (the sim's) gives the same points twice: the
	 * same fit, made once. */
	if (nc == n && memcmp(cy, y, n * sizeof *y) == 0) {
		sl.cycles = sl.ns;
		sl.have_cycles = true;
	} else {
		sl.have_cycles = nc == n && cb_curve_slope(x, cy, n, a->options.level, &sl.cycles,
		                                           why, sizeof why) == 0;
	}
	struct cb_slope *grown = realloc(a->slopes, (a->n_slopes + 1) * sizeof *grown);
	if (!grown) {
		rc = -1;
		goto done;
	}
	a->slopes = grown;
	a->slopes[a->n_slopes++] = sl;
done:
	free(x);
	free(y);
	free(cy);
	return rc;
}

static int derive_slopes(struct cb_analysis *a)
{
	const struct cb_results *r = a->results;

	for (size_t c = 0; c < r->n_cells; c++) {
		bool seen = false;

		for (size_t e = 0; e < c && !seen; e++)
			seen = same_curve(&r->cells[e], &r->cells[c]);
		if (!seen && fit_curve(a, c) != 0)
			return -1;
	}
	return 0;
}

/* The cell of A's curve shape (label, algorithm, op, threads from TEMPLATE) at SIZE, or -1. */
static long cell_at_size(const struct cb_analysis *a, const struct cb_result_cell *tmpl,
                         const char *label, const char *algorithm, uint64_t size)
{
	for (size_t c = 0; c < a->results->n_cells; c++) {
		const struct cb_result_cell *x = &a->results->cells[c];

		if (x->size == size && x->threads == tmpl->threads &&
		    strcmp(x->op, tmpl->op) == 0 && strcmp(x->label, label) == 0 &&
		    strcmp(x->algorithm, algorithm) == 0 && a->summary->cells[c].n > 0)
			return (long)c;
	}
	return -1;
}

static int compare_u64(const void *p, const void *q)
{
	uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;

	return a < b ? -1 : a > b;
}

/* Crossings of the curves through cells I and K (same op and threads). */
static int cross_pair(struct cb_analysis *a, size_t i, size_t k, const char *kind)
{
	const struct cb_results *r = a->results;
	const struct cb_result_cell *ci = &r->cells[i], *ck = &r->cells[k];
	size_t n = 0, from = 0;
	double *size = malloc(r->n_cells * sizeof *size);
	uint64_t *sizes = malloc(r->n_cells * sizeof *sizes);
	struct cb_estimate *ea = malloc(r->n_cells * sizeof *ea),
	                   *eb = malloc(r->n_cells * sizeof *eb);
	int rc = -1;

	if (!size || !sizes || !ea || !eb)
		goto done;
	for (size_t c = 0; c < r->n_cells; c++) { /* the sizes of I's curve, once each */
		bool dup = false;

		if (!same_curve(ci, &r->cells[c]))
			continue;
		for (size_t e = 0; e < n && !dup; e++)
			dup = sizes[e] == r->cells[c].size;
		if (!dup)
			sizes[n++] = r->cells[c].size;
	}
	qsort(sizes, n, sizeof *sizes, compare_u64);
	size_t m = 0;
	for (size_t j = 0; j < n; j++) {
		long p = cell_at_size(a, ci, ci->label, ci->algorithm, sizes[j]);
		long q = cell_at_size(a, ci, ck->label, ck->algorithm, sizes[j]);
		const struct cb_stats_summary *sa, *sb;

		if (p < 0 || q < 0)
			continue;
		sa = &a->summary->cells[p].mbs;
		sb = &a->summary->cells[q].mbs;
		size[m] = (double)sizes[j];
		ea[m] = (struct cb_estimate){sa->median, sa->median_ci.lo, sa->median_ci.hi};
		eb[m++] = (struct cb_estimate){sb->median, sb->median_ci.lo, sb->median_ci.hi};
	}
	while (m >= 2 && from + 1 < m) {
		struct cb_crossing x = {.kind = kind, .a = ci, .b = ck};

		if (cb_curve_crossover(size, ea, eb, m, from, &x.x, NULL, 0) != 1)
			break;
		struct cb_crossing *grown =
		    realloc(a->crossings, (a->n_crossings + 1) * sizeof *grown);
		if (!grown)
			goto done;
		a->crossings = grown;
		a->crossings[a->n_crossings++] = x;
		from = x.x.index + 1;
	}
	rc = 0;
done:
	free(size);
	free(sizes);
	free(ea);
	free(eb);
	return rc;
}

/* Pairs of curves at the same op and threads that differ in exactly one of
 * engine (same algorithm) or algorithm (same engine). Each pair is taken at
 * its smallest-index cells, once. The references (null: the harness, memcpy:
 * the memory ceiling) are no contenders: left out. */
static int derive_crossings(struct cb_analysis *a)
{
	const struct cb_results *r = a->results;

	for (size_t i = 0; i < r->n_cells; i++) {
		const struct cb_result_cell *ci = &r->cells[i];
		bool first_i = true;

		for (size_t e = 0; e < i && first_i; e++)
			first_i = !same_curve(&r->cells[e], ci);
		if (!first_i || cb_engine_is_reference(ci->engine))
			continue;
		for (size_t k = i + 1; k < r->n_cells; k++) {
			const struct cb_result_cell *ck = &r->cells[k];
			bool first_k = true, same_alg, same_label;

			for (size_t e = 0; e < k && first_k; e++)
				first_k = !same_curve(&r->cells[e], ck);
			if (!first_k || cb_engine_is_reference(ck->engine) ||
			    strcmp(ci->op, ck->op) != 0 || ci->threads != ck->threads)
				continue;
			same_alg = strcmp(ci->algorithm, ck->algorithm) == 0;
			same_label = strcmp(ci->label, ck->label) == 0;
			if (same_alg == same_label)
				continue;
			if (cross_pair(a, i, k, same_alg ? "engines" : "algorithms") != 0)
				return -1;
		}
	}
	return 0;
}

/* ---- The whole derivation ---- */

int cb_derive_build(struct cb_analysis *a, char *err, size_t err_len)
{
	json_t *decls = json_object_get(json_object_get(a->results->header, "scenario"), "derive"),
	       *j;
	size_t i;

	json_array_foreach(decls, i,
	                   j) if (derive_declaration(a, j, i, err, err_len) != 0) return -1;
	if (derive_slopes(a) != 0 || derive_crossings(a) != 0) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	return 0;
}

void cb_derive_free(struct cb_analysis *a)
{
	for (size_t i = 0; i < a->n_derived; i++) {
		free(a->derived[i].by);
		free(a->derived[i].key);
		free(a->derived[i].num_cells);
		free(a->derived[i].den_cells);
		json_decref(a->derived[i].by_json);
	}
	for (size_t i = 0; i < a->n_notes; i++)
		free(a->notes[i]);
	free(a->notes);
	free(a->derived);
	free(a->slopes);
	free(a->crossings);
}
