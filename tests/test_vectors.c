/* test_vectors.c: the known-answer vector files, their reader, and every
 * vector through every compiled-in crypto engine.
 *
 * Usage: test_vectors [VECTORS_DIR] (default: where `verify` reads them,
 * core/base/datadir.h). */
#include "config.h"

#include "tests/tap.h"

#include "core/algorithms/pk_keys.h"
#include "core/base/datadir.h"
#include "core/engine/engine.h"
#include "core/check/vectors.h"
#include "core/check/verify.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *file;
	size_t count;
} expected_counts[] = {
    {"fips180-sha.vec", 9},
    {"fips202-sha3.vec", 3},
    {"gcm-spec.vec", 8},
    {"rfc1321-md5.vec", 7},
    {"rfc7693-blake2b.vec", 1},
    {"rfc8032-ed25519.vec", 3},
    {"rfc8439-chacha20-poly1305.vec", 1},
    {"sp800-38a-aes.vec", 8},
    {"wycheproof-ecdh-secp256r1.vec", 2},
    {"wycheproof-ecdh-secp384r1.vec", 2},
    {"wycheproof-ecdsa-secp256r1-sha256.vec", 2},
    {"wycheproof-ecdsa-secp384r1-sha384.vec", 2},
    {"wycheproof-ecdsa-secp521r1-sha512.vec", 2},
    {"wycheproof-ed25519.vec", 2},
    {"wycheproof-rsa-pkcs1-2048-sig-gen.vec", 2},
    {"wycheproof-rsa-pkcs1-3072-sig-gen.vec", 2},
    {"wycheproof-rsa-pkcs1-4096-sig-gen.vec", 2},
    {"wycheproof-rsa-pss-2048-sha256-mgf1-32.vec", 2},
    {"wycheproof-rsa-pss-3072-sha256-mgf1-32.vec", 2},
    {"wycheproof-rsa-pss-4096-sha256-mgf1-32.vec", 2},
    {"wycheproof-rsa-signature-2048-sha256.vec", 2},
    {"wycheproof-rsa-signature-3072-sha256.vec", 2},
    {"wycheproof-rsa-signature-4096-sha256.vec", 2},
    {"wycheproof-x25519.vec", 2},
};

/* The public-key vectors per algorithm: signing, valid and invalid
 * verification, key agreement. */
static const struct {
	const char *algorithm;
	unsigned sign, valid, invalid, derive;
} pk_counts[] = {
    {"rsa-2048-pkcs1", 2, 1, 1, 0}, {"rsa-3072-pkcs1", 2, 1, 1, 0}, {"rsa-4096-pkcs1", 2, 1, 1, 0},
    {"rsa-2048-pss", 0, 1, 1, 0},   {"rsa-3072-pss", 0, 1, 1, 0},   {"rsa-4096-pss", 0, 1, 1, 0},
    {"ecdsa-p256", 0, 1, 1, 0},     {"ecdsa-p384", 0, 1, 1, 0},     {"ecdsa-p521", 0, 1, 1, 0},
    {"ed25519", 3, 1, 1, 0},        {"ecdh-p256", 0, 0, 0, 2},      {"ecdh-p384", 0, 0, 0, 2},
    {"x25519", 0, 0, 0, 2},
};

#define N_PK_ALGORITHMS (sizeof pk_counts / sizeof pk_counts[0])

#define N_FILES (sizeof expected_counts / sizeof expected_counts[0])

static char scratch[] = "/tmp/test_vectors.XXXXXX";

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static const struct cb_vector *find_vector(const struct cb_vector_set *set, const char *name)
{
	for (size_t f = 0; f < set->count; f++)
		for (size_t i = 0; i < set->files[f].count; i++)
			if (strcmp(set->files[f].vectors[i].name, name) == 0)
				return &set->files[f].vectors[i];
	return NULL;
}

/* tap.h's is_str tests its pointer for NULL; an array would always pass. */
static const char *text_of(const char *buffer)
{
	return buffer;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Show a report as TAP diagnostics. */
static void diag_text(const char *text)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)strlen(line);

		printf("# %.*s\n", len, line);
		line = end ? end + 1 : NULL;
	}
}

static bool all_bytes(const unsigned char *buf, size_t len, unsigned char byte)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != byte)
			return false;
	return true;
}

