/* wolfssl.c: the wolfSSL engine (wolfCrypt).
 *
 * <wolfssl/options.h> must come before every other wolfSSL header: without
 * it the structures have another size (Aes, wc_Sha256) and GCM, CTR and
 * BLAKE2b are compiled out, so the code links but corrupts memory. What the
 * build offers is read from the same macros the library was built with. */
#include <wolfssl/options.h>
#include <wolfssl/wolfcrypt/settings.h>

#include <wolfssl/ssl.h>
#include <wolfssl/wolfcrypt/aes.h>
#include <wolfssl/wolfcrypt/blake2.h>
#include <wolfssl/wolfcrypt/chacha20_poly1305.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/md5.h>
#include <wolfssl/wolfcrypt/sha.h>
#include <wolfssl/wolfcrypt/sha256.h>
#include <wolfssl/wolfcrypt/sha3.h>
#include <wolfssl/wolfcrypt/sha512.h>
#include <wolfssl/wolfcrypt/wc_port.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/engine.h"

#include "core/base/errbuf.h"

enum wolf_alg {
	WOLF_MD5,
	WOLF_SHA1,
	WOLF_SHA256,
	WOLF_SHA512,
	WOLF_BLAKE2B_512,
	WOLF_SHA3_256,
	WOLF_AES_CBC,
	WOLF_AES_CTR,
	WOLF_AES_GCM,
	WOLF_CHACHA20_POLY1305,
};

static const struct {
	const char *name;
	enum wolf_alg id;
} wolf_algs[] = {
#ifndef NO_MD5
    {"md5", WOLF_MD5},
#endif
#ifndef NO_SHA
    {"sha1", WOLF_SHA1},
#endif
#ifndef NO_SHA256
    {"sha256", WOLF_SHA256},
#endif
#ifdef WOLFSSL_SHA512
    {"sha512", WOLF_SHA512},
#endif
#ifdef HAVE_BLAKE2B
    {"blake2b-512", WOLF_BLAKE2B_512},
#endif
#ifdef WOLFSSL_SHA3
    {"sha3-256", WOLF_SHA3_256},
#endif
#if defined(HAVE_AES_CBC) && defined(HAVE_AES_DECRYPT)
    {"aes-128-cbc", WOLF_AES_CBC},
    {"aes-256-cbc", WOLF_AES_CBC},
#endif
#ifdef WOLFSSL_AES_COUNTER
    {"aes-128-ctr", WOLF_AES_CTR},
    {"aes-256-ctr", WOLF_AES_CTR},
#endif
#ifdef HAVE_AESGCM
    {"aes-128-gcm", WOLF_AES_GCM},
    {"aes-256-gcm", WOLF_AES_GCM},
#endif
#if defined(HAVE_CHACHA) && defined(HAVE_POLY1305)
    {"chacha20-poly1305", WOLF_CHACHA20_POLY1305},
#endif
};

union wolf_hash {
	wc_Md5 md5;
	wc_Sha sha1;
	wc_Sha256 sha256;
	wc_Sha512 sha512;
	Blake2b blake2b;
	wc_Sha3 sha3;
};

/* The setup first, as every library engine's context begins (engine.h). */
struct wolf_ctx {
	struct cb_engine_setup setup;
	union {
		union wolf_hash hash;
		Aes aes;
	} u;
	enum wolf_alg id;
};

static int wolf_lookup(const struct cb_algorithm *alg)
{
	for (size_t i = 0; i < sizeof wolf_algs / sizeof wolf_algs[0]; i++)
		if (strcmp(wolf_algs[i].name, alg->name) == 0)
			return (int)wolf_algs[i].id;
	return -1;
}

static const char *wolf_version(void)
{
	return wolfSSL_lib_version();
}

static int wolf_probe(char *why, size_t why_len)
{
	int rc = wolfCrypt_Init();

	if (rc != 0) {
		snprintf(why, why_len, "wolfCrypt_Init() failed (%d)", rc);
		return 1;
	}
	return 0;
}

