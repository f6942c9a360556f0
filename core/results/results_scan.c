/* results_scan.c: a trial line's fields without jansson (results_scan.h says
 * which lines it answers for; every other line is jansson's). */
#include "core/results/results_scan.h"

#include "core/results/results_schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OTHER_KEYS 32 /* keys the reader does not keep, per object */
#define MAX_INT_DIGITS 18 /* always within a 64-bit integer */
#define MAX_REAL_CHARS 64

enum kind { ABSENT, STRING, INTEGER, REAL, TRUE, FALSE, NUL, ARRAY, OBJECT };

struct value {
	enum kind kind;
	struct cb_scan_string s;
	int64_t i;
	double d;
};

struct scanner {
	const char *p, *end;
};

static void skip_space(struct scanner *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static bool take(struct scanner *s, char c)
{
	skip_space(s);
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return true;
	}
	return false;
}

/* Bytes a plain string holds: printable ASCII but the quote and backslash
 * (a table: the digests of a line are most of its bytes). */
static const bool plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static bool plain_byte(unsigned char c)
{
	return plain[c];
}

/* A string of printable ASCII without escapes. */
static int scan_string(struct scanner *s, struct cb_scan_string *out)
{
	const char *p, *start;

	if (!take(s, '"'))
		return -1;
	start = p = s->p;
	while (p < s->end && plain_byte((unsigned char)*p))
		p++;
	if (p == s->end || *p != '"')
		return -1;
	out->p = start;
	out->len = (size_t)(p - start);
	s->p = p + 1;
	return 0;
}

static bool digit(const struct scanner *s, const char *p)
{
	return p < s->end && *p >= '0' && *p <= '9';
}

/* A number by JSON's grammar: an integer of at most MAX_INT_DIGITS digits, or
 * a real that strtod reads whole without a range error. */
static int scan_number(struct scanner *s, struct value *v)
{
	const char *start = s->p, *p = s->p;
	bool real = false;
	size_t digits = 0;

	if (p < s->end && *p == '-')
		p++;
	if (!digit(s, p))
		return -1;
	if (*p == '0' && digit(s, p + 1))
		return -1; /* a leading zero */
	for (; digit(s, p); p++)
		digits++;
	if (p < s->end && *p == '.') {
		real = true;
		if (!digit(s, ++p))
			return -1;
		while (digit(s, p))
			p++;
	}
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		real = true;
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			p++;
		if (!digit(s, p))
			return -1;
		while (digit(s, p))
			p++;
	}
	s->p = p;
	if (!real) {
		int64_t i = 0;

		if (digits > MAX_INT_DIGITS)
			return -1;
		for (const char *q = *start == '-' ? start + 1 : start; q < p; q++)
			i = i * 10 + (*q - '0');
		v->kind = INTEGER;
		v->i = *start == '-' ? -i : i;
		return 0;
	}
	char text[MAX_REAL_CHARS + 1], *stop;
	size_t len = (size_t)(p - start);

	if (len > MAX_REAL_CHARS)
		return -1;
	memcpy(text, start, len);
	text[len] = '\0';
	errno = 0;
	v->d = strtod(text, &stop);
	if (errno != 0 || stop != text + len)
		return -1;
	v->kind = REAL;
	return 0;
}

static int scan_literal(struct scanner *s, const char *word, enum kind kind, struct value *v)
{
	size_t len = strlen(word);

	if ((size_t)(s->end - s->p) < len || memcmp(s->p, word, len) != 0)
		return -1;
	s->p += len;
	v->kind = kind;
	return 0;
}

/* A scalar value; an array or object is only opened (V->kind says which). */
static int scan_value(struct scanner *s, struct value *v)
{
	skip_space(s);
	if (s->p == s->end)
		return -1;
	switch (*s->p) {
	case '"':
		v->kind = STRING;
		return scan_string(s, &v->s);
	case 't':
		return scan_literal(s, "true", TRUE, v);
	case 'f':
		return scan_literal(s, "false", FALSE, v);
	case 'n':
		return scan_literal(s, "null", NUL, v);
	case '[':
		s->p++;
		v->kind = ARRAY;
		return 0;
	case '{':
		s->p++;
		v->kind = OBJECT;
		return 0;
	default:
		return scan_number(s, v);
	}
}