static void check_files(const struct cb_vector_set *set)
{
	is_num(set->count, N_FILES, "%zu vector files", N_FILES);
	for (size_t f = 0; f < set->count && f < N_FILES; f++) {
		const struct cb_vector_file *file = &set->files[f];
		bool sourced = true;

		is_str(base_name(file->path), expected_counts[f].file, "file %zu is %s", f,
		       expected_counts[f].file);
		is_num(file->count, expected_counts[f].count, "%s holds %zu vectors",
		       expected_counts[f].file, expected_counts[f].count);
		for (size_t i = 0; i < file->count; i++)
			sourced = sourced && file->vectors[i].source && file->vectors[i].source[0];
		ok(sourced, "every vector of %s names its source", expected_counts[f].file);
	}
	is_num(cb_vectors_total(set), 72, "72 vectors in all");
}

/* What the reader made of the less plain fields. */
static void check_parsed(const struct cb_vector_set *set)
{
	const struct cb_vector *v;

	v = find_vector(set, "SHA-256 one million 'a'");
	ok(v && v->msg_len == 1000000 && all_bytes(v->msg, v->msg_len, 'a'),
	   "text = \"a\" with repeat = 1000000 is one million 'a'");
	v = find_vector(set, "SHA3-256 1600-bit message");
	ok(v && v->msg_len == 200 && all_bytes(v->msg, v->msg_len, 0xa3), "msg = a3, repeat = 200");
	v = find_vector(set, "SHA3-256 empty message");
	ok(v && v->msg_len == 0 && v->msg != NULL, "an empty msg is zero bytes, not NULL");
	v = find_vector(set, "SHA-512 \"abc\"");
	ok(v && v->digest[0] == 0xdd && v->digest[63] == 0x9f,
	   "a digest continued on the next line");
	v = find_vector(set, "F.2.2 CBC-AES128.Decrypt");
	ok(v && v->op == CB_OP_DECRYPT && v->msg_len == 64 && v->ciphertext[63] == 0xa7,
	   "op = decrypt, 64 bytes over four lines");
	v = find_vector(set, "GCM Test Case 4");
	ok(v && cb_vector_has_aad(v) && v->aad_len == 20 && v->aad[19] == 0xd2 && v->msg_len == 60,
	   "GCM test case 4: 20 bytes of aad, 60 of message");
	v = find_vector(set, "GCM Test Case 3");
	ok(v && !cb_vector_has_aad(v) && v->aad == NULL, "GCM test case 3 has no aad");
	v = find_vector(set, "RFC 8439 2.8.2 AEAD example");
	ok(v && v->msg_len == 114 && v->iv[0] == 0x07 && v->iv[4] == 0x40 && v->aad_len == 12 &&
	       memcmp(v->msg, "Ladies and Gentlemen", 20) == 0 && v->tag[15] == 0x91,
	   "RFC 8439: spaced hex, nonce 07000000 || IV, 114-byte plaintext");
	ok(v && v->source && strstr(v->source, "RFC 8439, Section 2.8.2"), "its source is kept");
}

/* The public-key vectors: how many of each kind per algorithm, and each
 * checked by the reference (core/algorithms/pk.h), whatever engine is built. */
static void check_pk_counts(const struct cb_vector_set *set)
{
	for (size_t a = 0; a < N_PK_ALGORITHMS; a++) {
		unsigned sign = 0, valid = 0, invalid = 0, derive = 0;

		for (size_t f = 0; f < set->count; f++)
			for (size_t i = 0; i < set->files[f].count; i++) {
				const struct cb_vector *v = &set->files[f].vectors[i];

				if (strcmp(v->alg->name, pk_counts[a].algorithm) != 0)
					continue;
				sign += v->op == CB_OP_SIGN;
				valid += v->op == CB_OP_VERIFY && v->valid;
				invalid += v->op == CB_OP_VERIFY && !v->valid;
				derive += v->op == CB_OP_DERIVE;
			}
		ok(sign == pk_counts[a].sign && valid == pk_counts[a].valid &&
		       invalid == pk_counts[a].invalid && derive == pk_counts[a].derive,
		   "%s: %u signing, %u valid and %u invalid verification, %u key agreement vectors",
		   pk_counts[a].algorithm, pk_counts[a].sign, pk_counts[a].valid,
		   pk_counts[a].invalid, pk_counts[a].derive);
	}
}

