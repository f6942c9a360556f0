/* pk_keys.h: the table of fixed public-key test keys (core/algorithms/pk_keys.c). */
#ifndef CB_PK_KEYS_H
#define CB_PK_KEYS_H

#include <stdbool.h>

/* One key type's fixed key: hex, and the peer's public key for key
 * agreement (NULL: none). */
struct cb_pk_fixed {
	const char *key_type; /* "rsa-2048", "P-256", "ed25519", "x25519" */
	const char *key_hex;  /* DER PKCS #8 when der, else the raw private key */
	const char *peer_hex; /* DER SubjectPublicKeyInfo, or raw (X25519); NULL: none */
	bool der;
	const char *source; /* the published vector it comes from */
};

/* The fixed key of KEY_TYPE, or NULL. */
const struct cb_pk_fixed *cb_pk_fixed_find(const char *key_type);

#endif
