/* vectors.c: the known-answer vector reader (one .vec file; a folder of them:
 * vectors_dir.c); vectors_run.c runs them. */
#include "core/check/vectors.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errbuf.h"

/* A message built with `repeat` stays well below what a test machine holds. */
#define MAX_MESSAGE (64u * 1024u * 1024u)

/* ---- Fields ---- */

enum field_id {
	F_ALGORITHM,
	F_NAME,
	F_OP,
	F_MSG,
	F_TEXT,
	F_REPEAT,
	F_DIGEST,
	F_KEY,
	F_IV,
	F_AAD,
	F_CIPHERTEXT,
	F_TAG,
	F_PRIVATE,
	F_PUBLIC,
	F_SIGNATURE,
	F_RESULT,
	F_SHARED,
	N_FIELDS
};

/* Which kinds of algorithm a field applies to. */
#define FOR_HASH (1u << CB_KIND_HASH)
#define FOR_CIPHER (1u << CB_KIND_CIPHER)
#define FOR_AEAD (1u << CB_KIND_AEAD)
#define FOR_SIGN (1u << CB_KIND_SIGN)
#define FOR_KEX (1u << CB_KIND_KEX)
#define FOR_ALL (FOR_HASH | FOR_CIPHER | FOR_AEAD | FOR_SIGN | FOR_KEX)
/* Every kind with a message: key agreement has none. */
#define FOR_MESSAGE (FOR_HASH | FOR_CIPHER | FOR_AEAD | FOR_SIGN)

static const struct {
	const char *name;
	bool hex; /* continuation lines allowed, whitespace ignored */
	unsigned kinds;
} fields[N_FIELDS] = {
    [F_ALGORITHM] = {"algorithm", false, FOR_ALL},
    [F_NAME] = {"name", false, FOR_ALL},
    [F_OP] = {"op", false, FOR_CIPHER | FOR_AEAD},
    [F_MSG] = {"msg", true, FOR_MESSAGE},
    [F_TEXT] = {"text", false, FOR_MESSAGE},
    [F_REPEAT] = {"repeat", false, FOR_MESSAGE},
    [F_DIGEST] = {"digest", true, FOR_HASH},
    [F_KEY] = {"key", true, FOR_CIPHER | FOR_AEAD},
    [F_IV] = {"iv", true, FOR_CIPHER | FOR_AEAD},
    [F_AAD] = {"aad", true, FOR_AEAD},
    [F_CIPHERTEXT] = {"ciphertext", true, FOR_CIPHER | FOR_AEAD},
    [F_TAG] = {"tag", true, FOR_AEAD},
    [F_PRIVATE] = {"private", true, FOR_SIGN | FOR_KEX},
    [F_PUBLIC] = {"public", true, FOR_SIGN | FOR_KEX},
    [F_SIGNATURE] = {"signature", true, FOR_SIGN},
    [F_RESULT] = {"result", false, FOR_SIGN},
    [F_SHARED] = {"shared", true, FOR_KEX},
};

/* The block being read: the raw text of each field and where it was. */
struct block {
	bool open;
	int line;
	char *source;
	char *value[N_FIELDS];
	int value_line[N_FIELDS];
	int last; /* field a continuation line extends, or -1 */
};

struct parser {
	const char *path;
	char *err;
	size_t err_len;
	char *source; /* the `# source:` in force */
	struct cb_vector_file *file;
	size_t capacity;
};

static int fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_verror_at(p->err, p->err_len, p->path, (size_t)line, fmt, ap);
	va_end(ap);
	return -1;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

static void block_clear(struct block *b)
{
	for (int f = 0; f < N_FIELDS; f++) {
		free(b->value[f]);
		b->value[f] = NULL;
	}
	free(b->source);
	memset(b, 0, sizeof *b);
	b->last = -1;
}

static void vector_free(struct cb_vector *v)
{
	free(v->name);
	free(v->source);
	free(v->aad);
	free(v->msg);
	free(v->ciphertext);
	cb_pk_key_free(v->pk_key);
	cb_pk_key_free(v->pk_peer);
	free(v->signature);
	memset(v, 0, sizeof *v);
}

/* ---- Values ---- */

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decode the hex of field F into a new buffer (at least one byte long, so a
 * message is never NULL). */
