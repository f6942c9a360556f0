/* baseline.c: a run against a baseline run, cell by cell, and pooled. */
#include "analysis/baseline.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "core/errbuf.h"

int cb_baseline_pool(const double *y, const double *se, size_t k, double alpha,
                     struct cb_estimate *out)
{
	double sw = 0, sw2 = 0, swy = 0, q = 0, tau2 = 0, ws = 0, wsy = 0;
	double z = gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0);

	*out = (struct cb_estimate){NAN, NAN, NAN};
	if (k == 0)
		return -1;
	for (size_t i = 0; i < k; i++)
		if (!(isfinite(se[i]) && se[i] >= 0) || !isfinite(y[i]))
			return -1;
			/* Intervals of width 0 (a noiseless sim) would weigh infinitely: a floor
			 * far below any measured standard error keeps the arithmetic finite. */
#define VAR(i) (fmax(se[i], 1e-9) * fmax(se[i], 1e-9))
	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / VAR(i);

		sw += w;
		sw2 += w * w;
		swy += w * y[i];
	}
	for (size_t i = 0; i < k; i++)
		q += (y[i] - swy / sw) * (y[i] - swy / sw) / VAR(i);
	if (k > 1 && sw > sw2 / sw)
		tau2 = fmax(0.0, (q - (double)(k - 1)) / (sw - sw2 / sw));
	for (size_t i = 0; i < k; i++) {
		double w = 1.0 / (VAR(i) + tau2);

		ws += w;
		wsy += w * y[i];
	}
#undef VAR
	double mu = wsy / ws, half = z / sqrt(ws);
	*out = (struct cb_estimate){exp(mu), exp(mu - half), exp(mu + half)};
	return 0;
}

/* The cell of A with KEY and samples, or NULL. */
static const struct cb_cell_summary *cell_in(const struct cb_analysis *a, const char *key)
{
	long i = cb_results_find_cell(a->results, key);

	return i >= 0 && a->summary->cells[i].n > 0 ? &a->summary->cells[i] : NULL;
}

static bool same_cpu(const struct cb_analysis *a, const struct cb_analysis *b)
{
	const char *x = cb_results_header_string(a->results, "host", "cpu");
	const char *y = cb_results_header_string(b->results, "host", "cpu");

	return strcmp(x, y) == 0;
}

/* The measure's median with its interval in S; SCALE turns c/B into cycles per call. */
static struct cb_estimate estimate_of(const struct cb_cell_summary *s, enum cb_compare_measure m)
{
	const struct cb_stats_summary *x = m == CB_MEASURE_MBS ? &s->mbs : &s->cpb;
	double scale = m == CB_MEASURE_CPC ? s->bytes_per_call : 1.0;

	return (struct cb_estimate){x->median * scale, x->median_ci.lo * scale,
	                            x->median_ci.hi * scale};
}

static void judge(struct cb_baseline_row *row, const struct cb_compare_options *o, bool cycles)
{
	row->measure = !cycles                                ? CB_MEASURE_MBS
	               : row->base->cell->size < o->tiny_size ? CB_MEASURE_CPC
	                                                      : CB_MEASURE_CPB;
	row->delta = cycles ? o->delta_cycles : o->delta_mbs;
	row->base_e = estimate_of(row->base, row->measure);
	row->other_e = estimate_of(row->other, row->measure);
	row->base_level = row->base->mbs.median_ci.level;
	row->other_level = row->other->mbs.median_ci.level;
	/* The speed ratio: MB/s other over baseline, or cycles baseline over other. */
	if (row->measure == CB_MEASURE_MBS)
		cb_margin_ratio(&row->other_e, row->other_level, &row->base_e, row->base_level,
		                row->delta, o->repro.alpha, &row->margin);
	else
		cb_margin_ratio(&row->base_e, row->base_level, &row->other_e, row->other_level,
		                row->delta, o->repro.alpha, &row->margin);
	row->p_adjusted = row->margin.p_beyond;
}

