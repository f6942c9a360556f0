/* gnutls_pk.c: the gnutls engine's public-key operations, through its
 * abstract key API (gnutls_privkey_t, gnutls_pubkey_t).
 *
 * Offered: RSA PKCS #1 v1.5 and PSS, ECDSA on P-256, P-384 and P-521 and
 * Ed25519 (sign, verify, keygen), and X25519 keygen. Not offered: derive
 * (ECDH, X25519): GnuTLS 3.7 keeps its key agreement inside the TLS
 * handshake and exports no function that derives a shared secret.
 *
 * The key is imported in open (its PKCS #8 DER, or its SubjectPublicKeyInfo
 * for verify); the timed call is one gnutls_privkey_sign_hash2 (RSA, ECDSA,
 * which sign the digest), gnutls_privkey_sign_data2 (Ed25519, which signs
 * the message) or gnutls_pubkey_verify_hash2/_data2. GnuTLS draws its own
 * randomness (ECDSA's nonce, PSS's salt, RSA blinding) from its internal
 * per-thread RNG: there is none to create. Its outputs are gnutls_datum_t
 * that it allocates: the call copies them into OUT and frees them with
 * gnutls_free, the cost of the API. keygen initialises, generates, exports
 * and frees a gnutls_privkey_t per call, the only way the API makes a key. */
#include "core/engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>

struct gt_pk {
	struct cb_engine_setup setup;
	gnutls_privkey_t priv; /* sign */
	gnutls_pubkey_t pub;   /* verify */
	gnutls_sign_algorithm_t sign;
	gnutls_pk_algorithm_t pk;
	unsigned bits; /* keygen: RSA's bits or GNUTLS_CURVE_TO_BITS */
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

static bool gt_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op) && op != CB_OP_DERIVE;
}

static void gt_pk_close(void *opaque)
{
	struct gt_pk *c = opaque;

	if (!c)
		return;
	if (c->priv)
		gnutls_privkey_deinit(c->priv);
	if (c->pub)
		gnutls_pubkey_deinit(c->pub);
	free(c);
}

/* The signature algorithm, the key type and keygen's size of ALG. RSA's
 * PSS is the rsaEncryption key's (RSAE): the fixed keys are plain RSA; its
 * salt is the hash's length. */
static void gt_pk_params(struct gt_pk *c, const struct cb_algorithm *alg)
{
	bool sha384 = alg->hash && strcmp(alg->hash, "sha384") == 0;
	bool sha512 = alg->hash && strcmp(alg->hash, "sha512") == 0;

	switch (alg->scheme) {
	case CB_PK_RSA_PKCS1:
	case CB_PK_RSA_PSS:
		c->sign = alg->scheme == CB_PK_RSA_PSS ? GNUTLS_SIGN_RSA_PSS_RSAE_SHA256
		                                       : GNUTLS_SIGN_RSA_SHA256;
		c->pk = GNUTLS_PK_RSA;
		c->bits = alg->bits;
		break;
	case CB_PK_ECDSA: {
		bool p384 = strcmp(alg->curve, "P-384") == 0,
		     p521 = strcmp(alg->curve, "P-521") == 0;

		c->sign = sha512   ? GNUTLS_SIGN_ECDSA_SHA512
		          : sha384 ? GNUTLS_SIGN_ECDSA_SHA384
		                   : GNUTLS_SIGN_ECDSA_SHA256;
		c->pk = GNUTLS_PK_ECDSA;
		c->bits = GNUTLS_CURVE_TO_BITS(p521   ? GNUTLS_ECC_CURVE_SECP521R1
		                               : p384 ? GNUTLS_ECC_CURVE_SECP384R1
		                                      : GNUTLS_ECC_CURVE_SECP256R1);
		break;
	}
	case CB_PK_ED25519:
		c->sign = GNUTLS_SIGN_EDDSA_ED25519;
		c->pk = GNUTLS_PK_EDDSA_ED25519;
		c->bits = GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_ED25519);
		break;
	default:
		c->sign = GNUTLS_SIGN_UNKNOWN;
		c->pk = GNUTLS_PK_ECDH_X25519;
		c->bits = GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_X25519);
		break;
	}
}

static void *gt_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                        char *err, size_t err_len)
{
	struct gt_pk *c = calloc(1, sizeof *c);
	const struct cb_pk_key *k = setup->pk ? setup->pk->key : NULL;
	gnutls_datum_t der;
	int rc = 0;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "gnutls: out of memory");
		return NULL;
	}
	c->setup = *setup;
	gt_pk_params(c, setup->alg);
	if (setup->op == CB_OP_SIGN) {
		der.data = (unsigned char *)k->pkcs8.data;
		der.size = (unsigned)k->pkcs8.len;
		rc = gnutls_privkey_init(&c->priv);
		if (rc == 0)
			rc = gnutls_privkey_import_x509_raw(c->priv, &der, GNUTLS_X509_FMT_DER,
			                                    NULL, 0);
	} else if (setup->op != CB_OP_KEYGEN) {
		der.data = (unsigned char *)k->spki.data;
		der.size = (unsigned)k->spki.len;
		rc = gnutls_pubkey_init(&c->pub);
		if (rc == 0)
			rc = gnutls_pubkey_import(c->pub, &der, GNUTLS_X509_FMT_DER);
	}
	if (rc == 0)
		return c;
	cb_errorf(err, err_len, "gnutls: importing the %s key failed: %s", setup->alg->name,
	          gnutls_strerror(rc));
	gt_pk_close(c);
	return NULL;
}

