/* plot_charts.c: a run's throughput charts: against payload size (per
 * algorithm and per engine), encrypt against decrypt, and against threads.
 * Every figure is a cell's headline from summary.h; nothing is recomputed.
 * Public-key cells count operations, not bytes: plot_keysize.c draws them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plot.h"
#include "plots/plot_internal.h"

/* Whether cell I of S is drawn here: it has samples and counts bytes. */
static bool drawn(const struct cb_run_summary *s, size_t i)
{
	return s->cells[i].n > 0 && !s->cells[i].cell->ops;
}

/* The byte cell of S with these dimensions and samples, or NULL. */
static const struct cb_cell_summary *find(const struct cb_run_summary *s, const char *label,
                                          const char *alg, const char *op, unsigned long long size,
                                          unsigned long long threads)
{
	for (size_t i = 0; i < s->n_cells; i++) {
		const struct cb_result_cell *c = s->cells[i].cell;

		if (drawn(s, i) && c->size == size && c->threads == threads &&
		    strcmp(c->label, label) == 0 && strcmp(c->algorithm, alg) == 0 &&
		    strcmp(c->op, op) == 0)
			return &s->cells[i];
	}
	return NULL;
}

static bool has_cells(const struct cb_run_summary *s, const char *label, const char *alg,
                      const char *op, unsigned long long threads)
{
	for (size_t i = 0; i < s->n_cells; i++) {
		const struct cb_result_cell *c = s->cells[i].cell;

		if (drawn(s, i) && c->threads == threads &&
		    (!label || strcmp(c->label, label) == 0) &&
		    (!alg || strcmp(c->algorithm, alg) == 0) && (!op || strcmp(c->op, op) == 0))
			return true;
	}
	return false;
}

/* The statistic's short name for a data column (no spaces). */
static const char *stat_word(const struct cb_headline *h)
{
	return h->stat ? h->stat->word : h->name;
}

static void headline_row(FILE *f, double x, const struct cb_cell_summary *cs,
                         enum cb_statistic stat)
{
	struct cb_headline h;

	cb_summary_headline(cs, stat, &h);
	fprintf(f, "%.6g", x);
	plot_num(f, h.mbs);
	plot_num(f, h.lo);
	plot_num(f, h.hi);
	fprintf(f, " %zu %s %d\n", cs->n, stat_word(&h), cb_summary_flagged(cs) ? 1 : 0);
}

/* A headline row followed by the throughput relative to BEST (the fastest
 * engine's headline at this size): rel, rel_lo, rel_hi. */
static void headline_row_rel(FILE *f, double x, const struct cb_cell_summary *cs,
                             enum cb_statistic stat, double best)
{
	struct cb_headline h;

	cb_summary_headline(cs, stat, &h);
	fprintf(f, "%.6g", x);
	plot_num(f, h.mbs);
	plot_num(f, h.lo);
	plot_num(f, h.hi);
	fprintf(f, " %zu %s %d", cs->n, stat_word(&h), cb_summary_flagged(cs) ? 1 : 0);
	plot_num(f, h.mbs / best);
	plot_num(f, h.lo / best);
	plot_num(f, h.hi / best);
	fputc('\n', f);
}

static const char throughput_columns[] =
    "# columns: %s  MBps  lo  hi  n  statistic  flagged\n"
    "#   MBps: throughput in MB/s (10^6 bytes/s, all threads) of the statistic named;\n"
    "#   lo, hi: its 95%% interval (NaN: none); n: samples; flagged: 1 when the cell\n"
    "#   shows contamination, drift or lag-1 dependence (see its timeline).\n";

struct dims {
	const char **labels, **algs, **ops;
	size_t n_labels, n_algs, n_ops;
	unsigned long long *sizes, *threads;
	size_t n_sizes, n_threads;
};

static void threads_suffix(const struct dims *d, unsigned long long t, bool name, char *buf,
                           size_t len)
{
	buf[0] = '\0';
	if (d->n_threads > 1)
		snprintf(buf, len, name ? "-%llu%s" : ", %llu %s", t, t > 1 ? "threads" : "thread");
}

/* Labels in drawing order into ORDER: engines first, then the references
 * (null, memcpy). Returns the number of references. */
