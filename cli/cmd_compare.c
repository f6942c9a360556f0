/* cmd_compare.c: cryptobench compare — do the runs agree? */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* versionsort */
#endif
#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "analysis/verdicts/compare.h"
#include "analysis/verdicts/hosts.h"
#include "analysis/verdicts/plan_runs.h"
#include "analysis/report/report.h"
#include "cli/html_page.h"
#include "core/results/results.h"

static const char compare_help[] =
    "usage: cryptobench compare FILE|FOLDER... [--format text|markdown|csv|json|html]\n"
    "                           [--delta [MEASURE=]D]... [--fail-on non-reproducible]\n"
    "                           [--details] [--plan [--budget D]]\n"
    "       cryptobench compare --baseline A B... [--format F] [--delta [MEASURE=]D]...\n"
    "       [--table NAME] (with --format csv)\n\n"
    "Compare runs of one scenario (results files, or folders of them such as\n"
    "'cryptobench run --runs N' writes). For every cell (median cycles per byte\n"
    "when every run counted cycles, per call below 64 B, else median MB/s) and\n"
    "every derived metric (ratio paired by round), each run's estimate with its\n"
    "interval side by side, and a verdict against a practical margin delta:\n"
    "  reproduced        every pair of runs shown equivalent within delta (two\n"
    "                    one-sided tests); the across-run value (geometric mean\n"
    "                    with a t-interval) is given\n"
    "  non-reproducible  the interval of two runs' ratio lies wholly outside\n"
    "                    [1/(1+delta), 1+delta]\n"
    "  contradictory     two runs significant in opposite directions (ratios)\n"
    "  not resolved      otherwise, saying why (e.g. too few rounds to tell)\n"
    "The table is one family: Benjamini-Hochberg across its rows at 5%.\n"
    "Rank flips between engines are listed, with Kendall's W of each ranking.\n\n"
    "With --baseline A, each B (a results file, or each run of a folder) is one\n"
    "configuration against A: other settings, engine versions or machines. Per\n"
    "cell both have, the speed ratio B/A with its 95% interval (cycles per byte\n"
    "where both counted cycles on one CPU model, else MB/s) and a verdict: faster,\n"
    "slower, equivalent within delta, or not resolved; then one line per B:\n"
    "\"B is 7.2% [6.8, 7.6] faster than A on 12 of 14 cells, equivalent on 2\".\n\n"
    "Files from several hosts are compared host against host, not as runs of one\n"
    "machine. A host is a machine: its name (run --host, else the hostname), CPU\n"
    "model, family/model/stepping, logical cores, memory (nearest GiB) and kernel\n"
    "release, from each file's header; hosts of one name are labelled by their\n"
    "CPU model, as \"vm (AMD EPYC)\". First each host with more\n"
    "than one run, its runs judged as above (text and markdown); then each host\n"
    "against the baseline host, as --baseline does, each host's estimate pooling\n"
    "its runs (random effects: wider when they disagree). Per cell: each host's\n"
    "estimate and interval, its runs and their reproducibility, the ratio and the\n"
    "verdict (CSV: columns host, baseline_host, runs, baseline_runs,\n"
    "reproducibility, baseline_reproducibility; JSON: keys of the same names).\n\n"
    "  --format F       text (default), markdown, csv, json; html (runs of one\n"
    "                   host: one self-contained page, the tables, then the charts)\n"
    "  -o FILE          write the html page to FILE (default: standard output)\n"
    "  --delta D        every margin; --delta cycles=D, mbs=D or ratio=D sets one\n"
    "                   (defaults: cycles 0.02, mbs 0.05, ratio 0.02)\n"
    "  --fail-on non-reproducible\n"
    "                   exit 1 when a cell, a metric or an engine (its cells\n"
    "                   pooled) is non-reproducible or contradictory\n"
    "  --details        each run's estimate and why each verdict was given (the\n"
    "                   default shows the verdict, the deciding difference and the\n"
    "                   across-run value within 100 columns)\n"
    "  --plan           for every row not resolved, what would resolve it: \"needs\n"
    "                   ~ 6 runs of 40 rounds (~ 9 min on this machine)\", or \"cannot\n"
    "                   be resolved at delta 2%: the between-run spread alone is\n"
    "                   3.1%\"; then one plan (runs, rounds per run, time) for the\n"
    "                   whole table: the one that resolves the most rows, and what\n"
    "                   more time buys. From the runs' within-run and between-run\n"
    "                   variance (text, markdown, json). A folder of 'run --runs\n"
    "                   auto' is judged by its last set of runs (its plan's), as\n"
    "                   claims reads it\n"
    "  --budget D       with --plan: the table's plan takes at most D (like 20m)\n"
    "  --baseline A     compare each run given with the run A\n"
    "  --baseline-host NAME\n"
    "                   files from several hosts: the host the others are\n"
    "                   compared with, by its label or name (default: the\n"
    "                   first file's)\n"
    "  --table NAME     CSV: the table to write (default cells); runs of one\n"
    "                   scenario: cells, derived, engines (each label's cells\n"
    "                   pooled), rankings, flips; --baseline and hosts: cells.\n"
    "                   Every CSV output is one table with one header line.\n\n"
    "Exit status: 0, 1 as --fail-on asks, 2 bad input (flags, unreadable files,\n"
    "runs of different scenarios or schema versions).\n";

