/* cmd_report.c: cryptobench report — what each results file says. */
#include <stdlib.h>
#include <string.h>

#include "core/cli/cli.h"
#include "analysis/report/report.h"
#include "core/results.h"

static void report_help(void)
{
	char stats[128], tables[256];

	printf("usage: cryptobench report FILE|DIR... [--format text|markdown|csv|json]\n"
	       "                          [--statistic %s] [--delta D]\n"
	       "                          [--details] [--table NAME]\n\n",
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
	      "itself prints as 'not resolved'.\n\n"
	      "  --format F      text (default, within 100 columns), markdown, csv, json\n"
	      "  --statistic S   the headline:\n",
	      stdout);
	cb_print_statistics(stdout, "                    ");
	printf("  --delta D       practical threshold of the verdicts (default 0.02)\n"
	       "  --details       also the spread of each cell (quantiles, MiB/s, robust CV,\n"
	       "                  Tukey outliers, drift, lag-1, preemption, harness share)\n"
	       "                  and every flagged cell by name\n"
	       "  --table NAME    CSV: the table to write, one of %s\n"
	       "                  (default cells); every CSV output is one table\n\n"
	       "Invalid trials are reported with their reason, never timed. Exit status: 0,\n"
	       "or 2 for bad input (flags, files, a malformed derived metric).\n",
	       cb_table_choices(cb_report_tables, tables, sizeof tables));
}

int cb_cmd_report(int argc, char **argv)
{
	struct cb_report_options options;
	struct cb_file_list list = {0};
	int rc = CB_EXIT_OK;
	char err[1024];
	const char *v;

	cb_report_defaults(&options);
	for (int i = 1; i < argc && rc == CB_EXIT_OK; i++) {
		if (cb_is_help(argv[i])) {
			report_help();
			goto done;
		}
		if (strcmp(argv[i], "--details") == 0) {
			options.details = true;
			continue;
		}
		if ((v = cb_option_value(argc, argv, &i, "--table"))) {
			char tables[256];

			if (cb_report_table_index(cb_report_tables, v) < 0)
				rc = cb_usage_error(
				    "report", "unknown table '%s' (%s)", v,
				    cb_table_choices(cb_report_tables, tables, sizeof tables));
			options.table = v;
			continue;
		}
		if ((v = cb_option_value(argc, argv, &i, "--format"))) {
			int f = cb_format_parse(v);

			if (f < 0)
				rc = cb_usage_error(
				    "report", "unknown format '%s' (text, markdown, csv, json)", v);
			options.format = (enum cb_report_format)f;
			continue;
		}
		if ((v = cb_option_value(argc, argv, &i, "--statistic"))) {
			int s = cb_statistic_parse(v);
			char stats[128];

			if (s < 0)
				rc =
				    cb_usage_error("report", "unknown statistic '%s' (%s)", v,
				                   cb_statistic_choices(", ", stats, sizeof stats));
			options.statistic = (enum cb_statistic)s;
			continue;
		}
		if ((v = cb_option_value(argc, argv, &i, "--delta"))) {
			char *end;

			options.derive.delta = strtod(v, &end);
			if (*end || end == v ||
			    !(options.derive.delta > 0 && options.derive.delta < 1))
				rc = cb_usage_error(
				    "report", "--delta wants a number in (0, 1), not '%s'", v);
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			rc = cb_usage_error("report", "unknown option '%s'", argv[i]);
			continue;
		}
		rc = cb_file_list_add(&list, argv[i]);
	}
	if (rc == CB_EXIT_OK && list.n == 0)
		rc = cb_usage_error("report", "which results file?");
	if (rc == CB_EXIT_OK && options.table && options.format != CB_FORMAT_CSV)
		rc = cb_usage_error("report", "--table chooses a CSV table: give --format csv");
	if (rc == CB_EXIT_OK) {
		int status = cb_report_print(stdout, list.files, list.n, &options, err, sizeof err);

		if (status < 0) {
			fprintf(stderr, "cryptobench report: %s\n", err);
			rc = CB_EXIT_USAGE;
		}
	}
done:
	cb_file_list_free(&list);
	return rc;
}
