/* cmd_worker.c: `cryptobench worker ENGINE`, a hidden subcommand: an
 * in-process engine served over the worker protocol
 * (core/engines/workers/PROTOCOL.md). cryptobench starts it with a
 * variant's `env` in its environment, so the engine's library reads that
 * environment when this process starts (CPU-feature masks are read then). */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/machine/clock.h"
#include "core/engine/engine.h"
#include "core/base/errbuf.h"
#include "core/algorithms/input.h"
#include "core/algorithms/reference.h"
#include "core/engine/worker.h"

static void send(json_t *obj)
{
	char *text = json_dumps(obj, JSON_COMPACT);

	if (text) {
		fputs(text, stdout);
		fputc('\n', stdout);
		fflush(stdout);
	}
	free(text);
	json_decref(obj);
}

/* What the engine's calls are, in the hello's `calls`: the engine's `call`
 * into a buffer made before the loop; no allocating call. */
static json_t *calls_of(const struct cb_engine *e)
{
	char api[128];

	snprintf(api, sizeof api, "%s call (core/engine/engine.h) into a buffer made once",
	         e->name);
	return json_pack("{s:s, s:n}", "reuse", api, "fresh");
}

static json_t *hello(const struct cb_engine *e)
{
	json_t *algorithms = json_object(), *features = json_object(), *calls = json_object();
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	exe[n > 0 ? n : 0] = '\0';
	for (size_t i = 0; i < cb_algorithm_count(); i++) {
		const struct cb_algorithm *alg = cb_algorithm_at(i);
		json_t *ops = json_array();

		json_t *by_op = json_object();

		for (int op = 0; op < CB_OP_COUNT; op++)
			if (cb_op_applies(alg, op) &&
			    cb_engine_supports(e, alg, op, CB_MODE_MESSAGE)) {
				json_array_append_new(ops, json_string(cb_op_name(op)));
				json_object_set_new(by_op, cb_op_name(op), calls_of(e));
			}
		if (json_array_size(ops)) {
			json_object_set_new(algorithms, alg->name, ops);
			json_object_set_new(calls, alg->name, by_op);
		} else {
			json_decref(ops);
			json_decref(by_op);
		}
	}
	if (e->describe)
		e->describe(features);
	return json_pack("{s:s, s:i, s:s, s:s+, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "type",
	                 "hello", "protocol", CB_WORKER_PROTOCOL, "engine", e->name, "runtime",
	                 "cryptobench ", PACKAGE_VERSION, "executable", exe, "library",
	                 e->version(), "module", e->name, "clock", "CLOCK_MONOTONIC_RAW",
	                 "cpu_clock", "CLOCK_THREAD_CPUTIME_ID", "algorithms", algorithms, "calls",
	                 calls, "features", features);
}

static int material(json_t *v, unsigned char *out, size_t len, const unsigned char *standard)
{
	const char *s = json_string_value(v);

	if (!s || strcmp(s, "counting") == 0) {
		memcpy(out, standard, len);
		return 0;
	}
	if (strlen(s) != 2 * len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	return 0;
}

/* The test-only fault switch (engine.h) inside the worker: FAULT hits the
 * requests of its round (a request without a round, a known-answer check, is
 * never hit). Hang and crash happen here, in this process, so the run that
 * started it sees a worker that hangs or dies. Returns the kind to apply
 * after the calls (wrong, nothing, error, slow), or CB_FAULT_NONE. */
static enum cb_fault_kind fault_for(const struct cb_fault *fault, const struct cb_engine *e,
                                    json_t *req)
{
	json_t *round = json_object_get(req, "round");

	if (!json_is_integer(round) || !cb_fault_hits(fault, e, (long)json_integer_value(round)))
		return CB_FAULT_NONE;
	if (fault->kind == CB_FAULT_HANG)
		for (;;)
			pause(); /* a call that never returns */
	if (fault->kind == CB_FAULT_CRASH) {
		signal(SIGSEGV, SIG_DFL); /* a plain crash, even under a sanitizer's handler */
		raise(SIGSEGV);
		abort();
	}
	return fault->kind;
}

/* One request, read. */
struct request {
	const struct cb_algorithm *alg;
	int op;
	size_t size;
	uint64_t calls;
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV], tag[CB_MAX_TAG];
	struct cb_input in;
	unsigned char *data; /* what the calls take: the input, or its ciphertext */
	unsigned char *ct;
	void *ct_allocation;
	size_t input_offset, out; /* the placement asked for: bytes past a page boundary */
	char sha[65];             /* of the input */
	void *given_allocation;   /* a known-answer check's bytes (input.base64) */
	unsigned char *aad;       /* its AAD (NULL: none) */
	size_t aad_len;
	/* A public-key cell: the keys imported from the request's "pk", the
	 * digest and signature it carries (core/algorithms/pk.h's setup). */
	struct cb_pk_key *pk_key, *pk_peer;
	unsigned char pk_digest[CB_PK_MAX_DIGEST], pk_sig[CB_PK_MAX_SIG];
	struct cb_pk_setup pk;
	size_t out_len; /* the output buffer: the message or the public-key output, if longer */
};

