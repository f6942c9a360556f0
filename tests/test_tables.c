/* test_tables.c: every table is described once (analysis/report/table.h),
 * and its formats agree.
 *
 * For each table of report, compare, compare --baseline and compare across
 * hosts, first the description itself: its name is the one the command line
 * offers, its column names are unique, a column in one format and not the
 * other says why, a JSON column says where, a text column names columns the
 * table has (or, an ornament, says what it shows). Then its output on the
 * committed golden runs (tests/golden/runs, as tests/cli_golden.sh uses
 * them, and runs with profile lines, tests/explain), printed by the same functions `cryptobench
 * report` and `compare` call: the CSV header is the description's CSV columns; in every CSV row,
 * every field with a value has that value in the JSON, at the column's
 * path in the same row's object (numbers equal as doubles: CSV round-trips
 * them); and every key of every JSON row object belongs to a column (or to
 * an object column that holds it whole).
 *
 * How it fails, tried once each: a getter that disagrees with the JSON
 * built whole (cells' mb_per_s_median getting s->mbs.mean while the JSON's
 * mb_per_s summary says the median) fails "every CSV value is in the JSON";
 * dropping the WHY of the CSV-only column mib_per_s_median fails "a column
 * in one format says why"; a key set on a row object outside its
 * description (report_hosts.c adding one to each host's first cell) fails
 * "every JSON key has a column". A path with a typo is no failure here: the
 * renderer writes the value where the column says, and tests/cli_golden.sh
 * sees the JSON change. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/report.h"
#include "analysis/report/tables.h"
#include "analysis/verdicts/analysis.h"
#include "analysis/verdicts/hosts.h"
#include "core/results/results.h"
#include "tests/tap.h"

/* ---- The description ---- */

static bool is_column(const struct cb_table_def *def, const char *name)
{
	return cb_table_column(def, name) != NULL;
}

/* Every space-separated word of LIST that names a column: the rest of an
 * ornament's WHY is words. */
static bool names_column(const struct cb_table_def *def, const char *list)
{
	char word[64];

	while (list && *list) {
		size_t len = strcspn(list, " ,");

		snprintf(word, sizeof word, "%.*s", (int)len, list);
		if (is_column(def, word))
			return true;
		list += len;
		list += strspn(list, " ,");
	}
	return false;
}

static bool text_columns_ok(const struct cb_table_def *def, const struct cb_text_view *tv,
                            char *why, size_t len)
{
	for (size_t i = 0; i < tv->n_columns; i++) {
		const struct cb_text_column *tc = &tv->columns[i];
		char word[64];

		if (tc->text) {
			if (!tc->why || !names_column(def, tc->why)) {
				snprintf(why, len, "ornament '%s' names no column it shows",
				         tc->header);
				return false;
			}
			continue;
		}
		for (const char *p = tc->of; p && *p;) {
			size_t n = strcspn(p, " ");

			snprintf(word, sizeof word, "%.*s", (int)n, p);
			if (!is_column(def, word)) {
				snprintf(why, len, "text column '%s' shows '%s', no column",
				         tc->header, word);
				return false;
			}
			p += n;
			p += strspn(p, " ");
		}
		if (!tc->of) {
			snprintf(why, len, "text column '%s' shows nothing", tc->header);
			return false;
		}
	}
	return true;
}

static void check_description(const struct cb_table_def *def, const char *set, const char *name)
{
	char why[256] = "";
	bool unique = true, reasons = true, paths = true;

	is_str(def->name, name, "%s %s: the name the command line offers", set, name);
	for (size_t i = 0; i < def->n_columns; i++) {
		const struct cb_column *c = &def->columns[i];

		if (!cb_table_has(def, c))
			continue; /* the other unit's table's */
		for (size_t k = 0; k < i; k++)
			if (cb_table_has(def, &def->columns[k]) &&
			    strcmp(def->columns[k].name, c->name) == 0) {
				unique = false;
				snprintf(why, sizeof why, "'%s' twice", c->name);
			}
		if ((c->formats & CB_CSV_JSON) != CB_CSV_JSON && !c->why) {
			reasons = false;
			snprintf(why, sizeof why, "'%s' is in one format without a why", c->name);
		}
		if (((c->formats & CB_JSON) && !c->json && !c->json_at) ||
		    (c->type == CB_COL_OBJECT && (c->formats & CB_CSV))) {
			paths = false;
			snprintf(why, sizeof why, "'%s': JSON without a path, or an object in CSV",
			         c->name);
		}
	}
	ok(unique, "%s %s: column names are unique %s", set, name, unique ? "" : why);
	ok(reasons, "%s %s: a column in one format says why %s", set, name, reasons ? "" : why);
	ok(paths, "%s %s: every JSON column says where %s", set, name, paths ? "" : why);
	why[0] = '\0';
	ok(text_columns_ok(def, &def->text, why, sizeof why) &&
	       text_columns_ok(def, &def->text2, why, sizeof why),
	   "%s %s: text columns show the table's columns %s", set, name, why);
}

