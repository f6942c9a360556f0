/* cmd_worker_check.c: cryptobench worker-check COMMAND... — a conformance
 * suite for a worker program (core/engines/workers/PROTOCOL.md): its
 * handshake, the known-answer vectors of every algorithm it offers, forged
 * tags, the input it reads, one cell of each public-key op it offers per
 * scheme, a malformed request, the end of its input. The
 * program runs as an external worker engine (core/engine/extern.h), so every check
 * goes through the code a run uses. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/worker_check.h"
#include "core/base/datadir.h"
#include "core/engine/engine.h"
#include "core/engine/extern.h"
#include "core/algorithms/input.h"
#include "core/engine/process.h"
#include "core/algorithms/reference.h"
#include "core/check/vectors.h"
#include "core/engine/worker.h"

#define TRIAL_LEN 4096

static const char worker_check_help[] =
    "usage: cryptobench worker-check [--vectors DIR] [--] COMMAND [ARG...]\n"
    "       cryptobench worker-check [--vectors DIR] --engine NAME\n\n"
    "Start COMMAND as a worker (core/engines/workers/PROTOCOL.md) and check it:\n"
    "its hello (protocol 2 and its fields), every known-answer vector of each\n"
    "algorithm it offers, that every AEAD rejects a forged tag, that it reads the\n"
    "generator's input (its input_sha256) and gives the reference output, that its\n"
    "public-key signatures verify, its forged ones are rejected, its secrets and key\n"
    "pairs are the reference's or pass its checks, that a\n"
    "malformed request gets an error answer and the next request still an answer,\n"
    "and that it exits at the end of its input. Prints each check, ok or FAIL with\n"
    "the reason; exits 0 when all pass, 1 on any failure, 2 on bad usage. Give --\n"
    "before a COMMAND whose words begin with '-'. CRYPTOBENCH_WORKER_TIMEOUT\n"
    "(seconds) bounds each answer. --engine checks the worker of an engine of\n"
    "kind process (cryptobench engines), started as a run starts it.\n";

struct check_args {
	const char *vectors;
	const char *engine;
	char **command;
	size_t n;
};

/* The fields of a hello (PROTOCOL.md) beyond its type and protocol, which
 * the handshake checked: NULL, or what is missing. */
static const char *hello_lacks(const json_t *hello, char *buf, size_t len)
{
	static const char *const strings[] = {"engine", "runtime", "executable", "library",
	                                      "clock"};
	const json_t *algs = json_object_get(hello, "algorithms");
	const json_t *calls = json_object_get(hello, "calls");
	const char *name;
	json_t *ops;

	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
		if (!json_is_string(json_object_get(hello, strings[i])))
			return snprintf(buf, len, "no string '%s'", strings[i]), buf;
	if (!json_is_string(json_object_get(hello, "cpu_clock")) &&
	    !json_is_null(json_object_get(hello, "cpu_clock")))
		return "'cpu_clock' is neither a string nor null";
	if (!json_is_object(algs) || json_object_size(algs) == 0)
		return "no 'algorithms' object, or an empty one";
	if (!json_is_object(calls))
		return "no 'calls' object";
	json_object_foreach((json_t *)algs, name, ops)
	{
		const struct cb_algorithm *alg = cb_algorithm_find(name);
		size_t i;
		json_t *op;

		if (!alg)
			return snprintf(buf, len, "unknown algorithm '%s'", name), buf;
		if (!json_is_array(ops) || json_array_size(ops) == 0)
			return snprintf(buf, len, "'%s' lists no ops", name), buf;
		json_array_foreach(ops, i, op)
		{
			int o = json_is_string(op) ? cb_op_parse(json_string_value(op)) : -1;
			json_t *c =
			    json_object_get(json_object_get(calls, name),
			                    json_is_string(op) ? json_string_value(op) : "");

			if (o < 0 || !cb_op_applies(alg, (enum cb_op)o))
				return snprintf(buf, len, "'%s' lists an op that does not apply",
				                name),
				       buf;
			if (!json_is_object(c) || !json_object_get(c, "reuse") ||
			    !json_object_get(c, "fresh"))
				return snprintf(buf, len, "no calls.%s.%s {reuse, fresh}", name,
				                json_string_value(op)),
				       buf;
		}
	}
	return NULL;
}

