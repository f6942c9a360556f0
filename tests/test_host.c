/* test_host.c: the host description has every field, each of the right type,
 * agrees with what the test can read itself, and survives /proc and /sys
 * being absent or holding nonsense.
 *
 * The last part replaces fopen for this program: host.c reads every file
 * through it, so /proc and /sys paths can be made to vanish or to return
 * garbage without a container or root. */
#include "core/machine/clock.h"
#include "core/machine/host.h"
#include "tests/tap.h"

#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

enum fake_files { REAL_FILES, NO_FILES, EMPTY_FILES, GARBAGE_FILES };
static enum fake_files fake = REAL_FILES;

static bool faked_path(const char *path)
{
	return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/sys/", 5) == 0;
}

static FILE *fake_open(const char *path, const char *mode, const char *name)
{
	FILE *(*real)(const char *, const char *) =
	    (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, name);
	if (fake == REAL_FILES || !faked_path(path))
		return real(path, mode);
	if (fake == NO_FILES)
		return NULL;
	FILE *f = tmpfile();
	if (f && fake == GARBAGE_FILES) {
		/* Invalid UTF-8 in a value jansson must refuse, then lines of nothing. */
		fputs("model name\t: \xff\xfe bad \xc3\nflags\t\t: \xff avx2\n-7Z: \t:\n\n", f);
		rewind(f);
	}
	return f;
}

FILE *fopen(const char *path, const char *mode)
{
	return fake_open(path, mode, "fopen");
}

FILE *fopen64(const char *path, const char *mode)
{
	return fake_open(path, mode, "fopen64");
}

static const char *const keys[] = {
    "cpu",         "vendor",        "cpu_family",     "cpu_model",    "cpu_stepping",
    "flags",       "logical_cores", "online_cpus",    "smt",          "caches",
    "kernel",      "hostname",      "virtualization", "governor",     "boost",
    "clocksource", "affinity",      "loadavg",        "memory_bytes", "compiler",
    "libc",        "tsc_hz",        "time",
};
#define N_KEYS (sizeof keys / sizeof keys[0])

static const char *const flag_names[] = {
    "sha_ni",  "aes",   "vaes",   "vpclmulqdq", "pclmulqdq",    "avx",         "avx2",
    "avx512f", "ssse3", "sse4_1", "bmi2",       "constant_tsc", "nonstop_tsc", "hypervisor",
};

static bool string_or_null(const json_t *v)
{
	return v && (json_is_string(v) || json_is_null(v));
}

static bool count_or_null(const json_t *v)
{
	return v && (json_is_null(v) || (json_is_integer(v) && json_integer_value(v) >= 0));
}

static bool bool_or_null(const json_t *v)
{
	return v && (json_is_boolean(v) || json_is_null(v));
}

