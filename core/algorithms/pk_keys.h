/* pk_keys.h: the fixed public-key test keys, and the keys more than one
 * scheme shares (core/algorithms/pk_keys.c).
 *
 * Each size of a scheme's row points at its key (struct cb_pk_size's `key`,
 * core/algorithms/pk_scheme.h). The keys here are the shared ones, one per
 * key type: RSA's moduli (PKCS #1 v1.5 and PSS sign with the same keys) and
 * the NIST curves (ECDSA and ECDH). A key of one scheme alone is defined
 * beside its row in core/algorithms/pk_scheme.c. */
#ifndef CB_PK_KEYS_H
#define CB_PK_KEYS_H

#include <stdbool.h>

/* One key type's fixed key: hex, and the peer's public key for key
 * agreement (NULL: none). Every engine signs, verifies and derives with it;
 * the run's header records its SHA-256 and its source. */
struct cb_pk_fixed {
	const char *key_hex;  /* DER PKCS #8 when der, else the raw private key */
	const char *peer_hex; /* DER SubjectPublicKeyInfo, or raw (X25519); NULL: none */
	bool der;
	const char *source; /* the published vector it comes from */
};

/* RSA, by modulus: PKCS #1 v1.5's and PSS's sizes. */
extern const struct cb_pk_fixed cb_pk_key_rsa2048, cb_pk_key_rsa3072, cb_pk_key_rsa4096;
/* The NIST curves, each with a peer: ECDSA's and ECDH's sizes. */
extern const struct cb_pk_fixed cb_pk_key_p256, cb_pk_key_p384, cb_pk_key_p521;

#endif
