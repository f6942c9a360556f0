/* mbedtls_pk.c: the mbedtls engine's public-key operations (Mbed TLS 2.28).
 *
 * Offered: RSA PKCS #1 v1.5 and PSS (sign, verify, keygen), ECDSA on P-256,
 * P-384 and P-521 (sign, verify, keygen), ECDH on P-256 and P-384 and X25519
 * (derive, keygen). Not offered: Ed25519, which Mbed TLS 2.28 does not have.
 *
 * Everything is built in open: the key imported into an mbedtls_rsa_context
 * from its components (mbedtls_rsa_import_raw, mbedtls_rsa_complete) or into
 * an mbedtls_ecp_keypair, and a CTR_DRBG seeded from mbedtls_entropy, one per
 * context: RSA blinding, ECDSA's nonce and ECDH's blinding draw on it. The
 * timed call is one library operation on them.
 *
 * ECDSA signs with mbedtls_ecdsa_sign, the randomized signer: 2.28's
 * mbedtls_ecdsa_write_signature, built with MBEDTLS_ECDSA_DETERMINISTIC as
 * Debian's is, signs deterministically (RFC 6979) whatever RNG it is given.
 * The call then writes r and s as DER with the library's own ASN.1 writer,
 * as write_signature does inside. */
#include "core/engine/engine.h"
#include "core/base/errbuf.h"

#include <stdlib.h>
#include <string.h>

#include <mbedtls/asn1write.h>
#include <mbedtls/bignum.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/ecdh.h>
#include <mbedtls/ecdsa.h>
#include <mbedtls/ecp.h>
#include <mbedtls/entropy.h>
#include <mbedtls/rsa.h>

struct mbed_pk {
	struct cb_engine_setup setup;
	mbedtls_entropy_context entropy;
	mbedtls_ctr_drbg_context drbg;
	mbedtls_rsa_context rsa;
	mbedtls_ecp_keypair ec;     /* the key: group, d, Q */
	mbedtls_ecp_point peer;     /* derive: the peer's public point */
	mbedtls_mpi r, s, z;        /* the signature's numbers, the secret */
	mbedtls_md_type_t md;       /* the signature's hash */
	mbedtls_ecp_group_id group; /* MBEDTLS_ECP_DP_NONE for RSA */
	size_t flen;                /* the field's length */
};

static mbedtls_ecp_group_id group_of(const struct cb_algorithm *alg)
{
	if (alg->scheme == CB_PK_X25519)
		return MBEDTLS_ECP_DP_CURVE25519;
	if (!alg->curve)
		return MBEDTLS_ECP_DP_NONE;
	return strcmp(alg->curve, "P-256") == 0   ? MBEDTLS_ECP_DP_SECP256R1
	       : strcmp(alg->curve, "P-384") == 0 ? MBEDTLS_ECP_DP_SECP384R1
	                                          : MBEDTLS_ECP_DP_SECP521R1;
}

static mbedtls_md_type_t md_of(const struct cb_algorithm *alg)
{
	if (!alg->hash)
		return MBEDTLS_MD_NONE;
	return strcmp(alg->hash, "sha256") == 0   ? MBEDTLS_MD_SHA256
	       : strcmp(alg->hash, "sha384") == 0 ? MBEDTLS_MD_SHA384
	                                          : MBEDTLS_MD_SHA512;
}

/* The schemes this half offers: a scheme added to core/algorithms/pk_scheme.c is
 * offered only once it is listed here. No Ed25519: Mbed TLS 2.28 has none (its EdDSA came
 * with 3.x's PSA). */
static const bool offered[CB_PK_COUNT] = {
    [CB_PK_RSA_PKCS1] = true, [CB_PK_RSA_PSS] = true, [CB_PK_ECDSA] = true,
    [CB_PK_ECDH] = true,      [CB_PK_X25519] = true,
};

static bool offers(const struct cb_algorithm *alg)
{
	return cb_alg_is_pk(alg) && alg->scheme < CB_PK_COUNT && offered[alg->scheme];
}

