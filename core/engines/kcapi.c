/* kcapi.c: the Linux kernel crypto API through AF_ALG sockets (libkcapi).
 *
 * Every operation is a round trip to the kernel (sendmsg or vmsplice, then
 * recvmsg), and the kernel picks the implementation (the highest priority
 * driver in /proc/crypto). The user-space interface needs the kernel options
 * CRYPTO_USER_API_HASH, _SKCIPHER and _AEAD; without them socket(AF_ALG)
 * fails with EAFNOSUPPORT, which probe() reports. libkcapi prints its errors
 * to stderr unless told not to, so the engine silences it. */
#include "core/engine/engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/base/errbuf.h"

#include <kcapi.h>

/* libkcapi's ALG_MAX_PAGES: one kernel operation takes at most this many
 * pages; an AEAD message must fit in one. */
#define KCAPI_MAX_PAGES 16

/* Canonical name -> the kernel's name. */
static const struct {
	const char *name;
	const char *kernel_name;
} kc_algs[] = {
    {"md5", "md5"},
    {"sha1", "sha1"},
    {"sha256", "sha256"},
    {"sha512", "sha512"},
    {"blake2b-512", "blake2b-512"},
    {"sha3-256", "sha3-256"},
    {"aes-128-cbc", "cbc(aes)"},
    {"aes-256-cbc", "cbc(aes)"},
    {"aes-128-ctr", "ctr(aes)"},
    {"aes-256-ctr", "ctr(aes)"},
    {"aes-128-gcm", "gcm(aes)"},
    {"aes-256-gcm", "gcm(aes)"},
    {"chacha20-poly1305", "rfc7539(chacha20,poly1305)"},
};

struct kc_ctx {
	struct cb_engine_setup setup;
	const char *kernel_name;
	struct kcapi_handle *handle;
	/* The kernel writes the AAD back ahead of the result: it lands here, so
	 * OUT keeps the contract's layout (NULL when there is no AAD). */
	unsigned char *aad_out;
};

static const char *kc_kernel_name(const struct cb_algorithm *alg)
{
	for (size_t i = 0; i < sizeof kc_algs / sizeof kc_algs[0]; i++)
		if (strcmp(kc_algs[i].name, alg->name) == 0)
			return kc_algs[i].kernel_name;
	return NULL;
}

static char kc_version_buf[64];
static pthread_once_t kc_version_once = PTHREAD_ONCE_INIT;

static void kc_version_fill(void)
{
	kcapi_versionstring(kc_version_buf, sizeof kc_version_buf);
}

static const char *kc_version(void)
{
	pthread_once(&kc_version_once, kc_version_fill);
	return kc_version_buf;
}

static int kc_probe(char *why, size_t why_len)
{
	struct kcapi_handle *handle = NULL;
	int fd;
	int rc;

	kcapi_set_verbosity(KCAPI_LOG_NONE);
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int e = errno;
		snprintf(why, why_len, "%s (socket: %s, errno %d)",
		         e == EAFNOSUPPORT ? "AF_ALG sockets not supported by this kernel"
		                           : "AF_ALG socket refused",
		         strerror(e), e);
		return 1;
	}
	close(fd);
	/* The socket family can exist without the hash interface. */
	rc = kcapi_md_init(&handle, "sha256", 0);
	if (rc == -EPROTONOSUPPORT) {
		/* libkcapi asks about every algorithm through NETLINK_CRYPTO. */
		snprintf(why, why_len,
		         "the kernel's crypto netlink interface is missing (CONFIG_CRYPTO_USER, "
		         "module crypto_user), which libkcapi needs (kcapi_md_init: %s, errno %d)",
		         strerror(-rc), -rc);
		return 1;
	}
	if (rc < 0) {
		snprintf(why, why_len,
		         "AF_ALG hash interface unavailable (kcapi_md_init: %s, errno %d)",
		         strerror(-rc), -rc);
		return 1;
	}
	kcapi_md_destroy(handle);
	return 0;
}

/* What the kernel could offer; whether this kernel has the interface and
 * the driver is probe()'s and open()'s question. Cipher streams (sendmsg
 * with MSG_MORE, at most 16 pages in flight) are not offered. */
static bool kc_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	if (!kc_kernel_name(alg) || !cb_op_applies(alg, op))
		return false;
	return mode == CB_MODE_MESSAGE || alg->kind == CB_KIND_HASH;
}

/* ---- Handles ---- */

