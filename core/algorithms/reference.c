/* reference.c: expected outputs from libcrypto's EVP interface. */
#include "core/algorithms/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "core/base/errbuf.h"
#include "core/algorithms/input.h"

/* Work in pieces of this size so a 128 MiB ciphertext never exists whole. */
#define PIECE (1u << 20)

/* Canonical name -> the name libcrypto's default provider fetches. */
static const struct {
	const char *ours, *evp;
} evp_names[] = {
    {"md5", "MD5"},
    {"sha1", "SHA1"},
    {"sha256", "SHA256"},
    {"sha512", "SHA512"},
    {"blake2b-512", "BLAKE2B-512"},
    {"sha3-256", "SHA3-256"},
    {"aes-128-cbc", "AES-128-CBC"},
    {"aes-256-cbc", "AES-256-CBC"},
    {"aes-128-ctr", "AES-128-CTR"},
    {"aes-256-ctr", "AES-256-CTR"},
    {"aes-128-gcm", "AES-128-GCM"},
    {"aes-256-gcm", "AES-256-GCM"},
    {"chacha20-poly1305", "ChaCha20-Poly1305"},
};

const char *cb_reference_evp_name(const struct cb_algorithm *alg)
{
	for (size_t i = 0; alg && i < sizeof evp_names / sizeof evp_names[0]; i++)
		if (strcmp(evp_names[i].ours, alg->name) == 0)
			return evp_names[i].evp;
	return NULL;
}

static int fail(char *err, size_t err_len, const char *what, const struct cb_algorithm *alg)
{
	cb_errorf(err, err_len, "reference: %s failed for %s", what, alg->name);
	return -1;
}

/* A cipher context at the start of a message: key, IV or nonce, no padding. */
static EVP_CIPHER_CTX *cipher_start(const struct cb_algorithm *alg, const unsigned char *key,
                                    const unsigned char *iv, int encrypt)
{
	EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, cb_reference_evp_name(alg), NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int ok = cipher && ctx && EVP_CipherInit_ex(ctx, cipher, NULL, NULL, NULL, encrypt);

	if (ok && alg->kind == CB_KIND_AEAD)
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)alg->iv_len, NULL);
	ok = ok && EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, encrypt) &&
	     EVP_CIPHER_CTX_set_padding(ctx, 0);
	EVP_CIPHER_free(cipher);
	if (!ok) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* Encrypt LEN bytes piece by piece; each piece goes to SINK (OUT when
 * given, else a scratch buffer) and into the running SHA-256 of the output. */
static int encrypt_pieces(EVP_CIPHER_CTX *ctx, const unsigned char *in, size_t len,
                          unsigned char *out, EVP_MD_CTX *sha, struct cb_expected *e)
{
	unsigned char *scratch = out ? NULL : malloc(PIECE + 32);
	size_t done = 0;

	if (!out && !scratch)
		return -1;
	while (done < len) {
		size_t n = len - done < PIECE ? len - done : PIECE;
		unsigned char *sink = out ? out + done : scratch;
		int got = 0;

		if (!EVP_CipherUpdate(ctx, sink, &got, in + done, (int)n) || (size_t)got != n) {
			free(scratch);
			return -1;
		}
		if (sha)
			EVP_DigestUpdate(sha, sink, n);
		if (done == 0 && e) {
			e->head_len = n < 8 ? n : 8;
			memcpy(e->head, sink, e->head_len);
		}
		done += n;
	}
	free(scratch);
	return 0;
}

static void finish_sha(EVP_MD_CTX *sha, struct cb_expected *e)
{
	unsigned char md[32];
	unsigned int md_len = 0;

	EVP_DigestFinal_ex(sha, md, &md_len);
	cb_hex(md, 32, e->output_sha256);
}

static int cipher_message(const struct cb_algorithm *alg, const unsigned char *key,
                          const unsigned char *iv, const unsigned char *in, size_t len,
                          unsigned char *out, struct cb_expected *e)
{
	EVP_CIPHER_CTX *ctx = cipher_start(alg, key, iv, 1);
	EVP_MD_CTX *sha = EVP_MD_CTX_new();
	unsigned char final[32];
	int got = 0, rc = -1;

	if (!ctx || !sha || !EVP_DigestInit_ex(sha, EVP_sha256(), NULL))
		goto done;
	if (encrypt_pieces(ctx, in, len, out, sha, e) != 0)
		goto done;
	if (!EVP_CipherFinal_ex(ctx, final, &got) || got != 0)
		goto done;
	if (alg->kind == CB_KIND_AEAD) {
		if (!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)alg->tag_len, e->tag))
			goto done;
		EVP_DigestUpdate(sha, e->tag, alg->tag_len);
		if (len < 8) { /* a tiny message: the tag follows in the head */
			size_t more = 8 - len < alg->tag_len ? 8 - len : alg->tag_len;
			memcpy(e->head + len, e->tag, more);
			e->head_len = len + more;
		}
	}
	finish_sha(sha, e);
	rc = 0;