extern const struct cb_pk_ops cb_wolfssl_pk; /* wolfssl_pk.c */

static bool wolf_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	if (wolf_lookup(alg) < 0 || !cb_op_applies(alg, op))
		return false;
	return mode == CB_MODE_MESSAGE || alg->kind != CB_KIND_AEAD;
}

/* ---- Hashes ---- */

static int wolf_hash_init(enum wolf_alg id, union wolf_hash *h)
{
	switch (id) {
#ifndef NO_MD5
	case WOLF_MD5:
		return wc_InitMd5_ex(&h->md5, NULL, INVALID_DEVID);
#endif
#ifndef NO_SHA
	case WOLF_SHA1:
		return wc_InitSha_ex(&h->sha1, NULL, INVALID_DEVID);
#endif
#ifndef NO_SHA256
	case WOLF_SHA256:
		return wc_InitSha256_ex(&h->sha256, NULL, INVALID_DEVID);
#endif
#ifdef WOLFSSL_SHA512
	case WOLF_SHA512:
		return wc_InitSha512_ex(&h->sha512, NULL, INVALID_DEVID);
#endif
#ifdef HAVE_BLAKE2B
	case WOLF_BLAKE2B_512:
		return wc_InitBlake2b(&h->blake2b, 64);
#endif
#ifdef WOLFSSL_SHA3
	case WOLF_SHA3_256:
		return wc_InitSha3_256(&h->sha3, NULL, INVALID_DEVID);
#endif
	default:
		return -1;
	}
}

static int wolf_hash_update(enum wolf_alg id, union wolf_hash *h, const unsigned char *in,
                            word32 len)
{
	switch (id) {
#ifndef NO_MD5
	case WOLF_MD5:
		return wc_Md5Update(&h->md5, in, len);
#endif
#ifndef NO_SHA
	case WOLF_SHA1:
		return wc_ShaUpdate(&h->sha1, in, len);
#endif
#ifndef NO_SHA256
	case WOLF_SHA256:
		return wc_Sha256Update(&h->sha256, in, len);
#endif
#ifdef WOLFSSL_SHA512
	case WOLF_SHA512:
		return wc_Sha512Update(&h->sha512, in, len);
#endif
#ifdef HAVE_BLAKE2B
	case WOLF_BLAKE2B_512:
		return wc_Blake2bUpdate(&h->blake2b, in, len);
#endif
#ifdef WOLFSSL_SHA3
	case WOLF_SHA3_256:
		return wc_Sha3_256_Update(&h->sha3, in, len);
#endif
	default:
		return -1;
	}
}

/* The digest; every Final but BLAKE2b's also resets the state for the next
 * message (wolfCrypt's documented reuse), so only BLAKE2b is re-initialised. */
static int wolf_hash_final(enum wolf_alg id, union wolf_hash *h, unsigned char *out)
{
	switch (id) {
#ifndef NO_MD5
	case WOLF_MD5:
		return wc_Md5Final(&h->md5, out);
#endif
#ifndef NO_SHA
	case WOLF_SHA1:
		return wc_ShaFinal(&h->sha1, out);
#endif
#ifndef NO_SHA256
	case WOLF_SHA256:
		return wc_Sha256Final(&h->sha256, out);
#endif
#ifdef WOLFSSL_SHA512
	case WOLF_SHA512:
		return wc_Sha512Final(&h->sha512, out);
#endif
#ifdef HAVE_BLAKE2B
	case WOLF_BLAKE2B_512:
		if (wc_Blake2bFinal(&h->blake2b, out, 64) != 0)
			return -1;
		return wc_InitBlake2b(&h->blake2b, 64);
#endif
#ifdef WOLFSSL_SHA3
	case WOLF_SHA3_256:
		return wc_Sha3_256_Final(&h->sha3, out);
#endif
	default:
		return -1;
	}
}

