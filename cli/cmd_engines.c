/* cmd_engines.c: cryptobench engines — what is built in and usable here. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/format.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/engine/engine.h"
#include "core/engine/extern.h"
#include "core/builds/libbuild.h"

static const char engines_help[] =
    "usage: cryptobench engines [--json] [--allow-external PATH,...] [--lib ENGINE=FILE]...\n\n"
    "List the engines compiled in: runtime version, whether usable on this machine\n"
    "(and why not), hardware features they report, and which algorithms they offer.\n"
    "In the matrix, 'ok' = offered, '-' = not offered by the library; a public-key\n"
    "algorithm offered with only some of its operations lists them (s sign,\n"
    "v verify, f verify-forged, d derive, k keygen).\n"
    "--allow-external adds each file as an engine: a plug-in (a name ending in\n"
    "'.so') or a worker program (run without arguments, named after its file).\n"
    "--lib adds another build of a library engine's library, as a scenario's\n"
    "lib does: the engine ENGINE@FILE. --json gives each library engine's\n"
    "library: path, SHA-256, build id, version, load address.\n";

/* The operations of a public-key algorithm, each with its letter. */
static const struct {
	enum cb_op op;
	char letter;
} pk_ops[] = {
    {CB_OP_SIGN, 's'},   {CB_OP_VERIFY, 'v'}, {CB_OP_VERIFY_FORGED, 'f'},
    {CB_OP_DERIVE, 'd'}, {CB_OP_KEYGEN, 'k'},
};

#define N_PK_OPS (sizeof pk_ops / sizeof pk_ops[0])

static bool offers_op(const struct cb_engine *e, const struct cb_algorithm *alg, enum cb_op op)
{
	return cb_op_applies(alg, op) && cb_engine_supports(e, alg, op, CB_MODE_MESSAGE);
}

/* A public-key algorithm is offered when one of its operations is. */
static bool offers(const struct cb_engine *e, const struct cb_algorithm *alg)
{
	if (!cb_alg_is_pk(alg))
		return alg->kind == CB_KIND_HASH
		           ? cb_engine_supports(e, alg, CB_OP_HASH, CB_MODE_MESSAGE)
		           : cb_engine_supports(e, alg, CB_OP_ENCRYPT, CB_MODE_MESSAGE);
	for (size_t i = 0; i < N_PK_OPS; i++)
		if (offers_op(e, alg, pk_ops[i].op))
			return true;
	return false;
}

/* What the matrix says of a public-key algorithm E offers: "ok" with every
 * operation that applies, else the letters of those offered ("vf"). */
static const char *pk_cell(const struct cb_engine *e, const struct cb_algorithm *alg,
                           char letters[N_PK_OPS + 1])
{
	size_t n = 0;
	bool all = true;

	for (size_t i = 0; i < N_PK_OPS; i++) {
		if (!cb_op_applies(alg, pk_ops[i].op))
			continue;
		if (cb_engine_supports(e, alg, pk_ops[i].op, CB_MODE_MESSAGE))
			letters[n++] = pk_ops[i].letter;
		else
			all = false;
	}
	letters[n] = '\0';
	return all ? "ok" : letters;
}

/* {"rsa-2048-pkcs1": ["sign", "verify", ...], ...}: every public-key
 * algorithm E offers, with its operations. */
static json_t *pk_json(const struct cb_engine *e)
{
	json_t *obj = json_object();

	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);
		json_t *ops;

		if (!cb_alg_is_pk(alg) || !offers(e, alg))
			continue;
		ops = json_array();
		for (size_t i = 0; i < N_PK_OPS; i++)
			if (offers_op(e, alg, pk_ops[i].op))
				json_array_append_new(ops, json_string(cb_op_name(pk_ops[i].op)));
		json_object_set_new(obj, alg->name, ops);
	}
	return obj;
}

static json_t *engine_json(const struct cb_engine *e)
{
	const char *why = NULL;
	bool usable = cb_engine_usable(e, &why);
	json_t *obj = json_pack("{s:s, s:s, s:s, s:b}", "name", e->name, "kind", e->kind, "version",
	                        e->version(), "usable", usable);
	json_t *algs = json_array();

	if (why)
		json_object_set_new(obj, "why", json_string(why));
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		if (offers(e, alg))
			json_array_append_new(algs, json_string(alg->name));
	}
	json_object_set_new(obj, "algorithms", algs);
	json_object_set_new(obj, "public_key", pk_json(e));
	json_t *library = cb_libbuild_json(e);
	if (library)
		json_object_set_new(obj, "library", library);
	if (e->describe && usable) {
		json_t *features = json_object();

		e->describe(features);
		json_object_set_new(obj, "features", features);
	}
	return obj;
}

/* One engine x algorithm matrix per kind of engine (library, process,
 * command): each stays narrow, and every column is as wide as its name. */
