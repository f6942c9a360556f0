/* table.h: a table described once, printed four ways.
 *
 * A table is one `const struct cb_table_def`: its name (`--table NAME`), what
 * a row is, where its rows come from, its columns and its text layout. From
 * that description come the text and Markdown tables (format.h), the CSV
 * table (core/results/csv.h: one header line, one record per row) and the JSON array
 * of its rows. Nothing else lists a table's columns.
 *
 * A column (struct cb_column) is one figure of a row: its CSV name, its
 * type, its unit, the function that gets its value from the row, the
 * formats that carry it (CSV, JSON) and, for JSON, where in the row's object
 * the value lives: a path of keys ("mb_per_s.median_ci.lo"), where "[]"
 * steps into the array element of the row's sub index ("runs[].value": the
 * run of a comparison's row). A column that is not in both formats says why
 * (WHY): the test tests/test_tables.c holds every table's CSV header against
 * its JSON rows, and fails on a column that is in one and not the other
 * without a reason.
 *
 * A text column (struct cb_text_column) is a view of the columns: it names
 * the column(s) it shows (OF) and how (SHOW: the value, a size, a
 * percentage, an estimate with its interval...), or it is an ornament: a
 * function that composes the cell's text, with WHY saying which columns it
 * shows. A text column shows when the table's conditions hold (WHEN, UNLESS:
 * --details, Markdown, several thread counts...). A table may have a second
 * text view (the cells' spread with --details).
 *
 * JSON: the rows of one source (a run's analysis, a comparison) make one
 * array, one object per item: the rows one item emits (a comparison's cell
 * in each run, a mask's cells) fill one object, "[]" paths indexing by the
 * row's sub index. Object-valued columns at the top of the row's object
 * (CB_COL_OBJECT: a summary with its methods, built whole) are laid first;
 * the other columns then fill their paths in column order, never replacing
 * a value already there. JSON_ORDER, when given, fixes
 * the order of the object's top-level keys (keys no row fills are left
 * out); otherwise keys come in column order. A missing value (CB_VALUE
 * missing) leaves its key out, a NaN number is null. */
#ifndef CB_TABLE_H
#define CB_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/report/format.h"
#include "analysis/stats/summary.h"

enum cb_column_type {
	CB_COL_TEXT,   /* a string */
	CB_COL_INT,    /* a count, a size in bytes, an index */
	CB_COL_NUM,    /* a real number: CSV round-trips it, JSON null for NaN */
	CB_COL_BOOL,   /* CSV true/false */
	CB_COL_OBJECT, /* JSON only: a group of figures built whole (json_t) */
};

/* A column's value for one row, as its getter sets it. The getter finds
 * TYPE and FOR_JSON set and MISSING false; it sets the field of the type, or MISSING
 * (CSV empty, JSON key left out, text "-"). Text may point into BUF. An
 * object is a new reference, which the table takes. */
struct cb_value {
	enum cb_column_type type;
	bool missing;
	/* Set when the value goes to JSON: a figure JSON keeps only in some
	 * rows (a derived metric's level, only where it has a ratio) says
	 * MISSING there. */
	bool for_json;
	const char *s;
	long long i;
	double d;
	bool b;
	json_t *j;
	char buf[1024];
};

/* What the printers are asked for: the report's and compare's options that
 * change a row's figures or the text's columns. */
struct cb_table_options {
	enum cb_report_format format;
	enum cb_statistic statistic; /* report: the headline */
	bool details;                /* text: --details */
};

struct cb_table_def;

/* One row: ITEM, the row's object; SUB, its place within ITEM when ITEM
 * makes several rows (a run of a comparison's row); SOURCE, what the table's
 * rows come from (an analysis, a comparison, ...), and RUN its place among
 * those printed, from 1 (the CSV's run column). */
struct cb_row {
	const struct cb_table_def *def;
	const void *source;
	size_t run;
	const void *item;
	size_t sub;
	const struct cb_table_options *o;
};

/* What the cells of a table count (cb_table_def's `unit`): bytes (rates in
 * MB/s) or public-key operations (operations per second). */
enum cb_table_unit { CB_UNIT_BYTES, CB_UNIT_OPS };

/* Formats a column is in. */
#define CB_CSV 1u
#define CB_JSON 2u
#define CB_CSV_JSON (CB_CSV | CB_JSON)
/* And, beside them in `formats`, the tables of which unit it is in, so
 * that a table of bytes and one of operations share one description:
 * neither bit (the default), the bytes' table (every table but the
 * public-key ones); CB_IN_OPS the operations' only; CB_IN_BOTH both. */
#define CB_IN_BYTES 0u
#define CB_IN_OPS 4u
#define CB_IN_BOTH 8u

struct cb_column {
	const char *name; /* the CSV column */
	enum cb_column_type type;
	const char *unit; /* "MB/s", "ns", "bytes", ...; NULL: none (a count, a word) */
	void (*get)(const struct cb_row *r, struct cb_value *v);
	unsigned formats; /* CB_CSV, CB_JSON; CB_IN_OPS or CB_IN_BOTH */
	const char *json; /* with CB_JSON: the path in the row's object */
	const char *why;  /* why the column is not in both formats */
	/* A path that depends on the row (drift is judged on cycles or on
	 * time): it overrides JSON. */
	const char *(*json_at)(const struct cb_row *r, char buf[128]);
};

/* The JSON path of column C for row R. */
const char *cb_column_json(const struct cb_column *c, const struct cb_row *r, char buf[128]);

