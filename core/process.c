/* process.c: the engine side of workers: probe, open, requests, outputs. */
#include "config.h"

#include "core/process.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/errbuf.h"
#include "core/worker.h"
#include "core/datadir.h"
#include "core/input.h"

struct ctx {
	struct cb_process_engine *pe;
	struct cb_cell_setup setup;
	struct cb_worker *w;
};

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
	                                   "module",  "clock",      "cpu_clock"};

	if (!cb_engine_usable(pe->engine, NULL))
		return;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		json_t *v = json_object_get(pe->hello, keys[i]);

		if (v)
			json_object_set(obj, keys[i], v);
	}
	json_object_set_new(obj, "protocol", json_integer(1));
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
	return ctx;
}

void cb_process_close(void *ctx)
{
	free(ctx); /* the worker stays for the next trial */
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
	json_decref(a);
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

static json_t *request(const struct ctx *c, size_t len, uint64_t calls)
{
	const struct cb_cell_setup *s = &c->setup;

	return json_pack("{s:s, s:s, s:s, s:I, s:I}", "type", "run", "algorithm", s->alg->name,
	                 "op", cb_op_name(s->op), "size", (json_int_t)len, "calls",
	                 (json_int_t)calls);
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
	json_object_set_new(req, "key", json_string("counting"));
	json_object_set_new(req, "iv", json_string("counting"));
	json_object_set_new(req, "aad", json_null());
	json_object_set_new(req, "input",
	                    json_pack("{s:s, s:I, s:I}", "generator", "xorshift32", "seed",
	                              (json_int_t)c->setup.input_seed, "unit",
	                              (json_int_t)CB_INPUT_UNIT));
	json_object_set_new(req, "round", json_integer(trial->round));
	json_object_set_new(req, "seq", json_integer((json_int_t)trial->seq));
	int rc = exchange(c, req, trial->len, out, t, why, why_len);
	json_decref(req);
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
	if (s->alg->kind != CB_KIND_HASH) {
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
	return rc;
}

/* ---- Finding workers ---- */

const char *cb_process_script(struct cb_process_engine *pe, const char *file)
{
	char dir[4096];

	snprintf(pe->script, sizeof pe->script, "%s/%s",
	         cb_datadir(CB_DATA_WORKERS, dir, sizeof dir), file);
	return pe->script;
}

/* The worker's command from the test override, if any. */
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

int cb_process_find_python(struct cb_process_engine *pe, char *why, size_t why_len)
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
		pe->argv[1] = cb_process_script(pe, "worker.py");
		pe->argv[2] = pe->backend;
		pe->argv[3] = NULL;
		if (cb_process_start(pe, reason, sizeof reason) == 0)
			return 0;
		used += (size_t)snprintf(why + used, used < why_len ? why_len - used : 0,
		                         "%s%s: %s", i ? "; " : "", candidates[i], reason);
	}
	return -1;
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
