/* pk_reference.c: the reference for public-key cells: libcrypto's EVP
 * interface, outside every engine and every timed region (tests check it
 * against published vectors, tests/vectors). */
#include "core/algorithms/pk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"

/* The reference's own handle of a key lives after its bytes. */
struct storage {
	EVP_PKEY *pkey;
	size_t used, size;
	unsigned char bytes[];
};

static int ref_fail(char *err, size_t err_len, const char *what, const struct cb_algorithm *alg)
{
	cb_errorf(err, err_len, "reference: %s failed for %s", what, alg->name);
	return -1;
}

static EVP_PKEY *pkey_of(const struct cb_pk_key *key)
{
	return ((struct storage *)key->storage)->pkey;
}

/* Room for N more bytes in S, or NULL. */
static unsigned char *take(struct storage *s, size_t n)
{
	unsigned char *p;

	if (s->used + n > s->size)
		return NULL;
	p = s->bytes + s->used;
	s->used += n;
	return p;
}

static int put_bn(struct storage *s, EVP_PKEY *pkey, const char *name, size_t pad,
                  struct cb_bytes *out)
{
	BIGNUM *bn = NULL;
	size_t n;
	unsigned char *p;

	if (!EVP_PKEY_get_bn_param(pkey, name, &bn))
		return 0;
	n = pad ? pad : (size_t)BN_num_bytes(bn);
	p = take(s, n ? n : 1);
	if (!p || BN_bn2binpad(bn, p, (int)n) < 0) {
		BN_free(bn);
		return -1;
	}
	BN_free(bn);
	*out = (struct cb_bytes){p, n};
	return 1;
}

static int put_copy(struct storage *s, const unsigned char *src, size_t n, struct cb_bytes *out)
{
	unsigned char *p = take(s, n ? n : 1);

	if (!p)
		return -1;
	memcpy(p, src, n);
	*out = (struct cb_bytes){p, n};
	return 0;
}

/* The DER forms of PKEY into KEY. */
static int put_der(struct storage *s, EVP_PKEY *pkey, struct cb_pk_key *key)
{
	unsigned char *der = NULL;
	int n = i2d_PUBKEY(pkey, &der);

	if (n <= 0 || put_copy(s, der, (size_t)n, &key->spki) != 0) {
		OPENSSL_free(der);
		return -1;
	}
	cb_sha256_hex(der, (size_t)n, key->spki_sha256);
	OPENSSL_free(der);
	der = NULL;
	if (key->has_private) {
		PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(pkey);

		n = p8 ? i2d_PKCS8_PRIV_KEY_INFO(p8, &der) : -1;
		PKCS8_PRIV_KEY_INFO_free(p8);
		if (n <= 0 || put_copy(s, der, (size_t)n, &key->pkcs8) != 0) {
			OPENSSL_free(der);
			return -1;
		}
		OPENSSL_free(der);
	}
	return 0;
}

static int fill_rsa(struct storage *s, EVP_PKEY *pkey, struct cb_pk_key *k)
{
	static const char *const names[] = {
	    OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
	    OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
	    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
	struct cb_bytes *parts[] = {&k->d, &k->p, &k->q, &k->dp, &k->dq, &k->qinv};

	if (put_bn(s, pkey, OSSL_PKEY_PARAM_RSA_N, k->alg->bits / 8, &k->n) != 1 ||
	    put_bn(s, pkey, OSSL_PKEY_PARAM_RSA_E, 0, &k->e) != 1)
		return -1;
	for (size_t i = 0; k->has_private && i < 6; i++)
		if (put_bn(s, pkey, names[i], 0, parts[i]) != 1)
			return -1;
	return 0;
}

static int fill_ec(struct storage *s, EVP_PKEY *pkey, struct cb_pk_key *k)
{
	size_t f = cb_pk_field_len(k->alg), n = 0;
	unsigned char pub[1 + 2 * CB_PK_MAX_SECRET];

	if (!EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof pub, &n) ||
	    n != 1 + 2 * f || pub[0] != 0x04 || put_copy(s, pub, n, &k->pub) != 0)
		return -1;
	k->x = (struct cb_bytes){k->pub.data + 1, f};
	k->y = (struct cb_bytes){k->pub.data + 1 + f, f};
	if (k->has_private && put_bn(s, pkey, OSSL_PKEY_PARAM_PRIV_KEY, f, &k->d) != 1)
		return -1;
	return 0;
}

static int fill_raw(struct storage *s, EVP_PKEY *pkey, struct cb_pk_key *k)
{
	size_t want = cb_pk_info(k->alg)->raw_len;
	unsigned char raw[CB_PK_MAX_SECRET];
	size_t n = sizeof raw;

	if (!EVP_PKEY_get_raw_public_key(pkey, raw, &n) || n != want ||
	    put_copy(s, raw, n, &k->pub) != 0)
		return -1;
	n = sizeof raw;
	if (k->has_private && (!EVP_PKEY_get_raw_private_key(pkey, raw, &n) || n != want ||
	                       put_copy(s, raw, n, &k->d) != 0))
		return -1;
	return 0;
}

