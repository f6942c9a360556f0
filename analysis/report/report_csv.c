/* report_csv.c: the report's CSV, one tidy table at a time (report.h). */
#include "analysis/report/report.h"

#include <math.h>
#include <string.h>

const char *const cb_report_tables[] = {"cells",  "winners",    "derived",
                                        "slopes", "crossovers", NULL};

void cb_csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else
		fputc(',', out);
}

void cb_csv_text(FILE *out, const char *s)
{
	fputc(',', out);
	cb_csv_field(out, s ? s : "");
}

void cb_csv_cell_keys(FILE *out, const char *file, size_t run, const struct cb_result_cell *c)
{
	cb_csv_field(out, file);
	fprintf(out, ",%zu", run);
	cb_csv_text(out, c->engine);
	cb_csv_text(out, c->label);
	cb_csv_text(out, c->algorithm);
	cb_csv_text(out, c->op);
	fprintf(out, ",%llu,%u", (unsigned long long)c->size, c->threads);
}

int cb_report_table_index(const char *const *tables, const char *name)
{
	for (int i = 0; tables[i]; i++)
		if (strcmp(tables[i], name) == 0)
			return i;
	return -1;
}

/* ---- cells ---- */

static void cells_header(FILE *out)
{
	fputs(CB_CSV_KEYS ",n,invalid,warmup,preempted,headline_statistic,headline_mb_per_s,"
	                  "mb_per_s_median,mb_per_s_median_lo,mb_per_s_median_hi,mb_per_s_min,"
	                  "mb_per_s_max,mb_per_s_mean,mb_per_s_sd,mb_per_s_p10,mb_per_s_q1,"
	                  "mb_per_s_q3,mb_per_s_p90,mib_per_s_median,ns_per_call_median,"
	                  "ns_per_call_min,ns_per_call_max,ns_per_call_mean,"
	                  "cycles_per_byte_median,cycles_counter,robust_cv,contamination,"
	                  "contaminated,drift_rho,drift_p,drift,lag1,lag1_ranks,lag1_limit,"
	                  "autocorrelated,outliers_1_5iqr,outliers_3iqr,overhead_share\n",
	      out);
}

static void cells_rows(FILE *out, const struct cb_analysis *a, size_t run,
                       const struct cb_report_options *o)
{
	const struct cb_run_summary *rs = a->summary;

	for (size_t i = 0; i < rs->n_cells; i++) {
		const struct cb_cell_summary *s = &rs->cells[i];
		const struct cb_stats_summary *m = &s->mbs, *t = &s->ns;
		struct cb_headline h;
		bool n = s->n > 0;
		/* A flag that cannot be judged at this n is left empty, not 0. */
		bool lag_judged = n && s->order->lag1_judged;
		bool drift_judged = n && s->order->drift_judged;

		cb_summary_headline(s, o->statistic, &h);
		cb_csv_cell_keys(out, a->results->path, run, s->cell);
		fprintf(out, ",%zu,%zu,%zu,%zu", s->n, s->invalid, s->warmup, s->preempted);
		cb_csv_text(out, n ? h.name : "");
		double v[] = {h.mbs,
		              n ? m->median : NAN,
		              n ? m->median_ci.lo : NAN,
		              n ? m->median_ci.hi : NAN,
		              n ? m->min : NAN,
		              n ? m->max : NAN,
		              n ? m->mean : NAN,
		              n ? m->sd : NAN,
		              n ? m->p10 : NAN,
		              n ? m->q1 : NAN,
		              n ? m->q3 : NAN,
		              n ? m->p90 : NAN,
		              n ? m->median * CB_MIB_PER_MB : NAN,
		              n ? t->median : NAN,
		              n ? t->min : NAN,
		              n ? t->max : NAN,
		              n ? t->mean : NAN,
		              s->have_cycles ? s->cpb.median : NAN};
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			cb_csv_num(out, v[k]);
		cb_csv_text(out, s->have_cycles && rs->counter ? rs->counter : "");
		cb_csv_num(out, n ? t->robust_cv : NAN);
		cb_csv_num(out, n ? t->contamination : NAN);
		fprintf(out, ",%s", n ? (t->contaminated ? "1" : "0") : "");
		cb_csv_num(out, drift_judged ? s->order->drift_rho : NAN);
		cb_csv_num(out, drift_judged ? s->order->drift_p : NAN);
		fprintf(out, ",%s", drift_judged ? (s->order->drift ? "1" : "0") : "");
		cb_csv_num(out, n ? s->order->lag1 : NAN);
		cb_csv_num(out, n ? s->order->lag1_rank : NAN);
		cb_csv_num(out, lag_judged ? s->order->lag1_limit : NAN);
		fprintf(out, ",%s", lag_judged ? (s->order->autocorrelated ? "1" : "0") : "");
		if (n)
			fprintf(out, ",%zu,%zu", t->outliers_low_15 + t->outliers_high_15,
			        t->outliers_low_3 + t->outliers_high_3);
		else
			fputs(",,", out);
		cb_csv_num(out, s->overhead_share);
		fputc('\n', out);
	}
}

