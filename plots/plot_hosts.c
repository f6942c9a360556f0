/* plot_hosts.c: hosts side by side. For files from several hosts (hosts.h),
 * one chart per engine: per algorithm, op, size (and threads) a group of
 * points, one per host, each the host's speed relative to the baseline host
 * with its interval, as compare gives it: the baseline host at 1 with its own
 * interval, every other host at its speed ratio with the ratio's interval,
 * the band of equivalence within delta shaded (where the hosts' rows were
 * judged with different margins, each row's own), and at the right each
 * host's verdict and its runs' reproducibility. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

#include "analysis/verdicts/hosts.h"

/* The row of cell KEY in pair P, or NULL. */
static const struct cb_baseline_row *row_of(const struct cb_hosts_pair *p, const char *key,
                                            size_t *at)
{
	for (size_t i = 0; i < p->b->n_rows; i++)
		if (strcmp(p->b->rows[i].base->cell->key, key) == 0) {
			*at = i;
			return &p->b->rows[i];
		}
	return NULL;
}

/* "2 runs reproduced", "1 run", "3 runs NON-REPRODUCIBLE" */
static void runs_text(size_t runs, const struct cb_compare_row *repro, char *buf, size_t len)
{
	const char *v = repro ? cb_repro_verdict_name(repro->repro.verdict) : "";
	bool loud = repro && (repro->repro.verdict == CB_REPRO_NON_REPRODUCIBLE ||
	                      repro->repro.verdict == CB_REPRO_CONTRADICTORY);
	size_t n =
	    (size_t)snprintf(buf, len, "%zu run%s%s", runs, runs == 1 ? "" : "s", repro ? " " : "");

	for (; *v && n + 1 < len; v++)
		buf[n++] = loud && *v >= 'a' && *v <= 'z' ? (char)(*v - 32) : *v;
	if (n < len)
		buf[n] = '\0';
}

/* The speed of estimate E of measure M relative to its own value: 1 with
 * the interval (cycles are inverted: fewer is faster). */
static void relative(const struct cb_estimate *e, enum cb_compare_measure m, double *lo, double *hi)
{
	*lo = m == CB_MEASURE_MBS ? e->lo / e->value : e->value / e->hi;
	*hi = m == CB_MEASURE_MBS ? e->hi / e->value : e->value / e->lo;
}

/* The cells of LABEL, in the baseline host's first run, that some pair
 * compares: into CELLS; their count. */
static size_t cells_of(const struct cb_hosts *h, const char *label,
                       const struct cb_cell_summary **cells)
{
	const struct cb_run_summary *s = h->hosts[0].runs[0]->summary;
	size_t n = 0, at;

	for (size_t i = 0; i < s->n_cells; i++) {
		bool compared = false;

		if (strcmp(s->cells[i].cell->label, label) != 0)
			continue;
		for (size_t p = 0; p + 1 < h->n && !compared; p++)
			compared = row_of(&h->pairs[p], s->cells[i].cell->key, &at) != NULL;
		if (compared)
			cells[n++] = &s->cells[i];
	}
	return n;
}

/* One host's block: each group's point. HOST 0 is the baseline host. */
static void host_block(FILE *f, const struct cb_hosts *h, size_t host,
                       const struct cb_cell_summary *const *cells, size_t n, bool thr,
                       size_t *blocks)
{
	const struct cb_host *me = &h->hosts[host];
	char head[600];

	snprintf(head, sizeof head, "%s%s (%zu run%s)", me->name, host ? "" : ", the baseline",
	         me->k, me->k == 1 ? "" : "s");
	plot_block(f, blocks, head);
	for (size_t g = 0; g < n; g++) {
		const struct cb_result_cell *c = cells[g]->cell;
		const struct cb_baseline_row *row = NULL;
		const struct cb_hosts_pair *p = NULL;
		char size[32], group[300], runs[96], label[300];
		double x, lo, hi;
		size_t at = 0;

		for (size_t i = 0; i + 1 < h->n && !row; i++)
			if ((host == 0 || h->pairs[i].host == host) &&
			    (row = row_of(&h->pairs[i], c->key, &at)))
				p = &h->pairs[i];
		if (!row)
			continue;
		plot_size(c->size, true, size, sizeof size);
		snprintf(group, sizeof group, "%s %s %s", c->algorithm, c->op, size);
		if (thr)
			snprintf(group + strlen(group), sizeof group - strlen(group),
			         " %u thread%s", c->threads, c->threads == 1 ? "" : "s");
		if (host == 0) {
			x = 1;
			relative(&row->base_e, row->measure, &lo, &hi);
			runs_text(row->base_runs, p->base_repro[at], runs, sizeof runs);
			snprintf(label, sizeof label, "%s: baseline, %s", me->name, runs);
		} else {
			x = row->margin.ratio;
			lo = row->margin.lo;
			hi = row->margin.hi;
			runs_text(row->other_runs, p->other_repro[at], runs, sizeof runs);
			snprintf(label, sizeof label, "%s: %s (%s)", me->name,
			         cb_ratio_verdict_name(row->verdict), runs);
		}
		const struct cb_estimate *mbs = host ? &row->other_mbs : &row->base_mbs;
		double band = host ? row->delta : NAN; /* the row's own margin */

		fprintf(f, "%ld", -(long)(g * (h->n + 1) + host));
		plot_num(f, x);
		plot_num(f, lo);
		plot_num(f, hi);
		fprintf(f, " \"%s\" \"%s\"", group, label);
		plot_num(f, mbs->value);
		plot_num(f, mbs->lo);
		plot_num(f, mbs->hi);
		plot_num(f, 1 / (1 + band));
		plot_num(f, 1 + band);
		fputc('\n', f);
	}
}

