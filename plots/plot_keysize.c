/* plot_keysize.c: a run's public-key charts: operations per second against
 * the key size (the RSA modulus, the curve's field), a chart per scheme, op
 * and thread count, a line per engine, on log-log axes where the cost of the
 * arithmetic is a slope: guides of slope -2 and -3 start at the fastest
 * engine's smallest key (doc/method.md, "Public-key operations"). Every
 * figure is a cell's headline from summary.h; nothing is recomputed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/algorithms/algorithm.h"
#include "core/algorithms/pk.h"
#include "plots/plot.h"
#include "plots/plot_internal.h"

/* The public-key algorithm of cell I of S with samples, or NULL (a byte
 * cell, no samples, or an algorithm this build does not know). */
static const struct cb_algorithm *pk_alg(const struct cb_run_summary *s, size_t i)
{
	const struct cb_algorithm *alg;

	if (s->cells[i].n == 0 || !s->cells[i].cell->ops)
		return NULL;
	alg = cb_algorithm_find(s->cells[i].cell->algorithm);
	return alg && cb_alg_is_pk(alg) ? alg : NULL;
}

/* Whether cell I belongs to the chart of cell G (same scheme, op, threads). */
static bool same_chart(const struct cb_run_summary *s, size_t i, size_t g)
{
	const struct cb_algorithm *a = pk_alg(s, i), *b = pk_alg(s, g);

	return a && b && a->scheme == b->scheme &&
	       s->cells[i].cell->threads == s->cells[g].cell->threads &&
	       strcmp(s->cells[i].cell->op, s->cells[g].cell->op) == 0;
}

/* The cell of the chart of G with LABEL and BITS, or NULL. */
static const struct cb_cell_summary *find(const struct cb_run_summary *s, size_t g,
                                          const char *label, unsigned bits)
{
	for (size_t i = 0; i < s->n_cells; i++)
		if (same_chart(s, i, g) && pk_alg(s, i)->bits == bits &&
		    strcmp(s->cells[i].cell->label, label) == 0)
			return &s->cells[i];
	return NULL;
}

/* The key's name on the x axis: "2048" (RSA), "P-256", "Ed25519". */
static void key_name(const struct cb_algorithm *alg, char *buf, size_t len)
{
	if (alg->curve)
		snprintf(buf, len, "%s", alg->curve);
	else if (cb_pk_info(alg)->family == CB_PK_FAMILY_RSA)
		snprintf(buf, len, "%u", alg->bits);
	else
		snprintf(buf, len, "%s", cb_pk_info(alg)->title);
}

