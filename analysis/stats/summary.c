/* summary.c: per-cell statistics of one results file. */
#include "analysis/stats/summary.h"

#include "analysis/stats/ratio.h"
#include "core/base/errbuf.h"
#include "core/base/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_summary_defaults(struct cb_summary_options *opt)
{
	opt->level = 0.95;
	opt->contamination_max = 0.10;
	opt->drift_alpha = 0.01;
	opt->preempt_ratio = 0.9;
	opt->overhead_warn = 0.05;
	opt->overhead_max = 0.25;
	opt->sequential = false;
}

/* ---- The headline statistics ---- */

static void pick_min(const struct cb_cell_summary *s, struct cb_headline *h)
{
	h->mbs = s->mbs.max;
	h->ns = s->ns.min;
}

static void pick_median(const struct cb_cell_summary *s, struct cb_headline *h)
{
	h->mbs = s->mbs.median;
	h->lo = s->mbs.median_ci.lo;
	h->hi = s->mbs.median_ci.hi;
	h->ns = s->ns.median;
}

static void pick_mean(const struct cb_cell_summary *s, struct cb_headline *h)
{
	h->mbs = s->mbs.mean;
	h->ns = s->ns.mean;
}

/* The median, or the minimum time when the cell is contaminated. */
static void pick_auto(const struct cb_cell_summary *s, struct cb_headline *h)
{
	h->switched = s->ns.contaminated;
	h->stat = &cb_statistics[h->switched ? CB_STAT_MIN : CB_STAT_MEDIAN];
	h->stat->pick(s, h);
}

/* The statistics a headline can be (summary.h): name, words, and how each
 * is picked from a cell's summaries. */
const struct cb_statistic_info cb_statistics[CB_N_STATISTICS] = {
    [CB_STAT_AUTO] = {.name = "auto",
                      .label = "median",
                      .chart = "median with 95% interval, max MB/s where contaminated",
                      .pick = pick_auto},
    [CB_STAT_MIN] = {.name = "min",
                     .label = "min time",
                     .headline = "min time (max MB/s)",
                     .word = "max_MBps",
                     .chart = "min time = max MB/s, no interval",
                     .pick = pick_min},
    [CB_STAT_MEDIAN] = {.name = "median",
                        .label = "median",
                        .headline = "median",
                        .word = "median",
                        .chart = "median, bars: 95% interval",
                        .pick = pick_median},
    [CB_STAT_MEAN] = {.name = "mean",
                      .label = "mean",
                      .headline = "mean",
                      .word = "mean",
                      .chart = "mean, no interval",
                      .pick = pick_mean},
};

int cb_statistic_parse(const char *name)
{
	for (int i = 0; i < CB_N_STATISTICS; i++)
		if (strcmp(name, cb_statistics[i].name) == 0)
			return i;
	return -1;
}

/* One usable trial of a cell. */
struct sample {
	unsigned round;
	unsigned long long seq;
	double ns_per_call, mbs, cpb;
	bool preempted;
	int layout_stack; /* -1: not recorded */
};

