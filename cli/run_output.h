/* run_output.h: where cryptobench run writes, and what --resume continues. */
#ifndef CB_RUN_OUTPUT_H
#define CB_RUN_OUTPUT_H

#include <stdio.h>

#include "cli/run_args.h"
#include "core/measure/scenario.h"

/* mkdir -p PATH: 0, or -1 with errno. */
int cb_make_dirs(const char *path);

/* Refuse (CB_EXIT_USAGE, message printed) an -o PATH that would replace what
 * is there, unless --force, or that is a file where FOLDER wants a folder
 * (or the other way round). CB_EXIT_OK when PATH is NULL or free. */
int cb_run_check_output(const struct cb_run_args *a, const char *path, int folder);

/* results/NAME-YYYYmmdd-HHMMSS plus SUFFIX, made unique with -2, -3, ...
 * and reserved by creating it (a file when SUFFIX is set, else a folder), so
 * two runs started in the same second never share a name. 0, or -1 with
 * errno. */
int cb_run_default_output(const struct cb_scenario *s, const char *suffix, char *buf, size_t len);

/* Print the command that continues PATH: the file (or each file of a --runs
 * folder) records the scenario, its --set values, --quick and --only. */
void cb_run_resume_hint(FILE *out, const char *path);

/* PATH read back, when it is an interrupted run of this very scenario with
 * the same settings (and --only); NULL with the reason printed. */
struct cb_results *cb_run_open_resume(const char *path, const struct cb_scenario *s,
                                      const char *only);

#endif
