/* process.c: the engine side of workers: probe, open, requests, outputs. */
#include "config.h"

#include "core/engine/process.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/engine/worker.h"
#include "core/base/datadir.h"
#include "core/algorithms/input.h"

struct ctx {
	struct cb_process_engine *pe;
	struct cb_cell_setup setup;
	struct cb_worker *w;
	const char *output; /* the variant's output option: "reuse" (default) or "fresh" */
};

const char *const cb_process_options[] = {"output", NULL};

int cb_process_check_options(const struct cb_engine_config *config, const char **key, char *why,
                             size_t why_len)
{
	const char *output = cb_option_string(config, "output", "reuse");

	*key = "output";
	if (output && (strcmp(output, "reuse") == 0 || strcmp(output, "fresh") == 0))
		return 0;
	return cb_errorf(why, why_len, "output must be \"reuse\" or \"fresh\"%s%s%s",
	                 output ? " (got \"" : " (got a number)", output ? output : "",
	                 output ? "\")" : "");
}

/* Every process engine that started its worker, for cb_process_worker. */
static struct cb_process_engine *started[CB_MAX_ADDED_ENGINES + 64];
static size_t n_started;

static void note_started(struct cb_process_engine *pe)
{
	for (size_t i = 0; i < n_started; i++)
		if (started[i] == pe)
			return;
	if (n_started < sizeof started / sizeof started[0])
		started[n_started++] = pe;
}

struct cb_worker *cb_process_worker(const struct cb_engine *engine, char *err, size_t err_len)
{
	for (size_t i = 0; i < n_started; i++)
		if (started[i]->engine == engine)
			return cb_worker_get(engine->name, started[i]->argv, NULL, err, err_len);
	cb_errorf(err, err_len, "%s: not a worker engine that has started", engine->name);
	return NULL;
}

int cb_process_start(struct cb_process_engine *pe, char *why, size_t why_len)
{
	struct cb_worker *w = cb_worker_get(pe->engine->name, pe->argv, NULL, why, why_len);
	const json_t *hello;
	const char *runtime, *library;

	if (!w)
		return -1;
	hello = cb_worker_hello(w);
	runtime = json_string_value(json_object_get(hello, "runtime"));
	library = json_string_value(json_object_get(hello, "library"));
	if (!json_is_object(json_object_get(hello, "algorithms"))) {
		snprintf(why, why_len, "%s worker: its hello lists no algorithms",
		         pe->engine->name);
		return -1;
	}
	json_decref(pe->hello);
	pe->hello = json_deep_copy(hello);
	note_started(pe);
	snprintf(pe->version, sizeof pe->version, "%s, %s", runtime ? runtime : "?",
	         library ? library : "?");
	return 0;
}

int cb_process_probe(struct cb_process_engine *pe, char *why, size_t why_len)
{
	return pe->find(pe, why, why_len);
}

const char *cb_process_version(struct cb_process_engine *pe)
{
	if (!cb_engine_usable(pe->engine, NULL))
		return "unavailable";
	return pe->version;
}

bool cb_process_supports(struct cb_process_engine *pe, const struct cb_algorithm *alg,
                         enum cb_op op, enum cb_mode mode)
{
	json_t *ops, *o;
	size_t i;

	if (mode != CB_MODE_MESSAGE || !cb_engine_usable(pe->engine, NULL))
		return false;
	ops = json_object_get(json_object_get(pe->hello, "algorithms"), alg->name);
	json_array_foreach(ops, i,
	                   o) if (json_is_string(o) &&
	                          strcmp(json_string_value(o), cb_op_name(op)) == 0) return true;
	return false;
}

void cb_process_describe(struct cb_process_engine *pe, json_t *obj)
{
	static const char *const keys[] = {"runtime", "executable", "library",
	                                   "module",  "clock",      "cpu_clock",
	                                   "calls",   "providers",  "intrinsics"};

	if (!cb_engine_usable(pe->engine, NULL))
		return;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		json_t *v = json_object_get(pe->hello, keys[i]);

		if (v)
			json_object_set(obj, keys[i], v);
	}
	json_object_set_new(obj, "protocol", json_integer(CB_WORKER_PROTOCOL));
}

