/* runtimes.c: engines in other runtimes, run as workers (worker.h):
 * python-hashlib, python-cryptography, python-pycryptodome, node-crypto and
 * dotnet. Each speaks core/engines/workers/PROTOCOL.md; the probe starts the
 * worker once, and its hello names the runtime, the crypto library under it
 * and the algorithms it offers. The worker then lives for the whole process.
 *
 * Python: the first of `python3` on PATH and /usr/bin/python3 (or only
 * $CRYPTOBENCH_PYTHON) that has the module is used; the hello records which.
 * Test fixtures replace a worker's command with $CRYPTOBENCH_WORKER_<ENGINE>
 * (upper case, '-' as '_'): words separated by spaces. */
#include "config.h"

#include "core/process.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WORKERS CB_DATADIR "/core/engines/workers"

/* The worker's command from the test override, if any. */
static bool override(struct cb_process_engine *pe)
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

static int find_python(struct cb_process_engine *pe, char *why, size_t why_len)
{
	const char *only = getenv("CRYPTOBENCH_PYTHON");
	const char *candidates[] = {only && *only ? only : "python3",
	                            only && *only ? NULL : "/usr/bin/python3", NULL};
	size_t used = 0;

	if (override(pe))
		return cb_process_start(pe, why, why_len);
	why[0] = '\0';
	for (size_t i = 0; candidates[i]; i++) {
		char reason[256];

		pe->argv[0] = candidates[i];
		pe->argv[1] = WORKERS "/worker.py";
		pe->argv[2] = pe->backend;
		pe->argv[3] = NULL;
		if (cb_process_start(pe, reason, sizeof reason) == 0)
			return 0;
		used += (size_t)snprintf(why + used, used < why_len ? why_len - used : 0,
		                         "%s%s: %s", i ? "; " : "", candidates[i], reason);
	}
	return -1;
}

static int find_node(struct cb_process_engine *pe, char *why, size_t why_len)
{
	if (override(pe))
		return cb_process_start(pe, why, why_len);
	pe->argv[0] = "node";
	pe->argv[1] = WORKERS "/worker.js";
	pe->argv[2] = NULL;
	return cb_process_start(pe, why, why_len);
}

static int find_dotnet(struct cb_process_engine *pe, char *why, size_t why_len)
{
	static const char dll[] =
	    CB_BUILDDIR "/core/engines/workers/dotnet/bin/cryptobench-worker.dll";

	if (override(pe))
		return cb_process_start(pe, why, why_len);
	if (access(dll, R_OK) != 0) {
		snprintf(why, why_len,
		         "the .NET worker is not built (%s): `dotnet` was not found when "
		         "configure ran, or `make` did not build it",
		         dll);
		return -1;
	}
	pe->argv[0] = "dotnet";
	pe->argv[1] = dll;
	pe->argv[2] = NULL;
	return cb_process_start(pe, why, why_len);
}

#define RUNTIME_ENGINE(sym, label, find_fn, backend_arg)                                           \
	extern const struct cb_engine cb_engine_##sym;                                             \
	static struct cb_process_engine pe_##sym = {                                               \
	    .engine = &cb_engine_##sym, .find = find_fn, .backend = backend_arg};                  \
	static const char *sym##_version(void)                                                     \
	{                                                                                          \
		return cb_process_version(&pe_##sym);                                              \
	}                                                                                          \
	static int sym##_probe(char *why, size_t why_len)                                          \
	{                                                                                          \
		return cb_process_probe(&pe_##sym, why, why_len);                                  \
	}                                                                                          \
	static bool sym##_supports(const struct cb_algorithm *alg, enum cb_op op,                  \
	                           enum cb_mode mode)                                              \
	{                                                                                          \
		return cb_process_supports(&pe_##sym, alg, op, mode);                              \
	}                                                                                          \
	static void *sym##_open(const struct cb_cell_setup *setup, char *err, size_t err_len)      \
	{                                                                                          \
		return cb_process_open(&pe_##sym, setup, err, err_len);                            \
	}                                                                                          \
	static void sym##_describe(json_t *obj)                                                    \
	{                                                                                          \
		cb_process_describe(&pe_##sym, obj);                                               \
	}                                                                                          \
	const struct cb_engine cb_engine_##sym = {                                                 \
	    .name = label,                                                                         \
	    .kind = "process",                                                                     \
	    .version = sym##_version,                                                              \
	    .probe = sym##_probe,                                                                  \
	    .supports = sym##_supports,                                                            \
	    .open = sym##_open,                                                                    \
	    .call = cb_process_call,                                                               \
	    .close = cb_process_close,                                                             \
	    .describe = sym##_describe,                                                            \
	    .remote = cb_process_remote,                                                           \
	}

RUNTIME_ENGINE(python_hashlib, "python-hashlib", find_python, "hashlib");
RUNTIME_ENGINE(python_cryptography, "python-cryptography", find_python, "cryptography");
RUNTIME_ENGINE(python_pycryptodome, "python-pycryptodome", find_python, "pycryptodome");
RUNTIME_ENGINE(node_crypto, "node-crypto", find_node, NULL);
RUNTIME_ENGINE(dotnet, "dotnet", find_dotnet, NULL);
