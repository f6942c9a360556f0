/* main.c: the cryptobench program: one binary, one subcommand per job. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
    {"run", cb_cmd_run, "run a scenario and write a results file"},
    {"report", cb_cmd_report, "summarise results files"},
    {"compare", cb_cmd_compare, "do runs of one scenario agree? (reproducibility)"},
    {"plot", cb_cmd_plot, "draw charts of results files with gnuplot"},
    {"engines", cb_cmd_engines, "list engines, versions, algorithms and availability"},
    {"verify", cb_cmd_verify, "known-answer tests and agreement between engines"},
    {"worker-check", cb_cmd_worker_check, "check that a worker program speaks the worker protocol"},
    {"input", cb_cmd_input, "write the generated input, for checking with other tools"},
    {"fleet", cb_cmd_fleet, "run a scenario on many machines (Slurm, GNU parallel over SSH)"},
    {"claims", cb_cmd_claims, "check the claims a text makes about data folders"},
    {"export", cb_cmd_export, "every trial as one row (CSV or JSON) for R, pandas, a spreadsheet"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: cryptobench COMMAND [ARGS]\n\n"
	             "How fast does a crypto engine really hash or encrypt here, and can the\n"
	             "number be trusted?\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'cryptobench COMMAND --help' describes each. Exit status: 0 success, 1 a\n"
	             "problem you asked to fail on, 2 bad input, 130 interrupted.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CB_EXIT_USAGE;
	}
	if (cb_is_help(argv[1])) {
		usage(stdout);
		return CB_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return CB_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	if (strcmp(argv[1], "worker") == 0) /* hidden: started by cryptobench itself */
		return cb_cmd_worker(argc - 1, argv + 1);
	fprintf(stderr, "cryptobench: unknown command '%s' (see 'cryptobench --help')\n", argv[1]);
	return CB_EXIT_USAGE;
}
