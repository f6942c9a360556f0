/* test_engines.c: every engine configure declares, driven by the registry.
 *
 * For each optional engine of configure's list (CB_ENGINES_CONFIGURED): not
 * compiled in, one SKIP line; compiled in but unusable here (kcapi without
 * AF_ALG), the checks that need no library call and one SKIP line per
 * algorithm it offers, with the probe's reason; usable, every algorithm it
 * offers in every op and mode it offers: the agreed outputs on the 1 MiB
 * input (core/check/verify.c's agreement table, the one `cryptobench verify`
 * uses), reuse = recreate, chunks and stream = one message, decryption round
 * trips, forged tags refused, CBC lengths refused, and for each vector of
 * tests/vectors/ with associated data, what the vector runner does not
 * check (recreated contexts, altered AAD, no AAD). tests/test_vectors runs
 * every vector through every engine. First, the seam every open goes
 * through (cb_engine_open), on an engine of this file.
 *
 * The plan is computed before the first check: each group counts its points
 * in a dry pass that runs nothing. */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/algorithms/algorithm.h"
#include "core/engine/engine.h"
#include "core/algorithms/input.h"
#include "core/check/vectors.h"
#include "core/check/verify.h"
#include "tests/tap.h"

#define UNIT CB_INPUT_UNIT
#define BIG_UNITS 3            /* the stream test feeds the unit this many times */
#define AEAD_FALLBACK_LEN 4096 /* for an engine that refuses 1 MiB AEAD messages */

static struct cb_input input, big;           /* 1 MiB; the same unit BIG_UNITS times */
static unsigned char *out_a, *out_b, *out_c; /* 1 MiB + CB_OUTPUT_SLACK each */
static struct cb_vector_set vectors;

static bool dry; /* counting the plan: every group returns its points and runs nothing */

static void skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static const char *hex8(const unsigned char *p, char hex[17])
{
	cb_hex(p, 8, hex);
	return hex;
}

/* ---- Running cells ---- */

struct run {
	const struct cb_engine *engine;
	const struct cb_algorithm *alg;
	enum cb_op op;
	enum cb_mode mode;
	bool recreate;
	size_t chunk;
	const unsigned char *tag;
	const unsigned char *key, *iv; /* NULL: the standard key and IV */
	const unsigned char *aad;      /* kept alive by the caller until close */
	size_t aad_len;
};

static void *run_open(const struct run *r, size_t len, char *err, size_t err_len)
{
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV];
	struct cb_engine_config config = {
	    .mode = r->mode, .recreate = r->recreate, .chunk = r->chunk};
	struct cb_cell_setup setup = {.alg = r->alg,
	                              .op = r->op,
	                              .len = len,
	                              .key = key,
	                              .iv = iv,
	                              .tag = r->tag,
	                              .aad = r->aad,
	                              .aad_len = r->aad_len,
	                              .config = &config};

	cb_standard_key(r->alg, key);
	cb_standard_iv(r->alg, iv);
	if (r->key)
		memcpy(key, r->key, r->alg->key_len);
	if (r->iv)
		memcpy(iv, r->iv, r->alg->iv_len);
	/* The engine must copy what it keeps: these go out of scope. */
	// cppcheck-suppress returnDanglingLifetime ; open returns its own context
	return cb_engine_open(r->engine, &setup, err, err_len);
}

/* One message in message mode, CALLS times on one context; OUT holds the
 * last output. The last status, or CB_FAILED - 1 when open failed. */
static int run_message(const struct run *r, const unsigned char *in, size_t len, unsigned char *out,
                       int calls)
{
	char err[256] = "";
	void *ctx = run_open(r, len, err, sizeof err);
	int rc = CB_OK;

	if (!ctx) {
		diag("%s %s %s: open failed: %s", r->engine->name, r->alg->name, cb_op_name(r->op),
		     err);
		return CB_FAILED - 1;
	}
	for (int i = 0; i < calls; i++)
		rc = r->engine->call(ctx, in, len, out);
	r->engine->close(ctx);
	return rc;
}

/* Stream mode over IN cut at the offsets CUTS (ascending, the last is the
 * length); ciphers write the concatenation to OUT, hashes the digest. */
static int run_stream(const struct run *r, const unsigned char *in, const size_t *cuts,
                      size_t n_cuts, unsigned char *out)
{
	char err[256] = "";
	void *ctx = run_open(r, cuts[0], err, sizeof err);
	size_t from = 0;
	int rc = CB_OK;

	if (!ctx) {
		diag("%s %s stream: open failed: %s", r->engine->name, r->alg->name, err);
		return CB_FAILED - 1;
	}
	for (size_t i = 0; i < n_cuts && rc == CB_OK; i++) {
		unsigned char *dst = r->alg->kind == CB_KIND_HASH ? out : out + from;

		rc = r->engine->call(ctx, in + from, cuts[i] - from, dst);
		from = cuts[i];
	}
	if (rc == CB_OK)
		rc = r->engine->finish(ctx, out);
	r->engine->close(ctx);
	return rc;
}

/* stderr goes to a temporary file between quiet_begin and quiet_end, which
 * says whether anything was written: engines never print. */
struct quiet {
	FILE *sink;
	int saved;
};

static struct quiet quiet_begin(void)
{
	struct quiet q = {tmpfile(), dup(STDERR_FILENO)};

