/* b2sum.c: b2sum FILE (GNU coreutils; BLAKE2b-512 by default), a command engine (see
 * core/engine/command.h). */
#include "config.h"

#include <string.h>

#include "core/engine/command.h"

static const char *const *args_for(const struct cb_algorithm *alg)
{
	static const char *const none[] = {NULL};

	return strcmp(alg->name, "blake2b-512") == 0 ? none : NULL;
}

CB_COMMAND_ENGINE(b2sum, "b2sum", "b2sum", args_for, false);
