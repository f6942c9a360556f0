/* plot_forest.c: the picture of reproducibility. For runs compared
 * (compare.h), a forest plot per derived declaration and per algorithm and
 * op: each run's estimate with its interval, then the across-run value with
 * its t-interval and the verdict beside it.
 *
 * Ratios are drawn as they are, against 1 and the declared expectation.
 * Cell throughputs differ by orders of magnitude between engines and sizes,
 * so each is drawn relative to its own across-run value: 1 is that value, and
 * a run's distance from it reads as a percentage on one axis for all. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

/* The subtitle of compared runs: the first run's machine, and the runs' dates. */
static void forest_where(struct plot_ctx *c, const struct cb_compare *cmp)
{
	const char *first = json_string_value(json_object_get(cmp->files[0]->header, "started"));
	const char *last =
	    json_string_value(json_object_get(cmp->files[cmp->k - 1]->header, "started"));

	plot_where(cmp->files[0], false, c->where, sizeof c->where);
	snprintf(c->where + strlen(c->where), sizeof c->where - strlen(c->where),
	         " · %zu runs, %.10s to %.10s", cmp->k, first ? first : "?", last ? last : "?");
}

static const char *verdict_text(const struct cb_compare_row *row, char *buf, size_t len)
{
	const char *v = cb_repro_verdict_name(row->repro.verdict);

	if (row->repro.verdict == CB_REPRO_NON_REPRODUCIBLE ||
	    row->repro.verdict == CB_REPRO_CONTRADICTORY) {
		size_t i = 0;

		for (; v[i] && i + 1 < len; i++)
			buf[i] = (char)(v[i] >= 'a' && v[i] <= 'z' ? v[i] - 32 : v[i]);
		buf[i] = '\0';
	} else
		snprintf(buf, len, "%s", v);
	if (row->has_expect)
		snprintf(buf + strlen(buf), len - strlen(buf), "; expectation %s",
		         cb_ratio_expectation_name(row->expectation));
	return buf;
}

/* One chart: the rows ROWS[0..n-1] as groups, top to bottom. RELATIVE draws
 * each against its across-run value. */
static int forest(struct plot_ctx *c, const struct cb_compare *cmp,
                  const struct cb_compare_row *const *rows, size_t n, bool relative,
                  const char *name, const char *title, const char *what, const char *const extra[4])
{
	size_t blocks = 0, slots = cmp->k + 2;
	FILE *f = plot_data_open(c, name, what);

	if (!f)
		return -1;
	fprintf(f,
	        "# columns (run blocks): y  estimate  lo  hi  group%s\n"
	        "# columns (across runs): y  value  lo  hi  group  verdict%s\n"
	        "#   y: the row, top to bottom (group g: runs at -(g*%zu + run), across\n"
	        "#   runs at -(g*%zu + %zu)); lo, hi: the run's 95%% interval (NaN: none), or\n"
	        "#   the across-run t-interval (geometric mean of the runs).\n",
	        relative ? "  MBps  MBps_lo  MBps_hi" : "",
	        relative ? "  MBps  MBps_lo  MBps_hi" : "", slots, slots, cmp->k);
	if (relative)
		fputs("#   estimate, lo, hi are relative to the across-run value; MBps columns\n"
		      "#   hold the absolute figures.\n",
		      f);
	for (size_t r = 0; r <= cmp->k; r++) {
		char head[600];

		if (r < cmp->k) {
			const char *path = cmp->files[r]->path, *slash = strrchr(path, '/');

			snprintf(head, sizeof head, "run %zu (%s)", r + 1,
			         slash ? slash + 1 : path);
		} else
			snprintf(head, sizeof head, "across runs (t-interval, where reproduced)");
		plot_block(f, &blocks, head);
		for (size_t g = 0; g < n; g++) {
			const struct cb_compare_row *row = rows[g];
			const struct cb_estimate *e =
			    r < cmp->k ? &row->runs[r].e : &row->repro.value;
			double scale = relative ? row->repro.value.value : 1;
			char group[300];

			/* The across-run value is drawn where the table gives it: only
			 * for a reproduced row (the row and its verdict stay). */
			bool withheld = r == cmp->k && row->repro.verdict != CB_REPRO_REPRODUCED;
			const struct cb_estimate none = {NAN, NAN, NAN};

			if ((r < cmp->k && !row->runs[r].present) || isnan(e->value) ||
			    !(scale > 0))
				continue;
			if (withheld)
				e = &none;
			if (row->kind == CB_ROW_CELL) {
				char size[32], pooled[64] = "";

				plot_size(row->cell->size, true, size, sizeof size);
				if (row->repro.value.value > 0 &&
				    row->repro.verdict == CB_REPRO_REPRODUCED)
					snprintf(pooled, sizeof pooled, " (%.4g MB/s)",
					         row->repro.value.value);
				snprintf(group, sizeof group, "%s %s%s", row->cell->label, size,
				         pooled);
			} else
				plot_join(row->derived->by_json, PLOT_ALL_PARTS, false, " ", group,
				          sizeof group);
			fprintf(f, "%ld", -(long)(g * slots + r));
			plot_num(f, e->value / scale);
			plot_num(f, e->lo / scale);
			plot_num(f, e->hi / scale);
			fprintf(f, " \"%s\"", group[0] ? group : row->key);
			if (r == cmp->k) {
				char verdict[128];

				fprintf(f, " \"%s\"", verdict_text(row, verdict, sizeof verdict));
			}
			if (relative) {
				plot_num(f, e->value);
				plot_num(f, e->lo);
				plot_num(f, e->hi);
			}
			fputc('\n', f);
		}
	}
	return plot_chart_add(c, f, "forest", name, title, c->where, extra, 4, false);
}

