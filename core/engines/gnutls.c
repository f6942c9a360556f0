/* gnutls.c: the GnuTLS engine, through GnuTLS's own crypto API
 * (gnutls_hash, gnutls_cipher, gnutls_aead_cipher), not its OpenSSL layer.
 *
 * GnuTLS 3.7 has no BLAKE2b digest and no AES-CTR cipher. What is offered is
 * asked of the library by name at run time (gnutls_digest_get_id,
 * gnutls_cipher_get_id): gnutls_digest_list() leaves SHA3-256 out although
 * it works. The library initialises itself when it loads. */
#include "core/engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

/* Canonical name -> GnuTLS name. */
static const struct {
	const char *name;
	const char *gnutls_name;
} gt_algs[] = {
    {"md5", "MD5"},
    {"sha1", "SHA1"},
    {"sha256", "SHA256"},
    {"sha512", "SHA512"},
    {"sha3-256", "SHA3-256"},
    {"aes-128-cbc", "AES-128-CBC"},
    {"aes-256-cbc", "AES-256-CBC"},
    {"aes-128-gcm", "AES-128-GCM"},
    {"aes-256-gcm", "AES-256-GCM"},
    {"chacha20-poly1305", "CHACHA20-POLY1305"},
};

struct gt_ctx {
	struct cb_engine_setup setup;
	gnutls_digest_algorithm_t digest;
	gnutls_cipher_algorithm_t cipher;
	gnutls_hash_hd_t hash;
	gnutls_cipher_hd_t cipher_hd;    /* CBC; AEAD decryption */
	gnutls_aead_cipher_hd_t aead_hd; /* AEAD encryption */
};

static const char *gt_name(const struct cb_algorithm *alg)
{
	for (size_t i = 0; i < sizeof gt_algs / sizeof gt_algs[0]; i++)
		if (strcmp(gt_algs[i].name, alg->name) == 0)
			return gt_algs[i].gnutls_name;
	return NULL;
}

static gnutls_digest_algorithm_t gt_digest(const struct cb_algorithm *alg)
{
	const char *name = gt_name(alg);

	if (!name || alg->kind != CB_KIND_HASH)
		return GNUTLS_DIG_UNKNOWN;
	return gnutls_digest_get_id(name);
}

static gnutls_cipher_algorithm_t gt_cipher(const struct cb_algorithm *alg)
{
	const char *name = gt_name(alg);

	if (!name || alg->kind == CB_KIND_HASH)
		return GNUTLS_CIPHER_UNKNOWN;
	return gnutls_cipher_get_id(name);
}

static const char *gt_version(void)
{
	return gnutls_check_version(NULL);
}

/* No initialisation to do, but the implicit one can be turned off
 * (GNUTLS_NO_IMPLICIT_INIT): one small digest shows the library works. */
static int gt_probe(char *why, size_t why_len)
{
	unsigned char digest[32];
	int rc = gnutls_hash_fast(GNUTLS_DIG_SHA256, "", 0, digest);

	if (rc < 0) {
		snprintf(why, why_len, "gnutls_hash_fast failed: %s", gnutls_strerror(rc));
		return 1;
	}
	return 0;
}

extern const struct cb_pk_ops cb_gnutls_pk; /* gnutls_pk.c */

static bool gt_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	if (!cb_op_applies(alg, op))
		return false;
	if (alg->kind == CB_KIND_HASH)
		return gt_digest(alg) != GNUTLS_DIG_UNKNOWN;
	if (mode == CB_MODE_STREAM && alg->kind == CB_KIND_AEAD)
		return false;
	return gt_cipher(alg) != GNUTLS_CIPHER_UNKNOWN;
}

/* ---- Hashes ---- */

/* LEN bytes of IN in updates of at most the configured chunk. */
static int gt_absorb(const struct gt_ctx *c, gnutls_hash_hd_t h, const unsigned char *in,
                     size_t len)
{
	size_t step = c->setup.chunk ? c->setup.chunk : len;
	size_t done = 0;

	do {
		size_t n = len - done < step ? len - done : step;
		if (gnutls_hash(h, in + done, n) < 0)
			return -1;
		done += n;
	} while (done < len);
	return 0;
}