/* One vector against the reference: 0, or -1 with WHY. */
static int pk_reference_check(const struct cb_vector *v, char *why, size_t why_len)
{
	const unsigned char *digest = cb_pk_digest_len(v->alg) ? v->digest : NULL;
	unsigned char out[CB_PK_MAX_SIG];
	size_t n = 0;
	char err[256] = "";
	int verdict;

	switch (v->op) {
	case CB_OP_SIGN:
		if (cb_pk_sign(v->pk_key, v->msg, v->msg_len, digest, out, &n, err, sizeof err) !=
		        0 ||
		    n != v->signature_len || memcmp(out, v->signature, n) != 0) {
			snprintf(why, why_len, "the reference signs otherwise%s%s",
			         *err ? ": " : "", err);
			return -1;
		}
		/* and the vector's signature verifies: */
		__attribute__((fallthrough));
	case CB_OP_VERIFY:
		verdict = cb_pk_verify(v->pk_key, v->msg, v->msg_len, digest, v->signature,
		                       v->signature_len, err, sizeof err);
		if (verdict == (v->valid ? 1 : 0))
			return 0;
		snprintf(why, why_len, "the reference %s it%s%s",
		         verdict == 1   ? "accepts"
		         : verdict == 0 ? "rejects"
		                        : "fails on",
		         *err ? ": " : "", err);
		return -1;
	case CB_OP_DERIVE:
		if (cb_pk_derive(v->pk_key, v->pk_peer, out, err, sizeof err) == 0 &&
		    memcmp(out, v->shared, cb_pk_output_len(v->alg, CB_OP_DERIVE)) == 0)
			return 0;
		snprintf(why, why_len, "the reference derives otherwise%s%s", *err ? ": " : "",
		         err);
		return -1;
	default:
		snprintf(why, why_len, "not a public-key operation");
		return -1;
	}
}

static void check_pk_reference(const struct cb_vector_set *set)
{
	for (size_t f = 0; f < set->count; f++)
		for (size_t i = 0; i < set->files[f].count; i++) {
			const struct cb_vector *v = &set->files[f].vectors[i];
			char why[512] = "";

			if (!cb_alg_is_pk(v->alg))
				continue;
			ok(pk_reference_check(v, why, sizeof why) == 0,
			   "reference: %s %s (%s, %s)%s%s", base_name(set->files[f].path), v->name,
			   cb_op_name(v->op),
			   v->op == CB_OP_SIGN     ? "deterministic"
			   : v->op == CB_OP_DERIVE ? "the shared secret"
			   : v->valid              ? "valid"
			                           : "invalid",
			   *why ? ": " : "", why);
		}
}

/* What the reader made of the public-key fields. */
static void check_pk_parsed(const struct cb_vector_set *set)
{
	const struct cb_vector *v;

	v = find_vector(set, "RFC 8032 7.1 TEST 2");
	ok(v && v->op == CB_OP_SIGN && v->msg_len == 1 && v->msg[0] == 0x72 &&
	       v->signature_len == 64 && v->pk_key && v->pk_key->has_private &&
	       v->pk_key->pub.len == 32 && v->pk_key->pub.data[0] == 0x3d,
	   "RFC 8032 TEST 2: a seed, its public key, one byte, 64 bytes of signature");
	v = find_vector(set, "ecdh_secp256r1_test tcId 1");
	ok(v && v->op == CB_OP_DERIVE && v->msg_len == 0 && v->pk_key->has_private &&
	       !v->pk_peer->has_private && v->shared[0] == 0x53,
	   "ECDH: a raw scalar with its leading 00, a peer's SubjectPublicKeyInfo");
	v = find_vector(set, "rsa_pkcs1_4096_sig_gen_test tcId 130");
	ok(v && v->op == CB_OP_SIGN && v->signature_len == 512 && v->pk_key->n.len == 512 &&
	       v->pk_key->has_private,
	   "RSA-4096: a PKCS #8 private key and a 512-byte signature");
	v = find_vector(set, "ecdsa_secp521r1_sha512_test tcId 101");
	ok(v && v->op == CB_OP_VERIFY && !v->valid && !v->pk_key->has_private &&
	       v->signature[0] == 0x30 && v->digest[0] != 0,
	   "ECDSA P-521: an invalid DER signature, its message's SHA-512 made at load");
}

/* Write TEXT to a file in the scratch folder and try to load it. */
static void check_bad(const char *file, const char *text, const char *message)
{
	char path[256], err[512] = "", want[512];
	struct cb_vector_file parsed;
	FILE *f;
	int rc;

	snprintf(path, sizeof path, "%s/%s", scratch, file);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
	rc = cb_vectors_load(path, &parsed, err, sizeof err);
	snprintf(want, sizeof want, "%s:%s", path, message);
	ok(rc == -1 && parsed.count == 0 && parsed.vectors == NULL, "%s is refused", file);
	is_str(text_of(err), want, "%s: FILE:LINE: message", file);
	unlink(path);
}

