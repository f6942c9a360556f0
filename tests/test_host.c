/* test_host.c: the host description has every field, each of the right type,
 * agrees with what the test can read itself, and survives /proc and /sys
 * being absent or holding nonsense.
 *
 * The last part replaces fopen for this program: host.c reads every file
 * through it, so /proc and /sys paths can be made to vanish or to return
 * garbage without a container or root. */
#include "core/machine/clock.h"
#include "core/machine/host.h"
#include "core/machine/host_arm.h"
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

#if defined(__aarch64__)
#define ARM64 1
#else
#define ARM64 0
#endif

static const char *const keys[] = {
    "cpu",         "vendor",        "cpu_family",     "cpu_model",    "cpu_stepping",
    "flags",       "logical_cores", "online_cpus",    "smt",          "caches",
    "kernel",      "hostname",      "virtualization", "governor",     "boost",
    "clocksource", "affinity",      "loadavg",        "memory_bytes", "compiler",
    "libc",        "tsc_hz",        "time",
};
#define N_KEYS (sizeof keys / sizeof keys[0])

#if defined(__aarch64__)
static const char *const flag_names[] = {
    "asimd", "aes", "pmull",  "sha1", "sha2", "crc32",  "sha3",
    "sm3",   "sm4", "sha512", "sve",  "sve2", "sveaes", "svepmull",
};
#define MIN_TSC_HZ 1e6 /* the generic timer: what the board chose */
#else
static const char *const flag_names[] = {
    "sha_ni",  "aes",   "vaes",   "vpclmulqdq", "pclmulqdq",    "avx",         "avx2",
    "avx512f", "ssse3", "sse4_1", "bmi2",       "constant_tsc", "nonstop_tsc", "hypervisor",
};
#define MIN_TSC_HZ 0.2e9
#endif

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
		ok(json_is_real(tsc_hz) && json_real_value(tsc_hz) >= MIN_TSC_HZ &&
		       json_real_value(tsc_hz) <= 10e9,
		   "%s: tsc_hz is a rate within [%g, 10] GHz", when, MIN_TSC_HZ / 1e9);
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
#if defined(__aarch64__)
	/* The processor is read from its MIDR, the flags from HWCAP, whatever
	 * /proc/cpuinfo holds (under qemu-user: the host's x86 file). */
	is_str(json_string_value(json_object_get(json_object_get(host, "kernel"), "machine")),
	       "aarch64", "kernel.machine is aarch64");
	ok(json_is_object(json_object_get(host, "flags")), "flags read from HWCAP, an object");
	if (cpuinfo_value("vendor_id", model, sizeof model))
		is_str(json_string_value(json_object_get(host, "virtualization")), "qemu-user",
		       "an x86 /proc/cpuinfo under an AArch64 program: virtualization qemu-user");
#else
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
#endif

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

/* The AArch64 decoding is data: checked here on every architecture. */
static void check_arm64_tables(void)
{
	/* A Graviton 2's first block (Neoverse-N1 r3p1), then an x86 file as
	 * qemu-user passes it through. */
	static const char arm[] = "processor\t: 0\nBogoMIPS\t: 243.75\n"
	                          "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\n"
	                          "CPU implementer\t: 0x41\nCPU architecture: 8\n"
	                          "CPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
	                          "processor\t: 1\nCPU implementer\t: 0x51\n";
	static const char x86[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
	                          "model name\t: AMD EPYC\nflags\t\t: fpu sha_ni\n\n";
	struct cb_midr m;
	bool foreign = true;
	FILE *f = fmemopen((void *)arm, sizeof arm - 1, "r");

	ok(f && cb_host_arm_midr_read(f, &m, &foreign) && !foreign,
	   "arm64 cpuinfo: the MIDR fields are read, the file is not foreign");
	if (f)
		fclose(f);
	ok(m.implementer == 0x41 && m.architecture == 8 && m.variant == 3 && m.part == 0xd0c &&
	       m.revision == 1,
	   "...implementer 0x41, architecture 8, variant 3, part 0xd0c, revision 1 (first block)");
	is_str(cb_host_arm_vendor(m.implementer), "Arm", "implementer 0x41 is Arm");
	is_str(cb_host_arm_core(m.implementer, m.part), "Neoverse-N1", "part 0xd0c is Neoverse-N1");
	is_str(cb_host_arm_core(0x51, 0x001), "Oryon", "Qualcomm part 0x001 is Oryon");
	ok(cb_host_arm_vendor(0x00) == NULL && cb_host_arm_core(0x41, 0xfff) == NULL,
	   "an implementer or part not in the tables has no name");

	f = fmemopen((void *)x86, sizeof x86 - 1, "r");
	ok(f && !cb_host_arm_midr_read(f, &m, &foreign) && foreign && m.implementer == -1,
	   "an x86 cpuinfo: no MIDR, and foreign (what qemu-user shows)");
	if (f)
		fclose(f);

	/* asimd (bit 1), aes (3), sha2 (6), sha512 (21); sve2 (HWCAP2 bit 1). */
	json_t *flags = cb_host_arm_flags((1u << 1) | (1u << 3) | (1u << 6) | (1u << 21), 1u << 1);
	is_num(json_object_size(flags), cb_host_arm_n_flags(), "HWCAP: one boolean per feature");
	is_num(cb_host_arm_n_flags(), 14, "...of the 14 features of interest");
	ok(json_is_true(json_object_get(flags, "asimd")) &&
	       json_is_true(json_object_get(flags, "aes")) &&
	       json_is_true(json_object_get(flags, "sha2")) &&
	       json_is_true(json_object_get(flags, "sha512")) &&
	       json_is_true(json_object_get(flags, "sve2")),
	   "HWCAP bits 1, 3, 6, 21 and HWCAP2 bit 1: asimd, aes, sha2, sha512, sve2");
	ok(json_is_false(json_object_get(flags, "pmull")) &&
	       json_is_false(json_object_get(flags, "sha1")) &&
	       json_is_false(json_object_get(flags, "sve")) &&
	       json_is_false(json_object_get(flags, "sveaes")),
	   "...and the bits not set are false: pmull, sha1, sve, sveaes");
	json_decref(flags);
}

/* What a scenario chooses by (cb.host) is what the host record says. */
static void check_features(const json_t *host)
{
	json_t *features = cb_host_features();
	const char *arch = cb_host_arch();

	ok(json_equal(features, json_object_get(host, "flags")) ||
	       (features == NULL && json_is_null(json_object_get(host, "flags"))),
	   "cb_host_features is the host record's flags");
	ok(strcmp(arch, ARM64 ? "aarch64" : "x86_64") == 0 || strcmp(arch, "other") == 0,
	   "cb_host_arch names the architecture built for (%s)", arch);
	json_decref(features);
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
	check_features(host);
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
			/* AArch64 reads the processor from registers, not files. */
			ok((json_is_null(json_object_get(host, "cpu")) || ARM64) &&
			       (json_is_null(json_object_get(host, "flags")) || ARM64) &&
			       json_is_null(json_object_get(host, "caches")) &&
			       json_is_null(json_object_get(host, "clocksource")) &&
			       json_is_null(json_object_get(host, "smt")),
			   "%s: unread fields are null, not guessed", fakes[i].name);
		}
		json_decref(host);
		check_state(fakes[i].name);
	}
	fake = REAL_FILES;
	check_arm64_tables();
	return tap_done();
}
