/* killpoint.h: a test-only switch that kills the process at a named point.
 *
 * CRYPTOBENCH_KILL_AT=POINT[:N] sends SIGKILL to this very process the Nth
 * time (1 when N is not given) it passes POINT, so that a test can check what
 * a hard kill leaves behind and that --resume completes it:
 *
 *   header     the results file's header and skip lines are written
 *   calibrate  a cell's calibration has run its first (unrecorded) trial
 *   trial      a trial line is written
 *   torn       a trial line is being written: half of it reaches the file
 *   run        `run --runs N`: a run's process has finished (between runs)
 *
 * Unset, the normal case, a point costs a comparison. */
#ifndef CB_KILLPOINT_H
#define CB_KILLPOINT_H

#include <stdbool.h>

/* Kill the process here if CRYPTOBENCH_KILL_AT names POINT and this is its
 * Nth pass. */
void cb_kill_point(const char *point);
/* The same count, for a point that must do something first (a half line):
 * true when the kill is due; the caller then calls cb_kill_now(). */
bool cb_kill_due(const char *point);
void cb_kill_now(void) __attribute__((noreturn));

#endif
