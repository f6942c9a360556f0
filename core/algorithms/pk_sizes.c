/* pk_sizes.c: the sizes of public-key cells' fields and outputs (pk.h),
 * from the scheme's row alone: what the fixed keys, the reference and every
 * engine build on, so that none of them calls back into another. */
#include "core/algorithms/pk.h"

#include <stddef.h>
#include <string.h>

size_t cb_pk_field_len(const struct cb_algorithm *alg)
{
	return (alg->bits + 7) / 8;
}

size_t cb_pk_digest_len(const struct cb_algorithm *alg)
{
	if (!alg->hash)
		return 0;
	return strcmp(alg->hash, "sha256") == 0 ? 32 : strcmp(alg->hash, "sha384") == 0 ? 48 : 64;
}

bool cb_pk_deterministic(const struct cb_algorithm *alg)
{
	return cb_pk_info(alg)->deterministic;
}

/* The longest DER SEQUENCE of two INTEGERs of FIELD bytes each (a leading
 * zero byte each, and a long-form length past 127 bytes). */
static size_t ecdsa_der_max(size_t field)
{
	size_t body = 2 * (field + 3);

	return body + (body > 127 ? 3 : 2);
}

void cb_pk_keygen_layout(const struct cb_algorithm *alg, size_t *first, size_t *second)
{
	const struct cb_pk_scheme_info *info = cb_pk_info(alg);
	size_t f = cb_pk_field_len(alg);

	if (info->family == CB_PK_FAMILY_RSA) {
		*first = alg->bits / 8;
		*second = alg->bits / 16;
	} else if (info->family == CB_PK_FAMILY_NIST) {
		*first = f;
		*second = 1 + 2 * f;
	} else {
		*first = *second = info->raw_len;
	}
}

/* The most bytes a signature of ALG takes. */
static size_t sig_max(const struct cb_algorithm *alg)
{
	const struct cb_pk_scheme_info *info = cb_pk_info(alg);

	return info->encoding == CB_PK_SIG_DER     ? ecdsa_der_max(cb_pk_field_len(alg))
	       : info->encoding == CB_PK_SIG_FIXED ? info->sig_len
	                                           : alg->bits / 8;
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

size_t cb_pk_output_len(const struct cb_algorithm *alg, enum cb_op op)
{
	size_t a, b;

	switch (op) {
	case CB_OP_SIGN:
		return sig_max(alg);
	case CB_OP_DERIVE:
		return cb_pk_info(alg)->family == CB_PK_FAMILY_RAW ? cb_pk_info(alg)->raw_len
		                                                   : cb_pk_field_len(alg);
	case CB_OP_KEYGEN:
		cb_pk_keygen_layout(alg, &a, &b);
		return a + b;
	default:
		return 0;
	}
}

/* The length of the DER element at P (at most MAX bytes), 0 when it is not
 * a definite-length element that fits. */
static size_t der_len(const unsigned char *p, size_t max)
{
	size_t len, head;

	if (max < 2)
		return 0;
	if (p[1] < 0x80) {
		len = p[1];
		head = 2;
	} else if (p[1] == 0x81 && max >= 3 && p[2] >= 0x80) {
		len = p[2];
		head = 3;
	} else {
		return 0;
	}
	return head + len <= max ? head + len : 0;
}

size_t cb_pk_sig_len(const struct cb_algorithm *alg, const unsigned char *sig, size_t max)
{
	size_t n = cb_pk_output_len(alg, CB_OP_SIGN);

	if (cb_pk_info(alg)->encoding != CB_PK_SIG_DER)
		return n <= max ? n : 0;
	if (max > n)
		max = n;
	return max >= 2 && sig[0] == 0x30 ? der_len(sig, max) : 0;
}