	fflush(stderr);
	if (q.sink && q.saved >= 0)
		dup2(fileno(q.sink), STDERR_FILENO);
	return q;
}

static bool quiet_end(struct quiet q)
{
	bool printed = false;

	fflush(stderr);
	if (q.sink && q.saved >= 0) {
		dup2(q.saved, STDERR_FILENO);
		printed = lseek(fileno(q.sink), 0, SEEK_END) > 0;
	}
	if (q.saved >= 0)
		close(q.saved);
	if (q.sink)
		fclose(q.sink);
	return printed;
}

/* ---- The seam ---- */

static unsigned seam_opens;
static bool seam_open_fails;

static const char *seam_version(void)
{
	return "test";
}

static bool seam_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	return cb_op_applies(alg, op) && !(mode == CB_MODE_STREAM && alg->kind == CB_KIND_AEAD);
}

static void *seam_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	(void)setup;
	(void)err;
	(void)err_len;
	seam_opens++;
	return seam_open_fails ? NULL : (void *)cell;
}

static void seam_close(void *ctx)
{
	(void)ctx;
}

static const struct cb_engine seam_engine = {
    .name = "seamtest",
    .kind = "builtin",
    .version = seam_version,
    .supports = seam_supports,
    .open = seam_open,
    .close = seam_close,
    .max_aad = 16,
};

/* Open SETUP on the seam engine: the error, "" when it opened. */
static const char *seam_try(const struct cb_cell_setup *setup)
{
	static char err[256];
	void *ctx;

	strcpy(err, "(untouched)");
	ctx = cb_engine_open(&seam_engine, setup, err, sizeof err);
	if (ctx) {
		seam_close(ctx);
		return "";
	}
	return err;
}

static int check_seam(void)
{
	static const unsigned char bytes[32];
	static const struct cb_engine_config message = {.mode = CB_MODE_MESSAGE};
	static const struct cb_engine_config stream = {.mode = CB_MODE_STREAM};
	static const struct cb_engine_config stream_recreate = {.mode = CB_MODE_STREAM,
	                                                        .recreate = true};
	static const struct cb_engine_config chunked = {.mode = CB_MODE_MESSAGE, .chunk = 4096};
	const struct cb_algorithm *gcm = cb_algorithm_find("aes-128-gcm");
	const struct cb_algorithm *sha = cb_algorithm_find("sha256");
	const struct cb_algorithm *cbc = cb_algorithm_find("aes-128-cbc");
	const struct cb_algorithm *ctr = cb_algorithm_find("aes-128-ctr");
	struct cb_cell_setup s;

	if (dry)
		return 11;
	seam_opens = 0;
	s = (struct cb_cell_setup){.alg = gcm,
	                           .op = CB_OP_ENCRYPT,
	                           .len = 64,
	                           .key = bytes,
	                           .iv = bytes,
	                           .config = &stream};
	is_str(seam_try(&s), "seamtest: aes-128-gcm encrypt in stream mode not offered",
	       "seam: what supports() denies is not offered");
	s = (struct cb_cell_setup){
	    .alg = sha, .op = CB_OP_HASH, .len = 64, .config = &stream_recreate};
	is_str(seam_try(&s), "seamtest: recreate applies to message mode only",
	       "seam: recreate in stream mode is refused");
	s = (struct cb_cell_setup){.alg = ctr,
	                           .op = CB_OP_ENCRYPT,
	                           .len = 64,
	                           .key = bytes,
	                           .iv = bytes,
	                           .config = &chunked};
	is_str(seam_try(&s), "seamtest: chunk applies to hashes only",
	       "seam: chunk on a cipher is refused");
	s = (struct cb_cell_setup){.alg = cbc, .op = CB_OP_ENCRYPT, .len = 64, .config = &message};
	is_str(seam_try(&s), "seamtest: aes-128-cbc needs a key and an IV",
	       "seam: a cipher without a key is refused");
	s = (struct cb_cell_setup){.alg = gcm,
	                           .op = CB_OP_DECRYPT,
	                           .len = 64,
	                           .key = bytes,
	                           .iv = bytes,
	                           .config = &message};
	is_str(seam_try(&s), "seamtest: decryption needs the tag",
	       "seam: AEAD decryption without a tag is refused");
	s = (struct cb_cell_setup){.alg = gcm,
	                           .op = CB_OP_ENCRYPT,
	                           .len = 64,
	                           .key = bytes,
	                           .iv = bytes,
	                           .aad_len = 5,
	                           .config = &message};
	is_str(seam_try(&s), "seamtest: 5 bytes of AAD without a buffer",
	       "seam: AAD without a buffer is refused");
	s.aad = bytes;
	s.aad_len = 17;
	is_str(seam_try(&s), "seamtest: 17 bytes of AAD exceed its limit of 16",
	       "seam: AAD beyond the engine's max_aad is refused");
	s.config = NULL;
	is_str(seam_try(&s), "seamtest: open without a configuration",
	       "seam: a setup without a configuration is refused");
	is_num(seam_opens, 0u, "seam: no refused setup reached the engine's open");
	s.config = &message;
	s.aad_len = 16;
	ok(strcmp(seam_try(&s), "") == 0 && seam_opens == 1,
	   "seam: a valid setup (16 bytes of AAD) reaches open once");
	seam_open_fails = true;
	is_str(seam_try(&s), "seamtest: open failed",
	       "seam: an open that fails without a reason gets one");
	seam_open_fails = false;
	return 11;
}