/* The family of ALG's keys (its scheme's row). */
static enum cb_pk_family family(const struct cb_algorithm *alg)
{
	return cb_pk_info(alg)->family;
}

/* Whether PKEY is a key of ALG: its scheme's type (the row's `reference`)
 * and, but for the raw family, its size. */
static bool pkey_fits(const struct cb_algorithm *alg, EVP_PKEY *pkey)
{
	return pkey && EVP_PKEY_is_a(pkey, cb_pk_info(alg)->reference) &&
	       (family(alg) == CB_PK_FAMILY_RAW || EVP_PKEY_get_bits(pkey) == (int)alg->bits);
}

/* KEY for ALG around PKEY (taken). NULL with ERR. */
static struct cb_pk_key *wrap(const struct cb_algorithm *alg, EVP_PKEY *pkey, bool has_private,
                              char *err, size_t err_len)
{
	struct cb_pk_key *k = calloc(1, sizeof *k);
	struct storage *s = malloc(sizeof *s + 8192);
	int rc;

	if (!pkey_fits(alg, pkey)) {
		cb_errorf(err, err_len, "reference: the key is not a %s key", alg->name);
		goto fail;
	}
	if (!k || !s) {
		cb_errorf(err, err_len, "out of memory for a %s key", alg->name);
		goto fail;
	}
	*s = (struct storage){.pkey = pkey, .size = 8192};
	k->alg = alg;
	k->has_private = has_private;
	k->storage = s;
	rc = family(alg) == CB_PK_FAMILY_RSA    ? fill_rsa(s, pkey, k)
	     : family(alg) == CB_PK_FAMILY_NIST ? fill_ec(s, pkey, k)
	                                        : fill_raw(s, pkey, k);
	if (rc == 0 && put_der(s, pkey, k) == 0)
		return k;
	ref_fail(err, err_len, "reading the key's parts", alg);
	k->storage = NULL;
fail:
	EVP_PKEY_free(pkey);
	free(s);
	free(k);
	return NULL;
}

struct cb_pk_key *cb_pk_key_from_der(const struct cb_algorithm *alg, const unsigned char *der,
                                     size_t der_len, char *err, size_t err_len)
{
	const unsigned char *p = der;
	EVP_PKEY *pkey = d2i_AutoPrivateKey(NULL, &p, (long)der_len);
	bool priv = pkey != NULL;

	if (pkey && p != der + der_len) {
		EVP_PKEY_free(pkey);
		pkey = NULL;
	}
	if (!pkey) {
		p = der;
		pkey = d2i_PUBKEY(NULL, &p, (long)der_len);
		if (pkey && p != der + der_len) {
			EVP_PKEY_free(pkey);
			pkey = NULL;
		}
	}
	return wrap(alg, pkey, priv, err, err_len);
}

/* An EC key on ALG's curve from fromdata PARAMS built by BLD. */
static EVP_PKEY *ec_fromdata(const struct cb_algorithm *alg, OSSL_PARAM_BLD *bld, int selection)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM *params;
	EVP_PKEY *pkey = NULL;

	if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, alg->curve, 0))
		goto out;
	params = OSSL_PARAM_BLD_to_param(bld);
	if (ctx && params && EVP_PKEY_fromdata_init(ctx) == 1)
		EVP_PKEY_fromdata(ctx, &pkey, selection, params);
	OSSL_PARAM_free(params);
out:
	EVP_PKEY_CTX_free(ctx);
	return pkey;
}

static int curve_nid(const struct cb_algorithm *alg)
{
	return EC_curve_nist2nid(alg->curve);
}

/* D times the generator of ALG's curve, uncompressed, into PUB (its length
 * in *N); 0 on success. */
static int ec_public_of(const struct cb_algorithm *alg, const BIGNUM *d, unsigned char *pub,
                        size_t room, size_t *n)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(curve_nid(alg));
	EC_POINT *pt = g ? EC_POINT_new(g) : NULL;
	int rc = -1;

	if (pt && EC_POINT_mul(g, pt, d, NULL, NULL, NULL)) {
		*n = EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, pub, room, NULL);
		rc = *n ? 0 : -1;
	}
	EC_POINT_free(pt);
	EC_GROUP_free(g);
	return rc;
}

