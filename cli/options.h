/* options.h: a subcommand's options described as a table.
 *
 * Each row names one option ("--output", with an alias such as "-o") and
 * what it does with its value: store a flag or the value's text into a field
 * of the command's arguments, or hand the value to a function that checks
 * it. A new option is one row (and, when it needs checking, one function).
 *
 * Every command reads its options the same way: "--name VALUE" or
 * "--name=VALUE" (an alias also "-o VALUE" or "-oVALUE"), in any order
 * among the operands, "--" before operands that begin with '-'; an option
 * whose value is optional takes it only as "--name=VALUE". A name is
 * matched whole: an abbreviation is refused like any unknown option, exit 2
 * with "unknown option '--eng'; did you mean '--engines'?". */
#ifndef CB_OPTIONS_H
#define CB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

enum cb_option_kind {
	CB_OPT_FLAG,          /* no value: the int at OFFSET becomes FLAG */
	CB_OPT_BOOL,          /* no value: the bool at OFFSET becomes true */
	CB_OPT_STRING,        /* a value: the const char * at OFFSET points to it */
	CB_OPT_CALL,          /* a value: SET checks and stores it */
	CB_OPT_CALL_OPTIONAL, /* "--name" or "--name=VALUE" (never "--name VALUE"): SET
	                       * gets the value or NULL */
};

struct cb_cli_option {
	const char *name;  /* "--output" */
	const char *alias; /* "-o", or NULL */
	enum cb_option_kind kind;
	size_t offset; /* FLAG, BOOL, STRING: the field in the command's arguments */
	int flag;      /* FLAG: the value stored */
	/* CALL: CB_EXIT_OK, or CB_EXIT_USAGE with the one-line message printed. */
	int (*set)(void *args, const char *value);
	bool hidden; /* used between the program's own processes: not in --help */
};

#define CB_OPTION_FLAG(name, alias, type, field, value)                                            \
	{                                                                                          \
		name, alias, CB_OPT_FLAG, offsetof(type, field), value, NULL, false                \
	}
#define CB_OPTION_BOOL(name, alias, type, field)                                                   \
	{                                                                                          \
		name, alias, CB_OPT_BOOL, offsetof(type, field), 0, NULL, false                    \
	}
#define CB_OPTION_STRING(name, alias, type, field)                                                 \
	{                                                                                          \
		name, alias, CB_OPT_STRING, offsetof(type, field), 0, NULL, false                  \
	}
#define CB_OPTION_CALL(name, alias, set)                                                           \
	{                                                                                          \
		name, alias, CB_OPT_CALL, 0, 0, set, false                                         \
	}
#define CB_OPTION_CALL_OPTIONAL(name, set)                                                         \
	{                                                                                          \
		name, NULL, CB_OPT_CALL_OPTIONAL, 0, 0, set, false                                 \
	}
#define CB_OPTION_END                                                                              \
	{                                                                                          \
		NULL, NULL, CB_OPT_FLAG, 0, 0, NULL, false                                         \
	}

/* What cb_options_parse returns after -h or --help (the command prints its
 * help and exits 0). */
#define CB_OPTIONS_HELP (-1)

/* Parse ARGV[1..ARGC-1] for the subcommand CMD against TABLE (ended by
 * CB_OPTION_END) into ARGS; every other argument, in order, goes to
 * OPERAND(ARGS, arg). CB_EXIT_OK; CB_EXIT_USAGE with the one-line message
 * printed (an unknown option, a missing value, a value refused by SET or
 * OPERAND); or CB_OPTIONS_HELP. */
int cb_options_parse(const char *cmd, const struct cb_cli_option *table, int argc, char **argv,
                     void *args, int (*operand)(void *args, const char *arg));

/* The option of NAMES (NULL-terminated) that ARG ("--name" or "--name=V")
 * was probably meant to be: the first it abbreviates, else the nearest within
 * a few typos; NULL when none is near. */
const char *cb_option_suggest(const char *arg, const char *const *names);

/* Print "cryptobench CMD: unknown option 'ARG'[; did you mean '--x'?]" (the
 * suggestion from NAMES) and return CB_EXIT_USAGE. */
int cb_unknown_option(const char *cmd, const char *arg, const char *const *names);

#endif
