/* worker.c: starting workers, the handshake, requests with timeouts. */
#include "core/engine/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "core/machine/clock.h"
#include "core/base/errbuf.h"

extern char **environ;

#define HELLO_TIMEOUT 30.0

struct cb_worker {
	struct cb_worker *next;
	char *engine;
	char *key; /* engine, argv and env, joined: what makes two workers the same */
	char **argv;
	char **env;
	pid_t pid; /* 0: not running */
	int to_fd, from_fd;
	FILE *errors; /* the worker's stderr */
	char *buf;    /* bytes read and not yet used */
	size_t len, cap;
	json_t *hello;
	unsigned starts;
	json_int_t next_id;
};

static struct cb_worker *workers;

double cb_worker_timeout(void)
{
	const char *s = getenv("CRYPTOBENCH_WORKER_TIMEOUT");
	double t = s && *s ? strtod(s, NULL) : 0;

	return t > 0 ? t : 60;
}

static char **copy_list(const char *const *list)
{
	size_t n = 0;
	char **copy;

	while (list && list[n])
		n++;
	copy = calloc(n + 1, sizeof *copy);
	for (size_t i = 0; copy && i < n; i++)
		copy[i] = strdup(list[i]);
	return copy;
}

static char *join_key(const char *engine, const char *const *argv, char *const *env)
{
	size_t len = strlen(engine) + 2;
	char *key;

	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	for (size_t i = 0; env && env[i]; i++)
		len += strlen(env[i]) + 1;
	key = malloc(len);
	if (!key)
		return NULL;
	strcpy(key, engine);
	for (size_t i = 0; argv[i]; i++)
		strcat(strcat(key, "\x1f"), argv[i]);
	strcat(key, "\x1e");
	for (size_t i = 0; env && env[i]; i++)
		strcat(strcat(key, "\x1f"), env[i]);
	return key;
}

/* The last non-empty line the worker wrote to stderr, or "". */
static void last_error_line(struct cb_worker *w, char *line, size_t len)
{
	char buf[4096];
	long size;
	size_t n;

	line[0] = '\0';
	if (!w->errors || fflush(w->errors) != 0 || fseek(w->errors, 0, SEEK_END) != 0)
		return;
	size = ftell(w->errors);
	if (size <= 0)
		return;
	fseek(w->errors, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET);
	n = fread(buf, 1, sizeof buf - 1, w->errors);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	char *start = strrchr(buf, '\n');
	snprintf(line, len, "%.*s", (int)(len - 1), start ? start + 1 : buf);
}

/* Stop the worker's process (if any) and say how it ended in HOW. */
static void stop(struct cb_worker *w, bool force, char *how, size_t how_len)
{
	int status = 0;
	pid_t got = 0;

	if (how && how_len)
		how[0] = '\0';
	if (w->to_fd >= 0)
		close(w->to_fd);
	w->to_fd = -1;
	if (w->pid > 0) {
		if (force)
			kill(w->pid, SIGKILL);
		/* A worker exits when its stdin closes; give it a moment. */
		for (int i = 0; i < 200 && (got = waitpid(w->pid, &status, WNOHANG)) == 0; i++) {
			struct timespec pause = {0, 5000000};
			nanosleep(&pause, NULL);
		}
		if (got == 0) {
			kill(w->pid, SIGKILL);
			got = waitpid(w->pid, &status, 0);
		}
		if (how && got == w->pid) {
			if (WIFSIGNALED(status))
				snprintf(how, how_len, "killed by signal %d", WTERMSIG(status));
			else if (WIFEXITED(status))
				snprintf(how, how_len, "exited with status %d",
				         WEXITSTATUS(status));
		}
	}
	w->pid = 0;
	if (w->from_fd >= 0)
		close(w->from_fd);
	w->from_fd = -1;
	if (w->errors)
		fclose(w->errors);
	w->errors = NULL;
	w->len = 0;
	json_decref(w->hello);
	w->hello = NULL;
}

/* Why the worker failed, with how it ended and its last stderr line. */
static void fail(struct cb_worker *w, bool force, char *err, size_t err_len, const char *what)
{
	char how[64], line[200];

	last_error_line(w, line, sizeof line);
	stop(w, force, how, sizeof how);
	cb_errorf(err, err_len, "%s worker %s%s%s%s%s%s", w->engine, what, how[0] ? " (" : "", how,
	          how[0] ? ")" : "", line[0] ? ": " : "", line);
}

