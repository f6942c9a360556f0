/* pk_scheme.h: the public-key schemes, one row each (core/algorithms/pk_scheme.c).
 *
 * Everything the code knows about a scheme is in its row: its names, sign or
 * key agreement, its key family and sizes (each size one canonical
 * algorithm), its signature's encoding, whether it is deterministic, what
 * the reference calls its keys, how its cost grows with the key, each size's
 * fixed key. The rest of the code asks the row (cb_pk_scheme_info) and never
 * switches on a scheme. Adding a scheme is its enum value and its row (with
 * its key, beside the row unless it shares one of core/algorithms/pk_keys.h),
 * and each engine half that offers it (core/engines/NAME_pk.c).
 *
 * This header depends on nothing else of core: core/algorithms/algorithm.h includes it
 * for the enum, and builds its public-key rows from the sizes below. */
#ifndef CB_PK_SCHEME_H
#define CB_PK_SCHEME_H

#include <stdbool.h>
#include <stddef.h>

/* The values are part of the plug-in ABI (struct cb_algorithm's `scheme`):
 * a new scheme goes before CB_PK_COUNT, never between the others. */
enum cb_pk_scheme {
	CB_PK_NONE,
	CB_PK_RSA_PKCS1, /* RSASSA-PKCS1-v1_5 (RFC 8017 8.2), deterministic */
	CB_PK_RSA_PSS, /* RSASSA-PSS (RFC 8017 8.1), MGF1 with the same hash, salt = hash length */
	CB_PK_ECDSA,   /* FIPS 186-5 ECDSA, DER-encoded (r, s), randomized */
	CB_PK_ED25519, /* RFC 8032 pure Ed25519, deterministic */
	CB_PK_ECDH,    /* SP 800-56A ECDH on a NIST curve: the x coordinate */
	CB_PK_X25519,  /* RFC 7748 X25519 */
	CB_PK_COUNT
};

/* How a scheme's keys are made and handed to engines (core/algorithms/pk.h's struct
 * cb_pk_key says which parts each has). */
enum cb_pk_family {
	CB_PK_FAMILY_RSA,  /* n, e and the private components; keys in DER */
	CB_PK_FAMILY_NIST, /* a NIST curve: the scalar d, the point 04 || x || y; keys in DER */
	CB_PK_FAMILY_RAW,  /* RFC 7748 and 8032: raw private and public keys of raw_len bytes */
};

/* How a signature is written. */
enum cb_pk_encoding {
	CB_PK_SIG_NONE,    /* key agreement: no signature */
	CB_PK_SIG_MODULUS, /* the modulus's length (RSA) */
	CB_PK_SIG_DER,     /* a DER SEQUENCE of r and s, as long as it says (ECDSA) */
	CB_PK_SIG_FIXED,   /* sig_len bytes (Ed25519: R || S) */
};

struct cb_pk_fixed; /* a fixed key (core/algorithms/pk_keys.h) */

/* One key size of a scheme: one canonical algorithm. */
struct cb_pk_size {
	const char *name;  /* "rsa-2048-pkcs1", "ecdsa-p256", "ed25519" */
	unsigned bits;     /* the modulus (RSA) or the curve's field size in bits */
	const char *hash;  /* the digest it signs ("sha256"); NULL: the scheme hashes inside */
	const char *curve; /* "P-256", "P-384", "P-521" (the NIST family), else NULL */
	/* The key its runs sign, verify and derive with (core/algorithms/pk.c
	 * decodes it), from a published test vector. */
	const struct cb_pk_fixed *key;
};

#define CB_PK_MAX_SIZES 4

struct cb_pk_scheme_info {
	const char *slug;  /* "rsa-pkcs1": the word of chart names (keysize-SLUG-OP) */
	const char *title; /* "RSA PKCS #1 v1.5": in words */
	bool agreement;    /* key agreement (kind kex: derive); else signatures (kind sign) */
	enum cb_pk_family family;
	size_t raw_len; /* the raw family: bytes of a private key, a public key, a secret */
	enum cb_pk_encoding encoding;
	size_t sig_len;     /* CB_PK_SIG_FIXED: the signature's bytes */
	bool deterministic; /* an engine's signature must equal the reference's byte for byte */
	/* Its own keygen cell; false where the key type is another scheme's
	 * (RSA-PSS uses PKCS #1's keys, ECDH ECDSA's curves). */
	bool keygen;
	bool keygen_variable; /* keygen's time varies by nature (RSA's prime search) */
	/* The reference (core/algorithms/pk_reference.c, libcrypto's EVP): its key type's
	 * name, and for RSA the padding mode's ("pkcs1", "pss"). */
	const char *reference;
	const char *padding;
	/* How an operation's cost grows with the key, in words (doc/method.md,
	 * "Scaling against theory"; the keysize charts' guides of slope -2
	 * and -3). */
	const char *scaling;
	struct cb_pk_size sizes[CB_PK_MAX_SIZES]; /* ascending; ends at a NULL name */
};

/* The row of SCHEME; NULL for CB_PK_NONE or a value past the table. */
const struct cb_pk_scheme_info *cb_pk_scheme_info(enum cb_pk_scheme scheme);

#endif
