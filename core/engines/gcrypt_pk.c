/* gcrypt_pk.c: the gcrypt engine's public-key operations, through
 * S-expressions and gcry_pk_*.
 *
 * libgcrypt takes keys, data and signatures as S-expressions: open builds the
 * key's and, for RSA and ECDSA, the digest's (and, to verify, the
 * signature's), so the timed call is one gcry_pk_sign, gcry_pk_verify,
 * gcry_pk_decrypt (ECDH), gcry_ecc_mul_point (X25519) or gcry_pk_genkey,
 * plus reading the numbers out of the result S-expression into the
 * contract's format (core/algorithms/pk.h). Ed25519 signs the call's message, which
 * gcrypt only takes inside an S-expression: building that one is part of the
 * call, as it is of every gcrypt caller.
 *
 * libgcrypt's random generator is the library's own, global and
 * thread-safe: there is none to create per context. gcry_pk_genkey draws an
 * ECC secret at GCRY_VERY_STRONG_RANDOM, far dearer than the level it signs
 * with, and tests a new ECDSA key with a signature: that is the library's
 * keygen, so every key type, X25519 too, is made by gcry_pk_genkey.
 *
 * Offered: every algorithm and op. ECDH is gcry_pk_decrypt of the peer's
 * point with the private key (one scalar multiplication, d * Q, as GnuPG's
 * ECDH does), not gcry_pk_encrypt, which also computes an ephemeral k * G. */
#include "core/engine/engine.h"
#include "core/base/errbuf.h"

#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

struct gcrypt_pk {
	struct cb_engine_setup setup;
	gcry_sexp_t key;                    /* private (sign, derive) or public (verify) key */
	gcry_sexp_t data;                   /* RSA, ECDSA: the digest; ECDH: the peer's point */
	gcry_sexp_t sig;                    /* verify: the signature to check */
	gcry_sexp_t params;                 /* keygen: what to generate */
	unsigned char scalar[32], peer[32]; /* X25519: the private key, the peer's public key */
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

static bool gcrypt_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op);
}

static void gcrypt_pk_close(void *opaque)
{
	struct gcrypt_pk *c = opaque;

	if (!c)
		return;
	gcry_sexp_release(c->key);
	gcry_sexp_release(c->data);
	gcry_sexp_release(c->sig);
	gcry_sexp_release(c->params);
	free(c);
}

/* gcrypt's curve names. */
static const char *curve_name(const struct cb_algorithm *alg)
{
	return alg->bits == 256 ? "NIST P-256" : alg->bits == 384 ? "NIST P-384" : "NIST P-521";
}

static gcry_mpi_t mpi(struct cb_bytes b)
{
	gcry_mpi_t m = NULL;

	return gcry_mpi_scan(&m, GCRYMPI_FMT_USG, b.data, b.len, NULL) ? NULL : m;
}

/* An RSA key. gcrypt wants p < q and u = p^-1 mod q (PKCS #1 has q^-1 mod
 * p): swap the primes when p > q, and compute u from them. */
static gcry_error_t rsa_key(const struct cb_pk_key *k, gcry_sexp_t *out)
{
	gcry_mpi_t n = mpi(k->n), e = mpi(k->e), d = NULL, p = NULL, q = NULL, u = NULL;
	gcry_error_t rc = GPG_ERR_INV_VALUE;

	if (!n || !e)
		goto done;
	if (!k->has_private) {
		rc = gcry_sexp_build(out, NULL, "(public-key(rsa(n%m)(e%m)))", n, e);
		goto done;
	}
	d = mpi(k->d);
	p = mpi(k->p);
	q = mpi(k->q);
	u = gcry_mpi_new(0);
	if (!d || !p || !q || !u)
		goto done;
	if (gcry_mpi_cmp(p, q) > 0)
		gcry_mpi_swap(p, q);
	if (!gcry_mpi_invm(u, p, q))
		goto done;
	rc = gcry_sexp_build(out, NULL, "(private-key(rsa(n%m)(e%m)(d%m)(p%m)(q%m)(u%m)))", n, e, d,
	                     p, q, u);
done:
	gcry_mpi_release(n);
	gcry_mpi_release(e);
	gcry_mpi_release(d);
	gcry_mpi_release(p);
	gcry_mpi_release(q);
	gcry_mpi_release(u);
	return rc;
}