/* Every vector of ALG in SET through E: ok, or FAIL at the first that fails. */
static void check_vectors(struct cb_check_tally *t, const struct cb_engine *e,
                          const struct cb_algorithm *alg, const struct cb_vector_set *set)
{
	char check[96], why[512];
	unsigned passed = 0;

	snprintf(check, sizeof check, "vectors %s", alg->name);
	for (size_t f = 0; f < set->count; f++)
		for (size_t i = 0; i < set->files[f].count; i++) {
			const struct cb_vector *v = &set->files[f].vectors[i];
			enum cb_vector_result r;

			if (v->alg != alg)
				continue;
			r = cb_vectors_run(e, v, why, sizeof why);
			if (r == CB_VECTOR_FAIL) {
				const char *worker =
				    strstr(why, "CB_FAILED") ? cb_process_call_error() : "";
				cb_check_report(t, false, check, "%s (%s): %s%s%s", v->name,
				                set->files[f].path, why, *worker ? ": " : "",
				                worker);
				return;
			}
			passed += r == CB_VECTOR_PASS;
		}
	if (passed)
		cb_check_report(t, true, check, "%u passed", passed);
	else
		cb_check_report(t, false, check,
		                "no known-answer vector was run (none for it, or none it offers)");
}

/* Open E for ALG and OP on the generated input, with the standard key and IV. */
static void *open_cell(const struct cb_engine *e, const struct cb_algorithm *alg, enum cb_op op,
                       const struct cb_engine_config *config, unsigned char *key, unsigned char *iv,
                       unsigned char *tag, char *err, size_t err_len)
{
	struct cb_cell_setup s = {.alg = alg,
	                          .op = op,
	                          .len = TRIAL_LEN,
	                          .config = config,
	                          .input_seed = CB_INPUT_DEFAULT_SEED};

	cb_standard_key(alg, key);
	cb_standard_iv(alg, iv);
	memset(tag, 0, CB_MAX_TAG);
	if (alg->kind != CB_KIND_HASH) {
		s.key = key;
		s.iv = iv;
		s.tag = tag;
	}
	return cb_engine_open(e, &s, err, err_len);
}

/* One trial of two calls of ALG/OP on the generated input: *STATUS, the
 * output in OUT and the worker's times in T; 0, or -1 with WHY. */
static int trial(const struct cb_engine *e, const struct cb_algorithm *alg, enum cb_op op,
                 unsigned char *out, struct cb_remote_times *t, int *status, char *why,
                 size_t why_len)
{
	struct cb_engine_config config = {.mode = CB_MODE_MESSAGE};
	struct cb_trial_info info = {.calls = 2, .len = TRIAL_LEN, .unwarmed = true};
	unsigned char key[CB_MAX_KEY], iv[CB_MAX_IV], tag[CB_MAX_TAG];
	void *ctx = open_cell(e, alg, op, &config, key, iv, tag, why, why_len);

	if (!ctx)
		return -1;
	*status = e->remote(ctx, &info, out, t, why, why_len);
	e->close(ctx);
	return 0;
}

/* AEAD ALG: decrypt-forged offered, and every call rejects the tag. */
static void check_forged(struct cb_check_tally *t, const struct cb_engine *e,
                         const struct cb_algorithm *alg)
{
	unsigned char out[TRIAL_LEN + CB_OUTPUT_SLACK];
	struct cb_remote_times times;
	char check[96], why[512];
	int status;

	snprintf(check, sizeof check, "forged tag %s", alg->name);
	if (!cb_engine_supports(e, alg, CB_OP_DECRYPT_FORGED, CB_MODE_MESSAGE)) {
		if (cb_engine_supports(e, alg, CB_OP_DECRYPT, CB_MODE_MESSAGE))
			cb_check_report(t, false, check,
			                "decrypt is offered, decrypt-forged is not");
		return;
	}
	if (trial(e, alg, CB_OP_DECRYPT_FORGED, out, &times, &status, why, sizeof why) != 0)
		cb_check_report(t, false, check, "%s", why);
	else if (status == CB_REJECTED)
		cb_check_report(t, true, check, "rejected");
	else if (status == CB_OK)
		cb_check_report(t, false, check, "accepted a tag with one bit flipped");
	else
		cb_check_report(t, false, check, "%s", why);
}

/* ALG/OP on the generated input: the input the worker says it read is the
 * generator's, and its output is the reference's. */
