/* format.c: numbers with a sensible precision, tables in four dresses, and
 * the text every printer shares (wrapped lines, headings, JSON numbers). */
#include "analysis/report/format.h"

#include "core/results/csv.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int cb_format_parse(const char *name)
{
	static const char *const names[] = {"text", "markdown", "csv", "json", "html"};

	for (int i = 0; i < 5; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

const char *cb_fmt_num(double v, char buf[32])
{
	double a = fabs(v);

	if (isnan(v))
		return strcpy(buf, "-");
	if (isinf(v))
		return strcpy(buf, v > 0 ? "inf" : "-inf");
	/* Four significant digits, without exponents across the usual range; a
	 * rounding residue like 1e-17 (a rank correlation of exactly 0) is 0. */
	if (a < 1e-12)
		snprintf(buf, 32, "0");
	else if (a >= 1e7 || a < 1e-4)
		snprintf(buf, 32, "%.3e", v);
	else if (a >= 1000)
		snprintf(buf, 32, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, 32, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, 32, "%.2f", v);
	else if (a >= 1)
		snprintf(buf, 32, "%.3f", v);
	else
		snprintf(buf, 32, "%.4g", v);
	return buf;
}

const char *cb_fmt_pct(double v, char buf[32])
{
	if (isnan(v))
		return strcpy(buf, "-");
	snprintf(buf, 32, "%.1f%%", v * 100.0);
	return buf;
}

const char *cb_fmt_interval(double lo, double hi, char buf[80])
{
	char a[32], b[32];

	if (isnan(lo) || isnan(hi))
		return strcpy(buf, "-");
	snprintf(buf, 80, "[%s, %s]", cb_fmt_num(lo, a), cb_fmt_num(hi, b));
	return buf;
}

const char *cb_fmt_estimate(double v, double lo, double hi, char buf[96])
{
	char a[32], b[80];

	if (isnan(v))
		return strcpy(buf, "-");
	if (!isnan(lo) && !isnan(hi) && hi - lo > fabs(v))
		return strcpy(buf, "not resolved");
	if (isnan(lo) || isnan(hi))
		return strcpy(buf, cb_fmt_num(v, a));
	snprintf(buf, 96, "%s %s", cb_fmt_num(v, a), cb_fmt_interval(lo, hi, b));
	return buf;
}

const char *cb_fmt_p(double p, char buf[32])
{
	if (!isnan(p) && p < 1e-6)
		return strcpy(buf, "< 1e-6");
	return cb_fmt_num(p, buf);
}

/* (R - 1) in percent, with a sign, one decimal below 100%. */
static const char *change_pct(double r, bool percent_sign, char buf[24])
{
	double c = (r - 1.0) * 100.0;

	snprintf(buf, 24, fabs(c) < 99.95 ? "%+.1f%s" : "%+.0f%s", c, percent_sign ? "%" : "");
	return buf;
}

const char *cb_fmt_change(double r, double lo, double hi, char buf[80])
{
	char a[24], b[24], c[24];

	if (isnan(r))
		return strcpy(buf, "-");
	if (isnan(lo) || isnan(hi))
		return strcpy(buf, change_pct(r, true, a));
	snprintf(buf, 80, "%s [%s, %s]", change_pct(r, true, a), change_pct(lo, false, b),
	         change_pct(hi, false, c));
	return buf;
}

struct cb_table {
	const char *name; /* HTML's data-table (static), or NULL */
	size_t ncols;
	char **headers;
	char *align;
	char **cells; /* row-major */
	size_t n_cells, cap;
};

struct cb_table *cb_table_new(const char *const *headers, size_t ncols, const char *align)
{
	struct cb_table *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->ncols = ncols;
	t->headers = calloc(ncols, sizeof *t->headers);
	t->align = calloc(ncols + 1, 1);
	if (!t->headers || !t->align) {
		cb_table_free(t);
		return NULL;
	}
	for (size_t i = 0; i < ncols; i++) {
		t->headers[i] = strdup(headers[i]);
		t->align[i] = align && align[i] == 'r' ? 'r' : 'l';
	}
	return t;
}

void cb_table_cell(struct cb_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (!t)
		return;
	if (t->n_cells == t->cap) {
		size_t more = t->cap ? 2 * t->cap : 64;
		char **grown = realloc(t->cells, more * sizeof *grown);

		if (!grown)
			return;
		t->cells = grown;
		t->cap = more;
	}
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len >= 0 && (s = malloc((size_t)len + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	t->cells[t->n_cells++] = s;
}

size_t cb_table_rows(const struct cb_table *t)
{
	return t && t->ncols ? (t->n_cells + t->ncols - 1) / t->ncols : 0;
}

static const char *cell_at(const struct cb_table *t, size_t row, size_t col)
{
	size_t i = row * t->ncols + col;

	return i < t->n_cells && t->cells[i] ? t->cells[i] : "";
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void print_text(FILE *out, const struct cb_table *t)
{
	size_t rows = cb_table_rows(t), *w = calloc(t->ncols, sizeof *w);

	if (!w)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width_of(t->headers[c]);
		for (size_t r = 0; r < rows; r++)
			if (width_of(cell_at(t, r, c)) > w[c])
				w[c] = width_of(cell_at(t, r, c));
	}
	for (size_t r = 0; r <= rows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->headers[c] : cell_at(t, r - 1, c);
			int pad = (int)(w[c] - width_of(s));
			bool last = c + 1 == t->ncols;

			if (t->align[c] == 'r')
				fprintf(out, "%*s%s", pad, "", s);
			else
				fprintf(out, "%s%*s", s, last ? 0 : pad, "");
			fputs(last ? "\n" : "  ", out);
		}
	}
	free(w);
}

static void print_markdown(FILE *out, const struct cb_table *t)
{
	size_t rows = cb_table_rows(t);

	for (size_t c = 0; c < t->ncols; c++)
		fprintf(out, "| %s ", t->headers[c]);
	fputs("|\n", out);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->align[c] == 'r' ? "|---:" : "|---", out);
	fputs("|\n", out);
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cell_at(t, r, c);

			fputs("| ", out);
			for (; *s; s++) /* a pipe would end the cell */
				fputs(*s == '|' ? "\\|" : (char[]){*s, 0}, out);
			fputc(' ', out);
		}
		fputs("|\n", out);
	}
}

