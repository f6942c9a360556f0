/* results.c: writing the results file, one JSON line at a time. */
#include "core/results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/base/killpoint.h"

struct cb_writer {
	int fd;
	char *path;
	long long whole; /* bytes of whole lines written: where the next one starts */
	int failed;      /* the errno of the write that failed (then every write fails) */
};

static struct cb_writer *new_writer(const char *path, int flags, char *err, size_t err_len)
{
	struct cb_writer *w = calloc(1, sizeof *w);

	if (!w || !(w->path = strdup(path))) {
		free(w);
		cb_errorf(err, err_len, "%s: out of memory", path);
		return NULL;
	}
	if ((w->fd = open(path, flags | O_CLOEXEC, 0666)) < 0) {
		cb_errorf(err, err_len, "%s: cannot open for writing: %s", path, strerror(errno));
		free(w->path);
		free(w);
		return NULL;
	}
	return w;
}

/* Write all of TEXT at the end of the whole lines, or take it back. */
static int write_whole(struct cb_writer *w, const char *text, size_t len)
{
	size_t done = 0;

	if (w->failed) {
		errno = w->failed;
		return -1;
	}
	while (done < len) {
		ssize_t n =
		    pwrite(w->fd, text + done, len - done, (off_t)(w->whole + (long long)done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int saved = n < 0 ? errno : ENOSPC;

			/* Leave no part of a line: the file stays readable and
			 * resumable up to the last whole line. */
			if (done && ftruncate(w->fd, (off_t)w->whole) != 0)
				saved = n < 0 ? saved : errno;
			w->failed = saved;
			errno = saved;
			return -1;
		}
		done += (size_t)n;
	}
	w->whole += (long long)len;
	return 0;
}

struct cb_writer *cb_writer_open(const char *path, char *err, size_t err_len)
{
	return new_writer(path, O_WRONLY | O_CREAT | O_TRUNC, err, err_len);
}

int cb_writer_header(struct cb_writer *w, json_t *header, char *err, size_t err_len)
{
	if (!json_is_string(json_object_get(header, "schema"))) /* the runner's, or the oldest */
		json_object_set_new(header, "schema", json_string(CB_SCHEMA));
	if (cb_writer_line(w, "run", header) != 0 || cb_writer_sync(w) != 0)
		return cb_errorf(err, err_len, "%s: cannot write: %s", w->path, strerror(errno));
	return 0;
}

struct cb_writer *cb_writer_create(const char *path, json_t *header, char *err, size_t err_len)
{
	struct cb_writer *w = cb_writer_open(path, err, err_len);

	if (w && cb_writer_header(w, header, err, err_len) != 0) {
		cb_writer_discard(w);
		return NULL;
	}
	return w;
}

void cb_writer_discard(struct cb_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	unlink(w->path);
	free(w->path);
	free(w);
}

struct cb_writer *cb_writer_append(const char *path, long long keep, char *err, size_t err_len)
{
	struct cb_writer *w = new_writer(path, O_RDWR, err, err_len);
	struct stat st;
	char last = '\n';

	if (!w)
		return NULL;
	if (fstat(w->fd, &st) != 0 || keep < 0 || keep > (long long)st.st_size ||
	    (keep < (long long)st.st_size && ftruncate(w->fd, (off_t)keep) != 0) ||
	    (keep > 0 && pread(w->fd, &last, 1, (off_t)keep - 1) != 1)) {
		cb_errorf(err, err_len, "%s: cannot resume writing: %s", path,
		          keep > (long long)st.st_size ? "the file shrank" : strerror(errno));
		close(w->fd);
		free(w->path);
		free(w);
		return NULL;
	}
	w->whole = keep;
	if (last != '\n' && write_whole(w, "\n", 1) != 0) {
		cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		cb_writer_close(w, NULL);
		return NULL;
	}
	return w;
}

int cb_writer_line(struct cb_writer *w, const char *type, json_t *obj)
{
	/* "type" first, so a reader (or a person with grep) sees the kind at once. */
	json_t *line = json_pack("{s:s}", "type", type);
	char *text;
	int rc;

	if (!line)
		return -1;
	json_object_update(line, obj);
	text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(line);
	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	/* One write per line, newline included: a hard kill loses at most the
	 * line being written. */
	size_t len = strlen(text);
	text[len] = '\n';
	if (strcmp(type, "trial") == 0 && cb_kill_due("torn")) {
		write_whole(w, text, len / 2);
		cb_kill_now();
	}
	rc = write_whole(w, text, len + 1);
	free(text);
	return rc;
}

int cb_writer_line_take(struct cb_writer *w, const char *type, json_t *obj)
{
	int rc = cb_writer_line(w, type, obj), saved = errno;

	json_decref(obj);
	errno = saved;
	return rc;
}

int cb_writer_sync(struct cb_writer *w)
{
	if (w->failed) {
		errno = w->failed;
		return -1;
	}
	return fsync(w->fd) == 0 || errno == EINVAL ? 0 : -1;
}

int cb_writer_close(struct cb_writer *w, json_t *end)
{
	int rc = 0;

	if (!w)
		return 0;
	if (end)
		rc = cb_writer_line(w, "end", end);
	if (cb_writer_sync(w) != 0)
		rc = -1;
	if (close(w->fd) != 0)
		rc = -1;
	free(w->path);
	free(w);
	return rc;
}
