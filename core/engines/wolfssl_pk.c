/* wolfssl_pk.c: the wolfssl engine's public-key operations (wolfCrypt).
 *
 * Debian's wolfSSL 5.5.4 is built with RSA, WC_RSA_PSS, WC_RSA_BLINDING,
 * WOLFSSL_KEY_GEN, HAVE_ECC (P-256, P-384, P-521), HAVE_ED25519 and
 * HAVE_CURVE25519 (its options.h), so every public-key algorithm and
 * operation is offered; a build without one of them stops here, at compile
 * time, rather than offering less in silence.
 *
 * Everything is built in open: the key imported (RSA from its PKCS #8 DER,
 * or n and e for verify; EC, Ed25519 and X25519 from their raw numbers), and
 * a WC_RNG per context, which RSA blinding, ECDSA's nonce and the
 * timing-resistant ECDH draw on. The timed call is the library's operation.
 * PKCS #1 v1.5 signs and checks the DigestInfo wolfSSL's own code builds
 * with wc_EncodeSignature, in the call, as its TLS layer does. keygen
 * initialises, generates and frees a key per call, as wolfCrypt's benchmark
 * does, and writes it out (core/algorithms/pk.h's layout). */
#include <wolfssl/options.h>
#include <wolfssl/wolfcrypt/settings.h>

#include <wolfssl/wolfcrypt/asn.h>
#include <wolfssl/wolfcrypt/asn_public.h>
#include <wolfssl/wolfcrypt/curve25519.h>
#include <wolfssl/wolfcrypt/ecc.h>
#include <wolfssl/wolfcrypt/ed25519.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/random.h>
#include <wolfssl/wolfcrypt/rsa.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/engine.h"

#include "core/base/errbuf.h"

#if defined(NO_RSA) || !defined(WC_RSA_PSS) || !defined(WOLFSSL_KEY_GEN) || !defined(HAVE_ECC) ||  \
    !defined(HAVE_ED25519) || !defined(HAVE_CURVE25519)
/* cppcheck reads no system header, so it sees none of options.h's macros. */
// cppcheck-suppress preprocessorErrorDirective
#error "wolfssl_pk.c wants RSA with PSS and key generation, ECC, Ed25519 and Curve25519"
#endif

struct wolf_pk {
	struct cb_engine_setup setup;
	WC_RNG rng;
	union {
		RsaKey rsa;
		ecc_key ecc;
		ed25519_key ed;
		curve25519_key x;
	} key;
	union {
		ecc_key ecc;
		curve25519_key x;
	} peer;
	bool rng_ready, key_ready, peer_ready;
	int curve;             /* wolfCrypt's id of the curve (ECC_SECP256R1, ...) */
	enum wc_HashType hash; /* RSA, ECDSA */
	int hash_oid;          /* the DigestInfo's hash (SHA256h, ...) */
	int mgf;               /* PSS: MGF1 with the same hash */
	word32 out_len;        /* the output's length (cb_output_len) */
	/* verify: a copy of the signature, as wolfCrypt takes a mutable one */
	unsigned char sig[CB_PK_MAX_SIG];
};

/* FP_ECC (Debian's build): each thread caches tables of the points it
 * multiplies, in thread-local storage that wolfCrypt frees only when the
 * thread calls wc_ecc_fp_free. The runner's threads of a trial end with it,
 * so a key with this destructor, set by each thread that runs ECC, frees
 * its cache when it ends (outside the timing): without it every trial of T
 * threads left T caches behind. */
#if defined(FP_ECC)
static pthread_key_t fp_cache_key;
static pthread_once_t fp_cache_once = PTHREAD_ONCE_INIT;

static void fp_cache_free(void *unused)
{
	(void)unused;
	wc_ecc_fp_free();
}

static void fp_cache_key_make(void)
{
	(void)pthread_key_create(&fp_cache_key, fp_cache_free);
}
#endif

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

static bool wolf_pk_supports(const struct cb_algorithm *alg, enum cb_op op)
{
	return offers(alg) && cb_op_applies(alg, op);
}