static void check_malformed(void)
{
	char err[512] = "", want[512], path[256];
	struct cb_vector_file parsed;
	struct cb_vector_set set;

	check_bad("hex.vec",
	          "# source: here\nalgorithm = sha256\ntext = \"abc\"\ndigest = ba78zz\n",
	          "4: bad hex digit 'z' in 'digest'");
	check_bad("odd.vec", "algorithm = md5\nmsg = 616\ndigest = 00\n",
	          "2: odd number of hex digits in 'msg'");
	check_bad("field.vec", "algorithm = md5\nmessage = 61\n", "2: unknown field 'message'");
	check_bad("noeq.vec", "algorithm = md5\nmsg 61\n", "2: expected 'field = value'");
	check_bad("twice.vec", "algorithm = md5\nmsg = 61\nmsg = 62\n",
	          "3: 'msg' given twice (first at line 2)");
	check_bad("alg.vec", "\n\nalgorithm = sha3-512\nmsg =\n",
	          "3: unknown algorithm 'sha3-512'");
	check_bad("len.vec",
	          "algorithm = md5\ntext = \"\"\ndigest = d41d8cd98f00b204e9800998ecf842\n",
	          "3: 'digest' is 15 bytes; md5 needs 16");
	check_bad("missing.vec",
	          "algorithm = md5\ntext = \"\"\n\nalgorithm = sha1\n# no digest\nmsg = 00\n",
	          "1: md5 vector has no 'digest'");
	check_bad("second.vec",
	          "algorithm = md5\ntext = \"\"\ndigest = d41d8cd98f00b204e9800998ecf8427e\n\n"
	          "name = no algorithm\nmsg = 00\n",
	          "5: vector has no 'algorithm'");
	check_bad("apply.vec",
	          "algorithm = aes-128-cbc\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg =\nciphertext =\ntag = 00\n",
	          "6: 'tag' does not apply to aes-128-cbc");
	check_bad("indent.vec", "  algorithm = md5\n",
	          "1: indented line does not continue a hex field");
	check_bad("quote.vec", "algorithm = md5\ntext = abc\ndigest = 00\n",
	          "2: 'text' must be a double-quoted string");
	check_bad("both.vec", "algorithm = md5\nmsg = 61\ntext = \"a\"\ndigest = 00\n",
	          "3: 'msg' and 'text' both given");
	check_bad("repeat.vec", "algorithm = md5\ntext = \"a\"\nrepeat = 0\ndigest = 00\n",
	          "3: 'repeat' must be a whole number from 1 up to a 67108864-byte message");
	check_bad("op.vec",
	          "algorithm = aes-128-ctr\nop = both\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg =\nciphertext =\n",
	          "2: 'op' must be encrypt or decrypt");
	check_bad("ctlen.vec",
	          "algorithm = aes-128-ctr\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg = 00\nciphertext = 0000\n",
	          "5: 'ciphertext' is 2 bytes; the message is 1");
	check_bad(
	    "cbc.vec",
	    "# source: none\nalgorithm = aes-128-cbc\nkey = 00000000000000000000000000000000\n"
	    "iv = 00000000000000000000000000000000\nmsg = 00\nciphertext = 00\n",
	    "2: the message is 1 bytes, not a multiple of 16 (aes-128-cbc is run without padding)");
	check_bad("nonce.vec",
	          "algorithm = aes-128-gcm\nkey = 00000000000000000000000000000000\n"
	          "iv = 00000000000000000000000000000000\nmsg =\nciphertext =\n"
	          "tag = 58e2fccefa7e3061367f1d57a4e7455a\n",
	          "3: 'iv' is 16 bytes; aes-128-gcm needs 12");

	/* public key */
	check_bad("random.vec",
	          "algorithm = ecdsa-p256\nprivate = 01\nmsg =\nsignature = 3006020101020101\n",
	          "2: 'private' makes a signing vector, but ecdsa-p256 signatures are randomized: "
	          "give 'public' and 'result'");
	check_bad("result.vec",
	          "algorithm = ed25519\npublic = "
	          "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a\nmsg =\n"
	          "signature = 00\nresult = maybe\n",
	          "5: 'result' must be valid or invalid");
	check_bad("noresult.vec",
	          "algorithm = ed25519\npublic = "
	          "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a\nmsg =\n"
	          "signature = 00\n",
	          "1: ed25519 verify vector has no 'result'");
	check_bad("nokey.vec", "algorithm = ed25519\nmsg =\nsignature = 00\nresult = valid\n",
	          "1: ed25519 vector has no 'private' or 'public'");
	check_bad("mismatch.vec",
	          "algorithm = ed25519\nprivate = "
	          "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60\n"
	          "public = 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c\n"
	          "msg =\nsignature = 00000000000000000000000000000000000000000000000000000000"
	          "000000000000000000000000000000000000000000000000000000000000000000000000\n",
	          "3: 'public' is not the public key of 'private'");
	check_bad("shared.vec",
	          "algorithm = x25519\nprivate = "
	          "c8a9d5a91091ad851c668b0736c1c9a02936c0d315b7c9b1bf5dcf42080f5ec7\n"
	          "public = 504a36999f489cd2fdbc08baff3d88fa00569ba9b6c38ba2fd9bc2c3e1e81da5\n"
	          "shared = 00\n",
	          "4: 'shared' is 1 bytes; x25519 needs 32");
	check_bad("kexmsg.vec", "algorithm = x25519\nmsg = 00\n",
	          "2: 'msg' does not apply to x25519");
	check_bad(
	    "badkey.vec",
	    "algorithm = rsa-2048-pss\npublic = 3000\nmsg =\nsignature = 00\nresult = invalid\n",
	    "2: 'public': reference: the key is not a rsa-2048-pss key");

	snprintf(want, sizeof want, "%s/absent.vec: No such file or directory", scratch);
	snprintf(path, sizeof path, "%s/absent.vec", scratch);
	ok(cb_vectors_load(path, &parsed, err, sizeof err) == -1, "a missing file is refused");
	is_str(text_of(err), want, "with the system's reason");
	ok(cb_vectors_load_dir(scratch, &set, err, sizeof err) == -1 && set.count == 0,
	   "a folder without vector files is refused");
	snprintf(want, sizeof want, "%s: no *.vec vector files", scratch);
	is_str(text_of(err), want, "and says so");
}

