/* cmd_report.c: cryptobench report — what each results file says. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/html_page.h"
#include "cli/options.h"
#include "analysis/report/report.h"
#include "core/results/results.h"

static void report_help(void)
{
	char stats[128], tables[256];

	printf("usage: cryptobench report FILE|DIR... [--format text|markdown|csv|json|html]\n"
	       "                          [--statistic %s] [--delta D]\n"
	       "                          [--details] [--table NAME] [-o FILE]\n\n",
	       cb_statistic_choices("|", stats, sizeof stats));
	fputs("Analyse results files one run at a time. First, per algorithm, op and size,\n"
	      "the fastest engine and those tied with it (equivalent within delta, judged\n"
	      "on ratios paired by round). Then per cell: n, the headline throughput\n"
	      "(MB/s = 10^6 bytes/s) with its exact 95% interval and the statistic named,\n"
	      "cycles per byte with the counter named, and ns per call; contamination\n"
	      "(median/min - 1; above 10% the headline switches to the minimum time).\n"
	      "Then the scenario's derived metrics (ratios paired by round with sign-test\n"
	      "intervals, verdicts within delta, expectations), cost per call and per byte\n"
	      "across sizes, and crossovers. An estimate whose interval is wider than\n"
	      "itself prints as 'not resolved'. Where a file has profiled trials (run\n"
	      "--explain), which code ran in each cell and which engines' hot code holds\n"
	      "each extension; profiles never enter a headline or a verdict. Files of\n"
	      "several hosts (machines, as compare tells them apart) are printed host by\n"
	      "host.\n\n"
	      "  --format F      text (default, within 100 columns), markdown, csv, json,\n"
	      "                  html: one self-contained page opening on the winners and\n"
	      "                  the size charts, then the machine, the other tables and\n"
	      "                  charts (inline) and each cell's timeline a click away\n"
	      "  -o FILE         write to FILE (default: standard output)\n"
	      "  --statistic S   the headline:\n",
	      stdout);
	cb_print_statistics(stdout, "                    ");
	printf("  --delta D       practical threshold of the verdicts (default 0.02)\n"
	       "  --details       also the spread of each cell (quantiles, MiB/s, robust CV,\n"
	       "                  Tukey outliers, drift, lag-1, preemption, harness share)\n"
	       "                  and every flagged cell by name\n"
	       "  --table NAME    CSV: the table to write, one of %s\n"
	       "                  (default cells, or pk-cells for a file of public-key cells\n"
	       "                  alone); every CSV output is one table\n\n"
	       "Invalid trials are reported with their reason, never timed. Exit status: 0,\n"
	       "or 2 for bad input (flags, files, a malformed derived metric).\n",
	       cb_table_choices(cb_report_tables, tables, sizeof tables));
}

struct report_args {
	struct cb_report_options options;
	struct cb_file_list list;
	const char *output;
};

static int set_table(void *args, const char *v)
{
	struct report_args *a = args;
	char tables[256];

	a->options.table = v;
	if (cb_report_table_index(cb_report_tables, v) < 0)
		return cb_usage_error("report", "unknown table '%s' (%s)", v,
		                      cb_table_choices(cb_report_tables, tables, sizeof tables));
	return CB_EXIT_OK;
}

static int set_format(void *args, const char *v)
{
	struct report_args *a = args;
	int f;
	int rc = cb_report_format_option("report", v, &f);

	a->options.format = (enum cb_report_format)f;
	return rc;
}

static int set_statistic(void *args, const char *v)
{
	struct report_args *a = args;
	int s;
	int rc = cb_statistic_option("report", v, &s);

	a->options.statistic = (enum cb_statistic)s;
	return rc;
}

static int set_delta(void *args, const char *v)
{
	struct report_args *a = args;
	char *end;

	a->options.derive.delta = strtod(v, &end);
	if (*end || end == v || !(a->options.derive.delta > 0 && a->options.derive.delta < 1))
		return cb_usage_error("report", "--delta wants a number in (0, 1), not '%s'", v);
	return CB_EXIT_OK;
}

static int add_file(void *args, const char *path)
{
	return cb_file_list_add(&((struct report_args *)args)->list, path);
}

static const struct cb_cli_option report_options[] = {
    CB_OPTION_BOOL("--details", NULL, struct report_args, options.details),
    CB_OPTION_CALL("--table", NULL, set_table),
    CB_OPTION_CALL("--format", NULL, set_format),
    CB_OPTION_CALL("--statistic", NULL, set_statistic),
    CB_OPTION_CALL("--delta", NULL, set_delta),
    CB_OPTION_STRING("--output", "-o", struct report_args, output),
    CB_OPTION_END,
};

/* The page's answer: the winners tables. */
static int html_answer(FILE *out, void *arg, struct cb_cli_html_charts *charts, char *err,
                       size_t err_len)
{
	struct report_args *a = arg;
	struct cb_report_options o = a->options;

	(void)charts;
	o.part = CB_REPORT_WINNERS;
	return cb_report_print(out, a->list.files, a->list.n, &o, err, err_len);
}

/* A run's extensions charts, beside its "which code ran" tables. */
static void explain_figures(FILE *out, const struct cb_results *r, void *charts)
{
	cb_cli_html_figures(out, charts, r, "extensions");
}

/* ... and the rest of the report, below the machines. */
static int html_body(FILE *out, void *arg, struct cb_cli_html_charts *charts, char *err,
                     size_t err_len)
{
	struct report_args *a = arg;
	struct cb_report_options o = a->options;

	o.part = CB_REPORT_NOT_WINNERS;
	o.explain_figures = explain_figures;
	o.explain_figures_arg = charts;
	return cb_report_print(out, a->list.files, a->list.n, &o, err, err_len);
}

int cb_cmd_report(int argc, char **argv)
{
	struct report_args a = {0};
	struct cb_report_options *options = &a.options;
	int rc;
	char err[1024];

	cb_report_defaults(options);
	rc = cb_options_parse("report", report_options, argc, argv, &a, add_file);
	if (rc == CB_OPTIONS_HELP) {
		report_help();
		rc = CB_EXIT_OK;
		goto done;
	}
	if (rc == CB_EXIT_OK && a.list.n == 0)
		rc = cb_usage_error("report", "which results file?");
	if (rc == CB_EXIT_OK && options->table && options->format != CB_FORMAT_CSV)
		rc = cb_usage_error("report", "--table chooses a CSV table: give --format csv");
	if (rc == CB_EXIT_OK && options->format == CB_FORMAT_HTML) {
		rc = cb_cli_html_page("report", a.output, "cryptobench report", a.list.files,
		                      a.list.n, html_answer, html_body, &a);
		goto done;
	}
	if (rc == CB_EXIT_OK && a.output && !freopen(a.output, "w", stdout)) {
		fprintf(stderr, "cryptobench report: %s: cannot write it\n", a.output);
		rc = CB_EXIT_PROBLEM;
	}
	if (rc == CB_EXIT_OK) {
		int status =
		    cb_report_print(stdout, a.list.files, a.list.n, options, err, sizeof err);

		if (status < 0) {
			fprintf(stderr, "cryptobench report: %s\n", err);
			rc = CB_EXIT_USAGE;
		}
		rc = cb_stdout_check("report", rc);
	}
done:
	cb_file_list_free(&a.list);
	return rc;
}
