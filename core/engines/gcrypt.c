/* gcrypt.c: the libgcrypt engine.
 *
 * A hash handle is opened once and reset per message; a cipher handle is
 * opened and keyed once, then given the IV (or counter) per message.
 * Stream mode keeps one handle running. The public-key operations are in
 * gcrypt_pk.c. */
#include "core/engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <gcrypt.h>

/* The only way to mask a hardware feature in libgcrypt from outside is this
 * variable (the library reads none itself; /etc/gcrypt/hwf.deny is
 * system-wide). A colon- or comma-separated list of hwf names, or "all". */
#define GCRYPT_HWF_ENV "CRYPTOBENCH_GCRYPT_DISABLE_HWF"

static const struct gcrypt_alg {
	const char *name;
	int md;          /* GCRY_MD_*, or 0 for ciphers */
	int cipher;      /* GCRY_CIPHER_* */
	int cipher_mode; /* GCRY_CIPHER_MODE_* */
} gcrypt_algs[] = {
    {"md5", GCRY_MD_MD5, 0, 0},
    {"sha1", GCRY_MD_SHA1, 0, 0},
    {"sha256", GCRY_MD_SHA256, 0, 0},
    {"sha512", GCRY_MD_SHA512, 0, 0},
    {"blake2b-512", GCRY_MD_BLAKE2B_512, 0, 0},
    {"sha3-256", GCRY_MD_SHA3_256, 0, 0},
    {"aes-128-cbc", 0, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CBC},
    {"aes-256-cbc", 0, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CBC},
    {"aes-128-ctr", 0, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CTR},
    {"aes-256-ctr", 0, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CTR},
    {"aes-128-gcm", 0, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM},
    {"aes-256-gcm", 0, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM},
    {"chacha20-poly1305", 0, GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305},
};

struct gcrypt_ctx {
	struct cb_engine_setup setup;
	const struct gcrypt_alg *id;
	gcry_md_hd_t md;
	gcry_cipher_hd_t cipher;
};

/* Library initialisation, done once whichever of probe, version or describe
 * comes first, because the first gcry_check_version fixes the features. */
static pthread_once_t gcrypt_once = PTHREAD_ONCE_INIT;
static int gcrypt_init_status;
static char gcrypt_init_why[256];

static void gcrypt_init(void)
{
	const char *mask = getenv(GCRYPT_HWF_ENV);

	if (mask && *mask) {
		/* GCRYCTL_DISABLE_HWF is honoured only before the library
		 * initialises; afterwards it returns success and does nothing. So
		 * apply it first, and refuse to run unmasked if someone else in
		 * this process initialised libgcrypt already. */
		if (gcry_control(GCRYCTL_ANY_INITIALIZATION_P)) {
			snprintf(
			    gcrypt_init_why, sizeof gcrypt_init_why,
			    "libgcrypt: %s=%s cannot apply: the library was already initialised",
			    GCRYPT_HWF_ENV, mask);
			gcrypt_init_status = -1;
			return;
		}
		gcry_error_t rc = gcry_control(GCRYCTL_DISABLE_HWF, mask, NULL);

		if (rc) {
			snprintf(gcrypt_init_why, sizeof gcrypt_init_why, "libgcrypt: %s=%s: %s",
			         GCRYPT_HWF_ENV, mask, gcry_strerror(rc));
			gcrypt_init_status = -1;
			return;
		}
	}
	if (!gcry_check_version(NULL)) {
		snprintf(gcrypt_init_why, sizeof gcrypt_init_why,
		         "libgcrypt: gcry_check_version failed");
		gcrypt_init_status = -1;
		return;
	}
	if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
		/* Keys are public test values: secure memory would only add the
		 * cost of its allocator. */
		gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
		gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	}
	gcrypt_init_status = 0;
}

static const char *gcrypt_version(void)
{
	pthread_once(&gcrypt_once, gcrypt_init);
	return gcry_check_version(NULL);
}

static int gcrypt_probe(char *why, size_t why_len)
{
	pthread_once(&gcrypt_once, gcrypt_init);
	if (gcrypt_init_status != 0)
		snprintf(why, why_len, "%s", gcrypt_init_why);
	return gcrypt_init_status;
}

static const struct gcrypt_alg *gcrypt_find(const char *name)
{
	for (size_t i = 0; i < sizeof gcrypt_algs / sizeof gcrypt_algs[0]; i++)
		if (strcmp(gcrypt_algs[i].name, name) == 0)
			return &gcrypt_algs[i];
	return NULL;
}

extern const struct cb_pk_ops cb_gcrypt_pk; /* gcrypt_pk.c */