static int decode_hex(struct parser *p, const struct block *b, int f, unsigned char **out,
                      size_t *out_len)
{
	const char *s = b->value[f];
	size_t digits = 0;
	unsigned char *buf;

	for (const char *c = s; *c; c++) {
		if (*c == ' ' || *c == '\t')
			continue;
		if (hex_value((unsigned char)*c) < 0)
			return fail(p, b->value_line[f], "bad hex digit '%c' in '%s'", *c,
			            fields[f].name);
		digits++;
	}
	if (digits % 2)
		return fail(p, b->value_line[f], "odd number of hex digits in '%s'",
		            fields[f].name);
	buf = calloc(digits / 2 + 1, 1);
	if (!buf)
		return fail(p, b->value_line[f], "out of memory");
	digits = 0;
	for (const char *c = s; *c; c++) {
		int v = hex_value((unsigned char)*c);

		if (v < 0)
			continue;
		buf[digits / 2] = (unsigned char)(buf[digits / 2] << 4 | v);
		digits++;
	}
	*out = buf;
	*out_len = digits / 2;
	return 0;
}

/* Decode field F into DST, which must get exactly WANT bytes. */
static int decode_fixed(struct parser *p, const struct block *b, int f, unsigned char *dst,
                        size_t want, const struct cb_algorithm *alg)
{
	unsigned char *buf;
	size_t len;

	if (decode_hex(p, b, f, &buf, &len) < 0)
		return -1;
	if (len != want) {
		free(buf);
		return fail(p, b->value_line[f], "'%s' is %zu bytes; %s needs %zu", fields[f].name,
		            len, alg->name, want);
	}
	memcpy(dst, buf, len);
	free(buf);
	return 0;
}

static int decode_message(struct parser *p, const struct block *b, struct cb_vector *v)
{
	unsigned char *unit;
	size_t unit_len;
	unsigned long repeat = 1;

	if (b->value[F_MSG] && b->value[F_TEXT])
		return fail(p, b->value_line[F_TEXT], "'msg' and 'text' both given");
	if (b->value[F_TEXT]) {
		const char *t = b->value[F_TEXT];
		size_t len = strlen(t);

		if (len < 2 || t[0] != '"' || t[len - 1] != '"')
			return fail(p, b->value_line[F_TEXT],
			            "'text' must be a double-quoted string");
		unit_len = len - 2;
		unit = malloc(unit_len + 1);
		if (!unit)
			return fail(p, b->value_line[F_TEXT], "out of memory");
		memcpy(unit, t + 1, unit_len);
	} else if (b->value[F_MSG]) {
		if (decode_hex(p, b, F_MSG, &unit, &unit_len) < 0)
			return -1;
	} else {
		return fail(p, b->line, "vector has no 'msg' or 'text'");
	}
	if (b->value[F_REPEAT]) {
		const char *r = b->value[F_REPEAT];
		char *end;

		errno = 0;
		repeat = strtoul(r, &end, 10);
		if (!isdigit((unsigned char)*r) || *end || errno || repeat == 0 ||
		    repeat > MAX_MESSAGE || (unit_len && repeat > MAX_MESSAGE / unit_len)) {
			free(unit);
			return fail(
			    p, b->value_line[F_REPEAT],
			    "'repeat' must be a whole number from 1 up to a %u-byte message",
			    MAX_MESSAGE);
		}
	}
	v->msg_len = unit_len * repeat;
	if (repeat == 1) {
		v->msg = unit;
		return 0;
	}
	v->msg = malloc(v->msg_len + 1);
	if (!v->msg) {
		free(unit);
		return fail(p, b->value_line[F_REPEAT], "out of memory");
	}
	for (unsigned long i = 0; i < repeat; i++)
		memcpy(v->msg + i * unit_len, unit, unit_len);
	free(unit);
	return 0;
}

static int decode_cipher_fields(struct parser *p, const struct block *b, struct cb_vector *v)
{
	const struct cb_algorithm *alg = v->alg;
	size_t ct_len;

	v->op = CB_OP_ENCRYPT;
	if (b->value[F_OP]) {
		if (strcmp(b->value[F_OP], "decrypt") == 0)
			v->op = CB_OP_DECRYPT;
		else if (strcmp(b->value[F_OP], "encrypt") != 0)
			return fail(p, b->value_line[F_OP], "'op' must be encrypt or decrypt");
	}
	if (decode_fixed(p, b, F_KEY, v->key, alg->key_len, alg) < 0 ||
	    decode_fixed(p, b, F_IV, v->iv, alg->iv_len, alg) < 0)
		return -1;
	if (alg->kind == CB_KIND_AEAD && decode_fixed(p, b, F_TAG, v->tag, alg->tag_len, alg) < 0)
		return -1;
	if (b->value[F_AAD]) {
		if (decode_hex(p, b, F_AAD, &v->aad, &v->aad_len) < 0)
			return -1;
		if (v->aad_len == 0) { /* an empty aad is no aad: the engines' default */
			free(v->aad);
			v->aad = NULL;
		}
	}
	if (decode_hex(p, b, F_CIPHERTEXT, &v->ciphertext, &ct_len) < 0)
		return -1;
	if (ct_len != v->msg_len)
		return fail(p, b->value_line[F_CIPHERTEXT],
		            "'ciphertext' is %zu bytes; the message is %zu", ct_len, v->msg_len);
	if (v->msg_len % alg->block_len)
		return fail(
		    p, b->line,
		    "the message is %zu bytes, not a multiple of %zu (%s is run without padding)",
		    v->msg_len, alg->block_len, alg->name);
	return 0;
}

