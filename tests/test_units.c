/* test_units.c: sizes and durations as people write them. */
#include "core/base/units.h"

#include <stdbool.h>

#include "tests/tap.h"

static void size_is(const char *text, size_t want)
{
	size_t got = 0;
	int status = cb_parse_size(text, &got);

	if (!ok(status == 0 && got == want, "size '%s' is %zu bytes", text, want))
		diag("status %d, got %zu", status, got);
}

static void size_rejected(const char *text)
{
	size_t got = 12345;

	ok(cb_parse_size(text, &got) == -1 && got == 12345, "size '%s' is rejected, untouched",
	   text ? text : "(null)");
}

static void duration_is(const char *text, uint64_t want)
{
	uint64_t got = 0;
	int status = cb_parse_duration(text, &got);

	if (!ok(status == 0 && got == want, "duration '%s' is %llu ns", text,
	        (unsigned long long)want))
		diag("status %d, got %llu", status, (unsigned long long)got);
}

static void duration_rejected(const char *text)
{
	uint64_t got = 12345;

	ok(cb_parse_duration(text, &got) == -1 && got == 12345, "duration '%s' is rejected", text);
}

static void span_is(const char *text, uint64_t want)
{
	uint64_t got = 0;
	int status = cb_parse_span(text, &got);

	if (!ok(status == 0 && got == want, "span '%s' is %llu ns", text, (unsigned long long)want))
		diag("status %d, got %llu", status, (unsigned long long)got);
}

static void span_rejected(const char *text)
{
	uint64_t got = 12345;

	ok(cb_parse_span(text, &got) == -1 && got == 12345, "span '%s' is rejected",
	   text ? text : "(null)");
}

static void formats_as(size_t bytes, const char *want)
{
	char buf[32];

	is_str(cb_format_size(bytes, buf), want, "%zu bytes format as %s", bytes, want);
}

static bool round_trips(size_t bytes)
{
	char buf[32];
	size_t back = 0;

	if (cb_parse_size(cb_format_size(bytes, buf), &back) == 0 && back == bytes)
		return true;
	diag("%zu formats as '%s', which reads back as %zu", bytes, buf, back);
	return false;
}

int main(void)
{
	tap_plan(84);
	/* powers of two */
	size_rejected("16"); /* a unit is required */
	size_is("16B", 16);
	size_is("4KiB", 4096);
	size_is("1MiB", 1048576);
	size_is("128MiB", 134217728);
	size_is("1GiB", 1073741824);
	size_is("4GiB", 4294967296u);
	size_is("0B", 0);
	size_rejected("0");
	/* powers of ten */
	size_is("4KB", 4000);
	size_is("4kB", 4000);
	size_is("1MB", 1000000);
	size_is("1GB", 1000000000);
	/* fractions only when they name whole bytes */
	size_is("1.5KiB", 1536);
	size_is("0.5MiB", 524288);
	size_is("2.25KB", 2250);
	size_is("1.0B", 1);
	size_rejected("1.5B");
	size_rejected("0.1KiB");
	size_rejected("1.0001KB");
	/* not sizes */
	size_rejected("12XB");
	size_rejected("");
	size_rejected(NULL);
	size_rejected("-1");
	size_rejected("+1");
	size_rejected("KiB");
	size_rejected("1 KiB");
	size_rejected("1KiB ");
	size_rejected("1kib");
	size_rejected("1K");
	size_rejected(".5KiB");
	size_rejected("1.KiB");
	size_rejected("1.2.3");
	size_rejected("0x10");
	/* overflow */
	size_is("18446744073709551615B", SIZE_MAX);
	size_rejected("18446744073709551616B");
	size_rejected("99999999999999999999999");
	size_rejected("17179869184GiB");
	size_rejected("20000000000GB");
	size_rejected("1.0000000000000000001KiB");

	duration_is("20ms", 20000000);
	duration_is("1s", 1000000000);
	duration_is("500us", 500000);
	duration_is("250ns", 250);
	duration_rejected("1"); /* a unit is required: "10" is not ten seconds */
	duration_rejected("0.02");
	duration_is("0.02s", 20000000);
	duration_is("1.5ms", 1500000);
	duration_is("0s", 0);
	duration_rejected("0");
	duration_rejected("0.5ns");
	duration_rejected("20 ms");
	duration_rejected("20xs");
	duration_rejected("ms");
	duration_rejected("");
	duration_rejected("-1s");
	duration_rejected("20m");
	duration_rejected("99999999999s");

	span_is("3m", 180000000000ull);
	span_is("90s", 90000000000ull);
	span_is("1h30m", 5400000000000ull);
	span_is("1.5h", 5400000000000ull);
	span_is("2m30s", 150000000000ull);
	span_is("1h0m5s", 3605000000000ull);
	span_is("0.5s", 500000000ull);
	span_rejected("3");     /* a unit is required */
	span_rejected("3ms");   /* not minutes and a stray s */
	span_rejected("30m1h"); /* largest first */
	span_rejected("1m1m");
	span_rejected("");
	span_rejected(NULL);
	span_rejected("1 m");
	span_rejected("-1m");
	span_rejected("m");

	formats_as(16, "16B");
	formats_as(4096, "4KiB");
	formats_as(1048576, "1MiB");
	formats_as(134217728, "128MiB");
	formats_as(1073741824, "1GiB");
	formats_as(1536, "1536B");
	formats_as(1000, "1000B");
	formats_as(0, "0B");
	formats_as(3072, "3KiB");

	/* what is formatted reads back as the same size */
	size_t mismatches = 0, tried = 0;
	for (size_t bytes = 1; bytes < ((size_t)1 << 42); bytes = bytes * 3 + 1, tried++)
		mismatches += !round_trips(bytes);
	for (size_t shift = 0; shift < 42; shift++, tried++)
		mismatches += !round_trips((size_t)1 << shift) + !round_trips((size_t)3 << shift);
	is_num(mismatches, 0, "%zu formatted sizes read back as themselves", tried);

	return tap_done();
}