/* ---- The seam's public-key half ---- */

static unsigned half_opens, own_pk_asks;

/* The engine's own supports: counts every public-key algorithm it is asked about. */
static bool pkseam_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	own_pk_asks += cb_alg_is_pk(alg);
	return seam_supports(alg, op, mode);
}

static bool half_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return alg->scheme == CB_PK_ED25519 && cb_op_applies(alg, op);
}

static void *half_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	(void)setup;
	(void)err;
	(void)err_len;
	half_opens++;
	return (void *)cell;
}

static int half_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	(void)ctx;
	(void)in;
	(void)len;
	(void)out;
	return CB_OK;
}

static const struct cb_pk_ops half = {
    .supports = half_supports,
    .open = half_open,
    .call = half_call,
    .close = seam_close,
};

static const struct cb_engine pkseam_engine = {
    .name = "pkseamtest",
    .kind = "builtin",
    .version = seam_version,
    .supports = pkseam_supports,
    .open = seam_open,
    .close = seam_close,
    .pk = &half,
};

/* The registry sends public-key algorithms to an engine's half and the
 * rest to the engine: its own functions never see a public-key one. */
static int check_pk_seam(void)
{
	static const struct cb_engine_config message = {.mode = CB_MODE_MESSAGE};
	const struct cb_algorithm *ed = cb_algorithm_find("ed25519");
	const struct cb_algorithm *x = cb_algorithm_find("x25519");
	const struct cb_algorithm *sha = cb_algorithm_find("sha256");
	struct cb_cell_setup s = {.alg = ed, .op = CB_OP_KEYGEN, .len = 32, .config = &message};
	struct cb_engine_calls pk_calls, own_calls;
	char err[256] = "";
	void *ctx;

	if (dry)
		return 4;
	own_pk_asks = half_opens = seam_opens = 0;
	ok(cb_engine_supports(&pkseam_engine, ed, CB_OP_SIGN, CB_MODE_MESSAGE) &&
	       !cb_engine_supports(&pkseam_engine, ed, CB_OP_SIGN, CB_MODE_STREAM) &&
	       !cb_engine_supports(&pkseam_engine, x, CB_OP_DERIVE, CB_MODE_MESSAGE) &&
	       cb_engine_supports(&pkseam_engine, sha, CB_OP_HASH, CB_MODE_MESSAGE),
	   "pk seam: the half answers for public key (message mode only), the engine for the "
	   "rest");
	ctx = cb_engine_open(&pkseam_engine, &s, err, sizeof err);
	ok(ctx && half_opens == 1 && seam_opens == 0,
	   "pk seam: a public-key cell opens in the half%s", err);
	pk_calls = cb_engine_calls_for(&pkseam_engine, ed);
	own_calls = cb_engine_calls_for(&pkseam_engine, sha);
	ok(pk_calls.call == half_call && !pk_calls.finish && !own_calls.call &&
	       own_calls.close == seam_close,
	   "pk seam: a public-key context's calls are the half's, the others the engine's");
	is_num(own_pk_asks, 0u,
	       "pk seam: the engine's own supports is never asked about a public-key algorithm");
	return 4;
}

/* ---- Engine-level checks ---- */

/* supports() keeps the contract over every algorithm, op and mode: only ops
 * that apply; decrypt with encrypt; decrypt-forged exactly with AEAD decrypt;
 * no AEAD stream; stream only where message mode is offered. */
static int check_contract(const struct cb_engine *e)
{
	size_t offered = 0;
	bool right = true;

	if (dry)
		return 1;
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);
		bool m[CB_OP_COUNT], s[CB_OP_COUNT];

		for (int op = 0; op < CB_OP_COUNT; op++) {
			m[op] = cb_engine_supports(e, alg, (enum cb_op)op, CB_MODE_MESSAGE);
			s[op] = cb_engine_supports(e, alg, (enum cb_op)op, CB_MODE_STREAM);
			if ((m[op] || s[op]) && !cb_op_applies(alg, (enum cb_op)op)) {
				diag("%s %s: offers %s, which does not apply", e->name, alg->name,
				     cb_op_name((enum cb_op)op));
				right = false;
			}
			if (s[op] && (!m[op] || alg->kind == CB_KIND_AEAD)) {
				diag("%s %s %s: stream offered where it must not be", e->name,
				     alg->name, cb_op_name((enum cb_op)op));
				right = false;
			}
		}
		if (alg->kind != CB_KIND_HASH && m[CB_OP_ENCRYPT] != m[CB_OP_DECRYPT]) {
			diag("%s %s: encrypt %d, decrypt %d", e->name, alg->name, m[CB_OP_ENCRYPT],
			     m[CB_OP_DECRYPT]);
			right = false;
		}
		if (alg->kind == CB_KIND_AEAD && m[CB_OP_DECRYPT] != m[CB_OP_DECRYPT_FORGED]) {
			diag("%s %s: decrypt %d, decrypt-forged %d", e->name, alg->name,
			     m[CB_OP_DECRYPT], m[CB_OP_DECRYPT_FORGED]);
			right = false;
		}
		offered += m[CB_OP_HASH] || m[CB_OP_ENCRYPT];
	}
	ok(right, "%s: supports() keeps the contract (%zu algorithms offered)", e->name, offered);
	return 1;
}