/* --delta D or --delta MEASURE=D into OPT; -1 when V is neither. */
static int parse_delta(const char *v, struct cb_compare_options *opt)
{
	static const char *const names[] = {"cycles", "mbs", "ratio"};
	double *targets[] = {&opt->delta_cycles, &opt->delta_mbs, &opt->derive.delta};
	const char *eq = strchr(v, '=');
	char *end;
	double d = strtod(eq ? eq + 1 : v, &end);

	if (*end || end == (eq ? eq + 1 : v) || !(d > 0 && d < 1))
		return -1;
	for (size_t i = 0; i < 3; i++)
		if (!eq || (strlen(names[i]) == (size_t)(eq - v) &&
		            strncmp(v, names[i], (size_t)(eq - v)) == 0)) {
			*targets[i] = d;
			if (eq)
				return 0;
		}
	return eq ? -1 : 0;
}

/* compare --baseline: each run of OTHERS against the one run of BASE. */
static int against_baseline(const struct cb_file_list *base, const struct cb_file_list *others,
                            const struct cb_compare_options *options, enum cb_report_format format,
                            int fail_on)
{
	struct cb_analysis *a = NULL, **bs = NULL;
	struct cb_baseline **cmp = NULL;
	int rc = CB_EXIT_USAGE;
	char err[1024];

	if (base->n != 1)
		return cb_usage_error(
		    "compare", "--baseline is one run, not %zu (a folder of runs?)", base->n);
	if (others->n == 0)
		return cb_usage_error("compare", "--baseline %s: against which run?",
		                      base->files[0]->path);
	if (fail_on)
		return cb_usage_error("compare", "--fail-on judges runs of one scenario, not a "
		                                 "comparison with a baseline");
	bs = calloc(others->n, sizeof *bs);
	cmp = calloc(others->n, sizeof *cmp);
	if (!bs || !cmp) {
		fprintf(stderr, "cryptobench compare: out of memory\n");
		goto done;
	}
	if (!(a = cb_analysis_build(base->files[0], &options->summary, &options->derive, err,
	                            sizeof err))) {
		fprintf(stderr, "cryptobench compare: %s: %s\n", base->files[0]->path, err);
		goto done;
	}
	for (size_t i = 0; i < others->n; i++) {
		const char *id = cb_results_header_string(others->files[i], NULL, "run_id");

		if (strcmp(id, cb_results_header_string(base->files[0], NULL, "run_id")) == 0) {
			fprintf(stderr,
			        "cryptobench compare: %s is the baseline run itself (run_id %s)\n",
			        others->files[i]->path, id);
			goto done;
		}
		if (!(bs[i] = cb_analysis_build(others->files[i], &options->summary,
		                                &options->derive, err, sizeof err))) {
			fprintf(stderr, "cryptobench compare: %s: %s\n", others->files[i]->path,
			        err);
			goto done;
		}
		if (cb_baseline_build(a, bs[i], options, &cmp[i], err, sizeof err) != 0) {
			fprintf(stderr, "cryptobench compare: %s\n", err);
			goto done;
		}
	}
	cb_report_baseline(stdout, cmp, others->n, format);
	rc = CB_EXIT_OK;
done:
	for (size_t i = 0; i < others->n && bs; i++) {
		if (cmp)
			cb_baseline_free(cmp[i]);
		cb_analysis_free(bs[i]);
	}
	cb_analysis_free(a);
	free(bs);
	free(cmp);
	return rc;
}

/* compare of files from several hosts (hosts.h): each host's runs judged
 * against each other, then each host against the baseline host, its runs
 * pooled. */
static int across_hosts(const struct cb_file_list *list, const char *base_host,
                        const struct cb_compare_options *options, enum cb_report_format format,
                        bool details, int fail_on)
{
	struct cb_hosts *h = NULL;
	char err[1024];
	int rc = cb_hosts_build(list->files, list->n, base_host, options, &h, err, sizeof err);

	if (rc == CB_HOSTS_NO_BASE)
		return cb_usage_error("compare", "--baseline-host %s: %s", base_host,
		                      "no file given was measured on that host");
	if (rc != 0) {
		fprintf(stderr, "cryptobench compare: %s\n", err);
		return CB_EXIT_USAGE;
	}
	cb_report_hosts(stdout, h, format, details);
	rc = fail_on && cb_hosts_any_unreproduced(h) ? CB_EXIT_PROBLEM : CB_EXIT_OK;
	cb_hosts_free(h);
	return rc;
}