static size_t label_order(const struct cb_run_summary *s, const struct dims *d, const char **order)
{
	size_t n = 0, refs = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < d->n_labels; i++) {
			const struct cb_cell_summary *cs = NULL;

			for (size_t j = 0; j < s->n_cells && !cs; j++)
				if (strcmp(s->cells[j].cell->label, d->labels[i]) == 0)
					cs = &s->cells[j];
			if (plot_is_reference(cs->cell) != (pass == 1))
				continue;
			order[n++] = d->labels[i];
			refs += pass == 1;
		}
	return refs;
}

static const struct cb_result_cell *cell_of_label(const struct cb_run_summary *s, const char *label)
{
	for (size_t j = 0; j < s->n_cells; j++)
		if (strcmp(s->cells[j].cell->label, label) == 0)
			return s->cells[j].cell;
	return NULL;
}

/* The throughput axis's label: short, to fit a panel's height at print size. */
static const char *ylabel_throughput(struct plot_ctx *c, bool log_scale, char *buf, size_t len)
{
	/* auto's cells drawn at their minimum time are ringed: the key says so. */
	snprintf(buf, len, "MB/s%s (%s)", log_scale ? ", log scale" : "",
	         c->opt->statistic == CB_STAT_AUTO ? "median, 95% bars; ringed: min time"
	                                           : cb_statistics[c->opt->statistic].chart);
	return buf;
}

/* The highest headline MB/s among the engines (not the references) of ALG,
 * OP, SIZE and T; NaN when none. */
static double fastest_at(struct plot_ctx *c, const struct dims *d, const char **order, size_t refs,
                         const char *alg, const char *op, unsigned long long size,
                         unsigned long long t)
{
	double best = NAN;

	for (size_t l = 0; l + refs < d->n_labels; l++) {
		const struct cb_cell_summary *cs = find(c->a->summary, order[l], alg, op, size, t);
		struct cb_headline h;

		if (!cs || strcmp(cs->cell->engine, "null") == 0)
			continue;
		cb_summary_headline(cs, c->opt->statistic, &h);
		if (h.mbs > 0 && !(h.mbs <= best))
			best = h.mbs;
	}
	return best;
}

/* Throughput against size of ALG and OP at T threads, a line per engine. */
static int size_by_algorithm(struct plot_ctx *c, const struct dims *d, const char **order,
                             size_t refs, const char *alg, const char *op, unsigned long long t)
{
	const struct cb_run_summary *s = c->a->summary;
	char name[512], slug[400], suf[64], title[512], what[512], label[256], nref[16], ylab[256];
	size_t blocks = 0, drawn_refs = 0, sizes = 0;
	FILE *f;

	for (size_t z = 0; z < d->n_sizes; z++)
		for (size_t l = 0; l < d->n_labels; l++)
			if (find(s, order[l], alg, op, d->sizes[z], t)) {
				sizes++;
				break;
			}
	if (sizes == 0)
		return 0;
	threads_suffix(d, t, true, suf, sizeof suf);
	snprintf(what, sizeof what, "%s %s", alg, op);
	plot_slug(what, slug, sizeof slug);
	snprintf(name, sizeof name, "size-algorithm-%s%s", slug, suf);
	threads_suffix(d, t, false, suf, sizeof suf);
	snprintf(title, sizeof title, "%s %s: throughput against payload size, per engine%s", alg,
	         op, suf);
	snprintf(what, sizeof what,
	         "throughput against payload size of %s %s%s, a block per engine", alg, op, suf);
	if (!(f = plot_data_open(c, name, what)))
		return -1;
	fprintf(f, throughput_columns, "size_bytes");
	fputs("#   then rel  rel_lo  rel_hi: MBps, lo and hi over the fastest engine's MBps\n"
	      "#   at that size (NaN for the references, such as memcpy: no contenders).\n",
	      f);
	for (size_t l = 0; l < d->n_labels; l++) {
		size_t points = 0;

		/* null moves no bytes: its "throughput" only grows with the size and
		 * would squash every other line. Its cost is in its timelines. */
		if (strcmp(cell_of_label(s, order[l])->engine, "null") == 0)
			continue;
		for (size_t z = 0; z < d->n_sizes; z++)
			points += find(s, order[l], alg, op, d->sizes[z], t) != NULL;
		if (points == 0)
			continue;
		plot_label(c->r, cell_of_label(s, order[l]), label, sizeof label);
		plot_block(f, &blocks, label);
		drawn_refs += l >= d->n_labels - refs;
		for (size_t z = 0; z < d->n_sizes; z++) {
			const struct cb_cell_summary *cs =
			    find(s, order[l], alg, op, d->sizes[z], t);

			/* A reference is no contender: nothing over the fastest. */
			if (cs)
				headline_row_rel(
				    f, (double)d->sizes[z], cs, c->opt->statistic,
				    plot_is_reference(cs->cell)
				        ? NAN
				        : fastest_at(c, d, order, refs, alg, op, d->sizes[z], t));
		}
	}
	snprintf(nref, sizeof nref, "%zu", drawn_refs);
	const char *extra[] = {nref, ylabel_throughput(c, true, ylab, sizeof ylab), "relative"};
	return plot_chart_add(c, f, "size-algorithm", name, title, c->where, extra, 3, false);
}