static void wolf_hash_free(enum wolf_alg id, union wolf_hash *h)
{
	switch (id) {
#ifndef NO_MD5
	case WOLF_MD5:
		wc_Md5Free(&h->md5);
		break;
#endif
#ifndef NO_SHA
	case WOLF_SHA1:
		wc_ShaFree(&h->sha1);
		break;
#endif
#ifndef NO_SHA256
	case WOLF_SHA256:
		wc_Sha256Free(&h->sha256);
		break;
#endif
#ifdef WOLFSSL_SHA512
	case WOLF_SHA512:
		wc_Sha512Free(&h->sha512);
		break;
#endif
#ifdef WOLFSSL_SHA3
	case WOLF_SHA3_256:
		wc_Sha3_256_Free(&h->sha3);
		break;
#endif
	default: /* BLAKE2b holds nothing to free */
		break;
	}
}

/* LEN bytes of IN in updates of at most the configured chunk (and of what
 * a word32 length can say). */
static int wolf_absorb(const struct wolf_ctx *c, union wolf_hash *h, const unsigned char *in,
                       size_t len)
{
	size_t step = c->setup.chunk ? c->setup.chunk : len;
	size_t done = 0;

	if (step > 0x40000000u)
		step = 0x40000000u;
	do {
		size_t n = len - done < step ? len - done : step;
		if (wolf_hash_update(c->id, h, in + done, (word32)n) != 0)
			return -1;
		done += n;
	} while (done < len);
	return 0;
}

static int wolf_hash_message(struct wolf_ctx *c, const unsigned char *in, size_t len,
                             unsigned char *out)
{
	union wolf_hash fresh;
	int rc = CB_OK;

	if (!c->setup.recreate) {
		if (wolf_absorb(c, &c->u.hash, in, len) != 0 ||
		    wolf_hash_final(c->id, &c->u.hash, out) != 0)
			return CB_FAILED;
		return CB_OK;
	}
	if (wolf_hash_init(c->id, &fresh) != 0)
		return CB_FAILED;
	if (wolf_absorb(c, &fresh, in, len) != 0 || wolf_hash_final(c->id, &fresh, out) != 0)
		rc = CB_FAILED;
	wolf_hash_free(c->id, &fresh);
	return rc;
}

/* ---- Ciphers ---- */

/* Initialise AES and schedule the key for C's mode and direction. */
static int wolf_aes_setup(const struct wolf_ctx *c, Aes *aes)
{
	word32 key_len = (word32)c->setup.alg->key_len;

	if (wc_AesInit(aes, NULL, INVALID_DEVID) != 0)
		return -1;
	switch (c->id) {
	case WOLF_AES_CBC:
		return wc_AesSetKey(aes, c->setup.key, key_len, c->setup.iv,
		                    c->setup.op == CB_OP_ENCRYPT ? AES_ENCRYPTION : AES_DECRYPTION);
	case WOLF_AES_CTR: /* CTR decrypts with the encryption schedule */
		return wc_AesSetKey(aes, c->setup.key, key_len, c->setup.iv, AES_ENCRYPTION);
#ifdef HAVE_AESGCM
	case WOLF_AES_GCM:
		return wc_AesGcmSetKey(aes, c->setup.key, key_len);
#endif
	default:
		return -1;
	}
}

