/* csv.c: RFC 4180 fields, round-trip numbers, one boolean spelling (csv.h). */
#include "core/results/csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cb_csv_init(struct cb_csv *w, FILE *out)
{
	w->out = out;
	w->fields = 0;
}

static void separate(struct cb_csv *w)
{
	if (w->fields++)
		fputc(',', w->out);
}

void cb_csv_text(struct cb_csv *w, const char *s)
{
	separate(w);
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, w->out);
		return;
	}
	fputc('"', w->out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', w->out);
		fputc(*s, w->out);
	}
	fputc('"', w->out);
}

const char *cb_csv_format_number(double v, char buf[32])
{
	/* %.17g always reads back; the shorter forms are tried first so that
	 * 0.1 stays 0.1 rather than 0.10000000000000001. */
	static const char *const forms[] = {"%.15g", "%.16g", "%.17g"};

	buf[0] = '\0';
	if (!isfinite(v))
		return buf;
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		snprintf(buf, 32, forms[i], v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

void cb_csv_number(struct cb_csv *w, double v)
{
	char buf[32];

	separate(w);
	fputs(cb_csv_format_number(v, buf), w->out);
}

void cb_csv_integer(struct cb_csv *w, long long v)
{
	separate(w);
	fprintf(w->out, "%lld", v);
}

void cb_csv_bool(struct cb_csv *w, bool b)
{
	separate(w);
	fputs(b ? "true" : "false", w->out);
}

void cb_csv_empty(struct cb_csv *w)
{
	separate(w);
}

void cb_csv_end(struct cb_csv *w)
{
	fputc('\n', w->out);
	w->fields = 0;
}
