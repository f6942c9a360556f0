/* cmd_verify.c: cryptobench verify — known answers and agreement. */
#include <stdlib.h>
#include <string.h>

#include "core/cli/cli.h"
#include "core/datadir.h"
#include "core/verify.h"

static const char verify_help[] =
    "usage: cryptobench verify [ENGINE...] [--vectors DIR]\n\n"
    "Run every known-answer vector (FIPS 180-4, RFC 1321, RFC 7693, FIPS 202,\n"
    "SP 800-38A, the GCM specification, RFC 8439) on every crypto engine that\n"
    "offers its algorithm, then check that all engines agree on the 1 MiB\n"
    "generated input. Prints a matrix; exits 1 on any failure or disagreement.\n";

int cb_cmd_verify(int argc, char **argv)
{
	const char **names = calloc((size_t)argc, sizeof *names);
	char datadir[4096];
	const char *vectors = cb_datadir(CB_DATA_VECTORS, datadir, sizeof datadir);
	size_t n = 0;
	char err[512];
	int rc;

	for (int i = 1; i < argc; i++) {
		if (cb_is_help(argv[i])) {
			fputs(verify_help, stdout);
			free(names);
			return 0;
		}
		if (strcmp(argv[i], "--vectors") == 0 && i + 1 < argc) {
			vectors = argv[++i];
			continue;
		}
		if (argv[i][0] == '-') {
			free(names);
			return cb_usage_error("verify", "unknown option '%s'", argv[i]);
		}
		names[n++] = argv[i];
	}
	if ((rc = cb_fault_env_check("verify")) != CB_EXIT_OK) {
		free(names);
		return rc;
	}
	rc = cb_verify_run(stdout, vectors, names, n, err, sizeof err);
	free(names);
	if (rc == CB_VERIFY_BAD_INPUT) {
		fprintf(stderr, "cryptobench verify: %s\n", err);
		return CB_EXIT_USAGE;
	}
	return rc == CB_VERIFY_PASSED ? CB_EXIT_OK : CB_EXIT_PROBLEM;
}