static int wolf_aes(struct wolf_ctx *c, Aes *aes, const unsigned char *in, size_t len,
                    unsigned char *out)
{
	bool encrypt = c->setup.encrypt;
	word32 n = (word32)len;
	int rc;

	switch (c->id) {
#if defined(HAVE_AES_CBC) && defined(HAVE_AES_DECRYPT)
	case WOLF_AES_CBC:
		if (len % 16 != 0)
			return CB_FAILED;
		if (!c->setup.stream && wc_AesSetIV(aes, c->setup.iv) != 0)
			return CB_FAILED;
		rc =
		    encrypt ? wc_AesCbcEncrypt(aes, out, in, n) : wc_AesCbcDecrypt(aes, out, in, n);
		return rc == 0 ? CB_OK : CB_FAILED;
#endif
#ifdef WOLFSSL_AES_COUNTER
	case WOLF_AES_CTR:
		if (!c->setup.stream) {
			if (wc_AesSetIV(aes, c->setup.iv) != 0)
				return CB_FAILED;
			/* A new message must not use the key stream left
			 * from a partial block. 5.5.4's wc_AesSetIV drops
			 * it; older releases' did not. */
			aes->left = 0;
		}
		return wc_AesCtrEncrypt(aes, out, in, n) == 0 ? CB_OK : CB_FAILED;
#endif
#ifdef HAVE_AESGCM
	case WOLF_AES_GCM:
		if (encrypt) {
			rc = wc_AesGcmEncrypt(aes, out, in, n, c->setup.iv, 12, out + len, 16,
			                      c->setup.aad, (word32)c->setup.aad_len);
			return rc == 0 ? CB_OK : CB_FAILED;
		}
		rc = wc_AesGcmDecrypt(aes, out, in, n, c->setup.iv, 12, c->setup.tag, 16,
		                      c->setup.aad, (word32)c->setup.aad_len);
		if (rc == AES_GCM_AUTH_E)
			return CB_REJECTED;
		return rc == 0 ? CB_OK : CB_FAILED;
#endif
	default:
		return CB_FAILED;
	}
}

/* wolfCrypt's ChaCha20-Poly1305 one-shot takes the key on every call (ChaCha
 * has no key schedule), so reuse and recreation are the same code. */
static int wolf_chachapoly(const struct wolf_ctx *c, const unsigned char *in, size_t len,
                           unsigned char *out)
{
#if defined(HAVE_CHACHA) && defined(HAVE_POLY1305)
	int rc;

	if (c->setup.op == CB_OP_ENCRYPT) {
		rc = wc_ChaCha20Poly1305_Encrypt(c->setup.key, c->setup.iv, c->setup.aad,
		                                 (word32)c->setup.aad_len, in, (word32)len, out,
		                                 out + len);
		return rc == 0 ? CB_OK : CB_FAILED;
	}
	rc = wc_ChaCha20Poly1305_Decrypt(c->setup.key, c->setup.iv, c->setup.aad,
	                                 (word32)c->setup.aad_len, in, (word32)len, c->setup.tag,
	                                 out);
	if (rc == MAC_CMP_FAILED_E)
		return CB_REJECTED;
	return rc == 0 ? CB_OK : CB_FAILED;
#else
	(void)c, (void)in, (void)len, (void)out;
	return CB_FAILED;
#endif
}

/* ---- Engine ---- */

static void *wolf_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	struct wolf_ctx *c;
	int rc = 0;

	(void)cell; /* everything it needs is in SETUP */
	c = calloc(1, sizeof *c);
	if (!c) {
		cb_errorf(err, err_len, "wolfssl: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->id = (enum wolf_alg)wolf_lookup(alg);

	if (c->setup.recreate || c->id == WOLF_CHACHA20_POLY1305)
		return c;
	if (alg->kind == CB_KIND_HASH)
		rc = wolf_hash_init(c->id, &c->u.hash);
	else
		rc = wolf_aes_setup(c, &c->u.aes);
	if (rc != 0) {
		cb_errorf(err, err_len, "wolfssl: setting up %s failed (%d)", alg->name, rc);
		free(c);
		return NULL;
	}
	return c;
}

static int wolf_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct wolf_ctx *c = ctx;
	Aes fresh;
	int rc;

	if (len > UINT32_MAX && c->setup.alg->kind != CB_KIND_HASH)
		return CB_FAILED; /* wolfCrypt lengths are word32 */
	if (c->setup.stream && c->setup.alg->kind == CB_KIND_HASH)
		return wolf_absorb(c, &c->u.hash, in, len) == 0 ? CB_OK : CB_FAILED;
	if (c->setup.alg->kind == CB_KIND_HASH)
		return wolf_hash_message(c, in, len, out);
	if (c->id == WOLF_CHACHA20_POLY1305)
		return wolf_chachapoly(c, in, len, out);
	if (!c->setup.recreate)
		return wolf_aes(c, &c->u.aes, in, len, out);
	if (wolf_aes_setup(c, &fresh) != 0) {
		wc_AesFree(&fresh);
		return CB_FAILED;
	}
	rc = wolf_aes(c, &fresh, in, len, out);
	wc_AesFree(&fresh);
	return rc;
}

