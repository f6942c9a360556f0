/* cli.h: the subcommands of the cryptobench program.
 *
 * Each takes its own argv (argv[0] is the subcommand's name) and returns the
 * process's exit status: 0 success, 1 a problem the user asked to fail on,
 * 2 bad input (scenario, flags, files), 130 interrupted. Errors are one line
 * on stderr: "file:line: message" where there is a file. */
#ifndef CB_CLI_H
#define CB_CLI_H

#include <stdbool.h>
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
int cb_cmd_export(int argc, char **argv);
int cb_cmd_claims(int argc, char **argv);
int cb_cmd_fleet(int argc, char **argv);
/* Hidden: an in-process engine served over the worker protocol. */
int cb_cmd_worker(int argc, char **argv);
/* A conformance suite for a worker program. */
int cb_cmd_worker_check(int argc, char **argv);

/* Around loading a scenario: if it takes more than SECONDS of CPU time (stuck in a
 * library call the sandbox's budget cannot stop), print "FILE:LINE: script
 * stopped: ..." (PATH:1 when the script's place is unknown) and exit 2. */
#define CB_LOAD_WATCHDOG_SECONDS 3 /* past the sandbox's 2 s */
void cb_watchdog_start(unsigned seconds, const char *path);
void cb_watchdog_stop(void);

/* Print "cryptobench CMD: message" on stderr and return CB_EXIT_USAGE. */
int cb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --budget VALUE of command CMD: a duration of at least 1 s (3m, 90s,
 * 1h30m) into *SECONDS; CB_EXIT_OK, or a usage error. */
int cb_budget_option(const char *cmd, const char *value, double *seconds);

/* --allow-external PATH[,PATH...] of command CMD (core/engine/extern.h): the
 * files allowed to run as external workers or load as plug-ins; CB_EXIT_OK,
 * or a usage error naming a path that does not exist. */
int cb_allow_external_option(const char *cmd, const char *value);

/* --lib ENGINE=FILE of command CMD: another build of ENGINE's library, as a
 * scenario's `lib` opens it (core/builds/libbuild.h), added as the engine
 * ENGINE@FILE; its name into *BUILD (NULL: not wanted). CB_EXIT_OK, or a
 * usage error saying why the build is refused. */
int cb_lib_option(const char *cmd, const char *value, const char **build);

/* A malformed CRYPTOBENCH_FAULT (the test-only fault switch, core/engine/engine.h)
 * is bad input: print "cryptobench CMD: CRYPTOBENCH_FAULT=...: expected ..."
 * and return CB_EXIT_USAGE; CB_EXIT_OK when it is unset or well formed. */
int cb_fault_env_check(const char *cmd);

/* Whether ARG is -h or --help. */
int cb_is_help(const char *arg);
/* ARG written to OUT as one word of a POSIX shell, quoted when it needs it. */
void cb_shell_word(FILE *out, const char *arg);

/* The values of --format and --statistic, checked the same way in every
 * command: CB_EXIT_OK with *OUT set, or CB_EXIT_USAGE with "cryptobench
 * CMD: unknown format 'V' (text, markdown, csv, json)" (the choices of
 * that command) printed. */
int cb_report_format_option(const char *cmd, const char *v, int *out);
int cb_statistic_option(const char *cmd, const char *v, int *out);
/* The same for a command's own list of choices (NAMES, NULL-terminated):
 * WHAT is "format", "table", ... */
int cb_choice_option(const char *cmd, const char *what, const char *v, const char *const *names,
                     int *out);

/* Flush standard output and check it: a full disk or a closed pipe is
 * "cryptobench CMD: cannot write the output: REASON" and CB_EXIT_PROBLEM
 * instead of a silently cut output; RC (the command's status) otherwise. */
int cb_stdout_check(const char *cmd, int rc);

/* The --statistic choices, from cb_statistics[] (analysis/stats/summary.h):
 * "auto|min|median|mean" (joined by SEP) into BUF. */
const char *cb_statistic_choices(const char *sep, char *buf, size_t len);
/* One line per statistic, "INDENT NAME  what it draws", to OUT. */
void cb_print_statistics(FILE *out, const char *indent);
/* The names of TABLES (NULL-terminated) joined by ", " into BUF. */
const char *cb_table_choices(const char *const *tables, char *buf, size_t len);

/* Results files named on a command line. */
struct cb_results;
struct cb_file_list {
	struct cb_results **files;
	size_t n, cap;
};

/* The results files of the folder DIR, in natural order (run-2 before
 * run-10): its own, or when it has none, those of its folders (one folder per
 * host: a fleet's --runs layout DIR/HOST/run-N.jsonl; folders without any,
 * such as logs/, passed over). Their paths into *PATHS (free them with
 * cb_folder_paths_free) and their count; -1 with a one-line ERR when there is
 * none or DIR cannot be read. */
long cb_folder_results(const char *dir, char ***paths, char *err, size_t err_len);
void cb_folder_paths_free(char **paths, long n);

/* Read PATH into L: a results file, or a folder of them (cb_folder_results).
 * CB_EXIT_OK, or CB_EXIT_USAGE with the one-line error printed. */
int cb_file_list_add(struct cb_file_list *l, const char *path);
void cb_file_list_free(struct cb_file_list *l);

/* The runs CMD (compare, claims) judges of FILES[0..N-1]: FILES[*FIRST ..
 * *FIRST + *COUNT - 1]. Every run, but of a folder FOLDER that `run --runs
 * auto` wrote (one with a plan.log), given alone (FOLDER NULL otherwise),
 * one set of runs of equal rounds (analysis/verdicts/judged_set.h): then
 * true, with a line on stderr, "CMD: FOLDER is a --runs auto folder ...",
 * saying which runs are judged and which left out. */
bool cb_judged_runs(const char *cmd, const char *folder, struct cb_results *const *files, size_t n,
                    size_t *first, size_t *count);

#endif
