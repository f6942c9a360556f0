/* sha256sum.c: sha256sum FILE (GNU coreutils), a command engine (see core/engine/command.h). */
#include "config.h"

#include <string.h>

#include "core/engine/command.h"

static const char *const *args_for(const struct cb_algorithm *alg)
{
	static const char *const none[] = {NULL};

	return strcmp(alg->name, "sha256") == 0 ? none : NULL;
}

CB_COMMAND_ENGINE(sha256sum, "sha256sum", "sha256sum", args_for, false);