/* ---- CSV, read back ---- */

struct csv {
	char ***rows; /* rows[r][f], NULL-terminated fields */
	size_t n;
};

static void csv_free(struct csv *c)
{
	for (size_t r = 0; r < c->n; r++) {
		for (size_t f = 0; c->rows[r][f]; f++)
			free(c->rows[r][f]);
		free(c->rows[r]);
	}
	free(c->rows);
}

/* RFC 4180 with LF records (core/results/csv.h). */
static struct csv csv_parse(const char *s)
{
	struct csv c = {0};
	char *field = malloc(strlen(s) + 1);
	char **row = NULL;
	size_t nf = 0, len = 0;
	bool quoted = false;

	for (const char *p = s; *p; p++) {
		if (quoted) {
			if (*p == '"' && p[1] == '"')
				field[len++] = *p++;
			else if (*p == '"')
				quoted = false;
			else
				field[len++] = *p;
			continue;
		}
		if (*p == '"') {
			quoted = true;
		} else if (*p == ',' || *p == '\n') {
			char **grown = realloc(row, (nf + 2) * sizeof *row);

			if (!grown)
				break;
			row = grown;
			field[len] = '\0';
			row[nf++] = strdup(field);
			row[nf] = NULL;
			len = 0;
			if (*p == '\n') {
				char ***more = realloc(c.rows, (c.n + 1) * sizeof *c.rows);

				if (!more)
					break;
				c.rows = more;
				c.rows[c.n++] = row;
				row = NULL;
				nf = 0;
			}
		} else {
			field[len++] = *p;
		}
	}
	free(field);
	free(row);
	return c;
}

/* ---- JSON at a column's path ---- */

static json_t *at_path(json_t *o, const char *path, size_t sub)
{
	char key[64];

	while (o && *path) {
		size_t len = strcspn(path, ".");
		bool array = len > 2 && strncmp(path + len - 2, "[]", 2) == 0;

		snprintf(key, sizeof key, "%.*s", (int)(array ? len - 2 : len), path);
		o = json_object_get(o, key);
		if (array)
			o = json_array_get(o, sub);
		path += len + (path[len] == '.');
	}
	return o;
}

/* Whether FIELD, a CSV value of column C, is J. */
static bool same_value(const struct cb_column *c, const char *field, json_t *j)
{
	switch (c->type) {
	case CB_COL_TEXT:
		return json_is_string(j) && strcmp(json_string_value(j), field) == 0;
	case CB_COL_INT:
		return json_is_integer(j) && strtoll(field, NULL, 10) == json_integer_value(j);
	case CB_COL_NUM:
		return json_is_number(j) && strtod(field, NULL) == json_number_value(j);
	case CB_COL_BOOL:
		return json_is_boolean(j) && strcmp(field, json_is_true(j) ? "true" : "false") == 0;
	case CB_COL_OBJECT:
		return false;
	}
	return false;
}

/* Whether PATH (arrays as "[]") is a column's, or lies within an object
 * column's: *WHOLE says the latter. Row-dependent paths lie within object
 * columns (the summaries drift is judged on). */
static bool covered(const struct cb_table_def *def, const char *path, bool *whole)
{
	*whole = false;
	for (size_t i = 0; i < def->n_columns; i++) {
		const struct cb_column *c = &def->columns[i];

		if ((c->formats & CB_JSON) && c->json && cb_table_has(def, c) &&
		    strcmp(c->json, path) == 0) {
			*whole = c->type == CB_COL_OBJECT;
			return true;
		}
	}
	return false;
}

/* Whether every key of row object O (under PREFIX) belongs to a column;
 * the first that does not into BAD. */