void *cb_process_open(struct cb_process_engine *pe, const struct cb_cell_setup *setup, char *err,
                      size_t err_len)
{
	const struct cb_engine_config *c = setup->config;
	struct ctx *ctx;
	struct cb_worker *w;

	if (c && (c->mode != CB_MODE_MESSAGE || c->recreate || c->chunk)) {
		snprintf(
		    err, err_len,
		    "%s runs whole messages in its worker: no stream mode, reuse = false or chunk",
		    pe->engine->name);
		return NULL;
	}
	const char *output = cb_option_string(c, "output", "reuse"), *key;
	char why[128];

	if (cb_process_check_options(c, &key, why, sizeof why) != 0) {
		snprintf(err, err_len, "%s: %s", pe->engine->name, why);
		return NULL;
	}
	w = cb_worker_get(pe->engine->name, pe->argv, c ? c->env : NULL, err, err_len);
	if (!w)
		return NULL;
	ctx = calloc(1, sizeof *ctx);
	if (!ctx) {
		cb_errorf(err, err_len, "%s: out of memory", pe->engine->name);
		return NULL;
	}
	ctx->pe = pe;
	ctx->setup = *setup;
	ctx->w = w;
	ctx->output = output;
	return ctx;
}

void cb_process_close(void *ctx)
{
	free(ctx); /* the worker stays for the next trial */
}

pid_t cb_process_pid(const void *ctx)
{
	const struct ctx *c = ctx;

	return c && c->w ? cb_worker_pid(c->w) : 0;
}

/* The worker's name, in its hello, for what the output mode OUTPUT calls in
 * cell S (NULL: the worker has no such call). */
static const char *api_of(const struct ctx *c, const char *output)
{
	const struct cb_cell_setup *s = &c->setup;
	json_t *calls = json_object_get(cb_worker_hello(c->w), "calls");

	return json_string_value(json_object_get(
	    json_object_get(json_object_get(calls, s->alg->name), cb_op_name(s->op)), output));
}

/* Whether the answer's `timed` says that only the calls asked for were
 * timed (PROTOCOL.md): their number, in the output mode asked for (or
 * "fresh" where the worker's hello lists no call writing into a buffer), the
 * call its hello names for that mode, and no output assembled in the loop.
 * Fills OUTPUT with the mode timed; 0, or -1 with WHY. */
static int check_timed(const struct ctx *c, json_t *timed, json_int_t calls, char *output,
                       size_t output_len, char *why, size_t why_len)
{
	const char *engine = c->pe->engine->name;
	const char *mode = json_string_value(json_object_get(timed, "output"));
	const char *api = json_string_value(json_object_get(timed, "api"));
	json_t *assembled = json_object_get(timed, "assembled_in_loop");
	const char *named;

	if (!mode || !api || !json_is_integer(assembled) ||
	    json_integer_value(json_object_get(timed, "calls")) != calls)
		return cb_errorf(why, why_len,
		                 "%s worker: its answer does not say what it timed (timed: calls, "
		                 "api, output, assembled_in_loop)",
		                 engine);
	if (json_integer_value(assembled) != 0)
		return cb_errorf(why, why_len,
		                 "%s worker: it assembled the output %lld times inside the timed "
		                 "loop",
		                 engine, (long long)json_integer_value(assembled));
	if (strcmp(mode, c->output) != 0 &&
	    !(strcmp(c->output, "reuse") == 0 && strcmp(mode, "fresh") == 0 && !api_of(c, "reuse")))
		return cb_errorf(why, why_len, "%s worker: asked for output %s, it timed %s",
		                 engine, c->output, mode);
	named = api_of(c, mode);
	if (!named || strcmp(named, api) != 0)
		return cb_errorf(why, why_len,
		                 "%s worker: it timed '%.60s', not the call its hello names for "
		                 "output %s",
		                 engine, api, mode);
	snprintf(output, output_len, "%s", mode);
	return 0;
}

/* Where the answer's `placed` says the worker put its input, outputs and
 * stack: each as asked, or null (the runtime cannot place it). 0, or -1
 * with WHY. */
static int check_placed(const struct ctx *c, json_t *placed, json_t *req, struct cb_remote_times *t,
                        char *why, size_t why_len)
{
	static const char *const keys[] = {"input_offset", "out", "stack"};
	json_t *layout = json_object_get(req, "layout");
	/* a known-answer check asks for no placement: 0 */
	json_int_t asked[3] = {json_integer_value(json_object_get(req, "input_offset")),
	                       json_integer_value(json_object_get(layout, "out")),
	                       json_integer_value(json_object_get(layout, "stack"))};
	int *where[3] = {&t->placed_input_offset, &t->placed_out, &t->placed_stack};

	for (int i = 0; i < 3; i++) {
		json_t *v = json_object_get(placed, keys[i]);

		*where[i] = -1;
		if (!v || json_is_null(v))
			continue;
		if (!json_is_integer(v) || json_integer_value(v) != asked[i])
			return cb_errorf(why, why_len,
			                 "%s worker: it placed %s at %lld, asked %lld",
			                 c->pe->engine->name, keys[i],
			                 (long long)json_integer_value(v), (long long)asked[i]);
		*where[i] = (int)json_integer_value(v);
	}
	return 0;
}