done:
	EVP_CIPHER_CTX_free(ctx);
	EVP_MD_CTX_free(sha);
	return rc;
}

static int hash_stream(const struct cb_algorithm *alg, const unsigned char *in, size_t len,
                       uint64_t calls, struct cb_expected *e)
{
	EVP_MD *md = EVP_MD_fetch(NULL, cb_reference_evp_name(alg), NULL);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int md_len = 0;
	int ok = md && ctx && EVP_DigestInit_ex(ctx, md, NULL);

	for (uint64_t i = 0; ok && i < calls; i++)
		ok = EVP_DigestUpdate(ctx, in, len);
	ok = ok && EVP_DigestFinal_ex(ctx, e->digest, &md_len) && md_len == alg->digest_len;
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	if (!ok)
		return -1;
	e->head_len = 8;
	memcpy(e->head, e->digest, 8);
	cb_sha256_hex(e->digest, alg->digest_len, e->output_sha256);
	return 0;
}

int cb_reference_message(const struct cb_algorithm *alg, const unsigned char *key,
                         const unsigned char *iv, const unsigned char *in, size_t len,
                         struct cb_expected *expected, char *err, size_t err_len)
{
	memset(expected, 0, sizeof *expected);
	if (!cb_reference_evp_name(alg))
		return fail(err, err_len, "lookup", alg);
	if (alg->kind == CB_KIND_HASH)
		return hash_stream(alg, in, len, 1, expected) == 0
		           ? 0
		           : fail(err, err_len, "hash", alg);
	if (cipher_message(alg, key, iv, in, len, NULL, expected) != 0)
		return fail(err, err_len, "encryption", alg);
	return 0;
}

int cb_reference_stream(const struct cb_algorithm *alg, enum cb_op op, const unsigned char *key,
                        const unsigned char *iv, const unsigned char *in, size_t len,
                        uint64_t calls, struct cb_expected *expected, char *err, size_t err_len)
{
	EVP_CIPHER_CTX *ctx;
	EVP_MD_CTX *sha;
	int rc = 0;

	memset(expected, 0, sizeof *expected);
	if (!cb_reference_evp_name(alg) || alg->kind == CB_KIND_AEAD)
		return fail(err, err_len, "stream lookup", alg);
	if (alg->kind == CB_KIND_HASH)
		return hash_stream(alg, in, len, calls, expected) == 0
		           ? 0
		           : fail(err, err_len, "stream hash", alg);
	ctx = cipher_start(alg, key, iv, op != CB_OP_DECRYPT);
	sha = EVP_MD_CTX_new();
	if (!ctx || !sha) {
		rc = -1;
		goto done;
	}
	/* Every call but the last only advances the chain; the last is hashed. */
	for (uint64_t i = 0; rc == 0 && i + 1 < calls; i++)
		rc = encrypt_pieces(ctx, in, len, NULL, NULL, NULL);
	if (rc == 0 && EVP_DigestInit_ex(sha, EVP_sha256(), NULL))
		rc = encrypt_pieces(ctx, in, len, NULL, sha, expected);
	if (rc == 0)
		finish_sha(sha, expected);
done:
	EVP_CIPHER_CTX_free(ctx);
	EVP_MD_CTX_free(sha);
	return rc == 0 ? 0 : fail(err, err_len, "stream encryption", alg);
}

int cb_reference_encrypt(const struct cb_algorithm *alg, const unsigned char *key,
                         const unsigned char *iv, const unsigned char *in, size_t len,
                         unsigned char *out, unsigned char tag[CB_MAX_TAG], char *err,
                         size_t err_len)
{
	struct cb_expected e;

	if (!cb_reference_evp_name(alg) || alg->kind == CB_KIND_HASH)
		return fail(err, err_len, "lookup", alg);
	memset(&e, 0, sizeof e);
	if (cipher_message(alg, key, iv, in, len, out, &e) != 0)
		return fail(err, err_len, "encryption", alg);
	memcpy(tag, e.tag, CB_MAX_TAG);
	return 0;
}