static int derived_forests(struct plot_ctx *c, const struct cb_compare *cmp,
                           const struct cb_compare_row **rows)
{
	json_t *decls =
	    json_object_get(json_object_get(cmp->files[0]->header, "scenario"), "derive");
	json_t *d;
	size_t di;

	json_array_foreach(decls, di, d)
	{
		const char *dname = json_string_value(json_object_get(d, "name"));
		json_t *expect = json_object_get(d, "expect");
		char name[512], slug[400], title[512], what[512], band[256] = "";
		size_t n = 0;

		for (size_t i = 0; i < cmp->n_rows; i++)
			if (cmp->rows[i].kind == CB_ROW_DERIVED &&
			    cmp->rows[i].derived->decl == di && cmp->rows[i].present > 0)
				rows[n++] = &cmp->rows[i];
		if (n == 0)
			continue;
		plot_slug(dname ? dname : "ratio", slug, sizeof slug);
		snprintf(name, sizeof name, "forest-%s", slug);
		snprintf(title, sizeof title,
		         "%s across %zu runs: each run's ratio and the across-run value",
		         dname ? dname : "?", cmp->k);
		snprintf(
		    what, sizeof what,
		    "derived ratio %s in each of %zu runs: a block per run, then the across-run "
		    "value with the verdict",
		    dname ? dname : "?", cmp->k);
		if (json_is_object(expect)) {
			double v = json_number_value(json_object_get(expect, "value"));
			double t = json_number_value(json_object_get(expect, "tolerance"));
			char when[200];

			plot_join(json_object_get(expect, "when"), PLOT_ALL_PARTS, true, ", ", when,
			          sizeof when);
			plot_fmt(band, sizeof band, "%.6g %.6g expected %.3f ± %g%%%s%s%s",
			         v * (1 - t), v * (1 + t), v, t * 100, when[0] ? " (where " : "",
			         when, when[0] ? ")" : "");
		}
		const char *extra[] = {"throughput ratio (bars: each run's sign-test interval)",
		                       "1", "1: no difference", band};
		if (forest(c, cmp, rows, n, false, name, title, what, extra) != 0)
			return -1;
	}
	return 0;
}

static bool same_chart(const struct cb_result_cell *a, const struct cb_result_cell *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->op, b->op) == 0 &&
	       a->threads == b->threads;
}

static int cell_forests(struct plot_ctx *c, const struct cb_compare *cmp,
                        const struct cb_compare_row **rows)
{
	bool several = false;

	for (size_t i = 0; i < cmp->n_rows; i++)
		several |= cmp->rows[i].kind == CB_ROW_CELL &&
		           cmp->rows[i].cell->threads != cmp->rows[0].cell->threads;
	for (size_t i = 0; i < cmp->n_rows; i++) {
		const struct cb_compare_row *first = &cmp->rows[i];
		char name[512], slug[400], title[512], what[512], band[128], thr[32] = "";
		double delta = cmp->options.derive.delta;
		bool seen = false;
		size_t n = 0;

		if (first->kind != CB_ROW_CELL || first->present == 0)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = cmp->rows[j].kind == CB_ROW_CELL && cmp->rows[j].present > 0 &&
			       same_chart(cmp->rows[j].cell, first->cell);
		if (seen)
			continue;
		for (size_t j = i; j < cmp->n_rows; j++)
			if (cmp->rows[j].kind == CB_ROW_CELL && cmp->rows[j].present > 0 &&
			    same_chart(cmp->rows[j].cell, first->cell) &&
			    strcmp(cmp->rows[j].cell->engine, "null") != 0)
				rows[n++] = &cmp->rows[j];
		if (n == 0)
			continue;
		if (several)
			snprintf(thr, sizeof thr, " %uthread%s", first->cell->threads,
			         first->cell->threads > 1 ? "s" : "");
		snprintf(what, sizeof what, "%s %s%s", first->cell->algorithm, first->cell->op,
		         thr);
		if (several)
			snprintf(thr, sizeof thr, ", %u thread%s", first->cell->threads,
			         first->cell->threads > 1 ? "s" : "");
		plot_slug(what, slug, sizeof slug);
		snprintf(name, sizeof name, "forest-cells-%s", slug);
		snprintf(
		    title, sizeof title,
		    "%s %s%s across %zu runs: each run's median MB/s against the across-run value",
		    first->cell->algorithm, first->cell->op, thr, cmp->k);
		snprintf(what, sizeof what,
		         "median throughput of %s %s%s in each of %zu runs, relative to the "
		         "across-run value: a block per run, then the across-run value with the "
		         "verdict",
		         first->cell->algorithm, first->cell->op, thr, cmp->k);
		snprintf(band, sizeof band, "%.6g %.6g ±delta (%g%%): the practical threshold",
		         1 / (1 + delta), 1 + delta, delta * 100);
		const char *extra[] = {"run median / across-run value (bars: 95% intervals)", "1",
		                       "1: the across-run value", band};
		if (forest(c, cmp, rows, n, true, name, title, what, extra) != 0)
			return -1;
	}
	return 0;
}

int cb_plot_forests(struct plot_ctx *c, const struct cb_compare *cmp)
{
	const struct cb_compare_row **rows = malloc((cmp->n_rows + 1) * sizeof *rows);
	int rc;

	if (!rows) {
		plot_err(c, "out of memory");
		return -1;
	}
	forest_where(c, cmp);
	rc = derived_forests(c, cmp, rows);
	if (rc == 0)
		rc = cell_forests(c, cmp, rows);
	free(rows);
	return rc;
}