/* Send REQ and read the answer's status, times and output (OUT, checked to
 * be the size the cell's output has). */
static int exchange(struct ctx *c, json_t *req, size_t len, unsigned char *out,
                    struct cb_remote_times *t, char *why, size_t why_len)
{
	const struct cb_cell_setup *s = &c->setup;
	const char *engine = c->pe->engine->name, *status, *sha, *output;
	json_t *a;
	long got;
	size_t want;
	bool calls_ok;
	int rc;

	memset(t, 0, sizeof *t);
	t->restarts = cb_worker_restarts(c->w);
	a = cb_worker_request(c->w, req, &t->round_trip_ns, why, why_len);
	if (!a)
		return CB_FAILED;
	status = json_string_value(json_object_get(a, "status"));
	if (!status || (strcmp(status, "ok") != 0 && strcmp(status, "rejected") != 0)) {
		const char *error = json_string_value(json_object_get(a, "error"));

		snprintf(why, why_len, "%s worker: %s", engine, error ? error : "no status");
		json_decref(a);
		return CB_FAILED;
	}
	rc = strcmp(status, "ok") == 0 ? CB_OK : CB_REJECTED;
	t->ns = (uint64_t)json_integer_value(json_object_get(a, "ns"));
	t->has_cpu = json_is_integer(json_object_get(a, "cpu_ns"));
	t->cpu_ns = (uint64_t)json_integer_value(json_object_get(a, "cpu_ns"));
	sha = json_string_value(json_object_get(a, "input_sha256"));
	snprintf(t->input_sha256, sizeof t->input_sha256, "%s", sha ? sha : "");
	output = json_string_value(json_object_get(a, "output"));
	want = rc == CB_REJECTED ? 0 : cb_output_len(s->alg, s->op, len);
	got = output ? cb_base64_decode(output, out, want) : -1;
	calls_ok = json_integer_value(json_object_get(a, "calls")) ==
	           json_integer_value(json_object_get(req, "calls"));
	if (check_timed(c, json_object_get(a, "timed"),
	                json_integer_value(json_object_get(req, "calls")), t->output,
	                sizeof t->output, why, why_len) != 0 ||
	    check_placed(c, json_object_get(a, "placed"), req, t, why, why_len) != 0) {
		json_decref(a);
		return CB_FAILED;
	}
	json_decref(a);
	if (got > 0 && s->op == CB_OP_SIGN && cb_pk_info(s->alg)->encoding == CB_PK_SIG_DER &&
	    cb_pk_sig_len(s->alg, out, (size_t)got) == (size_t)got) {
		/* An ECDSA DER signature says its own length, at most WANT. */
		memset(out + got, 0, want - (size_t)got);
		got = (long)want;
	}
	if (got != (long)want) {
		snprintf(why, why_len, "%s worker: the output is not %zu bytes of base64", engine,
		         want);
		return CB_FAILED;
	}
	if (!calls_ok || t->ns == 0) {
		snprintf(why, why_len, "%s worker: its answer lacks the calls made or their time",
		         engine);
		return CB_FAILED;
	}
	return rc;
}

static void set_hex(json_t *req, const char *key, const unsigned char *buf, size_t len)
{
	char *hex = malloc(2 * len + 1);

	if (!hex)
		return;
	cb_hex(buf, len, hex);
	json_object_set_new(req, key, json_string(hex));
	free(hex);
}

/* A public-key cell's "pk" (PROTOCOL.md): the keys in DER and raw, the
 * digest, the signature to verify, from the setup the cell was opened with,
 * so that a known-answer check sends its own key, not the fixed one. */
