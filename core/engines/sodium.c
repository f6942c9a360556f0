/* sodium.c: the libsodium engine.
 *
 * libsodium offers SHA-256, SHA-512, BLAKE2b and two AEADs. It has no CBC or
 * CTR, and its AES-256-GCM exists only where the CPU has AES-NI and PCLMUL
 * (there is no portable AES code to fall back to). Its hash states are plain
 * structs with no allocation, so "recreating" a hash context is the same
 * init a reused one gets; only AES-256-GCM has a keyed state (beforenm) whose
 * schedule recreation really repeats. ChaCha20-Poly1305 has no keyed state
 * at all: every call takes the key. Its public-key operations, Ed25519 and
 * X25519 only, are in sodium_pk.c. */
#include "core/engine/engine.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <sodium.h>

enum sodium_alg {
	SODIUM_SHA256,
	SODIUM_SHA512,
	SODIUM_BLAKE2B_512,
	SODIUM_AES_256_GCM,
	SODIUM_CHACHA20_POLY1305,
};

static const struct {
	const char *name;
	enum sodium_alg id;
} sodium_algs[] = {
    {"sha256", SODIUM_SHA256},
    {"sha512", SODIUM_SHA512},
    {"blake2b-512", SODIUM_BLAKE2B_512},
    {"aes-256-gcm", SODIUM_AES_256_GCM},
    {"chacha20-poly1305", SODIUM_CHACHA20_POLY1305},
};

union sodium_hash {
	crypto_hash_sha256_state sha256;
	crypto_hash_sha512_state sha512;
	crypto_generichash_state blake2b;
};

/* The setup comes first, as in every library engine's context (engine.h). */
struct sodium_ctx {
	struct cb_engine_setup setup;
	crypto_aead_aes256gcm_state gcm; /* key schedule and GHASH powers */
	union sodium_hash hash;
	enum sodium_alg id;
};

static int sodium_lookup(const struct cb_algorithm *alg)
{
	for (size_t i = 0; i < sizeof sodium_algs / sizeof sodium_algs[0]; i++)
		if (strcmp(sodium_algs[i].name, alg->name) == 0)
			return (int)sodium_algs[i].id;
	return -1;
}

static const char *sodium_version(void)
{
	return sodium_version_string();
}

static int sodium_probe(char *why, size_t why_len)
{
	if (sodium_init() < 0) {
		snprintf(why, why_len, "sodium_init() failed");
		return 1;
	}
	return 0;
}

extern const struct cb_pk_ops cb_sodium_pk; /* sodium_pk.c */

static bool sodium_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	int id = sodium_lookup(alg);

	if (id < 0 || !cb_op_applies(alg, op))
		return false;
	if (mode == CB_MODE_STREAM && alg->kind != CB_KIND_HASH)
		return false;
	/* The answer is meaningful only once sodium_init() has run; calling it
	 * again is cheap and safe. */
	if (id == SODIUM_AES_256_GCM)
		return sodium_init() >= 0 && crypto_aead_aes256gcm_is_available();
	return true;
}

/* ---- Hashes ---- */

static int sodium_hash_start(enum sodium_alg id, union sodium_hash *h)
{
	switch (id) {
	case SODIUM_SHA256:
		return crypto_hash_sha256_init(&h->sha256);
	case SODIUM_SHA512:
		return crypto_hash_sha512_init(&h->sha512);
	case SODIUM_BLAKE2B_512:
		return crypto_generichash_init(&h->blake2b, NULL, 0, 64);
	default:
		return -1;
	}
}

static int sodium_hash_update(enum sodium_alg id, union sodium_hash *h, const unsigned char *in,
                              size_t len)
{
	switch (id) {
	case SODIUM_SHA256:
		return crypto_hash_sha256_update(&h->sha256, in, len);
	case SODIUM_SHA512:
		return crypto_hash_sha512_update(&h->sha512, in, len);
	case SODIUM_BLAKE2B_512:
		return crypto_generichash_update(&h->blake2b, in, len);
	default:
		return -1;
	}
}

static int sodium_hash_final(enum sodium_alg id, union sodium_hash *h, unsigned char *out)
{
	switch (id) {
	case SODIUM_SHA256:
		return crypto_hash_sha256_final(&h->sha256, out);
	case SODIUM_SHA512:
		return crypto_hash_sha512_final(&h->sha512, out);
	case SODIUM_BLAKE2B_512:
		return crypto_generichash_final(&h->blake2b, out, 64);
	default:
		return -1;
	}
}

/* LEN bytes of IN in updates of at most the configured chunk. */
static int sodium_absorb(const struct sodium_ctx *c, union sodium_hash *h, const unsigned char *in,
                         size_t len)
{
	size_t step = c->setup.chunk ? c->setup.chunk : len;
	size_t done = 0;

	do {
		size_t n = len - done < step ? len - done : step;
		if (sodium_hash_update(c->id, h, in + done, n) != 0)
			return -1;
		done += n;
	} while (done < len);
	return 0;
}

static int sodium_hash_message(struct sodium_ctx *c, const unsigned char *in, size_t len,
                               unsigned char *out)
{
	union sodium_hash fresh;
	union sodium_hash *h = c->setup.recreate ? &fresh : &c->hash;

	if (sodium_hash_start(c->id, h) != 0 || sodium_absorb(c, h, in, len) != 0 ||
	    sodium_hash_final(c->id, h, out) != 0)
		return CB_FAILED;
	return CB_OK;
}