static bool is_rsa(const struct cb_algorithm *alg)
{
	return alg->scheme == CB_PK_RSA_PKCS1 || alg->scheme == CB_PK_RSA_PSS;
}

static bool is_ecc(const struct cb_algorithm *alg)
{
	return alg->scheme == CB_PK_ECDSA || alg->scheme == CB_PK_ECDH;
}

static void free_key(const struct cb_algorithm *alg, void *key)
{
	if (is_rsa(alg))
		wc_FreeRsaKey(key);
	else if (is_ecc(alg))
		wc_ecc_free(key);
	else if (alg->scheme == CB_PK_ED25519)
		wc_ed25519_free(key);
	else
		wc_curve25519_free(key);
}

static void wolf_pk_close(void *opaque)
{
	struct wolf_pk *c = opaque;

	if (!c)
		return;
	if (c->key_ready)
		free_key(c->setup.alg, &c->key);
	if (c->peer_ready)
		free_key(c->setup.alg, &c->peer);
	if (c->rng_ready)
		wc_FreeRng(&c->rng);
	free(c);
}

static int curve_of(const struct cb_algorithm *alg)
{
	if (!alg->curve)
		return ECC_CURVE_INVALID;
	return strcmp(alg->curve, "P-256") == 0   ? ECC_SECP256R1
	       : strcmp(alg->curve, "P-384") == 0 ? ECC_SECP384R1
	                                          : ECC_SECP521R1;
}

static void hash_of(struct wolf_pk *c, const struct cb_algorithm *alg)
{
	bool sha256 = alg->hash && strcmp(alg->hash, "sha256") == 0;
	bool sha384 = alg->hash && strcmp(alg->hash, "sha384") == 0;

	c->hash = sha256 ? WC_HASH_TYPE_SHA256 : sha384 ? WC_HASH_TYPE_SHA384 : WC_HASH_TYPE_SHA512;
	c->hash_oid = sha256 ? SHA256h : sha384 ? SHA384h : SHA512h;
	c->mgf = sha256 ? WC_MGF1SHA256 : sha384 ? WC_MGF1SHA384 : WC_MGF1SHA512;
}

/* Initialise (and, but for keygen, import) C's key. */
static int import_key(struct wolf_pk *c)
{
	const struct cb_algorithm *alg = c->setup.alg;
	const struct cb_pk_key *k = c->setup.pk ? c->setup.pk->key : NULL;
	bool private = c->setup.op == CB_OP_SIGN || c->setup.op == CB_OP_DERIVE;
	word32 idx = 0;
	int rc;

	if (is_rsa(alg)) {
		if ((rc = wc_InitRsaKey(&c->key.rsa, NULL)) != 0)
			return rc;
		c->key_ready = true;
		if (c->setup.op == CB_OP_KEYGEN)
			return 0;
		/* wolfCrypt takes the PKCS #8 wrapping off itself. */
		rc = private ? wc_RsaPrivateKeyDecode(k->pkcs8.data, &idx, &c->key.rsa,
		                                      (word32)k->pkcs8.len)
		             : wc_RsaPublicKeyDecodeRaw(k->n.data, (word32)k->n.len, k->e.data,
		                                        (word32)k->e.len, &c->key.rsa);
		return rc == 0 && private ? wc_RsaSetRNG(&c->key.rsa, &c->rng) : rc;
	}
	if (is_ecc(alg)) {
		if ((rc = wc_ecc_init(&c->key.ecc)) != 0)
			return rc;
		c->key_ready = true;
		if (c->setup.op == CB_OP_KEYGEN)
			return 0;
		rc = wc_ecc_import_unsigned(&c->key.ecc, k->x.data, k->y.data,
		                            private ? k->d.data : NULL, c->curve);
		/* ECC_TIMING_RESISTANT: the shared secret blinds with the key's RNG. */
		return rc == 0 ? wc_ecc_set_rng(&c->key.ecc, &c->rng) : rc;
	}
	if (alg->scheme == CB_PK_ED25519) {
		if ((rc = wc_ed25519_init(&c->key.ed)) != 0)
			return rc;
		c->key_ready = true;
		if (c->setup.op == CB_OP_KEYGEN)
			return 0;
		return private
		           ? wc_ed25519_import_private_key(k->d.data, (word32)k->d.len, k->pub.data,
		                                           (word32)k->pub.len, &c->key.ed)
		           : wc_ed25519_import_public(k->pub.data, (word32)k->pub.len, &c->key.ed);
	}
	if ((rc = wc_curve25519_init(&c->key.x)) != 0)
		return rc;
	c->key_ready = true;
	if (c->setup.op == CB_OP_KEYGEN)
		return 0;
	/* RFC 7748's byte strings are little-endian. */
	return wc_curve25519_import_private_ex(k->d.data, (word32)k->d.len, &c->key.x,
	                                       EC25519_LITTLE_ENDIAN);
}