static bool mbed_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op);
}

static void mbed_pk_close(void *opaque)
{
	struct mbed_pk *c = opaque;

	if (!c)
		return;
	mbedtls_rsa_free(&c->rsa);
	mbedtls_ecp_keypair_free(&c->ec);
	mbedtls_ecp_point_free(&c->peer);
	mbedtls_mpi_free(&c->r);
	mbedtls_mpi_free(&c->s);
	mbedtls_mpi_free(&c->z);
	mbedtls_ctr_drbg_free(&c->drbg);
	mbedtls_entropy_free(&c->entropy);
	free(c);
}

/* The RSA key: a public one (verify) from n and e only. */
static int import_rsa(struct mbed_pk *c, const struct cb_pk_key *k, bool private)
{
	int rc = private ? mbedtls_rsa_import_raw(&c->rsa, k->n.data, k->n.len, k->p.data, k->p.len,
	                                          k->q.data, k->q.len, k->d.data, k->d.len,
	                                          k->e.data, k->e.len)
	                 : mbedtls_rsa_import_raw(&c->rsa, k->n.data, k->n.len, NULL, 0, NULL, 0,
	                                          NULL, 0, k->e.data, k->e.len);

	return rc == 0 && mbedtls_rsa_complete(&c->rsa) == 0 ? 0 : -1;
}

/* The EC key: d (read_key takes X25519's little-endian string and clamps
 * it) and the public point (04 || x || y, X25519's 32 bytes). */
static int import_ec(struct mbed_pk *c, const struct cb_pk_key *k, bool private)
{
	const struct cb_bytes *pub = &k->pub;

	if (private)
		return mbedtls_ecp_read_key(c->group, &c->ec, k->d.data, k->d.len);
	if (mbedtls_ecp_group_load(&c->ec.grp, c->group) != 0)
		return -1;
	return mbedtls_ecp_point_read_binary(&c->ec.grp, &c->ec.Q, pub->data, pub->len);
}

static void *mbed_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                          char *err, size_t err_len)
{
	static const unsigned char personal[] = "cryptobench mbedtls_pk";
	struct mbed_pk *c = calloc(1, sizeof *c);
	const struct cb_algorithm *alg = setup->alg;
	const struct cb_pk_setup *pk = setup->pk;
	enum cb_op op = setup->op;
	bool rsa = alg->scheme == CB_PK_RSA_PKCS1 || alg->scheme == CB_PK_RSA_PSS;
	int rc;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "mbedtls: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->md = md_of(alg);
	c->group = group_of(alg);
	c->flen = cb_pk_field_len(alg);
	mbedtls_entropy_init(&c->entropy);
	mbedtls_ctr_drbg_init(&c->drbg);
	/* PSS: MGF1 with the signature's hash (the salt length is the call's). */
	mbedtls_rsa_init(&c->rsa,
	                 alg->scheme == CB_PK_RSA_PSS ? MBEDTLS_RSA_PKCS_V21 : MBEDTLS_RSA_PKCS_V15,
	                 alg->scheme == CB_PK_RSA_PSS ? (int)c->md : 0);
	mbedtls_ecp_keypair_init(&c->ec);
	mbedtls_ecp_point_init(&c->peer);
	mbedtls_mpi_init(&c->r);
	mbedtls_mpi_init(&c->s);
	mbedtls_mpi_init(&c->z);
	rc = mbedtls_ctr_drbg_seed(&c->drbg, mbedtls_entropy_func, &c->entropy, personal,
	                           sizeof personal - 1);
	if (rc == 0 && op == CB_OP_KEYGEN && !rsa)
		rc = mbedtls_ecp_group_load(&c->ec.grp, c->group);
	else if (rc == 0 && op != CB_OP_KEYGEN && rsa)
		rc = import_rsa(c, pk->key, op == CB_OP_SIGN);
	else if (rc == 0 && op != CB_OP_KEYGEN)
		rc = import_ec(c, pk->key, op == CB_OP_SIGN || op == CB_OP_DERIVE);
	if (rc == 0 && op == CB_OP_DERIVE)
		rc = mbedtls_ecp_point_read_binary(&c->ec.grp, &c->peer, pk->peer->pub.data,
		                                   pk->peer->pub.len);
	if (rc == 0)
		return c;
	cb_errorf(err, err_len, "mbedtls: setting up the %s key failed (-0x%04x)", alg->name,
	          (unsigned)-rc);
	mbed_pk_close(c);
	return NULL;
}

