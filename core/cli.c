/* cli.c: helpers the subcommands share. */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

int cb_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cryptobench %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'cryptobench %s --help')\n", cmd);
	return CB_EXIT_USAGE;
}

int cb_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}
