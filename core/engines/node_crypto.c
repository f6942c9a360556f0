/* node_crypto.c: node-crypto through Node.js's crypto module (OpenSSL
 * underneath), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). */
#include "config.h"

#include "core/engine/process.h"

#include <stdio.h>

static int find_node(struct cb_process_engine *pe, char *why, size_t why_len)
{
	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	pe->argv[0] = "node";
	pe->argv[1] = cb_process_script(pe, "worker.js");
	pe->argv[2] = NULL;
	return cb_process_start(pe, why, why_len);
}

CB_PROCESS_ENGINE(node_crypto, "node-crypto", find_node, NULL);