static bool gcrypt_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	if (!gcrypt_find(alg->name) || !cb_op_applies(alg, op))
		return false;
	return mode == CB_MODE_MESSAGE || alg->kind != CB_KIND_AEAD;
}

static void gcrypt_md_feed(gcry_md_hd_t md, const unsigned char *in, size_t len, size_t chunk)
{
	size_t step = chunk ? chunk : len;

	for (size_t done = 0; done < len; done += step)
		gcry_md_write(md, in + done, len - done < step ? len - done : step);
}

static int gcrypt_md_digest(const struct gcrypt_ctx *ctx, gcry_md_hd_t md, unsigned char *out)
{
	const unsigned char *digest = gcry_md_read(md, ctx->id->md);

	if (!digest)
		return CB_FAILED;
	memcpy(out, digest, ctx->setup.alg->digest_len);
	return CB_OK;
}

/* Give the cell's IV (CTR: the whole counter block) to a keyed handle. */
static gcry_error_t gcrypt_set_iv(const struct gcrypt_ctx *ctx, gcry_cipher_hd_t cipher)
{
	if (ctx->id->cipher_mode == GCRY_CIPHER_MODE_CTR)
		return gcry_cipher_setctr(cipher, ctx->setup.iv, ctx->setup.alg->iv_len);
	return gcry_cipher_setiv(cipher, ctx->setup.iv, ctx->setup.alg->iv_len);
}

static gcry_error_t gcrypt_cipher_new(const struct gcrypt_ctx *ctx, gcry_cipher_hd_t *cipher)
{
	gcry_error_t rc = gcry_cipher_open(cipher, ctx->id->cipher, ctx->id->cipher_mode, 0);

	if (rc)
		return rc;
	rc = gcry_cipher_setkey(*cipher, ctx->setup.key, ctx->setup.alg->key_len);
	if (!rc)
		rc = gcrypt_set_iv(ctx, *cipher);
	if (rc) {
		gcry_cipher_close(*cipher);
		*cipher = NULL;
	}
	return rc;
}

static gcry_error_t gcrypt_crypt(const struct gcrypt_ctx *ctx, gcry_cipher_hd_t cipher,
                                 const unsigned char *in, size_t len, unsigned char *out)
{
	if (ctx->setup.encrypt)
		return gcry_cipher_encrypt(cipher, out, len, in, len);
	return gcry_cipher_decrypt(cipher, out, len, in, len);
}

/* One whole message on a handle that holds the key and the cell's IV (the
 * IV restarts the AEAD state, so the AAD goes in after it). */
static int gcrypt_cipher_message(const struct gcrypt_ctx *ctx, gcry_cipher_hd_t cipher,
                                 const unsigned char *in, size_t len, unsigned char *out)
{
	gcry_error_t rc;

	if (ctx->setup.aad_len &&
	    gcry_cipher_authenticate(cipher, ctx->setup.aad, ctx->setup.aad_len))
		return CB_FAILED;
	if (gcrypt_crypt(ctx, cipher, in, len, out))
		return CB_FAILED;
	if (!ctx->setup.aead)
		return CB_OK;
	if (ctx->setup.encrypt)
		return gcry_cipher_gettag(cipher, out + len, ctx->setup.alg->tag_len) ? CB_FAILED
		                                                                      : CB_OK;
	rc = gcry_cipher_checktag(cipher, ctx->setup.tag, ctx->setup.alg->tag_len);
	if (gcry_err_code(rc) == GPG_ERR_CHECKSUM)
		return CB_REJECTED;
	return rc ? CB_FAILED : CB_OK;
}

static void gcrypt_close(void *opaque)
{
	struct gcrypt_ctx *ctx = opaque;

	if (!ctx)
		return;
	gcry_md_close(ctx->md);
	gcry_cipher_close(ctx->cipher);
	free(ctx);
}

