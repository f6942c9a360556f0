/* openssl_pk.c: the openssl engine's public-key operations, through EVP.
 *
 * As `openssl speed` does: the key is imported and one EVP_PKEY_CTX (for
 * Ed25519 an EVP_MD_CTX) initialised for the operation in open, and the timed
 * call is one EVP_PKEY_sign, EVP_PKEY_verify, EVP_PKEY_derive or
 * EVP_DigestSign on it. keygen generates on a context set up in open and
 * writes the new key out (core/algorithms/pk.h's layout). EVP names a scheme's keys and
 * RSA's paddings as the reference does: the scheme's row gives them
 * (core/algorithms/pk_scheme.h). */
#include "core/engine/engine.h"
#include "core/base/errbuf.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

struct openssl_pk {
	struct cb_engine_setup setup;
	EVP_PKEY *key, *peer;
	EVP_PKEY_CTX *pctx; /* initialised for the cell's operation */
	EVP_MD_CTX *md;     /* a scheme that hashes inside (Ed25519): EVP_DigestSign/Verify */
	size_t out_len;     /* the longest output (signature, secret) */
};

static void pk_error(char *err, size_t err_len, const char *what)
{
	unsigned long code = ERR_get_error();
	char reason[256] = "";

	if (code)
		ERR_error_string_n(code, reason, sizeof reason);
	cb_errorf(err, err_len, "openssl: %s failed%s%s", what, code ? ": " : "", reason);
	ERR_clear_error();
}

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

static bool openssl_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op);
}

static void openssl_pk_close(void *opaque)
{
	struct openssl_pk *c = opaque;

	if (!c)
		return;
	EVP_PKEY_CTX_free(c->pctx);
	EVP_MD_CTX_free(c->md);
	EVP_PKEY_free(c->key);
	EVP_PKEY_free(c->peer);
	free(c);
	ERR_clear_error();
}

static EVP_PKEY *import(const struct cb_pk_key *k)
{
	const unsigned char *p = k->has_private ? k->pkcs8.data : k->spki.data;

	return k->has_private ? d2i_AutoPrivateKey(NULL, &p, (long)k->pkcs8.len)
	                      : d2i_PUBKEY(NULL, &p, (long)k->spki.len);
}

static const char *md_name(const struct cb_algorithm *alg)
{
	return strcmp(alg->hash, "sha256") == 0   ? "SHA256"
	       : strcmp(alg->hash, "sha384") == 0 ? "SHA384"
	                                          : "SHA512";
}

/* The context of a sign or verify of digests: padding, salt and hash set. */
static int digest_ctx(struct openssl_pk *c, bool sign)
{
	const struct cb_algorithm *alg = c->setup.alg;
	const char *padding = cb_pk_info(alg)->padding;
	EVP_MD *md = EVP_MD_fetch(NULL, md_name(alg), NULL);
	int ok;

	c->pctx = EVP_PKEY_CTX_new_from_pkey(NULL, c->key, NULL);
	ok = md && c->pctx &&
	     (sign ? EVP_PKEY_sign_init(c->pctx) : EVP_PKEY_verify_init(c->pctx)) == 1;
	if (ok && padding) {
		OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(
		                           OSSL_SIGNATURE_PARAM_PAD_MODE, (char *)padding, 0),
		                       OSSL_PARAM_construct_end()};

		ok = EVP_PKEY_CTX_set_params(c->pctx, params) == 1;
	}
	if (ok && padding && strcmp(padding, OSSL_PKEY_RSA_PAD_MODE_PSS) == 0)
		ok = EVP_PKEY_CTX_set_rsa_pss_saltlen(c->pctx, RSA_PSS_SALTLEN_DIGEST) == 1 &&
		     EVP_PKEY_CTX_set_rsa_mgf1_md(c->pctx, md) == 1;
	ok = ok && EVP_PKEY_CTX_set_signature_md(c->pctx, md) == 1;
	EVP_MD_free(md);
	return ok ? 0 : -1;
}

static int keygen_ctx(struct openssl_pk *c)
{
	const struct cb_algorithm *alg = c->setup.alg;

	c->pctx = EVP_PKEY_CTX_new_from_name(NULL, cb_pk_info(alg)->reference, NULL);
	if (!c->pctx || EVP_PKEY_keygen_init(c->pctx) != 1)
		return -1;
	if (alg->curve)
		return EVP_PKEY_CTX_set_group_name(c->pctx, alg->curve) == 1 ? 0 : -1;
	if (!alg->curve && alg->hash)
		return EVP_PKEY_CTX_set_rsa_keygen_bits(c->pctx, (int)alg->bits) == 1 ? 0 : -1;
	return 0;
}

