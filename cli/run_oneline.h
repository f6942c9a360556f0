/* run_oneline.h: a scenario from command-line flags, and --only.
 *
 * "cryptobench run --engines openssl,gcrypt --algorithms sha256 --sizes
 * 64B,1MiB" writes the Lua text of the scenario those flags describe; it is
 * loaded like any scenario, so its text, checked by the same loader, goes
 * into the results file's header. The same flags give the same text, byte
 * for byte, so a one-line run resumes like any other. */
#ifndef CB_RUN_ONELINE_H
#define CB_RUN_ONELINE_H

#include <stddef.h>

#include "core/measure/plan.h"

struct cb_oneline {
	const char *engines, *algorithms, *sizes, *ops; /* comma-separated lists */
	const char *rounds, *trial_time;
};

/* Whether any flag of a one-line run was given. */
int cb_oneline_given(const struct cb_oneline *o);

/* The message size of a public-key one-line run that names none: 32 bytes,
 * as the public-key scenarios sign. */
#define CB_ONELINE_PK_SIZE "32B"

/* Write the scenario of O to a new temporary file, its path in PATH (the
 * caller removes it after loading). 0, or -1 with ERR (a value with
 * characters a name never has, or the file could not be written). */
int cb_oneline_write(const struct cb_oneline *o, char *path, size_t path_len, char *err,
                     size_t err_len);

/* Keep only the cells of PLAN that match SPEC, "KEY=VALUE[,KEY=VALUE]...":
 * keys engine (the engine's name), label (the variant's label), algorithm,
 * op, size and threads, meaning what they mean in cb.derive selectors.
 * Values of one key are alternatives; different keys must all match. The
 * schedule is rebuilt. 0, or -1 with ERR when SPEC is malformed, names a
 * label as an engine (or an engine as a label: "'x' is a label: write
 * label=x"), or leaves no cell. */
int cb_plan_only(struct cb_plan *plan, const char *spec, char *err, size_t err_len);

#endif