static bool offers(const struct cb_engine *e, const struct cb_algorithm *alg)
{
	return e->supports(alg, alg->kind == CB_KIND_HASH ? CB_OP_HASH : CB_OP_ENCRYPT,
	                   CB_MODE_MESSAGE);
}

/* ---- Per algorithm ---- */

static int check_hash(const struct cb_engine *e, const struct cb_algorithm *alg)
{
	const struct cb_verify_reference *ref = cb_verify_reference(alg->name);
	bool stream = e->supports(alg, CB_OP_HASH, CB_MODE_STREAM);
	struct run r = {.engine = e, .alg = alg, .op = CB_OP_HASH};
	size_t d = alg->digest_len;
	const size_t cuts[] = {1000, 334333, UNIT};
	char hex[17];

	if (dry)
		return stream ? 9 : 6;
	memset(out_a, 0, d);
	ok(run_message(&r, input.data, UNIT, out_a, 2) == CB_OK, "%s %s: hash returns CB_OK",
	   e->name, alg->name);
	is_str(hex8(out_a, hex), ref ? ref->head : "(no reference)",
	       "%s %s: digest of 1 MiB as agreed (second call on a reused context)", e->name,
	       alg->name);

	r.recreate = true;
	memset(out_b, 0, d);
	ok(run_message(&r, input.data, UNIT, out_b, 2) == CB_OK && memcmp(out_a, out_b, d) == 0,
	   "%s %s: recreate = reuse", e->name, alg->name);
	r.recreate = false;
	r.chunk = 4096;
	memset(out_b, 0, d);
	ok(run_message(&r, input.data, UNIT, out_b, 1) == CB_OK && memcmp(out_a, out_b, d) == 0,
	   "%s %s: chunks of 4096 = one update", e->name, alg->name);
	r.chunk = 1000;
	memset(out_b, 0, d);
	ok(run_message(&r, input.data, UNIT, out_b, 2) == CB_OK && memcmp(out_a, out_b, d) == 0,
	   "%s %s: chunks of 1000 = one update", e->name, alg->name);
	r.recreate = true;
	memset(out_b, 0, d);
	ok(run_message(&r, input.data, UNIT, out_b, 1) == CB_OK && memcmp(out_a, out_b, d) == 0,
	   "%s %s: chunks of 1000, recreated, = one update", e->name, alg->name);
	r.recreate = false;
	r.chunk = 0;
	if (!stream)
		return 6;

	r.mode = CB_MODE_STREAM;
	memset(out_b, 0, d);
	ok(run_stream(&r, input.data, cuts, 3, out_b) == CB_OK && memcmp(out_a, out_b, d) == 0,
	   "%s %s: stream over 3 uneven calls = the message", e->name, alg->name);
	r.chunk = 7;
	memset(out_b, 0, d);
	ok(run_stream(&r, input.data, cuts, 3, out_b) == CB_OK && memcmp(out_a, out_b, d) == 0,
	   "%s %s: stream in chunks of 7 = the message", e->name, alg->name);
	r.chunk = 0;
	/* The big input is the unit BIG_UNITS times: feeding the unit that often
	 * in stream mode must give the digest of the big message. */
	r.mode = CB_MODE_MESSAGE;
	memset(out_c, 0, d);
	run_message(&r, big.data, big.len, out_c, 1);
	r.mode = CB_MODE_STREAM;
	{
		char err[256] = "";
		void *ctx = run_open(&r, UNIT, err, sizeof err);
		int rc = ctx ? CB_OK : CB_FAILED;

		for (int i = 0; ctx && i < BIG_UNITS && rc == CB_OK; i++)
			rc = e->call(ctx, input.data, UNIT, out_b);
		if (ctx && rc == CB_OK)
			rc = e->finish(ctx, out_b);
		if (ctx)
			e->close(ctx);
		ok(rc == CB_OK && memcmp(out_b, out_c, d) == 0,
		   "%s %s: the 1 MiB unit streamed %d times = the %d MiB message", e->name,
		   alg->name, BIG_UNITS, BIG_UNITS);
	}
	return 9;
}