static int import_peer(struct wolf_pk *c)
{
	const struct cb_pk_key *p = c->setup.pk->peer;
	int rc;

	if (is_ecc(c->setup.alg)) {
		if ((rc = wc_ecc_init(&c->peer.ecc)) != 0)
			return rc;
		c->peer_ready = true;
		return wc_ecc_import_unsigned(&c->peer.ecc, p->x.data, p->y.data, NULL, c->curve);
	}
	if ((rc = wc_curve25519_init(&c->peer.x)) != 0)
		return rc;
	c->peer_ready = true;
	return wc_curve25519_import_public_ex(p->pub.data, (word32)p->pub.len, &c->peer.x,
	                                      EC25519_LITTLE_ENDIAN);
}

static void *wolf_pk_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                          char *err, size_t err_len)
{
	struct wolf_pk *c = calloc(1, sizeof *c);
	int rc;

	(void)cell;
	if (!c) {
		cb_errorf(err, err_len, "wolfssl: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->curve = curve_of(setup->alg);
	hash_of(c, setup->alg);
	c->out_len = (word32)cb_output_len(setup->alg, setup->op, setup->len);
	if (setup->pk && setup->pk->sig)
		memcpy(c->sig, setup->pk->sig, setup->pk->sig_len);
#if defined(FP_ECC)
	pthread_once(&fp_cache_once, fp_cache_key_make);
#endif
	rc = wc_InitRng(&c->rng);
	c->rng_ready = rc == 0;
	if (rc == 0)
		rc = import_key(c);
	if (rc == 0 && setup->op == CB_OP_DERIVE)
		rc = import_peer(c);
	if (rc == 0)
		return c;
	cb_errorf(err, err_len, "wolfssl: setting up the %s key failed (%d)", setup->alg->name, rc);
	wolf_pk_close(c);
	return NULL;
}

static int wolf_sign(struct wolf_pk *c, const unsigned char *in, size_t len, unsigned char *out)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	unsigned char info[MAX_ENCODED_SIG_SZ];
	word32 n = c->out_len, info_len;
	int rc;

	switch (c->setup.alg->scheme) {
	case CB_PK_RSA_PKCS1:
		info_len =
		    wc_EncodeSignature(info, pk->digest, (word32)pk->digest_len, c->hash_oid);
		rc = wc_RsaSSL_Sign(info, info_len, out, n, &c->key.rsa, &c->rng);
		return rc == (int)n ? CB_OK : CB_FAILED;
	case CB_PK_RSA_PSS:
		rc = wc_RsaPSS_Sign_ex(pk->digest, (word32)pk->digest_len, out, n, c->hash, c->mgf,
		                       (int)pk->digest_len, &c->key.rsa, &c->rng);
		return rc == (int)n ? CB_OK : CB_FAILED;
	case CB_PK_ECDSA:
		rc = wc_ecc_sign_hash(pk->digest, (word32)pk->digest_len, out, &n, &c->rng,
		                      &c->key.ecc);
		return rc == 0 ? CB_OK : CB_FAILED;
	default:
		rc = wc_ed25519_sign_msg(in, (word32)len, out, &n, &c->key.ed);
		return rc == 0 ? CB_OK : CB_FAILED;
	}
}

/* What wolfCrypt returns for a signature that is not one: a bad padding or
 * value, a DER that does not parse. The key and the digest are fixed and
 * good, so these come from the signature. */
static bool bad_signature(int rc)
{
	switch (rc) {
	case SIG_VERIFY_E:
	case RSA_PAD_E:
	case BAD_PADDING_E:
	case PSS_SALTLEN_E: /* PSS: the bytes before the salt are not zeros and 0x01 */
	case RSA_OUT_OF_RANGE_E:
	case ASN_PARSE_E:
	case ASN_GETINT_E:
	case ASN_EXPECT_0_E:
	case ASN_INPUT_E:
	case ASN_ECC_KEY_E:
	case MP_ZERO_E:
	case ECC_OUT_OF_RANGE_E:
		return true;
	default:
		return false;
	}
}

static int wolf_verify(struct wolf_pk *c, const unsigned char *in, size_t len)
{
	const struct cb_pk_setup *pk = c->setup.pk;
	unsigned char dec[CB_PK_MAX_SIG], info[MAX_ENCODED_SIG_SZ];
	word32 info_len, sig_len = (word32)pk->sig_len;
	int rc, res = 0;

	switch (c->setup.alg->scheme) {
	case CB_PK_RSA_PKCS1:
		/* The signature's DigestInfo against the one of the digest. */
		rc = wc_RsaSSL_Verify(c->sig, sig_len, dec, sizeof dec, &c->key.rsa);
		if (rc < 0)
			return bad_signature(rc) ? CB_REJECTED : CB_FAILED;
		info_len =
		    wc_EncodeSignature(info, pk->digest, (word32)pk->digest_len, c->hash_oid);
		return (word32)rc == info_len && memcmp(dec, info, info_len) == 0 ? CB_OK
		                                                                  : CB_REJECTED;
	case CB_PK_RSA_PSS:
		/* Checks the salt is the hash's length, as the contract's. */
		rc = wc_RsaPSS_VerifyCheck(c->sig, sig_len, dec, sizeof dec, pk->digest,
		                           (word32)pk->digest_len, c->hash, c->mgf, &c->key.rsa);
		return rc >= 0 ? CB_OK : bad_signature(rc) ? CB_REJECTED : CB_FAILED;
	case CB_PK_ECDSA:
		rc = wc_ecc_verify_hash(c->sig, sig_len, pk->digest, (word32)pk->digest_len, &res,
		                        &c->key.ecc);
		break;
	default:
		rc = wc_ed25519_verify_msg(c->sig, sig_len, in, (word32)len, &res, &c->key.ed);
		break;
	}
	if (rc == 0)
		return res == 1 ? CB_OK : CB_REJECTED;
	return bad_signature(rc) ? CB_REJECTED : CB_FAILED;
}

static int wolf_derive(struct wolf_pk *c, unsigned char *out)
{
	word32 n = c->out_len;

	if (is_ecc(c->setup.alg))
		return wc_ecc_shared_secret(&c->key.ecc, &c->peer.ecc, out, &n) == 0 &&
		               n == c->out_len
		           ? CB_OK
		           : CB_FAILED;
	return wc_curve25519_shared_secret_ex(&c->key.x, &c->peer.x, out, &n,
	                                      EC25519_LITTLE_ENDIAN) == 0 &&
	               n == c->out_len
	           ? CB_OK
	           : CB_FAILED;
}

/* N bytes at SRC right-aligned in WIDTH bytes at DST, zeros on the left. */
static int pad_left(unsigned char *dst, size_t width, const unsigned char *src, word32 n)
{
	if (n > width)
		return -1;
	memset(dst, 0, width - n);
	memcpy(dst + width - n, src, n);
	return 0;
}

static int wolf_rsa_keygen(struct wolf_pk *c, unsigned char *out, size_t a, size_t b)
{
	unsigned char e[8], n[CB_PK_MAX_SIG], d[CB_PK_MAX_SIG], p[CB_PK_MAX_SIG], q[CB_PK_MAX_SIG];
	word32 e_len = sizeof e, n_len = sizeof n, d_len = sizeof d, p_len = sizeof p,
	       q_len = sizeof q;

	wc_FreeRsaKey(&c->key.rsa);
	if (wc_InitRsaKey(&c->key.rsa, NULL) != 0 ||
	    wc_MakeRsaKey(&c->key.rsa, (int)c->setup.alg->bits, 65537, &c->rng) != 0 ||
	    wc_RsaExportKey(&c->key.rsa, e, &e_len, n, &n_len, d, &d_len, p, &p_len, q, &q_len) !=
	        0)
		return CB_FAILED;
	return pad_left(out, a, n, n_len) == 0 && pad_left(out + a, b, p, p_len) == 0 ? CB_OK
	                                                                              : CB_FAILED;
}

/* A new key pair in core/algorithms/pk.h's keygen layout. */
static int wolf_keygen(struct wolf_pk *c, unsigned char *out)
{
	const struct cb_algorithm *alg = c->setup.alg;
	size_t a, b;
	word32 na, nb;

	cb_pk_keygen_layout(alg, &a, &b);
	na = (word32)a;
	nb = (word32)b;
	switch (alg->scheme) {
	case CB_PK_RSA_PKCS1:
		return wolf_rsa_keygen(c, out, a, b);
	case CB_PK_ECDSA:
		wc_ecc_free(&c->key.ecc);
		if (wc_ecc_init(&c->key.ecc) != 0 ||
		    wc_ecc_make_key_ex(&c->rng, (int)a, &c->key.ecc, c->curve) != 0 ||
		    wc_ecc_export_private_only(&c->key.ecc, out, &na) != 0 ||
		    wc_ecc_export_x963(&c->key.ecc, out + a, &nb) != 0)
			return CB_FAILED;
		break;
	case CB_PK_ED25519:
		wc_ed25519_free(&c->key.ed);
		if (wc_ed25519_init(&c->key.ed) != 0 ||
		    wc_ed25519_make_key(&c->rng, ED25519_KEY_SIZE, &c->key.ed) != 0 ||
		    wc_ed25519_export_private_only(&c->key.ed, out, &na) != 0 ||
		    wc_ed25519_export_public(&c->key.ed, out + a, &nb) != 0)
			return CB_FAILED;
		break;
	default:
		wc_curve25519_free(&c->key.x);
		if (wc_curve25519_init(&c->key.x) != 0 ||
		    wc_curve25519_make_key(&c->rng, CURVE25519_KEYSIZE, &c->key.x) != 0 ||
		    wc_curve25519_export_private_raw_ex(&c->key.x, out, &na,
		                                        EC25519_LITTLE_ENDIAN) != 0 ||
		    wc_curve25519_export_public_ex(&c->key.x, out + a, &nb,
		                                   EC25519_LITTLE_ENDIAN) != 0)
			return CB_FAILED;
		break;
	}
	return na == a && nb == b ? CB_OK : CB_FAILED;
}

static int wolf_pk_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct wolf_pk *c = opaque;

	switch (c->setup.op) {
	case CB_OP_SIGN:
		return wolf_sign(c, in, len, out);
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		return wolf_verify(c, in, len);
	case CB_OP_DERIVE:
		return wolf_derive(c, out);
	case CB_OP_KEYGEN:
		return wolf_keygen(c, out);
	default:
		return CB_FAILED;
	}
}

static uint64_t wolf_pk_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                             uint64_t calls, int expect, int *last)
{
#if defined(FP_ECC)
	/* Once per trial and thread, not per call. */
	if (is_ecc(((const struct wolf_pk *)ctx)->setup.alg))
		(void)pthread_setspecific(fp_cache_key, &fp_cache_key);
#endif
	return cb_engine_loop(wolf_pk_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_pk_ops cb_wolfssl_pk = {
    .supports = wolf_pk_supports,
    .open = wolf_pk_open,
    .call = wolf_pk_call,
    .loop = wolf_pk_loop,
    .close = wolf_pk_close,
};