static bool is_number(const struct value *v)
{
	return v->kind == INTEGER || v->kind == REAL;
}

static double number(const struct value *v)
{
	return v->kind == INTEGER ? (double)v->i : v->d;
}

/* The rest of an array just opened, of scalars only: numbers go to OUT (up
 * to MAX; NULL: none kept) and their count to *N. -1 for anything else. */
static int scan_array(struct scanner *s, double *out, size_t max, uint32_t *n)
{
	struct value v;

	*n = 0;
	if (take(s, ']'))
		return 0;
	do {
		if (scan_value(s, &v) != 0 || v.kind == ARRAY || v.kind == OBJECT)
			return -1;
		if (out) {
			if (!is_number(&v) || *n == max)
				return -1;
			out[*n] = number(&v);
		}
		(*n)++;
	} while (take(s, ','));
	return take(s, ']') ? 0 : -1;
}

/* The keys of one object: known ones by index (each once), the others
 * remembered to refuse a second of them, as JSON_REJECT_DUPLICATES does.
 * The names are N_NAMES strings STRIDE bytes apart (a list of names, or the
 * key member of a table's entries), and EXTRA one more after them. */
struct keys {
	const char *const *names;
	size_t stride, n_names;
	const char *extra;
	uint64_t seen;
	struct cb_scan_string other[MAX_OTHER_KEYS];
	size_t n_other;
};

static const char *key_name(const struct keys *keys, size_t i)
{
	if (i == keys->n_names)
		return keys->extra;
	return *(const char *const *)((const char *)keys->names + i * keys->stride);
}

/* The index of key K among KEYS' names (EXTRA: N_NAMES), N_NAMES + 1 for
 * another key; -1 for a key given twice. */
static int key_index(struct keys *keys, const struct cb_scan_string *k)
{
	size_t n = keys->n_names + (keys->extra != NULL);

	for (size_t i = 0; i < n; i++) {
		const char *name = key_name(keys, i);

		if (name[0] == k->p[0] && strncmp(name, k->p, k->len) == 0 &&
		    name[k->len] == '\0') {
			if (keys->seen & (UINT64_C(1) << i))
				return -1;
			keys->seen |= UINT64_C(1) << i;
			return (int)i;
		}
	}
	for (size_t i = 0; i < keys->n_other; i++)
		if (keys->other[i].len == k->len && memcmp(keys->other[i].p, k->p, k->len) == 0)
			return -1;
	if (keys->n_other == MAX_OTHER_KEYS)
		return -1;
	keys->other[keys->n_other++] = *k;
	return (int)keys->n_names + 1;
}

enum cell_key { C_ENGINE, C_LABEL, C_ALGORITHM, C_OP, C_MODE, C_SIZE, C_THREADS, N_CELL_KEYS };
static const char *const cell_keys[N_CELL_KEYS] = {"engine", "label", "algorithm", "op",
                                                   "mode",   "size",  "threads"};

