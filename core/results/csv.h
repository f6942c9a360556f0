/* csv.h: the one CSV dialect of cryptobench (report and compare tables,
 * export).
 *
 * RFC 4180 with LF line ends: every record, the header too, ends with "\n"
 * (R's read.csv, pandas and the shell's tools read it; a field that holds a
 * CR or an LF is quoted, so a line end inside a field is never a record's
 * end). A field is quoted when it holds a comma, a double quote, CR or LF,
 * and a quote inside is doubled. Numbers round-trip: the shortest of %.15g,
 * %.16g and %.17g that reads back to the same double. A missing value (NULL
 * text, a NaN or infinite number) is an empty field. Booleans are `true` and
 * `false`, which R's read.csv and pandas both read as booleans.
 *
 * A writer counts the fields of its record, so the separators are its
 * business: call the field functions in order, then cb_csv_end. */
#ifndef CB_CSV_H
#define CB_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cb_csv {
	FILE *out;
	size_t fields; /* written in the current record */
};

/* A writer to OUT, before its first record. */
void cb_csv_init(struct cb_csv *w, FILE *out);

/* One field each: S (NULL: empty), V (not finite: empty), an integer, a
 * boolean, nothing. */
void cb_csv_text(struct cb_csv *w, const char *s);
void cb_csv_number(struct cb_csv *w, double v);
void cb_csv_integer(struct cb_csv *w, long long v);
void cb_csv_bool(struct cb_csv *w, bool b);
void cb_csv_empty(struct cb_csv *w);

/* End the record. */
void cb_csv_end(struct cb_csv *w);

/* V as the writer spells it (the shortest round-trip form), "" when V is
 * not finite. */
const char *cb_csv_format_number(double v, char buf[32]);

#endif
