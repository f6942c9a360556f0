/* mbedtls.c: the Mbed TLS 2.28 engine (libmbedcrypto).
 *
 * The 2.28 `_ret` functions are used: the names without it are deprecated
 * and return nothing. Mbed TLS 2.28 has no BLAKE2 and no SHA-3 (3.5 added
 * SHA-3). It uses AES-NI and PCLMUL when the CPU has them and offers no way
 * to turn them off. */
#include "core/engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <mbedtls/aes.h>
#include <mbedtls/chachapoly.h>
#include <mbedtls/gcm.h>
#include <mbedtls/md5.h>
#include <mbedtls/sha1.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>
#include <mbedtls/version.h>
#if defined(__has_include)
#if __has_include(<mbedtls/aesni.h>)
#include <mbedtls/aesni.h>
#endif
#endif

enum mbed_alg {
	MBED_MD5,
	MBED_SHA1,
	MBED_SHA256,
	MBED_SHA512,
	MBED_AES_CBC,
	MBED_AES_CTR,
	MBED_AES_GCM,
	MBED_CHACHA20_POLY1305,
};

static const struct {
	const char *name;
	enum mbed_alg id;
} mbed_algs[] = {
    {"md5", MBED_MD5},
    {"sha1", MBED_SHA1},
    {"sha256", MBED_SHA256},
    {"sha512", MBED_SHA512},
    {"aes-128-cbc", MBED_AES_CBC},
    {"aes-256-cbc", MBED_AES_CBC},
    {"aes-128-ctr", MBED_AES_CTR},
    {"aes-256-ctr", MBED_AES_CTR},
    {"aes-128-gcm", MBED_AES_GCM},
    {"aes-256-gcm", MBED_AES_GCM},
    {"chacha20-poly1305", MBED_CHACHA20_POLY1305},
};

/* Everything one call may create: the reused context, or a fresh one on the
 * stack when recreating. */
union mbed_state {
	mbedtls_md5_context md5;
	mbedtls_sha1_context sha1;
	mbedtls_sha256_context sha256;
	mbedtls_sha512_context sha512;
	mbedtls_aes_context aes;
	mbedtls_gcm_context gcm;
	mbedtls_chachapoly_context chachapoly;
};

/* The setup first, as every library engine's context begins (engine.h). */
struct mbed_ctx {
	struct cb_engine_setup setup;
	union mbed_state state;
	enum mbed_alg id;
	/* CBC: the chaining value; CTR: the counter block, the unused key
	 * stream and its offset. The library updates them in place, so they
	 * carry a stream from one call to the next. */
	unsigned char chain[16];
	unsigned char stream_block[16];
	size_t stream_off;
};

static int mbed_lookup(const struct cb_algorithm *alg)
{
	for (size_t i = 0; i < sizeof mbed_algs / sizeof mbed_algs[0]; i++)
		if (strcmp(mbed_algs[i].name, alg->name) == 0)
			return (int)mbed_algs[i].id;
	return -1;
}

static char mbed_version_buf[32];
static pthread_once_t mbed_version_once = PTHREAD_ONCE_INIT;

static void mbed_version_fill(void)
{
	mbedtls_version_get_string(mbed_version_buf); /* "2.28.3": 9 bytes at most */
}

static const char *mbed_version(void)
{
	pthread_once(&mbed_version_once, mbed_version_fill);
	return mbed_version_buf;
}

static int mbed_probe(char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	return 0; /* no global initialisation */
}

extern const struct cb_pk_ops cb_mbedtls_pk; /* mbedtls_pk.c */

static bool mbed_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	int id = mbed_lookup(alg);

	if (id < 0 || !cb_op_applies(alg, op))
		return false;
	return mode == CB_MODE_MESSAGE || alg->kind != CB_KIND_AEAD;
}

/* ---- Contexts ---- */

/* Initialise S for C's algorithm and, for ciphers, schedule the key. */
static int mbed_setup(const struct mbed_ctx *c, union mbed_state *s)
{
	unsigned int bits = (unsigned int)c->setup.alg->key_len * 8;

	switch (c->id) {
	case MBED_MD5:
		mbedtls_md5_init(&s->md5);
		return 0;
	case MBED_SHA1:
		mbedtls_sha1_init(&s->sha1);
		return 0;
	case MBED_SHA256:
		mbedtls_sha256_init(&s->sha256);
		return 0;
	case MBED_SHA512:
		mbedtls_sha512_init(&s->sha512);
		return 0;
	case MBED_AES_CBC:
		mbedtls_aes_init(&s->aes);
		if (c->setup.op == CB_OP_DECRYPT)
			return mbedtls_aes_setkey_dec(&s->aes, c->setup.key, bits);
		return mbedtls_aes_setkey_enc(&s->aes, c->setup.key, bits);
	case MBED_AES_CTR: /* CTR decrypts with the encryption schedule */
		mbedtls_aes_init(&s->aes);
		return mbedtls_aes_setkey_enc(&s->aes, c->setup.key, bits);
	case MBED_AES_GCM:
		mbedtls_gcm_init(&s->gcm);
		return mbedtls_gcm_setkey(&s->gcm, MBEDTLS_CIPHER_ID_AES, c->setup.key, bits);
	case MBED_CHACHA20_POLY1305:
		mbedtls_chachapoly_init(&s->chachapoly);
		return mbedtls_chachapoly_setkey(&s->chachapoly, c->setup.key);
	}
	return -1;
}

