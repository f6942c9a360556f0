/* format.h: numbers and tables for people (text, Markdown, HTML) and programs (CSV).
 *
 * Reports build a table cell by cell and print it once, so column widths fit
 * the widest entry and the same table comes out as aligned text, a Markdown
 * table or CSV (core/results/csv.h). Missing numbers (NaN) print as "-" in text and
 * Markdown and as an empty field in CSV. */
#ifndef CB_FORMAT_H
#define CB_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* HTML: the body of a page (headings, paragraphs, tables), every text
 * escaped; the page around it is the command's (cli/html_page.h). */
enum cb_report_format {
	CB_FORMAT_TEXT,
	CB_FORMAT_MARKDOWN,
	CB_FORMAT_CSV,
	CB_FORMAT_JSON,
	CB_FORMAT_HTML
};

/* "text", "markdown", "csv", "json", "html" -> format; -1 when unknown. */
int cb_format_parse(const char *name);

/* S written to OUT with &, <, >, " and ' as entities: what every text from a
 * results file goes through on its way into HTML. */
void cb_html_escape(FILE *out, const char *s);

/* ---- Numbers ---- */

/* V with about 4 significant digits ("1234.5", "0.7142", "2.16e-05"), "-" for NaN. */
const char *cb_fmt_num(double v, char buf[32]);
/* V as a percentage with one decimal ("12.3%"), "-" for NaN. */
const char *cb_fmt_pct(double v, char buf[32]);
/* "[LO, HI]" with cb_fmt_num, or "-" when either is NaN. */
const char *cb_fmt_interval(double lo, double hi, char buf[80]);
/* "V [LO, HI]"; "not resolved" when the interval is wider than |V| (the
 * estimate says nothing); "V" alone when LO or HI is NaN; "-" for NaN V. */
const char *cb_fmt_estimate(double v, double lo, double hi, char buf[96]);
/* A p-value: "< 1e-6" below 1e-6 (no figure that small means anything),
 * else cb_fmt_num. */
const char *cb_fmt_p(double p, char buf[32]);
/* A ratio R with interval [LO, HI] as a signed change in percent:
 * "+7.0% [+6.2, +7.8]"; "-" when R is NaN, the interval left out when NaN. */
const char *cb_fmt_change(double r, double lo, double hi, char buf[80]);

/* ---- Tables ---- */

struct cb_table;

/* A table with NCOLS columns named HEADERS; ALIGN holds one 'l' or 'r' per
 * column (NULL: all left). NULL when memory runs out. */
struct cb_table *cb_table_new(const char *const *headers, size_t ncols, const char *align);
/* Append one cell to the current row (printf-style); the row ends by itself
 * after its last column. Ignored when memory runs out. */
void cb_table_cell(struct cb_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The name HTML gives T (data-table="NAME": the table's --table name). */
void cb_table_name(struct cb_table *t, const char *name);
/* Print T to OUT as FORMAT (JSON is not a table format: nothing is printed).
 * HTML: a <table>, every cell escaped; a cell that is a verdict gets a class
 * (v-good, v-bad, v-open) that colours it and adds a symbol, so that it
 * reads in grey print too; its text stays the text table's. */
void cb_table_print(FILE *out, const struct cb_table *t, enum cb_report_format format);
size_t cb_table_rows(const struct cb_table *t);
void cb_table_free(struct cb_table *t);

/* ---- Text and JSON the printers share ---- */

/* Text output fits this many columns (tables too, unless details are asked for). */
#define CB_REPORT_WIDTH 100

/* Print TEXT wrapped at CB_REPORT_WIDTH columns: the first line starts with
 * FIRST, the others with as many spaces; FIRST NULL: an HTML paragraph
 * (escaped). */
void cb_report_wrapped(FILE *out, const char *first, const char *text);
/* What FIRST is for a line (""), or an item of a list ("  ", "- "), in
 * format F: NULL in HTML. */
const char *cb_report_lead(enum cb_report_format f);
const char *cb_report_mark(enum cb_report_format f);
/* A section's TITLE: a Markdown heading, or a blank line and the wrapped title. */
void cb_report_heading(FILE *out, enum cb_report_format f, const char *title);

/* NaN-safe JSON number: null for NaN or infinity. */
json_t *cb_report_json_number(double v);

#endif
