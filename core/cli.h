/* cli.h: the subcommands of the cryptobench program.
 *
 * Each takes its own argv (argv[0] is the subcommand's name) and returns the
 * process's exit status: 0 success, 1 a problem the user asked to fail on,
 * 2 bad input (scenario, flags, files), 130 interrupted. Errors are one line
 * on stderr: "file:line: message" where there is a file. */
#ifndef CB_CLI_H
#define CB_CLI_H

#include <stdio.h>

#define CB_EXIT_OK 0
#define CB_EXIT_PROBLEM 1
#define CB_EXIT_USAGE 2
#define CB_EXIT_INTERRUPTED 130

int cb_cmd_run(int argc, char **argv);
int cb_cmd_report(int argc, char **argv);
int cb_cmd_compare(int argc, char **argv);
int cb_cmd_plot(int argc, char **argv);
int cb_cmd_engines(int argc, char **argv);
int cb_cmd_verify(int argc, char **argv);
int cb_cmd_input(int argc, char **argv);

/* Print "cryptobench CMD: message" on stderr and return CB_EXIT_USAGE. */
int cb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether ARG is -h or --help. */
int cb_is_help(const char *arg);

#endif