/* The rest of the cell object, just opened. */
static int scan_cell(struct scanner *s, struct cb_trial_scan *t)
{
	struct keys keys = {
	    .names = cell_keys, .stride = sizeof cell_keys[0], .n_names = N_CELL_KEYS};
	struct value v[N_CELL_KEYS] = {{0}}, other;
	struct cb_scan_string *names[] = {&t->engine, &t->label, &t->algorithm, &t->op};

	if (!take(s, '}')) {
		do {
			struct cb_scan_string k;
			int i;

			if (scan_string(s, &k) != 0 || !take(s, ':') ||
			    (i = key_index(&keys, &k)) < 0)
				return -1;
			if (scan_value(s, i < N_CELL_KEYS ? &v[i] : &other) != 0)
				return -1;
			if ((i < N_CELL_KEYS ? &v[i] : &other)->kind == ARRAY ||
			    (i < N_CELL_KEYS ? &v[i] : &other)->kind == OBJECT)
				return -1;
		} while (take(s, ','));
		if (!take(s, '}'))
			return -1;
	}
	for (int i = C_ENGINE; i <= C_OP; i++) {
		if (v[i].kind != STRING)
			return -1;
		*names[i] = v[i].s;
	}
	if (v[C_MODE].kind != ABSENT && v[C_MODE].kind != STRING)
		return -1;
	t->mode = v[C_MODE].s;
	if (v[C_SIZE].kind != INTEGER || v[C_SIZE].i < 0 || v[C_SIZE].i > (INT64_C(1) << 48))
		return -1;
	t->size = (uint64_t)v[C_SIZE].i;
	t->threads = 1;
	/* The reader reads an absent threads as the size's value: size 0 and no
	 * threads is its error to tell. */
	if (v[C_THREADS].kind == ABSENT && t->size == 0)
		return -1;
	if (v[C_THREADS].kind != ABSENT) {
		if (v[C_THREADS].kind != INTEGER || v[C_THREADS].i < 1 || v[C_THREADS].i > 65536)
			return -1;
		t->threads = (unsigned)v[C_THREADS].i;
	}
	return 0;
}

enum layout_key { L_STACK, N_LAYOUT_KEYS };
static const char *const layout_keys[N_LAYOUT_KEYS] = {"stack"};

/* The rest of the layout object, just opened: its stack, or -1. Nested
 * values and keys given twice are jansson's to take or refuse. */
static int scan_layout(struct scanner *s, struct cb_trial_scan *t)
{
	struct keys keys = {
	    .names = layout_keys, .stride = sizeof layout_keys[0], .n_names = N_LAYOUT_KEYS};
	struct value v[N_LAYOUT_KEYS] = {{0}}, other = {0};

	if (!take(s, '}')) {
		do {
			struct cb_scan_string k;
			struct value *x;
			int i;

			if (scan_string(s, &k) != 0 || !take(s, ':') ||
			    (i = key_index(&keys, &k)) < 0)
				return -1;
			x = i < N_LAYOUT_KEYS ? &v[i] : &other;
			if (scan_value(s, x) != 0 || x->kind == ARRAY || x->kind == OBJECT)
				return -1;
		} while (take(s, ','));
		if (!take(s, '}'))
			return -1;
	}
	t->trial.layout_stack =
	    v[L_STACK].kind == INTEGER && v[L_STACK].i >= 0 && v[L_STACK].i < 4096
	        ? (int16_t)v[L_STACK].i
	        : -1;
	return 0;
}

/* The trial line's keys are the schema's (results_schema.h), and "type". */
#define MAX_TRIAL_KEYS 62 /* the bits of struct keys' seen, less "type" and others */

/* A whole number from 0 to MAX, or 0 when absent and not REQUIRED. */
static int whole(const struct value *v, bool required, uint64_t max, uint64_t *out)
{
	if (v->kind == ABSENT && !required) {
		*out = 0;
		return 0;
	}
	if (v->kind != INTEGER || v->i < 0 || (uint64_t)v->i > max)
		return -1;
	*out = (uint64_t)v->i;
	return 0;
}

/* A time: a number of at least 0, or -1 when absent or null. */
static int time_of(const struct value *v, double *out)
{
	*out = -1;
	if (v->kind == ABSENT || v->kind == NUL)
		return 0;
	if (!is_number(v) || number(v) < 0)
		return -1;
	*out = number(v);
	return 0;
}

/* The values of the schema's fields (V, one per field) into T, as the
 * reader keeps them. -1 for what cb_results_add_trial would refuse. */