static int check_cipher(const struct cb_engine *e, const struct cb_algorithm *alg)
{
	const struct cb_verify_reference *ref = cb_verify_reference(alg->name);
	bool cbc = alg->block_len > 1;
	bool enc_stream = e->supports(alg, CB_OP_ENCRYPT, CB_MODE_STREAM);
	bool dec_stream = e->supports(alg, CB_OP_DECRYPT, CB_MODE_STREAM);
	int points = 7 + cbc + enc_stream + dec_stream + (cbc && enc_stream);
	struct run r = {.engine = e, .alg = alg, .op = CB_OP_ENCRYPT};
	/* CTR is cut inside blocks, so a partial block carries over. */
	static const size_t cbc_cuts[] = {16000, 336000, UNIT};
	static const size_t ctr_cuts[] = {1000, 334333, UNIT};
	const size_t *cuts = cbc ? cbc_cuts : ctr_cuts;
	char hex[17];

	if (dry)
		return points;
	memset(out_a, 0, UNIT);
	ok(run_message(&r, input.data, UNIT, out_a, 2) == CB_OK, "%s %s: encrypt returns CB_OK",
	   e->name, alg->name);
	is_str(hex8(out_a, hex), ref ? ref->head : "(no reference)",
	       "%s %s: first 8 bytes as agreed (second call on a reused context)", e->name,
	       alg->name);
	is_str(hex8(out_a + UNIT - 8, hex), ref && ref->tail ? ref->tail : "(no reference)",
	       "%s %s: last 8 bytes as agreed", e->name, alg->name);
	r.recreate = true;
	memset(out_b, 0, UNIT);
	ok(run_message(&r, input.data, UNIT, out_b, 2) == CB_OK && memcmp(out_a, out_b, UNIT) == 0,
	   "%s %s: recreate = reuse", e->name, alg->name);
	r.recreate = false;

	r.op = CB_OP_DECRYPT;
	memset(out_b, 0, UNIT);
	ok(run_message(&r, out_a, UNIT, out_b, 2) == CB_OK && memcmp(out_b, input.data, UNIT) == 0,
	   "%s %s: decrypt round-trips", e->name, alg->name);
	r.recreate = true;
	memset(out_b, 0, UNIT);
	ok(run_message(&r, out_a, UNIT, out_b, 1) == CB_OK && memcmp(out_b, input.data, UNIT) == 0,
	   "%s %s: decrypt round-trips, recreated", e->name, alg->name);
	r.recreate = false;

	if (cbc) {
		r.op = CB_OP_ENCRYPT;
		is_num(run_message(&r, input.data, 20, out_b, 1), CB_FAILED,
		       "%s %s: encrypting 20 bytes fails", e->name, alg->name);
		r.op = CB_OP_DECRYPT;
		is_num(run_message(&r, out_a, 20, out_b, 1), CB_FAILED,
		       "%s %s: decrypting 20 bytes fails", e->name, alg->name);
	} else {
		/* A message that ends inside a block leaves key stream behind; the
		 * next message on the same context must start from the IV again. */
		r.op = CB_OP_ENCRYPT;
		memset(out_c, 0, 1000);
		ok(run_message(&r, input.data, 1000, out_c, 2) == CB_OK &&
		       memcmp(out_c, out_a, 1000) == 0,
		   "%s %s: 1000-byte messages on a reused context restart the counter", e->name,
		   alg->name);
	}

	r.mode = CB_MODE_STREAM;
	if (enc_stream) {
		r.op = CB_OP_ENCRYPT;
		memset(out_b, 0, UNIT);
		ok(run_stream(&r, input.data, cuts, 3, out_b) == CB_OK &&
		       memcmp(out_a, out_b, UNIT) == 0,
		   "%s %s: encrypt stream over 3 calls = the message", e->name, alg->name);
	}
	if (dec_stream) {
		r.op = CB_OP_DECRYPT;
		memset(out_b, 0, UNIT);
		ok(run_stream(&r, out_a, cuts, 3, out_b) == CB_OK &&
		       memcmp(out_b, input.data, UNIT) == 0,
		   "%s %s: decrypt stream over 3 calls round-trips", e->name, alg->name);
	}
	if (cbc && enc_stream) {
		static const size_t odd[] = {20};

		r.op = CB_OP_ENCRYPT;
		is_num(run_stream(&r, input.data, odd, 1, out_b), CB_FAILED,
		       "%s %s: 20 bytes refused in stream mode", e->name, alg->name);
	}
	return points;
}

/* The agreed outputs are for 1 MiB; an engine that cannot take an AEAD
 * message that long (AF_ALG holds 16 pages) says so at open, and is then
 * checked on AEAD_FALLBACK_LEN bytes with the agreed values skipped. */
