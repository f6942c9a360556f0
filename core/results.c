/* results.c: writing the results file, one JSON line at a time. */
#include "core/results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/errbuf.h"

struct cb_writer {
	FILE *file;
};

static struct cb_writer *open_writer(const char *path, const char *mode, char *err, size_t err_len)
{
	struct cb_writer *w = calloc(1, sizeof *w);

	if (!w || !(w->file = fopen(path, mode))) {
		cb_errorf(err, err_len, "%s: cannot open for writing: %s", path, strerror(errno));
		free(w);
		return NULL;
	}
	return w;
}

struct cb_writer *cb_writer_create(const char *path, json_t *header, char *err, size_t err_len)
{
	struct cb_writer *w = open_writer(path, "w", err, err_len);

	if (!w)
		return NULL;
	json_object_set_new(header, "schema", json_string(CB_SCHEMA));
	if (cb_writer_line(w, "run", header) != 0 || cb_writer_sync(w) != 0) {
		cb_errorf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
		fclose(w->file);
		free(w);
		return NULL;
	}
	return w;
}

struct cb_writer *cb_writer_append(const char *path, char *err, size_t err_len)
{
	return open_writer(path, "a", err, err_len);
}

int cb_writer_line(struct cb_writer *w, const char *type, json_t *obj)
{
	/* "type" first, so a reader (or a person with grep) sees the kind at once. */
	json_t *line = json_pack("{s:s}", "type", type);
	char *text;
	int rc;

	json_object_update(line, obj);
	text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(line);
	if (!text)
		return -1;
	/* One write per line: a hard kill loses at most the line being written. */
	rc = fprintf(w->file, "%s\n", text) < 0 || fflush(w->file) != 0 ? -1 : 0;
	free(text);
	return rc;
}

int cb_writer_sync(struct cb_writer *w)
{
	if (fflush(w->file) != 0)
		return -1;
	return fsync(fileno(w->file)) == 0 || errno == EINVAL ? 0 : -1;
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
	if (fclose(w->file) != 0)
		rc = -1;
	free(w);
	return rc;
}
