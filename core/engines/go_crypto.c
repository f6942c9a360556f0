/* go_crypto.c: go-crypto through Go's standard library crypto (crypto/sha256,
 * crypto/aes, crypto/cipher; golang.org/x/crypto's ChaCha20-Poly1305 when
 * make found it), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). make builds the worker when configure
 * found go; without it the engine is unavailable and says why. */
#include "config.h"

#include "core/base/datadir.h"
#include "core/engine/process.h"

#include <stdio.h>
#include <unistd.h>

static int find_go(struct cb_process_engine *pe, char *why, size_t why_len)
{
	const char *worker = cb_datadir(CB_DATA_GO_WORKER, pe->script, sizeof pe->script);

	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	if (access(worker, X_OK) != 0) {
		cb_process_not_built(why, why_len, "Go", worker, "`go` was not found");
		return -1;
	}
	pe->argv[0] = worker;
	pe->argv[1] = NULL;
	return cb_process_start(pe, why, why_len);
}

CB_PROCESS_ENGINE(go_crypto, "go-crypto", find_go, NULL);
