/* attribution.h: which code ran in each cell, from a results file's profile
 * lines (run --explain; doc/explain.md).
 *
 * Per cell, the profile lines of its profiled trials pooled: the samples,
 * the functions they landed in (most first) with their share and a 95%
 * exact interval, the instruction-set classes at the samples (the class of
 * the instruction just before each sampled one, where the time stops, and
 * of the sampled one), the classes present in the hot code (the functions
 * holding CB_ATTRIBUTION_HOT of the samples or more), how the samples divide
 * between the crypto library's code, the runtime's and the rest, and the
 * profiled trials' cost (their time per call over the timed trials').
 * Per algorithm, op and size, which engines' hot code holds each notable
 * extension (sha-ni, aes-ni, vaes, ...).
 *
 * It reads the results' `profiles` only, and nothing that judges (a
 * statistic, a verdict, a stop rule) reads it: a profile informs a reader
 * and never a headline. The masks' code join (masks.h) sets it beside a
 * mask's timing verdict and says whether the two agree; it never changes
 * that verdict. Strings it gives point into the results' profile
 * lines, which must outlive it. */
#ifndef CB_ATTRIBUTION_H
#define CB_ATTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/results/results.h"

/* The functions a cell's row names, at most. */
#define CB_ATTRIBUTION_TOP 5
/* A function holding this share of a cell's samples or more is hot code. */
#define CB_ATTRIBUTION_HOT 0.05
/* The level of every interval here. */
#define CB_ATTRIBUTION_LEVEL 0.95

/* Whose code a sample landed in (the table of patterns is attribution_sides.c). */
enum cb_attribution_side {
	CB_SIDE_LIBRARY, /* the crypto library's code */
	CB_SIDE_RUNTIME, /* interpreter, JIT and its code, allocator, collector */
	CB_SIDE_OTHER,   /* libc, the kernel, the harness, anything else */
	CB_SIDE_COUNT
};

/* A part of a cell's samples: a class, a side, a function. */
struct cb_attribution_share {
	const char *what; /* a class's name ("sha-ni"), or NULL */
	uint64_t samples;
	double share, lo, hi; /* of the cell's samples; exact interval at CB_ATTRIBUTION_LEVEL */
};

struct cb_attribution_function {
	char *name; /* its name, else "OBJECT+0xOFFSET (near HINT)": never a guess */
	const char *object;
	uint64_t offset; /* of its first range seen (a named function may have several) */
	struct cb_attribution_share part;
	enum cb_attribution_side side;
	uint32_t present; /* bit i: cb_attribution_classes[i] is in its code */
	bool decoded;     /* its code was decoded (present is known) */
};

struct cb_attribution_cell {
	const char *engine, *label, *algorithm, *op; /* from the line's cell */
	uint64_t size;
	unsigned threads;
	char *key;           /* "label|algorithm|op|size|threads", as cb_result_cell.key */
	const char *sampler; /* "timer" or "ptrace" */
	size_t trials;       /* profile lines with a profile */
	size_t refused_trials;
	const char *refused;  /* why no profile: set when no line had one */
	const char *degraded; /* the first profile's degradation, or NULL */
	uint64_t samples;
	struct cb_attribution_function *functions; /* most samples first */
	size_t n_functions;
	struct cb_attribution_share *before, *at; /* classes_before, classes: most first */
	size_t n_before, n_at;
	uint32_t present;   /* the classes of the hot code (bits as functions') */
	bool present_known; /* a hot function's code was decoded */
	struct cb_attribution_share sides[CB_SIDE_COUNT];
	double cost; /* median time per call profiled / timed; NaN when none */
};

/* Which engines' hot code holds EXTENSION, for one algorithm, op and size. */
struct cb_attribution_engine_use {
	const char *label; /* the cell's label */
	unsigned threads;
	int uses; /* 1 the hot code holds it, 0 not, -1 not known (not decoded) */
	struct cb_attribution_share part; /* samples in functions whose code holds it */
};

struct cb_attribution_summary {
	const char *algorithm, *op;
	uint64_t size;
	const char *extension;
	struct cb_attribution_engine_use *engines; /* the cells' order */
	size_t n_engines;
	char *uses, *not_used, *unknown; /* the engines in words, "" when none */
};

/* A reason profiles were refused, and in how many cells. */
struct cb_attribution_refusal {
	const char *reason;
	size_t cells;
};

struct cb_attribution {
	size_t lines;                      /* profile lines read */
	struct cb_attribution_cell *cells; /* the lines' cells, first seen first */
	size_t n_cells;
	struct cb_attribution_summary *summary; /* per algorithm, op, size and extension */
	size_t n_summary;
	struct cb_attribution_refusal *refusals; /* of the cells without a profile */
	size_t n_refusals;
};

/* The class names in their order (bit i of a `present`), NULL-terminated:
 * decode.h's classes, as a profile names them, x86-64's and AArch64's. */
extern const char *const cb_attribution_classes[];
/* The extensions the summary asks about, NULL-terminated. */
extern const char *const cb_attribution_extensions[];

/* What R's profile lines say, per cell and per algorithm, op and size. An
 * empty explanation (n_cells 0) when R has none. NULL with ERR only when
 * memory runs out. */
struct cb_attribution *cb_attribution_build(const struct cb_results *r, char *err, size_t err_len);
void cb_attribution_free(struct cb_attribution *e);

/* Whose code OBJECT (a profile's object path) and NAME (a function's name,
 * or NULL) are: the first rule of the table that matches (attribution_sides.c). */
enum cb_attribution_side cb_attribution_side_of(const char *object, const char *name);
/* "library", "runtime", "other". */
const char *cb_attribution_side_name(enum cb_attribution_side s);
/* A function's name for a reader into BUF: NAME when known, else
 * "OBJECT+0xOFFSET (near HINT)" with OBJECT's file name, without the hint
 * when there is none. */
void cb_attribution_function_name(const char *object, uint64_t offset, const char *name,
                                  const char *hint, char *buf, size_t len);
/* CLASSES (bits of cb_attribution_classes) as words: "base sse sha-ni". */
void cb_attribution_classes_text(uint32_t classes, char *buf, size_t len);

#endif