static gcry_error_t import(const struct cb_pk_key *k, gcry_sexp_t *out)
{
	const struct cb_algorithm *alg = k->alg;
	gcry_mpi_t d;
	gcry_error_t rc;

	if (alg->scheme == CB_PK_RSA_PKCS1 || alg->scheme == CB_PK_RSA_PSS)
		return rsa_key(k, out);
	if (alg->scheme == CB_PK_ED25519)
		return k->has_private
		           ? gcry_sexp_build(
		                 out, NULL,
		                 "(private-key(ecc(curve Ed25519)(flags eddsa)(q%b)(d%b)))",
		                 (int)k->pub.len, k->pub.data, (int)k->d.len, k->d.data)
		           : gcry_sexp_build(out, NULL,
		                             "(public-key(ecc(curve Ed25519)(flags eddsa)(q%b)))",
		                             (int)k->pub.len, k->pub.data);
	if (!k->has_private)
		return gcry_sexp_build(out, NULL, "(public-key(ecc(curve %s)(q%b)))",
		                       curve_name(alg), (int)k->pub.len, k->pub.data);
	if (!(d = mpi(k->d)))
		return GPG_ERR_INV_VALUE;
	rc = gcry_sexp_build(out, NULL, "(private-key(ecc(curve %s)(q%b)(d%m)))", curve_name(alg),
	                     (int)k->pub.len, k->pub.data, d);
	gcry_mpi_release(d);
	return rc;
}

/* One DER INTEGER at P (MAX bytes left): its content in *V, *N; the bytes it
 * took, or 0. */
static size_t der_integer(const unsigned char *p, size_t max, const unsigned char **v, size_t *n)
{
	if (max < 2 || p[0] != 0x02 || p[1] > 0x7f || (size_t)p[1] + 2 > max)
		return 0;
	*v = p + 2;
	*n = p[1];
	return *n + 2;
}

/* The signature of a verify cell as gcrypt's S-expression (ECDSA: the r and
 * s of its DER SEQUENCE). */
static gcry_error_t sig_sexp(const struct cb_algorithm *alg, const unsigned char *sig, size_t len,
                             gcry_sexp_t *out)
{
	const unsigned char *r, *s;
	size_t rn, sn, hdr, took;
	gcry_mpi_t mr = NULL, ms = NULL;
	gcry_error_t rc = GPG_ERR_INV_VALUE;

	if (alg->scheme == CB_PK_ED25519)
		return gcry_sexp_build(out, NULL, "(sig-val(eddsa(r%b)(s%b)))", 32, sig, 32,
		                       sig + 32);
	if (alg->scheme != CB_PK_ECDSA)
		return gcry_sexp_build(out, NULL, "(sig-val(rsa(s%b)))", (int)len, sig);
	hdr = len > 2 && sig[1] == 0x81 ? 3 : 2;
	if (len < hdr || sig[0] != 0x30 || !(took = der_integer(sig + hdr, len - hdr, &r, &rn)) ||
	    !der_integer(sig + hdr + took, len - hdr - took, &s, &sn))
		return rc;
	if (gcry_mpi_scan(&mr, GCRYMPI_FMT_USG, r, rn, NULL) == 0 &&
	    gcry_mpi_scan(&ms, GCRYMPI_FMT_USG, s, sn, NULL) == 0)
		rc = gcry_sexp_build(out, NULL, "(sig-val(ecdsa(r%m)(s%m)))", mr, ms);
	gcry_mpi_release(mr);
	gcry_mpi_release(ms);
	return rc;
}

/* What sign and verify of RSA and ECDSA hand gcrypt: the digest, hashed
 * outside (FIPS 186's e = H(m): gcrypt truncates a longer one to the order's
 * bits, which none of these curves' hashes is). */
static gcry_error_t digest_sexp(const struct cb_algorithm *alg, const struct cb_pk_setup *pk,
                                gcry_sexp_t *out)
{
	int n = (int)pk->digest_len;

	if (alg->scheme == CB_PK_RSA_PKCS1)
		return gcry_sexp_build(out, NULL, "(data(flags pkcs1)(hash %s %b))", alg->hash, n,
		                       pk->digest);
	if (alg->scheme == CB_PK_RSA_PSS)
		return gcry_sexp_build(out, NULL, "(data(flags pss)(salt-length %d)(hash %s %b))",
		                       n, alg->hash, n, pk->digest);
	return gcry_sexp_build(out, NULL, "(data(flags raw)(value %b))", n, pk->digest);
}

static gcry_error_t keygen_params(const struct cb_algorithm *alg, gcry_sexp_t *out)
{
	if (alg->scheme == CB_PK_RSA_PKCS1)
		return gcry_sexp_build(out, NULL, "(genkey(rsa(nbits %d)(rsa-use-e %d)))",
		                       (int)alg->bits, 65537);
	if (alg->scheme == CB_PK_ED25519)
		return gcry_sexp_build(out, NULL, "(genkey(ecc(curve Ed25519)(flags eddsa)))");
	if (alg->scheme == CB_PK_ECDSA)
		return gcry_sexp_build(out, NULL, "(genkey(ecc(curve %s)))", curve_name(alg));
	/* X25519 as GnuPG makes its keys: the clamped scalar (djb-tweak). */
	return gcry_sexp_build(out, NULL, "(genkey(ecc(curve Curve25519)(flags djb-tweak)))");
}

