/* plot_names.c: the words on the charts and the names of their files. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/engine/engine.h"
#include "plots/plot.h"
#include "plots/plot_internal.h"

void plot_size(unsigned long long size, bool display, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	const char *sep = display ? " " : "";
	int u = 0;

	/* Scenarios use binary sizes; a size that is not a whole unit stays in
	 * bytes, so a name never rounds two sizes into one. */
	while (u < 4 && size >= 1024 && size % 1024 == 0) {
		size /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s%s", size, sep, units[u]);
}

void plot_slug(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (; *s && n + 1 < len; s++) {
		bool keep = isalnum((unsigned char)*s) || *s == '.' || *s == '_' || *s == '-';

		if (keep)
			buf[n++] = *s;
		else if (n > 0 && buf[n - 1] != '-')
			buf[n++] = '-';
	}
	while (n > 0 && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
}

static json_t *engine_info(const struct cb_results *r, const char *engine)
{
	json_t *engines = json_object_get(r->header, "engines"), *e;
	size_t i;

	json_array_foreach(engines, i, e)
	{
		const char *name = json_string_value(json_object_get(e, "name"));

		if (name && strcmp(name, engine) == 0)
			return e;
	}
	return NULL;
}

bool plot_is_reference(const struct cb_result_cell *cell)
{
	return cb_engine_is_reference(cell->engine);
}

void plot_label(const struct cb_results *r, const struct cb_result_cell *cell, char *buf,
                size_t len)
{
	const char *version =
	    json_string_value(json_object_get(engine_info(r, cell->engine), "version"));
	const char *num = NULL;

	if (strcmp(cell->engine, "memcpy") == 0) {
		snprintf(buf, len, "%s (memory bandwidth)", cell->label);
		return;
	}
	if (strcmp(cell->engine, "null") == 0) {
		snprintf(buf, len, "%s (harness cost)", cell->label);
		return;
	}
	/* "OpenSSL 3.0.22 25 Aug 2026" -> "3.0.22": the first word that is a
	 * version (digits, a dot, a digit: not "64-Bit"), without the comma or
	 * bracket that ends it ("Go 1.19.8, ..."). */
	for (const char *p = version; p && *p; p++)
		if (isdigit((unsigned char)*p) && (p == version || isspace((unsigned char)p[-1]))) {
			const char *q = p;

			while (isdigit((unsigned char)*q))
				q++;
			if (q[0] == '.' && isdigit((unsigned char)q[1])) {
				num = p;
				break;
			}
		}
	if (!num) {
		snprintf(buf, len, "%s", cell->label);
		return;
	}
	snprintf(buf, len, "%s %.*s", cell->label, (int)strcspn(num, " \t,;)"), num);
}

/* Append to BUF (of LEN, USED so far) like printf. */
static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return n < 0 ? used : used + (size_t)n;
}