static int keysize_chart(struct plot_ctx *c, size_t g, bool many_threads)
{
	const struct cb_run_summary *s = c->a->summary;
	const struct cb_result_cell *gc = s->cells[g].cell;
	const struct cb_algorithm *ga = pk_alg(s, g);
	size_t n = s->n_cells, blocks = 0, n_bits = 0, n_labels, n_drawn = 0, n_switched = 0;
	unsigned *bits = malloc(n * sizeof *bits);
	const char **labels = malloc(n * sizeof *labels);
	char name[512], suf[64], title[512], what[512], label[256], key[64], ylab[256];
	char x0[32], y0[32];
	double best = NAN;
	FILE *f = NULL;
	int rc = -1;

	if (!bits || !labels) {
		plot_err(c, "out of memory");
		goto done;
	}
	/* The chart's key sizes, ascending, and its engines in order. */
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		if (!same_chart(s, i, g))
			continue;
		while (k < n_bits && bits[k] < pk_alg(s, i)->bits)
			k++;
		if (k < n_bits && bits[k] == pk_alg(s, i)->bits)
			continue;
		memmove(bits + k + 1, bits + k, (n_bits - k) * sizeof *bits);
		bits[k] = pk_alg(s, i)->bits;
		n_bits++;
	}
	n_labels = plot_distinct_str(s, plot_get_label, labels);
	/* The guides start at the fastest engine's smallest key. */
	for (size_t l = 0; l < n_labels; l++) {
		const struct cb_cell_summary *cs = find(s, g, labels[l], bits[0]);
		struct cb_headline h;

		if (!cs)
			continue;
		cb_summary_headline(cs, c->opt->statistic, &h);
		if (h.mbs > 0 && !(h.mbs * 1e6 <= best))
			best = h.mbs * 1e6;
	}
	suf[0] = '\0';
	if (many_threads)
		snprintf(suf, sizeof suf, "-%u%s", gc->threads,
		         gc->threads > 1 ? "threads" : "thread");
	snprintf(name, sizeof name, "keysize-%s-%s%s", cb_pk_info(ga)->slug, gc->op, suf);
	if (many_threads)
		snprintf(suf, sizeof suf, ", %u %s", gc->threads,
		         gc->threads > 1 ? "threads" : "thread");
	snprintf(title, sizeof title, "%s %s: operations per second against the key size%s",
	         cb_pk_info(ga)->title, gc->op, suf);
	snprintf(what, sizeof what,
	         "%s %s operations per second against the key size%s, a block "
	         "per engine",
	         cb_pk_info(ga)->title, gc->op, suf);
	if (!(f = plot_data_open(c, name, what)))
		goto done;
	fputs("# columns: key_bits  ops_per_s  lo  hi  n  statistic  flagged  key\n"
	      "#   ops_per_s: operations per second (all threads) of the statistic named;\n"
	      "#   lo, hi: its 95% interval (NaN: none); n: samples; flagged: 1 when the\n"
	      "#   cell shows contamination, drift or lag-1 dependence (see its timeline);\n"
	      "#   key: the key's name on the x axis (the modulus, or the curve).\n",
	      f);
	for (size_t l = 0; l < n_labels; l++) {
		bool opened = false;

		for (size_t b = 0; b < n_bits; b++) {
			const struct cb_cell_summary *cs = find(s, g, labels[l], bits[b]);
			struct cb_headline h;
			const char *word;

			if (!cs)
				continue;
			if (!opened) {
				plot_label(c->r, cs->cell, label, sizeof label);
				plot_block(f, &blocks, label);
				opened = true;
			}
			cb_summary_headline(cs, c->opt->statistic, &h);
			n_drawn++;
			n_switched += h.switched;
			key_name(pk_alg(s, (size_t)(cs - s->cells)), key, sizeof key);
			fprintf(f, "%u", bits[b]);
			plot_num(f, h.mbs * 1e6);
			plot_num(f, h.lo * 1e6);
			plot_num(f, h.hi * 1e6);
			/* The statistic's word, in operations (max_MBps is min time). */
			word = h.stat ? h.stat->word : h.name;
			fprintf(f, " %zu %s %d \"%s\"\n", cs->n,
			        strcmp(word, "max_MBps") == 0 ? "min_time" : word,
			        cb_summary_flagged(cs) ? 1 : 0, key);
		}
	}
	snprintf(x0, sizeof x0, "%u", bits[0]);
	snprintf(y0, sizeof y0, "%.6g", n_bits > 1 && best > 0 ? best : 0.0);
	/* auto rings the cells it draws at their minimum time; where it so
	 * draws every cell, no ring tells them apart and the label says it. */
	snprintf(ylab, sizeof ylab, "operations per second, log scale (%s)",
	         c->opt->statistic != CB_STAT_AUTO ? cb_statistics[c->opt->statistic].chart
	         : n_switched == n_drawn           ? "min time: every cell here contaminated"
	                                           : "median, 95% bars; ringed: min time");
	const char *extra[] = {ylab, x0, y0};
	rc = plot_chart_add(c, f, "keysize", name, title, c->where, extra, 3, false);
done:
	free(bits);
	free(labels);
	return rc;
}

int cb_plot_keysize_charts(struct plot_ctx *c)
{
	const struct cb_run_summary *s = c->a->summary;
	bool many_threads = false;

	for (size_t i = 0; i < s->n_cells; i++)
		for (size_t j = 0; j < i; j++)
			if (pk_alg(s, i) && pk_alg(s, j) &&
			    s->cells[i].cell->threads != s->cells[j].cell->threads)
				many_threads = true;
	/* A chart per scheme, op and thread count, drawn at its first cell. */
	for (size_t i = 0; i < s->n_cells; i++) {
		bool first = pk_alg(s, i) != NULL;

		for (size_t j = 0; j < i && first; j++)
			first = !same_chart(s, j, i);
		if (first && keysize_chart(c, i, many_threads) != 0)
			return -1;
	}
	return 0;
}