/* An engine that wraps a real one and misbehaves as told: accepts forged
 * tags, or changes its output on the second call of a context. */
static const struct cb_engine *inner;
static int misbehaviour;

struct wrapped {
	void *ctx;
	struct cb_engine_calls inner_calls; /* inner's for the cell's algorithm */
	enum cb_op op;
	unsigned calls;
};

static void *wrap_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                       char *err, size_t err_len)
{
	struct wrapped *w = calloc(1, sizeof *w);

	if (!w || !(w->ctx = cb_engine_open(inner, cell, err, err_len))) {
		free(w);
		return NULL;
	}
	w->inner_calls = cb_engine_calls_for(inner, setup->alg);
	w->op = setup->op;
	return w;
}

static int wrap_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct wrapped *w = ctx;
	int status = w->inner_calls.call(w->ctx, in, len, out);

	if (misbehaviour == 1 && w->op == CB_OP_DECRYPT_FORGED)
		return CB_OK;
	if (misbehaviour == 3 && w->op == CB_OP_VERIFY)
		return CB_OK;
	if (misbehaviour == 2 && w->calls++ == 1)
		out[0] ^= 0x80;
	return status;
}

static void wrap_close(void *ctx)
{
	struct wrapped *w = ctx;

	w->inner_calls.close(w->ctx);
	free(w);
}

static bool wrap_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	return cb_engine_supports(inner, alg, op, mode);
}

static const struct cb_engine wrapper = {
    .name = "wrapper",
    .kind = "library",
    .supports = wrap_supports,
    .open = wrap_open,
    .call = wrap_call,
    .close = wrap_close,
};

/* Every public-key scheme has its row (core/algorithms/pk_scheme.c), and the table of
 * algorithms holds exactly the rows' sizes, each under its own scheme: a
 * scheme cannot be left out of a list and borrow another's name. */
static void check_schemes(void)
{
	size_t sizes = 0, pk = 0;
	bool whole = true;

	for (int scheme = CB_PK_NONE + 1; scheme < CB_PK_COUNT; scheme++) {
		const struct cb_pk_scheme_info *info = cb_pk_scheme_info((enum cb_pk_scheme)scheme);

		if (!info || !info->slug || !info->title || !info->reference ||
		    !info->sizes[0].name) {
			diag("scheme %d has no complete row", scheme);
			whole = false;
			continue;
		}
		for (size_t k = 0; k < CB_PK_MAX_SIZES && info->sizes[k].name; k++, sizes++) {
			const struct cb_algorithm *alg = cb_algorithm_find(info->sizes[k].name);

			if (!alg || alg->scheme != scheme || alg->bits != info->sizes[k].bits ||
			    cb_pk_info(alg) != info) {
				diag("%s is not the algorithm of its row", info->sizes[k].name);
				whole = false;
			}
		}
	}
	for (size_t a = 0; a < cb_algorithm_count(); a++)
		pk += cb_alg_is_pk(cb_algorithm_at(a));
	ok(whole && pk == sizes && cb_pk_scheme_info(CB_PK_NONE) == NULL &&
	       cb_pk_scheme_info(CB_PK_COUNT) == NULL,
	   "every scheme has its row, and its sizes are the %zu public-key algorithms", pk);
}

/* Every size's row names its fixed key (struct cb_pk_size's key), from a
 * published vector, and the reference takes it as a key of that size: the
 * run's header, verify and every cell find the key through the row alone. */
