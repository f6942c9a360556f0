/* report_csv.c: the report's CSV, one tidy table at a time, and the sets
 * of tables report and compare offer (report.h, tables.h). */
#include "analysis/report/report.h"

#include <string.h>

#include "analysis/report/tables.h"

#define TABLE_DEF(sym, name) &cb_table_##sym,
#define TABLE_NAME(sym, name) name,

const struct cb_table_def *const cb_report_table_set[] = {CB_REPORT_TABLE_LIST(TABLE_DEF) NULL};
const struct cb_table_def *const cb_compare_table_set[] = {CB_COMPARE_TABLE_LIST(TABLE_DEF) NULL};
const struct cb_table_def *const cb_baseline_table_set[] = {CB_BASELINE_TABLE_LIST(TABLE_DEF) NULL};

const char *const cb_report_tables[] = {CB_REPORT_TABLE_LIST(TABLE_NAME) NULL};
const char *const cb_compare_tables[] = {CB_COMPARE_TABLE_LIST(TABLE_NAME) NULL};
const char *const cb_baseline_tables[] = {CB_BASELINE_TABLE_LIST(TABLE_NAME) NULL};

int cb_report_table_index(const char *const *tables, const char *name)
{
	for (int i = 0; tables[i]; i++)
		if (strcmp(tables[i], name) == 0)
			return i;
	return -1;
}

const struct cb_table_def *cb_report_table_of(const struct cb_table_def *const *set,
                                              const char *name)
{
	int t = name ? cb_table_find(set, name) : 0;

	return set[t < 0 ? 0 : t];
}

static void count_row(void *arg, const void *item, size_t sub)
{
	(void)item;
	(void)sub;
	++*(size_t *)arg;
}

/* The rows DEF has over the N analyses AS. */
static size_t rows_of(const struct cb_table_def *def, struct cb_analysis *const *as, size_t n)
{
	size_t rows = 0;

	for (size_t i = 0; i < n; i++)
		def->rows(as[i], count_row, &rows);
	return rows;
}

/* The table of --table NAME; without one, the cells table of what the files
 * hold: the byte cells', or the public-key cells' when they hold only
 * those (an empty table of the other kind would say nothing). */
static const struct cb_table_def *csv_table(struct cb_analysis *const *as, size_t n,
                                            const char *name)
{
	if (!name && rows_of(&cb_table_cells, as, n) == 0 && rows_of(&cb_table_pk_cells, as, n) > 0)
		return &cb_table_pk_cells;
	return cb_report_table_of(cb_report_table_set, name);
}

void cb_report_csv(FILE *out, struct cb_analysis *const *as, size_t n,
                   const struct cb_report_options *o)
{
	const struct cb_table_def *def = csv_table(as, n, o->table);
	struct cb_table_options to = {
	    .format = o->format, .statistic = o->statistic, .details = o->details};

	cb_table_csv_header(out, def);
	for (size_t i = 0; i < n; i++)
		cb_table_csv_rows(out, def, as[i], i + 1, &to);
}