/* The public-key fields decoded from hex, checked and kept by vectors_pk.c. */
static int decode_pk_fields(struct parser *p, const struct block *b, struct cb_vector *v)
{
	static const int hex_fields[] = {F_PRIVATE, F_PUBLIC, F_SIGNATURE, F_SHARED};
	struct cb_vector_pk_fields in = {
	    .result = b->value[F_RESULT], .result_line = b->value_line[F_RESULT], .line = b->line};
	struct cb_vector_pk_field *slot[] = {&in.priv, &in.pub, &in.signature, &in.shared};
	unsigned char *bytes[4] = {NULL};
	char err[512] = "";
	int status = 0, line = b->line;

	for (size_t i = 0; i < 4 && status == 0; i++) {
		int f = hex_fields[i];

		if (!b->value[f])
			continue;
		status = decode_hex(p, b, f, &bytes[i], &slot[i]->len);
		slot[i]->data = bytes[i];
		slot[i]->line = b->value_line[f];
	}
	if (status == 0 && cb_vector_pk_decode(v, &in, err, sizeof err, &line) != 0)
		status = fail(p, line, "%s", err);
	for (size_t i = 0; i < 4; i++)
		free(bytes[i]);
	return status;
}

/* Turn the block into a vector appended to the file. */
static int finish_block(struct parser *p, struct block *b)
{
	static const int required[][4] = {
	    [CB_KIND_HASH] = {F_DIGEST, -1},
	    [CB_KIND_CIPHER] = {F_KEY, F_IV, F_CIPHERTEXT, -1},
	    [CB_KIND_AEAD] = {F_KEY, F_IV, F_CIPHERTEXT, F_TAG},
	    [CB_KIND_SIGN] = {F_SIGNATURE, -1},
	    [CB_KIND_KEX] = {F_PRIVATE, F_PUBLIC, F_SHARED, -1},
	};
	struct cb_vector v = {0};
	const struct cb_algorithm *alg;

	if (!b->value[F_ALGORITHM])
		return fail(p, b->line, "vector has no 'algorithm'");
	alg = cb_algorithm_find(b->value[F_ALGORITHM]);
	if (!alg)
		return fail(p, b->value_line[F_ALGORITHM], "unknown algorithm '%s'",
		            b->value[F_ALGORITHM]);
	for (int f = 0; f < N_FIELDS; f++)
		if (b->value[f] && !(fields[f].kinds & (1u << alg->kind)))
			return fail(p, b->value_line[f], "'%s' does not apply to %s",
			            fields[f].name, alg->name);
	for (int i = 0; i < 4 && required[alg->kind][i] >= 0; i++) {
		int f = required[alg->kind][i];

		if (!b->value[f])
			return fail(p, b->line, "%s vector has no '%s'", alg->name, fields[f].name);
	}
	v.alg = alg;
	v.op = CB_OP_HASH;
	v.line = b->line;
	if (b->value[F_NAME] && *b->value[F_NAME]) {
		v.name = b->value[F_NAME];
		b->value[F_NAME] = NULL;
	} else {
		char name[32];

		snprintf(name, sizeof name, "line %d", b->line);
		v.name = strdup(name);
	}
	v.source = b->source;
	b->source = NULL;
	if (!v.name)
		goto fail;
	if (alg->kind == CB_KIND_KEX) {
		v.msg = calloc(1, 1); /* no message: an empty one, never NULL */
		if (!v.msg) {
			fail(p, b->line, "out of memory");
			goto fail;
		}
	} else if (decode_message(p, b, &v) < 0) {
		goto fail;
	}
	if (alg->kind == CB_KIND_HASH) {
		if (decode_fixed(p, b, F_DIGEST, v.digest, alg->digest_len, alg) < 0)
			goto fail;
	} else if (cb_alg_is_pk(alg)) {
		if (decode_pk_fields(p, b, &v) < 0)
			goto fail;
	} else if (decode_cipher_fields(p, b, &v) < 0) {
		goto fail;
	}
	if (p->file->count == p->capacity) {
		size_t n = p->capacity ? 2 * p->capacity : 16;
		struct cb_vector *grown = realloc(p->file->vectors, n * sizeof *grown);

		if (!grown) {
			fail(p, b->line, "out of memory");
			goto fail;
		}
		p->file->vectors = grown;
		p->capacity = n;
	}
	p->file->vectors[p->file->count++] = v;
	return 0;
fail:
	if (!v.name)
		fail(p, b->line, "out of memory");
	vector_free(&v);
	return -1;
}

