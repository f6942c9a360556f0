/* reference.h: what every engine's output is checked against.
 *
 * Expected outputs come from OpenSSL libcrypto's EVP interface, called here
 * outside every engine and every timed region (tests check this path against
 * the standards' known answers). An engine's trial is valid only when its
 * output matches. Large ciphertexts are never kept whole: a cell keeps the
 * SHA-256 of its expected output, so memory stays at input + output. */
#ifndef CB_REFERENCE_H
#define CB_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "core/algorithms/algorithm.h"

/* The name libcrypto's default provider fetches ALG by ("AES-128-GCM"), or
 * NULL when ALG has none. The reference and the openssl engine share it. */
const char *cb_reference_evp_name(const struct cb_algorithm *alg);

struct cb_expected {
	unsigned char digest[CB_MAX_DIGEST]; /* hash: the digest */
	unsigned char tag[CB_MAX_TAG];       /* AEAD: the tag of the message */
	unsigned char head[8];               /* first 8 bytes of the output */
	size_t head_len;                     /* < 8 only for tiny outputs */
	char output_sha256[65];              /* SHA-256 of the whole output (ct || tag) */
};

/* The expected output of one message of LEN bytes from IN with ALG, OP (hash
 * or encrypt), KEY and IV, without associated data. 0, or -1 with ERR. */
int cb_reference_message(const struct cb_algorithm *alg, const unsigned char *key,
                         const unsigned char *iv, const unsigned char *in, size_t len,
                         struct cb_expected *expected, char *err, size_t err_len);

/* Stream mode: CALLS messages of LEN bytes from IN fed to one context. For a
 * hash, the digest of IN repeated CALLS times; for CBC/CTR, EXPECTED->head and
 * output_sha256 describe the LAST call's output, encrypting or (OP decrypt)
 * decrypting. 0, or -1 with ERR. */
int cb_reference_stream(const struct cb_algorithm *alg, enum cb_op op, const unsigned char *key,
                        const unsigned char *iv, const unsigned char *in, size_t len,
                        uint64_t calls, struct cb_expected *expected, char *err, size_t err_len);

/* Encrypt LEN bytes of IN into OUT (LEN bytes) and, for AEAD, TAG: the input
 * of decrypt cells. 0, or -1 with ERR. */
int cb_reference_encrypt(const struct cb_algorithm *alg, const unsigned char *key,
                         const unsigned char *iv, const unsigned char *in, size_t len,
                         unsigned char *out, unsigned char tag[CB_MAX_TAG], char *err,
                         size_t err_len);

#endif
