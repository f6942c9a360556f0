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
	/* glibc malloc's thresholds fixed, as the Python worker fixes them with
	 * mallopt (core/engines/workers/PROTOCOL.md), which JavaScript cannot
	 * call: left to move, they trim the heap that a trial's 1 MiB outputs
	 * grew, and the next trial's calls take new pages from the kernel
	 * (tinybench's AES-256-GCM 1 MiB: 33 page faults a call, 0.50-0.73 ms,
	 * against 0.3 and 0.31 ms fixed). */
	pe->argv[0] = "env";
	pe->argv[1] = "MALLOC_MMAP_THRESHOLD_=33554432";
	pe->argv[2] = "MALLOC_TRIM_THRESHOLD_=1073741824";
	pe->argv[3] = "node";
	pe->argv[4] = cb_process_script(pe, "worker.js");
	pe->argv[5] = NULL;
	return cb_process_start(pe, why, why_len);
}

CB_PROCESS_ENGINE(node_crypto, "node-crypto", find_node, NULL);