/* X25519 goes through gcry_ecc_mul_point, which takes raw bytes. */
static gcry_error_t x25519_keys(struct gcrypt_pk *c, const struct cb_pk_setup *pk)
{
	if (pk->key->d.len != sizeof c->scalar || pk->peer->pub.len != sizeof c->peer)
		return GPG_ERR_INV_VALUE;
	memcpy(c->scalar, pk->key->d.data, sizeof c->scalar);
	memcpy(c->peer, pk->peer->pub.data, sizeof c->peer);
	return 0;
}

static void *gcrypt_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                            char *err, size_t err_len)
{
	struct gcrypt_pk *c = calloc(1, sizeof *c);
	const struct cb_pk_setup *pk = setup->pk;
	const struct cb_algorithm *alg = setup->alg;
	enum cb_op op = setup->op;
	gcry_error_t rc = 0;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "gcrypt: out of memory");
		return NULL;
	}
	c->setup = *setup;
	if (op == CB_OP_KEYGEN)
		rc = keygen_params(alg, &c->params);
	else if (alg->scheme == CB_PK_X25519)
		rc = x25519_keys(c, pk);
	else
		rc = import(pk->key, &c->key);
	if (!rc && op == CB_OP_DERIVE && alg->scheme == CB_PK_ECDH)
		rc = gcry_sexp_build(&c->data, NULL, "(enc-val(ecdh(e%b)))", (int)pk->peer->pub.len,
		                     pk->peer->pub.data);
	if (!rc && (op == CB_OP_SIGN || op == CB_OP_VERIFY || op == CB_OP_VERIFY_FORGED) &&
	    alg->scheme != CB_PK_ED25519)
		rc = digest_sexp(alg, pk, &c->data);
	if (!rc && (op == CB_OP_VERIFY || op == CB_OP_VERIFY_FORGED))
		rc = sig_sexp(alg, pk->sig, pk->sig_len, &c->sig);
	if (!rc)
		return c;
	cb_errorf(err, err_len, "gcrypt: setting up the key of %s: %s", alg->name,
	          gcry_strerror(rc));
	gcrypt_pk_close(c);
	return NULL;
}

/* The number NAME of S (a big-endian string, maybe with a sign byte) into
 * OUT, WIDTH bytes, zero-padded on the left. */
static int put_number(gcry_sexp_t s, const char *name, unsigned char *out, size_t width)
{
	gcry_sexp_t t = gcry_sexp_find_token(s, name, 0);
	size_t n = 0;
	const char *v = t ? gcry_sexp_nth_data(t, 1, &n) : NULL;

	for (; v && n > 0 && *v == 0; n--)
		v++;
	if (!v || n > width) {
		gcry_sexp_release(t);
		return -1;
	}
	memset(out, 0, width - n);
	memcpy(out + width - n, v, n);
	gcry_sexp_release(t);
	return 0;
}

/* One DER INTEGER of the number NAME of S at OUT (minimal: no leading zero
 * but the one a high bit needs); the bytes written, or 0. */
static size_t put_der_integer(gcry_sexp_t s, const char *name, unsigned char *out)
{
	unsigned char v[CB_PK_MAX_SECRET];
	size_t skip = 0, n;

	if (put_number(s, name, v, sizeof v) != 0)
		return 0;
	while (skip < sizeof v - 1 && v[skip] == 0)
		skip++;
	n = sizeof v - skip;
	out[0] = 0x02;
	out[1] = (unsigned char)(n + (v[skip] >> 7));
	out[2] = 0;
	memcpy(out + 2 + (v[skip] >> 7), v + skip, n);
	return 2 + out[1];
}

/* gcrypt gives ECDSA's r and s as numbers: the contract's DER SEQUENCE of
 * them, the least that turns one into the other. */
static int put_ecdsa_der(gcry_sexp_t sig, unsigned char *out)
{
	unsigned char body[2 * (CB_PK_MAX_SECRET + 3)];
	size_t r = put_der_integer(sig, "r", body), s = r ? put_der_integer(sig, "s", body + r) : 0;
	size_t hdr = r + s > 127 ? 3 : 2;

	if (!s)
		return CB_FAILED;
	out[0] = 0x30;
	out[1] = 0x81;
	out[hdr - 1] = (unsigned char)(r + s);
	memcpy(out + hdr, body, r + s);
	return CB_OK;
}

