/* table.c: one description, four printers (table.h). */
#include "analysis/report/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/results/csv.h"
#include "core/base/units.h"

const struct cb_column *cb_table_column(const struct cb_table_def *def, const char *name)
{
	for (size_t i = 0; i < def->n_columns; i++)
		if (cb_table_has(def, &def->columns[i]) && strcmp(def->columns[i].name, name) == 0)
			return &def->columns[i];
	return NULL;
}

const char *cb_column_json(const struct cb_column *c, const struct cb_row *r, char buf[128])
{
	return c->json_at ? c->json_at(r, buf) : c->json;
}

static void get_for(const struct cb_row *r, const struct cb_column *c, struct cb_value *v,
                    bool for_json)
{
	v->type = c->type;
	v->missing = false;
	v->for_json = for_json;
	v->s = NULL;
	v->i = 0;
	v->d = NAN;
	v->b = false;
	v->j = NULL;
	v->buf[0] = '\0';
	c->get(r, v);
}

static void get_value(const struct cb_row *r, const struct cb_column *c, struct cb_value *v)
{
	get_for(r, c, v, false);
}

void cb_row_value(const struct cb_row *r, const char *name, struct cb_value *v)
{
	const struct cb_column *c = cb_table_column(r->def, name);

	if (!c) { /* a description naming a column it lacks: tests/test_tables.c */
		v->type = CB_COL_TEXT;
		v->missing = true;
		return;
	}
	get_value(r, c, v);
}

double cb_row_num(const struct cb_row *r, const char *name)
{
	struct cb_value v;

	cb_row_value(r, name, &v);
	if (v.missing)
		return NAN;
	return v.type == CB_COL_INT ? (double)v.i : v.d;
}

int cb_table_find(const struct cb_table_def *const *set, const char *name)
{
	for (int i = 0; set[i]; i++)
		if (strcmp(set[i]->name, name) == 0)
			return i;
	return -1;
}

/* ---- The rows of a source ---- */

struct rows {
	struct cb_row *row;
	size_t n, cap;
	struct cb_row proto;
};

static void collect(void *arg, const void *item, size_t sub)
{
	struct rows *rs = arg;

	if (rs->n == rs->cap) {
		size_t more = rs->cap ? 2 * rs->cap : 32;
		struct cb_row *grown = realloc(rs->row, more * sizeof *grown);

		if (!grown)
			return;
		rs->row = grown;
		rs->cap = more;
	}
	rs->row[rs->n] = rs->proto;
	rs->row[rs->n].item = item;
	rs->row[rs->n].sub = sub;
	rs->n++;
}

static struct rows rows_of(const struct cb_table_def *def, const void *source, size_t run,
                           const struct cb_table_options *o)
{
	struct rows rs = {.proto = {.def = def, .source = source, .run = run, .o = o}};

	def->rows(source, collect, &rs);
	return rs;
}

/* ---- Text and Markdown ---- */

/* The I-th space-separated name of LIST into NAME. */
static const char *nth_name(const char *list, int i, char name[64])
{
	for (; list && *list; i--) {
		size_t len = strcspn(list, " ");

		if (i == 0) {
			snprintf(name, 64, "%.*s", (int)len, list);
			return name;
		}
		list += len;
		list += strspn(list, " ");
	}
	name[0] = '\0';
	return name;
}

static void show_value(const struct cb_value *v, enum cb_show show, char *buf, size_t len)
{
	char x[32];

	if (v->missing) {
		snprintf(buf, len, "-");
		return;
	}
	switch (v->type) {
	case CB_COL_TEXT:
		snprintf(buf, len, "%s", v->s ? v->s : "-");
		return;
	case CB_COL_INT:
		if (show == CB_SHOW_SIZE)
			snprintf(buf, len, "%s", cb_format_size((size_t)v->i, x));
		else
			snprintf(buf, len, "%lld", v->i);
		return;
	case CB_COL_BOOL:
		snprintf(buf, len, "%s", v->b ? "yes" : "no");
		return;
	case CB_COL_NUM:
		snprintf(buf, len, "%s",
		         show == CB_SHOW_PCT ? cb_fmt_pct(v->d, x)
		         : show == CB_SHOW_P ? cb_fmt_p(v->d, x)
		                             : cb_fmt_num(v->d, x));
		return;
	case CB_COL_OBJECT:
		snprintf(buf, len, "-");
		return;
	}
}