struct compare_args {
	struct cb_compare_options options;
	int format; /* enum cb_report_format */
	struct cb_file_list list, base;
	const char *table, *base_host, *output;
	bool details, plan;
	int fail_on;
	double budget_s;       /* --plan --budget */
	size_t n_args;         /* files and folders given */
	const char *first_arg; /* the first of them */
};

static int set_format(void *args, const char *v)
{
	return cb_report_format_option("compare", v, &((struct compare_args *)args)->format);
}

static int set_delta(void *args, const char *v)
{
	if (parse_delta(v, &((struct compare_args *)args)->options) != 0)
		return cb_usage_error("compare",
		                      "--delta wants a number in (0, 1), or cycles=, "
		                      "mbs= or ratio= one, not '%s'",
		                      v);
	return CB_EXIT_OK;
}

static int set_baseline(void *args, const char *v)
{
	struct compare_args *a = args;

	if (a->base.n)
		return cb_usage_error("compare", "one --baseline only");
	return cb_file_list_add(&a->base, v);
}

static int set_budget(void *args, const char *v)
{
	return cb_budget_option("compare", v, &((struct compare_args *)args)->budget_s);
}

static int set_fail_on(void *args, const char *v)
{
	((struct compare_args *)args)->fail_on = 1;
	if (strcmp(v, "non-reproducible") != 0)
		return cb_usage_error("compare", "--fail-on takes 'non-reproducible', not '%s'", v);
	return CB_EXIT_OK;
}

static int add_file(void *args, const char *path)
{
	struct compare_args *a = args;

	if (a->n_args++ == 0)
		a->first_arg = path;
	return cb_file_list_add(&a->list, path);
}

/* Runs of different rounds judged together (files given one by one, a
 * folder of --until runs) are said on stderr: a long run's interval is
 * narrower than a short one's, and every pair's test must pass, so the
 * shortest runs' width decides. */
