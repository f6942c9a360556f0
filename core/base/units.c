/* units.c: sizes and durations as people write them.
 *
 * A quantity is a decimal number and a unit. Fractions are allowed only when
 * they name a whole count ("1.5KiB" is 1536 bytes, "0.1KiB" is not a size),
 * so the arithmetic stays in integers and never rounds silently. */
#include "core/base/units.h"

#include <stdio.h>
#include <string.h>

struct unit {
	const char *suffix;
	uint64_t scale;
};

static const struct unit size_units[] = {
    {"B", 1},
    {"KiB", 1ull << 10},
    {"MiB", 1ull << 20},
    {"GiB", 1ull << 30},
    {"TiB", 1ull << 40},
    {"KB", 1000ull},
    {"kB", 1000ull},
    {"MB", 1000000ull},
    {"GB", 1000000000ull},
    {"TB", 1000000000000ull},
    {NULL, 0},
};

static const struct unit duration_units[] = {
    {"ns", 1}, {"us", 1000ull}, {"ms", 1000000ull}, {"s", 1000000000ull}, {NULL, 0},
};

/* Digits of a fraction kept exactly: 10^18 still fits in 64 bits. */
#define MAX_FRACTION_DIGITS 18

/* TEXT as a count of 1/SCALE units, exactly: "1.5" with scale 1024 is 1536.
 * 0 on success; -1 for a malformed number, an inexact result or overflow.
 * *END is where the number stopped. */
static int parse_scaled(const char *text, uint64_t scale, uint64_t *out, const char **end)
{
	const char *p = text;
	uint64_t whole = 0, fraction = 0, denominator = 1;

	if (*p < '0' || *p > '9')
		return -1; /* no sign, no leading dot, not empty */
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (whole > (UINT64_MAX - d) / 10)
			return -1;
		whole = whole * 10 + d;
	}
	if (*p == '.') {
		int digits = 0;
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (++digits > MAX_FRACTION_DIGITS)
				return -1;
			fraction = fraction * 10 + (uint64_t)(*p - '0');
			denominator *= 10;
		}
	}
	*end = p;
	if (scale != 0 && whole > UINT64_MAX / scale)
		return -1;
	uint64_t value = whole * scale;
	if (fraction != 0) {
		/* fraction * scale may not fit: divide out the common factors first */
		uint64_t a = fraction, b = denominator;
		while (b != 0) {
			uint64_t t = a % b;
			a = b;
			b = t;
		}
		uint64_t num = fraction / a, den = denominator / a;
		if (scale % den != 0)
			return -1; /* not a whole count */
		uint64_t part = scale / den;
		if (part != 0 && num > UINT64_MAX / part)
			return -1;
		part *= num;
		if (value > UINT64_MAX - part)
			return -1;
		value += part;
	}
	*out = value;
	return 0;
}

static int parse_quantity(const char *text, const struct unit *units, uint64_t *out)
{
	const char *unit, *stop = NULL;
	uint64_t scale = 0;

	if (text == NULL)
		return -1;
	for (unit = text; (*unit >= '0' && *unit <= '9') || *unit == '.'; unit++)
		;
	for (const struct unit *u = units; scale == 0 && u->suffix; u++)
		if (strcmp(unit, u->suffix) == 0)
			scale = u->scale;
	if (scale == 0 || parse_scaled(text, scale, out, &stop) != 0 || stop != unit)
		return -1;
	return 0;
}

int cb_parse_size(const char *text, size_t *bytes)
{
	uint64_t value;

	if (parse_quantity(text, size_units, &value) != 0 || value > SIZE_MAX)
		return -1;
	*bytes = (size_t)value;
	return 0;
}

int cb_parse_duration(const char *text, uint64_t *ns)
{
	return parse_quantity(text, duration_units, ns);
}

int cb_parse_span(const char *text, uint64_t *ns)
{
	static const struct unit parts[] = {
	    {"h", 3600000000000ull}, {"m", 60000000000ull}, {"s", 1000000000ull}};
	size_t next = 0; /* the largest unit the next part may have */
	uint64_t total = 0;

	if (text == NULL || *text == '\0')
		return -1;
	while (*text) {
		const char *unit = text, *stop = NULL;
		uint64_t value;
		size_t u;

		while ((*unit >= '0' && *unit <= '9') || *unit == '.')
			unit++;
		for (u = next; u < sizeof parts / sizeof parts[0]; u++)
			if (*unit == parts[u].suffix[0])
				break;
		/* "3ms" is not 3 minutes and a stray s: each part ends at its unit. */
		if (u == sizeof parts / sizeof parts[0] ||
		    parse_scaled(text, parts[u].scale, &value, &stop) != 0 || stop != unit ||
		    value > UINT64_MAX - total)
			return -1;
		total += value;
		next = u + 1;
		text = unit + 1;
	}
	*ns = total;
	return 0;
}

int cb_is_unitless(const char *text)
{
	const char *p = text;

	if (!p || !*p)
		return 0;
	while ((*p >= '0' && *p <= '9') || *p == '.')
		p++;
	return *p == '\0';
}

const char *cb_format_size(size_t bytes, char buf[32])
{
	static const struct unit binary[] = {
	    {"TiB", 1ull << 40}, {"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}};
	uint64_t value = bytes;

	for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++)
		if (value != 0 && value % binary[i].scale == 0) {
			snprintf(buf, 32, "%llu%s", (unsigned long long)(value / binary[i].scale),
			         binary[i].suffix);
			return buf;
		}
	snprintf(buf, 32, "%lluB", (unsigned long long)value);
	return buf;
}
