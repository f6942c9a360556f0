/* vectors_run.c: one known-answer vector run through one engine (vectors.h). */
#include "core/check/vectors.h"

#include "core/algorithms/input.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *status_name(int status)
{
	return status == CB_OK ? "CB_OK" : status == CB_REJECTED ? "CB_REJECTED" : "CB_FAILED";
}

/* One operation of a vector: what goes in and what must come out. */
struct step {
	enum cb_op op;
	const unsigned char *in;
	size_t len;
	const unsigned char *tag;  /* decrypt: the tag handed to the engine */
	const unsigned char *want; /* NULL: the output is not compared */
	size_t want_len;
	size_t payload_len; /* bytes of WANT before the tag (names the differing part) */
	int want_status;
};

static void describe_difference(const struct step *s, const unsigned char *got, char *why,
                                size_t why_len, const char *prefix)
{
	size_t at = 0, n = 0;
	char got_hex[17], want_hex[17];

	while (at < s->want_len && got[at] == s->want[at])
		at++;
	while (n < 8 && at + n < s->want_len) /* show up to 8 bytes from the first difference */
		n++;
	cb_hex(got + at, n, got_hex);
	cb_hex(s->want + at, n, want_hex);
	if (s->op == CB_OP_HASH)
		snprintf(why, why_len, "%sdigest differs at byte %zu: got %s.., want %s..", prefix,
		         at, got_hex, want_hex);
	else if (at >= s->payload_len)
		snprintf(why, why_len, "%s: %stag differs at byte %zu: got %s.., want %s..",
		         cb_op_name(s->op), prefix, at - s->payload_len, got_hex, want_hex);
	else
		snprintf(why, why_len, "%s: %s%s differs at byte %zu: got %s.., want %s..",
		         cb_op_name(s->op), prefix,
		         s->op == CB_OP_ENCRYPT ? "ciphertext" : "plaintext", at, got_hex,
		         want_hex);
}

/* The test-only fault switch (engine.h): corrupt the output of the engine it names. */
static bool faulty(const struct cb_engine *engine)
{
	const char *name = cb_fault_engine();

	return name && strcmp(name, engine->name) == 0;
}

static enum cb_vector_result run_step(const struct cb_engine *engine, const struct cb_vector *v,
                                      const struct step *s, char *why, size_t why_len)
{
	static const struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	struct cb_cell_setup setup = {
	    .alg = v->alg,
	    .op = s->op,
	    .len = s->len,
	    .key = v->key,
	    .iv = v->iv,
	    .tag = s->tag,
	    .config = &config,
	};
	const struct cb_engine_calls calls = cb_engine_calls_for(engine, v->alg);
	enum cb_vector_result result = CB_VECTOR_PASS;
	size_t out_len = cb_output_len(v->alg, s->op, s->len) + CB_OUTPUT_SLACK;
	unsigned char *out;
	char open_err[256] = "";
	void *ctx;

	setup.aad = v->aad;
	setup.aad_len = v->aad_len;
	out = malloc(out_len);
	if (!out) {
		snprintf(why, why_len, "out of memory");
		return CB_VECTOR_FAIL;
	}
	ctx = cb_engine_open(engine, &setup, open_err, sizeof open_err);
	if (!ctx) {
		snprintf(why, why_len, "%s: open failed: %s", cb_op_name(s->op),
		         open_err[0] ? open_err : "no reason given");
		free(out);
		return CB_VECTOR_FAIL;
	}
	/* Twice on one context: message mode promises the same output every call. */
	for (int call = 0; call < 2 && result == CB_VECTOR_PASS; call++) {
		const char *prefix = call ? "second call on the same context: " : "";
		int status;

		memset(out, 0xa5, out_len);
		status = calls.call(ctx, s->in, s->len, out);
		if (faulty(engine))
			out[0] ^= 1;
		if (status != s->want_status) {
			if (s->op == CB_OP_DECRYPT_FORGED && status == CB_OK)
				snprintf(
				    why, why_len,
				    "decrypt-forged: %sa tag with one bit flipped was accepted",
				    prefix);
			else
				snprintf(why, why_len, "%s: %scall returned %s, expected %s",
				         cb_op_name(s->op), prefix, status_name(status),
				         status_name(s->want_status));
			result = CB_VECTOR_FAIL;
		} else if (s->want && memcmp(out, s->want, s->want_len) != 0) {
			describe_difference(s, out, why, why_len, prefix);
			result = CB_VECTOR_FAIL;
		}
	}
	calls.close(ctx);
	free(out);
	return result;
}