static void say_different_rounds(struct cb_results *const *files, size_t n)
{
	size_t lo = SIZE_MAX, hi = 0;

	for (size_t i = 0; i < n; i++) {
		size_t r = 0;

		cb_plan_current_set(files + i, 1, &r);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	if (n && lo != hi)
		fprintf(stderr,
		        "compare: the runs judged measured different rounds (%zu to %zu): their "
		        "intervals' precisions differ, so a row may stay not resolved for the "
		        "shortest runs' width\n",
		        lo, hi);
}

static const struct cb_cli_option compare_options[] = {
    CB_OPTION_CALL("--format", NULL, set_format),
    CB_OPTION_CALL("--delta", NULL, set_delta),
    CB_OPTION_BOOL("--details", NULL, struct compare_args, details),
    CB_OPTION_BOOL("--plan", NULL, struct compare_args, plan),
    CB_OPTION_CALL("--budget", NULL, set_budget),
    CB_OPTION_CALL("--baseline", NULL, set_baseline),
    CB_OPTION_STRING("--baseline-host", NULL, struct compare_args, base_host),
    CB_OPTION_STRING("--table", NULL, struct compare_args, table),
    CB_OPTION_CALL("--fail-on", NULL, set_fail_on),
    CB_OPTION_STRING("--output", "-o", struct compare_args, output),
    CB_OPTION_END,
};

/* --table: a CSV table of the comparison the files make (of runs, against
 * a baseline, or across hosts). */
static int check_table(const struct compare_args *a, size_t n_hosts)
{
	const char *const *tables =
	    a->base.n || n_hosts > 1 ? cb_baseline_tables : cb_compare_tables;
	char names[256];

	if (!a->table)
		return CB_EXIT_OK;
	if (cb_report_table_index(tables, a->table) < 0)
		return cb_usage_error("compare", "unknown table '%s'%s (%s)", a->table,
		                      a->base.n     ? " with --baseline"
		                      : n_hosts > 1 ? " across hosts"
		                                    : "",
		                      cb_table_choices(tables, names, sizeof names));
	if (a->format != CB_FORMAT_CSV)
		return cb_usage_error("compare", "--table chooses a CSV table: give --format csv");
	return CB_EXIT_OK;
}

struct html_compare {
	const struct cb_compare *c;
	bool details;
};

static int html_body(FILE *out, void *arg, struct cb_cli_html_charts *charts, char *err,
                     size_t err_len)
{
	const struct html_compare *hc = arg;

	(void)charts;
	(void)err;
	(void)err_len;
	cb_report_compare(out, hc->c, CB_FORMAT_HTML, NULL, hc->details);
	return 0;
}

/* Runs of one scenario on one host, judged against each other. */
static int across_runs(const struct compare_args *a)
{
	struct cb_compare *c = NULL;
	char err[1024];
	int rc = CB_EXIT_OK;

	if (a->list.n < 2)
		return cb_usage_error(
		    "compare", "needs at least two runs (files or a folder of them), got %zu",
		    a->list.n);
	size_t first, count;
	if (!cb_judged_runs("compare", a->n_args == 1 ? a->first_arg : NULL, a->list.files,
	                    a->list.n, &first, &count))
		say_different_rounds(a->list.files, a->list.n);
	if (cb_compare_build(a->list.files + first, count, &a->options, &c, err, sizeof err) != 0) {
		fprintf(stderr, "cryptobench compare: %s\n", err);
		cb_compare_free(c);
		return CB_EXIT_USAGE;
	}
	if (a->plan) {
		/* planned from every run, for the rows the judged ones leave open */
		struct cb_compare *all = NULL;
		struct cb_runs_plan *p = NULL;
		struct cb_plan_options popt;

		cb_plan_defaults(&popt);
		popt.budget_s = a->budget_s;
		if (count < a->list.n && cb_compare_build(a->list.files, a->list.n, &a->options,
		                                          &all, err, sizeof err) != 0)
			p = NULL;
		else if ((p = cb_runs_plan_build(all ? all : c, &popt, err, sizeof err)) && all)
			cb_runs_plan_restrict(p, c);
		if (!p) {
			fprintf(stderr, "cryptobench compare: %s\n", err);
			cb_compare_free(all);
			cb_compare_free(c);
			return CB_EXIT_USAGE;
		}
		cb_report_plan(stdout, p, (enum cb_report_format)a->format);
		cb_runs_plan_free(p);
		cb_compare_free(all);
	} else if (a->format == CB_FORMAT_HTML) {
		struct html_compare hc = {c, a->details};
		int page = cb_cli_html_page("compare", a->output, "cryptobench compare",
		                            a->list.files, a->list.n, NULL, html_body, &hc);

		if (page != CB_EXIT_OK) {
			cb_compare_free(c);
			return page;
		}
	} else {
		cb_report_compare(stdout, c, (enum cb_report_format)a->format, a->table,
		                  a->details);
	}
	if (a->fail_on && cb_compare_any_unreproduced(c))
		rc = CB_EXIT_PROBLEM;
	cb_compare_free(c);
	return rc;
}

/* Which comparison the files make, made. */
static int compare(const struct compare_args *a)
{
	enum cb_report_format format = (enum cb_report_format)a->format;
	size_t n_hosts = a->base.n ? 1 : cb_hosts_count(a->list.files, a->list.n);
	int rc;

	if (a->base_host && a->base.n)
		return cb_usage_error("compare", "--baseline-host %s: not with --baseline",
		                      a->base_host);
	if ((rc = check_table(a, n_hosts)) != CB_EXIT_OK)
		return rc;
	if (a->budget_s > 0 && !a->plan)
		return cb_usage_error("compare", "--budget goes with --plan");
	if (a->format == CB_FORMAT_HTML && (a->plan || a->base.n || n_hosts > 1))
		return cb_usage_error("compare", "--format html is for runs of one scenario on "
		                                 "one host (not --plan, --baseline or hosts)");
	if (a->output && a->format != CB_FORMAT_HTML)
		return cb_usage_error("compare", "-o writes the html page: give --format html");
	if (a->plan &&
	    (a->base.n || n_hosts > 1 || a->format == CB_FORMAT_CSV || a->format == CB_FORMAT_HTML))
		return cb_usage_error("compare", "--plan plans runs of one scenario on one host, "
		                                 "as text, markdown or json");
	if (a->base.n)
		return against_baseline(&a->base, &a->list, &a->options, format, a->fail_on);
	if (n_hosts == 1 && a->base_host && a->list.n &&
	    strcmp(cb_results_host(a->list.files[0]), a->base_host) != 0)
		return cb_usage_error("compare", "--baseline-host %s: %s", a->base_host,
		                      "no file given was measured on that host");
	if (n_hosts > 1)
		return across_hosts(&a->list, a->base_host, &a->options, format, a->details,
		                    a->fail_on);
	return across_runs(a);
}

int cb_cmd_compare(int argc, char **argv)
{
	struct compare_args a = {.format = CB_FORMAT_TEXT};
	int rc;

	cb_compare_defaults(&a.options);
	rc = cb_options_parse("compare", compare_options, argc, argv, &a, add_file);
	if (rc == CB_OPTIONS_HELP) {
		fputs(compare_help, stdout);
		rc = CB_EXIT_OK;
	} else if (rc == CB_EXIT_OK) {
		rc = cb_stdout_check("compare", compare(&a));
	}
	cb_file_list_free(&a.list);
	cb_file_list_free(&a.base);
	return rc;
}
