/* lines.c: lines of a plain, gzip or zstd file, read in blocks. */
#include "core/results/lines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/base/errbuf.h"

#define IN_BLOCK ((size_t)1 << 17)
#define OUT_BLOCK ((size_t)1 << 18)

enum format { PLAIN, GZIP, ZSTD };

struct cb_lines {
	int fd;
	enum format format;
	size_t max;
	/* Raw bytes of the file not yet decompressed (compressed formats, and
	 * the first block of a plain file). */
	unsigned char *in;
	size_t in_pos, in_len;
	bool eof;      /* read() returned 0 */
	bool finished; /* no more text */
	/* Decompressed text: lines are cut from buf[pos, len). */
	char *buf;
	size_t pos, len, cap, scanned;
	z_stream z;
	bool z_open, z_done; /* inflate set up; the last member ended */
	ZSTD_DCtx *zd;
	size_t zstd_left; /* the last ZSTD_decompressStream result (0: a frame ended) */
	char why[200];
};

static int fail(struct cb_lines *l, const char *fmt, const char *what)
{
	snprintf(l->why, sizeof l->why, fmt, what);
	return -3;
}

/* More raw bytes into l->in (what was consumed dropped): 1, 0 at the end of
 * the file, -3 on a read error. */
static int read_in(struct cb_lines *l)
{
	ssize_t n;

	if (l->in_pos > 0) {
		memmove(l->in, l->in + l->in_pos, l->in_len - l->in_pos);
		l->in_len -= l->in_pos;
		l->in_pos = 0;
	}
	if (l->eof || l->in_len == IN_BLOCK)
		return !l->eof || l->in_len > 0;
	do
		n = read(l->fd, l->in + l->in_len, IN_BLOCK - l->in_len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(l, "cannot read: %s", strerror(errno));
	if (n == 0)
		l->eof = true;
	l->in_len += (size_t)n;
	return n > 0;
}

/* Room for at least one more block of text at the end of buf. */
static int make_room(struct cb_lines *l)
{
	if (l->pos > 0 && (l->pos == l->len || l->cap - l->len < OUT_BLOCK)) {
		memmove(l->buf, l->buf + l->pos, l->len - l->pos);
		l->len -= l->pos;
		l->scanned -= l->pos;
		l->pos = 0;
	}
	if (l->cap - l->len < OUT_BLOCK) {
		size_t more = l->cap ? l->cap * 2 : 4 * OUT_BLOCK;
		char *grown;

		while (more - l->len < OUT_BLOCK)
			more *= 2;
		if (!(grown = realloc(l->buf, more)))
			return -2;
		l->buf = grown;
		l->cap = more;
	}
	return 0;
}

static int fill_plain(struct cb_lines *l)
{
	ssize_t n;

	if (l->in_pos < l->in_len) {
		size_t take = l->in_len - l->in_pos;

		if (take > l->cap - l->len)
			take = l->cap - l->len;
		memcpy(l->buf + l->len, l->in + l->in_pos, take);
		l->in_pos += take;
		l->len += take;
		return 1;
	}
	do
		n = read(l->fd, l->buf + l->len, l->cap - l->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(l, "cannot read: %s", strerror(errno));
	l->len += (size_t)n;
	return n > 0;
}

static int fill_gzip(struct cb_lines *l)
{
	for (;;) {
		bool at_end = false;
		int got, zrc;

		if (l->z_done) {
			/* Another member may follow (files joined with cat). */
			if (l->in_pos == l->in_len && (got = read_in(l)) <= 0)
				return got;
			if (inflateReset(&l->z) != Z_OK)
				return fail(l, "%s", "cannot restart the gzip reader");
			l->z_done = false;
		}
		if (l->in_pos == l->in_len) {
			if ((got = read_in(l)) < 0)
				return got;
			at_end = got == 0; /* what inflate still holds may come out */
		}
		l->z.next_in = l->in + l->in_pos;
		l->z.avail_in = (uInt)(l->in_len - l->in_pos);
		l->z.next_out = (Bytef *)l->buf + l->len;
		l->z.avail_out = (uInt)(l->cap - l->len);
		zrc = inflate(&l->z, Z_NO_FLUSH);
		l->in_pos = l->in_len - l->z.avail_in;
		size_t made = (l->cap - l->len) - l->z.avail_out;
		l->len += made;
		if (zrc == Z_STREAM_END)
			l->z_done = true;
		else if (zrc == Z_MEM_ERROR)
			return -2;
		else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			return fail(l, "corrupt gzip data: %s", l->z.msg ? l->z.msg : zError(zrc));
		if (made > 0)
			return 1;
		if (at_end && !l->z_done)
			return fail(l, "%s", "gzip data cut short (the file is incomplete)");
	}
}

static int fill_zstd(struct cb_lines *l)
{
	for (;;) {
		bool at_end = false;
		int got;

		if (l->in_pos == l->in_len) {
			if ((got = read_in(l)) < 0)
				return got;
			if (got == 0 && l->zstd_left == 0)
				return 0; /* the last frame ended and is all out */
			at_end = got == 0;
		}
		ZSTD_inBuffer in = {l->in, l->in_len, l->in_pos};
		ZSTD_outBuffer out = {l->buf, l->cap, l->len};
		size_t rc = ZSTD_decompressStream(l->zd, &out, &in);

		if (ZSTD_isError(rc))
			return fail(l, "corrupt zstd data: %s", ZSTD_getErrorName(rc));
		l->zstd_left = rc;
		l->in_pos = in.pos;
		size_t made = out.pos - l->len;
		l->len = out.pos;
		if (made > 0)
			return 1;
		if (at_end)
			return rc == 0
			           ? 0
			           : fail(l, "%s", "zstd data cut short (the file is incomplete)");
	}
}

/* More text at the end of buf: 1, 0 at the end, -2 or -3. */
static int fill(struct cb_lines *l)
{
	int rc = make_room(l);

	if (rc != 0)
		return rc;
	switch (l->format) {
	case GZIP:
		return fill_gzip(l);
	case ZSTD:
		return fill_zstd(l);
	default:
		return fill_plain(l);
	}
}

struct cb_lines *cb_lines_open(const char *path, size_t max, char *err, size_t err_len)
{
	struct cb_lines *l = calloc(1, sizeof *l);
	int got;

	if (!l || !(l->in = malloc(IN_BLOCK))) {
		free(l);
		cb_error_at(err, err_len, path, 0, "out of memory");
		return NULL;
	}
	l->max = max;
	if ((l->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		cb_error_at(err, err_len, path, 0, "cannot open: %s", strerror(errno));
		free(l->in);
		free(l);
		return NULL;
	}
	/* The first bytes tell the format. */
	while ((got = read_in(l)) > 0 && l->in_len < 4)
		;
	if (got < 0) {
		cb_error_at(err, err_len, path, 0, "%s", l->why);
		cb_lines_close(l);
		return NULL;
	}
	if (l->in_len >= 2 && l->in[0] == 0x1f && l->in[1] == 0x8b) {
		l->format = GZIP;
		if (inflateInit2(&l->z, 15 + 16) != Z_OK) {
			cb_error_at(err, err_len, path, 0, "out of memory");
			cb_lines_close(l);
			return NULL;
		}
		l->z_open = true;
	} else if (l->in_len >= 4 && l->in[0] == 0x28 && l->in[1] == 0xb5 && l->in[2] == 0x2f &&
	           l->in[3] == 0xfd) {
		l->format = ZSTD;
		if (!(l->zd = ZSTD_createDCtx())) {
			cb_error_at(err, err_len, path, 0, "out of memory");
			cb_lines_close(l);
			return NULL;
		}
	}
	return l;
}

int cb_lines_next(struct cb_lines *l, const char **line, size_t *len)
{
	for (;;) {
		char *nl = l->scanned < l->len
		               ? memchr(l->buf + l->scanned, '\n', l->len - l->scanned)
		               : NULL;
		size_t have;
		int got;

		if (nl) {
			have = (size_t)(nl - (l->buf + l->pos)) + 1;
			if (have > l->max)
				return -1;
			*line = l->buf + l->pos;
			*len = have;
			l->pos += have;
			l->scanned = l->pos;
			return 1;
		}
		l->scanned = l->len;
		if (l->len - l->pos > l->max)
			return -1;
		if (l->finished)
			got = 0;
		else if ((got = fill(l)) < 0)
			return got;
		if (got == 0) {
			l->finished = true;
			if (l->pos == l->len)
				return 0;
			/* The last line, without a newline. */
			*line = l->buf + l->pos;
			*len = l->len - l->pos;
			l->pos = l->scanned = l->len;
			return 1;
		}
	}
}

const char *cb_lines_error(const struct cb_lines *l)
{
	return l->why;
}

const char *cb_lines_compression(const struct cb_lines *l)
{
	return l->format == GZIP ? "gzip" : l->format == ZSTD ? "zstd" : NULL;
}

void cb_lines_close(struct cb_lines *l)
{
	if (!l)
		return;
	if (l->z_open)
		inflateEnd(&l->z);
	ZSTD_freeDCtx(l->zd);
	if (l->fd >= 0)
		close(l->fd);
	free(l->in);
	free(l->buf);
	free(l);
}