#define MAX_DELTAS 8

/* The distinct margins of LABEL's rows into DELTAS (at most MAX_DELTAS),
 * their count: more than one where hosts of another CPU model are judged on
 * MB/s, with its own margin, and the others on cycles. */
static size_t chart_deltas(const struct cb_hosts *h, const char *label, double *deltas)
{
	size_t n = 0;

	for (size_t p = 0; p + 1 < h->n; p++)
		for (size_t i = 0; i < h->pairs[p].b->n_rows; i++) {
			const struct cb_baseline_row *row = &h->pairs[p].b->rows[i];
			size_t k = 0;

			if (strcmp(row->base->cell->label, label) != 0)
				continue;
			while (k < n && deltas[k] != row->delta)
				k++;
			if (k == n && n < MAX_DELTAS)
				deltas[n++] = row->delta;
		}
	return n;
}

/* The template's band argument: "LO HI LABEL" for one margin; for several,
 * "rows LABEL" (each host's row shaded at its own margin, columns 10-11). */
static void band_text(const double *deltas, size_t n, char *buf, size_t len)
{
	size_t used;

	if (n == 1) {
		snprintf(buf, len, "%.6g %.6g ±delta (%g%%): equivalent", 1 / (1 + deltas[0]),
		         1 + deltas[0], deltas[0] * 100);
		return;
	}
	used = (size_t)snprintf(buf, len, "rows ±delta (");
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%g%%", i ? ", " : "",
		                         deltas[i] * 100);
	if (used < len)
		snprintf(buf + used, len - used, " by row): equivalent");
}

static int hosts_chart(struct plot_ctx *c, const struct cb_hosts *h, const char *label,
                       const struct cb_cell_summary **cells)
{
	size_t n = cells_of(h, label, cells), blocks = 0;
	bool thr = false;
	double deltas[MAX_DELTAS];
	size_t n_deltas = chart_deltas(h, label, deltas);
	char name[512], slug[400], title[512], what[512], band[160] = "", xlabel[400], ref[300];
	FILE *f;

	if (n == 0)
		return 0;
	for (size_t g = 1; g < n; g++)
		thr |= cells[g]->cell->threads != cells[0]->cell->threads;
	plot_slug(label, slug, sizeof slug);
	snprintf(name, sizeof name, "hosts-%s", slug);
	snprintf(what, sizeof what,
	         "%s on %zu hosts: each host's speed relative to the baseline host %s per "
	         "algorithm, op and size, a block per host",
	         label, h->n, h->hosts[0].name);
	if (!(f = plot_data_open(c, name, what)))
		return -1;
	fprintf(
	    f,
	    "# columns: y  ratio  lo  hi  group  label  MBps  MBps_lo  MBps_hi  band_lo  band_hi\n"
	    "#   y: the row, top to bottom (group g, host i at -(g*%zu + i));\n"
	    "#   ratio: the host's speed over the baseline host's (cycles per byte where\n"
	    "#   both counted cycles on one CPU model, else MB/s), lo, hi its %.0f%%\n"
	    "#   interval; the baseline host's row is 1 with its own interval. label: the\n"
	    "#   verdict and the host's runs with their reproducibility. MBps: the host's\n"
	    "#   median MB/s (its runs pooled) with its interval. band: the row's band of\n"
	    "#   equivalence, 1/(1+delta) to 1+delta, at the margin it was judged with\n"
	    "#   (NaN on the baseline host's row).\n",
	    h->n + 1, (1 - h->options.repro.alpha) * 100);
	for (size_t host = 0; host < h->n; host++)
		host_block(f, h, host, cells, n, thr, &blocks);
	snprintf(title, sizeof title, "%s on %zu hosts: speed against the baseline host %s", label,
	         h->n, h->hosts[0].name);
	snprintf(xlabel, sizeof xlabel,
	         "speed relative to %s (bars: %.0f%% intervals; %s's own around 1)",
	         h->hosts[0].name, (1 - h->options.repro.alpha) * 100, h->hosts[0].name);
	snprintf(ref, sizeof ref, "1: as fast as %s", h->hosts[0].name);
	if (n_deltas)
		band_text(deltas, n_deltas, band, sizeof band);
	const char *extra[] = {xlabel, "1", ref, band};
	return plot_chart_add(c, f, "hosts", name, title, c->where, extra, 4, false);
}

int cb_plot_hosts(struct plot_ctx *c, const struct cb_hosts *h)
{
	const struct cb_run_summary *s = h->hosts[0].runs[0]->summary;
	const char **labels = calloc(s->n_cells + 1, sizeof *labels);
	const struct cb_cell_summary **cells = calloc(s->n_cells + 1, sizeof *cells);
	const char *scenario = cb_results_header_string(h->hosts[0].files[0], "scenario", "name");
	size_t n, used;
	int rc = 0;

	if (!labels || !cells) {
		free(labels);
		free(cells);
		plot_err(c, "out of memory");
		return -1;
	}
	used = (size_t)snprintf(c->where, sizeof c->where, "%s · hosts ", scenario);
	for (size_t i = 0; i < h->n && used < sizeof c->where; i++)
		used += (size_t)snprintf(c->where + used, sizeof c->where - used,
		                         "%s%s (%zu run%s)", i ? ", " : "", h->hosts[i].name,
		                         h->hosts[i].k, h->hosts[i].k == 1 ? "" : "s");
	n = plot_distinct_str(s, plot_get_label, labels);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = hosts_chart(c, h, labels[i], cells);
	free(labels);
	free(cells);
	return rc;
}
