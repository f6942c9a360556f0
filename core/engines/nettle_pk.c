/* nettle_pk.c: the nettle engine's public-key operations, through hogweed.
 *
 * hogweed's keys are GMP numbers in plain structs: open imports the key's
 * components into them (rsa_*_key_prepare checks them; ecc_point_set checks
 * that a point is on its curve), turns the signature to verify into numbers
 * and seeds a Yarrow-256 generator from getrandom, kept in the context (one
 * per thread), for everything that needs randomness: RSA blinding, PSS
 * salts, ECDSA nonces and keygen. The timed call is one hogweed operation
 * plus what puts its numbers in the contract's format (core/algorithms/pk.h): the fixed
 * length big-endian RSA signature, ECDSA's DER SEQUENCE of r and s, ECDH's x
 * coordinate, the new key's parts. RSA-PSS takes its salt from the caller:
 * drawing it from the generator is part of the call, as it is of signing.
 *
 * Offered: every algorithm and op. ECDH is ecc_point_mul (d * Q) and the x
 * coordinate; hogweed has no ECDH function of its own. */
#include "core/engine/engine.h"
#include "core/base/errbuf.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <nettle/bignum.h>
#include <nettle/curve25519.h>
#include <nettle/ecc-curve.h>
#include <nettle/ecc.h>
#include <nettle/ecdsa.h>
#include <nettle/eddsa.h>
#include <nettle/rsa.h>
#include <nettle/sha2.h>
#include <nettle/yarrow.h>

struct nettle_pk {
	struct cb_engine_setup setup;
	struct yarrow256_ctx rng;
	struct rsa_public_key rsa_pub;
	struct rsa_private_key rsa_key;
	struct ecc_scalar scalar;  /* ECDSA, ECDH: the private key */
	struct ecc_point point;    /* ECDSA: the public key; ECDH: the peer's */
	struct ecc_point result;   /* ECDH: d * Q */
	struct dsa_signature sig;  /* ECDSA: made (sign) or checked (verify) */
	mpz_t s, x, y;             /* RSA's signature; coordinates read out */
	bool rsa, ecc;             /* which of the structs above are initialised */
	uint8_t priv[32], pub[32]; /* Ed25519: seed and public key; X25519: d and the peer */
};

/* The schemes this half offers: a scheme added to core/algorithms/pk_scheme.c is
 * offered only once it is listed here. */
static const bool offered[CB_PK_COUNT] = {
    [CB_PK_RSA_PKCS1] = true, [CB_PK_RSA_PSS] = true, [CB_PK_ECDSA] = true,
    [CB_PK_ED25519] = true,   [CB_PK_ECDH] = true,    [CB_PK_X25519] = true,
};

static bool offers(const struct cb_algorithm *alg)
{
	return cb_alg_is_pk(alg) && alg->scheme < CB_PK_COUNT && offered[alg->scheme];
}

static bool nettle_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op);
}

static void nettle_pk_close(void *opaque)
{
	struct nettle_pk *c = opaque;

	if (!c)
		return;
	if (c->rsa) {
		rsa_public_key_clear(&c->rsa_pub);
		rsa_private_key_clear(&c->rsa_key);
	}
	if (c->ecc) {
		ecc_scalar_clear(&c->scalar);
		ecc_point_clear(&c->point);
		ecc_point_clear(&c->result);
	}
	dsa_signature_clear(&c->sig);
	mpz_clears(c->s, c->x, c->y, NULL);
	free(c);
}

static const struct ecc_curve *curve(const struct cb_algorithm *alg)
{
	return alg->bits == 256   ? nettle_get_secp_256r1()
	       : alg->bits == 384 ? nettle_get_secp_384r1()
	                          : nettle_get_secp_521r1();
}

static void set(mpz_t z, struct cb_bytes b)
{
	nettle_mpz_set_str_256_u(z, b.len, b.data);
}