void cb_html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
}

void cb_table_name(struct cb_table *t, const char *name)
{
	if (t)
		t->name = name;
}

/* Verdicts by the words a cell starts with: the class that colours it (and
 * gives it a symbol, in the page's style sheet). First match wins. */
static const struct {
	const char *starts;
	const char *class;
} verdicts[] = {
    {"not resolved", "v-open"},    {"not reproduced", "v-bad"}, {"non-reproducible", "v-bad"},
    {"reproduced", "v-good"},      {"equivalent", "v-good"},    {"tied", "v-good"},
    {"slower", "v-bad"},           {"faster", "v-good"},        {"FLAGGED", "v-bad"},
    {"min time (contam", "v-bad"}, {"unresolved", "v-open"},    {"withheld", "v-open"},
    {"agrees", "v-good"},          {"disagrees", "v-bad"},
};

/* ... and by the column, where the column names a standing (the winners'
 * table): its cells that name engines. */
static const struct {
	const char *header;
	const char *class;
} standings[] = {
    {"fastest", "v-good"},
    {"tied", "v-good"},
    {"not resolved", "v-open"},
};

static const char *verdict_class(const char *header, const char *s)
{
	for (size_t i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++)
		if (strncmp(s, verdicts[i].starts, strlen(verdicts[i].starts)) == 0)
			return verdicts[i].class;
	for (size_t i = 0; i < sizeof standings / sizeof standings[0] && strcmp(s, "-") != 0 && *s;
	     i++)
		if (strcmp(header, standings[i].header) == 0)
			return standings[i].class;
	return NULL;
}

static void print_html(FILE *out, const struct cb_table *t)
{
	size_t rows = cb_table_rows(t);

	fputs("<table", out);
	if (t->name) {
		fputs(" data-table=\"", out);
		cb_html_escape(out, t->name);
		fputc('"', out);
	}
	fputs(">\n<thead><tr>", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(t->align[c] == 'r' ? "<th class=\"r\">" : "<th>", out);
		cb_html_escape(out, t->headers[c]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < rows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cell_at(t, r, c), *v = verdict_class(t->headers[c], s);

			fprintf(out, "<td%s%s%s%s%s>", v || t->align[c] == 'r' ? " class=\"" : "",
			        t->align[c] == 'r' ? "r" : "", v && t->align[c] == 'r' ? " " : "",
			        v ? v : "", v || t->align[c] == 'r' ? "\"" : "");
			cb_html_escape(out, s);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void print_csv(FILE *out, const struct cb_table *t)
{
	size_t rows = cb_table_rows(t);
	struct cb_csv w;

	cb_csv_init(&w, out);
	for (size_t r = 0; r <= rows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->headers[c] : cell_at(t, r - 1, c);

			cb_csv_text(&w, strcmp(s, "-") == 0 ? "" : s);
		}
		cb_csv_end(&w);
	}
}

void cb_table_print(FILE *out, const struct cb_table *t, enum cb_report_format format)
{
	if (!t)
		return;
	switch (format) {
	case CB_FORMAT_TEXT:
		print_text(out, t);
		break;
	case CB_FORMAT_MARKDOWN:
		print_markdown(out, t);
		break;
	case CB_FORMAT_CSV:
		print_csv(out, t);
		break;
	case CB_FORMAT_HTML:
		print_html(out, t);
		break;
	case CB_FORMAT_JSON:
		break;
	}
}

void cb_table_free(struct cb_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols && t->headers; i++)
		free(t->headers[i]);
	for (size_t i = 0; i < t->n_cells; i++)
		free(t->cells[i]);
	free(t->headers);
	free(t->align);
	free(t->cells);
	free(t);
}

/* ---- Text and JSON the printers share ---- */

void cb_report_wrapped(FILE *out, const char *first, const char *text)
{
	size_t indent, col;
	const char *p = text;

	if (!first) { /* HTML: a paragraph */
		fputs("<p>", out);
		cb_html_escape(out, text);
		fputs("</p>\n", out);
		return;
	}
	indent = col = strlen(first);
	fputs(first, out);
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t word = sp ? (size_t)(sp - p) : strlen(p);

		if (col > indent && col + 1 + word > CB_REPORT_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, word, out);
		col += word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

const char *cb_report_lead(enum cb_report_format f)
{
	return f == CB_FORMAT_HTML ? NULL : "";
}

const char *cb_report_mark(enum cb_report_format f)
{
	return f == CB_FORMAT_HTML ? NULL : f == CB_FORMAT_MARKDOWN ? "- " : "  ";
}

void cb_report_heading(FILE *out, enum cb_report_format f, const char *title)
{
	if (f == CB_FORMAT_HTML) {
		fputs("<h3>", out);
		cb_html_escape(out, title);
		fputs("</h3>\n", out);
		return;
	}
	if (f == CB_FORMAT_MARKDOWN) {
		fprintf(out, "\n### %s\n\n", title);
		return;
	}
	fputc('\n', out);
	cb_report_wrapped(out, "", title);
}

json_t *cb_report_json_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