/* ---- Lines ---- */

static int field_lookup(const char *name)
{
	for (int f = 0; f < N_FIELDS; f++)
		if (strcmp(fields[f].name, name) == 0)
			return f;
	return -1;
}

static int append(char **dst, const char *text)
{
	size_t old = *dst ? strlen(*dst) : 0;
	size_t add = strlen(text);
	char *grown = realloc(*dst, old + add + 2);

	if (!grown)
		return -1;
	if (old)
		grown[old++] = ' ';
	memcpy(grown + old, text, add + 1);
	*dst = grown;
	return 0;
}

static int read_line(struct parser *p, struct block *b, char *line, int lineno)
{
	char *eq, *name, *value;
	int f;

	if (line[0] == '#') {
		if (strncmp(line, "# source:", 9) == 0) {
			char *text = trim(line + 9);

			free(p->source);
			p->source = strdup(text);
			if (!p->source)
				return fail(p, lineno, "out of memory");
		}
		return 0;
	}
	if (line[0] == ' ' || line[0] == '\t') {
		if (!b->open || b->last < 0 || !fields[b->last].hex)
			return fail(p, lineno, "indented line does not continue a hex field");
		if (append(&b->value[b->last], trim(line)) < 0)
			return fail(p, lineno, "out of memory");
		return 0;
	}
	eq = strchr(line, '=');
	if (!eq)
		return fail(p, lineno, "expected 'field = value'");
	*eq = '\0';
	name = trim(line);
	value = trim(eq + 1);
	f = field_lookup(name);
	if (f < 0)
		return fail(p, lineno, "unknown field '%s'", name);
	if (b->open && b->value[f])
		return fail(p, lineno, "'%s' given twice (first at line %d)", name,
		            b->value_line[f]);
	if (!b->open) {
		b->open = true;
		b->line = lineno;
		if (p->source && !(b->source = strdup(p->source)))
			return fail(p, lineno, "out of memory");
	}
	b->value[f] = strdup(value);
	if (!b->value[f])
		return fail(p, lineno, "out of memory");
	b->value_line[f] = lineno;
	b->last = f;
	return 0;
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			return false;
	return true;
}

int cb_vectors_load(const char *path, struct cb_vector_file *file, char *err, size_t err_len)
{
	struct parser p = {.path = path, .err = err, .err_len = err_len, .file = file};
	struct block b;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int lineno = 0, status = 0;
	FILE *in;

	memset(file, 0, sizeof *file);
	memset(&b, 0, sizeof b);
	b.last = -1;
	in = fopen(path, "r");
	if (!in) {
		cb_errorf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	file->path = strdup(path);
	if (!file->path) {
		cb_errorf(err, err_len, "%s: out of memory", path);
		fclose(in);
		return -1;
	}
	while (status == 0 && (got = getline(&line, &cap, in)) >= 0) {
		lineno++;
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		if (blank(line)) {
			if (b.open)
				status = finish_block(&p, &b);
			block_clear(&b);
		} else {
			status = read_line(&p, &b, line, lineno);
		}
	}
	if (status == 0 && ferror(in))
		status = fail(&p, lineno, "read error: %s", strerror(errno));
	if (status == 0 && b.open)
		status = finish_block(&p, &b);
	block_clear(&b);
	free(line);
	free(p.source);
	fclose(in);
	if (status != 0)
		cb_vectors_free(file);
	return status;
}

void cb_vectors_free(struct cb_vector_file *file)
{
	for (size_t i = 0; i < file->count; i++)
		vector_free(&file->vectors[i]);
	free(file->vectors);
	free(file->path);
	memset(file, 0, sizeof *file);
}

int cb_vector_has_aad(const struct cb_vector *v)
{
	return v->aad_len > 0;
}
