/* pk_scheme.c: the public-key schemes, one row each (core/algorithms/pk_scheme.h). */
#include "core/algorithms/pk_scheme.h"

#include "core/algorithms/pk_keys.h"

#define RSA_SCALING                                                                                \
	"private operation (sign, keygen) as the cube of the modulus (CRT), public "               \
	"(verify, e = 65537) as its square"
#define EC_SCALING                                                                                 \
	"a scalar multiplication of as many steps as the field's bits, each step's "               \
	"arithmetic as their square: between the square and the cube of the key size"

/* The keys of one scheme alone (the shared ones are core/algorithms/pk_keys.c's). */

/* RFC 8032 section 7.1, TEST 1: the secret key. */
static const struct cb_pk_fixed ed25519_key = {
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", NULL, false,
    "RFC 8032 section 7.1, TEST 1"};

/* Wycheproof testvectors_v1/x25519_test.json, tcId 1 ("normal case"): the
 * private key and the peer's public key. */
static const struct cb_pk_fixed x25519_key = {
    "c8a9d5a91091ad851c668b0736c1c9a02936c0d3ad62670858088047ba057475",
    "504a36999f489cd2fdbc08baff3d88fa00569ba986cba22548ffde80f9806829", false,
    "Wycheproof x25519_test.json tcId 1"};

static const struct cb_pk_scheme_info schemes[CB_PK_COUNT] =
    {
        [CB_PK_RSA_PKCS1] =
            {
                .slug = "rsa-pkcs1",
                .title = "RSA PKCS #1 v1.5",
                .family = CB_PK_FAMILY_RSA,
                .encoding = CB_PK_SIG_MODULUS,
                .deterministic = true,
                .keygen = true,
                .keygen_variable = true,
                .reference = "RSA",
                .padding = "pkcs1",
                .scaling = RSA_SCALING,
                .sizes = {{"rsa-2048-pkcs1", 2048, "sha256", NULL, &cb_pk_key_rsa2048},
                          {"rsa-3072-pkcs1", 3072, "sha256", NULL, &cb_pk_key_rsa3072},
                          {"rsa-4096-pkcs1", 4096, "sha256", NULL, &cb_pk_key_rsa4096}},
            },
        [CB_PK_RSA_PSS] =
            {
                .slug = "rsa-pss",
                .title = "RSA-PSS",
                .family = CB_PK_FAMILY_RSA,
                .encoding = CB_PK_SIG_MODULUS,
                .keygen_variable = true,
                .reference = "RSA",
                .padding = "pss",
                .scaling = RSA_SCALING,
                .sizes = {{"rsa-2048-pss", 2048, "sha256", NULL, &cb_pk_key_rsa2048},
                          {"rsa-3072-pss", 3072, "sha256", NULL, &cb_pk_key_rsa3072},
                          {"rsa-4096-pss", 4096, "sha256", NULL, &cb_pk_key_rsa4096}},
            },
        [CB_PK_ECDSA] =
            {
                .slug = "ecdsa",
                .title = "ECDSA",
                .family = CB_PK_FAMILY_NIST,
                .encoding = CB_PK_SIG_DER,
                .keygen = true,
                .reference = "EC",
                .scaling = EC_SCALING,
                .sizes = {{"ecdsa-p256", 256, "sha256", "P-256", &cb_pk_key_p256},
                          {"ecdsa-p384", 384, "sha384", "P-384", &cb_pk_key_p384},
                          {"ecdsa-p521", 521, "sha512", "P-521", &cb_pk_key_p521}},
            },
        [CB_PK_ED25519] =
            {
                .slug = "ed25519",
                .title = "Ed25519",
                .family = CB_PK_FAMILY_RAW,
                .raw_len = 32,
                .encoding = CB_PK_SIG_FIXED,
                .sig_len = 64,
                .deterministic = true,
                .keygen = true,
                .reference = "ED25519",
                .scaling = "one curve",
                .sizes = {{"ed25519", 255, NULL, NULL, &ed25519_key}},
            },
        [CB_PK_ECDH] =
            {
                .slug = "ecdh",
                .title = "ECDH",
                .agreement = true,
                .family = CB_PK_FAMILY_NIST,
                .reference = "EC",
                .scaling = EC_SCALING,
                .sizes = {{"ecdh-p256", 256, NULL, "P-256", &cb_pk_key_p256},
                          {"ecdh-p384", 384, NULL, "P-384", &cb_pk_key_p384}},
            },
        [CB_PK_X25519] =
            {
                .slug = "x25519",
                .title = "X25519",
                .agreement = true,
                .family = CB_PK_FAMILY_RAW,
                .raw_len = 32,
                .keygen = true,
                .reference = "X25519",
                .scaling = "one curve",
                .sizes = {{"x25519", 255, NULL, NULL, &x25519_key}},
            },
};

const struct cb_pk_scheme_info *cb_pk_scheme_info(enum cb_pk_scheme scheme)
{
	return scheme > CB_PK_NONE && scheme < CB_PK_COUNT && schemes[scheme].slug
	           ? &schemes[scheme]
	           : NULL;
}
