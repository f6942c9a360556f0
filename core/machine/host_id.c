/* host_id.c: a host's identity from its header's host object (host_id.h). */
#include "core/machine/host_id.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define GIB (1024.0 * 1024.0 * 1024.0)

/* One field of the identity as text into BUF; false when HOST lacks it. */
typedef bool (*field_fn)(const json_t *host, char *buf, size_t len);

static bool text(const char *value, char *buf, size_t len)
{
	if (!value)
		return false;
	snprintf(buf, len, "%s", value);
	return true;
}

static bool name_field(const json_t *host, char *buf, size_t len)
{
	const char *name = cb_host_id_name(host);

	return strcmp(name, "?") != 0 && text(name, buf, len);
}

static bool cpu_field(const json_t *host, char *buf, size_t len)
{
	return text(json_string_value(json_object_get(host, "cpu")), buf, len);
}

static bool cpuid_field(const json_t *host, char *buf, size_t len)
{
	const json_t *f = json_object_get(host, "cpu_family"),
	             *m = json_object_get(host, "cpu_model"),
	             *s = json_object_get(host, "cpu_stepping");

	if (!json_is_integer(f) || !json_is_integer(m) || !json_is_integer(s))
		return false;
	snprintf(buf, len,
	         "%" JSON_INTEGER_FORMAT "/%" JSON_INTEGER_FORMAT "/%" JSON_INTEGER_FORMAT,
	         json_integer_value(f), json_integer_value(m), json_integer_value(s));
	return true;
}

static bool cores_field(const json_t *host, char *buf, size_t len)
{
	const json_t *n = json_object_get(host, "logical_cores");

	if (!json_is_integer(n))
		return false;
	snprintf(buf, len, "%" JSON_INTEGER_FORMAT " cores", json_integer_value(n));
	return true;
}

/* The nearest GiB, at least 1: MemTotal is the memory less what the kernel
 * reserves, which moves by a few MiB between kernels and boots. */
static bool memory_field(const json_t *host, char *buf, size_t len)
{
	const json_t *n = json_object_get(host, "memory_bytes");
	long long gib;

	if (!json_is_integer(n) || json_integer_value(n) <= 0)
		return false;
	gib = (long long)((double)json_integer_value(n) / GIB + 0.5);
	snprintf(buf, len, "%lld GiB", gib < 1 ? 1 : gib);
	return true;
}

static bool kernel_field(const json_t *host, char *buf, size_t len)
{
	return text(json_string_value(json_object_get(json_object_get(host, "kernel"), "release")),
	            buf, len);
}

static const field_fn fields[] = {name_field,  cpu_field,    cpuid_field,
                                  cores_field, memory_field, kernel_field};
#define N_FIELDS (sizeof fields / sizeof *fields)

const char *cb_host_id_name(const json_t *host)
{
	const char *given = json_string_value(json_object_get(host, "name_given"));
	const char *name = json_string_value(json_object_get(host, "hostname"));

	return given && *given ? given : name ? name : "?";
}

bool cb_host_id_same(const json_t *a, const json_t *b)
{
	for (size_t i = 0; i < N_FIELDS; i++) {
		char x[256], y[256];

		if (fields[i](a, x, sizeof x) && fields[i](b, y, sizeof y) && strcmp(x, y) != 0)
			return false;
	}
	return true;
}

void cb_host_id_key(const json_t *host, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < N_FIELDS && used < len; i++) {
		char value[256];

		if (!fields[i](host, value, sizeof value))
			snprintf(value, sizeof value, "?");
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " | " : "", value);
	}
}

/* Whether TEXT ends with SUFFIX; *AT is where it starts. */
static bool ends_with(const char *text, size_t n, const char *suffix, size_t *at)
{
	size_t k = strlen(suffix);

	*at = n - k;
	return n >= k && strncmp(text + n - k, suffix, k) == 0;
}

void cb_host_id_cpu_short(const json_t *host, char *buf, size_t len)
{
	const char *cpu = json_string_value(json_object_get(host, "cpu"));
	char model[256];
	size_t n = 0, at;

	if (!cpu || !*cpu) {
		snprintf(buf, len, "?");
		return;
	}
	for (const char *p = cpu; *p && n + 1 < sizeof model; p++)
		if (*p != ' ' || (n && model[n - 1] != ' '))
			model[n++] = *p; /* one blank between words, none first */
	model[n] = '\0';
	if (strstr(model, " @ "))
		n = (size_t)(strstr(model, " @ ") - model);
	while (n && model[n - 1] == ' ')
		n--;
	if (ends_with(model, n, " CPU", &at))
		n = at;
	if (ends_with(model, n, "-Core Processor", &at)) {
		while (at && model[at - 1] >= '0' && model[at - 1] <= '9')
			at--;
		if (at && model[at - 1] == ' ')
			n = at - 1;
	}
	snprintf(buf, len, "%.*s", (int)n, model);
}