struct cb_pk_key *cb_pk_key_from_raw(const struct cb_algorithm *alg, const unsigned char *raw,
                                     size_t raw_len, char *err, size_t err_len)
{
	unsigned char pub[1 + 2 * CB_PK_MAX_SECRET];
	size_t n;
	BIGNUM *d;
	OSSL_PARAM_BLD *bld;
	EVP_PKEY *pkey = NULL;

	if (family(alg) == CB_PK_FAMILY_RAW)
		return wrap(alg,
		            EVP_PKEY_new_raw_private_key_ex(NULL, cb_pk_info(alg)->reference, NULL,
		                                            raw, raw_len),
		            true, err, err_len);
	if (family(alg) != CB_PK_FAMILY_NIST) {
		cb_errorf(err, err_len, "%s: a raw private key is for elliptic curves", alg->name);
		return NULL;
	}
	d = BN_bin2bn(raw, (int)raw_len, NULL);
	bld = OSSL_PARAM_BLD_new();
	if (d && bld && ec_public_of(alg, d, pub, sizeof pub, &n) == 0 &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, n))
		pkey = ec_fromdata(alg, bld, EVP_PKEY_KEYPAIR);
	OSSL_PARAM_BLD_free(bld);
	BN_free(d);
	return wrap(alg, pkey, true, err, err_len);
}

struct cb_pk_key *cb_pk_key_from_public(const struct cb_algorithm *alg, const unsigned char *raw,
                                        size_t raw_len, char *err, size_t err_len)
{
	OSSL_PARAM_BLD *bld;
	EVP_PKEY *pkey = NULL;

	if (family(alg) == CB_PK_FAMILY_RAW)
		return wrap(alg,
		            EVP_PKEY_new_raw_public_key_ex(NULL, cb_pk_info(alg)->reference, NULL,
		                                           raw, raw_len),
		            false, err, err_len);
	bld = OSSL_PARAM_BLD_new();
	if (bld && family(alg) == CB_PK_FAMILY_NIST &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, raw, raw_len))
		pkey = ec_fromdata(alg, bld, EVP_PKEY_PUBLIC_KEY);
	OSSL_PARAM_BLD_free(bld);
	return wrap(alg, pkey, false, err, err_len);
}

void cb_pk_key_free(struct cb_pk_key *key)
{
	if (!key)
		return;
	if (key->storage)
		EVP_PKEY_free(pkey_of(key));
	free(key->storage);
	free(key);
}

static const char *md_name(const struct cb_algorithm *alg)
{
	return !alg->hash                         ? NULL
	       : strcmp(alg->hash, "sha256") == 0 ? "SHA256"
	       : strcmp(alg->hash, "sha384") == 0 ? "SHA384"
	                                          : "SHA512";
}

int cb_pk_digest(const struct cb_algorithm *alg, const unsigned char *msg, size_t len,
                 unsigned char *out, char *err, size_t err_len)
{
	EVP_MD *md = md_name(alg) ? EVP_MD_fetch(NULL, md_name(alg), NULL) : NULL;
	int ok = md && EVP_Digest(msg, len, out, NULL, md, NULL);

	EVP_MD_free(md);
	return ok ? 0 : ref_fail(err, err_len, "the digest", alg);
}

/* The RSA padding mode called NAME on CTX: 1, or 0 or less. */
static int set_padding(EVP_PKEY_CTX *ctx, const char *name)
{
	OSSL_PARAM params[] = {
	    OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, (char *)name, 0),
	    OSSL_PARAM_construct_end()};

	return EVP_PKEY_CTX_set_params(ctx, params);
}

/* A context for signing or verifying ALG's digests with PKEY, its padding
 * and hash set. */