/* ---- winners ---- */

static void winners_header(FILE *out)
{
	fputs("file,run,algorithm,op,size,threads,engines,measure,fastest,fastest_engine,"
	      "mb_per_s_median,headline_mb_per_s,tied,not_resolved,next,next_ratio,next_ratio_lo,"
	      "next_ratio_hi,level,"
	      "delta\n",
	      out);
}

static void winners_rows(FILE *out, const struct cb_analysis *a, size_t run,
                         const struct cb_report_options *o)
{
	const struct cb_winners *w = a->winners;

	for (size_t i = 0; w && i < w->n_groups; i++) {
		const struct cb_winner_group *g = &w->groups[i];
		const struct cb_result_cell *best = g->members[g->best].cell->cell;
		char tied[1024], unresolved[1024];

		cb_winners_names(g, CB_WINNER_TIED, tied, sizeof tied);
		cb_winners_names(g, CB_WINNER_NOT_RESOLVED, unresolved, sizeof unresolved);
		cb_csv_field(out, a->results->path);
		fprintf(out, ",%zu", run);
		cb_csv_text(out, best->algorithm);
		cb_csv_text(out, best->op);
		fprintf(out, ",%llu,%u,%zu", (unsigned long long)best->size, best->threads,
		        g->n_members);
		cb_csv_text(out, g->on_cycles ? "bytes per cycle" : "MB/s");
		cb_csv_text(out, best->label);
		cb_csv_text(out, best->engine);
		struct cb_headline hl;

		cb_summary_headline(g->members[g->best].cell, o->statistic, &hl);
		cb_csv_num(out, g->members[g->best].mbs);
		cb_csv_num(out, hl.mbs);
		cb_csv_text(out, tied);
		cb_csv_text(out, unresolved);
		if (g->next < g->n_members) {
			const struct cb_winner_member *x = &g->members[g->next];

			cb_csv_text(out, x->cell->cell->label);
			cb_csv_num(out, x->ratio.value);
			cb_csv_num(out, x->ratio.ci.lo);
			cb_csv_num(out, x->ratio.ci.hi);
		} else {
			fputs(",,,,", out);
		}
		cb_csv_num(out, g->level);
		cb_csv_num(out, w->delta);
		fputc('\n', out);
	}
}

/* ---- derived ---- */

static void derived_header(FILE *out)
{
	fputs("file,run,metric,by,rounds,ratio,ratio_lo,ratio_hi,level,bonferroni_m,verdict,"
	      "expected,tolerance,expectation\n",
	      out);
}

static void derived_rows(FILE *out, const struct cb_analysis *a, size_t run,
                         const struct cb_report_options *o)
{
	(void)o;
	for (size_t i = 0; i < a->n_derived; i++) {
		const struct cb_derived *m = &a->derived[i];

		cb_csv_field(out, a->results->path);
		fprintf(out, ",%zu", run);
		cb_csv_text(out, m->name);
		cb_csv_text(out, m->by);
		fprintf(out, ",%zu", m->ok ? m->ratio.n : (size_t)0);
		cb_csv_num(out, m->ok ? m->ratio.value : NAN);
		cb_csv_num(out, m->ok ? m->ratio.ci.lo : NAN);
		cb_csv_num(out, m->ok ? m->ratio.ci.hi : NAN);
		cb_csv_num(out, m->level);
		fprintf(out, ",%zu,%s", m->family,
		        m->ok ? cb_ratio_verdict_name(m->verdict) : "not resolved");
		cb_csv_num(out, m->has_expect ? m->expect_value : NAN);
		cb_csv_num(out, m->has_expect ? m->expect_tolerance : NAN);
		cb_csv_text(out, m->has_expect ? cb_ratio_expectation_name(m->expectation) : "");
		fputc('\n', out);
	}
}

