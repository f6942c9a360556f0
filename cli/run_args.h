/* run_args.h: the arguments of cryptobench run.
 *
 * The parts of the run command (run_output.c: paths and resume; run_many.c:
 * --runs; run_measure.c: one run into one file) read what this parses. */
#ifndef CB_RUN_ARGS_H
#define CB_RUN_ARGS_H

#include <stddef.h>

#include "cli/run_oneline.h"
#include "core/lua/load.h"

#define CB_RUN_MAX_OVERRIDES 64

struct cb_run_args {
	const char *scenario;
	const char *output;
	const char *resume;
	unsigned runs;
	int runs_auto;      /* --runs auto: runs until the table is known (run_auto.h) */
	const char *budget; /* --budget D: of the run until resolved, or of --runs auto */
	double budget_s;
	int run_index; /* internal: this process is run K of --runs */
	int progress;  /* -1: decide from the terminal */
	struct cb_override overrides[CB_RUN_MAX_OVERRIDES];
	size_t n_overrides;
	int quick;
	int force; /* -o may replace an existing file or fill a non-empty folder */
	int dry_run;
	int resume_folder;         /* --resume DIR: finish a --runs folder */
	struct cb_oneline oneline; /* a scenario from flags instead of a file */
	const char *only;          /* --only KEY=VALUE,...: a subset of the cells */
	const char *host;          /* --host NAME: the host's name in the header */
	int kernel_place;          /* --kernel-place: no new start (run_place.h) */
	const char *scenario_of;   /* internal: the scenario a results file records */
	size_t n_operands;         /* scenario files given (one is allowed) */
	const char *extra;         /* the first operand past the scenario */
	char command_line[1024];
};

/* Parse ARGV into A (which needs no setting up) and record the command
 * line. CB_EXIT_OK; CB_EXIT_USAGE with the one-line message printed; or -1
 * after printing the help. Free A with cb_run_args_free either way. */
int cb_run_args_parse(int argc, char **argv, struct cb_run_args *a);

/* The --set copies. */
void cb_run_args_free(struct cb_run_args *a);

#endif