static int check_aead(const struct cb_engine *e, const struct cb_algorithm *alg)
{
	const struct cb_verify_reference *ref = cb_verify_reference(alg->name);
	struct run r = {.engine = e, .alg = alg, .op = CB_OP_ENCRYPT};
	unsigned char tag[CB_MAX_TAG], forged[CB_MAX_TAG];
	size_t t = alg->tag_len, len = UNIT;
	char err[256] = "", hex[17];
	void *ctx;

	if (dry)
		return 10;
	ctx = run_open(&r, UNIT, err, sizeof err);
	if (ctx)
		e->close(ctx);
	else
		len = AEAD_FALLBACK_LEN;
	memset(out_a, 0, len + t);
	ok(run_message(&r, input.data, len, out_a, 2) == CB_OK, "%s %s: encrypt %zu bytes", e->name,
	   alg->name, len);
	if (len == UNIT) {
		is_str(hex8(out_a, hex), ref ? ref->head : "(no reference)",
		       "%s %s: first 8 bytes as agreed (second call on a reused context)", e->name,
		       alg->name);
		is_str(hex8(out_a + len - 8, hex), ref && ref->tail ? ref->tail : "(no reference)",
		       "%s %s: last 8 bytes of the ciphertext as agreed", e->name, alg->name);
		is_str(hex8(out_a + len, hex), ref && ref->tag ? ref->tag : "(no reference)",
		       "%s %s: tag as agreed", e->name, alg->name);
	} else {
		for (int i = 0; i < 3; i++)
			skip("%s %s: agreed 1 MiB output (%s)", e->name, alg->name, err);
	}
	memcpy(tag, out_a + len, t);
	memcpy(forged, tag, t);
	forged[t / 2] ^= 0x04;

	r.recreate = true;
	memset(out_b, 0, len + t);
	ok(run_message(&r, input.data, len, out_b, 2) == CB_OK &&
	       memcmp(out_a, out_b, len + t) == 0,
	   "%s %s: recreate = reuse (ciphertext and tag)", e->name, alg->name);
	for (int recreate = 0; recreate <= 1; recreate++) {
		const char *how = recreate ? ", recreated" : "";

		r.recreate = recreate;
		r.op = CB_OP_DECRYPT;
		r.tag = tag;
		memset(out_b, 0, len);
		ok(run_message(&r, out_a, len, out_b, 2) == CB_OK &&
		       memcmp(out_b, input.data, len) == 0,
		   "%s %s: decrypt round-trips%s", e->name, alg->name, how);
		r.op = CB_OP_DECRYPT_FORGED;
		r.tag = forged;
		is_num(run_message(&r, out_a, len, out_c, 2), CB_REJECTED,
		       "%s %s: a tag with one bit flipped is rejected%s", e->name, alg->name, how);
	}
	/* A reused context keeps refusing: the first refusal must leave nothing
	 * behind that lets the second through. */
	r.recreate = false;
	ctx = run_open(&r, len, err, sizeof err);
	{
		int first = ctx ? e->call(ctx, out_a, len, out_b) : CB_FAILED;
		int second = ctx ? e->call(ctx, out_a, len, out_b) : CB_FAILED;

		if (ctx)
			e->close(ctx);
		ok(first == CB_REJECTED && second == CB_REJECTED,
		   "%s %s: rejection repeats on a reused context", e->name, alg->name);
	}
	return 10;
}

/* A vector of tests/vectors/ with associated data, beyond what the vector
 * runner checks (one reused context): ciphertext and tag on a recreated
 * context, the recreated round trip, refusal of altered AAD with the right
 * tag (reused and recreated), and without the AAD the same ciphertext but
 * another tag: the AAD reaches the tag and nothing else. */
static int check_aad(const struct cb_engine *e, const struct cb_vector *v)
{
	const struct cb_algorithm *alg = v->alg;
	size_t len = v->msg_len, t = alg->tag_len;
	unsigned char *bad_aad;
	struct run r = {.engine = e,
	                .alg = alg,
	                .op = CB_OP_ENCRYPT,
	                .recreate = true,
	                .key = v->key,
	                .iv = v->iv,
	                .aad = v->aad,
	                .aad_len = v->aad_len};

	if (dry)
		return 5;
	bad_aad = malloc(v->aad_len);
	if (!bad_aad)
		return 0; /* the plan catches it */
	memcpy(bad_aad, v->aad, v->aad_len);
	bad_aad[v->aad_len - 1] ^= 0x80;

	memset(out_a, 0, len + t);
	ok(run_message(&r, v->msg, len, out_a, 2) == CB_OK &&
	       memcmp(out_a, v->ciphertext, len) == 0 && memcmp(out_a + len, v->tag, t) == 0,
	   "%s %s: ciphertext and tag as published, recreated", e->name, v->name);
	r.op = CB_OP_DECRYPT;
	r.tag = v->tag;
	memset(out_b, 0, len);
	ok(run_message(&r, v->ciphertext, len, out_b, 2) == CB_OK &&
	       memcmp(out_b, v->msg, len) == 0,
	   "%s %s: decrypt round-trips, recreated", e->name, v->name);
	r.aad = bad_aad;
	for (int recreate = 0; recreate <= 1; recreate++) {
		r.recreate = recreate;
		is_num(run_message(&r, v->ciphertext, len, out_b, 2), CB_REJECTED,
		       "%s %s: the right tag with altered AAD is rejected%s", e->name, v->name,
		       recreate ? ", recreated" : "");
	}
	r = (struct run){.engine = e, .alg = alg, .op = CB_OP_ENCRYPT, .key = v->key, .iv = v->iv};
	memset(out_a, 0, len + t);
	ok(run_message(&r, v->msg, len, out_a, 1) == CB_OK &&
	       memcmp(out_a, v->ciphertext, len) == 0 && memcmp(out_a + len, v->tag, t) != 0,
	   "%s %s: without the AAD, the same ciphertext and another tag", e->name, v->name);
	free(bad_aad);
	return 5;
}

/* ---- Per engine ---- */

static int check_usable(const struct cb_engine *e)
{
	int points = 1;

	if (!dry) {
		json_t *obj = json_object();
		char *text;

		if (e->describe)
			e->describe(obj);
		text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
		diag("%s %s: %s", e->name, e->version(), text ? text : "?");
		ok(!e->describe || json_object_size(obj) > 0,
		   "%s: describe adds what it uses (or the engine has no describe)", e->name);
		free(text);
		json_decref(obj);
	}
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		if (!offers(e, alg))
			continue;
		points += alg->kind == CB_KIND_HASH     ? check_hash(e, alg)
		          : alg->kind == CB_KIND_CIPHER ? check_cipher(e, alg)
		                                        : check_aead(e, alg);
	}
	for (size_t f = 0; f < vectors.count; f++)
		for (size_t i = 0; i < vectors.files[f].count; i++) {
			const struct cb_vector *v = &vectors.files[f].vectors[i];

			if (v->aad_len && e->supports(v->alg, CB_OP_ENCRYPT, CB_MODE_MESSAGE))
				points += check_aad(e, v);
		}
	return points;
}