static int take_fields(const struct value *v, struct cb_trial_scan *t)
{
	for (size_t i = 0; i < cb_n_trial_fields; i++) {
		const struct cb_trial_field *f = &cb_trial_fields[i];
		const struct value *x = &v[i];
		char *at = (char *)&t->trial + f->at;
		uint64_t n;
		double d;

		switch (f->keep) {
		case CB_KEEP_BYTES:
			t->has_bytes = x->kind != ABSENT;
			/* fall through */
		case CB_KEEP_COUNT:
			if (whole(x, f->required, f->max, &n) != 0)
				return -1;
			cb_trial_field_store(f, &t->trial, n);
			break;
		case CB_KEEP_OPS:
			if (whole(x, false, f->max, &t->ops) != 0)
				return -1;
			t->has_ops = x->kind != ABSENT;
			break;
		case CB_KEEP_TIME:
			if (time_of(x, &d) != 0)
				return -1;
			memcpy(at, &d, sizeof d);
			break;
		case CB_KEEP_VALID:
			if (x->kind != TRUE && x->kind != FALSE)
				return -1;
			t->trial.valid = x->kind == TRUE;
			break;
		case CB_KEEP_FLAG:
			*(bool *)at = x->kind == TRUE;
			break;
		case CB_KEEP_TRISTATE:
			*(int8_t *)at = x->kind == TRUE ? 1 : x->kind == FALSE ? 0 : -1;
			break;
		case CB_KEEP_CELL:
			if (x->kind != OBJECT)
				return -1;
			break;
		case CB_KEEP_CLOCK:
			if (x->kind == STRING)
				t->clock = x->s;
			break;
		case CB_KEEP_ERROR:
			if (x->kind == STRING)
				t->error = x->s;
			break;
		case CB_KEEP_TIMES:
			if (x->kind != ARRAY)
				t->n_thread_ns = 0;
			break;
		case CB_KEEP_LAYOUT: /* scan_layout took it */
		case CB_KEEP_NOTHING:
			break;
		}
	}
	return t->trial.valid && !(t->trial.ns > 0) ? -1 : 0;
}

int cb_trial_scan(const char *line, size_t len, struct cb_trial_scan *t)
{
	struct scanner s = {line, line + len};
	const size_t n = cb_n_trial_fields;
	struct keys keys = {.names = &cb_trial_fields[0].key,
	                    .stride = sizeof cb_trial_fields[0],
	                    .n_names = n,
	                    .extra = "type"};
	struct value v[MAX_TRIAL_KEYS + 2] = {{0}}; /* the fields, "type", another key */
	const struct value *type = &v[n];

	memset(t, 0, offsetof(struct cb_trial_scan, thread_ns));
	t->trial.layout_stack = -1;
	t->n_thread_ns = 0;
	if (n > MAX_TRIAL_KEYS || !take(&s, '{'))
		return 0;
	do {
		struct cb_scan_string k;
		enum cb_field_keep keep;
		struct value *x;
		int i;

		if (scan_string(&s, &k) != 0 || !take(&s, ':') || (i = key_index(&keys, &k)) < 0)
			return 0;
		x = &v[i];
		keep = (size_t)i < n ? cb_trial_fields[i].keep : CB_KEEP_NOTHING;
		if (scan_value(&s, x) != 0)
			return 0;
		if (x->kind == OBJECT) {
			if (keep == CB_KEEP_LAYOUT) {
				if (scan_layout(&s, t) != 0)
					return 0;
				continue;
			}
			if (keep != CB_KEEP_CELL || scan_cell(&s, t) != 0)
				return 0;
		} else if (x->kind == ARRAY) {
			bool times = keep == CB_KEEP_TIMES;

			if (scan_array(&s, times ? t->thread_ns : NULL, CB_SCAN_MAX_THREADS,
			               times ? &t->n_thread_ns : &(uint32_t){0}) != 0)
				return 0;
		}
	} while (take(&s, ','));
	if (!take(&s, '}'))
		return 0;
	skip_space(&s);
	if (s.p != s.end)
		return 0;
	/* What cb_results_add_trial would refuse is left for it to say. */
	if (type->kind != STRING || type->s.len != 5 || memcmp(type->s.p, "trial", 5))
		return 0;
	return take_fields(v, t) == 0;
}
