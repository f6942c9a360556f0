/* openssl.c: the OpenSSL libcrypto engine, through EVP.
 *
 * Algorithms are fetched from the default provider in open, so the timed call
 * never looks a name up. Message mode re-initialises one reused context per
 * call (ciphers: the IV only, so the key schedule is not redone); stream mode
 * keeps one context and only updates it. */
#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/algorithms/reference.h" /* the EVP names */

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

/* EVP_CipherUpdate takes an int length; a multiple of 16 keeps CBC whole. */
#define OPENSSL_MAX_UPDATE (1 << 30)

/* A cell's calls made the shortest way, chosen once in open (see
 * openssl_call): stream updates in one library call, and a digest on a new
 * context as EVP_Digest makes it. */
enum openssl_direct {
	OPENSSL_GENERAL,        /* anything else: openssl_call_once */
	OPENSSL_ENCRYPT_UPDATE, /* stream, cipher */
	OPENSSL_DECRYPT_UPDATE,
	OPENSSL_HASH_UPDATE, /* stream, hash */
	OPENSSL_HASH_FRESH,  /* message, reuse = false, hash in one update */
};

struct openssl_ctx {
	struct cb_engine_setup setup;
	EVP_MD *md;
	EVP_CIPHER *cipher;
	EVP_MD_CTX *md_ctx;         /* reused (message) or running (stream) */
	EVP_CIPHER_CTX *cipher_ctx; /* keyed once in open */
	uint64_t spin;              /* extra busy work after each call (option extra) */
	enum openssl_direct direct; /* the cell's calls in one library call, or as EVP_Digest */
	bool whole_blocks;          /* setup.len is a multiple of the block length */
};

/* Option extra = F (message mode): after each call, busy work worth F times
 * the call's own time, calibrated at open. A real change of the measured code
 * of a known size: tests/bench/aa-key-scaling.sh plants it in one engine to
 * check that compare catches a change of about 5% and nothing else. */
static const char *const openssl_options[] = {"extra", NULL};

/* N steps of a dependency chain the compiler cannot drop or fold. */
static void openssl_spin(uint64_t n)
{
	uint64_t x = n;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
}

/* WHAT failed, followed by the library's own reason when it queued one. */
static void openssl_error(char *err, size_t err_len, const char *what)
{
	unsigned long code = ERR_get_error();
	char reason[256];

	if (code == 0) {
		cb_errorf(err, err_len, "openssl: %s failed", what);
		return;
	}
	ERR_error_string_n(code, reason, sizeof reason);
	cb_errorf(err, err_len, "openssl: %s failed: %s", what, reason);
	ERR_clear_error();
}

static const char *openssl_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

/* The default provider must load (an OPENSSL_CONF can restrict it). */
static int openssl_probe(char *why, size_t why_len)
{
	EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
	EVP_CIPHER *cipher = md ? EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL) : NULL;
	int status = cipher ? 0 : -1;

	if (status != 0)
		openssl_error(why, why_len,
		              "fetching SHA256 and AES-128-GCM from the default provider");
	EVP_CIPHER_free(cipher);
	EVP_MD_free(md);
	return status;
}

extern const struct cb_pk_ops cb_openssl_pk; /* openssl_pk.c */

static bool openssl_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	if (!cb_reference_evp_name(alg) || !cb_op_applies(alg, op))
		return false;
	return mode == CB_MODE_MESSAGE || alg->kind != CB_KIND_AEAD;
}

static int openssl_digest_update(EVP_MD_CTX *md_ctx, const unsigned char *in, size_t len,
                                 size_t chunk)
{
	size_t step = chunk ? chunk : len;

	for (size_t done = 0; done < len; done += step)
		if (!EVP_DigestUpdate(md_ctx, in + done, len - done < step ? len - done : step))
			return 0;
	return 1;
}

