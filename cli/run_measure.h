/* run_measure.h: one run of cryptobench run, measured into one results file. */
#ifndef CB_RUN_MEASURE_H
#define CB_RUN_MEASURE_H

#include <signal.h>

#include "cli/run_args.h"
#include "cli/run_place.h"
#include "core/measure/plan.h"
#include "core/measure/scenario.h"

/* Measure PLAN (of scenario S) into A's -o file, a new file under results/,
 * or the interrupted file --resume names, recording PLACE (the header's, or
 * a resume line's, "placement"); stop after the current trial when *STOP
 * is set. The exit status (cli.h), with what happened on stderr. */
int cb_run_measure(struct cb_run_args *a, const struct cb_scenario *s, const struct cb_plan *plan,
                   const struct cb_run_place *place, volatile sig_atomic_t *stop);

#endif