static void check_fixed_keys(void)
{
	size_t sizes = 0;
	bool all = true;

	for (int scheme = CB_PK_NONE + 1; scheme < CB_PK_COUNT; scheme++) {
		const struct cb_pk_scheme_info *info = cb_pk_scheme_info((enum cb_pk_scheme)scheme);

		for (size_t k = 0; info && k < CB_PK_MAX_SIZES && info->sizes[k].name;
		     k++, sizes++) {
			const struct cb_pk_size *size = &info->sizes[k];
			const struct cb_algorithm *alg = cb_algorithm_find(size->name);
			char err[256] = "";

			if (!size->key || !size->key->key_hex || !size->key->source ||
			    !size->key->source[0]) {
				diag("%s: no fixed key in its row, or one without its source",
				     size->name);
				all = false;
			} else if (!alg || !cb_pk_fixed_key(alg, false, err, sizeof err) ||
			           (info->agreement &&
			            !cb_pk_fixed_key(alg, true, err, sizeof err)) ||
			           strcmp(cb_pk_key_source(alg), size->key->source) != 0) {
				diag("%s: its fixed key is not taken as one of its size: %s",
				     size->name, err);
				all = false;
			}
		}
	}
	ok(all, "each of the %zu public-key sizes has its fixed key, a key of that size", sizes);
}

/* The same for public-key vectors: an engine that accepts every signature,
 * and one whose signature or secret comes out wrong (the sim engine, which
 * offers every algorithm and writes its input back). */
static void check_runner_fails_pk(const struct cb_vector_set *set)
{
	const struct cb_vector *bad = find_vector(set, "ed25519_test tcId 62");
	const struct cb_vector *sign = find_vector(set, "RFC 8032 7.1 TEST 1");
	const struct cb_vector *dh = find_vector(set, "x25519_test tcId 1");
	enum cb_vector_result result;
	char why[512];

	result = cb_vectors_run(cb_engine_find("sim"), sign, why, sizeof why);
	ok(result == CB_VECTOR_FAIL && starts_with(why, "sign: "),
	   "the sim engine fails an Ed25519 signing vector: %s", why);
	result = cb_vectors_run(cb_engine_find("sim"), dh, why, sizeof why);
	ok(result == CB_VECTOR_FAIL && starts_with(why, "derive: shared secret differs at byte 0"),
	   "and an X25519 one: %s", why);
	if (!inner || !cb_engine_supports(inner, bad->alg, CB_OP_VERIFY, CB_MODE_MESSAGE)) {
		tap_skip(2, "no usable engine offers Ed25519 verify: an accepted invalid signature "
		            "is not exercised");
		return;
	}
	misbehaviour = 3;
	result = cb_vectors_run(&wrapper, bad, why, sizeof why);
	is_num(result, CB_VECTOR_FAIL, "an engine accepting every signature fails (%s inside)",
	       inner->name);
	is_str(text_of(why), "verify: an invalid signature was accepted", "and says so");
	misbehaviour = 0;
}

/* The runner must see wrong answers, not only report right ones. */
static void check_runner_fails(const struct cb_vector_set *set)
{
	const struct cb_vector *sha = find_vector(set, "SHA-256 \"abc\"");
	const struct cb_vector *gcm = find_vector(set, "GCM Test Case 2");
	enum cb_vector_result result;
	char why[512];

	result = cb_vectors_run(cb_engine_find("null"), sha, why, sizeof why);
	is_num(result, CB_VECTOR_FAIL, "the null engine fails SHA-256 \"abc\"");
	ok(starts_with(why, "digest differs at byte 0: got "), "with the place: %s", why);
	if (!inner) {
		tap_skip(5, "no usable crypto engine: forged-tag and context-reuse failures "
		            "not exercised");
		return;
	}
	if (cb_engine_supports(inner, gcm->alg, CB_OP_DECRYPT_FORGED, CB_MODE_MESSAGE)) {
		misbehaviour = 1;
		result = cb_vectors_run(&wrapper, gcm, why, sizeof why);
		is_num(result, CB_VECTOR_FAIL, "an engine accepting a forged tag fails (%s inside)",
		       inner->name);
		is_str(text_of(why), "decrypt-forged: a tag with one bit flipped was accepted",
		       "and says so");
	} else {
		tap_skip(2, "%s has no AES-GCM decrypt-forged: a forged tag is not exercised",
		         inner->name);
	}
	misbehaviour = 2;
	result = cb_vectors_run(&wrapper, sha, why, sizeof why);
	is_num(result, CB_VECTOR_FAIL, "an engine whose second call differs fails");
	ok(starts_with(why, "second call on the same context: digest differs at byte 0"),
	   "and says so: %s", why);
	misbehaviour = 0;
	result = cb_vectors_run(&wrapper, sha, why, sizeof why);
	is_num(result, CB_VECTOR_PASS, "the same wrapper behaving passes");
	check_runner_fails_pk(set);
}

