/* claims.h: claims about measured data, declared beside a text and checked.
 *
 * A claims file is sandboxed Lua (sandbox.h) that declares, and only
 * declares:
 *
 *   local d = data "key-scaling"    -- a data folder, as the analysis sees it
 *   claim { name = "aes-cbc-10-14", text = "AES-256/AES-128 CBC is 10/14",
 *           check = function() return holds, "evidence" end }
 *   number { name = "AesRatio", value = 0.714, format = "%.3f" }
 *
 * `data(NAME)` returns a table that the caller's source builds (the command
 * line: each run's report and the runs' comparison, as their JSON), so the
 * Lua binding needs nothing of the analysis layer. Each check runs after the
 * file, in its own protected call: it returns whether the claim holds and a
 * line of evidence. A number's value is a number (formatted with FORMAT,
 * string.format's, "%.3g" by default) or a string, or a function returning
 * one, called after the claims. */
#ifndef CB_LUA_CLAIMS_H
#define CB_LUA_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* Where data(NAME) comes from: LOAD returns a new reference to the folder's
 * JSON, or NULL with a one-line ERR (the folder is missing or bad). */
struct cb_claims_source {
	json_t *(*load)(void *ctx, const char *name, char *err, size_t err_len);
	void *ctx;
};

struct cb_claim {
	char *name, *text;
	char *where;    /* "FILE:LINE" of its declaration */
	bool held;      /* the check returned true */
	char *evidence; /* the check's second result ("" when none) */
};

struct cb_claim_number {
	char *name; /* a TeX macro name: letters only */
	char *value;
	char *where;
};

struct cb_claims {
	struct cb_claim *claims;
	size_t n;
	struct cb_claim_number *numbers;
	size_t n_numbers;
};

/* Run the claims file PATH with SOURCE and evaluate every claim and number.
 * NULL with ERR "FILE:LINE: message" for a bad claims file (a syntax or
 * runtime error, a malformed declaration, a check that returns no boolean)
 * or when SOURCE fails (its message follows the place). */
struct cb_claims *cb_claims_run(const char *path, const struct cb_claims_source *source, char *err,
                                size_t err_len);
void cb_claims_free(struct cb_claims *c);

#endif