static void *gcrypt_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                         char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	const struct gcrypt_alg *id = gcrypt_find(alg->name);
	struct gcrypt_ctx *ctx;
	gcry_error_t rc;

	(void)cell; /* everything it needs is in SETUP */
	ctx = calloc(1, sizeof *ctx);
	if (!ctx) {
		cb_errorf(err, err_len, "gcrypt: out of memory");
		return NULL;
	}
	ctx->setup = *setup;
	ctx->id = id;
	if (id->md) {
		if (gcry_md_get_algo_dlen(id->md) != alg->digest_len) {
			cb_errorf(err, err_len, "gcrypt: %s has digest length %u", alg->name,
			          gcry_md_get_algo_dlen(id->md));
			goto fail;
		}
		rc = gcry_md_open(&ctx->md, id->md, 0);
		if (rc) {
			cb_errorf(err, err_len, "gcrypt: gcry_md_open(%s): %s", alg->name,
			          gcry_strerror(rc));
			goto fail;
		}
	} else {
		/* Opened even when recreating, so a keying failure shows here. */
		rc = gcrypt_cipher_new(ctx, &ctx->cipher);
		if (rc) {
			cb_errorf(err, err_len, "gcrypt: opening and keying %s: %s", alg->name,
			          gcry_strerror(rc));
			goto fail;
		}
	}
	if (ctx->setup.recreate) {
		gcry_md_close(ctx->md);
		gcry_cipher_close(ctx->cipher);
		ctx->md = NULL;
		ctx->cipher = NULL;
	}
	return ctx;
fail:
	gcrypt_close(ctx);
	return NULL;
}

static int gcrypt_call_recreate(const struct gcrypt_ctx *ctx, const unsigned char *in, size_t len,
                                unsigned char *out)
{
	int status;

	if (ctx->id->md) {
		gcry_md_hd_t md;

		if (gcry_md_open(&md, ctx->id->md, 0))
			return CB_FAILED;
		gcrypt_md_feed(md, in, len, ctx->setup.chunk);
		status = gcrypt_md_digest(ctx, md, out);
		gcry_md_close(md);
	} else {
		gcry_cipher_hd_t cipher;

		if (gcrypt_cipher_new(ctx, &cipher))
			return CB_FAILED;
		status = gcrypt_cipher_message(ctx, cipher, in, len, out);
		gcry_cipher_close(cipher);
	}
	return status;
}

static int gcrypt_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct gcrypt_ctx *ctx = opaque;

	if (len % ctx->setup.alg->block_len != 0)
		return CB_FAILED;
	if (ctx->setup.recreate)
		return gcrypt_call_recreate(ctx, in, len, out);
	if (ctx->md) {
		if (!ctx->setup.stream)
			gcry_md_reset(ctx->md);
		gcrypt_md_feed(ctx->md, in, len, ctx->setup.chunk);
		return ctx->setup.stream ? CB_OK : gcrypt_md_digest(ctx, ctx->md, out);
	}
	if (ctx->setup.stream)
		return gcrypt_crypt(ctx, ctx->cipher, in, len, out) ? CB_FAILED : CB_OK;
	/* A new IV (counter) starts a new message, AEAD state and tag included;
	 * gcry_cipher_reset would also copy the key schedule back, a cost
	 * OpenSSL's IV-only re-init does not pay. */
	if (gcrypt_set_iv(ctx, ctx->cipher))
		return CB_FAILED;
	return gcrypt_cipher_message(ctx, ctx->cipher, in, len, out);
}

static int gcrypt_finish(void *opaque, unsigned char *out)
{
	struct gcrypt_ctx *ctx = opaque;

	if (!ctx->setup.stream || !ctx->md)
		return CB_OK; /* ciphers wrote everything in their calls */
	return gcrypt_md_digest(ctx, ctx->md, out);
}

/* What libgcrypt detected and kept after the mask: "hwflist:a:b:...:". */
static void gcrypt_describe(json_t *obj)
{
	const char *mask = getenv(GCRYPT_HWF_ENV);
	json_t *list = json_array();
	char *config;

	pthread_once(&gcrypt_once, gcrypt_init);
	json_object_set_new(obj, "disabled_hwf", mask && *mask ? json_string(mask) : json_null());
	config = gcrypt_init_status == 0 ? gcry_get_config(0, "hwflist") : NULL;
	if (!config) {
		json_decref(list);
		json_object_set_new(obj, "hwflist", json_null());
		return;
	}
	for (const char *p = strchr(config, ':'); p && *p == ':';) {
		size_t n = strcspn(++p, ":\n");

		if (n > 0)
			json_array_append_new(list, json_stringn(p, n));
		p += n;
	}
	gcry_free(config);
	json_object_set_new(obj, "hwflist", list);
}

/* The timed loop: direct calls (engine.h). */
static uint64_t gcrypt_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                            uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(gcrypt_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_gcrypt = {
    .name = "gcrypt",
    .kind = "library",
    .version = gcrypt_version,
    .probe = gcrypt_probe,
    .supports = gcrypt_supports,
    .open = gcrypt_open,
    .call = gcrypt_call,
    .loop = gcrypt_loop,
    .finish = gcrypt_finish,
    .close = gcrypt_close,
    .describe = gcrypt_describe,
    .pk = &cb_gcrypt_pk,
};
