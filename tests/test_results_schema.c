/* test_results_schema.c: doc/results-format.md describes the results file's
 * schema (core/results/results_schema.h) field by field.
 *
 * The keys of the document's trial table are read from its first column
 * (each name in backquotes) and held against the schema's trial fields, both
 * ways; the header table must name every header field. A field planted in
 * a copy of the schema, and a row taken out of the document, must each be
 * found, so the check itself can fail. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/results/results_schema.h"
#include "tests/tap.h"

#define MAX_KEYS 128

struct keys {
	char name[MAX_KEYS][64];
	size_t n;
};

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = malloc((size_t)size + 1)) != NULL) {
		size_t got = fread(text, 1, (size_t)size, f);

		text[got] = '\0';
	}
	fclose(f);
	return text;
}

/* The names in backquotes of the first cell of each row of the first table
 * after the heading that starts with HEADING (a table's header row and its
 * rule are no rows of keys). */
static void table_keys(const char *doc, const char *heading, struct keys *out)
{
	const char *p = strstr(doc, heading), *line;
	bool in_table = false;
	int row = 0;

	out->n = 0;
	if (!p)
		return;
	for (line = strchr(p, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		const char *start = line + 1, *end = strchr(start, '\n');
		const char *cell_end;

		if (start[0] == '#' && start[1] == '#')
			return; /* the next section */
		if (start[0] != '|') {
			if (in_table)
				return;
			continue;
		}
		in_table = true;
		if (row++ < 2)
			continue;
		cell_end = strchr(start + 1, '|');
		if (!cell_end || (end && cell_end > end))
			continue;
		for (const char *q = start + 1; q < cell_end && out->n < MAX_KEYS; q++) {
			const char *close;

			if (*q != '`' || !(close = memchr(q + 1, '`', (size_t)(cell_end - q - 1))))
				continue;
			snprintf(out->name[out->n++], sizeof out->name[0], "%.*s",
			         (int)(close - q - 1), q + 1);
			q = close;
		}
	}
}

static bool has(const struct keys *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->name[i], name) == 0)
			return true;
	return false;
}

/* How many of NAMES the document's KEYS lack; the first in MISSING. */
static size_t undocumented(const struct keys *names, const struct keys *doc, char missing[64])
{
	size_t n = 0;

	missing[0] = '\0';
	for (size_t i = 0; i < names->n; i++)
		if (!has(doc, names->name[i]) && n++ == 0)
			snprintf(missing, 64, "%s", names->name[i]);
	return n;
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[1024], missing[64];
	struct keys trial_doc, header_doc, trial_schema = {.n = 0}, header_schema = {.n = 0},
	                                   planted, cut;
	char *doc;
	size_t n;

	tap_plan(8);
	snprintf(path, sizeof path, "%s/%s", top ? top : ".", "doc/results-format.md");
	if (!(doc = read_all(path))) {
		printf("Bail out! cannot read %s\n", path);
		return 1;
	}
	for (size_t i = 0; i < cb_n_trial_fields; i++)
		snprintf(trial_schema.name[trial_schema.n++], 64, "%s", cb_trial_fields[i].key);
	for (size_t i = 0; i < cb_n_header_fields; i++)
		snprintf(header_schema.name[header_schema.n++], 64, "%s", cb_header_fields[i].key);
	table_keys(doc, "## A trial (", &trial_doc);
	table_keys(doc, "## The run header (", &header_doc);

	ok(trial_doc.n >= 20 && header_doc.n >= 15,
	   "the document's trial and header tables are found (%zu and %zu keys)", trial_doc.n,
	   header_doc.n);
	/* Each count is taken before its message, which names what it found. */
	n = undocumented(&trial_schema, &trial_doc, missing);
	ok(n == 0, "every trial field of the schema is in the document's trial table%s%s",
	   n ? ": not " : "", missing);
	n = undocumented(&trial_doc, &trial_schema, missing);
	ok(n == 0, "every key of the document's trial table is a field of the schema%s%s",
	   n ? ": not " : "", missing);
	n = undocumented(&header_schema, &header_doc, missing);
	ok(n == 0, "every header field of the schema is in the document's header table%s%s",
	   n ? ": not " : "", missing);

	/* The check can fail: a field added to the schema alone, a row taken
	 * out of the document. */
	planted = trial_schema;
	snprintf(planted.name[planted.n++], 64, "%s", "planted_field");
	ok(undocumented(&planted, &trial_doc, missing) == 1 &&
	       strcmp(missing, "planted_field") == 0,
	   "a trial field planted in the schema alone is found undocumented (%s)", missing);
	cut = trial_doc;
	for (size_t i = 0; i < cut.n; i++)
		if (strcmp(cut.name[i], "ns") == 0)
			snprintf(cut.name[i], 64, "%s", "(row taken out)");
	n = undocumented(&trial_schema, &cut, missing);
	ok(n == 1 && strcmp(missing, "ns") == 0,
	   "a row taken out of the document is found missing (%s)", missing);

	/* What the scanner can tell apart (results_scan.c: the bits of a word). */
	ok(cb_n_trial_fields <= 62, "the scanner can tell the %zu trial fields apart",
	   cb_n_trial_fields);
	{
		bool unique = true;

		for (size_t i = 0; i < cb_n_trial_fields; i++)
			for (size_t j = 0; j < i; j++)
				unique &=
				    strcmp(cb_trial_fields[i].key, cb_trial_fields[j].key) != 0;
		ok(unique, "no trial field is in the schema twice");
	}
	free(doc);
	return tap_done();
}
