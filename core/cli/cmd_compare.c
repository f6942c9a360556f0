/* cmd_compare.c: cryptobench compare — do the runs agree? */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* versionsort */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli/cli.h"
#include "analysis/compare.h"
#include "analysis/report.h"
#include "core/results.h"

static const char compare_help[] =
    "usage: cryptobench compare FILE|FOLDER... [--format text|markdown|csv|json]\n"
    "                           [--delta D] [--fail-on non-reproducible]\n\n"
    "Compare runs of one scenario (results files, or folders of them such as\n"
    "'cryptobench run --runs N' writes). For every cell (median MB/s) and every\n"
    "derived metric (ratio paired by round), each run's estimate with its 95%\n"
    "interval side by side, and a verdict:\n"
    "  reproduced        no rule fired; the across-run value (geometric mean with a\n"
    "                    t-interval) is given\n"
    "  non-reproducible  disjoint run intervals, a spread above 2 delta, or\n"
    "                    heterogeneity (Cochran's Q p < 0.01; I2 > 50% from 10 runs)\n"
    "  contradictory     two runs significant in opposite directions (ratios)\n"
    "  not resolved      fewer than two runs, or a run without an interval\n"
    "Rank flips between engines are listed, with Kendall's W of each ranking.\n\n"
    "  --format F       text (default), markdown, csv, json\n"
    "  --delta D        practical threshold (default 0.02)\n"
    "  --fail-on non-reproducible\n"
    "                   exit 1 when a cell or metric is non-reproducible or\n"
    "                   contradictory\n\n"
    "Exit status: 0, 1 as --fail-on asks, 2 bad input (flags, unreadable files,\n"
    "runs of different scenarios or schema versions).\n";

int cb_cmd_compare(int argc, char **argv)
{
	struct cb_compare_options options;
	enum cb_report_format format = CB_FORMAT_TEXT;
	struct cb_file_list list = {0};
	struct cb_compare *c = NULL;
	int rc = CB_EXIT_OK, fail_on = 0;
	char err[1024];
	const char *v;

	cb_compare_defaults(&options);
	for (int i = 1; i < argc && rc == CB_EXIT_OK; i++) {

		if (cb_is_help(argv[i])) {
			fputs(compare_help, stdout);
			goto done;
		}
		if ((v = cb_option_value(argc, argv, &i, "--format"))) {
			int f = cb_format_parse(v);

			if (f < 0)
				rc = cb_usage_error(
				    "compare", "unknown format '%s' (text, markdown, csv, json)",
				    v);
			format = (enum cb_report_format)f;
			continue;
		}
		if ((v = cb_option_value(argc, argv, &i, "--delta"))) {
			char *end;

			options.derive.delta = strtod(v, &end);
			if (*end || end == v ||
			    !(options.derive.delta > 0 && options.derive.delta < 1))
				rc = cb_usage_error(
				    "compare", "--delta wants a number in (0, 1), not '%s'", v);
			continue;
		}
		if ((v = cb_option_value(argc, argv, &i, "--fail-on"))) {
			if (strcmp(v, "non-reproducible") != 0)
				rc = cb_usage_error(
				    "compare", "--fail-on takes 'non-reproducible', not '%s'", v);
			fail_on = 1;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			rc = cb_usage_error("compare", "unknown option '%s'", argv[i]);
			continue;
		}
		rc = cb_file_list_add(&list, argv[i]);
	}
	if (rc != CB_EXIT_OK)
		goto done;
	if (list.n < 2) {
		rc = cb_usage_error("compare",
		                    "needs at least two runs (files or a folder of them), got %zu",
		                    list.n);
		goto done;
	}
	switch (cb_compare_build(list.files, list.n, &options, &c, err, sizeof err)) {
	case 0:
		break;
	case CB_COMPARE_MISMATCH:
		fprintf(stderr, "cryptobench compare: %s\n", err);
		rc = CB_EXIT_USAGE;
		goto done;
	default:
		fprintf(stderr, "cryptobench compare: %s\n", err);
		rc = CB_EXIT_USAGE;
		goto done;
	}
	cb_report_compare(stdout, c, format);
	if (fail_on && cb_compare_any_unreproduced(c))
		rc = CB_EXIT_PROBLEM;
done:
	cb_compare_free(c);
	cb_file_list_free(&list);
	return rc;
}
