/* profile.h: sampled program counters to a profile of plain data.
 *
 * Per function (object, build id, range, name or hint: symbols.h), the
 * samples that landed in it, the instruction-set classes of the sampled
 * instructions (decode.h), and the classes present anywhere in its code.
 * Counts only: intervals and shares are the analysis's to compute. The
 * process must still run while the profile is built (its mappings and code
 * are read then).
 *
 * As JSON (cb_profile_json), the fields are:
 *   sampler     "timer" (in process) or "ptrace"
 *   rate_hz     the rate asked for, per second of CPU time
 *   cpu_ns      CPU time the sampled threads used while sampled
 *   samples     samples kept; lost: dropped (buffer full); merged: periods
 *               without a sample of their own
 *   classes     {class: samples} over all samples, classes with none left out
 *   classes_before  the same for the instruction just before each sampled one,
 *               which is the one that held the thread up when the sample
 *               came (decode.h, cb_decode_before); "unknown" where the
 *               function's range is not decoded
 *   functions   array, most samples first, each:
 *     object      path of the object file, "[vdso]", "perf map",
 *                 "JIT/anonymous code" or "[unknown]"
 *     build_id    hex, "" when none
 *     offset      the function's first address in the object's own terms
 *                 (objdump -d, addr2line); the PC itself when the range is unknown
 *     size        bytes, 0 when the range is unknown
 *     range       where the range comes from: "cfi", "symbol", "perf-map",
 *                 "region" or "none"
 *     name        the function's name from a symbol that contains it, or null
 *     hint        only when name is null: the nearest exported function below
 *     samples     samples in the function
 *     classes     {class: samples} at its sampled instructions
 *     classes_before  {class: samples} at the instructions just before them
 *     present     the classes of every instruction in its range, or null when
 *                 the range was not decoded (unknown, or above 1 MiB)
 *   degraded    what degraded, in words ("; " between reasons), or null */
#ifndef CB_PROFILE_PROFILE_H
#define CB_PROFILE_PROFILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/profile/decode.h"
#include "core/profile/samples.h"

struct cb_profile_function {
	char *object, *build_id;
	uint64_t offset, size;
	const char *range; /* a static string */
	char *name;        /* NULL when no symbol contains the function */
	char *hint;        /* NULL, or the nearest exported function below */
	uint64_t samples;
	uint64_t classes[CB_ISA_COUNT];        /* samples per class at its sampled instructions */
	uint64_t classes_before[CB_ISA_COUNT]; /* ... at the instructions just before them */
	cb_isa_set present;                    /* classes in its code, when DECODED */
	int decoded;
};

struct cb_profile {
	const char *sampler;
	double rate_hz;
	uint64_t cpu_ns, samples, lost, merged;
	uint64_t classes[CB_ISA_COUNT], classes_before[CB_ISA_COUNT];
	struct cb_profile_function *functions; /* most samples first */
	size_t n_functions;
	char degraded[512]; /* "" when nothing degraded */
};

/* Build OUT from SAMPLES taken in process PID (0: this process). Returns 0;
 * what could not be known (no mappings, undecodable code) is said in
 * OUT->degraded. Returns -1 with ERR only when out of memory. */
int cb_profile_build(pid_t pid, const struct cb_samples *samples, struct cb_profile *out, char *err,
                     size_t err_len);
/* The samples of P in functions named NAME (a test's or a report's
 * question). */
uint64_t cb_profile_samples_in(const struct cb_profile *p, const char *name);
/* The profile as a JSON object (the fields above); NULL when out of memory. */
json_t *cb_profile_json(const struct cb_profile *p);
void cb_profile_free(struct cb_profile *p);

#endif
