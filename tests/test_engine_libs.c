/* test_engine_libs.c: the OpenSSL, libgcrypt and nettle engines against the
 * published outputs on the 1 MiB generated input, and against themselves:
 * decryption round trips, forged tags, stream = message, chunked = whole,
 * recreate = reuse, a partial CBC block refused without aborting; and each
 * AEAD with associated data against its published vector. */
#ifdef HAVE_CONFIG_H
#include "config.h" /* the HAVE_ENGINE_* switches */
#endif

#include "core/algorithm.h"
#include "core/engine.h"
#include "core/input.h"
#include "tests/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ENGINE_OPENSSL
extern const struct cb_engine cb_engine_openssl;
#endif
#ifdef HAVE_ENGINE_GCRYPT
extern const struct cb_engine cb_engine_gcrypt;
#endif
#ifdef HAVE_ENGINE_NETTLE
extern const struct cb_engine cb_engine_nettle;
#endif

static const struct cb_engine *const engines[] = {
#ifdef HAVE_ENGINE_OPENSSL
    &cb_engine_openssl,
#endif
#ifdef HAVE_ENGINE_GCRYPT
    &cb_engine_gcrypt,
#endif
#ifdef HAVE_ENGINE_NETTLE
    &cb_engine_nettle,
#endif
    NULL,
};

/* ENGINES.md section 2: first 8 bytes of the digest or ciphertext, last 8
 * bytes of the ciphertext, first 8 bytes of the tag, on the 1 MiB input. */
static const struct known {
	const char *alg;
	const char *first;
	const char *last;
	const char *tag;
} known[] = {
    {"md5", "5c3bd9249358fd39", NULL, NULL},
    {"sha1", "2eefecbc3d41ac79", NULL, NULL},
    {"sha256", "8d08fc073d1a44b4", NULL, NULL},
    {"sha512", "859206e0ac479b7f", NULL, NULL},
    {"blake2b-512", "0404f6923b04c2b8", NULL, NULL},
    {"sha3-256", "e499970a9e37cacd", NULL, NULL},
    {"aes-128-cbc", "452baef136354a6d", "3e4a94f488fb20dd", NULL},
    {"aes-256-cbc", "d1116f3ff5fe721a", "53825567cd7aab57", NULL},
    {"aes-128-ctr", "6879c50fd38a3b41", "f28b47cd1054f145", NULL},
    {"aes-256-ctr", "3883caed9a1fba92", "1d32747792c1708b", NULL},
    {"aes-128-gcm", "f1816974f4ff3c50", "f0353839401b6a27", "114ab9c70e339fc7"},
    {"aes-256-gcm", "25ef18a15701091f", "43fde20d6c098915", "76ef61f961bffbe7"},
    {"chacha20-poly1305", "eb16c6babbf36e44", "430a03139e0fd3f0", "f01b24c83c97c7d7"},
};

/* Algorithms each library offers (ENGINES.md section 1). */
static const struct {
	const char *engine;
	size_t count;
	const char *missing;
} offered[] = {
    {"openssl", 13, NULL},
    {"gcrypt", 13, NULL},
    {"nettle", 12, "blake2b-512"},
};

/* One vector with AAD per AEAD (copied from tests/vectors/): GCM test cases 4
 * and 16 (McGrew & Viega, appendix B) and RFC 8439 section 2.8.2. */