static enum cb_ratio_verdict verdict_of(const struct cb_baseline_row *row, double alpha)
{
	if (row->margin.verdict == CB_MARGIN_WITHIN)
		return CB_RATIO_EQUIVALENT;
	if (row->margin.verdict == CB_MARGIN_BEYOND && row->p_adjusted < alpha)
		return row->margin.ratio > 1 ? CB_RATIO_FASTER : CB_RATIO_SLOWER;
	return CB_RATIO_NOT_RESOLVED;
}

/* Benjamini-Hochberg across the rows, then the verdicts and their pools. */
static int conclude(struct cb_baseline *b)
{
	size_t n = b->n_rows ? b->n_rows : 1;
	double *p = malloc(n * sizeof *p), *y = malloc(n * sizeof *y), *se = malloc(n * sizeof *se);
	int rc = -1;

	if (!p || !y || !se)
		goto done;
	for (size_t i = 0; i < b->n_rows; i++)
		p[i] = b->rows[i].margin.p_beyond;
	if (cb_repro_bh(p, b->n_rows, p) != 0)
		goto done;
	for (size_t i = 0; i < b->n_rows; i++) {
		struct cb_baseline_row *row = &b->rows[i];

		row->p_adjusted = p[i];
		row->verdict = verdict_of(row, b->alpha);
		row->family = row->margin.verdict == CB_MARGIN_BEYOND &&
		              row->verdict == CB_RATIO_NOT_RESOLVED;
		b->family_downgraded += row->family;
	}
	for (int v = 0; v < 4; v++) {
		size_t k = 0;

		for (size_t i = 0; i < b->n_rows; i++)
			if (b->rows[i].verdict == (enum cb_ratio_verdict)v &&
			    !isnan(b->rows[i].margin.se)) {
				y[k] = b->rows[i].margin.log_ratio;
				se[k++] = b->rows[i].margin.se;
			}
		b->pools[v].cells = 0;
		for (size_t i = 0; i < b->n_rows; i++)
			b->pools[v].cells += b->rows[i].verdict == (enum cb_ratio_verdict)v;
		cb_baseline_pool(y, se, k, b->alpha, &b->pools[v].ratio);
	}
	rc = 0;
done:
	free(p);
	free(y);
	free(se);
	return rc;
}

static int push_note(struct cb_baseline *b, const char *fmt, ...)
{
	char buf[1024], **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(grown = realloc(b->notes, (b->n_notes + 1) * sizeof *grown)))
		return -1;
	b->notes = grown;
	if (!(b->notes[b->n_notes] = strdup(buf)))
		return -1;
	b->n_notes++;
	return 0;
}

static const char *text_at(const struct cb_results *r, const char *obj, const char *key)
{
	return cb_results_header_string(r, obj, key);
}

