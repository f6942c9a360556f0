/* algorithm.c: the algorithm table and the key/IV convention. */
#include "core/algorithms/algorithm.h"

#include <pthread.h>
#include <string.h>

#include "core/algorithms/pk_scheme.h"

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
};

#define N_SYMMETRIC (sizeof algorithms / sizeof algorithms[0])

/* The public-key algorithms: each size of each scheme's row, in the table's
 * order, made once. */
static struct cb_algorithm pk_rows[CB_PK_COUNT * CB_PK_MAX_SIZES];
static size_t n_pk_rows;
static pthread_once_t pk_rows_once = PTHREAD_ONCE_INIT;

static void pk_rows_make(void)
{
	for (int scheme = CB_PK_NONE + 1; scheme < CB_PK_COUNT; scheme++) {
		const struct cb_pk_scheme_info *info = cb_pk_scheme_info((enum cb_pk_scheme)scheme);

		for (size_t k = 0; info && k < CB_PK_MAX_SIZES && info->sizes[k].name; k++)
			pk_rows[n_pk_rows++] = (struct cb_algorithm){
			    .name = info->sizes[k].name,
			    .kind = info->agreement ? CB_KIND_KEX : CB_KIND_SIGN,
			    .block_len = 1,
			    .scheme = (enum cb_pk_scheme)scheme,
			    .bits = info->sizes[k].bits,
			    .hash = info->sizes[k].hash,
			    .curve = info->sizes[k].curve,
			};
	}
}

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
	for (size_t i = 0; i < cb_algorithm_count(); i++)
		if (strcmp(cb_algorithm_at(i)->name, name) == 0)
			return cb_algorithm_at(i);
	return NULL;
}

const struct cb_algorithm *cb_algorithm_at(size_t i)
{
	pthread_once(&pk_rows_once, pk_rows_make);
	return i < N_SYMMETRIC               ? &algorithms[i]
	       : i < N_SYMMETRIC + n_pk_rows ? &pk_rows[i - N_SYMMETRIC]
	                                     : NULL;
}

size_t cb_algorithm_count(void)
{
	pthread_once(&pk_rows_once, pk_rows_make);
	return N_SYMMETRIC + n_pk_rows;
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
		 * the keys of the pkcs1 names and of ECDSA (the rows' keygen). */
		return cb_alg_is_pk(alg) && cb_pk_scheme_info(alg->scheme)->keygen;
	default:
		return false;
	}
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