static void mbed_release(const struct mbed_ctx *c, union mbed_state *s)
{
	switch (c->id) {
	case MBED_MD5:
		mbedtls_md5_free(&s->md5);
		break;
	case MBED_SHA1:
		mbedtls_sha1_free(&s->sha1);
		break;
	case MBED_SHA256:
		mbedtls_sha256_free(&s->sha256);
		break;
	case MBED_SHA512:
		mbedtls_sha512_free(&s->sha512);
		break;
	case MBED_AES_CBC:
	case MBED_AES_CTR:
		mbedtls_aes_free(&s->aes);
		break;
	case MBED_AES_GCM:
		mbedtls_gcm_free(&s->gcm);
		break;
	case MBED_CHACHA20_POLY1305:
		mbedtls_chachapoly_free(&s->chachapoly);
		break;
	}
}

/* ---- Hashes ---- */

static int mbed_hash_start(enum mbed_alg id, union mbed_state *s)
{
	switch (id) {
	case MBED_MD5:
		return mbedtls_md5_starts_ret(&s->md5);
	case MBED_SHA1:
		return mbedtls_sha1_starts_ret(&s->sha1);
	case MBED_SHA256:
		return mbedtls_sha256_starts_ret(&s->sha256, 0);
	case MBED_SHA512:
		return mbedtls_sha512_starts_ret(&s->sha512, 0);
	default:
		return -1;
	}
}

static int mbed_hash_update(enum mbed_alg id, union mbed_state *s, const unsigned char *in,
                            size_t len)
{
	switch (id) {
	case MBED_MD5:
		return mbedtls_md5_update_ret(&s->md5, in, len);
	case MBED_SHA1:
		return mbedtls_sha1_update_ret(&s->sha1, in, len);
	case MBED_SHA256:
		return mbedtls_sha256_update_ret(&s->sha256, in, len);
	case MBED_SHA512:
		return mbedtls_sha512_update_ret(&s->sha512, in, len);
	default:
		return -1;
	}
}

static int mbed_hash_finish(enum mbed_alg id, union mbed_state *s, unsigned char *out)
{
	switch (id) {
	case MBED_MD5:
		return mbedtls_md5_finish_ret(&s->md5, out);
	case MBED_SHA1:
		return mbedtls_sha1_finish_ret(&s->sha1, out);
	case MBED_SHA256:
		return mbedtls_sha256_finish_ret(&s->sha256, out);
	case MBED_SHA512:
		return mbedtls_sha512_finish_ret(&s->sha512, out);
	default:
		return -1;
	}
}

/* LEN bytes of IN in updates of at most the configured chunk. */
static int mbed_absorb(const struct mbed_ctx *c, union mbed_state *s, const unsigned char *in,
                       size_t len)
{
	size_t step = c->setup.chunk ? c->setup.chunk : len;
	size_t done = 0;

	do {
		size_t n = len - done < step ? len - done : step;
		if (mbed_hash_update(c->id, s, in + done, n) != 0)
			return -1;
		done += n;
	} while (done < len);
	return 0;
}

static int mbed_hash_message(struct mbed_ctx *c, union mbed_state *s, const unsigned char *in,
                             size_t len, unsigned char *out)
{
	if (mbed_hash_start(c->id, s) != 0 || mbed_absorb(c, s, in, len) != 0 ||
	    mbed_hash_finish(c->id, s, out) != 0)
		return CB_FAILED;
	return CB_OK;
}

/* ---- Ciphers ---- */