/* Every vector through every compiled-in crypto engine. */
static size_t check_engines(const struct cb_vector_set *set)
{
	size_t engines = 0;

	for (size_t e = 0; e < cb_engine_count(); e++) {
		const struct cb_engine *engine = cb_engine_at(e);
		unsigned passed = 0, unsupported = 0, skipped = 0;
		const char *why_unusable;
		char why[512];

		if (strcmp(engine->kind, "builtin") == 0 || engine->self_check)
			continue; /* built-ins and baselines: their output is not the algorithm's */
		if (!cb_engine_usable(engine, &why_unusable)) {
			tap_skip(1, "%s: unusable here (%s): its vectors are not run", engine->name,
			         why_unusable);
			continue;
		}
		engines++;
		if (!inner)
			inner = engine;
		for (size_t f = 0; f < set->count; f++) {
			const struct cb_vector_file *file = &set->files[f];

			for (size_t i = 0; i < file->count; i++) {
				const struct cb_vector *v = &file->vectors[i];
				enum cb_vector_result r =
				    cb_vectors_run(engine, v, why, sizeof why);

				if (r == CB_VECTOR_UNSUPPORTED) {
					unsupported++;
					continue;
				}
				passed += r == CB_VECTOR_PASS;
				skipped += r == CB_VECTOR_SKIPPED;
				ok(r != CB_VECTOR_FAIL, "%s: %s %s%s%s", engine->name,
				   base_name(file->path), v->name, why[0] ? ": " : "", why);
			}
		}
		ok(passed > 0, "%s passes some vectors", engine->name);
		diag("%s: %u passed, %u skipped, %u not supported", engine->name, passed, skipped,
		     unsupported);
	}
	/* configure's engines that are not compiled in: a SKIP line each */
	char names[] = CB_ENGINES_CONFIGURED;
	for (char *save = NULL, *name = strtok_r(names, " ", &save); name;
	     name = strtok_r(NULL, " ", &save)) {
		char dashed[64];

		snprintf(dashed, sizeof dashed, "%s", name);
		for (char *p = dashed; *p; p++)
			if (*p == '_')
				*p = '-';
		if (!cb_engine_find(name) && !cb_engine_find(dashed))
			tap_skip(1,
			         "%s: not compiled in (configure did not find its library, or "
			         "--without-%s): its vectors are not run",
			         name, name);
	}
	if (engines == 0)
		diag("no crypto engine compiled in: only the vector files and the reader are "
		     "tested");
	return engines;
}

/* Run verify into a string: its status, and the report in *TEXT (to free). */
static int verify_into(char **text, const char *dir, const char *const *names, size_t n_names,
                       char *err, size_t err_len)
{
	size_t size = 0;
	FILE *out;
	int status;

	*text = NULL;
	out = open_memstream(text, &size);
	if (!out)
		return -1;
	status = cb_verify_run(out, dir, names, n_names, err, err_len);
	fclose(out);
	return status;
}

/* The engine verify checks public-key cells of first, or NULL. */
static const struct cb_engine *pk_engine(void)
{
	const struct cb_algorithm *alg = cb_algorithm_find("ed25519");

	for (size_t e = 0; e < cb_engine_count(); e++) {
		const struct cb_engine *engine = cb_engine_at(e);

		if (strcmp(engine->kind, "builtin") != 0 && !engine->self_check &&
		    cb_engine_usable(engine, NULL) &&
		    cb_engine_supports(engine, alg, CB_OP_SIGN, CB_MODE_MESSAGE))
			return engine;
	}
	return NULL;
}

/* verify's public-key line of every engine that offers public key. */
static void pk_report(const char *text)
{
	const struct cb_engine *e = pk_engine();
	char line[256];

	if (!e) {
		tap_skip(1, "no usable engine offers public key: no public-key line");
		return;
	}
	snprintf(line, sizeof line, "public key: %s: vectors ", e->name);
	ok(text && strstr(text, line) && strstr(strstr(text, line), " 0 failed; fixed keys: ") &&
	       strstr(strstr(text, line), "operations checked, 0 failed\n"),
	   "verify reports %s's public-key vectors and fixed-key checks, none failed", e->name);
}

/* Under the fault switch: every public-key vector fails, and so does every
 * check on the fixed keys, each with its reason. */
