/* vectors_pk.c: public-key known-answer vectors: their keys and answers as
 * read (vectors.c hands the decoded fields over), and one vector run
 * through one engine. The keys are made by the reference (core/algorithms/pk.h), and
 * an engine gets them as every run hands them over: setup->pk. */
#include "core/check/vectors.h"

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Reading ---- */

static bool is_raw(const struct cb_algorithm *alg)
{
	return cb_pk_info(alg)->family == CB_PK_FAMILY_RAW;
}

static bool is_nist(const struct cb_algorithm *alg)
{
	return cb_pk_info(alg)->family == CB_PK_FAMILY_NIST;
}

/* The key of a `private` (PRIV) or `public` field: raw when its length is a
 * raw key's, else DER. NULL with ERR. */
static struct cb_pk_key *vector_key(const struct cb_algorithm *alg, bool priv,
                                    const struct cb_vector_pk_field *in, char *err, size_t err_len)
{
	size_t f = cb_pk_field_len(alg), len = in->len;
	const unsigned char *raw = in->data;
	struct cb_pk_key *key;

	if (priv && is_nist(alg) && len <= f + 1) {
		/* Wycheproof writes a scalar as a signed integer: 00 before a
		 * high bit */
		while (len > f && raw[0] == 0) {
			raw++;
			len--;
		}
		return cb_pk_key_from_raw(alg, raw, len, err, err_len);
	}
	if (is_raw(alg) && len == cb_pk_info(alg)->raw_len)
		return priv ? cb_pk_key_from_raw(alg, raw, len, err, err_len)
		            : cb_pk_key_from_public(alg, raw, len, err, err_len);
	if (!priv && is_nist(alg) && len == 1 + 2 * f && raw[0] == 0x04)
		return cb_pk_key_from_public(alg, raw, len, err, err_len);
	key = cb_pk_key_from_der(alg, raw, len, err, err_len);
	if (key && key->has_private != priv) {
		cb_errorf(err, err_len, "a %s key, where a %s one belongs",
		          key->has_private ? "private" : "public", priv ? "private" : "public");
		cb_pk_key_free(key);
		return NULL;
	}
	return key;
}

static int take_key(struct cb_pk_key **key, const struct cb_algorithm *alg, bool priv,
                    const struct cb_vector_pk_field *in, char *err, size_t err_len, int *line)
{
	char why[256] = "";

	*key = vector_key(alg, priv, in, why, sizeof why);
	if (*key)
		return 0;
	*line = in->line;
	cb_errorf(err, err_len, "'%s': %s", priv ? "private" : "public", why);
	return -1;
}

static int decode_derive(struct cb_vector *v, const struct cb_vector_pk_fields *in, char *err,
                         size_t err_len, int *line)
{
	size_t n = cb_pk_output_len(v->alg, CB_OP_DERIVE);

	v->op = CB_OP_DERIVE;
	if (take_key(&v->pk_key, v->alg, true, &in->priv, err, err_len, line) != 0 ||
	    take_key(&v->pk_peer, v->alg, false, &in->pub, err, err_len, line) != 0)
		return -1;
	if (in->shared.len != n) {
		*line = in->shared.line;
		return cb_errorf(err, err_len, "'shared' is %zu bytes; %s needs %zu",
		                 in->shared.len, v->alg->name, n);
	}
	memcpy(v->shared, in->shared.data, n);
	return 0;
}