/* nettle's RSA private key is PKCS #1's: a = dp, b = dq, c = qinv. */
static bool rsa_import(struct nettle_pk *c, const struct cb_pk_key *k)
{
	rsa_public_key_init(&c->rsa_pub);
	rsa_private_key_init(&c->rsa_key);
	c->rsa = true;
	set(c->rsa_pub.n, k->n);
	set(c->rsa_pub.e, k->e);
	if (!rsa_public_key_prepare(&c->rsa_pub))
		return false;
	if (!k->has_private)
		return true;
	set(c->rsa_key.d, k->d);
	set(c->rsa_key.p, k->p);
	set(c->rsa_key.q, k->q);
	set(c->rsa_key.a, k->dp);
	set(c->rsa_key.b, k->dq);
	set(c->rsa_key.c, k->qinv);
	return rsa_private_key_prepare(&c->rsa_key) && c->rsa_key.size == c->rsa_pub.size;
}

static bool point_import(struct ecc_point *p, const struct cb_pk_key *k, mpz_t x, mpz_t y)
{
	set(x, k->x);
	set(y, k->y);
	return ecc_point_set(p, x, y) == 1;
}

/* One DER INTEGER at P (MAX bytes left) into Z; the bytes it took, or 0. */
static size_t der_integer(const unsigned char *p, size_t max, mpz_t z)
{
	if (max < 2 || p[0] != 0x02 || p[1] > 0x7f || (size_t)p[1] + 2 > max)
		return 0;
	nettle_mpz_set_str_256_u(z, p[1], p + 2);
	return (size_t)p[1] + 2;
}

/* The signature of a verify cell as numbers (ECDSA: the r and s of its DER
 * SEQUENCE); Ed25519 checks the bytes. */
static bool sig_import(struct nettle_pk *c, const unsigned char *sig, size_t len)
{
	size_t hdr = len > 2 && sig[1] == 0x81 ? 3 : 2, took;

	switch (c->setup.alg->scheme) {
	case CB_PK_ED25519:
		return len == ED25519_SIGNATURE_SIZE;
	case CB_PK_ECDSA:
		return len > hdr && sig[0] == 0x30 &&
		       (took = der_integer(sig + hdr, len - hdr, c->sig.r)) != 0 &&
		       der_integer(sig + hdr + took, len - hdr - took, c->sig.s) != 0;
	default:
		nettle_mpz_set_str_256_u(c->s, len, sig);
		return true;
	}
}

static bool key_import(struct nettle_pk *c, const struct cb_pk_setup *pk)
{
	const struct cb_algorithm *alg = c->setup.alg;
	const struct cb_pk_key *k = pk->key;

	switch (alg->scheme) {
	case CB_PK_RSA_PKCS1:
	case CB_PK_RSA_PSS:
		return rsa_import(c, k);
	case CB_PK_ED25519:
		if (k->pub.len != sizeof c->pub || (k->has_private && k->d.len != sizeof c->priv))
			return false;
		memcpy(c->pub, k->pub.data, sizeof c->pub);
		if (k->has_private)
			memcpy(c->priv, k->d.data, sizeof c->priv);
		return true;
	case CB_PK_X25519:
		if (k->d.len != sizeof c->priv || pk->peer->pub.len != sizeof c->pub)
			return false;
		memcpy(c->priv, k->d.data, sizeof c->priv);
		memcpy(c->pub, pk->peer->pub.data, sizeof c->pub);
		return true;
	default:
		if (k->has_private) {
			set(c->x, k->d);
			if (ecc_scalar_set(&c->scalar, c->x) != 1)
				return false;
		}
		return point_import(&c->point, alg->scheme == CB_PK_ECDH ? pk->peer : k, c->x,
		                    c->y);
	}
}

