/* command.c: whole command-line tools run on a file (see command.h). */
#include "core/engine/command.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/machine/clock.h"
#include "core/base/errbuf.h"
#include "core/algorithms/input.h"

extern char **environ;

#define MAX_ARGS 8

struct ctx {
	struct cb_command_engine *ce;
	struct cb_cell_setup setup;
};

/* ---- The payload files ---- */

static char folder[4096];
static struct payload {
	uint32_t seed;
	size_t size;
	char path[4200];
	char sha256[65];
} payloads[64];
static size_t n_payloads;

static void remove_payloads(void)
{
	for (size_t i = 0; i < n_payloads; i++)
		unlink(payloads[i].path);
	if (folder[0])
		rmdir(folder);
}

static int write_file(const char *path, const unsigned char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int rc = f && fwrite(buf, 1, len, f) == len ? 0 : -1;

	if (f && fclose(f) != 0)
		rc = -1;
	return rc;
}

static int make_folder(char *err, size_t err_len)
{
	const char *tmp = getenv("TMPDIR");

	if (folder[0])
		return 0;
	snprintf(folder, sizeof folder, "%s/cryptobench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(folder)) {
		cb_errorf(err, err_len, "cannot make a folder for payload files: %s",
		          strerror(errno));
		folder[0] = '\0';
		return -1;
	}
	atexit(remove_payloads);
	return 0;
}

/* The file holding SIZE bytes of the generator from SEED, written once. */
static const struct payload *payload(uint32_t seed, size_t size, char *err, size_t err_len)
{
	struct payload *p;
	unsigned char *buf;

	for (size_t i = 0; i < n_payloads; i++)
		if (payloads[i].seed == seed && payloads[i].size == size)
			return &payloads[i];
	if (n_payloads == sizeof payloads / sizeof payloads[0] || make_folder(err, err_len) != 0) {
		if (n_payloads == sizeof payloads / sizeof payloads[0])
			cb_errorf(err, err_len, "too many payload files");
		return NULL;
	}
	p = &payloads[n_payloads];
	p->seed = seed;
	p->size = size;
	snprintf(p->path, sizeof p->path, "%s/input-%u-%zu.bin", folder, seed, size);
	buf = malloc(size ? size : 1);
	if (!buf) {
		cb_errorf(err, err_len, "out of memory for a %zu-byte payload file", size);
		return NULL;
	}
	cb_input_fill(buf, size, seed);
	cb_sha256_hex(buf, size, p->sha256);
	if (write_file(p->path, buf, size) != 0) {
		cb_errorf(err, err_len, "cannot write %s: %s", p->path, strerror(errno));
		free(buf);
		return NULL;
	}
	free(buf);
	n_payloads++;
	return p;
}

/* ---- Running the command ---- */

static bool find_program(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH");
	char copy[4096];

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return access(path, X_OK) == 0;
	}
	snprintf(copy, sizeof copy, "%s", dirs && *dirs ? dirs : "/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(copy, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/%s", d, name);
		if (access(path, X_OK) == 0)
			return true;
	}
	return false;
}

/* Read up to LEN-1 bytes of F from its start into BUF. */
static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
}

/* Run ARGV once, stdout to OUT and stderr to ERRS (both emptied first):
 * the exit status (-1 when it could not start), and its time in *NS. */
