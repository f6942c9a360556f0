/* nettle.c: the nettle engine.
 *
 * nettle contexts are plain structs with no allocation of their own: open
 * allocates one and keys it (hashes: init). Recreating allocates and keys one
 * inside every call, the nearest nettle has to creating a context. nettle has
 * no BLAKE2 in 3.8, and checks neither tags nor CBC lengths itself. Its
 * public-key operations (hogweed) are in nettle_pk.c. */
#include "core/engine/engine.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/ctr.h>
#include <nettle/memops.h>
#include <nettle/memxor.h>
#include <nettle/nettle-meta.h>
#include <nettle/version.h>

#define ENG_NETTLE_BLOCK 16 /* AES block: CBC chaining value and CTR counter */

enum eng_nettle_family { ENG_NETTLE_HASH, ENG_NETTLE_CBC, ENG_NETTLE_CTR, ENG_NETTLE_AEAD };

typedef void eng_nettle_cbc_func(const void *state, uint8_t *iv, size_t len, uint8_t *dst,
                                 const uint8_t *src);

/* The dedicated CBC encryptors of nettle 3.8 are ~1.6x faster than the generic
 * cbc_encrypt through a function pointer: use them for a fair row. */
static void eng_nettle_cbc_aes128(const void *state, uint8_t *iv, size_t len, uint8_t *dst,
                                  const uint8_t *src)
{
	cbc_aes128_encrypt(state, iv, len, dst, src);
}

static void eng_nettle_cbc_aes256(const void *state, uint8_t *iv, size_t len, uint8_t *dst,
                                  const uint8_t *src)
{
	cbc_aes256_encrypt(state, iv, len, dst, src);
}

static const struct eng_nettle_alg {
	const char *name;
	enum eng_nettle_family family;
	const struct nettle_hash *hash;
	const struct nettle_cipher *cipher;
	const struct nettle_aead *aead;
	eng_nettle_cbc_func *cbc_encrypt;
} eng_nettle_algs[] = {
    {"md5", ENG_NETTLE_HASH, .hash = &nettle_md5},
    {"sha1", ENG_NETTLE_HASH, .hash = &nettle_sha1},
    {"sha256", ENG_NETTLE_HASH, .hash = &nettle_sha256},
    {"sha512", ENG_NETTLE_HASH, .hash = &nettle_sha512},
    {"sha3-256", ENG_NETTLE_HASH, .hash = &nettle_sha3_256},
    {"aes-128-cbc", ENG_NETTLE_CBC, .cipher = &nettle_aes128, .cbc_encrypt = eng_nettle_cbc_aes128},
    {"aes-256-cbc", ENG_NETTLE_CBC, .cipher = &nettle_aes256, .cbc_encrypt = eng_nettle_cbc_aes256},
    {"aes-128-ctr", ENG_NETTLE_CTR, .cipher = &nettle_aes128},
    {"aes-256-ctr", ENG_NETTLE_CTR, .cipher = &nettle_aes256},
    {"aes-128-gcm", ENG_NETTLE_AEAD, .aead = &nettle_gcm_aes128},
    {"aes-256-gcm", ENG_NETTLE_AEAD, .aead = &nettle_gcm_aes256},
    {"chacha20-poly1305", ENG_NETTLE_AEAD, .aead = &nettle_chacha_poly1305},
};

struct eng_nettle_ctx {
	struct cb_engine_setup setup;
	const struct eng_nettle_alg *id;
	size_t state_size;
	void *state; /* hash, cipher or AEAD context, keyed in open; NULL when recreating */
	/* Stream mode: the running CBC chaining value or CTR counter, and the
	 * CTR keystream left over from a call that ended inside a block
	 * (ctr_crypt itself discards it). */
	uint8_t chain[ENG_NETTLE_BLOCK];
	uint8_t keystream[ENG_NETTLE_BLOCK];
	size_t keystream_left;
};

static pthread_once_t eng_nettle_once = PTHREAD_ONCE_INIT;
static char eng_nettle_version_text[32];

static void eng_nettle_version_init(void)
{
	snprintf(eng_nettle_version_text, sizeof eng_nettle_version_text, "nettle %d.%d",
	         nettle_version_major(), nettle_version_minor());
}

static const char *eng_nettle_version(void)
{
	pthread_once(&eng_nettle_once, eng_nettle_version_init);
	return eng_nettle_version_text;
}

static int eng_nettle_probe(char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	return 0; /* no global state; CPU dispatch ran when the library loaded */
}

static const struct eng_nettle_alg *eng_nettle_find(const char *name)
{
	for (size_t i = 0; i < sizeof eng_nettle_algs / sizeof eng_nettle_algs[0]; i++)
		if (strcmp(eng_nettle_algs[i].name, name) == 0)
			return &eng_nettle_algs[i];
	return NULL;
}