/* R's cell of LEN bytes on a fresh context: CALLS calls through `call`, or
 * (LOOP) the engine's own loop expecting EXPECT; OUT holds the last output
 * (stream: the final one). The number of calls that did not give EXPECT
 * (*LAST the last such status), or -1 when open failed. */
static long run_calls(const struct run *r, size_t len, int calls, bool loop, int expect, int *last,
                      unsigned char *out)
{
	char err[256] = "";
	void *ctx = run_open(r, len, err, sizeof err);
	long bad = 0;

	if (!ctx) {
		diag("%s %s: open failed: %s", r->engine->name, r->alg->name, err);
		return -1;
	}
	*last = expect;
	if (loop) {
		bad =
		    (long)r->engine->loop(ctx, input.data, len, out, (uint64_t)calls, expect, last);
	} else {
		for (int i = 0; i < calls; i++) {
			int rc = r->engine->call(ctx, input.data, len, out);

			if (rc != expect) {
				*last = rc;
				bad++;
			}
		}
	}
	if (r->mode == CB_MODE_STREAM && r->engine->finish(ctx, out) != CB_OK)
		bad = -1;
	r->engine->close(ctx);
	return bad;
}

/* The runner times `loop`: it must give what as many calls give, in every
 * op and mode the engine offers, and count the calls that did not give the
 * expected status (an AEAD decryption with a wrong tag is rejected every
 * time). */
static int check_loop(const struct cb_engine *e)
{
	static const unsigned char wrong_tag[CB_MAX_TAG];
	const size_t len = 1024;
	size_t cells = 0;
	bool right = e->loop != NULL;

	if (dry)
		return 1;
	for (size_t a = 0; right && a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		for (int op = 0; op < CB_OP_COUNT; op++)
			for (int how = 0; how < 3; how++) {
				struct run r = {.engine = e,
				                .alg = alg,
				                .op = (enum cb_op)op,
				                .mode = how == 2 ? CB_MODE_STREAM : CB_MODE_MESSAGE,
				                .recreate = how == 1,
				                .tag = wrong_tag};
				size_t n = cb_output_len(alg, r.op, len);
				int expect =
				    op == CB_OP_DECRYPT_FORGED ||
				            (alg->kind == CB_KIND_AEAD && op == CB_OP_DECRYPT)
				        ? CB_REJECTED
				        : CB_OK;
				int last_a, last_b, last_c;

				if (cb_alg_is_pk(alg) || !e->supports(alg, r.op, r.mode))
					continue; /* public-key cells need keys: tests/test_pk.c */
				cells++;
				long by_call = run_calls(&r, len, 3, false, expect, &last_a, out_a);
				long by_loop = run_calls(&r, len, 3, true, expect, &last_b, out_b);
				long other = run_calls(&r, len, 3, true,
				                       expect == CB_OK ? CB_REJECTED : CB_OK,
				                       &last_c, out_c);

				if (by_call != 0 || by_loop != 0 || other != 3 ||
				    last_c != expect ||
				    (expect == CB_OK && memcmp(out_a, out_b, n) != 0)) {
					diag("%s %s %s%s: calls %ld bad, loop %ld bad, loop "
					     "expecting the "
					     "other status %ld bad (last %d)",
					     e->name, alg->name, cb_op_name(r.op),
					     how == 2   ? " stream"
					     : how == 1 ? " recreate"
					                : "",
					     by_call, by_loop, other, last_c);
					right = false;
				}
			}
	}
	ok(right, "%s: its loop gives what as many calls give (%zu cells)%s", e->name, cells,
	   e->loop ? "" : ": it has no loop");
	return 1;
}

/* Compiled in but not usable here: the probe's reason, an open that fails
 * quietly with a reason, and one SKIP per algorithm it offers. */
static int check_unusable(const struct cb_engine *e, const char *why)
{
	int points = 1;

	if (!dry) {
		struct run r = {.engine = e, .alg = cb_algorithm_at(0)};
		char err[256] = "";
		struct quiet q;
		void *ctx;
		bool printed;

		for (size_t a = 0; a < cb_algorithm_count(); a++)
			if (offers(e, cb_algorithm_at(a))) {
				r.alg = cb_algorithm_at(a);
				break;
			}
		r.op = r.alg->kind == CB_KIND_HASH ? CB_OP_HASH : CB_OP_ENCRYPT;
		q = quiet_begin();
		ctx = run_open(&r, 64, err, sizeof err);
		printed = quiet_end(q);
		ok(!ctx && err[0] && !printed, "%s: open fails quietly, with a reason (%s)",
		   e->name, err);
		if (ctx)
			e->close(ctx);
	}
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		if (!offers(e, cb_algorithm_at(a)))
			continue;
		points++;
		if (!dry)
			skip("%s %s: unusable here: %s", e->name, cb_algorithm_at(a)->name, why);
	}
	return points;
}

