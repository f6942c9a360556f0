/* algorithm.h: the canonical algorithms and operations cryptobench measures.
 *
 * Names are lower case and carry the key length ("aes-256-gcm"). The table is
 * data: adding an algorithm is one row here and a case in each engine that
 * offers it. The public-key algorithms are the sizes of the schemes' rows
 * (core/algorithms/pk_scheme.c), after the others. */
#ifndef CB_ALGORITHM_H
#define CB_ALGORITHM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/algorithms/pk_scheme.h" /* enum cb_pk_scheme */

enum cb_alg_kind {
	CB_KIND_HASH,   /* message -> digest */
	CB_KIND_CIPHER, /* unauthenticated block or stream mode (CBC, CTR) */
	CB_KIND_AEAD,   /* ciphertext followed by a tag */
	CB_KIND_SIGN,   /* public key: a signature of a message (core/algorithms/pk.h) */
	CB_KIND_KEX,    /* public key: a shared secret from a private key and a peer's public key */
};

enum cb_op {
	CB_OP_HASH,
	CB_OP_ENCRYPT,
	CB_OP_DECRYPT,
	CB_OP_DECRYPT_FORGED, /* AEAD only: a tag with one bit flipped must be rejected */
	CB_OP_SIGN,   /* sign the message (RSA, ECDSA: its digest, made outside the timing) */
	CB_OP_VERIFY, /* verify the reference's signature of the message: must accept */
	CB_OP_VERIFY_FORGED, /* that signature with one bit flipped: must reject */
	CB_OP_DERIVE,        /* the shared secret of the fixed key and the fixed peer */
	CB_OP_KEYGEN,        /* a new key pair (RSA: slow and variable by nature) */
	CB_OP_COUNT
};

#define CB_MAX_DIGEST 64
#define CB_MAX_KEY 32
#define CB_MAX_IV 16
#define CB_MAX_TAG 16
/* Extra room an output buffer needs beyond the payload: a digest or a tag. */
#define CB_OUTPUT_SLACK 64

struct cb_algorithm {
	const char *name; /* canonical: "sha256", "aes-128-cbc", ... */
	enum cb_alg_kind kind;
	size_t digest_len; /* hashes */
	size_t key_len;    /* ciphers */
	size_t iv_len;     /* 16 for CBC/CTR, 12 for AEAD nonces */
	size_t tag_len;    /* AEAD */
	size_t block_len;  /* a payload must be a multiple of this (CBC: 16; else 1) */
	/* Public key (kinds sign and kex) only; added at the end (the plug-in ABI). */
	enum cb_pk_scheme scheme;
	unsigned bits;     /* the modulus (RSA) or the curve's field size in bits */
	const char *hash;  /* the hash of RSA and ECDSA ("sha256"), NULL for the rest */
	const char *curve; /* "P-256", "P-384", "P-521" (ECDSA, ECDH), NULL for the rest */
};

/* The algorithm called NAME, or NULL. Thread-safe, as are the two below. */
const struct cb_algorithm *cb_algorithm_find(const char *name);
/* The I-th algorithm of the table, or NULL past its end. */
const struct cb_algorithm *cb_algorithm_at(size_t i);
size_t cb_algorithm_count(void);

/* Whether ALG is a public-key algorithm (kind sign or kex): its cells count
 * operations, not bytes. */
static inline bool cb_alg_is_pk(const struct cb_algorithm *alg)
{
	return alg->kind == CB_KIND_SIGN || alg->kind == CB_KIND_KEX;
}

/* "hash", "encrypt", "decrypt", "decrypt-forged", "sign", "verify",
 * "verify-forged", "derive", "keygen"; and back (-1 when unknown). */
const char *cb_op_name(enum cb_op op);
int cb_op_parse(const char *name);
/* Whether OP makes sense for ALG (hash for hashes; encrypt and decrypt for
 * ciphers; decrypt-forged only for AEAD; sign, verify and verify-forged for
 * signatures; derive for key agreement; keygen for each public-key scheme's
 * key type once: RSA under its pkcs1 names, the NIST curves under ECDSA's). */
bool cb_op_applies(const struct cb_algorithm *alg, enum cb_op op);

/* cb_output_len, the bytes an engine writes for one message: pk.h, which
 * knows the public-key outputs as well. */

/* The published convention: a key is 00 01 02 ... of its length; a CBC/CTR IV
 * is 00 .. 0f; an AEAD nonce is 00 .. 0b. */
void cb_standard_key(const struct cb_algorithm *alg, unsigned char key[CB_MAX_KEY]);
void cb_standard_iv(const struct cb_algorithm *alg, unsigned char iv[CB_MAX_IV]);

#endif
