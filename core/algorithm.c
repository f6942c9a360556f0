/* algorithm.c: the algorithm table and the key/IV convention. */
#include "core/algorithm.h"

#include <string.h>

#include "core/pk.h"

static const struct cb_algorithm algorithms[] = {
    {.name = "md5", .kind = CB_KIND_HASH, .digest_len = 16, .block_len = 1},
    {.name = "sha1", .kind = CB_KIND_HASH, .digest_len = 20, .block_len = 1},
    {.name = "sha256", .kind = CB_KIND_HASH, .digest_len = 32, .block_len = 1},
    {.name = "sha512", .kind = CB_KIND_HASH, .digest_len = 64, .block_len = 1},
    {.name = "blake2b-512", .kind = CB_KIND_HASH, .digest_len = 64, .block_len = 1},
    {.name = "sha3-256", .kind = CB_KIND_HASH, .digest_len = 32, .block_len = 1},
    {.name = "aes-128-cbc", .kind = CB_KIND_CIPHER, .key_len = 16, .iv_len = 16, .block_len = 16},
    {.name = "aes-256-cbc", .kind = CB_KIND_CIPHER, .key_len = 32, .iv_len = 16, .block_len = 16},
    {.name = "aes-128-ctr", .kind = CB_KIND_CIPHER, .key_len = 16, .iv_len = 16, .block_len = 1},
    {.name = "aes-256-ctr", .kind = CB_KIND_CIPHER, .key_len = 32, .iv_len = 16, .block_len = 1},
    {.name = "aes-128-gcm",
     .kind = CB_KIND_AEAD,
     .key_len = 16,
     .iv_len = 12,
     .tag_len = 16,
     .block_len = 1},
    {.name = "aes-256-gcm",
     .kind = CB_KIND_AEAD,
     .key_len = 32,
     .iv_len = 12,
     .tag_len = 16,
     .block_len = 1},
    {.name = "chacha20-poly1305",
     .kind = CB_KIND_AEAD,
     .key_len = 32,
     .iv_len = 12,
     .tag_len = 16,
     .block_len = 1},
#define RSA(b, s, n)                                                                               \
	{                                                                                          \
		.name = n, .kind = CB_KIND_SIGN, .scheme = s, .bits = b, .hash = "sha256",         \
		.block_len = 1                                                                     \
	}
    RSA(2048, CB_PK_RSA_PKCS1, "rsa-2048-pkcs1"),
    RSA(3072, CB_PK_RSA_PKCS1, "rsa-3072-pkcs1"),
    RSA(4096, CB_PK_RSA_PKCS1, "rsa-4096-pkcs1"),
    RSA(2048, CB_PK_RSA_PSS, "rsa-2048-pss"),
    RSA(3072, CB_PK_RSA_PSS, "rsa-3072-pss"),
    RSA(4096, CB_PK_RSA_PSS, "rsa-4096-pss"),
#undef RSA
#define EC(k, s, b, h, c, n)                                                                       \
	{                                                                                          \
		.name = n, .kind = k, .scheme = s, .bits = b, .hash = h, .curve = c,               \
		.block_len = 1                                                                     \
	}
    EC(CB_KIND_SIGN, CB_PK_ECDSA, 256, "sha256", "P-256", "ecdsa-p256"),
    EC(CB_KIND_SIGN, CB_PK_ECDSA, 384, "sha384", "P-384", "ecdsa-p384"),
    EC(CB_KIND_SIGN, CB_PK_ECDSA, 521, "sha512", "P-521", "ecdsa-p521"),
    EC(CB_KIND_SIGN, CB_PK_ED25519, 255, NULL, NULL, "ed25519"),
    EC(CB_KIND_KEX, CB_PK_ECDH, 256, NULL, "P-256", "ecdh-p256"),
    EC(CB_KIND_KEX, CB_PK_ECDH, 384, NULL, "P-384", "ecdh-p384"),
    EC(CB_KIND_KEX, CB_PK_X25519, 255, NULL, NULL, "x25519"),
#undef EC
};

#define N_ALGORITHMS (sizeof algorithms / sizeof algorithms[0])

static const char *const op_names[CB_OP_COUNT] = {
    [CB_OP_HASH] = "hash",
    [CB_OP_ENCRYPT] = "encrypt",
    [CB_OP_DECRYPT] = "decrypt",
    [CB_OP_DECRYPT_FORGED] = "decrypt-forged",
    [CB_OP_SIGN] = "sign",
    [CB_OP_VERIFY] = "verify",
    [CB_OP_VERIFY_FORGED] = "verify-forged",
    [CB_OP_DERIVE] = "derive",
    [CB_OP_KEYGEN] = "keygen",
};

const struct cb_algorithm *cb_algorithm_find(const char *name)
{
	for (size_t i = 0; i < N_ALGORITHMS; i++)
		if (strcmp(algorithms[i].name, name) == 0)
			return &algorithms[i];
	return NULL;
}

const struct cb_algorithm *cb_algorithm_at(size_t i)
{
	return i < N_ALGORITHMS ? &algorithms[i] : NULL;
}

size_t cb_algorithm_count(void)
{
	return N_ALGORITHMS;
}

const char *cb_op_name(enum cb_op op)
{
	return op < CB_OP_COUNT ? op_names[op] : "?";
}

int cb_op_parse(const char *name)
{
	for (int op = 0; op < CB_OP_COUNT; op++)
		if (strcmp(op_names[op], name) == 0)
			return op;
	return -1;
}

bool cb_op_applies(const struct cb_algorithm *alg, enum cb_op op)
{
	switch (op) {
	case CB_OP_HASH:
		return alg->kind == CB_KIND_HASH;
	case CB_OP_ENCRYPT:
	case CB_OP_DECRYPT:
		return alg->kind == CB_KIND_CIPHER || alg->kind == CB_KIND_AEAD;
	case CB_OP_DECRYPT_FORGED:
		return alg->kind == CB_KIND_AEAD;
	case CB_OP_SIGN:
	case CB_OP_VERIFY:
	case CB_OP_VERIFY_FORGED:
		return alg->kind == CB_KIND_SIGN;
	case CB_OP_DERIVE:
		return alg->kind == CB_KIND_KEX;
	case CB_OP_KEYGEN:
		/* One key type, one cell: RSA's pss names and ECDH's curves share
		 * the keys of the pkcs1 names and of ECDSA. */
		return alg->scheme == CB_PK_RSA_PKCS1 || alg->scheme == CB_PK_ECDSA ||
		       alg->scheme == CB_PK_ED25519 || alg->scheme == CB_PK_X25519;
	default:
		return false;
	}
}

size_t cb_output_len(const struct cb_algorithm *alg, enum cb_op op, size_t len)
{
	if (cb_alg_is_pk(alg))
		return cb_pk_output_len(alg, op);
	if (alg->kind == CB_KIND_HASH)
		return alg->digest_len;
	if (op == CB_OP_ENCRYPT)
		return len + alg->tag_len;
	return len;
}

void cb_standard_key(const struct cb_algorithm *alg, unsigned char key[CB_MAX_KEY])
{
	memset(key, 0, CB_MAX_KEY);
	for (size_t i = 0; i < alg->key_len; i++)
		key[i] = (unsigned char)i;
}

void cb_standard_iv(const struct cb_algorithm *alg, unsigned char iv[CB_MAX_IV])
{
	memset(iv, 0, CB_MAX_IV);
	for (size_t i = 0; i < alg->iv_len; i++)
		iv[i] = (unsigned char)i;
}