/* A signing vector: a private key whose signature is deterministic. */
static int decode_sign(struct cb_vector *v, const struct cb_vector_pk_fields *in, char *err,
                       size_t err_len, int *line)
{
	const struct cb_algorithm *alg = v->alg;
	struct cb_pk_key *pub = NULL;
	bool same;

	v->op = CB_OP_SIGN;
	v->valid = true;
	*line = in->priv.line;
	if (!cb_pk_deterministic(alg))
		return cb_errorf(err, err_len,
		                 "'private' makes a signing vector, but %s signatures are "
		                 "randomized: give 'public' and 'result'",
		                 alg->name);
	if (in->result && strcmp(in->result, "valid") != 0) {
		*line = in->result_line;
		return cb_errorf(err, err_len, "a signing vector's 'result' can only be valid");
	}
	if (cb_pk_sig_len(alg, v->signature, v->signature_len) != v->signature_len) {
		*line = in->signature.line;
		return cb_errorf(err, err_len, "'signature' is %zu bytes; %s needs %zu",
		                 v->signature_len, alg->name, cb_pk_output_len(alg, CB_OP_SIGN));
	}
	if (take_key(&v->pk_key, alg, true, &in->priv, err, err_len, line) != 0)
		return -1;
	if (!in->pub.data)
		return 0;
	if (take_key(&pub, alg, false, &in->pub, err, err_len, line) != 0)
		return -1;
	same = pub->spki.len == v->pk_key->spki.len &&
	       memcmp(pub->spki.data, v->pk_key->spki.data, pub->spki.len) == 0;
	cb_pk_key_free(pub);
	if (same)
		return 0;
	*line = in->pub.line;
	return cb_errorf(err, err_len, "'public' is not the public key of 'private'");
}

int cb_vector_pk_decode(struct cb_vector *v, const struct cb_vector_pk_fields *in, char *err,
                        size_t err_len, int *line)
{
	const struct cb_algorithm *alg = v->alg;
	char why[256] = "";

	*line = in->line;
	if (alg->kind == CB_KIND_KEX)
		return decode_derive(v, in, err, err_len, line);
	if (in->signature.len > CB_PK_MAX_SIG) {
		*line = in->signature.line;
		return cb_errorf(err, err_len, "'signature' is %zu bytes; at most %d are read",
		                 in->signature.len, CB_PK_MAX_SIG);
	}
	v->signature = malloc(in->signature.len + 1);
	if (!v->signature)
		return cb_errorf(err, err_len, "out of memory");
	memcpy(v->signature, in->signature.data, in->signature.len);
	v->signature_len = in->signature.len;
	if (cb_pk_digest_len(alg) &&
	    cb_pk_digest(alg, v->msg, v->msg_len, v->digest, why, sizeof why) != 0)
		return cb_errorf(err, err_len, "%s", why);
	if (in->priv.data)
		return decode_sign(v, in, err, err_len, line);
	v->op = CB_OP_VERIFY;
	if (!in->pub.data)
		return cb_errorf(err, err_len, "%s vector has no 'private' or 'public'", alg->name);
	if (!in->result)
		return cb_errorf(err, err_len, "%s verify vector has no 'result'", alg->name);
	if (strcmp(in->result, "valid") != 0 && strcmp(in->result, "invalid") != 0) {
		*line = in->result_line;
		return cb_errorf(err, err_len, "'result' must be valid or invalid");
	}
	v->valid = strcmp(in->result, "valid") == 0;
	return take_key(&v->pk_key, alg, false, &in->pub, err, err_len, line);
}

/* ---- Running ---- */

static const char *status_name(int status)
{
	return status == CB_OK ? "CB_OK" : status == CB_REJECTED ? "CB_REJECTED" : "CB_FAILED";
}

/* The test-only fault switch (engine.h), "wrong": a bit of the output
 * flipped; a verification's output is its verdict, so it is turned round. */
static bool faulty(const struct cb_engine *engine)
{
	const char *name = cb_fault_engine();

	return name && strcmp(name, engine->name) == 0;
}

static void describe_difference(const char *what, const unsigned char *got,
                                const unsigned char *want, size_t len, char *why, size_t why_len,
                                const char *prefix, enum cb_op op)
{
	size_t at = 0;
	char got_hex[17], want_hex[17];

	while (at < len && got[at] == want[at])
		at++;
	cb_hex(got + at, len - at < 8 ? len - at : 8, got_hex);
	cb_hex(want + at, len - at < 8 ? len - at : 8, want_hex);
	snprintf(why, why_len, "%s: %s%s differs at byte %zu: got %s.., want %s..", cb_op_name(op),
	         prefix, what, at, got_hex, want_hex);
}

