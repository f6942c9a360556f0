/* cmd_report.c: cryptobench report — summaries of results files. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "results.h"

static const char report_help[] =
	"usage: cryptobench report FILE... [--format text|markdown|csv|json]\n\n"
	"Summarise results files: per cell the valid trials, throughput (MB/s = 10^6\n"
	"bytes/s) and time per call, invalid trials with their reason, skipped cells.\n"
	"An interrupted file is reported with what it holds, marked as such.\n";

int cb_cmd_report(int argc, char **argv)
{
	struct cb_report_options options = {.format = CB_FORMAT_TEXT};
	struct cb_results **files = calloc((size_t)argc, sizeof *files);
	size_t n = 0;
	int rc = CB_EXIT_OK;
	char err[1024];

	for (int i = 1; i < argc && rc == CB_EXIT_OK; i++) {
		if (cb_is_help(argv[i])) {
			fputs(report_help, stdout);
			goto done;
		}
		if (strcmp(argv[i], "--format") == 0 || strncmp(argv[i], "--format=", 9) == 0) {
			const char *value = argv[i][8] == '=' ? argv[i] + 9 : (i + 1 < argc ? argv[++i] : "");
			int f = cb_report_parse_format(value);

			if (f < 0)
				rc = cb_usage_error("report", "unknown format '%s' (text, markdown, csv, json)", value);
			options.format = (enum cb_report_format)f;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			rc = cb_usage_error("report", "unknown option '%s'", argv[i]);
			continue;
		}
		if (!(files[n] = cb_results_read(argv[i], err, sizeof err))) {
			fprintf(stderr, "%s\n", err);
			rc = CB_EXIT_USAGE;
			continue;
		}
		n++;
	}
	if (rc == CB_EXIT_OK && n == 0)
		rc = cb_usage_error("report", "which results file?");
	if (rc == CB_EXIT_OK)
		cb_report_print(stdout, files, n, &options);
done:
	for (size_t i = 0; i < n; i++)
		cb_results_free(files[i]);
	free(files);
	return rc;
}