static int check_engine(const struct cb_engine *e)
{
	const char *why = NULL;
	bool usable = cb_engine_usable(e, &why);
	int points = 2;

	if (!dry) {
		char reason[256] = "";
		struct quiet q = quiet_begin();
		int rc = e->probe ? e->probe(reason, sizeof reason) : 0;
		bool printed = quiet_end(q);

		ok(!printed && (rc == 0) == usable && (rc == 0 || reason[0]),
		   "%s: probe prints nothing and says why when it fails%s%s", e->name,
		   rc ? ": " : "", reason);
		ok(e->version && e->version() && e->version()[0], "%s: version '%s'", e->name,
		   e->version && e->version() ? e->version() : "(null)");
	}
	points += check_contract(e);
	points += usable ? check_usable(e) + check_loop(e) : check_unusable(e, why);
	return points;
}

/* The engine configure calls NAME: a C identifier, so "node_crypto" is the
 * engine "node-crypto". */
static const struct cb_engine *find_configured(const char *name)
{
	char dashed[64];

	snprintf(dashed, sizeof dashed, "%s", name);
	for (char *p = dashed; *p; p++)
		if (*p == '_')
			*p = '-';
	return cb_engine_find(name) ? cb_engine_find(name) : cb_engine_find(dashed);
}

/* Every engine configure declares, compiled in or not. */
static int check_configured(void)
{
	char names[] = CB_ENGINES_CONFIGURED;
	int points = 0;

	for (char *save = NULL, *name = strtok_r(names, " ", &save); name;
	     name = strtok_r(NULL, " ", &save)) {
		const struct cb_engine *e = find_configured(name);

		if (e && (strcmp(e->kind, "process") == 0 || strcmp(e->kind, "command") == 0)) {
			/* Whole messages in another process: no stream, chunk or
			 * recreate to compare with. */
			points++;
			if (!dry)
				skip("%s: a %s engine, checked by tests/cli_workers.sh, "
				     "tests/cli_commands.sh and `cryptobench verify`",
				     e->name, e->kind);
		} else if (e) {
			points += check_engine(e);
		} else {
			points++;
			if (!dry)
				skip("%s: not compiled in (configure did not find its library, or "
				     "--without-%s)",
				     name, name);
		}
	}
	return points;
}

/* The registry holds configure's engines and the built-ins, nothing else;
 * those in this process all have a loop. */
static int check_registry(void)
{
	bool right = true, loops = true;

	if (dry)
		return 2;
	for (size_t i = 0; i < cb_engine_count(); i++) {
		const struct cb_engine *e = cb_engine_at(i);
		const char *list = " " CB_ENGINES_CONFIGURED " ";

		if ((strcmp(e->kind, "library") == 0 || strcmp(e->kind, "builtin") == 0) &&
		    !e->loop) {
			diag("%s runs in this process but has no loop of its own", e->name);
			loops = false;
		}
		char word[64];

		snprintf(word, sizeof word, " %s ", e->name);
		for (char *p = word; *p; p++)
			if (*p == '-')
				*p = '_'; /* configure's names are C identifiers */
		if (strcmp(e->kind, "builtin") != 0 && !strstr(list, word)) {
			diag("%s is in the registry but not in configure's list", e->name);
			right = false;
		}
	}
	ok(right, "every engine of the registry but the built-ins comes from configure (%s)",
	   CB_ENGINES_CONFIGURED);
	ok(loops, "every engine that runs in this process has its own timed loop, so the "
	          "harness costs each the same");
	return 2;
}

static int check_all(void)
{
	return check_seam() + check_pk_seam() + check_registry() + check_configured();
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char dir[4096], err[512], hex[17];
	void *allocations[3];
	int planned;

	snprintf(dir, sizeof dir, "%s/tests/vectors", top ? top : ".");
	if (cb_vectors_load_dir(dir, &vectors, err, sizeof err) != 0) {
		printf("1..1\nnot ok 1 - the vectors of %s load\n# %s\n", dir, err);
		return 1;
	}
	if (cb_input_create(&input, UNIT, CB_INPUT_DEFAULT_SEED, 0) != 0 ||
	    cb_input_create(&big, BIG_UNITS * UNIT, CB_INPUT_DEFAULT_SEED, 0) != 0)
		return 1;
	out_a = cb_aligned_alloc(UNIT + CB_OUTPUT_SLACK, 0, &allocations[0]);
	out_b = cb_aligned_alloc(UNIT + CB_OUTPUT_SLACK, 0, &allocations[1]);
	out_c = cb_aligned_alloc(UNIT + CB_OUTPUT_SLACK, 0, &allocations[2]);
	if (!out_a || !out_b || !out_c)
		return 1;

	dry = true;
	planned = 1 + check_all();
	dry = false;
	printf("1..%d\n", planned);
	diag("input: xorshift32 seed %u, %u bytes; vectors from %s; engines configured: %s",
	     CB_INPUT_DEFAULT_SEED, UNIT, dir, CB_ENGINES_CONFIGURED);
	is_str(hex8(input.data, hex), "62edceba92e4cb04", "the input starts as published");
	check_all();

	for (int i = 0; i < 3; i++)
		free(allocations[i]);
	cb_input_free(&input);
	cb_input_free(&big);
	cb_vectors_free_set(&vectors);
	/* tap_done would print a second plan. */
	return tap_failed || tap_count != planned ? 1 : 0;
}