static int by_round(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

double cb_wall_of_threads(const struct cb_result_trial *t, unsigned threads)
{
	double sum = 0;

	if (!t->thread_ns)
		return t->ns * (threads ? threads : 1);
	for (uint32_t i = 0; i < t->n_thread_ns; i++)
		sum += t->thread_ns[i];
	return sum;
}

static bool is_sample(const struct cb_result_trial *t)
{
	return t->valid && !t->warmup && t->ns > 0 && t->calls > 0 && t->bytes > 0;
}

static int summarise_values(struct sample *s, size_t n, int which, bool larger_is_better,
                            const struct cb_summary_options *opt, struct cb_stats_summary *out,
                            char *err, size_t err_len)
{
	struct cb_stats_options so = {.level = opt->level,
	                              .contamination_max = opt->contamination_max,
	                              .drift_alpha = opt->drift_alpha,
	                              .larger_is_better = larger_is_better,
	                              .sequential = opt->sequential};
	double *v = malloc(n * sizeof *v);
	int rc;

	if (!v) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = which == 0 ? s[i].ns_per_call : which == 1 ? s[i].mbs : s[i].cpb;
	rc = cb_stats_summarize(v, n, &so, out, err, err_len);
	free(v);
	return rc;
}

/* Does the cell's order measure depend on where its stack fell? The four
 * classes of the stack offset mod 64 (16-byte steps), Kruskal-Wallis. An
 * error only when memory runs out. */
static int judge_layout(struct cb_cell_summary *cs, const struct sample *buf, size_t n,
                        const struct cb_summary_options *opt)
{
	double *x = malloc((n ? n : 1) * sizeof *x);
	unsigned *group = malloc((n ? n : 1) * sizeof *group);
	size_t count[4] = {0};
	int rc = 0;

	cs->layout_h = cs->layout_p = NAN;
	if (!x || !group) {
		rc = -1;
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		if (buf[i].layout_stack < 0)
			goto done; /* not recorded: not judged */
		group[i] = (unsigned)(buf[i].layout_stack / 16 % 4);
		count[group[i]]++;
		x[i] = cs->have_cycles ? buf[i].cpb : buf[i].ns_per_call;
	}
	for (int g = 0; g < 4; g++)
		if (count[g] < 3)
			goto done;
	if (cb_stats_kruskal(x, group, n, 4, &cs->layout_h, &cs->layout_p) == 0) {
		cs->layout_judged = true;
		cs->layout_sensitive = cs->layout_p < opt->drift_alpha;
	}
done:
	free(x);
	free(group);
	return rc;
}

/* The trials of each cell, in file order: cell C's are
 * trials[index[first[C]] .. index[first[C + 1] - 1]]. One pass over the
 * trials instead of one per cell. */
struct by_cell {
	size_t *first; /* n_cells + 1 */
	uint32_t *index;
	size_t largest; /* the most trials of one cell */
};

static int group_by_cell(const struct cb_results *r, struct by_cell *g)
{
	size_t *next;

	g->first = calloc(r->n_cells + 1, sizeof *g->first);
	g->index = malloc((r->n_trials ? r->n_trials : 1) * sizeof *g->index);
	next = malloc((r->n_cells + 1) * sizeof *next);
	if (!g->first || !g->index || !next || r->n_trials > UINT32_MAX) {
		free(next);
		return -1;
	}
	for (size_t i = 0; i < r->n_trials; i++)
		g->first[r->trials[i].cell + 1]++;
	g->largest = 0;
	for (size_t c = 0; c < r->n_cells; c++) {
		if (g->first[c + 1] > g->largest)
			g->largest = g->first[c + 1];
		g->first[c + 1] += g->first[c];
	}
	memcpy(next, g->first, (r->n_cells + 1) * sizeof *next);
	for (size_t i = 0; i < r->n_trials; i++)
		g->index[next[r->trials[i].cell]++] = (uint32_t)i;
	free(next);
	return 0;
}

/* Whether the cycles of CELL, whose trials run like T, count its work alone
 * (summary.h): a sim variant's virtual cycles unless it writes its time as
 * them, else cycles the header says were counted. */
static bool cycles_are_work(const struct cb_results *r, const struct cb_result_cell *cell,
                            const struct cb_result_trial *t)
{
	const char *clock = cb_results_trial_clock(r, t);
	json_t *scenario = json_object_get(r->header, "scenario"), *v;
	size_t i;

	if (!(clock && strcmp(clock, "virtual") == 0)) {
		const char *counter = json_string_value(
		    json_object_get(json_object_get(r->header, "counter"), "cycles"));
		return counter && strcmp(counter, "perf-cycles") == 0;
	}
	json_array_foreach(json_object_get(scenario, "engines"), i, v)
	{
		const char *label = json_string_value(json_object_get(v, "label"));

		if (label && strcmp(label, cell->label) == 0)
			return json_number_value(json_object_get(json_object_get(v, "options"),
			                                         "cycles_from_time")) == 0;
	}
	return true;
}

unsigned cb_summary_ratio_how(const struct cb_run_summary *s, bool on_cycles,
                              const struct cb_cell_summary *const *cells, size_t n)
{
	unsigned how = s->options.sequential ? CB_RATIO_SEQUENTIAL : 0;
	bool work = on_cycles;

	for (size_t i = 0; i < n && work; i++)
		work = cells[i]->cycles_are_work;
	return how | (work ? 0 : CB_RATIO_OWN_MACHINE);
}

static int summarise_cell(struct cb_run_summary *rs, size_t c, const struct by_cell *g,
                          struct sample *buf, char *err, size_t err_len)
{
	const struct cb_results *r = rs->results;
	struct cb_cell_summary *cs = &rs->cells[c];
	const struct cb_summary_options *opt = &rs->options;
	size_t n = 0, with_cycles = 0;

	cs->cell = &r->cells[c];
	cs->index = c;
	cs->bytes_per_call = (double)cs->cell->size * (cs->cell->threads ? cs->cell->threads : 1);
	cs->builtin_null = strcmp(cs->cell->engine, "null") == 0;
	cs->overhead_ns = cs->overhead_share = NAN;
	cs->layout_h = cs->layout_p = NAN;
	for (size_t k = g->first[c]; k < g->first[c + 1]; k++) {
		const struct cb_result_trial *t = &r->trials[g->index[k]];

		if (!t->valid) {
			cs->invalid++;
			if (!cs->first_error)
				cs->first_error = t->error;
			continue;
		}
		if (t->warmup) {
			cs->warmup++;
			continue;
		}
		if (!is_sample(t))
			continue;
		struct sample *s = &buf[n++];
		s->round = t->round;
		s->seq = (unsigned long long)t->seq;
		s->ns_per_call = t->ns / (double)t->calls;
		s->mbs = (double)t->bytes / t->ns * 1e3;
		s->cpb = t->cycles > 0 ? t->cycles / (double)t->bytes : NAN;
		s->layout_stack = t->layout_stack;
		with_cycles += t->cycles > 0;
		s->preempted =
		    t->cpu_ns >= 0 &&
		    t->cpu_ns < opt->preempt_ratio * cb_wall_of_threads(t, cs->cell->threads);
		cs->preempted += s->preempted;
		cs->short_trials += t->trial_time_reached == 0;
	}
	cs->n = n;
	cs->order = &cs->ns;
	cs->order_measure = "ns/call";
	cs->round_mbs = malloc((rs->n_rounds ? rs->n_rounds : 1) * sizeof *cs->round_mbs);
	cs->round_bpc = malloc((rs->n_rounds ? rs->n_rounds : 1) * sizeof *cs->round_bpc);
	if (!cs->round_mbs || !cs->round_bpc) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < rs->n_rounds; i++)
		cs->round_mbs[i] = cs->round_bpc[i] = NAN;
	if (n == 0)
		return 0;
	/* Round order, whatever order the schedule ran them in. */
	qsort(buf, n, sizeof *buf, by_round);
	for (size_t i = 0; i < n; i++) { /* a resumed round's later trial wins */
		cs->round_mbs[buf[i].round - rs->first_round] = buf[i].mbs;
		cs->round_bpc[buf[i].round - rs->first_round] = 1.0 / buf[i].cpb;
	}
	if (summarise_values(buf, n, 0, false, opt, &cs->ns, err, err_len) != 0 ||
	    summarise_values(buf, n, 1, true, opt, &cs->mbs, err, err_len) != 0)
		return -1;
	/* Cycles only when every sample has them: a partial count would mislead. */
	if (with_cycles == n) {
		cs->have_cycles = true;
		cs->cycles_are_work =
		    cycles_are_work(r, cs->cell, &r->trials[g->index[g->first[c]]]);
		if (summarise_values(buf, n, 2, false, opt, &cs->cpb, err, err_len) != 0)
			return -1;
		cs->order = &cs->cpb;
		cs->order_measure = "c/B";
	}
	if (judge_layout(cs, buf, n, opt) != 0) {
		cb_errorf(err, err_len, "out of memory");
		return -1;
	}
	return 0;
}