static EVP_PKEY_CTX *digest_ctx(const struct cb_algorithm *alg, EVP_PKEY *pkey, bool sign)
{
	const char *padding = cb_pk_info(alg)->padding;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	EVP_MD *md = EVP_MD_fetch(NULL, md_name(alg), NULL);
	int ok = ctx && md && (sign ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_verify_init(ctx)) == 1;

	/* RSA: the padding mode by the name the row gives ("pkcs1", "pss");
	 * PSS with MGF1 of the same hash and a salt of the digest's length. */
	if (ok && padding)
		ok = set_padding(ctx, padding) == 1;
	if (ok && padding && strcmp(padding, OSSL_PKEY_RSA_PAD_MODE_PSS) == 0)
		ok = EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) == 1 &&
		     EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) == 1;
	ok = ok && EVP_PKEY_CTX_set_signature_md(ctx, md) == 1;
	EVP_MD_free(md);
	if (!ok) {
		EVP_PKEY_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

int cb_pk_sign(const struct cb_pk_key *key, const unsigned char *msg, size_t len,
               const unsigned char *digest, unsigned char *sig, size_t *sig_len, char *err,
               size_t err_len)
{
	const struct cb_algorithm *alg = key->alg;
	size_t n = CB_PK_MAX_SIG;
	int ok;

	if (!alg->hash) { /* the scheme hashes the message itself (Ed25519) */
		EVP_MD_CTX *md = EVP_MD_CTX_new();

		ok = md && EVP_DigestSignInit(md, NULL, NULL, NULL, pkey_of(key)) == 1 &&
		     EVP_DigestSign(md, sig, &n, msg, len) == 1;
		EVP_MD_CTX_free(md);
	} else {
		EVP_PKEY_CTX *ctx = digest_ctx(alg, pkey_of(key), true);

		ok = ctx && EVP_PKEY_sign(ctx, sig, &n, digest, cb_pk_digest_len(alg)) == 1;
		EVP_PKEY_CTX_free(ctx);
	}
	if (!ok)
		return ref_fail(err, err_len, "signing", alg);
	*sig_len = n;
	return 0;
}

int cb_pk_verify(const struct cb_pk_key *key, const unsigned char *msg, size_t len,
                 const unsigned char *digest, const unsigned char *sig, size_t sig_len, char *err,
                 size_t err_len)
{
	const struct cb_algorithm *alg = key->alg;
	int rc;

	if (!alg->hash) { /* the scheme hashes the message itself (Ed25519) */
		EVP_MD_CTX *md = EVP_MD_CTX_new();

		rc = md && EVP_DigestVerifyInit(md, NULL, NULL, NULL, pkey_of(key)) == 1
		         ? EVP_DigestVerify(md, sig, sig_len, msg, len)
		         : -1;
		EVP_MD_CTX_free(md);
	} else {
		EVP_PKEY_CTX *ctx = digest_ctx(alg, pkey_of(key), false);

		rc = ctx ? EVP_PKEY_verify(ctx, sig, sig_len, digest, cb_pk_digest_len(alg)) : -1;
		EVP_PKEY_CTX_free(ctx);
	}
	/* libcrypto says 0 for a bad signature and -1 for one it cannot
	 * parse; both are a rejection, as long as the context was made. */
	if (rc == 1)
		return 1;
	if (rc == 0 || rc == -1)
		return 0;
	return ref_fail(err, err_len, "verifying", alg);
}

int cb_pk_derive(const struct cb_pk_key *key, const struct cb_pk_key *peer, unsigned char *out,
                 char *err, size_t err_len)
{
	const struct cb_algorithm *alg = key->alg;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey_of(key), NULL);
	size_t n = cb_pk_output_len(alg, CB_OP_DERIVE), want = n;
	int ok = ctx && EVP_PKEY_derive_init(ctx) == 1 &&
	         EVP_PKEY_derive_set_peer(ctx, pkey_of(peer)) == 1 &&
	         EVP_PKEY_derive(ctx, out, &n) == 1 && n == want;

	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : ref_fail(err, err_len, "deriving", alg);
}

static int check_rsa_pair(const struct cb_algorithm *alg, const unsigned char *out, char *why,
                          size_t why_len)
{
	size_t a, b;
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *n, *p, *q, *r;
	const char *wrong = NULL;

	cb_pk_keygen_layout(alg, &a, &b);
	n = BN_bin2bn(out, (int)a, NULL);
	p = BN_bin2bn(out + a, (int)b, NULL);
	q = BN_new();
	r = BN_new();
	if (!bc || !n || !p || !q || !r)
		wrong = "out of memory";
	else if (BN_num_bits(n) != (int)alg->bits)
		wrong = "the modulus is not of the size asked";
	else if (BN_num_bits(p) < (int)alg->bits / 2 - 1 || !BN_div(q, r, n, p, bc) ||
	         !BN_is_zero(r))
		wrong = "p does not divide n";
	else if (BN_check_prime(p, bc, NULL) != 1 || BN_check_prime(q, bc, NULL) != 1)
		wrong = "a factor of n is not prime";
	BN_free(n);
	BN_free(p);
	BN_free(q);
	BN_free(r);
	BN_CTX_free(bc);
	if (!wrong)
		return 0;
	snprintf(why, why_len, "keygen: %s", wrong);
	return -1;
}

int cb_pk_check_keygen(const struct cb_algorithm *alg, const unsigned char *out, char *why,
                       size_t why_len)
{
	size_t a, b;
	char err[256] = "";
	struct cb_pk_key *k;
	int ok;

	if (family(alg) == CB_PK_FAMILY_RSA)
		return check_rsa_pair(alg, out, why, why_len);
	cb_pk_keygen_layout(alg, &a, &b);
	k = cb_pk_key_from_raw(alg, out, a, err, sizeof err);
	ok = k && k->pub.len == b && memcmp(k->pub.data, out + a, b) == 0;
	cb_pk_key_free(k);
	if (ok)
		return 0;
	snprintf(why, why_len, "keygen: %s",
	         *err ? err : "the public key is not the private key's");
	return -1;
}