/* gnutls_hash_output also resets the handle for the next message. */
static int gt_hash_message(struct gt_ctx *c, const unsigned char *in, size_t len,
                           unsigned char *out)
{
	gnutls_hash_hd_t h;
	int rc;

	if (!c->setup.recreate) {
		if (gt_absorb(c, c->hash, in, len) != 0)
			return CB_FAILED;
		gnutls_hash_output(c->hash, out);
		return CB_OK;
	}
	if (gnutls_hash_init(&h, c->digest) < 0)
		return CB_FAILED;
	rc = gt_absorb(c, h, in, len);
	gnutls_hash_deinit(h, out);
	return rc == 0 ? CB_OK : CB_FAILED;
}

/* ---- Ciphers ---- */

static int gt_cipher_open(const struct gt_ctx *c, gnutls_cipher_hd_t *h)
{
	gnutls_datum_t key = {(unsigned char *)c->setup.key, (unsigned int)c->setup.alg->key_len};
	gnutls_datum_t iv = {(unsigned char *)c->setup.iv, (unsigned int)c->setup.alg->iv_len};

	return gnutls_cipher_init(h, c->cipher, &key, &iv);
}

static int gt_aead_open(const struct gt_ctx *c, gnutls_aead_cipher_hd_t *h)
{
	gnutls_datum_t key = {(unsigned char *)c->setup.key, (unsigned int)c->setup.alg->key_len};

	return gnutls_aead_cipher_init(h, c->cipher, &key);
}

/* CBC: from the cell's IV, or on from where the stream stopped. */
static int gt_cbc(struct gt_ctx *c, gnutls_cipher_hd_t h, const unsigned char *in, size_t len,
                  unsigned char *out)
{
	int rc;

	if (len % 16 != 0)
		return CB_FAILED;
	if (!c->setup.stream)
		gnutls_cipher_set_iv(h, c->setup.iv, 16);
	if (c->setup.op == CB_OP_ENCRYPT)
		rc = gnutls_cipher_encrypt2(h, in, len, out, len);
	else
		rc = gnutls_cipher_decrypt2(h, in, len, out, len);
	return rc < 0 ? CB_FAILED : CB_OK;
}

static int gt_aead_encrypt(struct gt_ctx *c, gnutls_aead_cipher_hd_t h, const unsigned char *in,
                           size_t len, unsigned char *out)
{
	size_t out_len = len + 16;
	int rc = gnutls_aead_cipher_encrypt(h, c->setup.iv, 12, c->setup.aad, c->setup.aad_len, 16,
	                                    in, len, out, &out_len);

	return rc < 0 || out_len != len + 16 ? CB_FAILED : CB_OK;
}

/* gnutls_aead_cipher_decrypt wants the tag right after the ciphertext, and
 * decryptv2 works in place: either would put a copy of the message in the
 * timed call. The cipher handle takes the tag apart: decrypt, compute the
 * tag and compare it in constant time, which is what aead_cipher_decrypt
 * does inside. Setting the IV restarts the AEAD state, so the AAD follows it
 * and precedes the ciphertext. */
static int gt_aead_decrypt(struct gt_ctx *c, gnutls_cipher_hd_t h, const unsigned char *in,
                           size_t len, unsigned char *out)
{
	unsigned char tag[16];

	gnutls_cipher_set_iv(h, c->setup.iv, 12);
	if (c->setup.aad_len && gnutls_cipher_add_auth(h, c->setup.aad, c->setup.aad_len) < 0)
		return CB_FAILED;
	if (gnutls_cipher_decrypt2(h, in, len, out, len) < 0 || gnutls_cipher_tag(h, tag, 16) < 0)
		return CB_FAILED;
	return gnutls_memcmp(tag, c->setup.tag, 16) == 0 ? CB_OK : CB_REJECTED;
}