static void pk_fault_report(const char *text, const char *name)
{
	const struct cb_engine *e = pk_engine();
	char line[256];

	if (!e || strcmp(e->name, name) != 0) {
		tap_skip(2,
		         "%s offers no public key: the fault on its public-key cells is not "
		         "exercised",
		         name);
		return;
	}
	snprintf(line, sizeof line, "public key: %s: vectors 0 passed, 35 failed; ", name);
	ok(text && strstr(text, line), "every public-key vector of %s fails", name);
	ok(text && strstr(text, "ed25519 verify-forged: fixed keys: FORGED SIGNATURE ACCEPTED") &&
	       strstr(text, "x25519 keygen: fixed keys: keygen: ") &&
	       strstr(text, "verify: a valid signature was rejected"),
	   "the forged signature accepted, the wrong key pair and the rejected valid signature "
	   "are named");
}

static void check_verify(const char *dir, size_t engines)
{
	const char *unknown[] = {"no-such-engine"};
	const char *builtin[] = {"null"};
	char err[512] = "", *text;
	int status;

	status = verify_into(&text, dir, unknown, 1, err, sizeof err);
	is_num(status, CB_VERIFY_BAD_INPUT, "verify refuses an unknown engine");
	is_str(text_of(err), "unknown engine 'no-such-engine' (see `cryptobench engines`)",
	       "naming it");
	ok(text && text[0] == '\0', "and prints nothing");
	free(text);
	status = verify_into(&text, scratch, NULL, 0, err, sizeof err);
	is_num(status, CB_VERIFY_BAD_INPUT, "verify refuses a folder without vectors");
	ok(strstr(err, ": no *.vec vector files") != NULL, "saying so: %s", err);
	free(text);
	status = verify_into(&text, dir, builtin, 1, err, sizeof err);
	is_num(status, CB_VERIFY_FAILED, "verify of a builtin alone verifies nothing: failed");
	ok(text && strstr(text, "note: null is a builtin") && strstr(text, ": nothing verified\n"),
	   "the builtin is named in a note");
	free(text);
	ok(cb_verify_reference("chacha20-poly1305") &&
	       strcmp(cb_verify_reference("chacha20-poly1305")->tag, "f01b24c83c97c7d7") == 0,
	   "the reference table is embedded");
	/* a public-key algorithm's reference is OpenSSL on the fixed keys */
	for (size_t a = 0; a < cb_algorithm_count(); a++)
		if (!cb_alg_is_pk(cb_algorithm_at(a)))
			ok(cb_verify_reference(cb_algorithm_at(a)->name) != NULL,
			   "reference for %s", cb_algorithm_at(a)->name);
	if (engines == 0)
		return;
	/* verify of the first engine and of the one whose public-key line is
	 * read: every engine's vectors ran above, and `verify` of every engine
	 * (its agreement and public-key cells, the sweep again) is
	 * tests/cli_verify.sh's, in both suites. */
	const struct cb_engine *pk = pk_engine();
	const char *names[] = {inner->name, pk ? pk->name : NULL};
	size_t n_names = pk && pk != inner ? 2 : 1;

	status = verify_into(&text, dir, names, n_names, err, sizeof err);
	is_num(status, CB_VERIFY_PASSED, "verify passes %s%s%s", names[0],
	       n_names > 1 ? " and " : "", n_names > 1 ? names[1] : "");
	ok(text && strstr(text, ": all passed\n"), "its summary says so");
	pk_report(text);
	diag_text(text);
	free(text);

	/* The fault switch flips a bit of the named engine's output: verify must fail it. */
	setenv("CRYPTOBENCH_FAULT", inner->name, 1);
	status = verify_into(&text, dir, &inner->name, 1, err, sizeof err);
	is_num(status, CB_VERIFY_FAILED, "verify fails %s when its output is corrupted",
	       inner->name);
	ok(text && strstr(text, "agreement: output starts") && strstr(text, ": FAILED\n"),
	   "the agreement check and the summary report it");
	pk_fault_report(text, inner->name);
	free(text);
	unsetenv("CRYPTOBENCH_FAULT");
}

int main(int argc, char **argv)
{
	char datadir[4096];
	const char *dir = argc > 1 ? argv[1] : cb_datadir(CB_DATA_VECTORS, datadir, sizeof datadir);
	struct cb_vector_set set;
	char err[512];
	size_t engines;

	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	diag("vectors from %s", dir);
	if (!ok(cb_vectors_load_dir(dir, &set, err, sizeof err) == 0, "the vector files load")) {
		diag("%s", err);
		rmdir(scratch);
		return tap_done();
	}
	check_files(&set);
	check_schemes();
	check_fixed_keys();
	check_parsed(&set);
	check_pk_counts(&set);
	check_pk_parsed(&set);
	check_pk_reference(&set);
	check_malformed();
	engines = check_engines(&set);
	check_runner_fails(&set);
	check_verify(dir, engines);
	cb_vectors_free_set(&set);
	rmdir(scratch);
	return tap_done();
}