static void *openssl_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                             char *err, size_t err_len)
{
	struct openssl_pk *c = calloc(1, sizeof *c);
	const struct cb_pk_setup *pk = setup->pk;
	enum cb_op op = setup->op;
	int rc = 0;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "openssl: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->out_len = cb_output_len(setup->alg, op, setup->len);
	if (op == CB_OP_KEYGEN) {
		rc = keygen_ctx(c);
	} else if (!(c->key = import(pk->key))) {
		rc = -1;
	} else if (op == CB_OP_DERIVE) {
		c->peer = import(pk->peer);
		c->pctx = c->peer ? EVP_PKEY_CTX_new_from_pkey(NULL, c->key, NULL) : NULL;
		rc = c->pctx && EVP_PKEY_derive_init(c->pctx) == 1 &&
		             EVP_PKEY_derive_set_peer(c->pctx, c->peer) == 1
		         ? 0
		         : -1;
	} else if (!setup->alg->hash) { /* the scheme hashes the message itself */
		c->md = EVP_MD_CTX_new();
		rc = c->md && (op == CB_OP_SIGN
		                   ? EVP_DigestSignInit(c->md, NULL, NULL, NULL, c->key)
		                   : EVP_DigestVerifyInit(c->md, NULL, NULL, NULL, c->key)) == 1
		         ? 0
		         : -1;
	} else {
		rc = digest_ctx(c, op == CB_OP_SIGN);
	}
	if (rc == 0)
		return c;
	pk_error(err, err_len, "setting up the key");
	openssl_pk_close(c);
	return NULL;
}

/* The new key in PKEY written out as core/algorithms/pk.h's keygen layout says. */
static int write_key(const struct cb_algorithm *alg, EVP_PKEY *pkey, unsigned char *out)
{
	size_t a, b, n;
	BIGNUM *bn = NULL;
	int ok;

	cb_pk_keygen_layout(alg, &a, &b);
	if (cb_pk_info(alg)->family == CB_PK_FAMILY_RAW) {
		n = a;
		ok = EVP_PKEY_get_raw_private_key(pkey, out, &n) == 1 && n == a;
		n = b;
		return ok && EVP_PKEY_get_raw_public_key(pkey, out + a, &n) == 1 && n == b
		           ? CB_OK
		           : CB_FAILED;
	}
	ok = EVP_PKEY_get_bn_param(
	         pkey, alg->curve ? OSSL_PKEY_PARAM_PRIV_KEY : OSSL_PKEY_PARAM_RSA_N, &bn) == 1 &&
	     BN_bn2binpad(bn, out, (int)a) == (int)a;
	BN_clear_free(bn);
	bn = NULL;
	if (ok && alg->curve)
		return EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, out + a, b,
		                                       &n) == 1 &&
		               n == b
		           ? CB_OK
		           : CB_FAILED;
	ok = ok && EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_FACTOR1, &bn) == 1 &&
	     BN_bn2binpad(bn, out + a, (int)b) == (int)b;
	BN_clear_free(bn);
	return ok ? CB_OK : CB_FAILED;
}

static int openssl_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct openssl_pk *c = opaque;
	const struct cb_pk_setup *pk = c->setup.pk;
	size_t n = c->out_len;
	EVP_PKEY *fresh = NULL;
	int rc;

	switch (c->setup.op) {
	case CB_OP_SIGN:
		rc = c->md ? EVP_DigestSign(c->md, out, &n, in, len)
		           : EVP_PKEY_sign(c->pctx, out, &n, pk->digest, pk->digest_len);
		return rc == 1 ? CB_OK : CB_FAILED;
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		rc = c->md ? EVP_DigestVerify(c->md, pk->sig, pk->sig_len, in, len)
		           : EVP_PKEY_verify(c->pctx, pk->sig, pk->sig_len, pk->digest,
		                             pk->digest_len);
		/* 0 is a bad signature; -1 one libcrypto could not even parse. */
		return rc == 1 ? CB_OK : rc == 0 || rc == -1 ? CB_REJECTED : CB_FAILED;
	case CB_OP_DERIVE:
		return EVP_PKEY_derive(c->pctx, out, &n) == 1 ? CB_OK : CB_FAILED;
	case CB_OP_KEYGEN:
		if (EVP_PKEY_generate(c->pctx, &fresh) != 1)
			return CB_FAILED;
		rc = write_key(c->setup.alg, fresh, out);
		EVP_PKEY_free(fresh);
		return rc;
	default:
		return CB_FAILED;
	}
}

static uint64_t openssl_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                                uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(openssl_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_openssl_pk = {
    .supports = openssl_pk_supports,
    .open = openssl_pk_open,
    .call = openssl_pk_call,
    .loop = openssl_pk_loop,
    .close = openssl_pk_close,
};
