/* cmd_input.c: cryptobench input — the generated payload, for other tools.
 *
 * The bytes every engine is fed, written to stdout, so anyone can check a
 * digest with an independent program (cryptobench input 128MiB | sha256sum
 * gives 885a4d877a6979ff..., the published digest). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/algorithms/input.h"
#include "core/base/units.h"

static const char input_help[] =
    "usage: cryptobench input SIZE [--seed N]\n\n"
    "Write SIZE bytes of the generated input (xorshift32, seed 20260804 unless\n"
    "given, a 1 MiB unit repeated) to stdout.\n";

struct input_args {
	uint32_t seed;
	size_t size;
	int have_size;
};

static int set_seed(void *args, const char *v)
{
	char *end;
	unsigned long n = strtoul(v, &end, 0);

	if (*end || end == v || n == 0 || n > 0xffffffffUL)
		return cb_usage_error("input", "--seed wants a nonzero 32-bit number, not '%s'", v);
	((struct input_args *)args)->seed = (uint32_t)n;
	return CB_EXIT_OK;
}

static int set_size(void *args, const char *arg)
{
	struct input_args *a = args;

	if (a->have_size || cb_parse_size(arg, &a->size) != 0)
		return cb_usage_error("input", "bad argument '%s' (a size such as 1MiB)", arg);
	a->have_size = 1;
	return CB_EXIT_OK;
}

static const struct cb_cli_option input_options[] = {
    CB_OPTION_CALL("--seed", NULL, set_seed),
    CB_OPTION_END,
};

int cb_cmd_input(int argc, char **argv)
{
	struct input_args a = {.seed = CB_INPUT_DEFAULT_SEED};
	size_t done = 0;
	unsigned char *unit;
	int rc = cb_options_parse("input", input_options, argc, argv, &a, set_size);
	uint32_t seed = a.seed;
	size_t size = a.size;
	int have_size = a.have_size;

	if (rc == CB_OPTIONS_HELP) {
		fputs(input_help, stdout);
		return CB_EXIT_OK;
	}
	if (rc != CB_EXIT_OK)
		return rc;
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
	return cb_stdout_check("input", done == size ? CB_EXIT_OK : CB_EXIT_PROBLEM);
}