void plot_where(const struct cb_results *r, bool with_date, char *buf, size_t len)
{
	json_t *host = json_object_get(r->header, "host");
	json_t *kernel = json_object_get(host, "kernel");
	const char *scenario =
	    json_string_value(json_object_get(json_object_get(r->header, "scenario"), "name"));
	const char *cpu = json_string_value(json_object_get(host, "cpu"));
	const char *virt = json_string_value(json_object_get(host, "virtualization"));
	const char *sys = json_string_value(json_object_get(kernel, "sysname"));
	const char *rel = json_string_value(json_object_get(kernel, "release"));
	const char *started = json_string_value(json_object_get(r->header, "started"));
	json_int_t cpus = json_integer_value(json_object_get(host, "online_cpus"));
	json_int_t rounds = json_integer_value(json_object_get(r->header, "rounds"));
	double trial_ns = json_number_value(json_object_get(r->header, "trial_time_ns"));
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	used =
	    append(buf, len, used, "%s · %s", scenario ? scenario : "?", cpu ? cpu : "unknown CPU");
	if (cpus > 0)
		used = append(buf, len, used, ", %lld CPU%s", (long long)cpus, cpus > 1 ? "s" : "");
	if (virt)
		used = append(buf, len, used, " (%s)", virt);
	if (sys)
		used = append(buf, len, used, " · %s%s%s", sys, rel ? " " : "", rel ? rel : "");
	/* 2026-11-30T05:46:56Z -> 2026-11-30 05:46 UTC */
	if (with_date && started && strlen(started) >= 16)
		used = append(buf, len, used, " · %.10s %.5s UTC", started, started + 11);
	if (json_is_true(json_object_get(json_object_get(r->header, "stop"), "until_resolved"))) {
		/* Rounds ran until each question was answered: the most any cell got. */
		json_t *stop = json_object_get(r->end, "stop");
		json_t *last = json_array_get(r->looks, json_array_size(r->looks) - 1);
		json_int_t most = stop ? json_integer_value(json_object_get(stop, "rounds"))
		                       : json_integer_value(json_object_get(last, "round"));

		used = most > 0 ? append(buf, len, used, " · until resolved, up to %lld rounds",
		                         (long long)most)
		                : append(buf, len, used, " · until resolved");
	} else if (rounds > 0)
		used = append(buf, len, used, " · %lld rounds", (long long)rounds);
	if (trial_ns > 0)
		append(buf, len, used, " of %g ms trials", trial_ns / 1e6);
}

/* VALUE of a `by` or selector entry as text: sizes as "16 KiB". */
static void dim_value(const char *key, json_t *v, char *buf, size_t len)
{
	if (json_is_integer(v) && strcmp(key, "size") == 0)
		plot_size((unsigned long long)json_integer_value(v), true, buf, len);
	else if (json_is_integer(v) && strcmp(key, "threads") == 0)
		snprintf(buf, len, "%lld thread%s", (long long)json_integer_value(v),
		         json_integer_value(v) == 1 ? "" : "s");
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else
		snprintf(buf, len, "?");
}

static bool is_engine_key(const char *key)
{
	return strcmp(key, "label") == 0 || strcmp(key, "engine") == 0;
}

void plot_join(json_t *o, enum plot_part part, bool with_keys, const char *sep, char *buf,
               size_t len)
{
	const char *key;
	json_t *v;
	size_t used = 0;

	buf[0] = '\0';
	json_object_foreach(o, key, v)
	{
		char val[128];

		if (part != PLOT_ALL_PARTS && is_engine_key(key) != (part == PLOT_ENGINE_PART))
			continue;
		dim_value(key, v, val, sizeof val);
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s%s%s",
		                         used ? sep : "", with_keys ? key : "",
		                         with_keys ? "=" : "", val);
		if (used >= len)
			break;
	}
}

const char *plot_get_label(const struct cb_result_cell *c)
{
	return c->label;
}

const char *plot_get_algorithm(const struct cb_result_cell *c)
{
	return c->algorithm;
}

const char *plot_get_op(const struct cb_result_cell *c)
{
	return c->op;
}

unsigned long long plot_get_size(const struct cb_result_cell *c)
{
	return (unsigned long long)c->size;
}

unsigned long long plot_get_threads(const struct cb_result_cell *c)
{
	return c->threads;
}

size_t plot_distinct_str(const struct cb_run_summary *s,
                         const char *(*get)(const struct cb_result_cell *), const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_cells; i++) {
		const char *v = get(s->cells[i].cell);
		size_t j = 0;

		if (s->cells[i].n == 0)
			continue;
		while (j < n && strcmp(out[j], v) != 0)
			j++;
		if (j == n)
			out[n++] = v;
	}
	return n;
}

size_t plot_distinct_num(const struct cb_run_summary *s,
                         unsigned long long (*get)(const struct cb_result_cell *),
                         unsigned long long *out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_cells; i++) {
		unsigned long long v = get(s->cells[i].cell);
		size_t j = 0;

		if (s->cells[i].n == 0)
			continue;
		while (j < n && out[j] < v)
			j++;
		if (j < n && out[j] == v)
			continue;
		memmove(out + j + 1, out + j, (n - j) * sizeof *out);
		out[j] = v;
		n++;
	}
	return n;
}