static int mbed_crypt(struct mbed_ctx *c, union mbed_state *s, const unsigned char *in, size_t len,
                      unsigned char *out)
{
	bool encrypt = c->setup.encrypt;
	int rc;

	switch (c->id) {
	case MBED_AES_CBC:
		if (len % 16 != 0)
			return CB_FAILED;
		if (!c->setup.stream)
			memcpy(c->chain, c->setup.iv, 16);
		rc = mbedtls_aes_crypt_cbc(&s->aes,
		                           encrypt ? MBEDTLS_AES_ENCRYPT : MBEDTLS_AES_DECRYPT, len,
		                           c->chain, in, out);
		return rc == 0 ? CB_OK : CB_FAILED;
	case MBED_AES_CTR:
		if (!c->setup.stream) {
			memcpy(c->chain, c->setup.iv, 16);
			c->stream_off = 0;
		}
		rc = mbedtls_aes_crypt_ctr(&s->aes, len, &c->stream_off, c->chain, c->stream_block,
		                           in, out);
		return rc == 0 ? CB_OK : CB_FAILED;
	case MBED_AES_GCM:
		if (encrypt) {
			rc = mbedtls_gcm_crypt_and_tag(&s->gcm, MBEDTLS_GCM_ENCRYPT, len,
			                               c->setup.iv, 12, c->setup.aad,
			                               c->setup.aad_len, in, out, 16, out + len);
			return rc == 0 ? CB_OK : CB_FAILED;
		}
		rc = mbedtls_gcm_auth_decrypt(&s->gcm, len, c->setup.iv, 12, c->setup.aad,
		                              c->setup.aad_len, c->setup.tag, 16, in, out);
		if (rc == MBEDTLS_ERR_GCM_AUTH_FAILED)
			return CB_REJECTED;
		return rc == 0 ? CB_OK : CB_FAILED;
	case MBED_CHACHA20_POLY1305:
		if (encrypt) {
			rc = mbedtls_chachapoly_encrypt_and_tag(&s->chachapoly, len, c->setup.iv,
			                                        c->setup.aad, c->setup.aad_len, in,
			                                        out, out + len);
			return rc == 0 ? CB_OK : CB_FAILED;
		}
		rc = mbedtls_chachapoly_auth_decrypt(&s->chachapoly, len, c->setup.iv, c->setup.aad,
		                                     c->setup.aad_len, c->setup.tag, in, out);
		if (rc == MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED)
			return CB_REJECTED;
		return rc == 0 ? CB_OK : CB_FAILED;
	default:
		return CB_FAILED;
	}
}

/* ---- Engine ---- */

static void *mbed_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	struct mbed_ctx *c;

	(void)cell; /* everything it needs is in SETUP */
	c = calloc(1, sizeof *c);
	if (!c) {
		cb_errorf(err, err_len, "mbedtls: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->id = (enum mbed_alg)mbed_lookup(alg);
	if (alg->kind != CB_KIND_HASH)
		memcpy(c->chain, setup->iv, alg->iv_len);

	if (c->setup.recreate)
		return c; /* every call builds its own state */
	if (mbed_setup(c, &c->state) != 0) {
		cb_errorf(err, err_len, "mbedtls: setting up %s failed", alg->name);
		mbed_release(c, &c->state);
		free(c);
		return NULL;
	}
	if (c->setup.stream && alg->kind == CB_KIND_HASH &&
	    mbed_hash_start(c->id, &c->state) != 0) {
		cb_errorf(err, err_len, "mbedtls: starting %s failed", alg->name);
		mbed_release(c, &c->state);
		free(c);
		return NULL;
	}
	return c;
}

static int mbed_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct mbed_ctx *c = ctx;
	union mbed_state fresh;
	union mbed_state *s = &c->state;
	int rc;

	if (c->setup.stream && c->setup.alg->kind == CB_KIND_HASH)
		return mbed_absorb(c, s, in, len) == 0 ? CB_OK : CB_FAILED;
	if (c->setup.recreate) {
		s = &fresh;
		if (mbed_setup(c, s) != 0) {
			mbed_release(c, s);
			return CB_FAILED;
		}
	}
	if (c->setup.alg->kind == CB_KIND_HASH)
		rc = mbed_hash_message(c, s, in, len, out);
	else
		rc = mbed_crypt(c, s, in, len, out);
	if (c->setup.recreate)
		mbed_release(c, s);
	return rc;
}

static int mbed_finish(void *ctx, unsigned char *out)
{
	struct mbed_ctx *c = ctx;

	if (!c->setup.stream)
		return CB_FAILED;
	if (c->setup.alg->kind != CB_KIND_HASH)
		return CB_OK; /* a cipher stream has written everything already */
	return mbed_hash_finish(c->id, &c->state, out) == 0 ? CB_OK : CB_FAILED;
}

static void mbed_close(void *ctx)
{
	struct mbed_ctx *c = ctx;

	if (!c)
		return;
	if (!c->setup.recreate)
		mbed_release(c, &c->state);
	free(c);
}

static void mbed_describe(json_t *obj)
{
#if defined(MBEDTLS_AESNI_HAVE_CODE)
	json_object_set_new(obj, "aesni",
	                    json_boolean(mbedtls_aesni_has_support(MBEDTLS_AESNI_AES)));
	json_object_set_new(obj, "clmul",
	                    json_boolean(mbedtls_aesni_has_support(MBEDTLS_AESNI_CLMUL)));
	json_object_set_new(obj, "note", json_string("not maskable"));
#else
	json_object_set_new(obj, "aesni", json_false());
	json_object_set_new(obj, "clmul", json_false());
	json_object_set_new(obj, "note", json_string("no AES-NI code in this build"));
#endif
}

/* The timed loop: direct calls (engine.h). */
static uint64_t mbed_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                          uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(mbed_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_mbedtls = {
    .name = "mbedtls",
    .kind = "library",
    .version = mbed_version,
    .probe = mbed_probe,
    .supports = mbed_supports,
    .open = mbed_open,
    .call = mbed_call,
    .loop = mbed_loop,
    .finish = mbed_finish,
    .close = mbed_close,
    .describe = mbed_describe,
    .pk = &cb_mbedtls_pk,
};