/* r and s as DER, the way mbedtls_ecdsa_write_signature writes them: the
 * ASN.1 writer fills a buffer from its end. */
static int ecdsa_der(const mbedtls_mpi *r, const mbedtls_mpi *s, unsigned char *out)
{
	unsigned char buf[MBEDTLS_ECDSA_MAX_LEN];
	unsigned char *p = buf + sizeof buf;
	int n, len = 0;

	if ((n = mbedtls_asn1_write_mpi(&p, buf, s)) < 0)
		return CB_FAILED;
	len += n;
	if ((n = mbedtls_asn1_write_mpi(&p, buf, r)) < 0)
		return CB_FAILED;
	len += n;
	if ((n = mbedtls_asn1_write_len(&p, buf, (size_t)len)) < 0)
		return CB_FAILED;
	len += n;
	if ((n = mbedtls_asn1_write_tag(&p, buf,
	                                MBEDTLS_ASN1_CONSTRUCTED | MBEDTLS_ASN1_SEQUENCE)) < 0)
		return CB_FAILED;
	memcpy(out, p, (size_t)(len + n));
	return CB_OK;
}

static int mbed_sign(struct mbed_pk *c, unsigned char *out)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	unsigned hlen = (unsigned)pk->digest_len;

	switch (c->setup.alg->scheme) {
	case CB_PK_RSA_PKCS1:
		return mbedtls_rsa_rsassa_pkcs1_v15_sign(&c->rsa, mbedtls_ctr_drbg_random, &c->drbg,
		                                         MBEDTLS_RSA_PRIVATE, c->md, hlen,
		                                         pk->digest, out) == 0
		           ? CB_OK
		           : CB_FAILED;
	case CB_PK_RSA_PSS:
		return mbedtls_rsa_rsassa_pss_sign_ext(&c->rsa, mbedtls_ctr_drbg_random, &c->drbg,
		                                       c->md, hlen, pk->digest, (int)hlen, out) == 0
		           ? CB_OK
		           : CB_FAILED;
	default:
		if (mbedtls_ecdsa_sign(&c->ec.grp, &c->r, &c->s, &c->ec.d, pk->digest,
		                       pk->digest_len, mbedtls_ctr_drbg_random, &c->drbg) != 0)
			return CB_FAILED;
		return ecdsa_der(&c->r, &c->s, out);
	}
}

static int mbed_verify(struct mbed_pk *c)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	unsigned hlen = (unsigned)pk->digest_len;
	int rc;

	switch (c->setup.alg->scheme) {
	case CB_PK_RSA_PKCS1:
		rc = mbedtls_rsa_rsassa_pkcs1_v15_verify(&c->rsa, NULL, NULL, MBEDTLS_RSA_PUBLIC,
		                                         c->md, hlen, pk->digest, pk->sig);
		break;
	case CB_PK_RSA_PSS:
		rc = mbedtls_rsa_rsassa_pss_verify_ext(&c->rsa, NULL, NULL, MBEDTLS_RSA_PUBLIC,
		                                       c->md, hlen, pk->digest, c->md, (int)hlen,
		                                       pk->sig);
		break;
	default:
		rc = mbedtls_ecdsa_read_signature(&c->ec, pk->digest, pk->digest_len, pk->sig,
		                                  pk->sig_len);
		/* A DER that does not parse comes back as BAD_INPUT_DATA plus
		 * the ASN.1 reader's code: a bad signature too. */
		if (rc == MBEDTLS_ERR_ECP_VERIFY_FAILED || rc == MBEDTLS_ERR_ECP_SIG_LEN_MISMATCH ||
		    (rc < 0 && (-rc & 0xff80) == -MBEDTLS_ERR_ECP_BAD_INPUT_DATA))
			return CB_REJECTED;
		return rc == 0 ? CB_OK : CB_FAILED;
	}
	/* A signature not below n fails the public operation (PUBLIC_FAILED
	 * plus the bignum's BAD_INPUT_DATA): a bad signature too. */
	if (rc == MBEDTLS_ERR_RSA_VERIFY_FAILED || rc == MBEDTLS_ERR_RSA_INVALID_PADDING ||
	    rc == MBEDTLS_ERR_RSA_PUBLIC_FAILED + MBEDTLS_ERR_MPI_BAD_INPUT_DATA)
		return CB_REJECTED;
	return rc == 0 ? CB_OK : CB_FAILED;
}

