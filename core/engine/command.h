/* command.h: engines that are whole command-line tools run on a file
 * (sha256sum FILE, openssl dgst -sha256 FILE).
 *
 * The payload is written to a file once per (seed, size), in a folder of
 * $TMPDIR removed at exit. A trial runs the command `calls` times, one
 * process after the other, and its time is the sum of each process's time
 * from spawn to exit: start-up and I/O included, by design. The digest is
 * parsed from each process's stdout (the first word of the right length in
 * hex) and the last one is the trial's output, checked like any engine's; an
 * empty or unparsable output, or a failed process, makes the trial invalid
 * with the command's stderr. CPU time is the children's user + system time.
 * The `true` engine runs `true FILE`: no output, only the start-up cost. */
#ifndef CB_COMMAND_H
#define CB_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "core/engine/engine.h"

struct cb_command_engine {
	const struct cb_engine *engine;
	const char *program; /* looked up in PATH */
	/* The arguments before the file for ALG, or NULL when not offered. */
	const char *const *(*args)(const struct cb_algorithm *alg);
	bool no_output; /* `true`: nothing to parse (a baseline) */
	char path[4096];
	char version[256];
};

const char *cb_command_version(struct cb_command_engine *ce);
int cb_command_probe(struct cb_command_engine *ce, char *why, size_t why_len);
bool cb_command_supports(struct cb_command_engine *ce, const struct cb_algorithm *alg,
                         enum cb_op op, enum cb_mode mode);
void *cb_command_open(struct cb_command_engine *ce, const struct cb_cell_setup *setup, char *err,
                      size_t err_len);
int cb_command_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out);
int cb_command_remote(void *ctx, const struct cb_trial_info *trial, unsigned char *out,
                      struct cb_remote_times *t, char *why, size_t why_len);
void cb_command_close(void *ctx);
int cb_command_self_check(void *ctx, const unsigned char *in, size_t len, const unsigned char *out,
                          char *why, size_t why_len);

/* Define cb_engine_SYM, named LABEL, running PROGRAM with ARGS_FN's
 * arguments; NO_OUTPUT for a baseline whose output is not checked. */
#define CB_COMMAND_ENGINE(sym, label, program_name, args_fn, baseline)                             \
	extern const struct cb_engine cb_engine_##sym;                                             \
	static struct cb_command_engine cb_ce_##sym = {.engine = &cb_engine_##sym,                 \
	                                               .program = program_name,                    \
	                                               .args = args_fn,                            \
	                                               .no_output = baseline};                     \
	static const char *sym##_version(void)                                                     \
	{                                                                                          \
		return cb_command_version(&cb_ce_##sym);                                           \
	}                                                                                          \
	static int sym##_probe(char *why, size_t why_len)                                          \
	{                                                                                          \
		return cb_command_probe(&cb_ce_##sym, why, why_len);                               \
	}                                                                                          \
	static bool sym##_supports(const struct cb_algorithm *alg, enum cb_op op,                  \
	                           enum cb_mode mode)                                              \
	{                                                                                          \
		return cb_command_supports(&cb_ce_##sym, alg, op, mode);                           \
	}                                                                                          \
	static void *sym##_open(const struct cb_cell_setup *cell,                                  \
	                        const struct cb_engine_setup *setup, char *err, size_t err_len)    \
	{                                                                                          \
		(void)setup;                                                                       \
		return cb_command_open(&cb_ce_##sym, cell, err, err_len);                          \
	}                                                                                          \
	const struct cb_engine cb_engine_##sym = {                                                 \
	    .name = label,                                                                         \
	    .kind = "command",                                                                     \
	    .version = sym##_version,                                                              \
	    .probe = sym##_probe,                                                                  \
	    .supports = sym##_supports,                                                            \
	    .open = sym##_open,                                                                    \
	    .call = cb_command_call,                                                               \
	    .close = cb_command_close,                                                             \
	    .remote = cb_command_remote,                                                           \
	    .self_check = baseline ? cb_command_self_check : NULL,                                 \
	}

#endif