/* cryptobench's environment with W's pairs put in place of or beside it. */
static char **merged_environment(char *const *env)
{
	size_t n = 0, extra = 0, k = 0;
	char **out;

	while (environ[n])
		n++;
	while (env && env[extra])
		extra++;
	out = calloc(n + extra + 1, sizeof *out);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t name = strcspn(environ[i], "=");
		bool replaced = false;

		for (size_t j = 0; j < extra && !replaced; j++)
			replaced = strncmp(env[j], environ[i], name) == 0 && env[j][name] == '=';
		if (!replaced)
			out[k++] = environ[i];
	}
	for (size_t j = 0; j < extra; j++)
		out[k++] = env[j];
	return out;
}

static int start(struct cb_worker *w, char *err, size_t err_len)
{
	int to[2] = {-1, -1}, from[2] = {-1, -1};
	posix_spawn_file_actions_t actions;
	char **envp;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	w->errors = tmpfile();
	if (!w->errors || pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0) {
		cb_errorf(err, err_len, "%s worker: cannot make pipes: %s", w->engine,
		          strerror(errno));
		goto fail;
	}
	envp = merged_environment(w->env);
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, to[0], 0);
	posix_spawn_file_actions_adddup2(&actions, from[1], 1);
	posix_spawn_file_actions_adddup2(&actions, fileno(w->errors), 2);
	rc = envp ? posix_spawnp(&w->pid, w->argv[0], &actions, NULL, w->argv, envp) : ENOMEM;
	posix_spawn_file_actions_destroy(&actions);
	free(envp);
	close(to[0]);
	close(from[1]);
	if (rc != 0) {
		cb_errorf(err, err_len, "%s worker: cannot start %s: %s", w->engine, w->argv[0],
		          strerror(rc));
		close(to[1]);
		close(from[0]);
		w->pid = 0;
		goto fail;
	}
	w->to_fd = to[1];
	w->from_fd = from[0];
	w->starts++;
	return 0;
fail:
	if (w->errors)
		fclose(w->errors);
	w->errors = NULL;
	return -1;
}

static bool base64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '/' || c == '=';
}

/* LINE (LEN bytes) as a JSON object. jansson reads a long string a byte at
 * a time (17 s for the 179 MB base64 of a 128 MiB ciphertext), so a long
 * line's top-level "output" value, which is base64 and so has nothing to
 * unescape, is cut out before parsing and set back as it stands. Any other
 * line, or one where the cut does not give an object, is parsed whole. */
static json_t *parse_line(const char *line, size_t len, json_error_t *jerr)
{
	static const char key[] = "\"output\":\"";
	const char *k = NULL, *v, *end;

	if (len > (1u << 20))
		for (const char *p = line;
		     (p = memmem(p, len - (size_t)(p - line), key, sizeof key - 1)) != NULL; p++)
			if (p > line && (p[-1] == ',' || p[-1] == '{'))
				k = p;
	if (k) {
		v = k + sizeof key - 1;
		for (end = v; end < line + len && base64_char(*end); end++)
			;
		if (end < line + len && *end == '"' && end - v > (1 << 20)) {
			size_t head = (size_t)(v - line), tail = len - (size_t)(end - line);
			char *cut = malloc(head + tail);
			json_t *obj = NULL;

			if (cut) {
				memcpy(cut, line, head);
				memcpy(cut + head, end, tail);
				obj = json_loadb(cut, head + tail, 0, jerr);
				free(cut);
			}
			if (json_is_object(obj) && json_is_string(json_object_get(obj, "output")) &&
			    json_object_set_new(obj, "output",
			                        json_stringn_nocheck(v, (size_t)(end - v))) == 0)
				return obj;
			json_decref(obj);
		}
	}
	return json_loadb(line, len, 0, jerr);
}

/* Read one line from the worker within TIMEOUT seconds: a new JSON object,
 * or NULL with ERR (and the worker stopped). */
