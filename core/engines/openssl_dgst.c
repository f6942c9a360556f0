/* openssl_dgst.c: openssl dgst -ALG FILE (the OpenSSL command), a command engine (see
 * core/engine/command.h). */
#include "config.h"

#include <string.h>

#include "core/engine/command.h"

static const char *const *args_for(const struct cb_algorithm *alg)
{
	static const struct {
		const char *alg;
		const char *const args[3];
	} map[] = {
	    {"md5", {"dgst", "-md5", NULL}},
	    {"sha1", {"dgst", "-sha1", NULL}},
	    {"sha256", {"dgst", "-sha256", NULL}},
	    {"sha512", {"dgst", "-sha512", NULL}},
	    {"sha3-256", {"dgst", "-sha3-256", NULL}},
	    {"blake2b-512", {"dgst", "-blake2b512", NULL}},
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].alg, alg->name) == 0)
			return map[i].args;
	return NULL;
}

CB_COMMAND_ENGINE(openssl_dgst, "openssl-dgst", "openssl", args_for, false);