static const struct aad_vector {
	const char *alg;
	const char *key, *iv, *aad, *msg, *ciphertext, *tag;
} aad_vectors[] = {
    {"aes-128-gcm", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
     "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
     "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {"aes-256-gcm", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
     "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
     "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
    {"chacha20-poly1305", "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
     "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
     "4c616469657320616e642047656e746c656d656e206f662074686520636c6173"
     "73206f66202739393a204966204920636f756c64206f6666657220796f75206f"
     "6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73"
     "637265656e20776f756c642062652069742e",
     "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
     "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
     "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
     "3ff4def08e4b7a9de576d26586cec64b6116",
     "1ae10b594f09e26a7e902ecbd0600691"},
};

#define AAD_MAX_MSG 128 /* bytes: the longest message above is 114 */

#define UNIT CB_INPUT_UNIT
#define STREAM_CALLS 3 /* stream test: calls of one unit each */
#define ODD_CALLS 5    /* stream test: calls of ODD_LEN bytes each */
#define ODD_LEN 1000   /* not a multiple of any block */
#define BUF_LEN (STREAM_CALLS * UNIT)

struct buffers {
	struct cb_input unit; /* 1 MiB */
	struct cb_input big;  /* the unit repeated STREAM_CALLS times */
	unsigned char *out, *out2, *plain;
	void *out_alloc, *out2_alloc, *plain_alloc;
};

struct cell {
	const struct cb_engine *engine;
	const struct cb_algorithm *alg;
	enum cb_op op;
	unsigned char key[CB_MAX_KEY];
	unsigned char iv[CB_MAX_IV];
	unsigned char tag[CB_MAX_TAG];
	const unsigned char *aad;
	size_t aad_len;
	struct cb_engine_config config;
	struct cb_cell_setup setup;
};

static void cell_init(struct cell *cell, const struct cb_engine *engine,
                      const struct cb_algorithm *alg, enum cb_op op)
{
	memset(cell, 0, sizeof *cell);
	cell->engine = engine;
	cell->alg = alg;
	cell->op = op;
	cb_standard_key(alg, cell->key);
	cb_standard_iv(alg, cell->iv);
}

static void *cell_open(struct cell *cell, size_t len)
{
	char err[256] = "";
	void *ctx;

	cell->setup = (struct cb_cell_setup){
	    .alg = cell->alg,
	    .op = cell->op,
	    .len = len,
	    .key = cell->key,
	    .iv = cell->iv,
	    .tag = cell->tag,
	    .aad = cell->aad,
	    .aad_len = cell->aad_len,
	    .config = &cell->config,
	};
	ctx = cb_engine_open(cell->engine, &cell->setup, err, sizeof err);

	if (!ctx)
		diag("%s %s %s: open failed: %s", cell->engine->name, cell->alg->name,
		     cb_op_name(cell->op), err);
	return ctx;
}

/* CALLS message-mode calls on one context; OUT keeps the last output.
 * Returns the first status that differs from the first call's, or that one;
 * a later output that differs from the first counts as CB_FAILED. */
static int run_message(struct cell *cell, const unsigned char *in, size_t len, unsigned char *out,
                       unsigned calls)
{
	size_t out_len = cb_output_len(cell->alg, cell->op, len);
	unsigned char *first = NULL;
	void *ctx = cell_open(cell, len);
	int status = CB_FAILED;

	if (!ctx)
		return CB_FAILED;
	for (unsigned i = 0; i < calls; i++) {
		int s = cell->engine->call(ctx, in, len, out);

		if (i == 0) {
			status = s;
			first = malloc(out_len ? out_len : 1);
			if (first)
				memcpy(first, out, out_len);
		} else if (s != status || !first || memcmp(first, out, out_len) != 0) {
			status = CB_FAILED;
			break;
		}
	}
	free(first);
	cell->engine->close(ctx);
	return status;
}

/* Stream mode: CALLS calls of LEN bytes over consecutive slices of IN, the
 * outputs written consecutively to OUT (ciphers) or the digest at OUT. */
static int run_stream(struct cell *cell, const unsigned char *in, size_t len, unsigned calls,
                      bool same_slice, unsigned char *out)
{
	void *ctx;
	int status = CB_OK;

	cell->config.mode = CB_MODE_STREAM;
	ctx = cell_open(cell, len);
	cell->config.mode = CB_MODE_MESSAGE;
	if (!ctx)
		return CB_FAILED;
	for (unsigned i = 0; i < calls && status == CB_OK; i++) {
		const unsigned char *src = same_slice ? in : in + (size_t)i * len;
		unsigned char *dst = cell->alg->kind == CB_KIND_HASH ? out : out + (size_t)i * len;

		status = cell->engine->call(ctx, src, len, dst);
	}
	if (status == CB_OK)
		status = cell->engine->finish(ctx, out);
	cell->engine->close(ctx);
	return status;
}

static const struct known *known_for(const char *name)
{
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(known[i].alg, name) == 0)
			return &known[i];
	return NULL;
}