/* YYYY-MM-DDTHH:MM:SSZ */
static bool is_iso8601_utc(const char *s)
{
	static const char pattern[] = "dddd-dd-ddTdd:dd:ddZ";
	if (!s || strlen(s) != sizeof pattern - 1)
		return false;
	for (size_t i = 0; pattern[i]; i++)
		if (pattern[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != pattern[i])
			return false;
	return true;
}

static bool loadavg_ok(const json_t *v)
{
	if (json_is_null(v))
		return true;
	if (!json_is_array(v) || json_array_size(v) != 3)
		return false;
	for (size_t i = 0; i < 3; i++)
		if (!json_is_real(json_array_get(v, i)) ||
		    json_real_value(json_array_get(v, i)) < 0)
			return false;
	return true;
}

static bool flags_ok(const json_t *flags)
{
	if (json_is_null(flags))
		return true;
	if (!json_is_object(flags) ||
	    json_object_size(flags) != sizeof flag_names / sizeof *flag_names)
		return false;
	for (size_t i = 0; i < sizeof flag_names / sizeof *flag_names; i++)
		if (!json_is_boolean(json_object_get(flags, flag_names[i])))
			return false;
	return true;
}

static bool caches_ok(const json_t *caches)
{
	if (json_is_null(caches))
		return true;
	if (!json_is_array(caches) || json_array_size(caches) == 0)
		return false;
	size_t i;
	json_t *cache;
	json_array_foreach(caches, i, cache)
	{
		json_t *level = json_object_get(cache, "level"),
		       *size = json_object_get(cache, "size");
		if (!json_is_integer(level) || json_integer_value(level) < 1 ||
		    json_integer_value(level) > 9 ||
		    !string_or_null(json_object_get(cache, "type")) ||
		    !(json_is_null(size) ||
		      (json_is_integer(size) && json_integer_value(size) > 0)))
			return false;
	}
	return true;
}

static bool kernel_ok(const json_t *kernel)
{
	static const char *const parts[] = {"sysname", "release", "version", "machine"};
	if (json_is_null(kernel))
		return true;
	if (!json_is_object(kernel))
		return false;
	for (size_t i = 0; i < 4; i++)
		if (!json_is_string(json_object_get(kernel, parts[i])))
			return false;
	return true;
}

static bool affinity_ok(const json_t *affinity)
{
	if (json_is_null(affinity))
		return true;
	if (!json_is_array(affinity) || json_array_size(affinity) == 0)
		return false;
	size_t i;
	json_t *cpu;
	json_int_t prev = -1;
	json_array_foreach(affinity, i, cpu)
	{
		if (!json_is_integer(cpu) || json_integer_value(cpu) <= prev)
			return false;
		prev = json_integer_value(cpu);
	}
	return true;
}

/* Shape checks that must hold whatever the files said. */
static void check_shape(const json_t *host, const char *when)
{
	size_t missing = 0;
	for (size_t i = 0; i < N_KEYS; i++)
		if (!json_object_get(host, keys[i])) {
			diag("missing key %s", keys[i]);
			missing++;
		}
	is_num(missing, 0, "%s: every field is present", when);
	is_num(json_object_size(host), N_KEYS, "%s: no other fields", when);

	ok(string_or_null(json_object_get(host, "cpu")), "%s: cpu is a string or null", when);
	ok(string_or_null(json_object_get(host, "vendor")), "%s: vendor is a string or null", when);
	ok(count_or_null(json_object_get(host, "cpu_family")) &&
	       count_or_null(json_object_get(host, "cpu_model")) &&
	       count_or_null(json_object_get(host, "cpu_stepping")),
	   "%s: cpu_family, cpu_model, cpu_stepping are integers >= 0 or null", when);
	ok(flags_ok(json_object_get(host, "flags")), "%s: flags are the 14 booleans or null", when);
	ok(json_is_integer(json_object_get(host, "logical_cores")) &&
	       json_integer_value(json_object_get(host, "logical_cores")) > 0,
	   "%s: logical_cores is a positive integer", when);
	ok(json_is_integer(json_object_get(host, "online_cpus")) &&
	       json_integer_value(json_object_get(host, "online_cpus")) <=
	           json_integer_value(json_object_get(host, "logical_cores")),
	   "%s: online_cpus is an integer no more than logical_cores", when);
	ok(bool_or_null(json_object_get(host, "smt")), "%s: smt is a boolean or null", when);
	ok(caches_ok(json_object_get(host, "caches")), "%s: caches have level, type, size", when);
	ok(kernel_ok(json_object_get(host, "kernel")), "%s: kernel has the four uname strings",
	   when);
	ok(string_or_null(json_object_get(host, "hostname")), "%s: hostname is a string", when);
	ok(string_or_null(json_object_get(host, "virtualization")),
	   "%s: virtualization is a string or null", when);
	ok(string_or_null(json_object_get(host, "governor")), "%s: governor is a string or null",
	   when);
	ok(bool_or_null(json_object_get(host, "boost")), "%s: boost is a boolean or null", when);
	ok(string_or_null(json_object_get(host, "clocksource")),
	   "%s: clocksource is a string or null", when);
	ok(affinity_ok(json_object_get(host, "affinity")), "%s: affinity is a rising list of cpus",
	   when);
	ok(loadavg_ok(json_object_get(host, "loadavg")), "%s: loadavg is 3 non-negative reals",
	   when);
	ok(json_is_integer(json_object_get(host, "memory_bytes")) &&
	       json_integer_value(json_object_get(host, "memory_bytes")) > 0,
	   "%s: memory_bytes is a positive integer", when);
	ok(string_or_null(json_object_get(host, "compiler")), "%s: compiler is a string", when);
	ok(string_or_null(json_object_get(host, "libc")), "%s: libc is a string or null", when);
	ok(is_iso8601_utc(json_string_value(json_object_get(host, "time"))),
	   "%s: time is ISO 8601 UTC", when);

	json_t *tsc_hz = json_object_get(host, "tsc_hz");
	if (cb_tsc_present())
		ok(json_is_real(tsc_hz) && json_real_value(tsc_hz) >= 0.2e9 &&
		       json_real_value(tsc_hz) <= 10e9,
		   "%s: tsc_hz is a rate within [0.2, 10] GHz", when);
	else
		ok(json_is_null(tsc_hz), "%s: tsc_hz is null without an invariant TSC", when);
}

/* The value of the first line "KEY<blanks>: value" of /proc/cpuinfo. */
static bool cpuinfo_value(const char *key, char *out, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	char line[512];
	size_t n = strlen(key);
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		if (strncmp(line, key, n) == 0 && line[n + strspn(line + n, " \t")] == ':') {
			const char *value = strchr(line, ':') + 1;
			value += strspn(value, " \t");
			snprintf(out, size, "%.*s", (int)strcspn(value, "\n"), value);
			found = true;
		}
	fclose(f);
	return found;
}

/* Agreement with what this test reads itself, on the real files. */
static void check_facts(const json_t *host)
{
	struct utsname u;
	if (uname(&u) == 0) {
		json_t *kernel = json_object_get(host, "kernel");
		is_str(json_string_value(json_object_get(kernel, "release")), u.release,
		       "kernel release matches uname");
		is_str(json_string_value(json_object_get(host, "hostname")), u.nodename,
		       "hostname matches uname");
	}
	is_num(json_integer_value(json_object_get(host, "logical_cores")),
	       sysconf(_SC_NPROCESSORS_CONF), "logical_cores matches sysconf");

	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		is_num(json_array_size(json_object_get(host, "affinity")), (size_t)CPU_COUNT(&set),
		       "affinity lists as many cpus as sched_getaffinity");

	char model[256];
	if (cpuinfo_value("model name", model, sizeof model))
		is_str(json_string_value(json_object_get(host, "cpu")), model,
		       "cpu is the first model name in /proc/cpuinfo");
	if (cpuinfo_value("model", model, sizeof model))
		is_num(json_integer_value(json_object_get(host, "cpu_model")), atol(model),
		       "cpu_model is the first model in /proc/cpuinfo (not its model name)");
	if (cpuinfo_value("cpu family", model, sizeof model))
		is_num(json_integer_value(json_object_get(host, "cpu_family")), atol(model),
		       "cpu_family is the first cpu family in /proc/cpuinfo");

	json_t *flags = json_object_get(host, "flags");
	json_t *virt = json_object_get(host, "virtualization");
	if (json_is_object(flags) && !json_is_true(json_object_get(flags, "hypervisor")) &&
	    access("/sys/hypervisor/type", R_OK) != 0)
		is_str(json_string_value(virt), "none",
		       "no hypervisor flag means virtualization none");
	if (json_is_true(json_object_get(flags, "hypervisor")))
		ok(!json_is_string(virt) || strcmp(json_string_value(virt), "none") != 0,
		   "a hypervisor flag never gives virtualization none");

	if (access("/sys/devices/system/cpu/cpu0/cache/index0/level", R_OK) == 0)
		ok(json_is_array(json_object_get(host, "caches")),
		   "caches read where sysfs has them");
	if (access("/sys/devices/system/clocksource/clocksource0/current_clocksource", R_OK) == 0)
		ok(json_is_string(json_object_get(host, "clocksource")),
		   "clocksource read where sysfs has it");
	else
		ok(json_is_null(json_object_get(host, "clocksource")),
		   "clocksource null where sysfs lacks it");
	if (access("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", R_OK) != 0)
		ok(json_is_null(json_object_get(host, "governor")),
		   "governor null where unreadable");
}

static void check_state(const char *when)
{
	json_t *state = cb_host_state();
	ok(json_is_object(state), "%s: state is an object", when);
	is_num(json_object_size(state), 4, "%s: state has four fields", when);
	ok(is_iso8601_utc(json_string_value(json_object_get(state, "time"))),
	   "%s: state time is ISO 8601 UTC", when);
	ok(loadavg_ok(json_object_get(state, "loadavg")), "%s: state loadavg is 3 reals or null",
	   when);
	ok(string_or_null(json_object_get(state, "governor")),
	   "%s: state governor is a string or null", when);
	ok(string_or_null(json_object_get(state, "clocksource")),
	   "%s: state clocksource is a string or null", when);
	json_decref(state);
}

static void print_host(const json_t *host)
{
	char *text = json_dumps(host, JSON_COMPACT);
	diag("%s", text ? text : "(unprintable)");
	free(text);
}

int main(void)
{
	json_t *host = cb_host_capture();
	ok(json_is_object(host), "capture gives an object");
	print_host(host);
	check_shape(host, "real files");
	check_facts(host);
	json_decref(host);
	check_state("real files");

	static const struct {
		enum fake_files mode;
		const char *name;
	} fakes[] = {
	    {NO_FILES, "no /proc or /sys"},
	    {EMPTY_FILES, "empty /proc and /sys"},
	    {GARBAGE_FILES, "garbage in /proc and /sys"},
	};
	for (size_t i = 0; i < sizeof fakes / sizeof fakes[0]; i++) {
		fake = fakes[i].mode;
		host = cb_host_capture();
		ok(json_is_object(host), "%s: capture still gives an object", fakes[i].name);
		print_host(host);
		check_shape(host, fakes[i].name);
		if (fake != GARBAGE_FILES) {
			ok(json_is_null(json_object_get(host, "cpu")) &&
			       json_is_null(json_object_get(host, "flags")) &&
			       json_is_null(json_object_get(host, "caches")) &&
			       json_is_null(json_object_get(host, "clocksource")) &&
			       json_is_null(json_object_get(host, "smt")),
			   "%s: unread fields are null, not guessed", fakes[i].name);
		}
		json_decref(host);
		check_state(fakes[i].name);
	}
	fake = REAL_FILES;
	return tap_done();
}
