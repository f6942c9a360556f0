/* options.c: the option table's parser, one for every subcommand.
 *
 * Options are matched whole: an abbreviation such as "--eng" would change
 * meaning the day another option starts the same way, so it is refused,
 * with the option it was probably meant to be. */
#include "cli/options.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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
	case CB_OPT_CALL_OPTIONAL:
		return row->set(args, value);
	}
	return CB_EXIT_OK;
}

static bool takes_value(const struct cb_cli_option *row)
{
	return row->kind == CB_OPT_STRING || row->kind == CB_OPT_CALL;
}

/* Levenshtein distance between A and B[0..BLEN), at most 64 characters. */
static size_t distance(const char *a, const char *b, size_t blen)
{
	size_t alen = strlen(a), row[65];

	if (alen > 64 || blen > 64)
		return (size_t)-1;
	for (size_t j = 0; j <= blen; j++)
		row[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[blen];
}

const char *cb_option_suggest(const char *arg, const char *const *names)
{
	size_t len = strcspn(arg, "="), best = (size_t)-1;
	const char *pick = NULL;

	if (len < 2)
		return NULL;
	/* An abbreviation first: the first option it begins. */
	for (size_t i = 0; names[i]; i++)
		if (strncmp(names[i], arg, len) == 0)
			return names[i];
	/* Else a near miss (a typo): at most a third of the name wrong. */
	for (size_t i = 0; names[i]; i++) {
		size_t d = distance(names[i], arg, len);

		if (d < best && d * 3 <= strlen(names[i])) {
			best = d;
			pick = names[i];
		}
	}
	return pick;
}

int cb_unknown_option(const char *cmd, const char *arg, const char *const *names)
{
	const char *near = cb_option_suggest(arg, names);
	int len = (int)strcspn(arg, "=");

	if (near)
		return cb_usage_error(cmd, "unknown option '%.*s'; did you mean '%s'?", len, arg,
		                      near);
	return cb_usage_error(cmd, "unknown option '%.*s'", len, arg);
}

#define MAX_NAMES 128

/* The option names of TABLE a suggestion may name (hidden ones not), with
 * --help, NULL-terminated. */
static void names_of(const struct cb_cli_option *table, const char **names)
{
	size_t n = 0;

	for (size_t i = 0; table[i].name && n + 2 < MAX_NAMES; i++)
		if (!table[i].hidden)
			names[n++] = table[i].name;
	names[n++] = "--help";
	names[n] = NULL;
}

/* The row ARG names: "--name", "--name=V", "-a" or "-aV" (an alias). */
static const struct cb_cli_option *find(const struct cb_cli_option *table, const char *arg,
                                        const char **inline_value)
{
	*inline_value = NULL;
	for (size_t i = 0; table[i].name; i++) {
		const struct cb_cli_option *row = &table[i];
		size_t len = strlen(row->name);

		if (strncmp(arg, row->name, len) == 0 && (!arg[len] || arg[len] == '=')) {
			*inline_value = arg[len] ? arg + len + 1 : NULL;
			return row;
		}
		if (row->alias && strncmp(arg, row->alias, 2) == 0 &&
		    (!arg[2] || takes_value(row))) {
			*inline_value = arg[2] ? arg + 2 : NULL;
			return row;
		}
	}
	return NULL;
}

int cb_options_parse(const char *cmd, const struct cb_cli_option *table, int argc, char **argv,
                     void *args, int (*operand)(void *args, const char *arg))
{
	const char *names[MAX_NAMES];
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value;
		const struct cb_cli_option *row;

		if (strcmp(arg, "--") == 0) { /* the rest are operands */
			for (i++; i < argc; i++)
				if ((rc = operand(args, argv[i])) != CB_EXIT_OK)
					return rc;
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			if ((rc = operand(args, arg)) != CB_EXIT_OK)
				return rc;
			continue;
		}
		if (cb_is_help(arg))
			return CB_OPTIONS_HELP;
		if (!(row = find(table, arg, &value))) {
			names_of(table, names);
			return cb_unknown_option(cmd, arg, names);
		}
		if (!takes_value(row) && row->kind != CB_OPT_CALL_OPTIONAL && value)
			return cb_usage_error(cmd, "%s takes no value", row->name);
		if (takes_value(row) && !value) {
			if (i + 1 >= argc)
				return cb_usage_error(cmd, "%s wants a value", row->name);
			value = argv[++i];
		}
		if ((rc = apply(row, args, value)) != CB_EXIT_OK)
			return rc;
	}
	return CB_EXIT_OK;
}