static int openssl_cipher_update(EVP_CIPHER_CTX *cipher_ctx, unsigned char *out,
                                 const unsigned char *in, size_t len)
{
	for (size_t done = 0; done < len;) {
		int n = len - done < OPENSSL_MAX_UPDATE ? (int)(len - done) : OPENSSL_MAX_UPDATE;
		int out_len = 0;

		if (!EVP_CipherUpdate(cipher_ctx, out + done, &out_len, in + done, n) ||
		    out_len != n)
			return 0;
		done += (size_t)n;
	}
	return 1;
}

/* A context keyed with the cell's key and IV: what open does once and a
 * recreating call does every time. */
static EVP_CIPHER_CTX *openssl_cipher_ctx_new(const struct openssl_ctx *ctx)
{
	EVP_CIPHER_CTX *cipher_ctx = EVP_CIPHER_CTX_new();

	if (!cipher_ctx)
		return NULL;
	if (!EVP_CipherInit_ex(cipher_ctx, ctx->cipher, NULL, NULL, NULL, ctx->setup.encrypt))
		goto fail;
	if (ctx->setup.aead) {
		if (EVP_CIPHER_CTX_ctrl(cipher_ctx, EVP_CTRL_AEAD_SET_IVLEN,
		                        (int)ctx->setup.alg->iv_len, NULL) <= 0)
			goto fail;
	} else {
		EVP_CIPHER_CTX_set_padding(cipher_ctx, 0);
	}
	if (!EVP_CipherInit_ex(cipher_ctx, NULL, NULL, ctx->setup.key, ctx->setup.iv, -1))
		goto fail;
	return cipher_ctx;
fail:
	EVP_CIPHER_CTX_free(cipher_ctx);
	return NULL;
}

static int openssl_hash_message(const struct openssl_ctx *ctx, EVP_MD_CTX *md_ctx,
                                const unsigned char *in, size_t len, unsigned char *out)
{
	unsigned int out_len = 0;

	if (!EVP_DigestInit_ex(md_ctx, ctx->md, NULL) ||
	    !openssl_digest_update(md_ctx, in, len, ctx->setup.chunk) ||
	    !EVP_DigestFinal_ex(md_ctx, out, &out_len))
		return CB_FAILED;
	return out_len == ctx->setup.alg->digest_len ? CB_OK : CB_FAILED;
}

/* One whole message on CIPHER_CTX, which already holds the key; FRESH when it
 * also holds the cell's IV. */
static int openssl_cipher_message(const struct openssl_ctx *ctx, EVP_CIPHER_CTX *cipher_ctx,
                                  bool fresh, const unsigned char *in, size_t len,
                                  unsigned char *out)
{
	int final_len = 0, aad_out = 0;
	int tag_len = (int)ctx->setup.alg->tag_len;

	if (!fresh && !EVP_CipherInit_ex(cipher_ctx, NULL, NULL, NULL, ctx->setup.iv, -1))
		return CB_FAILED;
	if (ctx->setup.aead && !ctx->setup.encrypt &&
	    EVP_CIPHER_CTX_ctrl(cipher_ctx, EVP_CTRL_AEAD_SET_TAG, tag_len,
	                        (void *)ctx->setup.tag) <= 0)
		return CB_FAILED;
	if (ctx->setup.aad_len &&
	    !EVP_CipherUpdate(cipher_ctx, NULL, &aad_out, ctx->setup.aad, (int)ctx->setup.aad_len))
		return CB_FAILED;
	if (!openssl_cipher_update(cipher_ctx, out, in, len))
		return CB_FAILED;
	/* For AEAD decryption a failing final step is the tag check. */
	if (!EVP_CipherFinal_ex(cipher_ctx, out + len, &final_len))
		return ctx->setup.aead && !ctx->setup.encrypt ? CB_REJECTED : CB_FAILED;
	if (final_len != 0)
		return CB_FAILED;
	if (ctx->setup.aead && ctx->setup.encrypt &&
	    EVP_CIPHER_CTX_ctrl(cipher_ctx, EVP_CTRL_AEAD_GET_TAG, tag_len, out + len) <= 0)
		return CB_FAILED;
	return CB_OK;
}