static void text_of(const struct cb_row *r, const struct cb_text_column *tc, char *buf, size_t len)
{
	char name[64], tmp[96];
	double x[3];

	if (tc->text) {
		tc->text(r, buf, len);
		return;
	}
	if (tc->show < CB_SHOW_INTERVAL) {
		struct cb_value v;

		cb_row_value(r, nth_name(tc->of, 0, name), &v);
		show_value(&v, tc->show, buf, len);
		return;
	}
	for (int i = 0; i < 3; i++)
		x[i] = cb_row_num(r, nth_name(tc->of, i, name));
	if (tc->show == CB_SHOW_INTERVAL)
		cb_fmt_interval(x[0], x[1], tmp);
	else if (tc->show == CB_SHOW_ESTIMATE)
		cb_fmt_estimate(x[0], x[1], x[2], tmp);
	else
		cb_fmt_change(x[0], x[1], x[2], tmp);
	snprintf(buf, len, "%s", tmp);
}

static bool column_shows(const struct cb_text_column *tc, unsigned conds)
{
	return (tc->when & ~conds) == 0 && (tc->unless & conds) == 0;
}

struct cb_table *cb_table_text(const struct cb_table_def *def, int view, const void *source,
                               const struct cb_table_options *o)
{
	const struct cb_text_view *tv = view ? &def->text2 : &def->text;
	unsigned conds = (o->details ? CB_IF_DETAILS : 0) |
	                 (o->format == CB_FORMAT_MARKDOWN ? CB_IF_MARKDOWN : 0) |
	                 (def->conditions ? def->conditions(source, o) : 0);
	size_t subs = def->subs ? def->subs(source) : 1, n = 0;
	const char **h = calloc(tv->n_columns * subs + 1, sizeof *h);
	char *align = calloc(tv->n_columns * subs + 1, 1);
	char(*names)[48] = calloc(tv->n_columns * subs + 1, sizeof *names);
	struct cb_table *t = NULL;
	struct rows rs = {0};
	char buf[1024];

	if (!h || !align || !names)
		goto done;
	for (size_t c = 0; c < tv->n_columns; c++) {
		const struct cb_text_column *tc = &tv->columns[c];

		if (!column_shows(tc, conds))
			continue;
		for (size_t s = 0; s < (tc->per_sub ? subs : 1); s++, n++) {
			if (tc->per_sub)
				snprintf(names[n], sizeof names[n], tc->header, s + 1);
			else
				snprintf(names[n], sizeof names[n], "%s", tc->header);
			h[n] = names[n];
			align[n] = tc->align == 'r' ? 'r' : 'l';
		}
	}
	if (!(t = cb_table_new(h, n, align)))
		goto done;
	cb_table_name(t, def->name);
	rs = rows_of(def, source, 0, o);
	for (size_t i = 0; i < rs.n; i++) {
		const struct cb_row *r = &rs.row[i];

		if (tv->per_item && i > 0 && rs.row[i - 1].item == r->item)
			continue;
		if (tv->skip && tv->skip(r))
			continue;
		for (size_t c = 0; c < tv->n_columns; c++) {
			const struct cb_text_column *tc = &tv->columns[c];

			if (!column_shows(tc, conds))
				continue;
			for (size_t s = 0; s < (tc->per_sub ? subs : 1); s++) {
				struct cb_row one = *r;

				if (tc->per_sub)
					one.sub = s;
				text_of(&one, tc, buf, sizeof buf);
				cb_table_cell(t, "%s", buf);
			}
		}
	}
done:
	free(rs.row);
	free(h);
	free(align);
	free(names);
	return t;
}

/* ---- CSV ---- */

void cb_table_csv_header(FILE *out, const struct cb_table_def *def)
{
	struct cb_csv w;

	cb_csv_init(&w, out);
	for (size_t i = 0; i < def->n_columns; i++)
		if ((def->columns[i].formats & CB_CSV) && cb_table_has(def, &def->columns[i]))
			cb_csv_text(&w, def->columns[i].name);
	cb_csv_end(&w);
}

static void csv_value(struct cb_csv *w, const struct cb_value *v)
{
	if (v->missing) {
		cb_csv_empty(w);
		return;
	}
	switch (v->type) {
	case CB_COL_TEXT:
		cb_csv_text(w, v->s);
		break;
	case CB_COL_INT:
		cb_csv_integer(w, v->i);
		break;
	case CB_COL_NUM:
		cb_csv_number(w, v->d);
		break;
	case CB_COL_BOOL:
		cb_csv_bool(w, v->b);
		break;
	case CB_COL_OBJECT:
		json_decref(v->j);
		cb_csv_empty(w);
		break;
	}
}