/* What differs between the two configurations besides the numbers. */
static int note_differences(struct cb_baseline *b)
{
	const struct cb_results *x = b->other->results, *a = b->base->results;
	json_t *pa = json_object_get(json_object_get(a->header, "scenario"), "params");
	json_t *px = json_object_get(json_object_get(x->header, "scenario"), "params");
	json_t *ea = json_object_get(a->header, "engines"), *e;
	const char *key;
	json_t *v;
	size_t i;
	int rc = 0;

	if (strcmp(text_at(x, "scenario", "name"), text_at(a, "scenario", "name")) != 0)
		rc |= push_note(b, "scenario %s (baseline: %s)", text_at(x, "scenario", "name"),
		                text_at(a, "scenario", "name"));
	else if (strcmp(text_at(x, "scenario", "sha256"), text_at(a, "scenario", "sha256")) != 0)
		rc |= push_note(b, "the scenario's text differs (sha256)");
	json_object_foreach(px, key, v)
	{
		const char *p = json_string_value(json_object_get(v, "value"));
		const char *q =
		    json_string_value(json_object_get(json_object_get(pa, key), "value"));

		if (!p || !q || strcmp(p, q) != 0)
			rc |= push_note(b, "parameter %s = %s (baseline: %s)", key, p ? p : "?",
			                q ? q : "unset");
	}
	json_object_foreach(pa, key, v) if (!json_object_get(px, key)) rc |=
	    push_note(b, "parameter %s unset (baseline: %s)", key,
	              json_string_value(json_object_get(v, "value")) ?: "?");
	if (strcmp(text_at(x, "host", "cpu"), text_at(a, "host", "cpu")) != 0)
		rc |= push_note(b, "CPU %s (baseline: %s): judged on MB/s",
		                text_at(x, "host", "cpu"), text_at(a, "host", "cpu"));
	if (strcmp(text_at(x, "host", "hostname"), text_at(a, "host", "hostname")) != 0)
		rc |= push_note(b, "host %s (baseline: %s)", text_at(x, "host", "hostname"),
		                text_at(a, "host", "hostname"));
	json_array_foreach(json_object_get(x->header, "engines"), i, e)
	{
		const char *name = json_string_value(json_object_get(e, "name"));
		const char *ver = json_string_value(json_object_get(e, "version"));
		json_t *f;
		size_t k;

		json_array_foreach(ea, k, f)
		{
			const char *w = json_string_value(json_object_get(f, "version"));

			if (name && ver && w &&
			    strcmp(name, json_string_value(json_object_get(f, "name")) ?: "") ==
			        0 &&
			    strcmp(ver, w) != 0)
				rc |= push_note(b, "engine %s: %s (baseline: %s)", name, ver, w);
		}
	}
	if (x->interrupted)
		rc |= push_note(b, "the run was interrupted (partial)");
	if (a->interrupted)
		rc |= push_note(b, "the baseline run was interrupted (partial)");
	return rc ? -1 : 0;
}

int cb_baseline_build(const struct cb_analysis *base, const struct cb_analysis *other,
                      const struct cb_compare_options *opt, struct cb_baseline **out, char *err,
                      size_t err_len)
{
	struct cb_compare_options o;
	struct cb_baseline *b = calloc(1, sizeof *b);
	bool cpu = same_cpu(base, other);

	*out = NULL;
	if (opt)
		o = *opt;
	else
		cb_compare_defaults(&o);
	if (!b)
		goto oom;
	if (!(o.delta_cycles > 0 && o.delta_mbs > 0 && o.repro.alpha > 0 && o.repro.alpha < 0.5)) {
		cb_errorf(err, err_len, "baseline: margins must be positive, alpha in (0, 0.5)");
		free(b);
		return -1;
	}
	b->base = base;
	b->other = other;
	b->alpha = o.repro.alpha;
	if (!(b->rows = calloc(base->summary->n_cells + 1, sizeof *b->rows)))
		goto oom;
	for (size_t i = 0; i < base->summary->n_cells; i++) {
		const struct cb_cell_summary *s = &base->summary->cells[i];
		const struct cb_cell_summary *x = cell_in(other, s->cell->key);
		struct cb_baseline_row *row = &b->rows[b->n_rows];

		if (strcmp(s->cell->engine, "null") == 0)
			continue; /* the harness moves no bytes */
		if (s->n == 0 || !x) {
			b->only_base += s->n > 0;
			continue;
		}
		row->base = s;
		row->other = x;
		judge(row, &o, cpu && s->have_cycles && x->have_cycles);
		b->n_rows++;
	}
	for (size_t i = 0; i < other->summary->n_cells; i++) {
		const struct cb_cell_summary *x = &other->summary->cells[i];

		b->only_other += x->n > 0 && strcmp(x->cell->engine, "null") != 0 &&
		                 !cell_in(base, x->cell->key);
	}
	if (conclude(b) != 0 || note_differences(b) != 0)
		goto oom;
	*out = b;
	return 0;
oom:
	cb_errorf(err, err_len, "out of memory");
	cb_baseline_free(b);
	return -1;
}

void cb_baseline_free(struct cb_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_notes; i++)
		free(b->notes[i]);
	free(b->notes);
	free(b->rows);
	free(b);
}
