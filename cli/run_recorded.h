/* run_recorded.h: the scenario a results file records, to resume it alone.
 *
 * A results file's header holds the scenario's text and digest, the --set
 * values and --quick it ran with, and its --only: enough to load the same
 * scenario again with no scenario file on the command line
 * ("cryptobench run --resume FILE"). */
#ifndef CB_RUN_RECORDED_H
#define CB_RUN_RECORDED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/lua/load.h"
#include "core/measure/scenario.h"

struct cb_recorded {
	char *path;                    /* the results file it was read from */
	char *file;                    /* the scenario file as the run named it */
	char *source;                  /* its text */
	char sha256[65];               /* of the text the run read */
	struct cb_override *overrides; /* its --set values (params from the command line) */
	size_t n_overrides;
	bool quick;
	char *only; /* its --only, or NULL */
};

/* Read what the results file PATH records. 0, or -1 with one line in ERR. */
int cb_recorded_read(const char *path, struct cb_recorded *rec, char *err, size_t err_len);
void cb_recorded_free(struct cb_recorded *rec);

/* Load the recorded scenario with the recorded --set values followed by
 * GIVEN's (and its budget), and --quick when it was recorded or given: from
 * the recorded file when it still holds the recorded text (so cb.include
 * finds its files), else from the recorded text. NULL with one line in ERR. */
struct cb_scenario *cb_recorded_load(const struct cb_recorded *rec,
                                     const struct cb_load_options *given, char *err,
                                     size_t err_len);

#endif
