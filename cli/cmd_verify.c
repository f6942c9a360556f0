/* cmd_verify.c: cryptobench verify — known answers and agreement. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/base/datadir.h"
#include "core/engine/extern.h"
#include "core/check/verify.h"

static const char verify_help[] =
    "usage: cryptobench verify [ENGINE...] [--vectors DIR] [--allow-external PATH,...]\n"
    "                          [--lib ENGINE=FILE]...\n\n"
    "Run every known-answer vector (FIPS 180-4, RFC 1321, RFC 7693, FIPS 202,\n"
    "SP 800-38A, the GCM specification, RFC 8439) on every crypto engine that\n"
    "offers its algorithm, then check that all engines agree on the 1 MiB\n"
    "generated input. Prints a matrix; exits 1 on any failure or disagreement.\n"
    "--allow-external adds each file as an engine: a plug-in (a name ending in\n"
    "'.so') or a worker program (run without arguments, named after its file).\n"
    "--lib adds another build of a library engine's library, as a scenario's\n"
    "lib does: the engine ENGINE@FILE, checked beside ENGINE.\n";

struct verify_args {
	const char *vectors;
	const char **names; /* the engines to check (none: all) */
	size_t n;
};

static int add_name(void *args, const char *name)
{
	struct verify_args *a = args;

	a->names[a->n++] = name;
	return CB_EXIT_OK;
}

static int set_allow_external(void *args, const char *value)
{
	(void)args;
	return cb_allow_external_option("verify", value);
}

/* --lib ENGINE=FILE: the build and its engine are checked side by side. */
static int set_lib(void *args, const char *value)
{
	struct verify_args *a = args;
	const char *build = NULL;
	int rc = cb_lib_option("verify", value, &build);
	char base[64];
	const struct cb_engine *e;
	bool listed = false;

	if (rc != CB_EXIT_OK)
		return rc;
	snprintf(base, sizeof base, "%.*s", (int)strcspn(value, "="), value);
	e = cb_engine_find(base); /* cb_lib_option found it */
	for (size_t i = 0; i < a->n; i++)
		listed |= strcmp(a->names[i], e->name) == 0;
	if (!listed)
		a->names[a->n++] = e->name;
	a->names[a->n++] = build;
	return CB_EXIT_OK;
}

static const struct cb_cli_option verify_options[] = {
    CB_OPTION_STRING("--vectors", NULL, struct verify_args, vectors),
    CB_OPTION_CALL("--allow-external", NULL, set_allow_external),
    CB_OPTION_CALL("--lib", NULL, set_lib),
    CB_OPTION_END,
};

int cb_cmd_verify(int argc, char **argv)
{
	/* an operand is one name, a --lib two (its engine and the build) */
	const char **names = calloc(2 * (size_t)argc + 1, sizeof *names);
	char datadir[4096];
	struct verify_args a = {cb_datadir(CB_DATA_VECTORS, datadir, sizeof datadir), names, 0};
	char err[512];
	int rc;

	if (!names)
		return CB_EXIT_PROBLEM;
	rc = cb_options_parse("verify", verify_options, argc, argv, &a, add_name);
	if (rc != CB_EXIT_OK) {
		if (rc == CB_OPTIONS_HELP)
			fputs(verify_help, stdout);
		free(names);
		return rc == CB_OPTIONS_HELP ? CB_EXIT_OK : rc;
	}
	if ((rc = cb_fault_env_check("verify")) != CB_EXIT_OK) {
		free(names);
		return rc;
	}
	if (cb_extern_add_allowed(err, sizeof err) == 0)
		rc = cb_verify_run(stdout, a.vectors, names, a.n, err, sizeof err);
	else
		rc = CB_VERIFY_BAD_INPUT;
	free(names);
	if (rc == CB_VERIFY_BAD_INPUT) {
		fprintf(stderr, "cryptobench verify: %s\n", err);
		return CB_EXIT_USAGE;
	}
	return cb_stdout_check("verify", rc == CB_VERIFY_PASSED ? CB_EXIT_OK : CB_EXIT_PROBLEM);
}