static void openssl_close(void *opaque)
{
	struct openssl_ctx *ctx = opaque;

	if (!ctx)
		return;
	EVP_MD_CTX_free(ctx->md_ctx);
	EVP_CIPHER_CTX_free(ctx->cipher_ctx);
	EVP_MD_free(ctx->md);
	EVP_CIPHER_free(ctx->cipher);
	free(ctx);
	ERR_clear_error();
}

static int openssl_calibrate_extra(struct openssl_ctx *ctx, size_t len, double extra, char *err,
                                   size_t err_len);

static void *openssl_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                          char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	const char *fetch_name = cb_reference_evp_name(alg);
	bool stream = setup->stream;
	struct openssl_ctx *ctx;

	ctx = calloc(1, sizeof *ctx);
	if (!ctx) {
		cb_errorf(err, err_len, "openssl: out of memory");
		return NULL;
	}
	ctx->setup = *setup;
	if (alg->kind == CB_KIND_HASH) {
		ctx->md = EVP_MD_fetch(NULL, fetch_name, NULL);
		if (!ctx->md) {
			openssl_error(err, err_len, "EVP_MD_fetch");
			goto fail;
		}
		if ((size_t)EVP_MD_get_size(ctx->md) != alg->digest_len) {
			cb_errorf(err, err_len, "openssl: %s digest size %d", fetch_name,
			          EVP_MD_get_size(ctx->md));
			goto fail;
		}
		ctx->md_ctx = EVP_MD_CTX_new();
		if (!ctx->md_ctx || (stream && !EVP_DigestInit_ex(ctx->md_ctx, ctx->md, NULL))) {
			openssl_error(err, err_len, "creating the digest context");
			goto fail;
		}
	} else {
		ctx->cipher = EVP_CIPHER_fetch(NULL, fetch_name, NULL);
		if (!ctx->cipher) {
			openssl_error(err, err_len, "EVP_CIPHER_fetch");
			goto fail;
		}
		/* Built even when recreating, so a keying failure is reported here. */
		ctx->cipher_ctx = openssl_cipher_ctx_new(ctx);
		if (!ctx->cipher_ctx) {
			openssl_error(err, err_len, "keying the cipher context");
			goto fail;
		}
	}
	if (ctx->setup.recreate) {
		EVP_MD_CTX_free(ctx->md_ctx);
		EVP_CIPHER_CTX_free(ctx->cipher_ctx);
		ctx->md_ctx = NULL;
		ctx->cipher_ctx = NULL;
	}
	ctx->whole_blocks = setup->len % alg->block_len == 0;
	if (stream && !ctx->setup.chunk && ctx->whole_blocks && setup->len <= OPENSSL_MAX_UPDATE)
		ctx->direct = ctx->md              ? OPENSSL_HASH_UPDATE
		              : ctx->setup.encrypt ? OPENSSL_ENCRYPT_UPDATE
		                                   : OPENSSL_DECRYPT_UPDATE;
	if (ctx->setup.recreate && ctx->md && !ctx->setup.chunk)
		ctx->direct = OPENSSL_HASH_FRESH;
	double extra = cb_option_number(cell->config, "extra", 0);
	if (extra != 0 && (stream || !(extra > 0 && extra < 10))) {
		cb_errorf(err, err_len, "openssl: extra wants a share in (0, 10) in message mode");
		goto fail;
	}
	if (extra > 0 && openssl_calibrate_extra(ctx, setup->len, extra, err, err_len) != 0)
		goto fail;
	if (ctx->spin)
		ctx->direct = OPENSSL_GENERAL; /* the busy work follows every call */
	return ctx;
fail:
	openssl_close(ctx);
	return NULL;
}