static bool keys_covered(const struct cb_table_def *def, json_t *o, const char *prefix, char *bad,
                         size_t len)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v)
	{
		char path[256], arr[260];
		bool whole, known;

		snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", key);
		known = covered(def, path, &whole);
		if (whole || (known && !json_is_object(v) && !json_is_array(v)))
			continue;
		if (json_is_object(v)) {
			if (!keys_covered(def, v, path, bad, len))
				return false;
			continue;
		}
		if (json_is_array(v)) {
			size_t i;
			json_t *x;

			snprintf(arr, sizeof arr, "%s[]", path);
			json_array_foreach(v, i, x)
			{
				if (json_is_object(x) && !keys_covered(def, x, arr, bad, len))
					return false;
			}
			if (known || json_array_size(v) == 0 ||
			    json_is_object(json_array_get(v, 0)))
				continue;
		}
		snprintf(bad, len, "%s", path);
		return false;
	}
	return true;
}

/* ---- One table's output ---- */

/* The rows a table's printers walk: item and sub of each, in order. */
struct walked {
	const void *item[4096];
	size_t sub[4096], n;
};

static void walk(void *arg, const void *item, size_t sub)
{
	struct walked *w = arg;

	if (w->n < 4096) {
		w->item[w->n] = item;
		w->sub[w->n++] = sub;
	}
}

/* Where a source's rows are in the JSON (one array per source). */
struct source {
	const void *source;
	size_t run;
	json_t *rows; /* the JSON array of its row objects */
};

/* DEF's CSV output CSV_TEXT against its JSON rows of the N sources S. */
static void check_output(const struct cb_table_def *def, const char *set, const char *csv_text,
                         const struct source *s, size_t n, const struct cb_table_options *o)
{
	struct csv csv = csv_parse(csv_text);
	char want[4096] = "", got[4096] = "", bad[512] = "";
	size_t row = 1, used = 0, rows = 0;
	bool values = true, keys = true;

	for (size_t i = 0; i < def->n_columns; i++)
		if ((def->columns[i].formats & CB_CSV) && cb_table_has(def, &def->columns[i]))
			used += (size_t)snprintf(want + used, sizeof want - used, "%s%s",
			                         used ? "," : "", def->columns[i].name);
	used = 0;
	for (size_t f = 0; csv.n && csv.rows[0][f]; f++)
		used += (size_t)snprintf(got + used, sizeof got - used, "%s%s", f ? "," : "",
		                         csv.rows[0][f]);
	is_str(got, want, "%s %s: the CSV header is the description's CSV columns", set, def->name);
	for (size_t k = 0; k < n; k++) {
		struct walked w = {.n = 0};
		size_t item = 0;

		def->rows(s[k].source, walk, &w);
		for (size_t i = 0; i < w.n; i++, row++) {
			struct cb_row r = {def, s[k].source, s[k].run, w.item[i], w.sub[i], o};
			json_t *obj;
			size_t f = 0;

			if (i > 0 && w.item[i] != w.item[i - 1])
				item++;
			obj = json_array_get(s[k].rows, item);
			rows++;
			if (row >= csv.n) {
				values = false;
				snprintf(bad, sizeof bad, "CSV has fewer rows than the table");
				break;
			}
			for (size_t c = 0; c < def->n_columns && values; c++) {
				const struct cb_column *col = &def->columns[c];
				char buf[128];
				const char *path = cb_column_json(col, &r, buf);
				const char *field;
				json_t *j;

				if (!(col->formats & CB_CSV) || !cb_table_has(def, col))
					continue;
				field = csv.rows[row][f++];
				if (!field || !field[0] || !(col->formats & CB_JSON))
					continue;
				j = at_path(obj, path, w.sub[i]);
				if (!same_value(col, field, j)) {
					values = false;
					snprintf(bad, sizeof bad, "row %zu, %s = '%s', JSON %s: %s",
					         row, col->name, field, path,
					         j ? json_dumps(j, JSON_ENCODE_ANY) : "nothing");
				}
			}
		}
		for (size_t i = 0; keys && i < json_array_size(s[k].rows); i++)
			keys = keys_covered(def, json_array_get(s[k].rows, i), "", bad, sizeof bad);
	}
	ok(values && row == csv.n,
	   "%s %s: every CSV value is in the JSON, at its column's path "
	   "(%zu rows) %s",
	   set, def->name, rows, bad);
	ok(keys, "%s %s: every JSON key has a column %s", set, def->name, keys ? "" : bad);
	csv_free(&csv);
}