static int gt_sign(struct gt_pk *c, const unsigned char *in, size_t len, unsigned char *out)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	gnutls_datum_t data, sig = {NULL, 0};
	int rc;

	if (c->setup.alg->scheme == CB_PK_ED25519) {
		data.data = (unsigned char *)in;
		data.size = (unsigned)len;
		rc = gnutls_privkey_sign_data2(c->priv, c->sign, 0, &data, &sig);
	} else {
		data.data = (unsigned char *)pk->digest;
		data.size = (unsigned)pk->digest_len;
		rc = gnutls_privkey_sign_hash2(c->priv, c->sign, 0, &data, &sig);
	}
	if (rc < 0)
		return CB_FAILED;
	rc = sig.size <= cb_pk_output_len(c->setup.alg, CB_OP_SIGN) ? CB_OK : CB_FAILED;
	if (rc == CB_OK)
		memcpy(out, sig.data, sig.size);
	gnutls_free(sig.data);
	return rc;
}

static int gt_verify(struct gt_pk *c, const unsigned char *in, size_t len)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	gnutls_datum_t data, sig = {(unsigned char *)pk->sig, (unsigned)pk->sig_len};
	int rc;

	if (c->setup.alg->scheme == CB_PK_ED25519) {
		data.data = (unsigned char *)in;
		data.size = (unsigned)len;
		rc = gnutls_pubkey_verify_data2(c->pub, c->sign, 0, &data, &sig);
	} else {
		data.data = (unsigned char *)pk->digest;
		data.size = (unsigned)pk->digest_len;
		rc = gnutls_pubkey_verify_hash2(c->pub, c->sign, 0, &data, &sig);
	}
	/* A DER signature that does not parse is a bad one too. */
	if (rc == GNUTLS_E_PK_SIG_VERIFY_FAILED || rc == GNUTLS_E_ASN1_DER_ERROR ||
	    rc == GNUTLS_E_ASN1_TAG_ERROR || rc == GNUTLS_E_ASN1_DER_OVERFLOW)
		return CB_REJECTED;
	return rc >= 0 ? CB_OK : CB_FAILED;
}

/* D's number in WIDTH bytes at OUT, zeros on the left (exported without
 * GnuTLS's leading zero, GNUTLS_EXPORT_FLAG_NO_LZ). */
static int pad_left(unsigned char *out, size_t width, const gnutls_datum_t *d)
{
	if (d->size > width)
		return -1;
	memset(out, 0, width - d->size);
	memcpy(out + width - d->size, d->data, d->size);
	return 0;
}

/* KEY written out as core/algorithms/pk.h's keygen layout says. */
static int write_key(const struct cb_algorithm *alg, gnutls_privkey_t key, unsigned char *out)
{
	gnutls_datum_t n = {NULL, 0}, p = {NULL, 0}, x = {NULL, 0}, y = {NULL, 0};
	gnutls_ecc_curve_t curve;
	size_t a, b;
	int rc;

	cb_pk_keygen_layout(alg, &a, &b);
	if (alg->scheme == CB_PK_RSA_PKCS1) {
		rc = gnutls_privkey_export_rsa_raw2(key, &n, NULL, NULL, &p, NULL, NULL, NULL, NULL,
		                                    GNUTLS_EXPORT_FLAG_NO_LZ);
		rc = rc == 0 && pad_left(out, a, &n) == 0 && pad_left(out + a, b, &p) == 0;
		gnutls_free(n.data);
		gnutls_free(p.data);
		return rc ? CB_OK : CB_FAILED;
	}
	/* x and y are the point; Ed25519's and X25519's x is the public key,
	 * its k the raw private key. */
	rc = gnutls_privkey_export_ecc_raw2(key, &curve, &x, alg->scheme == CB_PK_ECDSA ? &y : NULL,
	                                    &n, GNUTLS_EXPORT_FLAG_NO_LZ);
	if (rc == 0 && alg->scheme == CB_PK_ECDSA) {
		size_t f = (b - 1) / 2;

		out[a] = 0x04;
		rc = pad_left(out, a, &n) || pad_left(out + a + 1, f, &x) ||
		     pad_left(out + a + 1 + f, f, &y);
	} else if (rc == 0) {
		rc = n.size != a || x.size != b;
		if (!rc) {
			memcpy(out, n.data, a);
			memcpy(out + a, x.data, b);
		}
	}
	gnutls_free(n.data);
	gnutls_free(x.data);
	gnutls_free(y.data);
	return rc == 0 ? CB_OK : CB_FAILED;
}

static int gt_keygen(struct gt_pk *c, unsigned char *out)
{
	gnutls_privkey_t key;
	int rc;

	if (gnutls_privkey_init(&key) < 0)
		return CB_FAILED;
	rc = gnutls_privkey_generate2(key, c->pk, c->bits, 0, NULL, 0) == 0
	         ? write_key(c->setup.alg, key, out)
	         : CB_FAILED;
	gnutls_privkey_deinit(key);
	return rc;
}

static int gt_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct gt_pk *c = opaque;

	switch (c->setup.op) {
	case CB_OP_SIGN:
		return gt_sign(c, in, len, out);
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		return gt_verify(c, in, len);
	case CB_OP_KEYGEN:
		return gt_keygen(c, out);
	default:
		return CB_FAILED;
	}
}

static uint64_t gt_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                           uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(gt_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_gnutls_pk = {
    .supports = gt_pk_supports,
    .open = gt_pk_open,
    .call = gt_pk_call,
    .loop = gt_pk_loop,
    .close = gt_pk_close,
};
