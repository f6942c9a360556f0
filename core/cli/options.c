/* options.c: the option table's parser. */
#include "core/cli/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli/cli.h"

#define MAX_OPTIONS 64

/* Store VALUE (NULL for an option without one) as ROW says. */
static int apply(const struct cb_cli_option *row, void *args, const char *value)
{
	char *field = (char *)args + row->offset;

	switch (row->kind) {
	case CB_OPT_FLAG:
		*(int *)field = row->flag;
		return CB_EXIT_OK;
	case CB_OPT_BOOL:
		*(bool *)field = true;
		return CB_EXIT_OK;
	case CB_OPT_STRING:
		*(const char **)field = value;
		return CB_EXIT_OK;
	case CB_OPT_CALL:
		return row->set(args, value);
	}
	return CB_EXIT_OK;
}

static bool takes_value(const struct cb_cli_option *row)
{
	return row->kind == CB_OPT_STRING || row->kind == CB_OPT_CALL;
}

int cb_options_parse(const char *cmd, const struct cb_cli_option *table, int argc, char **argv,
                     void *args, int (*operand)(void *args, const char *arg))
{
	struct option longopts[MAX_OPTIONS + 2];
	char shorts[2 * MAX_OPTIONS + 4] = "-h";
	size_t n = 0, used = 2;
	int opt, index, rc;

	for (; n < MAX_OPTIONS && table[n].name; n++) {
		longopts[n] = (struct option){
		    table[n].name + 2, takes_value(&table[n]) ? required_argument : no_argument,
		    NULL, 0};
		if (table[n].alias) {
			shorts[used++] = table[n].alias[1];
			if (takes_value(&table[n]))
				shorts[used++] = ':';
		}
	}
	shorts[used] = '\0';
	longopts[n] = (struct option){"help", no_argument, NULL, 'h'};
	longopts[n + 1] = (struct option){NULL, 0, NULL, 0};
	opterr = 0;
	optind = 1;
	/* "-" first in SHORTS: operands come back in order, as 1. */
	while ((index = -1, opt = getopt_long(argc, argv, shorts, longopts, &index)) != -1) {
		const struct cb_cli_option *row = NULL;

		if (opt == '?')
			return cb_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		if (opt == 'h' && (index < 0 || (size_t)index == n))
			return CB_OPTIONS_HELP;
		if (opt == 1) {
			if ((rc = operand(args, optarg)) != CB_EXIT_OK)
				return rc;
			continue;
		}
		if (index >= 0 && (size_t)index < n)
			row = &table[index];
		for (size_t k = 0; !row && k < n; k++)
			if (table[k].alias && table[k].alias[1] == opt)
				row = &table[k];
		if (!row)
			return cb_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		if ((rc = apply(row, args, takes_value(row) ? optarg : NULL)) != CB_EXIT_OK)
			return rc;
	}
	for (; optind < argc; optind++) /* after "--" */
		if ((rc = operand(args, argv[optind])) != CB_EXIT_OK)
			return rc;
	return CB_EXIT_OK;
}