static bool offers(const struct cb_engine *engine, const struct cb_algorithm *alg, enum cb_op op)
{
	return cb_engine_supports(engine, alg, op, CB_MODE_MESSAGE);
}

static enum cb_vector_result run_cipher(const struct cb_engine *engine, const struct cb_vector *v,
                                        char *why, size_t why_len)
{
	size_t tag_len = v->alg->kind == CB_KIND_AEAD ? v->alg->tag_len : 0;
	unsigned char *sealed = malloc(v->msg_len + tag_len + 1);
	unsigned char forged_tag[CB_MAX_TAG];
	struct step encrypt = {
	    .op = CB_OP_ENCRYPT,
	    .in = v->msg,
	    .len = v->msg_len,
	    .want = sealed,
	    .want_len = v->msg_len + tag_len,
	    .payload_len = v->msg_len,
	    .want_status = CB_OK,
	};
	struct step decrypt = {
	    .op = CB_OP_DECRYPT,
	    .in = v->ciphertext,
	    .len = v->msg_len,
	    .tag = tag_len ? v->tag : NULL,
	    .want = v->msg,
	    .want_len = v->msg_len,
	    .payload_len = v->msg_len,
	    .want_status = CB_OK,
	};
	struct step forged = {
	    .op = CB_OP_DECRYPT_FORGED,
	    .in = v->ciphertext,
	    .len = v->msg_len,
	    .tag = forged_tag,
	    .want_status = CB_REJECTED,
	};
	struct step order[3];
	size_t n = 0;
	enum cb_vector_result result = CB_VECTOR_PASS;

	if (!sealed) {
		snprintf(why, why_len, "out of memory");
		return CB_VECTOR_FAIL;
	}
	memcpy(sealed, v->ciphertext, v->msg_len);
	memcpy(sealed + v->msg_len, v->tag, tag_len);
	memcpy(forged_tag, v->tag, sizeof forged_tag);
	forged_tag[0] ^= 1;
	order[n++] = v->op == CB_OP_DECRYPT ? decrypt : encrypt;
	if (offers(engine, v->alg, v->op == CB_OP_DECRYPT ? CB_OP_ENCRYPT : CB_OP_DECRYPT))
		order[n++] = v->op == CB_OP_DECRYPT ? encrypt : decrypt;
	if (tag_len && offers(engine, v->alg, CB_OP_DECRYPT_FORGED))
		order[n++] = forged;
	for (size_t i = 0; i < n && result == CB_VECTOR_PASS; i++)
		result = run_step(engine, v, &order[i], why, why_len);
	free(sealed);
	return result;
}

enum cb_vector_result cb_vectors_run(const struct cb_engine *engine, const struct cb_vector *v,
                                     char *why, size_t why_len)
{
	why[0] = '\0';
	if (cb_alg_is_pk(v->alg))
		return cb_vectors_run_pk(engine, v, why, why_len);
	if (!offers(engine, v->alg, v->op))
		return CB_VECTOR_UNSUPPORTED;
	if (v->alg->kind == CB_KIND_HASH) {
		struct step hash = {
		    .op = CB_OP_HASH,
		    .in = v->msg,
		    .len = v->msg_len,
		    .want = v->digest,
		    .want_len = v->alg->digest_len,
		    .want_status = CB_OK,
		};

		return run_step(engine, v, &hash, why, why_len);
	}
	return run_cipher(engine, v, why, why_len);
}