void cb_table_csv_rows(FILE *out, const struct cb_table_def *def, const void *source, size_t run,
                       const struct cb_table_options *o)
{
	struct rows rs = rows_of(def, source, run, o);
	struct cb_csv w;
	struct cb_value v;

	cb_csv_init(&w, out);
	for (size_t i = 0; i < rs.n; i++) {
		for (size_t c = 0; c < def->n_columns; c++) {
			if (!(def->columns[c].formats & CB_CSV) ||
			    !cb_table_has(def, &def->columns[c]))
				continue;
			get_value(&rs.row[i], &def->columns[c], &v);
			csv_value(&w, &v);
		}
		cb_csv_end(&w);
	}
	free(rs.row);
}

/* ---- JSON ---- */

static json_t *json_of(struct cb_value *v)
{
	switch (v->type) {
	case CB_COL_TEXT:
		return v->s ? json_string(v->s) : json_null();
	case CB_COL_INT:
		return json_integer((json_int_t)v->i);
	case CB_COL_NUM:
		return isfinite(v->d) ? json_real(v->d) : json_null();
	case CB_COL_BOOL:
		return json_boolean(v->b);
	case CB_COL_OBJECT:
		return v->j;
	}
	return NULL;
}

/* A key of PARENT to step into: an object or array there (made in place of
 * nothing or of the order's placeholder HOLD), or NULL when something else
 * holds it. */
static json_t *child(json_t *parent, const char *key, bool array, json_t *hold)
{
	json_t *c = json_object_get(parent, key);

	if (!c || c == hold) {
		c = array ? json_array() : json_object();
		json_object_set_new(parent, key, c);
	}
	return (array ? json_is_array(c) : json_is_object(c)) ? c : NULL;
}

/* Set VALUE (taken) at PATH in OBJ, SUB the index of its "[]" steps,
 * unless a value is there already. */
static void set_path(json_t *obj, const char *path, size_t sub, json_t *value, json_t *hold)
{
	char key[64];

	while (obj && value) {
		size_t len = strcspn(path, ".");
		bool array = len > 2 && strncmp(path + len - 2, "[]", 2) == 0;
		bool last = path[len] == '\0';

		snprintf(key, sizeof key, "%.*s", (int)(array ? len - 2 : len), path);
		if (array) {
			json_t *a = child(obj, key, true, hold);

			while (a && json_array_size(a) <= sub)
				json_array_append_new(a, last ? json_null() : json_object());
			obj = a ? json_array_get(a, sub) : NULL;
			if (last && a && json_is_null(obj)) {
				json_array_set(a, sub, value);
				break;
			}
		} else if (last) {
			json_t *there = json_object_get(obj, key);

			if (!there || there == hold) {
				json_object_set(obj, key, value);
				break;
			}
			obj = NULL;
		} else {
			obj = child(obj, key, false, hold);
		}
		if (last)
			obj = NULL;
		path += len + (path[len] == '.');
	}
	json_decref(value);
}

/* An object column at the top of the row's object: laid before the
 * columns whose paths lead into it. */
static bool whole(const struct cb_column *c, const char *path)
{
	return c->type == CB_COL_OBJECT && !strpbrk(path, ".[");
}

/* The object of one item: the rows ROW[0..N) fill it. */
static json_t *item_json(const struct cb_table_def *def, const struct cb_row *row, size_t n)
{
	json_t *o = json_object(), *hold = json_object();
	char name[64];
	const char *key;
	json_t *v;
	void *tmp;
	struct cb_value value;

	for (int i = 0; *nth_name(def->json_order, i, name); i++)
		json_object_set(o, name, hold);
	for (int pass = 0; pass < 2; pass++)
		for (size_t r = 0; r < n; r++)
			for (size_t c = 0; c < def->n_columns; c++) {
				const struct cb_column *col = &def->columns[c];
				char buf[128];
				const char *path = cb_column_json(col, &row[r], buf);

				if (!(col->formats & CB_JSON) || !path || !cb_table_has(def, col) ||
				    whole(col, path) != (pass == 0))
					continue;
				get_for(&row[r], col, &value, true);
				if (!value.missing)
					set_path(o, path, row[r].sub, json_of(&value), hold);
			}
	json_object_foreach_safe(o, tmp, key, v)
	{
		if (v == hold)
			json_object_del(o, key);
	}
	json_decref(hold);
	return o;
}

json_t *cb_table_json(const struct cb_table_def *def, const void *source, size_t run,
                      const struct cb_table_options *o)
{
	struct rows rs = rows_of(def, source, run, o);
	json_t *all = json_array();

	for (size_t i = 0, next; i < rs.n; i = next) {
		for (next = i + 1; next < rs.n && rs.row[next].item == rs.row[i].item; next++)
			;
		json_array_append_new(all, item_json(def, &rs.row[i], next - i));
	}
	free(rs.row);
	return all;
}