static void kc_handle_close(const struct kc_ctx *c, struct kcapi_handle *h)
{
	if (!h)
		return;
	if (c->setup.alg->kind == CB_KIND_HASH)
		kcapi_md_destroy(h);
	else if (c->setup.alg->kind == CB_KIND_CIPHER)
		kcapi_cipher_destroy(h);
	else
		kcapi_aead_destroy(h);
}

/* A keyed handle (socket, bind, accept, setkey): negative errno on failure. */
static int kc_handle_open(const struct kc_ctx *c, struct kcapi_handle **h)
{
	uint32_t key_len = (uint32_t)c->setup.alg->key_len;
	int rc;

	*h = NULL;
	switch (c->setup.alg->kind) {
	case CB_KIND_HASH:
		return kcapi_md_init(h, c->kernel_name, 0);
	case CB_KIND_CIPHER:
		rc = kcapi_cipher_init(h, c->kernel_name, 0);
		if (rc == 0)
			rc = kcapi_cipher_setkey(*h, c->setup.key, key_len);
		break;
	default:
		rc = kcapi_aead_init(h, c->kernel_name, 0);
		if (rc == 0)
			rc = kcapi_aead_setkey(*h, c->setup.key, key_len);
		if (rc == 0)
			rc = kcapi_aead_settaglen(*h, (uint32_t)c->setup.alg->tag_len);
		/* Sent with every operation's metadata (ALG_SET_AEAD_ASSOCLEN). */
		if (rc == 0)
			kcapi_aead_setassoclen(*h, c->setup.aad_len);
		break;
	}
	if (rc < 0) {
		kc_handle_close(c, *h);
		*h = NULL;
	}
	return rc;
}

/* ---- Operations ---- */

/* LEN bytes of IN in updates of at most the configured chunk. */
static int kc_absorb(const struct kc_ctx *c, struct kcapi_handle *h, const unsigned char *in,
                     size_t len)
{
	size_t step = c->setup.chunk ? c->setup.chunk : len;
	size_t done = 0;

	do {
		size_t n = len - done < step ? len - done : step;
		if (kcapi_md_update(h, in + done, n) < 0)
			return -1;
		done += n;
	} while (done < len);
	return 0;
}

static int kc_hash(const struct kc_ctx *c, struct kcapi_handle *h, const unsigned char *in,
                   size_t len, unsigned char *out)
{
	size_t digest_len = c->setup.alg->digest_len;
	ssize_t got;

	if (c->setup.chunk == 0)
		got = kcapi_md_digest(h, in, len, out, digest_len);
	else if (kc_absorb(c, h, in, len) != 0)
		return CB_FAILED;
	else
		got = kcapi_md_final(h, out, digest_len);
	return got == (ssize_t)digest_len ? CB_OK : CB_FAILED;
}

/* The bytes one kernel operation takes: libkcapi's ALG_MAX_PAGES pages. */
static size_t kc_max_op_bytes(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return (size_t)(page > 0 ? page : 4096) * KCAPI_MAX_PAGES;
}

/* The chaining value after N more bytes: CBC's last ciphertext block (LAST),
 * or CTR's counter (a 128-bit big-endian number) advanced by N / 16. */
static void kc_next_iv(const struct kc_ctx *c, unsigned char iv[16], const unsigned char *last,
                       size_t n)
{
	size_t add = n / 16;
	unsigned carry = 0;

	if (strncmp(c->kernel_name, "cbc(", 4) == 0) {
		memcpy(iv, last, 16);
		return;
	}
	for (int i = 15; i >= 0 && (add || carry); i--) {
		unsigned sum = iv[i] + (unsigned)(add & 0xff) + carry;
		iv[i] = (unsigned char)sum;
		carry = sum >> 8;
		add >>= 8;
	}
}

/* libkcapi splits a message longer than one kernel operation into several
 * and sends every one the same IV, so past 16 pages the CBC chain and the
 * CTR counter restart: a wrong result. The engine splits such a message
 * itself and carries the chaining value from one operation to the next. */