/* ---- slopes ---- */

static void slopes_header(FILE *out)
{
	fputs(CB_CSV_KEYS ",sizes,fit,overhead_ns,overhead_ns_lo,overhead_ns_hi,ns_per_byte,"
	                  "ns_per_byte_lo,ns_per_byte_hi,cycles_per_byte_slope,outliers\n",
	      out);
}

static void slopes_rows(FILE *out, const struct cb_analysis *a, size_t run,
                        const struct cb_report_options *o)
{
	(void)o;
	for (size_t i = 0; i < a->n_slopes; i++) {
		const struct cb_slope *s = &a->slopes[i];

		/* Size is the fit's variable: the key's size is left empty. */
		cb_csv_field(out, a->results->path);
		fprintf(out, ",%zu", run);
		cb_csv_text(out, s->cell->engine);
		cb_csv_text(out, s->cell->label);
		cb_csv_text(out, s->cell->algorithm);
		cb_csv_text(out, s->cell->op);
		fprintf(out, ",,%u,%zu", s->cell->threads, s->ns.sizes);
		cb_csv_text(out, s->ns.fit_name);
		double v[] = {s->ns.overhead.value,
		              s->ns.overhead.lo,
		              s->ns.overhead.hi,
		              s->ns.per_byte.value,
		              s->ns.per_byte.lo,
		              s->ns.per_byte.hi,
		              s->have_cycles ? s->cycles.per_byte.value : NAN};
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			cb_csv_num(out, v[k]);
		fprintf(out, ",%zu\n", s->ns.outliers);
	}
}

/* ---- crossovers ---- */

static void crossovers_header(FILE *out)
{
	fputs("file,run,kind,algorithm,op,threads,a,b,crossover_size,bracket_lo,bracket_hi,"
	      "overtakes,resolved\n",
	      out);
}

static void crossovers_rows(FILE *out, const struct cb_analysis *a, size_t run,
                            const struct cb_report_options *o)
{
	(void)o;
	for (size_t i = 0; i < a->n_crossings; i++) {
		const struct cb_crossing *x = &a->crossings[i];
		bool engines = strcmp(x->kind, "engines") == 0;
		const char *an = engines ? x->a->label : x->a->algorithm;
		const char *bn = engines ? x->b->label : x->b->algorithm;

		cb_csv_field(out, a->results->path);
		fprintf(out, ",%zu", run);
		cb_csv_text(out, x->kind);
		cb_csv_text(out, engines ? x->a->algorithm : "");
		cb_csv_text(out, x->a->op);
		fprintf(out, ",%u", x->a->threads);
		cb_csv_text(out, an);
		cb_csv_text(out, bn);
		/* An unresolved crossover has no size to give, only its bracket. */
		cb_csv_num(out, x->x.resolved ? x->x.size : NAN);
		cb_csv_num(out, x->x.bracket_lo);
		cb_csv_num(out, x->x.bracket_hi);
		cb_csv_text(out, x->x.direction > 0 ? an : bn);
		fprintf(out, ",%d\n", x->x.resolved ? 1 : 0);
	}
}

/* ---- The table chosen ---- */

static const struct {
	void (*header)(FILE *out);
	void (*rows)(FILE *out, const struct cb_analysis *a, size_t run,
	             const struct cb_report_options *o);
} tables[] = {
    {cells_header, cells_rows},           {winners_header, winners_rows},
    {derived_header, derived_rows},       {slopes_header, slopes_rows},
    {crossovers_header, crossovers_rows},
};

void cb_report_csv(FILE *out, struct cb_analysis *const *as, size_t n,
                   const struct cb_report_options *o)
{
	int t = o->table ? cb_report_table_index(cb_report_tables, o->table) : 0;

	if (t < 0)
		t = 0;
	tables[t].header(out);
	for (size_t i = 0; i < n; i++)
		tables[t].rows(out, as[i], i + 1, o);
}