/* The null cell that best matches C: same algorithm, op, size and threads,
 * else same size and threads. */
static const struct cb_cell_summary *null_for(const struct cb_run_summary *rs,
                                              const struct cb_result_cell *c)
{
	const struct cb_cell_summary *fallback = NULL;

	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *z = &rs->cells[i];

		if (!z->builtin_null || z->n == 0 || z->cell->size != c->size ||
		    z->cell->threads != c->threads)
			continue;
		if (strcmp(z->cell->algorithm, c->algorithm) == 0 &&
		    strcmp(z->cell->op, c->op) == 0)
			return z;
		if (!fallback)
			fallback = z;
	}
	return fallback;
}

static void set_overhead(struct cb_run_summary *rs)
{
	for (size_t i = 0; i < rs->n_cells; i++) {
		struct cb_cell_summary *cs = &rs->cells[i];
		const struct cb_cell_summary *z;

		if (cs->builtin_null || cs->n == 0 || !(z = null_for(rs, cs->cell)))
			continue;
		cs->overhead_ns = z->ns.median;
		cs->overhead_share = z->ns.median / cs->ns.median;
		cs->overhead_warning = cs->overhead_share > rs->options.overhead_warn;
		cs->unreliable = cs->overhead_share > rs->options.overhead_max;
	}
}