static int kc_cipher(const struct kc_ctx *c, struct kcapi_handle *h, const unsigned char *in,
                     size_t len, unsigned char *out)
{
	bool encrypt = c->setup.op == CB_OP_ENCRYPT;
	size_t step = kc_max_op_bytes();
	unsigned char iv[CB_MAX_IV], last[16];
	size_t done = 0;

	if (len % c->setup.alg->block_len != 0)
		return CB_FAILED;
	memcpy(iv, c->setup.iv, sizeof iv);
	while (done < len) {
		size_t n = len - done < step ? len - done : step;
		ssize_t got;

		/* Decrypting, the chaining block is input: keep it before OUT,
		 * which may be IN, overwrites it. */
		if (!encrypt && n >= 16)
			memcpy(last, in + done + n - 16, 16);
		if (encrypt)
			got = kcapi_cipher_encrypt(h, in + done, n, iv, out + done, n,
			                           KCAPI_ACCESS_HEURISTIC);
		else
			got = kcapi_cipher_decrypt(h, in + done, n, iv, out + done, n,
			                           KCAPI_ACCESS_HEURISTIC);
		if (got != (ssize_t)n)
			return CB_FAILED;
		done += n;
		if (done < len)
			kc_next_iv(c, iv, encrypt ? out + done - 16 : last, n);
	}
	return CB_OK;
}

/* One AEAD operation through the stream calls, which take the input as an
 * iovec: decryption sends the ciphertext and the separate tag as two
 * pieces, where the one-shot call would need them copied together. Both
 * directions use the same path so that they compare. With AAD, the kernel
 * reads AAD || text [|| tag] and writes AAD || result: the AAD goes in as
 * its own first piece and comes back into aad_out, also a piece of its own,
 * so neither buffer is copied. Without AAD no piece is added.
 *
 * The kernel runs the operation only for a read that asks for at least one
 * byte: decrypting an empty text without AAD, which returns nothing, would
 * otherwise leave the tag unchecked and the socket busy, so that read asks
 * for one byte (OUT has room) and gets none. */
static int kc_aead(const struct kc_ctx *c, struct kcapi_handle *h, const unsigned char *in,
                   size_t len, unsigned char *out)
{
	bool encrypt = c->setup.op == CB_OP_ENCRYPT;
	size_t out_len = encrypt ? len + c->setup.alg->tag_len : len;
	struct iovec input[3], output[2];
	size_t n_in = 0, n_out = 0;
	ssize_t got;

	if (c->setup.aad_len) {
		input[n_in++] =
		    (struct iovec){.iov_base = (void *)c->setup.aad, .iov_len = c->setup.aad_len};
		output[n_out++] =
		    (struct iovec){.iov_base = c->aad_out, .iov_len = c->setup.aad_len};
	}
	input[n_in++] = (struct iovec){.iov_base = (void *)in, .iov_len = len};
	if (!encrypt)
		input[n_in++] = (struct iovec){.iov_base = (void *)c->setup.tag,
		                               .iov_len = c->setup.alg->tag_len};
	output[n_out++] =
	    (struct iovec){.iov_base = out, .iov_len = out_len || c->setup.aad_len ? out_len : 1};

	got = encrypt ? kcapi_aead_stream_init_enc(h, c->setup.iv, NULL, 0)
	              : kcapi_aead_stream_init_dec(h, c->setup.iv, NULL, 0);
	if (got < 0)
		return CB_FAILED;
	if (kcapi_aead_stream_update_last(h, input, n_in) < 0)
		return CB_FAILED;
	got = kcapi_aead_stream_op(h, output, n_out);
	if (got == -EBADMSG)
		return CB_REJECTED;
	/* The kernel counts the AAD it wrote back. */
	return got == (ssize_t)(c->setup.aad_len + out_len) ? CB_OK : CB_FAILED;
}

static int kc_run(const struct kc_ctx *c, struct kcapi_handle *h, const unsigned char *in,
                  size_t len, unsigned char *out)
{
	switch (c->setup.alg->kind) {
	case CB_KIND_HASH:
		return kc_hash(c, h, in, len, out);
	case CB_KIND_CIPHER:
		return kc_cipher(c, h, in, len, out);
	default:
		return kc_aead(c, h, in, len, out);
	}
}

/* ---- Engine ---- */

/* An AEAD message travels whole through the kernel's buffers, tag
 * included (and AAD, which the agreement and measurements do not use). */
static size_t kc_max_len(const struct cb_algorithm *alg, enum cb_op op)
{
	(void)op;
	return alg->kind == CB_KIND_AEAD ? kc_max_op_bytes() - alg->tag_len : 0;
}