/* Throughput against size of engine LABEL at T threads, a line per algorithm and op. */
static int size_by_engine(struct plot_ctx *c, const struct dims *d, const char *label,
                          unsigned long long t)
{
	const struct cb_run_summary *s = c->a->summary;
	char name[512], slug[400], suf[64], title[512], what[512], who[256], line[256], ylab[256];
	size_t blocks = 0, sizes = 0;
	FILE *f;

	for (size_t z = 0; z < d->n_sizes; z++)
		for (size_t i = 0; i < s->n_cells; i++)
			if (drawn(s, i) && s->cells[i].cell->size == d->sizes[z] &&
			    s->cells[i].cell->threads == t &&
			    strcmp(s->cells[i].cell->label, label) == 0) {
				sizes++;
				break;
			}
	if (sizes == 0)
		return 0;
	plot_label(c->r, cell_of_label(s, label), who, sizeof who);
	threads_suffix(d, t, true, suf, sizeof suf);
	plot_slug(label, slug, sizeof slug);
	snprintf(name, sizeof name, "size-engine-%s%s", slug, suf);
	threads_suffix(d, t, false, suf, sizeof suf);
	snprintf(title, sizeof title, "%s: throughput against payload size, per algorithm%s", who,
	         suf);
	snprintf(what, sizeof what,
	         "throughput against payload size of %s%s, a block per algorithm and op", who, suf);
	if (!(f = plot_data_open(c, name, what)))
		return -1;
	fprintf(f, throughput_columns, "size_bytes");
	for (size_t a = 0; a < d->n_algs; a++)
		for (size_t o = 0; o < d->n_ops; o++) {
			if (!has_cells(s, label, d->algs[a], d->ops[o], t))
				continue;
			/* A hash has one op: its name says it. */
			if (strcmp(d->ops[o], "hash") == 0)
				snprintf(line, sizeof line, "%s", d->algs[a]);
			else
				snprintf(line, sizeof line, "%s %s", d->algs[a], d->ops[o]);
			plot_block(f, &blocks, line);
			for (size_t z = 0; z < d->n_sizes; z++) {
				const struct cb_cell_summary *cs =
				    find(s, label, d->algs[a], d->ops[o], d->sizes[z], t);

				if (cs)
					headline_row(f, (double)d->sizes[z], cs, c->opt->statistic);
			}
		}
	const char *extra[] = {"0", ylabel_throughput(c, true, ylab, sizeof ylab)};
	return plot_chart_add(c, f, "size-engine", name, title, c->where, extra, 2, false);
}

/* Encrypt against decrypt of engine LABEL at T threads: a pair of bars per
 * algorithm (and size, when there are several). */