static void print_matrix(const char *kind)
{
	const char **h = calloc(cb_engine_count() + 1, sizeof *h);
	size_t n = 0;
	struct cb_table *t;

	if (!h)
		return;
	h[n++] = "algorithm";
	for (size_t i = 0; i < cb_engine_count(); i++)
		if (strcmp(cb_engine_at(i)->kind, kind) == 0)
			h[n++] = cb_engine_at(i)->name;
	t = cb_table_new(h, n, NULL);
	for (size_t a = 0; a < cb_algorithm_count(); a++) {
		const struct cb_algorithm *alg = cb_algorithm_at(a);

		cb_table_cell(t, "%s", alg->name);
		for (size_t i = 0; i < cb_engine_count(); i++) {
			const struct cb_engine *e = cb_engine_at(i);
			char letters[N_PK_OPS + 1];

			if (strcmp(e->kind, kind) != 0)
				continue;
			cb_table_cell(t, "%s",
			              !offers(e, alg)              ? "-"
			              : !cb_engine_usable(e, NULL) ? "n/a"
			              : cb_alg_is_pk(alg)          ? pk_cell(e, alg, letters)
			                                           : "ok");
		}
	}
	printf("\n%s engines:\n", kind);
	cb_table_print(stdout, t, CB_FORMAT_TEXT);
	cb_table_free(t);
	free(h);
}

static void print_text(void)
{
	static const char *const h[] = {"engine", "kind", "version / availability"};
	struct cb_table *t = cb_table_new(h, 3, NULL);
	const char *kinds[8];
	size_t n_kinds = 0;

	for (size_t i = 0; i < cb_engine_count(); i++) {
		const struct cb_engine *e = cb_engine_at(i);
		const char *why = NULL;
		bool seen = false;

		cb_table_cell(t, "%s", e->name);
		cb_table_cell(t, "%s", e->kind);
		if (cb_engine_usable(e, &why))
			cb_table_cell(t, "%s", e->version());
		else
			cb_table_cell(t, "%s  UNAVAILABLE: %s", e->version(), why);
		for (size_t k = 0; k < n_kinds && !seen; k++)
			seen = strcmp(kinds[k], e->kind) == 0;
		if (!seen && strcmp(e->kind, "builtin") != 0 && n_kinds < 8)
			kinds[n_kinds++] = e->kind;
	}
	cb_table_print(stdout, t, CB_FORMAT_TEXT);
	cb_table_free(t);
	for (size_t k = 0; k < n_kinds; k++)
		print_matrix(kinds[k]);
	printf("\n'n/a': offered, but the engine is unavailable here. Built-ins (null, memcpy,\n"
	       "sim) accept every algorithm: they measure the harness, memory and the method.\n"
	       "Public key: 'ok' = every operation that applies (sign, verify, verify-forged,\n"
	       "keygen; derive, keygen); else those offered: s sign, v verify, f verify-forged,\n"
	       "d derive, k keygen.\n");
}

/* Each usable engine's features on one line. A worker's hello also lists
 * every algorithm's calls (and Java's providers and intrinsics): a screen of
 * JSON per worker, left to --json. */
static void print_features(void)
{
	static const char *const long_keys[] = {"calls", "algorithms", "providers", "intrinsics"};
	bool shortened = false;

	for (size_t i = 0; i < cb_engine_count(); i++) {
		const struct cb_engine *e = cb_engine_at(i);
		json_t *features;
		char *text;

		if (!e->describe || !cb_engine_usable(e, NULL))
			continue;
		features = json_object();
		e->describe(features);
		for (size_t k = 0; k < sizeof long_keys / sizeof long_keys[0]; k++)
			shortened |= json_object_del(features, long_keys[k]) == 0;
		text = json_dumps(features, JSON_COMPACT | JSON_PRESERVE_ORDER);
		printf("%s features: %s\n", e->name, text ? text : "{}");
		free(text);
		json_decref(features);
	}
	if (shortened)
		printf("(each worker's calls, algorithms, providers and intrinsics: cryptobench "
		       "engines --json)\n");
}

static int no_operand(void *args, const char *arg)
{
	(void)args;
	return cb_usage_error("engines", "unknown argument '%s'", arg);
}

static int set_allow_external(void *args, const char *value)
{
	(void)args;
	return cb_allow_external_option("engines", value);
}

static int set_lib(void *args, const char *value)
{
	(void)args;
	return cb_lib_option("engines", value, NULL);
}

static const struct cb_cli_option engines_options[] = {
    {"--json", NULL, CB_OPT_FLAG, 0, 1, NULL, false},
    CB_OPTION_CALL("--allow-external", NULL, set_allow_external),
    CB_OPTION_CALL("--lib", NULL, set_lib),
    CB_OPTION_END,
};

int cb_cmd_engines(int argc, char **argv)
{
	int as_json = 0;
	int rc = cb_options_parse("engines", engines_options, argc, argv, &as_json, no_operand);

	if (rc == CB_OPTIONS_HELP) {
		fputs(engines_help, stdout);
		return CB_EXIT_OK;
	}
	if (rc != CB_EXIT_OK)
		return rc;
	char err[1024];
	if (cb_extern_add_allowed(err, sizeof err) != 0)
		return cb_usage_error("engines", "%s", err);
	if (as_json) {
		json_t *list = json_array();

		for (size_t i = 0; i < cb_engine_count(); i++)
			json_array_append_new(list, engine_json(cb_engine_at(i)));
		json_dumpf(list, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(list);
		return cb_stdout_check("engines", CB_EXIT_OK);
	}
	print_text();
	printf("\n");
	print_features();
	return cb_stdout_check("engines", CB_EXIT_OK);
}