/* ---- The golden runs through report and compare ---- */

static char *printed(void (*print)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	print(f, arg);
	fclose(f);
	return buf;
}

struct report_args {
	struct cb_analysis **as;
	size_t n;
	struct cb_report_options o;
};

static void print_report_csv(FILE *f, const void *arg)
{
	const struct report_args *a = arg;

	cb_report_csv(f, a->as, a->n, &a->o);
}

struct compare_args {
	const struct cb_compare *c;
	const char *table;
	enum cb_report_format format;
};

static void print_compare(FILE *f, const void *arg)
{
	const struct compare_args *a = arg;

	cb_report_compare(f, a->c, a->format, a->table, false);
}

struct baseline_args {
	struct cb_baseline **bs;
	size_t n;
	enum cb_report_format format;
};

static void print_baseline(FILE *f, const void *arg)
{
	const struct baseline_args *a = arg;

	cb_report_baseline(f, a->bs, a->n, a->format);
}

struct hosts_args {
	const struct cb_hosts *h;
	enum cb_report_format format;
};

static void print_hosts(FILE *f, const void *arg)
{
	const struct hosts_args *a = arg;

	cb_report_hosts(f, a->h, a->format, false);
}

static json_t *parsed(char *text)
{
	json_t *j = json_loads(text, 0, NULL);

	free(text);
	return j;
}

static void check_report(struct cb_results *const *files, size_t n)
{
	struct report_args a = {.n = n};
	char err[512];
	json_t *all = json_array();

	cb_report_defaults(&a.o);
	a.as = calloc(n, sizeof *a.as);
	for (size_t i = 0; i < n; i++) {
		a.as[i] = cb_analysis_build(files[i], &a.o.summary, &a.o.derive, err, sizeof err);
		json_array_append_new(all, cb_report_run_json(a.as[i], &a.o));
	}
	for (size_t t = 0; cb_report_table_set[t]; t++) {
		const struct cb_table_def *def = cb_report_table_set[t];
		struct cb_table_options to = {.format = CB_FORMAT_CSV, .statistic = a.o.statistic};
		struct source s[8];

		check_description(def, "report", cb_report_tables[t]);
		/* A run without masks has no masks key: no rows. */
		for (size_t i = 0; i < n && i < 8; i++)
			s[i] = (struct source){a.as[i], i + 1,
			                       at_path(json_array_get(all, i), def->json_rows, 0)};
		a.o.format = CB_FORMAT_CSV;
		a.o.table = def->name;
		char *csv = printed(print_report_csv, &a);
		check_output(def, "report", csv, s, n, &to);
		free(csv);
	}
	json_decref(all);
	for (size_t i = 0; i < n; i++)
		cb_analysis_free(a.as[i]);
	free(a.as);
}

static void check_compare(struct cb_results *const *files, size_t n)
{
	struct cb_compare_options opt;
	struct cb_compare *c = NULL;
	char err[512];

	cb_compare_defaults(&opt);
	ok(cb_compare_build(files, n, &opt, &c, err, sizeof err) == 0,
	   "compare of the golden runs");
	if (!c)
		return;
	struct compare_args ja = {c, NULL, CB_FORMAT_JSON};
	json_t *j = parsed(printed(print_compare, &ja));

	for (size_t t = 0; cb_compare_table_set[t]; t++) {
		const struct cb_table_def *def = cb_compare_table_set[t];
		struct cb_table_options to = {.format = CB_FORMAT_CSV};
		struct compare_args ca = {c, def->name, CB_FORMAT_CSV};
		struct source s = {c, 1, at_path(j, def->json_rows, 0)};
		char *csv = printed(print_compare, &ca);

		check_description(def, "compare", cb_compare_tables[t]);
		check_output(def, "compare", csv, &s, 1, &to);
		free(csv);
	}
	json_decref(j);
	cb_compare_free(c);
}