static void check_input(struct cb_check_tally *t, const struct cb_engine *e,
                        const struct cb_algorithm *alg, enum cb_op op, const unsigned char *input,
                        const char *input_sha256)
{
	unsigned char out[TRIAL_LEN + CB_OUTPUT_SLACK], key[CB_MAX_KEY], iv[CB_MAX_IV];
	size_t out_len = cb_output_len(alg, op, TRIAL_LEN);
	struct cb_remote_times times;
	struct cb_expected want;
	char check[96], why[512], got[65];
	int status;

	snprintf(check, sizeof check, "input %s %s", alg->name, cb_op_name(op));
	if (trial(e, alg, op, out, &times, &status, why, sizeof why) != 0 || status != CB_OK) {
		cb_check_report(t, false, check, "%s",
		                status == CB_REJECTED ? "rejected the tag" : why);
		return;
	}
	if (strcmp(times.input_sha256, input_sha256) != 0) {
		cb_check_report(t, false, check, "input_sha256 %.16s.., the generator's is %.16s..",
		                times.input_sha256, input_sha256);
		return;
	}
	cb_standard_key(alg, key);
	cb_standard_iv(alg, iv);
	cb_sha256_hex(out, out_len, got);
	if (op == CB_OP_DECRYPT) {
		if (strcmp(got, input_sha256) != 0) {
			cb_check_report(t, false, check, "the plaintext is not the input");
			return;
		}
	} else if (cb_reference_message(alg, key, iv, input, TRIAL_LEN, &want, why, sizeof why) !=
	           0) {
		cb_check_report(t, false, check, "no reference: %s", why);
		return;
	} else if (op == CB_OP_HASH ? memcmp(out, want.digest, alg->digest_len) != 0
	                            : strcmp(got, want.output_sha256) != 0) {
		cb_check_report(t, false, check, "the output is not the reference's");
		return;
	}
	cb_check_report(t, true, check, "the generator's input (%.16s..), the reference output",
	                input_sha256);
}

/* Requests a worker must answer with an error, and stay up. */
static void check_malformed(struct cb_check_tally *t, const struct cb_engine *e)
{
	static const char *const requests[] = {
	    "{\"type\":\"run\",\"algorithm\":\"sha256\"}",
	    "{\"type\":\"run\",\"algorithm\":\"no-such-algorithm\",\"op\":\"hash\",\"size\":1,"
	    "\"calls\":1,\"input\":{\"base64\":\"AA==\"}}",
	};
	const char *what[] = {"a request without op, size, calls or input",
	                      "a request for an unknown algorithm"};

	for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
		struct cb_worker *w;
		json_t *req = json_loads(requests[i], 0, NULL), *answer = NULL;
		uint64_t rt;
		char why[512];
		const char *status;

		if ((w = cb_process_worker(e, why, sizeof why)) != NULL)
			answer = cb_worker_request(w, req, &rt, why, sizeof why);
		json_decref(req);
		status = json_string_value(json_object_get(answer, "status"));
		if (!answer)
			cb_check_report(t, false, "malformed request", "%s: %s", what[i], why);
		else if (!status || strcmp(status, "error") != 0 ||
		         !json_is_string(json_object_get(answer, "error")))
			cb_check_report(t, false, "malformed request",
			                "%s: answered without status \"error\" and an error",
			                what[i]);
		else
			cb_check_report(t, true, "malformed request", "%s: error \"%.60s\"",
			                what[i],
			                json_string_value(json_object_get(answer, "error")));
		json_decref(answer);
	}
}

static void check_end(struct cb_check_tally *t, const struct cb_engine *e)
{
	char why[512], how[128];
	struct cb_worker *w = cb_process_worker(e, why, sizeof why);

	if (!w)
		cb_check_report(t, false, "end of input", "%s", why);
	else if (cb_worker_end(w, cb_worker_timeout() < 10 ? cb_worker_timeout() : 10, how,
	                       sizeof how) != 0)
		cb_check_report(t, false, "end of input", "%s", how);
	else
		cb_check_report(t, true, "end of input", "%s", how);
}