static void find_rounds(struct cb_run_summary *rs)
{
	const struct cb_results *r = rs->results;
	unsigned lo = 0, hi = 0;
	bool any = false;

	for (size_t i = 0; i < r->n_trials; i++) {
		const struct cb_result_trial *t = &r->trials[i];
		const char *clock = cb_results_trial_clock(r, t);
		bool virtual = clock && strcmp(clock, "virtual") == 0; /* not "worker" */

		rs->virtual_clock |= virtual;
		if (t->cycles > 0)
			*(virtual ? &rs->virtual_cycles : &rs->real_cycles) = true;
		rs->short_trials += is_sample(t) && t->trial_time_reached == 0;
		rs->unknown_trial_time |= is_sample(t) && t->trial_time_reached < 0;
		if (!is_sample(t))
			continue;
		if (!any || t->round < lo)
			lo = t->round;
		if (!any || t->round > hi)
			hi = t->round;
		any = true;
	}
	rs->first_round = lo;
	rs->n_rounds = any ? (size_t)(hi - lo) + 1 : 0;
}

struct cb_run_summary *cb_summary_build(const struct cb_results *r,
                                        const struct cb_summary_options *opt, char *err,
                                        size_t err_len)
{
	struct cb_run_summary *rs = calloc(1, sizeof *rs);
	struct sample *buf = NULL;
	struct by_cell g = {0};
	bool cycles = false;

	if (!rs) {
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	rs->results = r;
	if (opt)
		rs->options = *opt;
	else
		cb_summary_defaults(&rs->options);
	if (!(rs->options.level > 0 && rs->options.level < 1) ||
	    !(rs->options.drift_alpha > 0 && rs->options.drift_alpha < 1)) {
		cb_errorf(err, err_len, "summary options out of range");
		goto fail;
	}
	find_rounds(rs);
	rs->n_cells = r->n_cells;
	rs->cells = calloc(r->n_cells ? r->n_cells : 1, sizeof *rs->cells);
	if (!rs->cells || group_by_cell(r, &g) != 0 ||
	    !(buf = malloc((g.largest ? g.largest : 1) * sizeof *buf))) {
		cb_errorf(err, err_len, "out of memory");
		goto fail;
	}
	for (size_t c = 0; c < r->n_cells; c++) {
		if (summarise_cell(rs, c, &g, buf, err, err_len) != 0)
			goto fail;
		cycles |= rs->cells[c].have_cycles;
	}
	set_overhead(rs);
	if (cycles)
		rs->counter = rs->virtual_cycles && !rs->real_cycles
		                  ? "virtual"
		                  : json_string_value(json_object_get(
		                        json_object_get(r->header, "counter"), "cycles"));
	free(buf);
	free(g.first);
	free(g.index);
	return rs;
fail:
	free(buf);
	free(g.first);
	free(g.index);
	cb_summary_free(rs);
	return NULL;
}

void cb_summary_free(struct cb_run_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_cells && s->cells; i++) {
		free(s->cells[i].round_mbs);
		free(s->cells[i].round_bpc);
	}
	free(s->cells);
	free(s);
}

void cb_summary_headline(const struct cb_cell_summary *s, enum cb_statistic stat,
                         struct cb_headline *h)
{
	*h = (struct cb_headline){NAN, NAN, NAN, NAN, "none", false, NULL};
	if (s->n == 0)
		return;
	h->stat = &cb_statistics[stat];
	h->stat->pick(s, h); /* AUTO replaces h->stat with the one it picked */
	h->name = h->stat->headline;
}

bool cb_summary_flagged(const struct cb_cell_summary *s)
{
	return s->n > 0 && (s->ns.contaminated || s->order->drift || s->order->autocorrelated);
}

const char *cb_cell_name(const struct cb_result_cell *c, char buf[256])
{
	char size[32];

	snprintf(buf, 256, "%s %s %s %s", c->label, c->algorithm, c->op,
	         cb_format_size(c->size, size));
	if (c->threads > 1)
		snprintf(buf + strlen(buf), 256 - strlen(buf), " x%u threads", c->threads);
	return buf;
}