static void *kc_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                     char *err, size_t err_len)
{
	const struct cb_algorithm *alg = setup->alg;
	struct kc_ctx *c;
	int rc;

	(void)cell;
	kcapi_set_verbosity(KCAPI_LOG_NONE);
	if (alg->kind == CB_KIND_AEAD) {
		size_t limit = kc_max_op_bytes();
		/* The AAD travels through the kernel's buffers with the text. */
		if (setup->aad_len > limit || setup->len + alg->tag_len > limit - setup->aad_len) {
			cb_errorf(err, err_len,
			          "kcapi: an AF_ALG AEAD operation holds at most %zu bytes "
			          "(%d pages); %zu bytes plus the tag%s do not fit",
			          limit, KCAPI_MAX_PAGES, setup->len,
			          setup->aad_len ? " and the AAD" : "");
			return NULL;
		}
	}
	c = calloc(1, sizeof *c);
	if (!c) {
		cb_errorf(err, err_len, "kcapi: out of memory");
		return NULL;
	}
	c->setup = *setup;
	c->kernel_name = kc_kernel_name(alg);
	if (setup->aad_len) {
		c->aad_out = malloc(setup->aad_len);
		if (!c->aad_out) {
			cb_errorf(err, err_len, "kcapi: out of memory");
			free(c);
			return NULL;
		}
	}

	/* Open a handle even when recreating: it proves the kernel has the
	 * driver, so a missing one fails here rather than in every call. */
	rc = kc_handle_open(c, &c->handle);
	if (rc < 0) {
		cb_errorf(err, err_len, "kcapi: opening %s: %s, errno %d", c->kernel_name,
		          strerror(-rc), -rc);
		free(c->aad_out);
		free(c);
		return NULL;
	}
	if (c->setup.recreate) {
		kc_handle_close(c, c->handle);
		c->handle = NULL;
	}
	return c;
}

static int kc_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct kc_ctx *c = ctx;
	struct kcapi_handle *h;
	int rc;

	if (c->setup.stream)
		return kc_absorb(c, c->handle, in, len) == 0 ? CB_OK : CB_FAILED;
	if (!c->setup.recreate)
		return kc_run(c, c->handle, in, len, out);
	if (kc_handle_open(c, &h) < 0)
		return CB_FAILED;
	rc = kc_run(c, h, in, len, out);
	kc_handle_close(c, h);
	return rc;
}

static int kc_finish(void *ctx, unsigned char *out)
{
	struct kc_ctx *c = ctx;
	ssize_t got;

	if (!c->setup.stream)
		return CB_FAILED;
	got = kcapi_md_final(c->handle, out, c->setup.alg->digest_len);
	return got == (ssize_t)c->setup.alg->digest_len ? CB_OK : CB_FAILED;
}

static void kc_close(void *ctx)
{
	struct kc_ctx *c = ctx;

	if (!c)
		return;
	kc_handle_close(c, c->handle);
	free(c->aad_out);
	free(c);
}

static bool kc_known_kernel_name(const char *kernel_name)
{
	for (size_t i = 0; i < sizeof kc_algs / sizeof kc_algs[0]; i++)
		if (strcmp(kc_algs[i].kernel_name, kernel_name) == 0)
			return true;
	return false;
}

/* The kernel driver each kernel name resolves to now: the highest
 * priority entry of /proc/crypto (templates such as cbc(aes) appear only
 * once something instantiated them). */
static void kc_describe(json_t *obj)
{
	json_t *drivers = json_object();
	json_t *priorities = json_object();
	FILE *f = fopen("/proc/crypto", "re");
	char line[256], name[128] = "", driver[128] = "";

	json_object_set_new(obj, "implementation", json_string("chosen by the kernel"));
	while (f && fgets(line, sizeof line, f)) {
		long priority;
		if (sscanf(line, "name : %127s", name) == 1 ||
		    sscanf(line, "driver : %127s", driver) == 1)
			continue;
		if (sscanf(line, "priority : %ld", &priority) != 1 || !kc_known_kernel_name(name))
			continue;
		json_t *best = json_object_get(priorities, name);
		if (best && json_integer_value(best) >= priority)
			continue;
		json_object_set_new(priorities, name, json_integer(priority));
		json_object_set_new(drivers, name, json_string(driver));
	}
	if (f)
		fclose(f);
	json_decref(priorities);
	json_object_set_new(obj, "drivers", drivers);
}

/* The timed loop: direct calls (engine.h). */
static uint64_t kc_loop(void *ctx, const unsigned char *in, size_t len, unsigned char *out,
                        uint64_t calls, int expect, int *last)
{
	return cb_engine_loop(kc_call, ctx, in, len, out, calls, expect, last);
}

const struct cb_engine cb_engine_kcapi = {
    .name = "kcapi",
    .kind = "library",
    .version = kc_version,
    .probe = kc_probe,
    .supports = kc_supports,
    .open = kc_open,
    .call = kc_call,
    .loop = kc_loop,
    .finish = kc_finish,
    .close = kc_close,
    .describe = kc_describe,
    .max_len = kc_max_len,
};
