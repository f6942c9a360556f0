/* run_many.h: cryptobench run --runs N, and --resume of a --runs folder. */
#ifndef CB_RUN_MANY_H
#define CB_RUN_MANY_H

#include <signal.h>

#include "cli/run_args.h"
#include "core/measure/scenario.h"

/* Run A's scenario S N times into the folder -o names (or a new one), each
 * run a fresh process of this program given ARGV (without -o, --runs,
 * --resume) and its own layout, drawn from a seed every run records; with
 * --resume DIR, the runs of that folder not yet complete. Stops between runs
 * when *STOP is set. The exit status (cli.h). */
int cb_run_many(struct cb_run_args *a, const struct cb_scenario *s, int argc, char **argv,
                volatile sig_atomic_t *stop);

#endif