static int encrypt_decrypt(struct plot_ctx *c, const struct dims *d, const char *label,
                           unsigned long long t)
{
	const struct cb_run_summary *s = c->a->summary;
	char name[512], slug[400], suf[64], title[512], what[512], who[256], size[32], ylab[256];
	const struct cb_cell_summary **enc, **dec;
	size_t blocks = 0, n = 0, max = d->n_algs * d->n_sizes;
	FILE *f;
	int rc = -1;

	enc = malloc((max ? max : 1) * sizeof *enc);
	dec = malloc((max ? max : 1) * sizeof *dec);
	if (!enc || !dec) {
		plot_err(c, "out of memory");
		goto done;
	}
	for (size_t a = 0; a < d->n_algs; a++)
		for (size_t z = 0; z < d->n_sizes; z++) {
			enc[n] = find(s, label, d->algs[a], "encrypt", d->sizes[z], t);
			dec[n] = find(s, label, d->algs[a], "decrypt", d->sizes[z], t);
			n += enc[n] && dec[n];
		}
	rc = 0;
	if (n == 0)
		goto done;
	rc = -1;
	plot_label(c->r, cell_of_label(s, label), who, sizeof who);
	threads_suffix(d, t, true, suf, sizeof suf);
	plot_slug(label, slug, sizeof slug);
	snprintf(name, sizeof name, "encrypt-decrypt-%s%s", slug, suf);
	threads_suffix(d, t, false, suf, sizeof suf);
	snprintf(title, sizeof title, "%s: encrypt against decrypt throughput%s", who, suf);
	snprintf(what, sizeof what,
	         "encrypt and decrypt throughput of %s%s: block 0 names the categories "
	         "(x, label), then a block per op",
	         who, suf);
	if (!(f = plot_data_open(c, name, what)))
		goto done;
	fprintf(f, throughput_columns, "category");
	plot_block(f, &blocks, "categories");
	for (size_t i = 0; i < n; i++) {
		plot_size(enc[i]->cell->size, true, size, sizeof size);
		fprintf(f, "%zu \"%s%s%s\"\n", i, enc[i]->cell->algorithm,
		        d->n_sizes > 1 ? " " : "", d->n_sizes > 1 ? size : "");
	}
	plot_block(f, &blocks, "encrypt");
	for (size_t i = 0; i < n; i++)
		headline_row(f, (double)i, enc[i], c->opt->statistic);
	plot_block(f, &blocks, "decrypt");
	for (size_t i = 0; i < n; i++)
		headline_row(f, (double)i, dec[i], c->opt->statistic);
	const char *extra[] = {ylabel_throughput(c, false, ylab, sizeof ylab)};
	rc = plot_chart_add(c, f, "encrypt-decrypt", name, title, c->where, extra, 1, false);
done:
	free(enc);
	free(dec);
	return rc;
}

/* Speedup with threads of ALG, OP, SIZE: each engine's throughput over its
 * own at the fewest threads, so engines of any speed share one axis and one
 * ideal line (speedup = threads / fewest threads). */
static int threads_chart(struct plot_ctx *c, const struct dims *d, const char **order, size_t refs,
                         const char *alg, const char *op, unsigned long long size)
{
	const struct cb_run_summary *s = c->a->summary;
	char name[512], slug[400], title[512], what[512], label[256], sz[32], nref[16], ylab[256];
	size_t blocks = 0, drawn_refs = 0;
	FILE *f = NULL;

	plot_size(size, false, sz, sizeof sz);
	snprintf(what, sizeof what, "%s %s %s", alg, op, sz);
	plot_slug(what, slug, sizeof slug);
	snprintf(name, sizeof name, "threads-%s", slug);
	plot_size(size, true, sz, sizeof sz);
	for (size_t l = 0; l < d->n_labels; l++) {
		const struct cb_cell_summary *base = NULL;
		struct cb_headline h0;
		size_t points = 0;

		/* null moves no bytes (see size_by_algorithm). */
		if (strcmp(cell_of_label(s, order[l])->engine, "null") == 0)
			continue;
		for (size_t t = 0; t < d->n_threads; t++) {
			const struct cb_cell_summary *cs =
			    find(s, order[l], alg, op, size, d->threads[t]);

			if (cs && !base)
				base = cs;
			points += cs != NULL;
		}
		if (points < 2)
			continue;
		cb_summary_headline(base, c->opt->statistic, &h0);
		if (!(h0.mbs > 0))
			continue;
		if (!f) {
			snprintf(title, sizeof title,
			         "%s %s, %s per call: speedup with threads, against the ideal", alg,
			         op, sz);
			snprintf(what, sizeof what,
			         "throughput of %s %s at %s against threads, a block per engine",
			         alg, op, sz);
			if (!(f = plot_data_open(c, name, what)))
				return -1;
			fputs(
			    "# columns: threads  speedup  lo  hi  MBps  MBps_lo  MBps_hi  n  "
			    "statistic"
			    "  flagged\n"
			    "#   speedup: MBps / MBps at the engine's fewest threads (lo, hi: the\n"
			    "#   interval of MBps over the same); MBps: throughput of all threads\n"
			    "#   together, MB/s = 10^6 bytes/s, of the statistic named, with its "
			    "95%\n"
			    "#   interval (NaN: none); flagged: contamination, drift or lag-1.\n",
			    f);
		}
		plot_label(c->r, base->cell, label, sizeof label);
		plot_block(f, &blocks, label);
		drawn_refs += l >= d->n_labels - refs;
		for (size_t t = 0; t < d->n_threads; t++) {
			const struct cb_cell_summary *cs =
			    find(s, order[l], alg, op, size, d->threads[t]);
			struct cb_headline h;

			if (!cs)
				continue;
			cb_summary_headline(cs, c->opt->statistic, &h);
			fprintf(f, "%llu", d->threads[t]);
			plot_num(f, h.mbs / h0.mbs);
			plot_num(f, h.lo / h0.mbs);
			plot_num(f, h.hi / h0.mbs);
			plot_num(f, h.mbs);
			plot_num(f, h.lo);
			plot_num(f, h.hi);
			fprintf(f, " %zu %s %d\n", cs->n, stat_word(&h),
			        cb_summary_flagged(cs) ? 1 : 0);
		}
	}
	if (!f)
		return 0;
	snprintf(nref, sizeof nref, "%zu", drawn_refs);
	snprintf(ylab, sizeof ylab, "speedup: MB/s over MB/s at the fewest threads (%s, scaled)",
	         cb_statistics[c->opt->statistic].chart);
	const char *extra[] = {nref, ylab};
	return plot_chart_add(c, f, "threads", name, title, c->where, extra, 2, false);
}