static json_t *pk_of(const struct cb_pk_setup *pk, const struct cb_algorithm *alg)
{
	json_t *o = json_object();
	bool raw = cb_pk_info(alg)->family != CB_PK_FAMILY_RSA;

	if (!pk || !o)
		return o; /* keygen: no key */
	if (pk->key) {
		if (pk->key->has_private) {
			set_hex(o, "private", pk->key->pkcs8.data, pk->key->pkcs8.len);
			if (raw)
				set_hex(o, "private_raw", pk->key->d.data, pk->key->d.len);
		}
		set_hex(o, "public", pk->key->spki.data, pk->key->spki.len);
		if (raw)
			set_hex(o, "public_raw", pk->key->pub.data, pk->key->pub.len);
	}
	if (pk->peer) {
		set_hex(o, "peer", pk->peer->spki.data, pk->peer->spki.len);
		set_hex(o, "peer_raw", pk->peer->pub.data, pk->peer->pub.len);
	}
	if (pk->digest)
		set_hex(o, "digest", pk->digest, pk->digest_len);
	if (pk->sig)
		set_hex(o, "signature", pk->sig, pk->sig_len);
	return o;
}

/* The request's common part; a public-key cell's carries its "pk" object
 * and no key, IV or AAD, the rest have theirs set by the caller. */
static json_t *request(const struct ctx *c, size_t len, uint64_t calls)
{
	const struct cb_cell_setup *s = &c->setup;
	json_t *req = json_pack("{s:s, s:s, s:s, s:I, s:I, s:s}", "type", "run", "algorithm",
	                        s->alg->name, "op", cb_op_name(s->op), "size", (json_int_t)len,
	                        "calls", (json_int_t)calls, "output", c->output);

	if (req && cb_alg_is_pk(s->alg))
		json_object_set_new(req, "pk", pk_of(s->pk, s->alg));
	return req;
}

int cb_process_remote(void *ctx, const struct cb_trial_info *trial, unsigned char *out,
                      struct cb_remote_times *t, char *why, size_t why_len)
{
	struct ctx *c = ctx;
	json_t *req = request(c, trial->len, trial->calls);

	if (!req) {
		snprintf(why, why_len, "out of memory");
		return CB_FAILED;
	}
	if (!cb_alg_is_pk(c->setup.alg)) {
		json_object_set_new(req, "key", json_string("counting"));
		json_object_set_new(req, "iv", json_string("counting"));
		json_object_set_new(req, "aad", json_null());
	}
	json_object_set_new(req, "input",
	                    json_pack("{s:s, s:I, s:I}", "generator", "xorshift32", "seed",
	                              (json_int_t)c->setup.input_seed, "unit",
	                              (json_int_t)CB_INPUT_UNIT));
	json_object_set_new(req, "input_offset", json_integer((json_int_t)c->setup.input_offset));
	json_object_set_new(req, "layout",
	                    json_pack("{s:I, s:I}", "stack", (json_int_t)trial->stack, "out",
	                              (json_int_t)trial->out));
	json_object_set_new(req, "round", json_integer(trial->round));
	json_object_set_new(req, "seq", json_integer((json_int_t)trial->seq));
	if (trial->unwarmed)
		json_object_set_new(req, "warmup", json_false());
	int rc = exchange(c, req, trial->len, out, t, why, why_len);
	json_decref(req);
	return rc;
}

/* Why the last cb_process_call that failed did. */
static char call_error[256];

int cb_process_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct ctx *c = ctx;
	const struct cb_cell_setup *s = &c->setup;
	struct cb_remote_times t;
	char why[256], *text = cb_base64_encode(in, len);
	json_t *req = request(c, len, 1);
	int rc;

	if (!text || !req) {
		free(text);
		json_decref(req);
		return CB_FAILED;
	}
	if (s->alg->kind == CB_KIND_CIPHER || s->alg->kind == CB_KIND_AEAD) {
		set_hex(req, "key", s->key, s->alg->key_len);
		set_hex(req, "iv", s->iv, s->alg->iv_len);
		if (s->aad)
			set_hex(req, "aad", s->aad, s->aad_len);
		else
			json_object_set_new(req, "aad", json_null());
		if (s->alg->kind == CB_KIND_AEAD && s->op != CB_OP_ENCRYPT && s->tag)
			set_hex(req, "tag", s->tag, s->alg->tag_len);
	}
	json_object_set_new(req, "input", json_pack("{s:s}", "base64", text));
	free(text);
	rc = exchange(c, req, len, out, &t, why, sizeof why);
	json_decref(req);
	if (rc == CB_FAILED)
		snprintf(call_error, sizeof call_error, "%s", why);
	return rc;
}

const char *cb_process_call_error(void)
{
	return call_error;
}

/* ---- Finding workers ---- */