static int gt_crypt(struct gt_ctx *c, const unsigned char *in, size_t len, unsigned char *out)
{
	gnutls_cipher_hd_t cipher_hd = c->cipher_hd;
	gnutls_aead_cipher_hd_t aead_hd = c->aead_hd;
	bool aead_encrypt = c->setup.alg->kind == CB_KIND_AEAD && c->setup.op == CB_OP_ENCRYPT;
	int rc;

	if (c->setup.recreate) {
		if (aead_encrypt ? gt_aead_open(c, &aead_hd) < 0
		                 : gt_cipher_open(c, &cipher_hd) < 0)
			return CB_FAILED;
	}
	if (c->setup.alg->kind != CB_KIND_AEAD)
		rc = gt_cbc(c, cipher_hd, in, len, out);
	else if (aead_encrypt)
		rc = gt_aead_encrypt(c, aead_hd, in, len, out);
	else
		rc = gt_aead_decrypt(c, cipher_hd, in, len, out);
	if (c->setup.recreate) {
		if (aead_encrypt)
			gnutls_aead_cipher_deinit(aead_hd);
		else
			gnutls_cipher_deinit(cipher_hd);
	}
	return rc;
}

/* ---- Engine ---- */

static void gt_release(struct gt_ctx *c)
{
	if (c->hash)
		gnutls_hash_deinit(c->hash, NULL);
	if (c->cipher_hd)
		gnutls_cipher_deinit(c->cipher_hd);
	if (c->aead_hd)
		gnutls_aead_cipher_deinit(c->aead_hd);
	free(c);
}

static void *gt_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                     char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	struct gt_ctx *c;
	int rc = 0;

	(void)cell; /* everything it needs is in SETUP */
	c = calloc(1, sizeof *c);
	if (!c) {
		cb_errorf(err, err_len, "gnutls: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->digest = gt_digest(alg);
	c->cipher = gt_cipher(alg);

	if (c->setup.recreate)
		return c;
	if (alg->kind == CB_KIND_HASH)
		rc = gnutls_hash_init(&c->hash, c->digest);
	else if (alg->kind == CB_KIND_AEAD && c->setup.op == CB_OP_ENCRYPT)
		rc = gt_aead_open(c, &c->aead_hd);
	else
		rc = gt_cipher_open(c, &c->cipher_hd);
	if (rc < 0) {
		cb_errorf(err, err_len, "gnutls: setting up %s failed: %s", alg->name,
		          gnutls_strerror(rc));
		gt_release(c);
		return NULL;
	}
	return c;
}

static int gt_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct gt_ctx *c = ctx;

	if (c->setup.alg->kind != CB_KIND_HASH)
		return gt_crypt(c, in, len, out);
	if (c->setup.stream)
		return gt_absorb(c, c->hash, in, len) == 0 ? CB_OK : CB_FAILED;
	return gt_hash_message(c, in, len, out);
}

static int gt_finish(void *ctx, unsigned char *out)
{
	struct gt_ctx *c = ctx;

	if (!c->setup.stream)
		return CB_FAILED;
	if (c->setup.alg->kind == CB_KIND_HASH)
		gnutls_hash_output(c->hash, out);
	return CB_OK;
}

static void gt_close(void *ctx)
{
	if (ctx)
		gt_release(ctx);
}

/* The masks are read once, when libgnutls (and its libnettle) load: the
 * process's environment is what is in force. */
static void gt_describe(json_t *obj)
{
	static const char *const masks[] = {"GNUTLS_CPUID_OVERRIDE", "NETTLE_FAT_OVERRIDE"};

	for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
		const char *value = getenv(masks[i]);
		json_object_set_new(obj, masks[i], value ? json_string(value) : json_null());
	}
}

/* The timed loop: direct calls (engine.h). */
static uint64_t gt_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                        uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(gt_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_gnutls = {
    .name = "gnutls",
    .kind = "library",
    .version = gt_version,
    .probe = gt_probe,
    .supports = gt_supports,
    .open = gt_open,
    .call = gt_call,
    .loop = gt_loop,
    .finish = gt_finish,
    .close = gt_close,
    .describe = gt_describe,
    .pk = &cb_gnutls_pk,
};