/* One operation OP of V through ENGINE, twice on one context. */
static enum cb_vector_result run_op(const struct cb_engine *engine, const struct cb_vector *v,
                                    enum cb_op op, char *why, size_t why_len)
{
	static const struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	const struct cb_algorithm *alg = v->alg;
	struct cb_pk_setup pk = {
	    .key = v->pk_key,
	    .peer = v->pk_peer,
	    .digest = cb_pk_digest_len(alg) ? v->digest : NULL,
	    .digest_len = cb_pk_digest_len(alg),
	    .sig = op == CB_OP_VERIFY ? v->signature : NULL,
	    .sig_len = op == CB_OP_VERIFY ? v->signature_len : 0,
	};
	struct cb_cell_setup setup = {
	    .alg = alg, .op = op, .len = v->msg_len, .config = &config, .pk = &pk};
	int want_status = op == CB_OP_VERIFY && !v->valid ? CB_REJECTED : CB_OK;
	size_t out_len = cb_output_len(alg, op, v->msg_len);
	unsigned char out[CB_PK_MAX_KEYGEN + CB_OUTPUT_SLACK];
	enum cb_vector_result result = CB_VECTOR_PASS;
	char open_err[256] = "";
	void *ctx = cb_engine_open(engine, &setup, open_err, sizeof open_err);
	const struct cb_engine_calls calls = cb_engine_calls_for(engine, alg);

	if (!ctx) {
		snprintf(why, why_len, "%s: open failed: %s", cb_op_name(op),
		         open_err[0] ? open_err : "no reason given");
		return CB_VECTOR_FAIL;
	}
	for (int call = 0; call < 2 && result == CB_VECTOR_PASS; call++) {
		const char *prefix = call ? "second call on the same context: " : "";
		int status;
		size_t n;

		memset(out, 0xa5, sizeof out);
		status = calls.call(ctx, v->msg, v->msg_len, out);
		if (faulty(engine)) {
			if (op == CB_OP_VERIFY && status != CB_FAILED)
				status = status == CB_OK ? CB_REJECTED : CB_OK;
			out[0] ^= 1;
		}
		result = CB_VECTOR_FAIL;
		if (status != want_status && op == CB_OP_VERIFY && status != CB_FAILED)
			snprintf(why, why_len, "verify: %sa%s signature was %s", prefix,
			         v->valid ? " valid" : "n invalid",
			         status == CB_OK ? "accepted" : "rejected");
		else if (status != want_status)
			snprintf(why, why_len, "%s: %scall returned %s, expected %s",
			         cb_op_name(op), prefix, status_name(status),
			         status_name(want_status));
		else if (op == CB_OP_SIGN &&
		         (n = cb_pk_sig_len(alg, out, out_len)) != v->signature_len)
			snprintf(why, why_len, "sign: %sthe signature is %zu bytes, want %zu",
			         prefix, n, v->signature_len);
		else if (op == CB_OP_SIGN && memcmp(out, v->signature, v->signature_len) != 0)
			describe_difference("signature", out, v->signature, v->signature_len, why,
			                    why_len, prefix, op);
		else if (op == CB_OP_DERIVE && memcmp(out, v->shared, out_len) != 0)
			describe_difference("shared secret", out, v->shared, out_len, why, why_len,
			                    prefix, op);
		else
			result = CB_VECTOR_PASS;
	}
	calls.close(ctx);
	return result;
}

enum cb_vector_result cb_vectors_run_pk(const struct cb_engine *engine, const struct cb_vector *v,
                                        char *why, size_t why_len)
{
	enum cb_vector_result result;

	why[0] = '\0';
	if (!cb_engine_supports(engine, v->alg, v->op, CB_MODE_MESSAGE))
		return CB_VECTOR_UNSUPPORTED;
	result = run_op(engine, v, v->op, why, why_len);
	/* A signing vector's signature is a valid one: the engine's verify
	 * must accept it too. */
	if (result == CB_VECTOR_PASS && v->op == CB_OP_SIGN &&
	    cb_engine_supports(engine, v->alg, CB_OP_VERIFY, CB_MODE_MESSAGE))
		result = run_op(engine, v, CB_OP_VERIFY, why, why_len);
	return result;
}
