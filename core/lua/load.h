/* load.h: load a scenario from a sandboxed Lua script.
 *
 * The script runs once and only declares; nothing in Lua runs while anything
 * is timed. Every error names the script's file and line. */
#ifndef CB_LUA_LOAD_H
#define CB_LUA_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/measure/scenario.h"

/* A command-line override: --set KEY=VALUE. KEY is a scenario field
 * (rounds, trial_time, sizes, ...) or a cb.param() name. */
struct cb_override {
	const char *key;
	const char *value;
};

/* Options of loading that come from the command line. */
struct cb_load_options {
	const struct cb_override *overrides;
	size_t n_overrides;
	bool quick; /* shrink rounds and sizes for a preview */
	/* run --budget, parsed by the command line (core/measure/budget.h): the stop
	 * budget in seconds (0: none), set after the overrides as if it were
	 * the last, and its text, recorded as the param stop_budget. */
	double budget_s;
	const char *budget_text;
};

/* Load the scenario in PATH. On success returns it; on failure returns NULL
 * and writes one line "FILE:LINE: message" to ERR. */
struct cb_scenario *cb_scenario_load(const char *path, const struct cb_load_options *options,
                                     char *err, size_t err_len);

#endif
