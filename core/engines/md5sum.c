/* md5sum.c: md5sum FILE (GNU coreutils), a command engine (see core/engine/command.h). */
#include "config.h"

#include <string.h>

#include "core/engine/command.h"

static const char *const *args_for(const struct cb_algorithm *alg)
{
	static const char *const none[] = {NULL};

	return strcmp(alg->name, "md5") == 0 ? none : NULL;
}

CB_COMMAND_ENGINE(md5sum, "md5sum", "md5sum", args_for, false);