static int openssl_call_once(struct openssl_ctx *ctx, const unsigned char *in, size_t len,
                             unsigned char *out)
{
	int status;

	/* The block check without a division for the cell's own length (a
	 * division costs tens of cycles: a few percent of a 16 B digest). */
	if (len == ctx->setup.len ? !ctx->whole_blocks : len % ctx->setup.alg->block_len != 0)
		return CB_FAILED;
	if (ctx->setup.stream) {
		if (ctx->md_ctx)
			return openssl_digest_update(ctx->md_ctx, in, len, ctx->setup.chunk)
			           ? CB_OK
			           : CB_FAILED;
		return openssl_cipher_update(ctx->cipher_ctx, out, in, len) ? CB_OK : CB_FAILED;
	}
	if (!ctx->setup.recreate) {
		if (ctx->md)
			return openssl_hash_message(ctx, ctx->md_ctx, in, len, out);
		return openssl_cipher_message(ctx, ctx->cipher_ctx, false, in, len, out);
	}
	if (ctx->md) {
		EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();

		if (!md_ctx)
			return CB_FAILED;
		status = openssl_hash_message(ctx, md_ctx, in, len, out);
		EVP_MD_CTX_free(md_ctx);
	} else {
		EVP_CIPHER_CTX *cipher_ctx = openssl_cipher_ctx_new(ctx);

		if (!cipher_ctx)
			return CB_FAILED;
		status = openssl_cipher_message(ctx, cipher_ctx, true, in, len, out);
		EVP_CIPHER_CTX_free(cipher_ctx);
	}
	return status;
}

/* The direct calls. Stream mode's update is one library call, the one
 * openssl speed's own loop makes (EVP_EncryptUpdate or EVP_DecryptUpdate:
 * EVP_CipherUpdate only dispatches to them, a cost of its own at 16 B); a
 * digest without context reuse is EVP_Digest's sequence (new, init, update,
 * final, free). At 16 B every wrapper layer, branch and division costs
 * nanoseconds the library does not (tests/bench/compare-openssl-speed.sh),
 * so the checks are done once, in open. */
static int openssl_encrypt_update(void *opaque, const unsigned char *in, size_t len,
                                  unsigned char *out)
{
	struct openssl_ctx *ctx = opaque;
	int out_len;

	return EVP_EncryptUpdate(ctx->cipher_ctx, out, &out_len, in, (int)len) &&
	               out_len == (int)len
	           ? CB_OK
	           : CB_FAILED;
}

static int openssl_decrypt_update(void *opaque, const unsigned char *in, size_t len,
                                  unsigned char *out)
{
	struct openssl_ctx *ctx = opaque;
	int out_len;

	return EVP_DecryptUpdate(ctx->cipher_ctx, out, &out_len, in, (int)len) &&
	               out_len == (int)len
	           ? CB_OK
	           : CB_FAILED;
}

static int openssl_hash_update(void *opaque, const unsigned char *in, size_t len,
                               unsigned char *out)
{
	struct openssl_ctx *ctx = opaque;

	(void)out;
	return EVP_DigestUpdate(ctx->md_ctx, in, len) ? CB_OK : CB_FAILED;
}

static int openssl_hash_fresh(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct openssl_ctx *ctx = opaque;
	EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();
	unsigned int out_len = 0;
	int ok = md_ctx && EVP_DigestInit_ex(md_ctx, ctx->md, NULL) &&
	         EVP_DigestUpdate(md_ctx, in, len) && EVP_DigestFinal_ex(md_ctx, out, &out_len);

	EVP_MD_CTX_free(md_ctx);
	return ok && out_len == ctx->setup.alg->digest_len ? CB_OK : CB_FAILED;
}