/* ---- AEAD ---- */

static int sodium_aead_message(struct sodium_ctx *c, const unsigned char *in, size_t len,
                               unsigned char *out)
{
	crypto_aead_aes256gcm_state fresh;
	const crypto_aead_aes256gcm_state *gcm = &c->gcm;
	bool encrypt = c->setup.encrypt;
	int rc;

	if (c->id == SODIUM_CHACHA20_POLY1305) {
		if (encrypt)
			rc = crypto_aead_chacha20poly1305_ietf_encrypt_detached(
			    out, out + len, NULL, in, len, c->setup.aad, c->setup.aad_len, NULL,
			    c->setup.iv, c->setup.key);
		else
			rc = crypto_aead_chacha20poly1305_ietf_decrypt_detached(
			    out, NULL, in, len, c->setup.tag, c->setup.aad, c->setup.aad_len,
			    c->setup.iv, c->setup.key);
	} else {
		if (c->setup.recreate) {
			if (crypto_aead_aes256gcm_beforenm(&fresh, c->setup.key) != 0)
				return CB_FAILED;
			gcm = &fresh;
		}
		if (encrypt)
			rc = crypto_aead_aes256gcm_encrypt_detached_afternm(
			    out, out + len, NULL, in, len, c->setup.aad, c->setup.aad_len, NULL,
			    c->setup.iv, gcm);
		else
			rc = crypto_aead_aes256gcm_decrypt_detached_afternm(
			    out, NULL, in, len, c->setup.tag, c->setup.aad, c->setup.aad_len,
			    c->setup.iv, gcm);
	}
	if (rc == 0)
		return CB_OK;
	/* Decryption's only failure, for a message within the size limit, is
	 * the tag. */
	return encrypt ? CB_FAILED : CB_REJECTED;
}

/* ---- Engine ---- */

static void *sodium_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                         char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	struct sodium_ctx *c;

	(void)cell; /* everything it needs is in SETUP */
	/* The BLAKE2b state asks for 64-byte alignment, beyond malloc's. */
	c = aligned_alloc(alignof(struct sodium_ctx), sizeof *c);
	if (!c) {
		cb_errorf(err, err_len, "sodium: out of memory");
		return NULL;
	}
	memset(c, 0, sizeof *c);
	c->setup = *setup;
	c->id = (enum sodium_alg)sodium_lookup(alg);

	if (c->id == SODIUM_AES_256_GCM && !c->setup.recreate &&
	    crypto_aead_aes256gcm_beforenm(&c->gcm, c->setup.key) != 0) {
		cb_errorf(err, err_len, "sodium: crypto_aead_aes256gcm_beforenm failed");
		free(c);
		return NULL;
	}
	if (c->setup.stream && sodium_hash_start(c->id, &c->hash) != 0) {
		cb_errorf(err, err_len, "sodium: hash init failed");
		free(c);
		return NULL;
	}
	return c;
}

static int sodium_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct sodium_ctx *c = ctx;

	if (c->setup.stream)
		return sodium_absorb(c, &c->hash, in, len) == 0 ? CB_OK : CB_FAILED;
	if (c->id == SODIUM_AES_256_GCM || c->id == SODIUM_CHACHA20_POLY1305)
		return sodium_aead_message(c, in, len, out);
	return sodium_hash_message(c, in, len, out);
}

static int sodium_finish(void *ctx, unsigned char *out)
{
	struct sodium_ctx *c = ctx;

	if (!c->setup.stream)
		return CB_FAILED;
	return sodium_hash_final(c->id, &c->hash, out) == 0 ? CB_OK : CB_FAILED;
}

static void sodium_close(void *ctx)
{
	struct sodium_ctx *c = ctx;

	if (c)
		sodium_memzero(c, sizeof *c);
	free(c);
}

static void sodium_describe(json_t *obj)
{
	json_object_set_new(obj, "has_aesni", json_boolean(sodium_runtime_has_aesni()));
	json_object_set_new(obj, "has_pclmul", json_boolean(sodium_runtime_has_pclmul()));
	json_object_set_new(obj, "has_avx2", json_boolean(sodium_runtime_has_avx2()));
	json_object_set_new(obj, "has_avx512f", json_boolean(sodium_runtime_has_avx512f()));
	json_object_set_new(
	    obj, "aes256gcm_available",
	    json_boolean(sodium_init() >= 0 && crypto_aead_aes256gcm_is_available()));
	json_object_set_new(obj, "note",
	                    json_string("portable SHA-2; AES-256-GCM needs AES-NI and PCLMUL; "
	                                "no mask control"));
}

/* The timed loop: direct calls (engine.h). */
static uint64_t sodium_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                            uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(sodium_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_sodium = {
    .name = "sodium",
    .kind = "library",
    .version = sodium_version,
    .probe = sodium_probe,
    .supports = sodium_supports,
    .open = sodium_open,
    .call = sodium_call,
    .loop = sodium_loop,
    .finish = sodium_finish,
    .close = sodium_close,
    .describe = sodium_describe,
    .pk = &cb_sodium_pk,
};
