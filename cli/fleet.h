/* fleet.h: cryptobench fleet — one scenario on many machines, through an
 * engine that already exists there (Slurm's job arrays, GNU parallel over
 * SSH). A results file is self-contained, so a fleet needs no daemon of
 * ours: each machine runs `cryptobench run` into DIR/HOST.jsonl.
 *
 * DIR, the scenario and the program must be at the same paths on every
 * machine: a shared folder (NFS home, a cluster's shared file system). */
#ifndef CB_CLI_FLEET_H
#define CB_CLI_FLEET_H

#include <stdio.h>

#include "cli/cli.h" /* cb_shell_word */

#define FLEET_MAX_ARGS 128

struct fleet_args {
	const char *engine;              /* "slurm" or "parallel" */
	char dir[4096];                  /* -o, absolute */
	char program[4096];              /* the cryptobench the machines run, absolute */
	const char *run[FLEET_MAX_ARGS]; /* the arguments of `cryptobench run` */
	int n_run;
	char scenario[4096]; /* the scenario, absolute ("" for a one-line run) */
	unsigned runs;       /* --runs N: a folder per host when N > 1 */
	int dry_run;
	int wait;
	/* slurm */
	const char *nodes; /* a count, or a comma-separated list of nodes */
	const char *partition, *time_limit;
	const char *sbatch[16]; /* more #SBATCH lines (--sbatch OPT) */
	int n_sbatch;
	/* parallel */
	char sshlogin[4096]; /* comma-separated, as --sshlogin takes it */
	char command_line[2048];
};

/* The run of one machine: its OUTPUT inside the fleet's folder, and
 * HOST_EXPR (a shell expression such as "$host") for the host's name, the
 * run's --host: the name its file is named by is the name its header
 * gives, so two machines of one hostname stay two hosts. Here, shared by
 * both engines' files, so that neither calls into the other. */
static inline void cb_fleet_print_run(FILE *out, const struct fleet_args *a, const char *output,
                                      const char *host_expr)
{
	cb_shell_word(out, a->program);
	fputs(" run", out);
	for (int i = 0; i < a->n_run; i++) {
		fputc(' ', out);
		cb_shell_word(out, a->run[i]);
	}
	fprintf(out, " -o %s --host %s --no-progress", output, host_expr);
}

/* Check --nodes and the #SBATCH values before anything is created. */
int cb_fleet_slurm_check(const struct fleet_args *a);
int cb_fleet_slurm(const struct fleet_args *a);
/* Wait for the job of a fleet folder, then say which tasks failed. */
int cb_fleet_slurm_wait(const char *dir);

#endif