static json_t *read_answer(struct cb_worker *w, double timeout, char *err, size_t err_len)
{
	uint64_t deadline = cb_wall_ns() + (uint64_t)(timeout * 1e9);
	size_t scanned = 0; /* bytes of w->buf known to hold no newline */

	for (;;) {
		char *nl =
		    w->len > scanned ? memchr(w->buf + scanned, '\n', w->len - scanned) : NULL;

		if (nl) {
			size_t line = (size_t)(nl - w->buf);
			json_error_t jerr;
			json_t *obj = parse_line(w->buf, line, &jerr);

			if (!json_is_object(obj)) {
				char what[120];

				snprintf(what, sizeof what,
				         "wrote a line that is not a JSON object: '%.*s'",
				         (int)(line < 60 ? line : 60), w->buf);
				for (char *p = what; *p; p++)
					if (*p == '\n' || *p == '\r' || (unsigned char)*p < 0x20)
						*p = ' ';
				json_decref(obj);
				fail(w, true, err, err_len, what);
				return NULL;
			}
			memmove(w->buf, nl + 1, w->len - line - 1);
			w->len -= line + 1;
			return obj;
		}
		/* An answer of 179 MB (a 128 MiB ciphertext in base64) comes in
		 * pipe-sized pieces: scanning it from the start for every piece
		 * took minutes. */
		scanned = w->len;
		uint64_t now = cb_wall_ns();
		if (now >= deadline) {
			char what[80];

			snprintf(what, sizeof what, "gave no answer within %g s: killed", timeout);
			fail(w, true, err, err_len, what);
			return NULL;
		}
		struct pollfd p = {.fd = w->from_fd, .events = POLLIN};
		int wait_ms = (int)((deadline - now) / 1000000) + 1;
		int ready = poll(&p, 1, wait_ms);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			continue; /* the deadline check above ends it */
		if (w->cap - w->len < 65536) {
			size_t cap = w->cap ? w->cap * 2 : 1 << 20;
			char *grown = realloc(w->buf, cap);

			if (!grown) {
				fail(w, true, err, err_len, "answer too large for memory");
				return NULL;
			}
			w->buf = grown;
			w->cap = cap;
		}
		ssize_t got = read(w->from_fd, w->buf + w->len, w->cap - w->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			fail(w, false, err, err_len, "died");
			return NULL;
		}
		w->len += (size_t)got;
	}
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int handshake(struct cb_worker *w, char *err, size_t err_len)
{
	/* A runtime's start-up on a busy machine can take long: never less than
	 * HELLO_TIMEOUT. */
	double timeout = cb_worker_timeout();
	json_t *hello =
	    read_answer(w, timeout > HELLO_TIMEOUT ? timeout : HELLO_TIMEOUT, err, err_len);
	const char *type;

	if (!hello)
		return -1;
	type = json_string_value(json_object_get(hello, "type"));
	if (type && strcmp(type, "unavailable") == 0) {
		const char *reason = json_string_value(json_object_get(hello, "reason"));

		cb_errorf(err, err_len, "%s",
		          reason ? reason : "the worker says it is unavailable");
		json_decref(hello);
		stop(w, false, NULL, 0);
		return -1;
	}
	if (!type || strcmp(type, "hello") != 0 ||
	    json_integer_value(json_object_get(hello, "protocol")) != CB_WORKER_PROTOCOL) {
		char what[80];

		snprintf(what, sizeof what, "did not greet with a hello of protocol %d",
		         CB_WORKER_PROTOCOL);
		json_decref(hello);
		fail(w, true, err, err_len, what);
		return -1;
	}
	w->hello = hello;
	return 0;
}

struct cb_worker *cb_worker_get(const char *engine, const char *const *argv, char *const *env,
                                char *err, size_t err_len)
{
	char *key = join_key(engine, argv, env);
	struct cb_worker *w;

	if (!key) {
		cb_errorf(err, err_len, "%s worker: out of memory", engine);
		return NULL;
	}
	for (w = workers; w && strcmp(w->key, key) != 0; w = w->next)
		;
	if (w) {
		free(key);
	} else {
		w = calloc(1, sizeof *w);
		if (!w) {
			free(key);
			cb_errorf(err, err_len, "%s worker: out of memory", engine);
			return NULL;
		}
		w->key = key;
		w->engine = strdup(engine);
		w->argv = copy_list(argv);
		w->env = copy_list((const char *const *)env);
		w->to_fd = w->from_fd = -1;
		w->next = workers;
		workers = w;
	}
	if (w->pid > 0)
		return w;
	if (start(w, err, err_len) != 0 || handshake(w, err, err_len) != 0)
		return NULL;
	return w;
}

const json_t *cb_worker_hello(const struct cb_worker *w)
{
	return w->hello;
}

pid_t cb_worker_pid(const struct cb_worker *w)
{
	return w->pid > 0 ? w->pid : 0;
}

unsigned cb_worker_restarts(const struct cb_worker *w)
{
	return w->starts ? w->starts - 1 : 0;
}

json_t *cb_worker_request(struct cb_worker *w, json_t *req, uint64_t *round_trip_ns, char *err,
                          size_t err_len)
{
	json_int_t id = ++w->next_id;
	char *text;
	json_t *answer;
	uint64_t t0;
	int rc;

	*round_trip_ns = 0;
	if (w->pid <= 0) {
		cb_errorf(err, err_len, "%s worker is not running", w->engine);
		return NULL;
	}
	json_object_set_new(req, "id", json_integer(id));
	text = json_dumps(req, JSON_COMPACT);
	if (!text) {
		cb_errorf(err, err_len, "%s worker: out of memory", w->engine);
		return NULL;
	}
	t0 = cb_wall_ns();
	rc = write_all(w->to_fd, text, strlen(text));
	if (rc == 0)
		rc = write_all(w->to_fd, "\n", 1);
	free(text);
	if (rc != 0) {
		fail(w, false, err, err_len, "died");
		return NULL;
	}
	answer = read_answer(w, cb_worker_timeout(), err, err_len);
	*round_trip_ns = cb_wall_ns() - t0;
	if (!answer)
		return NULL;
	if (json_integer_value(json_object_get(answer, "id")) != id ||
	    !json_is_string(json_object_get(answer, "type")) ||
	    strcmp(json_string_value(json_object_get(answer, "type")), "result") != 0) {
		json_decref(answer);
		fail(w, true, err, err_len,
		     "answered with something other than this request's result");
		return NULL;
	}
	return answer;
}

int cb_worker_end(struct cb_worker *w, double timeout, char *how, size_t how_len)
{
	uint64_t deadline = cb_wall_ns() + (uint64_t)(timeout * 1e9);
	int status = 0;
	pid_t got = 0;

	if (w->pid <= 0)
		return cb_errorf(how, how_len, "not running");
	close(w->to_fd);
	w->to_fd = -1;
	while ((got = waitpid(w->pid, &status, WNOHANG)) == 0 && cb_wall_ns() < deadline) {
		struct timespec pause = {0, 5000000};
		nanosleep(&pause, NULL);
	}
	if (got == w->pid) {
		w->pid = 0;
		if (WIFSIGNALED(status))
			snprintf(how, how_len, "killed by signal %d", WTERMSIG(status));
		else
			snprintf(how, how_len, "exited with status %d", WEXITSTATUS(status));
		stop(w, false, NULL, 0);
		return 0;
	}
	stop(w, true, NULL, 0);
	return cb_errorf(how, how_len, "still running %g s after the end of its input: killed",
	                 timeout);
}

void cb_workers_stop(void)
{
	while (workers) {
		struct cb_worker *w = workers;

		workers = w->next;
		stop(w, false, NULL, 0);
		for (size_t i = 0; w->argv && w->argv[i]; i++)
			free(w->argv[i]);
		for (size_t i = 0; w->env && w->env[i]; i++)
			free(w->env[i]);
		free(w->argv);
		free(w->env);
		free(w->buf);
		free(w->engine);
		free(w->key);
		free(w);
	}
}

/* ---- base64, through libcrypto's EVP_EncodeBlock/EVP_DecodeBlock ---- */

char *cb_base64_encode(const unsigned char *buf, size_t len)
{
	char *out;

	if (len > (size_t)INT_MAX / 4 * 3 || !(out = malloc((len + 2) / 3 * 4 + 1)))
		return NULL;
	EVP_EncodeBlock((unsigned char *)out, buf, (int)len);
	return out;
}

long cb_base64_decode(const char *text, unsigned char *out, size_t max)
{
	size_t len = strlen(text), pad, head, n;
	unsigned char last[3];

	if (len % 4 != 0 || len > INT_MAX)
		return -1;
	pad = len && text[len - 1] == '=' ? (text[len - 2] == '=' ? 2 : 1) : 0;
	n = len / 4 * 3 - pad;
	/* EVP_DecodeBlock reads '=' anywhere as zero bits: only the padding may be '='. */
	if (n > max || memchr(text, '=', len - pad))
		return -1;
	if (len == 0)
		return 0;
	/* All but the last quantum straight into OUT; that one through LAST, so
	 * its padding bytes are never written past N. */
	head = len - 4;
	if (head && EVP_DecodeBlock(out, (const unsigned char *)text, (int)head) < 0)
		return -1;
	if (EVP_DecodeBlock(last, (const unsigned char *)text + head, 4) != 3)
		return -1;
	memcpy(out + head / 4 * 3, last, 3 - pad);
	return (long)n;
}