extern const struct cb_pk_ops cb_nettle_pk; /* nettle_pk.c */

static bool eng_nettle_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	if (!eng_nettle_find(alg->name) || !cb_op_applies(alg, op))
		return false;
	return mode == CB_MODE_MESSAGE || alg->kind != CB_KIND_AEAD;
}

/* What creating a context means for nettle: hashes start, ciphers get the key. */
static void eng_nettle_key(const struct eng_nettle_ctx *ctx, void *state)
{
	const struct eng_nettle_alg *id = ctx->id;

	switch (id->family) {
	case ENG_NETTLE_HASH:
		id->hash->init(state);
		break;
	case ENG_NETTLE_CBC:
		if (ctx->setup.encrypt)
			id->cipher->set_encrypt_key(state, ctx->setup.key);
		else
			id->cipher->set_decrypt_key(state, ctx->setup.key);
		break;
	case ENG_NETTLE_CTR:
		id->cipher->set_encrypt_key(state, ctx->setup.key);
		break;
	case ENG_NETTLE_AEAD:
		if (ctx->setup.encrypt)
			id->aead->set_encrypt_key(state, ctx->setup.key);
		else
			id->aead->set_decrypt_key(state, ctx->setup.key);
		break;
	}
}

static void eng_nettle_hash_feed(const struct eng_nettle_ctx *ctx, void *state, const uint8_t *in,
                                 size_t len)
{
	size_t step = ctx->setup.chunk ? ctx->setup.chunk : len;

	for (size_t done = 0; done < len; done += step)
		ctx->id->hash->update(state, len - done < step ? len - done : step, in + done);
}

/* CBC over LEN bytes (a multiple of the block) from chaining value IV,
 * which is left at the value that continues the chain. */
static void eng_nettle_cbc(const struct eng_nettle_ctx *ctx, const void *state, uint8_t *iv,
                           const uint8_t *in, size_t len, uint8_t *out)
{
	if (ctx->setup.encrypt)
		ctx->id->cbc_encrypt(state, iv, len, out, in);
	else
		cbc_decrypt(state, ctx->id->cipher->decrypt, ENG_NETTLE_BLOCK, iv, len, out, in);
}

/* One whole message on STATE, a keyed context. */
static int eng_nettle_message(const struct eng_nettle_ctx *ctx, void *state, const uint8_t *in,
                              size_t len, uint8_t *out)
{
	const struct eng_nettle_alg *id = ctx->id;
	uint8_t iv[ENG_NETTLE_BLOCK];
	uint8_t tag[CB_MAX_TAG];
	size_t tag_len = ctx->setup.alg->tag_len;

	switch (id->family) {
	case ENG_NETTLE_HASH:
		id->hash->init(state);
		eng_nettle_hash_feed(ctx, state, in, len);
		id->hash->digest(state, id->hash->digest_size, out);
		return CB_OK;
	case ENG_NETTLE_CBC:
		memcpy(iv, ctx->setup.iv, ENG_NETTLE_BLOCK);
		eng_nettle_cbc(ctx, state, iv, in, len, out);
		return CB_OK;
	case ENG_NETTLE_CTR:
		memcpy(iv, ctx->setup.iv, ENG_NETTLE_BLOCK);
		ctr_crypt(state, id->cipher->encrypt, ENG_NETTLE_BLOCK, iv, len, out, in);
		return CB_OK;
	case ENG_NETTLE_AEAD:
		id->aead->set_nonce(state, ctx->setup.iv);
		/* The nonce restarts the AEAD state; AAD must precede the data. */
		if (ctx->setup.aad_len)
			id->aead->update(state, ctx->setup.aad_len, ctx->setup.aad);
		if (ctx->setup.encrypt) {
			id->aead->encrypt(state, len, out, in);
			id->aead->digest(state, tag_len, out + len);
			return CB_OK;
		}
		id->aead->decrypt(state, len, out, in);
		id->aead->digest(state, tag_len, tag);
		return memeql_sec(tag, ctx->setup.tag, tag_len) ? CB_OK : CB_REJECTED;
	}
	return CB_FAILED;
}

/* CTR in stream mode: spend the keystream left by the previous call first,
 * and keep what a partial last block leaves. */