static int put_signature(const struct gcrypt_pk *c, gcry_sexp_t sig, unsigned char *out)
{
	const struct cb_algorithm *alg = c->setup.alg;

	if (alg->scheme == CB_PK_ECDSA)
		return put_ecdsa_der(sig, out);
	if (alg->scheme == CB_PK_ED25519)
		return put_number(sig, "r", out, 32) == 0 && put_number(sig, "s", out + 32, 32) == 0
		           ? CB_OK
		           : CB_FAILED;
	return put_number(sig, "s", out, alg->bits / 8) == 0 ? CB_OK : CB_FAILED;
}

/* ECDH: gcrypt's result is the point d * Q, 04 || x || y; the secret is x. */
static int put_secret(const struct cb_algorithm *alg, gcry_sexp_t res, unsigned char *out)
{
	size_t fl = cb_pk_field_len(alg), n = 0;
	gcry_sexp_t t = gcry_sexp_find_token(res, "value", 0);
	const char *v = gcry_sexp_nth_data(t ? t : res, t ? 1 : 0, &n);
	int rc = v && n == 1 + 2 * fl && v[0] == 4 ? CB_OK : CB_FAILED;

	if (rc == CB_OK)
		memcpy(out, v + 1, fl);
	gcry_sexp_release(t);
	return rc;
}

/* The new key in KEY written out as core/algorithms/pk.h's keygen layout says. */
static int put_key(const struct cb_algorithm *alg, gcry_sexp_t key, unsigned char *out)
{
	size_t a, b, n = 0;
	gcry_sexp_t q;
	const char *v;
	int rc;

	cb_pk_keygen_layout(alg, &a, &b);
	if (alg->scheme == CB_PK_RSA_PKCS1)
		return put_number(key, "n", out, a) == 0 && put_number(key, "p", out + a, b) == 0
		           ? CB_OK
		           : CB_FAILED;
	if (put_number(key, "d", out, a) != 0 || !(q = gcry_sexp_find_token(key, "q", 0)))
		return CB_FAILED;
	/* gcrypt keeps a Curve25519 scalar as a big-endian number: X25519's
	 * private key is its bytes in reverse. */
	for (size_t i = 0; alg->scheme == CB_PK_X25519 && i < a / 2; i++) {
		unsigned char t = out[i];

		out[i] = out[a - 1 - i];
		out[a - 1 - i] = t;
	}
	v = gcry_sexp_nth_data(q, 1, &n);
	/* Ed25519's and X25519's q may carry gcrypt's 0x40 prefix of a
	 * compressed point. */
	if (v && n == b + 1 && v[0] == 0x40) {
		v++;
		n--;
	}
	rc = v && n == b ? CB_OK : CB_FAILED;
	if (rc == CB_OK)
		memcpy(out + a, v, b);
	gcry_sexp_release(q);
	return rc;
}

static int gcrypt_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct gcrypt_pk *c = opaque;
	const struct cb_algorithm *alg = c->setup.alg;
	gcry_sexp_t data = c->data, res = NULL;
	gcry_error_t rc;
	int status;

	if (alg->scheme == CB_PK_X25519 && c->setup.op == CB_OP_DERIVE)
		return gcry_ecc_mul_point(GCRY_ECC_CURVE25519, out, c->scalar, c->peer) ? CB_FAILED
		                                                                        : CB_OK;
	if (alg->scheme == CB_PK_ED25519 && c->setup.op != CB_OP_KEYGEN &&
	    gcry_sexp_build(&data, NULL, "(data(flags eddsa)(hash-algo sha512)(value %b))",
	                    (int)len, in))
		return CB_FAILED;
	switch (c->setup.op) {
	case CB_OP_SIGN:
		rc = gcry_pk_sign(&res, data, c->key);
		status = rc ? CB_FAILED : put_signature(c, res, out);
		break;
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		rc = gcry_pk_verify(c->sig, data, c->key);
		status = !rc                                          ? CB_OK
		         : gcry_err_code(rc) == GPG_ERR_BAD_SIGNATURE ? CB_REJECTED
		                                                      : CB_FAILED;
		break;
	case CB_OP_DERIVE:
		rc = gcry_pk_decrypt(&res, data, c->key);
		status = rc ? CB_FAILED : put_secret(alg, res, out);
		break;
	case CB_OP_KEYGEN:
		rc = gcry_pk_genkey(&res, c->params);
		status = rc ? CB_FAILED : put_key(alg, res, out);
		break;
	default:
		status = CB_FAILED;
	}
	gcry_sexp_release(res);
	if (data != c->data)
		gcry_sexp_release(data);
	return status;
}

static uint64_t gcrypt_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                               uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(gcrypt_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_gcrypt_pk = {
    .supports = gcrypt_pk_supports,
    .open = gcrypt_pk_open,
    .call = gcrypt_pk_call,
    .loop = gcrypt_pk_loop,
    .close = gcrypt_pk_close,
};
