/* scenario.h: a scenario as C data: what the plan is built from.
 *
 * core/lua/load.h loads one from a sandboxed Lua script; nothing in Lua runs
 * while anything is timed. */
#ifndef CB_SCENARIO_H
#define CB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/engine/engine.h"

enum cb_order { CB_ORDER_ROUND_ROBIN, CB_ORDER_RANDOMIZED, CB_ORDER_BLOCKED };

/* Sequential rounds, "measure until the answer is known": the scenario's
 * `stop = { budget = "10m", max_rounds = 400, precision = "1%", block = 8 }`
 * or `run --until resolved [--budget 3m]` (--set until=..., stop_budget=...,
 * stop_max_rounds=, stop_precision=, stop_block=). With it the measured
 * rounds run in blocks with a look after each (core/run/runner.h); the
 * scenario's `rounds` are the first rounds, measured in every cell before
 * the first look (rounded up to a whole block). */
enum cb_until { CB_UNTIL_DEFAULT, CB_UNTIL_RESOLVED, CB_UNTIL_ROUNDS };

struct cb_stop_settings {
	bool given;          /* the script has a `stop` table (or --set stop_*) */
	enum cb_until until; /* --set until=resolved|rounds; default: resolved when given */
	double budget_s;     /* wall seconds for the whole run (core/measure/budget.h); 0: none */
	unsigned max_rounds; /* measured rounds at most, per cell */
	double precision;    /* each cell's headline within +-precision (relative); 0: not asked */
	unsigned block;      /* measured rounds per block, a multiple of 8 (the layout's stratum) */
};

/* One entry of `engines`: an engine and the conditions of this variant. */
struct cb_variant {
	char *label; /* unique in the scenario */
	const struct cb_engine *engine;
	struct cb_engine_config config;
	struct cb_option *options; /* engine-specific (config.options points here) */
	size_t n_options;
	char **env;   /* "NAME=value" pairs for a masked process; NULL-ended */
	json_t *spec; /* the entry as written, for the results file */
};

/* A parameter read by cb.param(): its value and where it came from. */
struct cb_param {
	char *name;
	char *value;
	bool from_command_line;
};

/* An engine that cb.available{} dropped, and why. */
struct cb_dropped {
	char *name;
	char *reason;
};

/* Profiled trials after the timed ones (core/run/explain.h, doc/explain.md):
 * the scenario's `explain = { samples = 2000, rate_hz = 1000 }`, or `run
 * --explain[=SAMPLES]` (--set explain_samples=, explain_rate_hz=). */
#define CB_EXPLAIN_SAMPLES 2000 /* per cell, when only --explain is given */
#define CB_EXPLAIN_RATE_HZ 1000 /* per second of CPU time */
struct cb_explain_settings {
	unsigned samples; /* wanted per cell; 0: no profiled trials */
	double rate_hz;   /* 0: CB_EXPLAIN_RATE_HZ */
	bool twins;       /* each profiled trial beside an unsampled one of the same calls */
};

struct cb_scenario {
	char *name;
	char *description;
	char *file;   /* as given on the command line */
	char *source; /* the script's text, byte for byte */
	size_t source_len;
	char sha256[65]; /* of source, hex */

	struct cb_variant *variants;
	size_t n_variants;
	const struct cb_algorithm **algorithms;
	size_t n_algorithms;
	enum cb_op *ops;
	size_t n_ops;
	size_t *sizes; /* bytes, ascending as written */
	size_t n_sizes;
	unsigned *threads;
	size_t n_threads;

	unsigned rounds;
	unsigned warmup_rounds; /* whole interleaved rounds before the measured ones */
	enum cb_order order;
	uint64_t order_seed;    /* for randomized order; recorded */
	uint64_t trial_time_ns; /* minimum duration of one trial */
	uint32_t input_seed;    /* xorshift32 seed of the input generator */
	size_t input_offset;    /* bytes past a page boundary the input starts at */
	bool pin_threads;       /* pin thread t of a trial to the t-th CPU it may use */
	bool layout_per_trial;  /* layout = "trial" (default): each trial's stack and output
	                         * placement drawn anew (trial.h); "run": fixed per run */

	struct cb_stop_settings stop;
	struct cb_explain_settings explain;

	json_t *derive;   /* array of cb.derive{} declarations, as JSON */
	json_t *includes; /* files cb.include() ran: [{path, sha256, source}] */
	struct cb_param *params;
	size_t n_params;
	struct cb_dropped *dropped;
	size_t n_dropped;
};

void cb_scenario_free(struct cb_scenario *scenario);

/* The scenario as the results header records it (name, file, sha256,
 * source, derive, params, settings). New reference. */
json_t *cb_scenario_to_json(const struct cb_scenario *scenario);

const char *cb_order_name(enum cb_order order);

/* Whether SCENARIO measures until resolved (a stop table, or until=resolved,
 * and not until=rounds). */
bool cb_scenario_sequential(const struct cb_scenario *scenario);
/* Measured rounds before the first look: `rounds` rounded up to a block. */
unsigned cb_scenario_first_look(const struct cb_scenario *scenario);
/* Measured rounds the plan holds: `rounds`, or for a sequential scenario
 * the larger of max_rounds and the first look. */
unsigned cb_scenario_planned_rounds(const struct cb_scenario *scenario);

#endif
