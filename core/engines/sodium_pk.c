/* sodium_pk.c: the sodium engine's public-key operations.
 *
 * libsodium offers Ed25519 (crypto_sign_*) and X25519 (crypto_scalarmult),
 * nothing else: no RSA, no ECDSA and no ECDH on a NIST curve, so `supports`
 * says no to those. Its keys are plain byte arrays: open expands Ed25519's
 * seed into the 64-byte secret key crypto_sign_detached takes, and the timed
 * call is one crypto_sign_detached, crypto_sign_verify_detached,
 * crypto_scalarmult, crypto_sign_keypair or crypto_box_keypair. Keys come
 * from libsodium's own random generator (randombytes), global and
 * thread-safe once sodium_init has run (the engine's probe). */
#include "core/engine/engine.h"
#include "core/base/errbuf.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

struct sodium_pk {
	struct cb_engine_setup setup;
	unsigned char sk[crypto_sign_SECRETKEYBYTES];        /* Ed25519: seed || public key */
	unsigned char pk[crypto_sign_PUBLICKEYBYTES];        /* Ed25519: the public key */
	unsigned char scalar[crypto_scalarmult_SCALARBYTES]; /* X25519: the private key */
	unsigned char peer[crypto_scalarmult_BYTES];         /* X25519: the peer's public key */
};

/* The schemes this half offers: a scheme added to core/algorithms/pk_scheme.c is
 * offered only once it is listed here. libsodium has no RSA, ECDSA or NIST-curve ECDH. */
static const bool offered[CB_PK_COUNT] = {
    [CB_PK_ED25519] = true,
    [CB_PK_X25519] = true,
};

static bool offers(const struct cb_algorithm *alg)
{
	return cb_alg_is_pk(alg) && alg->scheme < CB_PK_COUNT && offered[alg->scheme];
}

static bool sodium_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op);
}

static void sodium_pk_close(void *opaque)
{
	struct sodium_pk *c = opaque;

	if (c)
		sodium_memzero(c, sizeof *c);
	free(c);
}

static void *sodium_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                            char *err, size_t err_len)
{
	struct sodium_pk *c = calloc(1, sizeof *c);
	const struct cb_pk_setup *pk = setup->pk;
	const struct cb_pk_key *key = pk ? pk->key : NULL;
	bool ok = true;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "sodium: out of memory");
		return NULL;
	}
	c->setup = *setup;
	if (setup->op == CB_OP_KEYGEN)
		return c;
	if (setup->alg->scheme == CB_PK_X25519) {
		ok = key->d.len == sizeof c->scalar && pk->peer->pub.len == sizeof c->peer;
		if (ok) {
			memcpy(c->scalar, key->d.data, sizeof c->scalar);
			memcpy(c->peer, pk->peer->pub.data, sizeof c->peer);
		}
	} else if (setup->op == CB_OP_SIGN) {
		/* The secret key libsodium signs with is the seed and the public
		 * key it derives: it must be the fixed key's. */
		ok = key->d.len == crypto_sign_SEEDBYTES &&
		     crypto_sign_seed_keypair(c->pk, c->sk, key->d.data) == 0 &&
		     key->pub.len == sizeof c->pk &&
		     memcmp(c->pk, key->pub.data, sizeof c->pk) == 0;
	} else {
		ok = key->pub.len == sizeof c->pk && pk->sig_len == crypto_sign_BYTES;
		if (ok)
			memcpy(c->pk, key->pub.data, sizeof c->pk);
	}
	if (ok)
		return c;
	cb_errorf(err, err_len, "sodium: the %s key does not fit libsodium's", setup->alg->name);
	sodium_pk_close(c);
	return NULL;
}

static int sodium_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct sodium_pk *c = opaque;
	const struct cb_pk_setup *pk = c->setup.pk;
	bool ed25519 = c->setup.alg->scheme == CB_PK_ED25519;

	switch (c->setup.op) {
	case CB_OP_SIGN:
		return crypto_sign_detached(out, NULL, in, len, c->sk) == 0 ? CB_OK : CB_FAILED;
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		/* -1 is libsodium's one answer for any signature it refuses. */
		return crypto_sign_verify_detached(pk->sig, in, len, c->pk) == 0 ? CB_OK
		                                                                 : CB_REJECTED;
	case CB_OP_DERIVE:
		/* -1 only when the secret is all zeros (a small-order peer). */
		return crypto_scalarmult(out, c->scalar, c->peer) == 0 ? CB_OK : CB_FAILED;
	case CB_OP_KEYGEN: {
		/* The layout wants the private key first: Ed25519's is the seed,
		 * the first half of libsodium's secret key. */
		unsigned char sk[crypto_sign_SECRETKEYBYTES];

		if (ed25519 ? crypto_sign_keypair(out + 32, sk) != 0
		            : crypto_box_keypair(out + 32, sk) != 0)
			return CB_FAILED;
		memcpy(out, sk, 32);
		return CB_OK;
	}
	default:
		return CB_FAILED;
	}
}

static uint64_t sodium_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                               uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(sodium_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_sodium_pk = {
    .supports = sodium_pk_supports,
    .open = sodium_pk_open,
    .call = sodium_pk_call,
    .loop = sodium_pk_loop,
    .close = sodium_pk_close,
};
