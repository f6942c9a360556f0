/* dotnet.c: dotnet through .NET's System.Security.Cryptography (OpenSSL
 * underneath on Linux), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). make builds the worker when configure
 * found dotnet; without it the engine is unavailable and says why. */
#include "config.h"

#include "core/base/datadir.h"
#include "core/engine/process.h"

#include <stdio.h>
#include <unistd.h>

static int find_dotnet(struct cb_process_engine *pe, char *why, size_t why_len)
{
	char dir[4096];
	const char *dll = pe->script;

	snprintf(pe->script, sizeof pe->script, "%s/cryptobench-worker.dll",
	         cb_datadir(CB_DATA_DOTNET_WORKER, dir, sizeof dir));
	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	if (access(dll, R_OK) != 0) {
		cb_process_not_built(why, why_len, ".NET", dll, "`dotnet` was not found");
		return -1;
	}
	pe->argv[0] = "dotnet";
	pe->argv[1] = dll;
	pe->argv[2] = NULL;
	return cb_process_start(pe, why, why_len);
}

CB_PROCESS_ENGINE(dotnet, "dotnet", find_dotnet, NULL);
