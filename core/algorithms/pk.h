/* pk.h: the keys, messages and outputs of public-key cells.
 *
 * Every engine signs, verifies and derives with the same fixed keys: each
 * comes from a published test vector (the size's row names it, core/algorithms/pk_scheme.c), and
 * the run's header records each key's SHA-256 (of its SubjectPublicKeyInfo).
 * An engine gets a key in every form a library imports (struct cb_pk_key):
 * big-endian components and the DER encodings; it imports one in `open`,
 * untimed.
 *
 * What one call does, per operation (the message is the call's IN, LEN bytes
 * of the generated input):
 *   sign     RSA and ECDSA: sign the digest setup->pk.digest (the scheme's
 *            hash of the message, made outside the timing, as TLS hands a
 *            transcript hash to its signer); Ed25519: sign the message (the
 *            scheme hashes it inside). OUT: the signature: RSA the modulus's
 *            length, ECDSA DER (SEQUENCE of r and s), Ed25519 64 bytes.
 *   verify   verify setup->pk.sig (the reference's signature of the message)
 *            against the digest (Ed25519: the message): CB_OK when valid.
 *   verify-forged  the same with one bit of the signature flipped: CB_REJECTED.
 *   derive   the shared secret of the key and setup->pk.peer: ECDH the x
 *            coordinate (the field's length), X25519 32 bytes.
 *   keygen   a new key pair, written as cb_pk_keygen_layout says.
 * Each output is checked by the reference outside the timing
 * (cb_pk_check). */
#ifndef CB_PK_H
#define CB_PK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/algorithms/algorithm.h"

#define CB_PK_MAX_SIG 512    /* RSA-4096 */
#define CB_PK_MAX_DIGEST 64  /* SHA-512 */
#define CB_PK_MAX_SECRET 66  /* P-521's field */
#define CB_PK_MAX_KEYGEN 768 /* RSA-4096: n and p */

struct cb_bytes {
	const unsigned char *data;
	size_t len;
};

/* One key in every form. RSA: n, e, d, p, q, dp, dq, qinv (big-endian, no
 * leading zero byte; n has bits/8 bytes). ECDSA, ECDH: d (the private
 * scalar, the field's length), x and y (the field's length), pub = 04 || x ||
 * y. Ed25519, X25519: d = the 32-byte private key (Ed25519's seed), pub = the
 * 32-byte public key. pkcs8 (a private key's PKCS #8 PrivateKeyInfo) and spki
 * (SubjectPublicKeyInfo) in DER. A public key only has d, pkcs8 and the RSA
 * private components empty. */
struct cb_pk_key {
	const struct cb_algorithm *alg;
	bool has_private;
	struct cb_bytes n, e, d, p, q, dp, dq, qinv;
	struct cb_bytes x, y, pub;
	struct cb_bytes pkcs8, spki;
	char spki_sha256[65];
	void *storage; /* the bytes above (cb_pk_key_free) */
};

/* What a public-key cell's engine gets beside its message (cb_cell_setup's
 * and cb_engine_setup's `pk`): alive until the context closes. */
struct cb_pk_setup {
	const struct cb_pk_key *key;  /* sign, verify, derive: the fixed key */
	const struct cb_pk_key *peer; /* derive: the peer's public key */
	const unsigned char *digest;  /* RSA, ECDSA sign and verify: the message's digest */
	size_t digest_len;
	const unsigned char *sig; /* verify, verify-forged: the signature to check */
	size_t sig_len;
};

/* The row of ALG's scheme (core/algorithms/pk_scheme.h): ALG is a public-key algorithm
 * of the table, whose every scheme has one. */
static inline const struct cb_pk_scheme_info *cb_pk_info(const struct cb_algorithm *alg)
{
	return cb_pk_scheme_info(alg->scheme);
}

/* The bytes of one field element or scalar: (bits + 7) / 8. */
size_t cb_pk_field_len(const struct cb_algorithm *alg);
/* Bytes an engine writes for one message of LEN bytes: the digest for a hash,
 * LEN for a cipher, LEN + tag for AEAD encryption, LEN for decryption. Public
 * key: the most a signature takes (an ECDSA signature's DER says its own
 * length), the shared secret, the key pair's layout (below), or 0 for
 * verify. Here rather than in algorithm.h, which this module builds on. */
size_t cb_output_len(const struct cb_algorithm *alg, enum cb_op op, size_t len);
/* cb_output_len of a public-key ALG. */
size_t cb_pk_output_len(const struct cb_algorithm *alg, enum cb_op op);
/* keygen's output: RSA n (bits/8 bytes) then one prime p (bits/16 bytes),
 * big-endian, zero-padded on the left; ECDSA d then 04 || x || y; the raw
 * family (Ed25519, X25519) the private key then the public key. The lengths
 * of its two parts. */
void cb_pk_keygen_layout(const struct cb_algorithm *alg, size_t *first, size_t *second);
/* The digest length of ALG's hash (0: none, Ed25519). */
size_t cb_pk_digest_len(const struct cb_algorithm *alg);
/* Whether ALG's signatures are deterministic (its row says: RSA PKCS #1
 * v1.5, Ed25519): an engine's must equal the reference's byte for byte. */