static int openssl_call(void *opaque, const unsigned char *in, size_t len, unsigned char *out)
{
	struct openssl_ctx *ctx = opaque;
	int status;

	switch (len == ctx->setup.len ? ctx->direct : OPENSSL_GENERAL) {
	case OPENSSL_ENCRYPT_UPDATE:
		return openssl_encrypt_update(ctx, in, len, out);
	case OPENSSL_DECRYPT_UPDATE:
		return openssl_decrypt_update(ctx, in, len, out);
	case OPENSSL_HASH_UPDATE:
		return openssl_hash_update(ctx, in, len, out);
	case OPENSSL_HASH_FRESH:
		return openssl_hash_fresh(ctx, in, len, out);
	case OPENSSL_GENERAL:
		break;
	}
	status = openssl_call_once(ctx, in, len, out);
	if (ctx->spin)
		openssl_spin(ctx->spin);
	return status;
}

/* The timed loop: the choice of call is made once, before it. */
static uint64_t openssl_loop(void *opaque, const unsigned char *in, size_t len, unsigned char *out,
                             uint64_t calls, int expect, int *last)
{
	struct openssl_ctx *ctx = opaque;

	switch (len == ctx->setup.len ? ctx->direct : OPENSSL_GENERAL) {
	case OPENSSL_ENCRYPT_UPDATE:
		return cb_engine_loop(openssl_encrypt_update, ctx, in, len, out, calls, expect,
		                      last);
	case OPENSSL_DECRYPT_UPDATE:
		return cb_engine_loop(openssl_decrypt_update, ctx, in, len, out, calls, expect,
		                      last);
	case OPENSSL_HASH_UPDATE:
		return cb_engine_loop(openssl_hash_update, ctx, in, len, out, calls, expect, last);
	case OPENSSL_HASH_FRESH:
		return cb_engine_loop(openssl_hash_fresh, ctx, in, len, out, calls, expect, last);
	case OPENSSL_GENERAL:
		break;
	}
	return cb_engine_loop(openssl_call, ctx, in, len, out, calls, expect, last);
}

static double openssl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Spin steps worth EXTRA times one call of LEN bytes: the best of seven
 * timings of each, on a zero input (a forged tag costs the same). */
static int openssl_calibrate_extra(struct openssl_ctx *ctx, size_t len, double extra, char *err,
                                   size_t err_len)
{
	unsigned char *in = calloc(1, len + 1), *out = malloc(len + CB_OUTPUT_SLACK);
	double call_ns = INFINITY, spin_ns = INFINITY;
	const uint64_t steps = 100000;

	if (!in || !out) {
		free(in);
		free(out);
		cb_errorf(err, err_len, "openssl: out of memory");
		return -1;
	}
	for (int k = 0; k < 7; k++) {
		double t0 = openssl_now_ns();

		for (int i = 0; i < 32; i++)
			openssl_call_once(ctx, in, len, out);
		call_ns = fmin(call_ns, (openssl_now_ns() - t0) / 32);
		t0 = openssl_now_ns();
		openssl_spin(steps);
		spin_ns = fmin(spin_ns, (openssl_now_ns() - t0) / (double)steps);
	}
	free(in);
	free(out);
	ERR_clear_error();
	ctx->spin = (uint64_t)llround(extra * call_ns / spin_ns);
	return 0;
}

static int openssl_finish(void *opaque, unsigned char *out)
{
	struct openssl_ctx *ctx = opaque;
	unsigned int out_len = 0;

	if (!ctx->setup.stream || !ctx->md_ctx)
		return CB_OK; /* ciphers wrote everything in their calls */
	if (!EVP_DigestFinal_ex(ctx->md_ctx, out, &out_len) ||
	    out_len != ctx->setup.alg->digest_len)
		return CB_FAILED;
	return CB_OK;
}

/* Feature bits of the two capability words: word 0 is CPUID.1 (EDX | ECX << 32),
 * word 1 is CPUID.7 (EBX | ECX << 32). */
static const struct {
	const char *name;
	int word;
	int bit;
} openssl_cap_bits[] = {
    {"ssse3", 0, 41}, {"pclmulqdq", 0, 33}, {"aesni", 0, 57},
    {"avx", 0, 60},   {"avx2", 1, 5},       {"avx512f", 1, 16},
    {"sha", 1, 29},   {"vaes", 1, 41},      {"vpclmulqdq", 1, 42},
};