static int run_once(const char *path, char *const *argv, FILE *out, FILE *errs, uint64_t *ns)
{
	posix_spawn_file_actions_t actions;
	pid_t pid;
	int status = 0, rc;
	uint64_t t0;

	if (ftruncate(fileno(out), 0) != 0 || ftruncate(fileno(errs), 0) != 0)
		return -1;
	rewind(out);
	rewind(errs);
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, fileno(out), 1);
	posix_spawn_file_actions_adddup2(&actions, fileno(errs), 2);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	t0 = cb_wall_ns();
	rc = posix_spawn(&pid, path, &actions, NULL, argv, environ);
	if (rc == 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	*ns = cb_wall_ns() - t0;
	posix_spawn_file_actions_destroy(&actions);
	if (rc != 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first word of TEXT that is LEN bytes of hex, decoded into OUT. */
static bool parse_digest(const char *text, size_t len, unsigned char *out)
{
	const char *p = text;

	while (*p) {
		size_t n = 0;

		while (*p && !isxdigit((unsigned char)*p))
			p++;
		while (isxdigit((unsigned char)p[n]))
			n++;
		bool alone =
		    (p == text || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]);
		if (n == 2 * len && alone) {
			for (size_t i = 0; i < len; i++) {
				unsigned v;

				sscanf(p + 2 * i, "%2x", &v);
				out[i] = (unsigned char)v;
			}
			return true;
		}
		p += n ? n : 1;
	}
	return false;
}

static uint64_t children_cpu_ns(void)
{
	struct rusage u;

	if (getrusage(RUSAGE_CHILDREN, &u) != 0)
		return 0;
	return (uint64_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000ull;
}

/* Run the command CALLS times on FILE; the last digest to OUT. */
static int run_command(struct ctx *c, const char *file, uint64_t calls, unsigned char *out,
                       struct cb_remote_times *t, char *why, size_t why_len)
{
	struct cb_command_engine *ce = c->ce;
	const char *const *args = ce->args(c->setup.alg);
	char *argv[MAX_ARGS + 3];
	size_t n = 0;
	FILE *o = tmpfile(), *e = tmpfile();
	char text[8192], errors[512];
	uint64_t cpu0 = children_cpu_ns();
	int rc = CB_OK;

	argv[n++] = (char *)ce->program;
	for (size_t i = 0; args && args[i] && n < MAX_ARGS + 1; i++)
		argv[n++] = (char *)args[i];
	argv[n++] = (char *)file;
	argv[n] = NULL;
	if (!o || !e) {
		snprintf(why, why_len, "%s: cannot make temporary files", ce->engine->name);
		rc = CB_FAILED;
		goto done;
	}
	for (uint64_t i = 0; i < calls && rc == CB_OK; i++) {
		uint64_t ns;
		int status = run_once(ce->path, argv, o, e, &ns);

		t->ns += ns;
		if (status != 0) {
			slurp(e, errors, sizeof errors);
			errors[strcspn(errors, "\n")] = '\0';
			snprintf(why, why_len, "%s %s %s", ce->program,
			         status < 0 ? "could not start" : "failed", errors);
			rc = CB_FAILED;
			break;
		}
		if (ce->no_output)
			continue;
		slurp(o, text, sizeof text);
		if (!parse_digest(text, c->setup.alg->digest_len, out)) {
			slurp(e, errors, sizeof errors);
			errors[strcspn(errors, "\n")] = '\0';
			text[strcspn(text, "\n")] = '\0';
			snprintf(why, why_len,
			         "%s printed no %s digest (stdout '%.60s', stderr '%.150s')",
			         ce->program, c->setup.alg->name, text, errors);
			rc = CB_FAILED;
		}
	}
	t->cpu_ns = children_cpu_ns() - cpu0;
	t->has_cpu = true;
done:
	if (o)
		fclose(o);
	if (e)
		fclose(e);
	return rc;
}

/* ---- The engine ---- */

int cb_command_probe(struct cb_command_engine *ce, char *why, size_t why_len)
{
	if (!find_program(ce->program, ce->path, sizeof ce->path)) {
		snprintf(why, why_len, "%s is not on PATH", ce->program);
		return -1;
	}
	return 0;
}

const char *cb_command_version(struct cb_command_engine *ce)
{
	char *argv[] = {(char *)ce->program, "--version", NULL};
	FILE *o, *e;
	uint64_t ns;

	if (ce->version[0])
		return ce->version;
	if (!cb_engine_usable(ce->engine, NULL))
		return "unavailable";
	snprintf(ce->version, sizeof ce->version, "%.200s", ce->path);
	if (strcmp(ce->program, "openssl") == 0)
		argv[1] = "version";
	o = tmpfile();
	e = tmpfile();
	if (o && e && !ce->no_output && run_once(ce->path, argv, o, e, &ns) == 0) {
		char text[256];

		slurp(o, text, sizeof text);
		text[strcspn(text, "\n")] = '\0';
		if (text[0])
			snprintf(ce->version, sizeof ce->version, "%.120s (%.120s)", text,
			         ce->path);
	}
	if (o)
		fclose(o);
	if (e)
		fclose(e);
	return ce->version;
}

bool cb_command_supports(struct cb_command_engine *ce, const struct cb_algorithm *alg,
                         enum cb_op op, enum cb_mode mode)
{
	return mode == CB_MODE_MESSAGE && op == CB_OP_HASH && alg->kind == CB_KIND_HASH &&
	       (ce->no_output || ce->args(alg) != NULL);
}

void *cb_command_open(struct cb_command_engine *ce, const struct cb_cell_setup *setup, char *err,
                      size_t err_len)
{
	const struct cb_engine_config *cf = setup->config;
	struct ctx *c;

	if (cf && (cf->mode != CB_MODE_MESSAGE || cf->recreate || cf->chunk || cf->env)) {
		cb_errorf(
		    err, err_len,
		    "%s runs a whole process per message: no stream mode, reuse, chunk or env",
		    ce->engine->name);
		return NULL;
	}
	c = calloc(1, sizeof *c);
	if (!c) {
		cb_errorf(err, err_len, "out of memory");
		return NULL;
	}
	c->ce = ce;
	c->setup = *setup;
	return c;
}

void cb_command_close(void *ctx)
{
	free(ctx);
}

int cb_command_remote(void *ctx, const struct cb_trial_info *trial, unsigned char *out,
                      struct cb_remote_times *t, char *why, size_t why_len)
{
	struct ctx *c = ctx;
	const struct payload *p = payload(c->setup.input_seed, trial->len, why, why_len);

	memset(t, 0, sizeof *t);
	if (!p)
		return CB_FAILED;
	/* The command reads the file: its digest is what the file holds. */
	snprintf(t->input_sha256, sizeof t->input_sha256, "%s", p->sha256);
	return run_command(c, p->path, trial->calls, out, t, why, why_len);
}

int cb_command_call(void *ctx, const unsigned char *in, size_t len, unsigned char *out)
{
	struct ctx *c = ctx;
	struct cb_remote_times t = {0};
	char why[256], path[4200];
	int rc;

	if (make_folder(why, sizeof why) != 0)
		return CB_FAILED;
	snprintf(path, sizeof path, "%s/message-%d.bin", folder, (int)getpid());
	if (write_file(path, in, len) != 0)
		return CB_FAILED;
	rc = run_command(c, path, 1, out, &t, why, sizeof why);
	unlink(path);
	return rc;
}

int cb_command_self_check(void *ctx, const unsigned char *in, size_t len, const unsigned char *out,
                          char *why, size_t why_len)
{
	(void)ctx;
	(void)in;
	(void)len;
	(void)out;
	(void)why;
	(void)why_len;
	return 0; /* a baseline: the process ran and exited 0, nothing more to check */
}