static void eng_nettle_ctr_stream(struct eng_nettle_ctx *ctx, const uint8_t *in, size_t len,
                                  uint8_t *out)
{
	nettle_cipher_func *encrypt = ctx->id->cipher->encrypt;
	size_t n = ctx->keystream_left < len ? ctx->keystream_left : len;
	size_t whole;

	memxor3(out, in, ctx->keystream + ENG_NETTLE_BLOCK - ctx->keystream_left, n);
	ctx->keystream_left -= n;
	in += n;
	out += n;
	len -= n;
	whole = len - len % ENG_NETTLE_BLOCK;
	ctr_crypt(ctx->state, encrypt, ENG_NETTLE_BLOCK, ctx->chain, whole, out, in);
	len -= whole;
	if (len == 0)
		return;
	memset(ctx->keystream, 0, ENG_NETTLE_BLOCK);
	ctr_crypt(ctx->state, encrypt, ENG_NETTLE_BLOCK, ctx->chain, ENG_NETTLE_BLOCK,
	          ctx->keystream, ctx->keystream);
	memxor3(out + whole, in + whole, ctx->keystream, len);
	ctx->keystream_left = ENG_NETTLE_BLOCK - len;
}

static void eng_nettle_close(void *opaque)
{
	struct eng_nettle_ctx *ctx = opaque;

	if (!ctx)
		return;
	free(ctx->state);
	free(ctx);
}

static void *eng_nettle_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                             char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	const struct eng_nettle_alg *id = eng_nettle_find(alg->name);
	struct eng_nettle_ctx *ctx;

	(void)cell; /* everything it needs is in SETUP */
	ctx = calloc(1, sizeof *ctx);
	if (!ctx) {
		cb_errorf(err, err_len, "nettle: out of memory");
		return NULL;
	}
	ctx->setup = *setup;
	ctx->id = id;
	ctx->state_size = id->hash     ? id->hash->context_size
	                  : id->cipher ? id->cipher->context_size
	                               : id->aead->context_size;
	if (id->hash && id->hash->digest_size != alg->digest_len) {
		cb_errorf(err, err_len, "nettle: %s has digest length %u", alg->name,
		          id->hash->digest_size);
		goto fail;
	}
	if (alg->kind != CB_KIND_HASH)
		memcpy(ctx->chain, setup->iv,
		       alg->iv_len < sizeof ctx->chain ? alg->iv_len : sizeof ctx->chain);
	if (!ctx->setup.recreate) {
		ctx->state = malloc(ctx->state_size);
		if (!ctx->state) {
			cb_errorf(err, err_len, "nettle: out of memory");
			goto fail;
		}
		eng_nettle_key(ctx, ctx->state);
	}
	return ctx;
fail:
	eng_nettle_close(ctx);
	return NULL;
}

static int eng_nettle_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct eng_nettle_ctx *ctx = opaque;
	void *state;
	int status;

	/* nettle's cbc_encrypt and cbc_decrypt assert on a partial block. */
	if (len % ctx->setup.alg->block_len != 0)
		return CB_FAILED;
	if (ctx->setup.stream) {
		switch (ctx->id->family) {
		case ENG_NETTLE_HASH:
			eng_nettle_hash_feed(ctx, ctx->state, in, len);
			return CB_OK;
		case ENG_NETTLE_CBC:
			eng_nettle_cbc(ctx, ctx->state, ctx->chain, in, len, out);
			return CB_OK;
		case ENG_NETTLE_CTR:
			eng_nettle_ctr_stream(ctx, in, len, out);
			return CB_OK;
		case ENG_NETTLE_AEAD:
			break;
		}
		return CB_FAILED;
	}
	if (!ctx->setup.recreate)
		return eng_nettle_message(ctx, ctx->state, in, len, out);
	state = malloc(ctx->state_size);
	if (!state)
		return CB_FAILED;
	eng_nettle_key(ctx, state);
	status = eng_nettle_message(ctx, state, in, len, out);
	free(state);
	return status;
}

static int eng_nettle_finish(void *opaque, unsigned char *out)
{
	struct eng_nettle_ctx *ctx = opaque;
	const struct nettle_hash *hash;

	hash = ctx->id->hash;
	if (ctx->setup.stream && hash)
		hash->digest(ctx->state, hash->digest_size, out);
	return CB_OK; /* ciphers wrote everything in their calls */
}

/* nettle has no query for its fat-binary choice; what can be reported is the
 * override the library read when it loaded (changing it later has no effect). */
static void eng_nettle_describe(json_t *obj)
{
	const char *override = getenv("NETTLE_FAT_OVERRIDE");

	json_object_set_new(obj, "fat_override", override ? json_string(override) : json_null());
}

/* The timed loop: direct calls (engine.h). */
static uint64_t eng_nettle_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                                uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(eng_nettle_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_nettle = {
    .name = "nettle",
    .kind = "library",
    .version = eng_nettle_version,
    .probe = eng_nettle_probe,
    .supports = eng_nettle_supports,
    .open = eng_nettle_open,
    .call = eng_nettle_call,
    .loop = eng_nettle_loop,
    .finish = eng_nettle_finish,
    .close = eng_nettle_close,
    .describe = eng_nettle_describe,
    .pk = &cb_nettle_pk,
};