static void *nettle_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                            char *err, size_t err_len)
{
	struct nettle_pk *c = calloc(1, sizeof *c);
	const struct cb_algorithm *alg = setup->alg;
	uint8_t seed[YARROW256_SEED_FILE_SIZE];
	bool ok;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "nettle: out of memory");
		return NULL;
	}
	c->setup = *setup;
	dsa_signature_init(&c->sig);
	mpz_inits(c->s, c->x, c->y, NULL);
	if (alg->curve) {
		ecc_scalar_init(&c->scalar, curve(alg));
		ecc_point_init(&c->point, curve(alg));
		ecc_point_init(&c->result, curve(alg));
		c->ecc = true;
	}
	yarrow256_init(&c->rng, 0, NULL);
	ok = getrandom(seed, sizeof seed, 0) == (ssize_t)sizeof seed;
	if (ok)
		yarrow256_seed(&c->rng, sizeof seed, seed);
	if (ok && setup->op == CB_OP_KEYGEN && alg->scheme == CB_PK_RSA_PKCS1) {
		rsa_public_key_init(&c->rsa_pub);
		rsa_private_key_init(&c->rsa_key);
		c->rsa = true;
		mpz_set_ui(c->rsa_pub.e, 65537);
	} else if (ok && setup->op != CB_OP_KEYGEN) {
		ok = key_import(c, setup->pk);
		if (ok && (setup->op == CB_OP_VERIFY || setup->op == CB_OP_VERIFY_FORGED))
			ok = sig_import(c, setup->pk->sig, setup->pk->sig_len);
	}
	if (ok)
		return c;
	cb_errorf(err, err_len, "nettle: setting up the key of %s failed", alg->name);
	nettle_pk_close(c);
	return NULL;
}

/* One DER INTEGER of Z at OUT, minimal (a zero byte only before a high
 * bit); the bytes written. Z is below the order, at most FL bytes. */
static size_t put_der_integer(const mpz_t z, size_t fl, unsigned char *out)
{
	unsigned char v[CB_PK_MAX_SECRET];
	size_t skip = 0, n, pad;

	nettle_mpz_get_str_256(fl, v, z);
	while (skip < fl - 1 && v[skip] == 0)
		skip++;
	n = fl - skip;
	pad = v[skip] >> 7;
	out[0] = 0x02;
	out[1] = (unsigned char)(n + pad);
	out[2] = 0;
	memcpy(out + 2 + pad, v + skip, n);
	return 2 + n + pad;
}

/* hogweed gives ECDSA's r and s as numbers: the contract's DER SEQUENCE of
 * them, the least that turns one into the other. */
static void put_ecdsa_der(const struct dsa_signature *sig, size_t fl, unsigned char *out)
{
	unsigned char body[2 * (CB_PK_MAX_SECRET + 3)];
	size_t r = put_der_integer(sig->r, fl, body), s = put_der_integer(sig->s, fl, body + r);
	size_t hdr = r + s > 127 ? 3 : 2;

	out[0] = 0x30;
	out[1] = 0x81;
	out[hdr - 1] = (unsigned char)(r + s);
	memcpy(out + hdr, body, r + s);
}

static int sign(struct nettle_pk *c, const unsigned char *in, size_t len, unsigned char *out)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	nettle_random_func *random = (nettle_random_func *)yarrow256_random;
	uint8_t salt[SHA256_DIGEST_SIZE];
	int ok;

	switch (c->setup.alg->scheme) {
	case CB_PK_RSA_PKCS1:
		ok = rsa_sha256_sign_digest_tr(&c->rsa_pub, &c->rsa_key, &c->rng, random,
		                               pk->digest, c->s);
		break;
	case CB_PK_RSA_PSS:
		yarrow256_random(&c->rng, sizeof salt, salt);
		ok = rsa_pss_sha256_sign_digest_tr(&c->rsa_pub, &c->rsa_key, &c->rng, random,
		                                   sizeof salt, salt, pk->digest, c->s);
		break;
	case CB_PK_ECDSA:
		ecdsa_sign(&c->scalar, &c->rng, random, pk->digest_len, pk->digest, &c->sig);
		put_ecdsa_der(&c->sig, cb_pk_field_len(c->setup.alg), out);
		return CB_OK;
	default:
		ed25519_sha512_sign(c->pub, c->priv, len, in, out);
		return CB_OK;
	}
	if (!ok)
		return CB_FAILED;
	nettle_mpz_get_str_256(c->rsa_pub.size, out, c->s);
	return CB_OK;
}