bool cb_pk_deterministic(const struct cb_algorithm *alg);
/* The length of the signature at SIG (at most MAX bytes: an ECDSA DER
 * SEQUENCE says its own), or 0 when it is not one of ALG's. */
size_t cb_pk_sig_len(const struct cb_algorithm *alg, const unsigned char *sig, size_t max);

/* The fixed key of ALG's runs (PEER: the peer's public key, key agreement
 * only), made once per process and kept; NULL with ERR. */
const struct cb_pk_key *cb_pk_fixed_key(const struct cb_algorithm *alg, bool peer, char *err,
                                        size_t err_len);
/* Where the fixed keys of ALG come from, in words (the header records it). */
const char *cb_pk_key_source(const struct cb_algorithm *alg);

/* ---- The reference (OpenSSL, core/algorithms/pk_reference.c) ---- */

/* A key of ALG from DER: a PKCS #8 private key, else a SubjectPublicKeyInfo.
 * NULL with ERR. */
struct cb_pk_key *cb_pk_key_from_der(const struct cb_algorithm *alg, const unsigned char *der,
                                     size_t der_len, char *err, size_t err_len);
/* A private key from its raw form: the scalar (ECDSA, ECDH: the field's
 * length, a shorter one is padded), Ed25519's seed, X25519's 32 bytes. */
struct cb_pk_key *cb_pk_key_from_raw(const struct cb_algorithm *alg, const unsigned char *raw,
                                     size_t raw_len, char *err, size_t err_len);
/* A public key only, from its raw form: Ed25519's and X25519's 32 bytes, a
 * NIST curve's uncompressed point 04 || x || y. NULL with ERR. */
struct cb_pk_key *cb_pk_key_from_public(const struct cb_algorithm *alg, const unsigned char *raw,
                                        size_t raw_len, char *err, size_t err_len);
void cb_pk_key_free(struct cb_pk_key *key);

/* ALG's digest of MSG into OUT (cb_pk_digest_len bytes). 0, or -1 with ERR. */
int cb_pk_digest(const struct cb_algorithm *alg, const unsigned char *msg, size_t len,
                 unsigned char *out, char *err, size_t err_len);
/* The reference's signature of MSG (RSA, ECDSA: of DIGEST) with KEY into
 * SIG (CB_PK_MAX_SIG bytes), its length in *SIG_LEN. 0, or -1 with ERR. */
int cb_pk_sign(const struct cb_pk_key *key, const unsigned char *msg, size_t len,
               const unsigned char *digest, unsigned char *sig, size_t *sig_len, char *err,
               size_t err_len);
/* 1 when SIG is KEY's valid signature of MSG (DIGEST), 0 when not, -1 with
 * ERR when the reference fails. */
int cb_pk_verify(const struct cb_pk_key *key, const unsigned char *msg, size_t len,
                 const unsigned char *digest, const unsigned char *sig, size_t sig_len, char *err,
                 size_t err_len);
/* The shared secret of KEY and PEER into OUT (cb_pk_field_len bytes). 0, or
 * -1 with ERR. */
int cb_pk_derive(const struct cb_pk_key *key, const struct cb_pk_key *peer, unsigned char *out,
                 char *err, size_t err_len);
/* Whether OUT is a key pair of ALG in keygen's layout: the public part is
 * the private part's (RSA: n is p times a prime, of the size asked). 0, or
 * -1 with WHY. */
int cb_pk_check_keygen(const struct cb_algorithm *alg, const unsigned char *out, char *why,
                       size_t why_len);

/* What a cell's output must be, made once per cell (cb_pk_expect). */
struct cb_pk_expected {
	unsigned char digest[CB_PK_MAX_DIGEST];
	unsigned char sig[CB_PK_MAX_SIG]; /* the reference's signature (sign, verify) */
	size_t sig_len;
	unsigned char forged[CB_PK_MAX_SIG]; /* verify-forged: sig with one bit flipped */
	unsigned char secret[CB_PK_MAX_SECRET];
	struct cb_pk_setup setup; /* what the engine's `open` gets, pointing into this */
};

/* Prepare E for a cell of ALG and OP on the message MSG (LEN bytes): the
 * fixed keys, the digest, the reference's signature or secret. 0, or -1
 * with ERR. */
int cb_pk_expect(struct cb_pk_expected *e, const struct cb_algorithm *alg, enum cb_op op,
                 const unsigned char *msg, size_t len, char *err, size_t err_len);
/* Check one call's OUT for a cell prepared as E: a signature the reference
 * verifies (and, deterministic, equal to its own), the reference's secret,
 * a valid key pair. 0, or -1 with WHY. verify and verify-forged have no
 * output: their calls' status is the result. */
int cb_pk_check(const struct cb_pk_expected *e, const struct cb_algorithm *alg, enum cb_op op,
                const unsigned char *msg, size_t len, const unsigned char *out, char *why,
                size_t why_len);

#endif