/* How a text column shows its column(s). */
enum cb_show {
	CB_SHOW_VALUE,    /* text as is, an integer, a number with cb_fmt_num */
	CB_SHOW_SIZE,     /* an integer number of bytes: "16KiB" */
	CB_SHOW_PCT,      /* a share: "12.3%" */
	CB_SHOW_P,        /* a p-value: "< 1e-6" below 1e-6 */
	CB_SHOW_INTERVAL, /* two columns, lo and hi: "[LO, HI]" */
	CB_SHOW_ESTIMATE, /* three, value lo hi: "V [LO, HI]" or "not resolved" */
	CB_SHOW_CHANGE,   /* three, a ratio lo hi: "+7.0% [+6.2, +7.8]" */
};

/* Conditions of a text column (WHEN, UNLESS): the first two are the
 * options'; a table's CONDITIONS function sets the others. */
#define CB_IF_DETAILS 1u
#define CB_IF_MARKDOWN 2u
#define CB_IF_THREADS 4u    /* the rows have more than one thread count */
#define CB_IF_MEASURES 8u   /* the rows were judged on more than one measure */
#define CB_IF_RUNS 16u      /* a source of several runs (hosts) */
#define CB_IF_INTERVALS 32u /* hosts: the estimates' intervals (--details or Markdown) */
#define CB_IF_DEPENDENT 64u /* a row's paired rounds were shown dependent (dependence.h) */

struct cb_text_column {
	const char *header;
	char align; /* 'l' or 'r' */
	unsigned when, unless;
	const char *of; /* the column(s) shown, space-separated */
	enum cb_show show;
	/* An ornament: composes the text itself, from the row (OF and SHOW
	 * unused); WHY names what it shows. */
	void (*text)(const struct cb_row *r, char *buf, size_t len);
	const char *why;
	/* Repeated for each sub row of the item (compare: "run 1", "run 2"):
	 * HEADER is a format with one %zu, the sub row's number from 1. */
	bool per_sub;
};

/* A text view: its columns, and which rows it shows. */
struct cb_text_view {
	const struct cb_text_column *columns;
	size_t n_columns;
	bool (*skip)(const struct cb_row *r); /* NULL: every row */
	bool per_item;                        /* one line per item, not per row */
};

typedef void cb_table_emit(void *arg, const void *item, size_t sub);

struct cb_table_def {
	const char *name;  /* --table NAME */
	const char *about; /* what one row is (README, --help) */
	/* Where the rows live in the source's JSON (a key or a path): the test
	 * reads them there. */
	const char *json_rows;
	/* Emit the rows of SOURCE in order: EMIT(ARG, item, sub). */
	void (*rows)(const void *source, cb_table_emit *emit, void *arg);
	/* The text conditions that hold for SOURCE (CB_IF_THREADS, ...); NULL:
	 * none beyond the options'. */
	unsigned (*conditions)(const void *source, const struct cb_table_options *o);
	/* The number of sub rows of each item, for per_sub text columns. */
	size_t (*subs)(const void *source);
	const char *json_order;          /* the row object's top-level keys, space-separated */
	const struct cb_column *columns; /* those of the table's unit (cb_table_has) */
	size_t n_columns;
	struct cb_text_view text, text2;
	enum cb_table_unit unit; /* what its cells count (0: bytes) */
};

/* Whether column C (one of DEF's `columns`) belongs to DEF: it is in the
 * tables of DEF's unit. Every walk over a description's columns asks. */
static inline bool cb_table_has(const struct cb_table_def *def, const struct cb_column *c)
{
	return (c->formats & CB_IN_BOTH) ||
	       ((c->formats & CB_IN_OPS) != 0) == (def->unit == CB_UNIT_OPS);
}

#define CB_N(a) (sizeof(a) / sizeof((a)[0]))

/* The column NAME of DEF (of its unit), or NULL. */
const struct cb_column *cb_table_column(const struct cb_table_def *def, const char *name);
/* The value of column NAME (which must exist) for row R. */
void cb_row_value(const struct cb_row *r, const char *name, struct cb_value *v);
/* Shorthands: the number (NaN when missing), the text ("" when missing). */
double cb_row_num(const struct cb_row *r, const char *name);

/* The text or Markdown table of SOURCE (its VIEW: 0, or 1 for text2) as O
 * asks, for cb_table_print (format.h); NULL when memory runs out. */
struct cb_table *cb_table_text(const struct cb_table_def *def, int view, const void *source,
                               const struct cb_table_options *o);
/* The CSV header line of DEF. */
void cb_table_csv_header(FILE *out, const struct cb_table_def *def);
/* The CSV records of SOURCE, the RUN-th printed. */
void cb_table_csv_rows(FILE *out, const struct cb_table_def *def, const void *source, size_t run,
                       const struct cb_table_options *o);
/* The rows of SOURCE as a JSON array (new reference). */
json_t *cb_table_json(const struct cb_table_def *def, const void *source, size_t run,
                      const struct cb_table_options *o);

/* A set of tables (report's, compare's), NULL-terminated: the first is the
 * default. The index of NAME in SET, or -1. */
int cb_table_find(const struct cb_table_def *const *set, const char *name);

/* ---- Getters shared by the tables' files ---- */

/* The value setters for getters. */
/* Text: NULL is JSON null and an empty CSV field. */
static inline void cb_value_text(struct cb_value *v, const char *s)
{
	v->s = s;
}
static inline void cb_value_int(struct cb_value *v, long long i)
{
	v->i = i;
}
static inline void cb_value_num(struct cb_value *v, double d)
{
	v->d = d;
}
static inline void cb_value_bool(struct cb_value *v, bool b)
{
	v->b = b;
}

#endif
