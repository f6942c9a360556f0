/* sha512sum.c: sha512sum FILE (GNU coreutils), a command engine (see core/engine/command.h). */
#include "config.h"

#include <string.h>

#include "core/engine/command.h"

static const char *const *args_for(const struct cb_algorithm *alg)
{
	static const char *const none[] = {NULL};

	return strcmp(alg->name, "sha512") == 0 ? none : NULL;
}

CB_COMMAND_ENGINE(sha512sum, "sha512sum", "sha512sum", args_for, false);