/* PK's hex field NAME into OUT (at most MAX bytes): its length, 0 when
 * absent, or -1 when it is not hex of at most MAX bytes. */
static long pk_hex(json_t *pk, const char *name, unsigned char *out, size_t max)
{
	const char *s = json_string_value(json_object_get(pk, name));
	size_t n = s ? strlen(s) : 0;

	if (!s)
		return 0;
	if (n % 2 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	return (long)(n / 2);
}

/* A key of ALG from PK's DER field NAME, else from its raw field RAW
 * (PRIVATE: a private key's raw form, else a public key's). NULL with ERR;
 * NULL with ERR empty when both are absent. */
static struct cb_pk_key *pk_import(const struct cb_algorithm *alg, json_t *pk, const char *name,
                                   const char *raw, bool private, char *err, size_t err_len)
{
	static unsigned char buf[8192]; /* RSA-4096's PKCS #8 is about 2.4 KB */
	long n = pk_hex(pk, name, buf, sizeof buf);

	err[0] = '\0';
	if (n > 0)
		return cb_pk_key_from_der(alg, buf, (size_t)n, err, err_len);
	if (n == 0 && (n = pk_hex(pk, raw, buf, sizeof buf)) > 0)
		return private ? cb_pk_key_from_raw(alg, buf, (size_t)n, err, err_len)
		               : cb_pk_key_from_public(alg, buf, (size_t)n, err, err_len);
	if (n < 0)
		cb_errorf(err, err_len, "pk.%s or pk.%s is not hex of a key", name, raw);
	return NULL;
}

/* A public-key request's "pk" (PROTOCOL.md) into Q's setup: the key (its
 * PKCS #8 DER, else its raw form, else the public key alone for a verify),
 * the peer, the digest (the reference's of the message when absent) and the
 * signature. 0, or -1 with ERR. */
static int read_pk(json_t *req, struct request *q, const unsigned char *msg, char *err,
                   size_t err_len)
{
	json_t *pk = json_object_get(req, "pk");
	long n;

	if (q->op == CB_OP_KEYGEN)
		return 0; /* a new key per call: none given */
	if (!json_is_object(pk))
		return cb_errorf(err, err_len, "a public-key request without its \"pk\" object");
	q->pk_key = pk_import(q->alg, pk, "private", "private_raw", true, err, err_len);
	if (!q->pk_key && !err[0] && q->op != CB_OP_DERIVE)
		q->pk_key = pk_import(q->alg, pk, "public", "public_raw", false, err, err_len);
	if (!q->pk_key)
		return err[0] ? -1 : cb_errorf(err, err_len, "pk: no key");
	if (q->op == CB_OP_DERIVE) {
		q->pk_peer = pk_import(q->alg, pk, "peer", "peer_raw", false, err, err_len);
		if (!q->pk_peer)
			return err[0] ? -1 : cb_errorf(err, err_len, "pk: no peer");
	} else if (cb_pk_digest_len(q->alg)) {
		n = pk_hex(pk, "digest", q->pk_digest, sizeof q->pk_digest);
		if (n < 0 || (n && (size_t)n != cb_pk_digest_len(q->alg)))
			return cb_errorf(err, err_len, "pk.digest is not %zu bytes of hex",
			                 cb_pk_digest_len(q->alg));
		if (!n && cb_pk_digest(q->alg, msg, q->size, q->pk_digest, err, err_len) != 0)
			return -1;
		q->pk.digest = q->pk_digest;
		q->pk.digest_len = cb_pk_digest_len(q->alg);
	}
	if (q->op == CB_OP_VERIFY || q->op == CB_OP_VERIFY_FORGED) {
		n = pk_hex(pk, "signature", q->pk_sig, sizeof q->pk_sig);
		if (n <= 0)
			return cb_errorf(err, err_len, "pk.signature: none, or not hex");
		q->pk.sig = q->pk_sig;
		q->pk.sig_len = (size_t)n;
	}
	q->pk.key = q->pk_key;
	q->pk.peer = q->pk_peer;
	return 0;
}

/* A known-answer check (PROTOCOL.md): the bytes themselves in input.base64,
 * the key, IV and AAD in hex, and for a decryption the tag to check (a
 * decrypt-forged request's tag is the forged one). 0, or -1 with ERR. */
static int read_given(json_t *req, struct request *q, char *err, size_t err_len)
{
	const char *text =
	    json_string_value(json_object_get(json_object_get(req, "input"), "base64"));
	const char *aad = json_string_value(json_object_get(req, "aad"));
	unsigned char zero[CB_MAX_TAG] = {0};
	size_t len = strlen(text) / 4 * 3 + 1;

	if (!(q->data =
	          cb_aligned_alloc(len + (aad ? strlen(aad) / 2 : 0) + 1, 0, &q->given_allocation)))
		return cb_errorf(err, err_len, "out of memory");
	if (cb_base64_decode(text, q->data, len) != (long)q->size)
		return cb_errorf(err, err_len, "input.base64 is not %zu bytes of base64", q->size);
	if (q->alg->kind == CB_KIND_AEAD && q->op != CB_OP_ENCRYPT &&
	    material(json_object_get(req, "tag"), q->tag, q->alg->tag_len, zero) != 0)
		return cb_errorf(err, err_len, "bad tag");
	if (aad) {
		q->aad = q->data + len;
		q->aad_len = strlen(aad) / 2;
		if (material(json_object_get(req, "aad"), q->aad, q->aad_len, zero) != 0)
			return cb_errorf(err, err_len, "bad aad");
	}
	cb_sha256_hex(q->data, q->size, q->sha);
	return cb_alg_is_pk(q->alg) ? read_pk(req, q, q->data, err, err_len) : 0;
}

/* REQ read into Q, its input generated (and encrypted for a decryption).
 * 0, or -1 with ERR. */
static int read_request(json_t *req, struct request *q, char *err, size_t err_len)
{
	json_t *input = json_object_get(req, "input");
	unsigned char std_key[CB_MAX_KEY], std_iv[CB_MAX_IV];

	q->alg = cb_algorithm_find(json_string_value(json_object_get(req, "algorithm")) ?: "");
	q->op = cb_op_parse(json_string_value(json_object_get(req, "op")) ?: "");
	q->size = (size_t)json_integer_value(json_object_get(req, "size"));
	q->calls = (uint64_t)json_integer_value(json_object_get(req, "calls"));
	bool given = json_is_string(json_object_get(input, "base64"));
	if (!q->alg || q->op < 0 || !cb_op_applies(q->alg, q->op) || !q->calls ||
	    (!given && !json_is_integer(json_object_get(input, "seed"))))
		return cb_errorf(err, err_len,
		                 "a request this worker cannot serve (algorithm, op, size, calls "
		                 "and input wanted)");
	cb_standard_key(q->alg, std_key);
	cb_standard_iv(q->alg, std_iv);
	if (material(json_object_get(req, "key"), q->key, q->alg->key_len, std_key) != 0 ||
	    material(json_object_get(req, "iv"), q->iv, q->alg->iv_len, std_iv) != 0)
		return cb_errorf(err, err_len, "bad key or iv");
	if (strcmp(json_string_value(json_object_get(req, "output")) ?: "reuse", "reuse") != 0)
		return cb_errorf(err, err_len, "an in-process engine has only output reuse");
	if (given)
		return read_given(req, q, err, err_len);
	q->input_offset = (size_t)json_integer_value(json_object_get(req, "input_offset")) % 4096;
	q->out =
	    (size_t)json_integer_value(json_object_get(json_object_get(req, "layout"), "out")) %
	    4096;
	if (cb_input_create(&q->in, q->size,
	                    (uint32_t)json_integer_value(json_object_get(input, "seed")),
	                    q->input_offset) != 0)
		return cb_errorf(err, err_len, "out of memory");
	q->data = q->in.data;
	cb_sha256_hex(q->in.data, q->size, q->sha);
	if (cb_alg_is_pk(q->alg))
		return read_pk(req, q, q->data, err, err_len);
	if (q->op == CB_OP_DECRYPT || q->op == CB_OP_DECRYPT_FORGED) {
		if (!(q->ct = cb_aligned_alloc(q->size, q->input_offset, &q->ct_allocation)))
			return cb_errorf(err, err_len, "out of memory");
		if (cb_reference_encrypt(q->alg, q->key, q->iv, q->in.data, q->size, q->ct, q->tag,
		                         err, err_len) != 0)
			return -1;
		if (q->op == CB_OP_DECRYPT_FORGED)
			q->tag[0] ^= 1;
		q->data = q->ct;
	}
	return 0;
}

/* The calls, timed, with the test-only fault KIND in their place. */
struct timed {
	uint64_t ns, cpu_ns;
	int bad, rc; /* calls whose status was not the expected one, and the last */
	int failed;  /* calls that returned CB_FAILED */
};

static struct timed time_calls(const struct cb_engine *e, void *ctx, const struct request *q,
                               enum cb_fault_kind kind, unsigned char *out)
{
	int expect =
	    q->op == CB_OP_DECRYPT_FORGED || q->op == CB_OP_VERIFY_FORGED ? CB_REJECTED : CB_OK;
	struct timed t = {.rc = expect};
	cb_call_fn *call = cb_engine_calls_for(e, q->alg).call; /* chosen before the clock */
	uint64_t cpu0 = cb_thread_cpu_ns(), t0 = cb_wall_ns(), t1, cpu1;

	for (uint64_t i = 0; i < q->calls && kind != CB_FAULT_NOTHING; i++) {
		int r = kind == CB_FAULT_ERROR ? CB_FAILED : call(ctx, q->data, q->size, out);

		if (r != expect) {
			t.rc = r;
			t.bad++;
			t.failed += r == CB_FAILED;
		}
	}
	t1 = cb_wall_ns();
	cpu1 = cb_thread_cpu_ns();
	if (kind == CB_FAULT_SLOW) { /* ten times the calls' own time */
		uint64_t slept = 9 * (t1 - t0);
		struct timespec rest = {(time_t)(slept / 1000000000u), (long)(slept % 1000000000u)};

		nanosleep(&rest, NULL);
		t1 = cb_wall_ns();
	}
	if (kind == CB_FAULT_NOTHING)
		memset(out, 0xa5, q->out_len);
	if (kind == CB_FAULT_WRONG)
		out[0] ^= 1;
	t.ns = t1 - t0;
	t.cpu_ns = cpu1 - cpu0;
	return t;
}

static json_t *answer_of(const struct cb_engine *e, const struct request *q, const struct timed *t,
                         const unsigned char *out)
{
	bool rejected = t->rc == CB_REJECTED;
	size_t out_len = rejected ? 0 : cb_output_len(q->alg, q->op, q->size);
	char *b64;

	/* An ECDSA DER signature is as long as it says (cb_pk_sig_len); one
	 * that is not DER (a fault) goes out whole, for the runner to reject. */
	if (!rejected && q->op == CB_OP_SIGN && cb_pk_info(q->alg)->encoding == CB_PK_SIG_DER &&
	    cb_pk_sig_len(q->alg, out, out_len))
		out_len = cb_pk_sig_len(q->alg, out, out_len);
	b64 = cb_base64_encode(out, out_len);
	json_t *calls = calls_of(e);
	json_t *answer = json_pack(
	    "{s:s, s:I, s:I, s:I, s:{s:I, s:O, s:s, s:i}, s:{s:I, s:I, s:n}, s:s, s:s}", "status",
	    rejected ? "rejected" : "ok", "calls", (json_int_t)q->calls, "ns", (json_int_t)t->ns,
	    "cpu_ns", (json_int_t)t->cpu_ns, "timed", "calls", (json_int_t)q->calls, "api",
	    json_object_get(calls, "reuse"), "output", "reuse", "assembled_in_loop", 0, "placed",
	    "input_offset", (json_int_t)q->input_offset, "out", (json_int_t)q->out, "stack",
	    "input_sha256", q->sha, "output", b64 ? b64 : "");

	json_decref(calls);

	free(b64);
	return answer;
}

/* One request: its answer (status, times, digest of the input, output). */
static json_t *run(const struct cb_engine *e, const struct cb_fault *fault, json_t *req, char *err,
                   size_t err_len)
{
	struct request q = {0};
	struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	struct cb_cell_setup setup;
	unsigned char *out = NULL;
	void *ctx = NULL, *out_allocation = NULL;
	json_t *answer = NULL;
	enum cb_fault_kind kind = fault_for(fault, e, req);

	if (read_request(req, &q, err, err_len) != 0)
		goto done;
	q.out_len = cb_output_len(q.alg, q.op, q.size) > q.size ? cb_output_len(q.alg, q.op, q.size)
	                                                        : q.size;
	q.out_len += CB_OUTPUT_SLACK;
	if (!(out = cb_aligned_alloc(q.out_len, q.out, &out_allocation))) {
		cb_errorf(err, err_len, "out of memory");
		goto done;
	}
	memset(out, 0, q.out_len); /* no page fault in the timed calls */
	setup = (struct cb_cell_setup){.alg = q.alg,
	                               .op = q.op,
	                               .len = q.size,
	                               .key = q.key,
	                               .iv = q.iv,
	                               .tag = q.tag,
	                               .aad = q.aad,
	                               .aad_len = q.aad_len,
	                               .config = &config,
	                               .pk = cb_alg_is_pk(q.alg) ? &q.pk : NULL};
	if (!(ctx = cb_engine_open(e, &setup, err, err_len)))
		goto done;
	struct timed t = time_calls(e, ctx, &q, kind, out);
	/* Every call's status the same (a verify's "rejected", a forgery's "ok"
	 * too: the run that asked judges it), else an error. */
	if (t.bad && (t.failed || (uint64_t)t.bad != q.calls))
		cb_errorf(err, err_len, "%d of %llu calls returned %d", t.bad,
		          (unsigned long long)q.calls, t.rc);
	else
		answer = answer_of(e, &q, &t, out);
done:
	if (ctx)
		cb_engine_calls_for(e, q.alg).close(ctx);
	cb_input_free(&q.in);
	cb_pk_key_free(q.pk_key);
	cb_pk_key_free(q.pk_peer);
	free(q.ct_allocation);
	free(q.given_allocation);
	free(out_allocation);
	return answer;
}

int cb_cmd_worker(int argc, char **argv)
{
	const struct cb_engine *e = argc == 2 ? cb_engine_find(argv[1]) : NULL;
	const char *why = NULL;
	char *line = NULL, ferr[256];
	size_t cap = 0;
	struct cb_fault fault;

	if (!e)
		return cb_usage_error("worker",
		                      "usage: cryptobench worker ENGINE (an engine built in)");
	if (!cb_engine_usable(e, &why)) {
		send(json_pack("{s:s, s:s}", "type", "unavailable", "reason",
		               why ? why : "unusable"));
		return CB_EXIT_OK;
	}
	if (cb_fault_from_env(&fault, ferr, sizeof ferr) != 0)
		fault.kind = CB_FAULT_NONE; /* the run that started this worker refused it */
	send(hello(e));
	while (getline(&line, &cap, stdin) > 0) {
		json_error_t jerr;
		json_t *req = json_loads(line, 0, &jerr), *answer;
		char err[512] = "";

		if (!json_is_object(req)) {
			json_decref(req);
			break; /* not the protocol: leave, the client reports it */
		}
		answer = run(e, &fault, req, err, sizeof err);
		if (!answer)
			answer = json_pack("{s:s, s:s}", "status", "error", "error",
			                   err[0] ? err : "failed");
		json_object_set_new(answer, "type", json_string("result"));
		json_object_set(answer, "id", json_object_get(req, "id"));
		send(answer);
		json_decref(req);
	}
	free(line);
	return CB_EXIT_OK;
}