static int wolf_finish(void *ctx, unsigned char *out)
{
	struct wolf_ctx *c = ctx;

	if (!c->setup.stream)
		return CB_FAILED;
	if (c->setup.alg->kind != CB_KIND_HASH)
		return CB_OK; /* a cipher stream has written everything already */
	return wolf_hash_final(c->id, &c->u.hash, out) == 0 ? CB_OK : CB_FAILED;
}

static void wolf_close(void *ctx)
{
	struct wolf_ctx *c = ctx;

	if (!c)
		return;
	if (!c->setup.recreate && c->setup.alg->kind == CB_KIND_HASH)
		wolf_hash_free(c->id, &c->u.hash);
	else if (!c->setup.recreate && c->id != WOLF_CHACHA20_POLY1305)
		wc_AesFree(&c->u.aes);
	free(c);
}

/* The acceleration this build was compiled with, read from the library's
 * own configuration macros (options.h). */
static void wolf_describe(json_t *obj)
{
	json_t *macros = json_array();

#ifdef WOLFSSL_AESNI
	json_array_append_new(macros, json_string("WOLFSSL_AESNI"));
#endif
#ifdef USE_INTEL_SPEEDUP
	json_array_append_new(macros, json_string("USE_INTEL_SPEEDUP"));
#endif
#ifdef HAVE_INTEL_AVX1
	json_array_append_new(macros, json_string("HAVE_INTEL_AVX1"));
#endif
#ifdef HAVE_INTEL_AVX2
	json_array_append_new(macros, json_string("HAVE_INTEL_AVX2"));
#endif
#ifdef WOLFSSL_ARMASM
	json_array_append_new(macros, json_string("WOLFSSL_ARMASM"));
#endif
#ifdef WOLFSSL_X86_64_BUILD
	json_array_append_new(macros, json_string("WOLFSSL_X86_64_BUILD"));
#endif
#ifdef GCM_TABLE_4BIT
	json_array_append_new(macros, json_string("GCM_TABLE_4BIT"));
#endif
#ifdef GCM_TABLE
	json_array_append_new(macros, json_string("GCM_TABLE"));
#endif
#ifdef GCM_SMALL
	json_array_append_new(macros, json_string("GCM_SMALL"));
#endif
#ifdef GCM_WORD32
	json_array_append_new(macros, json_string("GCM_WORD32"));
#endif
#if !defined(WOLFSSL_AESNI) && !defined(USE_INTEL_SPEEDUP) && !defined(HAVE_INTEL_AVX1) &&         \
    !defined(HAVE_INTEL_AVX2) && !defined(WOLFSSL_ARMASM)
	json_object_set_new(obj, "hw_acceleration", json_string("none in this build"));
#endif
	json_object_set_new(obj, "build_macros", macros);
	json_object_set_new(obj, "note", json_string("nothing to mask"));
}

/* The timed loop: direct calls (engine.h). */
static uint64_t wolf_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                          uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(wolf_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_wolfssl = {
    .name = "wolfssl",
    .kind = "library",
    .version = wolf_version,
    .probe = wolf_probe,
    .supports = wolf_supports,
    .open = wolf_open,
    .call = wolf_call,
    .loop = wolf_loop,
    .finish = wolf_finish,
    .close = wolf_close,
    .describe = wolf_describe,
    .max_aad = UINT32_MAX, /* wolfCrypt lengths are word32 */
    .pk = &cb_wolfssl_pk,
};