#if defined(__aarch64__)
/* Bits of OpenSSL's ARM capability word (crypto/arm_arch.h). */
static const struct {
	const char *name;
	int bit;
} openssl_armcap_bits[] = {
    {"neon", 0}, {"aes", 2}, {"sha1", 3}, {"sha256", 4}, {"pmull", 5}, {"sha512", 6},
};

/* OPENSSL_armcap as set, and the word libcrypto dispatches on where its
 * CPUINFO prints it ("OPENSSL_armcap=0x.."): what a mask did. */
static void openssl_describe_armcap(json_t *obj, const char *info)
{
	const char *env = getenv("OPENSSL_armcap");
	const char *word = info ? strstr(info, "OPENSSL_armcap=") : NULL;
	char *end, hex[24];

	json_object_set_new(obj, "armcap_env", env ? json_string(env) : json_null());
	if (!word)
		return;
	word += strlen("OPENSSL_armcap=");
	unsigned long cap = strtoul(word, &end, 0);
	if (end == word)
		return;
	snprintf(hex, sizeof hex, "0x%lx", cap);
	json_object_set_new(obj, "armcap_word", json_string(hex));
	json_t *features = json_array();
	for (size_t i = 0; i < sizeof openssl_armcap_bits / sizeof openssl_armcap_bits[0]; i++)
		if (cap >> openssl_armcap_bits[i].bit & 1)
			json_array_append_new(features, json_string(openssl_armcap_bits[i].name));
	json_object_set_new(obj, "armcap_features", features);
}
#endif

/* The capability words OpenSSL dispatches on. CPUINFO also echoes the
 * OPENSSL_ia32cap environment value as read when the string was first built,
 * even when the mask came too late to take effect, so only the words count. */
static void openssl_describe(json_t *obj)
{
	const char *info = OpenSSL_version(OPENSSL_CPU_INFO);
	const char *env = getenv("OPENSSL_ia32cap");
	const char *words = info ? strstr(info, "OPENSSL_ia32cap=") : NULL;
	unsigned long long cap[2];
	char *end;

	json_object_set_new(obj, "cpuinfo", info ? json_string(info) : json_null());
	json_object_set_new(obj, "ia32cap_env", env ? json_string(env) : json_null());
#if defined(__aarch64__)
	openssl_describe_armcap(obj, info);
#endif
	if (!words)
		return;
	words += strlen("OPENSSL_ia32cap=");
	cap[0] = strtoull(words, &end, 16);
	if (end == words || *end != ':')
		return;
	words = end + 1;
	cap[1] = strtoull(words, &end, 16);
	if (end == words)
		return;

	json_t *features = json_array();
	char hex[2][24];

	for (int w = 0; w < 2; w++)
		snprintf(hex[w], sizeof hex[w], "0x%llx", cap[w]);
	json_object_set_new(obj, "ia32cap_words", json_pack("[ss]", hex[0], hex[1]));
	for (size_t i = 0; i < sizeof openssl_cap_bits / sizeof openssl_cap_bits[0]; i++)
		if (cap[openssl_cap_bits[i].word] >> openssl_cap_bits[i].bit & 1)
			json_array_append_new(features, json_string(openssl_cap_bits[i].name));
	json_object_set_new(obj, "ia32cap_features", features);
}

const struct cb_engine cb_engine_openssl = {
    .name = "openssl",
    .kind = "library",
    .version = openssl_version,
    .probe = openssl_probe,
    .supports = openssl_supports,
    .open = openssl_open,
    .call = openssl_call,
    .loop = openssl_loop,
    .finish = openssl_finish,
    .close = openssl_close,
    .describe = openssl_describe,
    .options = openssl_options,
    .max_aad = INT_MAX, /* EVP_CipherUpdate takes the AAD in one int-sized piece */
    .pk = &cb_openssl_pk,
};