const char *cb_process_script(struct cb_process_engine *pe, const char *file)
{
	char dir[4096];

	snprintf(pe->script, sizeof pe->script, "%s/%s",
	         cb_datadir(CB_DATA_WORKERS, dir, sizeof dir), file);
	return pe->script;
}

/* Why a compiled worker is missing (process.h). */
void cb_process_not_built(char *why, size_t why_len, const char *runtime, const char *file,
                          const char *missing)
{
	snprintf(why, why_len,
	         "the %s worker is not built (%s): %s when configure ran, or `make` did not "
	         "build or install it",
	         runtime, file, missing);
}

bool cb_process_override(struct cb_process_engine *pe)
{
	char name[64], *p;
	const char *value;
	size_t n = 0;

	snprintf(name, sizeof name, "CRYPTOBENCH_WORKER_%s", pe->engine->name);
	for (p = name; *p; p++)
		*p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
	value = getenv(name);
	if (!value || !*value)
		return false;
	snprintf(pe->words, sizeof pe->words, "%s", value);
	for (p = strtok(pe->words, " "); p && n + 1 < CB_PROCESS_MAX_ARGS; p = strtok(NULL, " "))
		pe->argv[n++] = p;
	pe->argv[n] = NULL;
	return true;
}

int cb_process_find_python_script(struct cb_process_engine *pe, const char *script, char *why,
                                  size_t why_len)
{
	const char *only = getenv("CRYPTOBENCH_PYTHON");
	const char *candidates[] = {only && *only ? only : "python3",
	                            only && *only ? NULL : "/usr/bin/python3", NULL};
	size_t used = 0;

	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	why[0] = '\0';
	for (size_t i = 0; candidates[i]; i++) {
		char reason[256];

		pe->argv[0] = candidates[i];
		pe->argv[1] = "-B"; /* no __pycache__ in the workers' folder */
		pe->argv[2] = cb_process_script(pe, script);
		pe->argv[3] = pe->backend;
		pe->argv[4] = NULL;
		if (cb_process_start(pe, reason, sizeof reason) == 0)
			return 0;
		used += (size_t)snprintf(why + used, used < why_len ? why_len - used : 0,
		                         "%s%s: %s", i ? "; " : "", candidates[i], reason);
	}
	return -1;
}

int cb_process_find_python(struct cb_process_engine *pe, char *why, size_t why_len)
{
	return cb_process_find_python_script(pe, "worker.py", why, why_len);
}

/* ---- In-process engines under a changed environment ---- */

static struct cb_process_engine in_workers[64];
static size_t n_in_workers;

/* The process engine running INNER as `cryptobench worker NAME`. */
static struct cb_process_engine *in_worker_for(const struct cb_engine *inner)
{
	struct cb_process_engine *pe;
	ssize_t n;

	for (size_t i = 0; i < n_in_workers; i++)
		if (in_workers[i].engine == inner)
			return &in_workers[i];
	if (n_in_workers == sizeof in_workers / sizeof in_workers[0])
		return NULL;
	pe = &in_workers[n_in_workers++];
	pe->engine = inner;
	n = readlink("/proc/self/exe", pe->script, sizeof pe->script - 1);
	pe->script[n > 0 ? n : 0] = '\0';
	pe->argv[0] = pe->script;
	pe->argv[1] = "worker";
	pe->argv[2] = inner->name;
	pe->argv[3] = NULL;
	return pe;
}

static const char *in_worker_version(void)
{
	return "cryptobench worker";
}

static bool in_worker_supports(const struct cb_algorithm *alg, enum cb_op op, enum cb_mode mode)
{
	(void)alg;
	(void)op;
	return mode == CB_MODE_MESSAGE; /* the plan asked the engine itself */
}

static void *in_worker_open(const struct cb_cell_setup *cell, const struct cb_engine_setup *setup,
                            char *err, size_t err_len)
{
	const struct cb_engine *inner = cell->config ? cell->config->in_worker : NULL;
	struct cb_process_engine *pe = inner ? in_worker_for(inner) : NULL;

	if (!pe) {
		cb_errorf(err, err_len, "no in-process engine to run in a worker");
		return NULL;
	}
	(void)setup;
	return cb_process_open(pe, cell, err, err_len);
}

const struct cb_engine cb_engine_in_worker = {
    .name = "in-worker",
    .kind = "process",
    .version = in_worker_version,
    .supports = in_worker_supports,
    .open = in_worker_open,
    .call = cb_process_call,
    .close = cb_process_close,
    .remote = cb_process_remote,
};