static void check_baseline(struct cb_results *const *files, size_t n)
{
	struct cb_compare_options opt;
	struct cb_analysis **as = calloc(n, sizeof *as);
	struct baseline_args a = {.bs = calloc(n, sizeof *a.bs), .n = n - 1};
	struct cb_table_options to = {.format = CB_FORMAT_CSV};
	struct source s[8];
	char err[512];

	cb_compare_defaults(&opt);
	for (size_t i = 0; i < n; i++)
		as[i] = cb_analysis_build(files[i], &opt.summary, &opt.derive, err, sizeof err);
	for (size_t i = 1; i < n; i++)
		cb_baseline_build(as[0], as[i], &opt, &a.bs[i - 1], err, sizeof err);
	a.format = CB_FORMAT_JSON;
	json_t *j = parsed(printed(print_baseline, &a));
	for (size_t k = 0; k < a.n && k < 8; k++)
		s[k] = (struct source){
		    a.bs[k], k + 1, at_path(json_array_get(j, k), cb_table_baseline.json_rows, 0)};
	a.format = CB_FORMAT_CSV;
	char *csv = printed(print_baseline, &a);
	check_description(&cb_table_baseline, "baseline", cb_baseline_tables[0]);
	check_output(&cb_table_baseline, "baseline", csv, s, a.n, &to);
	free(csv);
	json_decref(j);
	for (size_t i = 0; i < a.n; i++)
		cb_baseline_free(a.bs[i]);
	for (size_t i = 0; i < n; i++)
		cb_analysis_free(as[i]);
	free(a.bs);
	free(as);
}

static void check_hosts(struct cb_results *const *files, size_t n)
{
	struct cb_hosts *h = NULL;
	struct cb_table_options to = {.format = CB_FORMAT_CSV};
	struct cb_hosts_view views[8];
	struct source s[8];
	char err[512];

	ok(cb_hosts_build(files, n, NULL, NULL, &h, err, sizeof err) == 0 && h && h->n == 2,
	   "the golden runs of two hosts grouped");
	if (!h)
		return;
	struct hosts_args a = {h, CB_FORMAT_JSON};
	json_t *j = parsed(printed(print_hosts, &a));
	for (size_t k = 0; k + 1 < h->n && k < 8; k++) {
		views[k] = (struct cb_hosts_view){h, &h->pairs[k]};
		s[k] = (struct source){&views[k], k + 1,
		                       at_path(json_array_get(j, k), cb_table_hosts.json_rows, 0)};
	}
	a.format = CB_FORMAT_CSV;
	char *csv = printed(print_hosts, &a);
	check_description(&cb_table_hosts, "hosts", cb_baseline_tables[0]);
	check_output(&cb_table_hosts, "hosts", csv, s, h->n - 1, &to);
	free(csv);
	json_decref(j);
	cb_hosts_free(h);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	struct cb_results *runs[3], *profiled;
	char path[1024], err[512];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/tests/golden/runs/run-%d.jsonl", top ? top : ".",
		         i + 1);
		runs[i] = cb_results_read(path, err, sizeof err);
		if (!runs[i]) {
			printf("Bail out! %s\n", err);
			return 1;
		}
	}
	/* A second host: run 2 again under another host name (as
	 * tests/cli_golden.sh makes it). */
	snprintf(path, sizeof path, "%s/tests/golden/runs/run-2.jsonl", top ? top : ".");
	runs[2] = cb_results_read(path, err, sizeof err);
	json_object_set_new(json_object_get(runs[2]->header, "host"), "hostname",
	                    json_string("vm2"));

	check_report(runs, 2);
	/* The tables of which code ran have rows only where a file has profile
	 * lines: the fixture of tests/test_attribution.c has. */
	snprintf(path, sizeof path, "%s/tests/explain/cross-runtime.jsonl", top ? top : ".");
	profiled = cb_results_read(path, err, sizeof err);
	ok(profiled != NULL, "the profiled fixture reads: %s", profiled ? path : err);
	if (profiled)
		check_report(&profiled, 1);
	cb_results_free(profiled);
	/* The masks' code columns have values only where a run has masks and
	 * profile lines: the fixture of tests/cli_mask_join.sh has both. */
	snprintf(path, sizeof path, "%s/tests/explain/masks.jsonl", top ? top : ".");
	profiled = cb_results_read(path, err, sizeof err);
	ok(profiled != NULL, "the fixture of masks with profiles reads: %s", profiled ? path : err);
	if (profiled)
		check_report(&profiled, 1);
	cb_results_free(profiled);
	check_compare(runs, 2);
	check_baseline(runs, 2);
	check_hosts(runs, 3);
	for (int i = 0; i < 3; i++)
		cb_results_free(runs[i]);
	return tap_done();
}
