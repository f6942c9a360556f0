/* verify.h: the body of `cryptobench verify [ENGINE...]`.
 *
 * Two checks per crypto engine, in message mode: every known-answer vector of
 * a folder that the engine supports (core/check/vectors.h), then the agreement
 * check: every algorithm the engine offers, run on the 1 MiB generated input
 * with the standard key and IV, must match the reference table (first bytes
 * of the output, as published in the design documents) and the output of
 * every other engine offering it. A public-key algorithm's agreement is each
 * of its operations the engine offers, on the fixed keys, checked by the
 * reference as a run checks it (cb_verify_pk_cell). The builtins (null, memcpy, sim) are not
 * crypto and are never verified. */
#ifndef CB_VERIFY_H
#define CB_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include "core/engine/engine.h"

#define CB_VERIFY_PASSED 0
#define CB_VERIFY_FAILED 1    /* a vector failed, engines disagreed, or nothing was verifiable */
#define CB_VERIFY_BAD_INPUT 2 /* unknown engine name, unreadable or malformed vector folder */

/* Run the checks on the engines NAMES (N_NAMES of them), or on every
 * compiled-in crypto engine when N_NAMES is 0, with the vectors of
 * VECTORS_DIR. Prints to OUT a matrix (rows algorithms, columns engines;
 * cells "ok", "FAIL", "-" not offered, "n/a" engine unusable here), the
 * unusable engines with their reason, the details of every failure, and a
 * summary line. Returns CB_VERIFY_PASSED when every check passed;
 * CB_VERIFY_FAILED on any failure or disagreement, or when no usable crypto
 * engine was left to verify; CB_VERIFY_BAD_INPUT with ERR filled (and
 * nothing printed) when a name or the folder is bad (or memory ran out). An
 * unusable engine is reported, not failed. */
int cb_verify_run(FILE *out, const char *vectors_dir, const char *const *names, size_t n_names,
                  char *err, size_t err_len);

/* One public-key ALG and OP of ENGINE (usable here, and offering them) as
 * a run's cell makes them: the fixed keys and cb_pk_expect's setup on 32
 * bytes of the generated input; two calls (keygen: one), each output checked
 * by the reference (cb_pk_check), verify's status CB_OK, verify-forged's
 * CB_REJECTED. The fault switch's "wrong" flips a bit of every output and
 * turns every verdict round. 0, or -1 with WHY (verify_pk.c). */
int cb_verify_pk_cell(const struct cb_engine *engine, const struct cb_algorithm *alg, enum cb_op op,
                      char *why, size_t why_len);

/* The reference for ALG on the 1 MiB generated input: hex of the first 8
 * bytes of the output (the digest, or the ciphertext), of the last 8 bytes of
 * the ciphertext and of the first 8 bytes of the tag (NULL where they do not
 * apply). NULL for an algorithm the table does not know. */
struct cb_verify_reference {
	const char *algorithm;
	const char *head;
	const char *tail;
	const char *tag;
};
const struct cb_verify_reference *cb_verify_reference(const char *algorithm);

#endif