/* ECDH's x coordinate big-endian; X25519's u little-endian (RFC 7748's
 * byte order). Writing the library's number out is the call's only extra. */
static int mbed_derive(struct mbed_pk *c, unsigned char *out)
{
	if (mbedtls_ecdh_compute_shared(&c->ec.grp, &c->z, &c->peer, &c->ec.d,
	                                mbedtls_ctr_drbg_random, &c->drbg) != 0)
		return CB_FAILED;
	if (c->group == MBEDTLS_ECP_DP_CURVE25519)
		return mbedtls_mpi_write_binary_le(&c->z, out, 32) == 0 ? CB_OK : CB_FAILED;
	return mbedtls_mpi_write_binary(&c->z, out, c->flen) == 0 ? CB_OK : CB_FAILED;
}

/* A new key written out as core/algorithms/pk.h's keygen layout says. */
static int mbed_keygen(struct mbed_pk *c, unsigned char *out)
{
	size_t a, b, n;
	int rc;

	cb_pk_keygen_layout(c->setup.alg, &a, &b);
	if (c->group == MBEDTLS_ECP_DP_NONE) {
		if (mbedtls_rsa_gen_key(&c->rsa, mbedtls_ctr_drbg_random, &c->drbg,
		                        c->setup.alg->bits, 65537) != 0)
			return CB_FAILED;
		return mbedtls_rsa_export_raw(&c->rsa, out, a, out + a, b, NULL, 0, NULL, 0, NULL,
		                              0) == 0
		           ? CB_OK
		           : CB_FAILED;
	}
	if (mbedtls_ecp_gen_keypair(&c->ec.grp, &c->ec.d, &c->ec.Q, mbedtls_ctr_drbg_random,
	                            &c->drbg) != 0)
		return CB_FAILED;
	rc = c->group == MBEDTLS_ECP_DP_CURVE25519 ? mbedtls_mpi_write_binary_le(&c->ec.d, out, a)
	                                           : mbedtls_mpi_write_binary(&c->ec.d, out, a);
	if (rc != 0 || mbedtls_ecp_point_write_binary(
	                   &c->ec.grp, &c->ec.Q, MBEDTLS_ECP_PF_UNCOMPRESSED, &n, out + a, b) != 0)
		return CB_FAILED;
	return n == b ? CB_OK : CB_FAILED;
}

static int mbed_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct mbed_pk *c = opaque;

	(void)in;
	(void)len;
	switch (c->setup.op) {
	case CB_OP_SIGN:
		return mbed_sign(c, out);
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		return mbed_verify(c);
	case CB_OP_DERIVE:
		return mbed_derive(c, out);
	case CB_OP_KEYGEN:
		return mbed_keygen(c, out);
	default:
		return CB_FAILED;
	}
}

static uint64_t mbed_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                             uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(mbed_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_mbedtls_pk = {
    .supports = mbed_pk_supports,
    .open = mbed_pk_open,
    .call = mbed_pk_call,
    .loop = mbed_pk_loop,
    .close = mbed_pk_close,
};
