/* cmd_input.c: cryptobench input — the generated payload, for other tools.
 *
 * The bytes every engine is fed, written to stdout, so anyone can check a
 * digest with an independent program (cryptobench input 128MiB | sha256sum
 * gives 885a4d877a6979ff..., the published digest). */
#include <stdlib.h>
#include <string.h>

#include "core/cli/cli.h"
#include "core/input.h"
#include "core/units.h"

static const char input_help[] =
    "usage: cryptobench input SIZE [--seed N]\n\n"
    "Write SIZE bytes of the generated input (xorshift32, seed 20260804 unless\n"
    "given, a 1 MiB unit repeated) to stdout.\n";

int cb_cmd_input(int argc, char **argv)
{
	uint32_t seed = CB_INPUT_DEFAULT_SEED;
	size_t size = 0, done = 0;
	int have_size = 0;
	unsigned char *unit;

	for (int i = 1; i < argc; i++) {
		if (cb_is_help(argv[i])) {
			fputs(input_help, stdout);
			return CB_EXIT_OK;
		}
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 0);

			if (*end || v == 0 || v > 0xffffffffUL)
				return cb_usage_error(
				    "input", "--seed wants a nonzero 32-bit number, not '%s'",
				    argv[i]);
			seed = (uint32_t)v;
		} else if (!have_size && cb_parse_size(argv[i], &size) == 0) {
			have_size = 1;
		} else {
			return cb_usage_error("input", "bad argument '%s' (a size such as 1MiB)",
			                      argv[i]);
		}
	}
	if (!have_size)
		return cb_usage_error("input", "how many bytes? e.g. cryptobench input 1MiB");
	if (!(unit = malloc(CB_INPUT_UNIT)))
		return CB_EXIT_PROBLEM;
	cb_input_fill(unit, CB_INPUT_UNIT, seed);
	while (done < size) {
		size_t n = size - done < CB_INPUT_UNIT ? size - done : CB_INPUT_UNIT;

		if (fwrite(unit, 1, n, stdout) != n)
			break;
		done += n;
	}
	free(unit);
	return fflush(stdout) == 0 && done == size ? CB_EXIT_OK : CB_EXIT_PROBLEM;
}