static int run_checks(const struct cb_engine *e, const struct cb_vector_set *set)
{
	unsigned char input[TRIAL_LEN];
	char input_sha256[65], why[512];
	const char *unusable = NULL;
	struct cb_check_tally t = {0};
	struct cb_worker *w;

	if (!cb_engine_usable(e, &unusable)) {
		cb_check_report(&t, false, "hello", "%s", unusable);
		printf("\nworker-check: 1 check, 1 failed\n");
		return CB_EXIT_PROBLEM;
	}
	w = cb_process_worker(e, why, sizeof why);
	const json_t *hello = w ? cb_worker_hello(w) : NULL;
	const char *lacks = hello ? hello_lacks(hello, why, sizeof why) : why;
	if (lacks)
		cb_check_report(&t, false, "hello", "%s", lacks);
	else
		cb_check_report(&t, true, "hello", "protocol %d, engine %s, %s", CB_WORKER_PROTOCOL,
		                json_string_value(json_object_get(hello, "engine")), e->version());
	cb_input_fill(input, sizeof input, CB_INPUT_DEFAULT_SEED);
	cb_sha256_hex(input, sizeof input, input_sha256);
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		if (!cb_engine_supports(e, alg,
		                        alg->kind == CB_KIND_HASH ? CB_OP_HASH : CB_OP_ENCRYPT,
		                        CB_MODE_MESSAGE))
			continue;
		check_vectors(&t, e, alg, set);
		if (alg->kind == CB_KIND_AEAD)
			check_forged(&t, e, alg);
		for (int op = 0; op < CB_OP_DECRYPT_FORGED; op++)
			if (cb_op_applies(alg, (enum cb_op)op) &&
			    cb_engine_supports(e, alg, (enum cb_op)op, CB_MODE_MESSAGE))
				check_input(&t, e, alg, (enum cb_op)op, input, input_sha256);
	}
	cb_worker_check_pk(&t, e, input);
	check_malformed(&t, e);
	check_end(&t, e);
	printf("\nworker-check: %u checks, %u failed\n", t.run, t.failed);
	return t.failed ? CB_EXIT_PROBLEM : CB_EXIT_OK;
}

static int add_word(void *args, const char *word)
{
	struct check_args *a = args;

	a->command[a->n++] = (char *)word;
	return CB_EXIT_OK;
}

static const struct cb_cli_option worker_check_options[] = {
    CB_OPTION_STRING("--vectors", NULL, struct check_args, vectors),
    CB_OPTION_STRING("--engine", NULL, struct check_args, engine),
    CB_OPTION_END,
};

int cb_cmd_worker_check(int argc, char **argv)
{
	char datadir[4096], err[1024];
	struct check_args a = {cb_datadir(CB_DATA_VECTORS, datadir, sizeof datadir), NULL,
	                       calloc((size_t)argc + 1, sizeof(char *)), 0};
	struct cb_vector_set set = {0};
	const struct cb_engine *e;
	int rc;

	if (!a.command)
		return CB_EXIT_PROBLEM;
	/* The command's own words are its own: everything after the first is an operand. */
	rc = cb_options_parse("worker-check", worker_check_options, argc, argv, &a, add_word);
	if (rc == CB_OPTIONS_HELP)
		fputs(worker_check_help, stdout);
	if (rc == CB_EXIT_OK && a.n == 0 && !a.engine)
		rc = cb_usage_error("worker-check",
		                    "which worker? e.g. cryptobench worker-check "
		                    "./my-worker (-- before words beginning with '-')");
	if (rc == CB_EXIT_OK && a.n && a.engine)
		rc = cb_usage_error("worker-check", "a COMMAND or --engine, not both");
	e = a.engine ? cb_engine_find(a.engine) : NULL;
	if (rc == CB_EXIT_OK && a.engine && (!e || strcmp(e->kind, "process") != 0))
		rc = cb_usage_error("worker-check", "'%s' is not an engine of kind process here",
		                    a.engine);
	if (rc == CB_EXIT_OK && a.n >= CB_PROCESS_MAX_ARGS)
		rc = cb_usage_error("worker-check", "more than %d words in the command",
		                    CB_PROCESS_MAX_ARGS - 1);
	if (rc == CB_EXIT_OK && cb_vectors_load_dir(a.vectors, &set, err, sizeof err) != 0)
		rc = cb_usage_error("worker-check", "%s", err);
	/* Naming the program here is the permission to start it. */
	if (rc == CB_EXIT_OK && !e && cb_extern_allow(a.command[0], err, sizeof err) != 0)
		rc = cb_usage_error("worker-check", "%s", err);
	if (rc == CB_EXIT_OK && e) {
		rc = run_checks(e, &set);
	} else if (rc == CB_EXIT_OK) {
		e = cb_extern_worker("worker-under-check", (const char *const *)a.command, err,
		                     sizeof err);
		rc = e ? run_checks(e, &set) : cb_usage_error("worker-check", "%s", err);
	}
	cb_vectors_free_set(&set);
	free(a.command);
	cb_workers_stop();
	if (rc == CB_OPTIONS_HELP)
		return CB_EXIT_OK;
	return rc == CB_EXIT_USAGE ? rc : cb_stdout_check("worker-check", rc);
}
