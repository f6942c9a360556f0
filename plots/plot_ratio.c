/* plot_ratio.c: a run's derived ratios (cb.derive{}), one chart per
 * declaration: each engine's ratio with its interval, a point per remaining
 * `by` combination (op, size, ...), and the declared expectation drawn as a
 * band. The figures are derive.h's. */
#include <stdlib.h>
#include <string.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

static void underscore(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	for (char *p = buf; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/* The chart of declaration DECL. */
static int ratio_chart(struct plot_ctx *c, json_t *decl, size_t di)
{
	const struct cb_analysis *a = c->a;
	const char *dname = json_string_value(json_object_get(decl, "name"));
	json_t *ratio = json_object_get(decl, "ratio"), *expect = json_object_get(decl, "expect");
	const char **cats = calloc(a->n_derived + 1, sizeof *cats);
	char **series = calloc(a->n_derived + 1, sizeof *series);
	size_t n_cats = 0, n_series = 0, n_ok = 0, blocks = 0;
	char name[512], slug[400], title[512], what[600], ylab[512], num[256], den[256];
	char ev[32] = "", et[32] = "", elab[256] = "", when[256] = "";
	FILE *f = NULL;
	int rc = -1;

	if (!cats || !series) {
		plot_err(c, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];
		char ser[256];
		size_t j;

		if (m->decl != di || !m->ok)
			continue;
		n_ok++;
		plot_join(m->by_json, PLOT_OTHER_PART, false, " ", ser, sizeof ser);
		for (j = 0; j < n_series && strcmp(series[j], ser) != 0; j++)
			;
		if (j == n_series && !(series[n_series++] = strdup(ser))) {
			plot_err(c, "out of memory");
			goto done;
		}
	}
	rc = 0;
	if (n_ok == 0) {
		rc = plot_note(c,
		               "no ratio chart for '%s': no metric could be computed (see report)",
		               dname ? dname : "?");
		goto done;
	}
	rc = -1;
	plot_join(json_array_get(ratio, 0), PLOT_ALL_PARTS, false, " ", num, sizeof num);
	plot_join(json_array_get(ratio, 1), PLOT_ALL_PARTS, false, " ", den, sizeof den);
	plot_slug(dname ? dname : "ratio", slug, sizeof slug);
	snprintf(name, sizeof name, "ratio-%s", slug);
	plot_fmt(title, sizeof title, "%s: throughput of %s / %s, per engine", dname ? dname : "?",
	         num, den);
	plot_fmt(what, sizeof what,
	         "derived ratio %s (throughput %s / %s, paired by round): block 0 names the "
	         "categories (x, engine), then a block per remaining 'by' combination",
	         dname ? dname : "?", num, den);
	plot_fmt(ylab, sizeof ylab,
	         "throughput ratio %s / %s (median of per-round ratios; bars: sign-test interval)",
	         num, den);
	if (json_is_object(expect)) {
		double v = json_number_value(json_object_get(expect, "value"));
		double t = json_number_value(json_object_get(expect, "tolerance"));

		snprintf(ev, sizeof ev, "%.6g", v);
		snprintf(et, sizeof et, "%.6g", t);
		plot_join(json_object_get(expect, "when"), PLOT_ALL_PARTS, true, ", ", when,
		          sizeof when);
		snprintf(elab, sizeof elab, "expected %.3f ± %g%%%s%s%s", v, t * 100,
		         when[0] ? " (where " : "", when, when[0] ? ")" : "");
	}
	if (!(f = plot_data_open(c, name, what)))
		goto done;
	fputs("# columns: category  ratio  lo  hi  rounds  level  verdict  expectation\n"
	      "#   ratio: median over rounds of numerator MB/s / denominator MB/s; lo, hi: its\n"
	      "#   sign-test interval at LEVEL (Bonferroni-adjusted when one baseline faces\n"
	      "#   several; NaN: none); verdict against 1 within delta; expectation: against\n"
	      "#   the declared value (none when it does not apply).\n",
	      f);
	if (ev[0])
		fprintf(f, "# expected value %s, relative tolerance %s%s%s\n", ev, et,
		        when[0] ? ", where " : "", when);
	plot_block(f, &blocks, "categories");
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];
		char cat[256];
		size_t j;

		if (m->decl != di || !m->ok)
			continue;
		plot_join(m->by_json, PLOT_ENGINE_PART, false, " ", cat, sizeof cat);
		for (j = 0; j < n_cats && strcmp(cats[j], cat) != 0; j++)
			;
		if (j == n_cats) {
			char *copy = strdup(cat[0] ? cat : (dname ? dname : "ratio"));

			if (!copy) {
				plot_err(c, "out of memory");
				fclose(f);
				goto done;
			}
			cats[n_cats++] = copy;
			/* Shown with the engine's version: the chart says what was measured. */
			if (cat[0] && m->n_pairs > 0)
				plot_label(c->r, &c->r->cells[m->num_cells[0]], cat, sizeof cat);
			fprintf(f, "%zu \"%s\"\n", j, cat[0] ? cat : copy);
		}
	}
	for (size_t s = 0; s < n_series; s++) {
		plot_block(f, &blocks, series[s][0] ? series[s] : (dname ? dname : "ratio"));
		for (size_t i = 0; i < a->n_derived; i++) {
			const struct cb_derived *m = &a->derived[i];
			char cat[256], ser[256], v1[32], v2[32];
			size_t j;

			if (m->decl != di || !m->ok)
				continue;
			plot_join(m->by_json, PLOT_OTHER_PART, false, " ", ser, sizeof ser);
			if (strcmp(ser, series[s]) != 0)
				continue;
			plot_join(m->by_json, PLOT_ENGINE_PART, false, " ", cat, sizeof cat);
			for (j = 0; j < n_cats &&
			            strcmp(cats[j], cat[0] ? cat : (dname ? dname : "ratio"));
			     j++)
				;
			fprintf(f, "%zu", j);
			plot_num(f, m->ratio.value);
			plot_num(f, m->ratio.ci.lo);
			plot_num(f, m->ratio.ci.hi);
			underscore(cb_ratio_verdict_name(m->verdict), v1, sizeof v1);
			underscore(m->has_expect ? cb_ratio_expectation_name(m->expectation)
			                         : "none",
			           v2, sizeof v2);
			fprintf(f, " %zu %.4g %s %s\n", m->ratio.n, m->level, v1, v2);
		}
	}
	const char *extra[] = {ev, et, elab, ylab};
	rc = plot_chart_add(c, f, "ratio", name, title, c->where, extra, 4, false);
done:
	for (size_t i = 0; cats && i < n_cats; i++)
		free((char *)cats[i]);
	for (size_t i = 0; series && i < n_series; i++)
		free(series[i]);
	free(cats);
	free(series);
	return rc;
}

int cb_plot_ratio_charts(struct plot_ctx *c)
{
	json_t *decls = json_object_get(json_object_get(c->r->header, "scenario"), "derive"), *d;
	size_t i;

	json_array_foreach(decls, i, d)
	{
		if (ratio_chart(c, d, i) != 0)
			return -1;
	}
	return 0;
}