static void is_hex8(const unsigned char *bytes, const char *want, const char *what,
                    const struct cell *cell)
{
	char hex[17];

	cb_hex(bytes, 8, hex);
	if (!ok(strcmp(hex, want) == 0, "%s %s %s", cell->engine->name, cell->alg->name, what))
		diag("got %s, want %s", hex, want);
}

static void test_hash(const struct cb_engine *engine, const struct cb_algorithm *alg,
                      struct buffers *b)
{
	const struct known *k = known_for(alg->name);
	size_t n = alg->digest_len;
	unsigned char whole[CB_MAX_DIGEST];
	struct cell cell;
	static const size_t chunks[] = {4096, 1000};

	cell_init(&cell, engine, alg, CB_OP_HASH);
	is_num(run_message(&cell, b->unit.data, UNIT, whole, 3), CB_OK,
	       "%s %s: three messages give one digest", engine->name, alg->name);
	is_hex8(whole, k->first, "digest", &cell);

	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		cell.config.chunk = chunks[i];
		memset(b->out, 0, n);
		ok(run_message(&cell, b->unit.data, UNIT, b->out, 2) == CB_OK &&
		       memcmp(b->out, whole, n) == 0,
		   "%s %s: chunks of %zu = whole", engine->name, alg->name, chunks[i]);
	}
	cell.config.chunk = 0;

	cell.config.recreate = true;
	memset(b->out, 0, n);
	ok(run_message(&cell, b->unit.data, UNIT, b->out, 2) == CB_OK &&
	       memcmp(b->out, whole, n) == 0,
	   "%s %s: recreate = reuse", engine->name, alg->name);
	cell.config.recreate = false;

	/* The unit fed STREAM_CALLS times is the big buffer. */
	ok(run_message(&cell, b->big.data, BUF_LEN, b->out2, 1) == CB_OK &&
	       run_stream(&cell, b->unit.data, UNIT, STREAM_CALLS, true, b->out) == CB_OK &&
	       memcmp(b->out, b->out2, n) == 0,
	   "%s %s: stream of %d units = message of %d MiB", engine->name, alg->name, STREAM_CALLS,
	   STREAM_CALLS);
	ok(run_message(&cell, b->unit.data, ODD_CALLS * ODD_LEN, b->out2, 1) == CB_OK &&
	       run_stream(&cell, b->unit.data, ODD_LEN, ODD_CALLS, false, b->out) == CB_OK &&
	       memcmp(b->out, b->out2, n) == 0,
	   "%s %s: stream of %d x %d bytes = message", engine->name, alg->name, ODD_CALLS, ODD_LEN);
	cell.config.chunk = 7;
	ok(run_stream(&cell, b->unit.data, ODD_LEN, ODD_CALLS, false, b->out) == CB_OK &&
	       memcmp(b->out, b->out2, n) == 0,
	   "%s %s: chunked stream = message", engine->name, alg->name);
}

/* Stream = message over the concatenation, for CBC/CTR OP. */
static void test_cipher_stream(struct cell *cell, struct buffers *b, const unsigned char *in)
{
	const char *name = cell->engine->name, *alg = cell->alg->name, *op = cb_op_name(cell->op);

	ok(run_message(cell, in, BUF_LEN, b->out2, 1) == CB_OK &&
	       run_stream(cell, in, UNIT, STREAM_CALLS, false, b->out) == CB_OK &&
	       memcmp(b->out, b->out2, BUF_LEN) == 0,
	   "%s %s %s: stream of %d units = message of %d MiB", name, alg, op, STREAM_CALLS,
	   STREAM_CALLS);
	if (cell->alg->block_len == 1)
		ok(run_message(cell, in, ODD_CALLS * ODD_LEN, b->out2, 1) == CB_OK &&
		       run_stream(cell, in, ODD_LEN, ODD_CALLS, false, b->out) == CB_OK &&
		       memcmp(b->out, b->out2, ODD_CALLS * ODD_LEN) == 0,
		   "%s %s %s: stream of %d x %d bytes = message", name, alg, op, ODD_CALLS,
		   ODD_LEN);
}

static void test_cipher(const struct cb_engine *engine, const struct cb_algorithm *alg,
                        struct buffers *b)
{
	const struct known *k = known_for(alg->name);
	bool aead = alg->kind == CB_KIND_AEAD;
	size_t out_len = cb_output_len(alg, CB_OP_ENCRYPT, UNIT);
	unsigned char *cipher = malloc(out_len);
	struct cell cell;

