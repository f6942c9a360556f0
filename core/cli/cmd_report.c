/* cmd_report.c: cryptobench report — what each results file says. */
#include <stdlib.h>
#include <string.h>

#include "core/cli/cli.h"
#include "analysis/report.h"
#include "core/results.h"

static const char report_help[] =
    "usage: cryptobench report FILE|DIR... [--format text|markdown|csv|json]\n"
    "                          [--statistic auto|min|median|mean] [--delta D]\n\n"
    "Analyse results files one run at a time. Per cell: n, the headline throughput\n"
    "(MB/s = 10^6 bytes/s, and MiB/s) with the statistic named, the median with its\n"
    "exact 95% interval, quartiles, P10/P90, robust CV, mean and SD, ns per call,\n"
    "cycles per byte with the counter named, contamination (median/min - 1; above\n"
    "10% the headline switches to the minimum time), preempted trials, Tukey\n"
    "outliers (counted, never dropped), drift across rounds and lag-1 dependence,\n"
    "and the null engine's share of the time. Then the scenario's derived metrics\n"
    "(ratios paired by round with sign-test intervals, verdicts within delta,\n"
    "expectations), cost per call and per byte across sizes, and crossovers.\n\n"
    "  --format F      text (default), markdown, csv, json\n"
    "  --statistic S   the headline: auto (median, or min when contaminated), min,\n"
    "                  median, mean\n"
    "  --delta D       practical threshold of the verdicts (default 0.02)\n\n"
    "Invalid trials are reported with their reason, never timed. Exit status: 0,\n"
    "or 2 for bad input (flags, files, a malformed derived metric).\n";

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
			fputs(report_help, stdout);
			goto done;
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

			if (s < 0)
				rc = cb_usage_error(
				    "report", "unknown statistic '%s' (auto, min, median, mean)",
				    v);
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
