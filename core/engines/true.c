/* true.c: true FILE: the cost of starting a process and nothing else (a baseline for the command
 * engines), a command engine (see core/engine/command.h). */
#include "config.h"

#include <string.h>

#include "core/engine/command.h"

static const char *const *args_for(const struct cb_algorithm *alg)
{
	(void)alg;
	return NULL; /* no arguments before the file */
}

CB_COMMAND_ENGINE(true, "true", "true", args_for, true);