/* Whether no cell with samples has an interval under the statistic drawn. */
static bool no_intervals(struct plot_ctx *c)
{
	const struct cb_run_summary *s = c->a->summary;

	for (size_t i = 0; i < s->n_cells; i++) {
		struct cb_headline h;

		if (s->cells[i].n == 0)
			continue;
		cb_summary_headline(&s->cells[i], c->opt->statistic, &h);
		if (!isnan(h.lo) && !isnan(h.hi))
			return false;
	}
	return true;
}

int cb_plot_run_charts(struct plot_ctx *c)
{
	const struct cb_run_summary *s = c->a->summary;
	size_t n = s->n_cells ? s->n_cells : 1, refs;
	struct dims d = {0};
	const char **order = NULL;
	int rc = -1;

	d.labels = malloc(n * sizeof *d.labels);
	d.algs = malloc(n * sizeof *d.algs);
	d.ops = malloc(n * sizeof *d.ops);
	order = malloc(n * sizeof *order);
	d.sizes = malloc(n * sizeof *d.sizes);
	d.threads = malloc(n * sizeof *d.threads);
	if (!d.labels || !d.algs || !d.ops || !order || !d.sizes || !d.threads) {
		plot_err(c, "out of memory");
		goto done;
	}
	d.n_labels = plot_distinct_str(s, plot_get_label, d.labels);
	d.n_algs = plot_distinct_str(s, plot_get_algorithm, d.algs);
	d.n_ops = plot_distinct_str(s, plot_get_op, d.ops);
	d.n_sizes = plot_distinct_num(s, plot_get_size, d.sizes);
	d.n_threads = plot_distinct_num(s, plot_get_threads, d.threads);
	if (d.n_labels == 0) {
		rc = plot_note(c, "%s: no cell has a valid measured trial: nothing to draw",
		               c->source);
		goto done;
	}
	if (no_intervals(c) && plot_note(c,
	                                 "%s: no 95%% interval to draw (a median's needs 6 samples "
	                                 "or more; min and mean have none): points only",
	                                 c->source) != 0)
		goto done;
	refs = label_order(s, &d, order);
	for (size_t t = 0; t < d.n_threads; t++) {
		for (size_t a = 0; a < d.n_algs; a++)
			for (size_t o = 0; o < d.n_ops; o++)
				if (has_cells(s, NULL, d.algs[a], d.ops[o], d.threads[t]) &&
				    size_by_algorithm(c, &d, order, refs, d.algs[a], d.ops[o],
				                      d.threads[t]) != 0)
					goto done;
		for (size_t l = 0; l + refs < d.n_labels; l++)
			if (size_by_engine(c, &d, order[l], d.threads[t]) != 0 ||
			    encrypt_decrypt(c, &d, order[l], d.threads[t]) != 0)
				goto done;
	}
	if (d.n_threads > 1)
		for (size_t a = 0; a < d.n_algs; a++)
			for (size_t o = 0; o < d.n_ops; o++)
				for (size_t z = 0; z < d.n_sizes; z++)
					if (threads_chart(c, &d, order, refs, d.algs[a], d.ops[o],
					                  d.sizes[z]) != 0)
						goto done;
	rc = 0;
done:
	free(d.labels);
	free(d.algs);
	free(d.ops);
	free(order);
	free(d.sizes);
	free(d.threads);
	return rc;
}