	if (!cipher) {
		ok(0, "%s %s: memory", engine->name, alg->name);
		return;
	}
	cell_init(&cell, engine, alg, CB_OP_ENCRYPT);
	is_num(run_message(&cell, b->unit.data, UNIT, cipher, 3), CB_OK,
	       "%s %s encrypt: three messages give one output", engine->name, alg->name);
	is_hex8(cipher, k->first, "ciphertext first 8", &cell);
	is_hex8(cipher + UNIT - 8, k->last, "ciphertext last 8", &cell);
	if (aead)
		is_hex8(cipher + UNIT, k->tag, "tag", &cell);

	cell.config.recreate = true;
	memset(b->out, 0, out_len);
	ok(run_message(&cell, b->unit.data, UNIT, b->out, 2) == CB_OK &&
	       memcmp(b->out, cipher, out_len) == 0,
	   "%s %s encrypt: recreate = reuse", engine->name, alg->name);
	cell.config.recreate = false;
	if (!aead)
		test_cipher_stream(&cell, b, b->big.data);

	cell_init(&cell, engine, alg, CB_OP_DECRYPT);
	if (aead)
		memcpy(cell.tag, cipher + UNIT, alg->tag_len);
	memset(b->plain, 0, UNIT);
	ok(run_message(&cell, cipher, UNIT, b->plain, 3) == CB_OK &&
	       memcmp(b->plain, b->unit.data, UNIT) == 0,
	   "%s %s decrypt: round trip", engine->name, alg->name);
	cell.config.recreate = true;
	memset(b->plain, 0, UNIT);
	ok(run_message(&cell, cipher, UNIT, b->plain, 2) == CB_OK &&
	       memcmp(b->plain, b->unit.data, UNIT) == 0,
	   "%s %s decrypt: recreate round trip", engine->name, alg->name);
	cell.config.recreate = false;
	if (!aead) {
		/* Decrypting the big plaintext is as good a check of the chain. */
		test_cipher_stream(&cell, b, b->big.data);
	} else {
		cell.op = CB_OP_DECRYPT_FORGED;
		cell.tag[alg->tag_len - 1] ^= 0x80;
		is_num(run_message(&cell, cipher, UNIT, b->plain, 2), CB_REJECTED,
		       "%s %s decrypt-forged: last tag bit flipped rejected", engine->name,
		       alg->name);
		cell.tag[alg->tag_len - 1] ^= 0x80;
		cell.tag[0] ^= 0x01;
		cell.config.recreate = true;
		is_num(run_message(&cell, cipher, UNIT, b->plain, 2), CB_REJECTED,
		       "%s %s decrypt-forged: first tag bit flipped rejected (recreate)",
		       engine->name, alg->name);
		cell.config.recreate = false;
		/* So the flipped bit alone made the difference. */
		cell.tag[0] ^= 0x01;
		cell.op = CB_OP_DECRYPT;
		ok(run_message(&cell, cipher, UNIT, b->plain, 1) == CB_OK &&
		       memcmp(b->plain, b->unit.data, UNIT) == 0,
		   "%s %s decrypt: restored tag accepted", engine->name, alg->name);
	}

	if (alg->block_len == 16) {
		for (int op = CB_OP_ENCRYPT; op <= CB_OP_DECRYPT; op++) {
			cell_init(&cell, engine, alg, (enum cb_op)op);
			is_num(run_message(&cell, b->unit.data, 20, b->out, 1), CB_FAILED,
			       "%s %s %s: 20 bytes refused", engine->name, alg->name,
			       cb_op_name(cell.op));
			is_num(run_stream(&cell, b->unit.data, 20, 1, true, b->out), CB_FAILED,
			       "%s %s %s: 20 bytes refused in stream mode", engine->name, alg->name,
			       cb_op_name(cell.op));
		}
	}
	free(cipher);
}

/* HEX into OUT (at most MAX bytes): the byte count, or 0 when it does not fit
 * or is not hex (every vector field here is non-empty). */
