/* fuzz_scenario.c: the scenario loader (core/lua/load.h) on any script.
 *
 * The sandbox must turn every script into a scenario or one "FILE:LINE:
 * message", within its instruction, memory and time budgets: never a
 * crash, a leak, or a hang. */
#include <string.h>

#include "core/lua/load.h"
#include "core/measure/scenario.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = cb_fuzz_file(data, size, "scenario.lua");
	struct cb_load_options options = {0};
	struct cb_scenario *sc;
	char err[1024];

	if (!path)
		return 0;
	err[0] = '\0';
	sc = cb_scenario_load(path, &options, err, sizeof err);
	if (!sc) {
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap(); /* the message is one line */
		return 0;
	}
	cb_scenario_free(sc);
	return 0;
}