static int verify(struct nettle_pk *c, const unsigned char *in, size_t len)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	int ok;

	switch (c->setup.alg->scheme) {
	case CB_PK_RSA_PKCS1:
		ok = rsa_sha256_verify_digest(&c->rsa_pub, pk->digest, c->s);
		break;
	case CB_PK_RSA_PSS:
		ok =
		    rsa_pss_sha256_verify_digest(&c->rsa_pub, SHA256_DIGEST_SIZE, pk->digest, c->s);
		break;
	case CB_PK_ECDSA:
		ok = ecdsa_verify(&c->point, pk->digest_len, pk->digest, &c->sig);
		break;
	default:
		ok = ed25519_sha512_verify(c->pub, len, in, pk->sig);
	}
	/* hogweed answers valid or not; it has no error to tell apart. */
	return ok ? CB_OK : CB_REJECTED;
}

/* A new key pair, written out as core/algorithms/pk.h's keygen layout says. */
static int keygen(struct nettle_pk *c, unsigned char *out)
{
	const struct cb_algorithm *alg = c->setup.alg;
	size_t a, b;

	cb_pk_keygen_layout(alg, &a, &b);
	switch (alg->scheme) {
	case CB_PK_RSA_PKCS1:
		if (!rsa_generate_keypair(&c->rsa_pub, &c->rsa_key, &c->rng,
		                          (nettle_random_func *)yarrow256_random, NULL, NULL,
		                          alg->bits, 0))
			return CB_FAILED;
		nettle_mpz_get_str_256(a, out, c->rsa_pub.n);
		nettle_mpz_get_str_256(b, out + a, c->rsa_key.p);
		return CB_OK;
	case CB_PK_ECDSA:
		ecdsa_generate_keypair(&c->point, &c->scalar, &c->rng,
		                       (nettle_random_func *)yarrow256_random);
		ecc_scalar_get(&c->scalar, c->x);
		nettle_mpz_get_str_256(a, out, c->x);
		ecc_point_get(&c->point, c->x, c->y);
		out[a] = 0x04;
		nettle_mpz_get_str_256(a, out + a + 1, c->x);
		nettle_mpz_get_str_256(a, out + a + 1 + a, c->y);
		return CB_OK;
	case CB_PK_ED25519:
		yarrow256_random(&c->rng, 32, out);
		ed25519_sha512_public_key(out + 32, out);
		return CB_OK;
	default:
		/* An X25519 private key is any 32 random bytes (RFC 7748). */
		yarrow256_random(&c->rng, 32, out);
		curve25519_mul_g(out + 32, out);
		return CB_OK;
	}
}

static int nettle_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct nettle_pk *c = opaque;

	switch (c->setup.op) {
	case CB_OP_SIGN:
		return sign(c, in, len, out);
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		return verify(c, in, len);
	case CB_OP_DERIVE:
		if (c->setup.alg->scheme == CB_PK_X25519) {
			curve25519_mul(out, c->priv, c->pub);
			return CB_OK;
		}
		ecc_point_mul(&c->result, &c->scalar, &c->point);
		ecc_point_get(&c->result, c->x, c->y);
		nettle_mpz_get_str_256(cb_pk_field_len(c->setup.alg), out, c->x);
		return CB_OK;
	case CB_OP_KEYGEN:
		return keygen(c, out);
	default:
		return CB_FAILED;
	}
}

static uint64_t nettle_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                               uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(nettle_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_nettle_pk = {
    .supports = nettle_pk_supports,
    .open = nettle_pk_open,
    .call = nettle_pk_call,
    .loop = nettle_pk_loop,
    .close = nettle_pk_close,
};