static size_t unhex(const char *hex, unsigned char *out, size_t max)
{
	size_t n = strlen(hex) / 2;

	if (strlen(hex) % 2 != 0 || n > max)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned byte;

		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return 0;
		out[i] = (unsigned char)byte;
	}
	return n;
}

/* Encrypt and decrypt V with its AAD, each twice on one context and with a
 * context per message, so both paths must restart the AAD per message. */
static void test_aad(const struct cb_engine *engine, const struct aad_vector *v, struct buffers *b)
{
	const struct cb_algorithm *alg = cb_algorithm_find(v->alg);
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV], tag[CB_MAX_TAG], aad[32];
	unsigned char msg[AAD_MAX_MSG], cipher[AAD_MAX_MSG];
	size_t aad_len = unhex(v->aad, aad, sizeof aad);
	size_t len = unhex(v->msg, msg, sizeof msg);
	struct cell cell;
	int reuse, recreate;
	char hex[17];

	if (!ok(alg && unhex(v->key, key, sizeof key) == alg->key_len &&
	            unhex(v->iv, iv, sizeof iv) == alg->iv_len &&
	            unhex(v->tag, tag, sizeof tag) == alg->tag_len && aad_len > 0 && len > 0 &&
	            unhex(v->ciphertext, cipher, sizeof cipher) == len,
	        "%s %s: AAD vector decodes (%zu bytes of AAD, %zu of message)", engine->name,
	        v->alg, aad_len, len))
		return;

	cell_init(&cell, engine, alg, CB_OP_ENCRYPT);
	memcpy(cell.key, key, alg->key_len);
	memcpy(cell.iv, iv, alg->iv_len);
	cell.aad = aad;
	cell.aad_len = aad_len;
	memset(b->out, 0, len + alg->tag_len);
	reuse = run_message(&cell, msg, len, b->out, 2);
	cell.config.recreate = true;
	memset(b->out2, 0, len + alg->tag_len);
	recreate = run_message(&cell, msg, len, b->out2, 2);
	cb_hex(b->out + len, 8, hex);
	if (!ok(reuse == CB_OK && recreate == CB_OK && memcmp(b->out, cipher, len) == 0 &&
	            memcmp(b->out + len, tag, alg->tag_len) == 0 &&
	            memcmp(b->out2, b->out, len + alg->tag_len) == 0,
	        "%s %s encrypt with AAD: ciphertext and tag as published (reuse, recreate)",
	        engine->name, v->alg))
		diag("status %d/%d, tag %s.., want %.16s..", reuse, recreate, hex, v->tag);

	cell.op = CB_OP_DECRYPT;
	memcpy(cell.tag, tag, alg->tag_len);
	cell.config.recreate = false;
	memset(b->plain, 0, len);
	reuse = run_message(&cell, cipher, len, b->plain, 2);
	ok(reuse == CB_OK && memcmp(b->plain, msg, len) == 0, "%s %s decrypt with AAD: round trip",
	   engine->name, v->alg);
	cell.config.recreate = true;
	memset(b->plain, 0, len);
	recreate = run_message(&cell, cipher, len, b->plain, 2);
	ok(recreate == CB_OK && memcmp(b->plain, msg, len) == 0,
	   "%s %s decrypt with AAD: recreate round trip", engine->name, v->alg);

	cell.op = CB_OP_DECRYPT_FORGED;
	cell.tag[alg->tag_len - 1] ^= 0x01;
	recreate = run_message(&cell, cipher, len, b->plain, 2);
	cell.config.recreate = false;
	reuse = run_message(&cell, cipher, len, b->plain, 2);
	ok(reuse == CB_REJECTED && recreate == CB_REJECTED,
	   "%s %s decrypt-forged with AAD: rejected (reuse, recreate)", engine->name, v->alg);
}

static void test_engine(const struct cb_engine *engine, struct buffers *b)
{
	char why[256] = "";
	size_t count = 0;
	json_t *description = json_object();

	if (!ok(engine->probe(why, sizeof why) == 0, "%s: probe", engine->name)) {
		diag("%s", why);
		json_decref(description);
		return;
	}
	ok(engine->version() && *engine->version(), "%s: version '%s'", engine->name,
	   engine->version() ? engine->version() : "(null)");
	engine->describe(description);
	ok(json_object_size(description) > 0, "%s: describe adds %zu keys", engine->name,
	   json_object_size(description));
	char *text = json_dumps(description, JSON_COMPACT);
	diag("%s: %s", engine->name, text ? text : "?");
	free(text);
	json_decref(description);

	for (size_t i = 0; i < sizeof offered / sizeof offered[0]; i++) {
		if (strcmp(offered[i].engine, engine->name) != 0)
			continue;
		for (size_t a = 0; a < cb_algorithm_count(); a++) {
			const struct cb_algorithm *alg = cb_algorithm_at(a);
			enum cb_op op = alg->kind == CB_KIND_HASH ? CB_OP_HASH : CB_OP_ENCRYPT;

			count += engine->supports(alg, op, CB_MODE_MESSAGE);
		}
		is_num(count, offered[i].count, "%s: offers %zu algorithms", engine->name,
		       offered[i].count);
		if (offered[i].missing)
			ok(!engine->supports(cb_algorithm_find(offered[i].missing), CB_OP_HASH,
			                     CB_MODE_MESSAGE),
			   "%s: no %s", engine->name, offered[i].missing);
	}
	ok(!engine->supports(cb_algorithm_find("aes-128-gcm"), CB_OP_ENCRYPT, CB_MODE_STREAM) &&
	       !engine->supports(cb_algorithm_find("aes-128-cbc"), CB_OP_DECRYPT_FORGED,
	                         CB_MODE_MESSAGE) &&
	       !engine->supports(cb_algorithm_find("sha256"), CB_OP_ENCRYPT, CB_MODE_MESSAGE) &&
	       engine->supports(cb_algorithm_find("aes-256-ctr"), CB_OP_DECRYPT, CB_MODE_STREAM) &&
	       engine->supports(cb_algorithm_find("chacha20-poly1305"), CB_OP_DECRYPT_FORGED,
	                        CB_MODE_MESSAGE),
	   "%s: no AEAD stream, no forged non-AEAD, stream CTR decrypt", engine->name);

	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		if (alg->kind == CB_KIND_HASH) {
			if (engine->supports(alg, CB_OP_HASH, CB_MODE_MESSAGE))
				test_hash(engine, alg, b);
		} else if (engine->supports(alg, CB_OP_ENCRYPT, CB_MODE_MESSAGE)) {
			test_cipher(engine, alg, b);
		}
	}
	for (size_t i = 0; i < sizeof aad_vectors / sizeof aad_vectors[0]; i++) {
		const struct cb_algorithm *alg = cb_algorithm_find(aad_vectors[i].alg);

		if (alg && engine->supports(alg, CB_OP_ENCRYPT, CB_MODE_MESSAGE))
			test_aad(engine, &aad_vectors[i], b);
		else
			ok(0, "%s: %s offered for the AAD vector", engine->name,
			   aad_vectors[i].alg);
	}
}

int main(void)
{
	struct buffers b = {0};

	diag("input seed %u", CB_INPUT_DEFAULT_SEED);
	if (cb_input_create(&b.unit, UNIT, CB_INPUT_DEFAULT_SEED, 0) != 0 ||
	    cb_input_create(&b.big, BUF_LEN, CB_INPUT_DEFAULT_SEED, 0) != 0 ||
	    !(b.out = cb_aligned_alloc(BUF_LEN + CB_OUTPUT_SLACK, 0, &b.out_alloc)) ||
	    !(b.out2 = cb_aligned_alloc(BUF_LEN + CB_OUTPUT_SLACK, 0, &b.out2_alloc)) ||
	    !(b.plain = cb_aligned_alloc(UNIT + CB_OUTPUT_SLACK, 0, &b.plain_alloc))) {
		ok(0, "allocating buffers");
		return tap_done();
	}
	char hex[17];

	cb_hex(b.unit.data, 8, hex);
	ok(strcmp(hex, "62edceba92e4cb04") == 0, "input starts as published (%s)", hex);

	for (size_t i = 0; engines[i]; i++)
		test_engine(engines[i], &b);
	if (!engines[0])
		diag("no library engine configured");

	cb_input_free(&b.unit);
	cb_input_free(&b.big);
	free(b.out_alloc);
	free(b.out2_alloc);
	free(b.plain_alloc);
	return tap_done();
}
