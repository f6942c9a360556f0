/* host.c: the machine a run measured, read from /proc, /sys, uname and CPUID
 * (on AArch64, the processor and its features from host_arm.c).
 *
 * Every source may be missing (containers, VMs, other architectures): a field
 * that cannot be read is null, never a default that looks like a reading. */
#include "core/machine/host.h"

#include "core/machine/clock.h"
#include "core/machine/host_arm.h"

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define SYS_CPU "/sys/devices/system/cpu"

static json_t *or_null(json_t *value)
{
	return value ? value : json_null();
}

/* The first line of a small file, without its newline; false when the file
 * cannot be read or is empty. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool got = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!got)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] != '\0';
}

static json_t *file_string(const char *path)
{
	char buf[256];
	return read_line(path, buf, sizeof buf) ? json_string(buf) : NULL;
}

/* A sysfs switch: "1" true, "0" false, anything else unreadable. */
static json_t *file_bool(const char *path, bool invert)
{
	char buf[16];
	if (!read_line(path, buf, sizeof buf) || (strcmp(buf, "0") != 0 && strcmp(buf, "1") != 0))
		return NULL;
	return json_boolean((buf[0] == '1') != invert);
}

/* ---- /proc/cpuinfo ---- */

struct cpuinfo {
	char *model;
	char *vendor;
	char *flags;                            /* space-separated, as the kernel lists them */
	char *family, *model_number, *stepping; /* "cpu family", "model", "stepping" */
};

static char *field_value(const char *line)
{
	const char *colon = strchr(line, ':');
	if (!colon)
		return NULL;
	colon++;
	colon += strspn(colon, " \t");
	char *value = strdup(colon);
	if (value)
		value[strcspn(value, "\n")] = '\0';
	return value;
}

/* LINE is "KEY<blanks>: ...": the whole key, so "model" is not "model name". */
static bool key_is(const char *line, const char *key)
{
	size_t n = strlen(key);
	return strncmp(line, key, n) == 0 && line[n + strspn(line + n, " \t")] == ':';
}

/* Only the first processor's block: the fields are the same for all of them
 * on the machines this runs on, and the flags line alone is ~1.5 kB each. */
static void cpuinfo_read(struct cpuinfo *ci)
{
	memset(ci, 0, sizeof *ci);
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0 && line[0] != '\n') {
		if (!ci->model && key_is(line, "model name"))
			ci->model = field_value(line);
		else if (!ci->vendor && key_is(line, "vendor_id"))
			ci->vendor = field_value(line);
		else if (!ci->flags && key_is(line, "flags"))
			ci->flags = field_value(line);
		else if (!ci->family && key_is(line, "cpu family"))
			ci->family = field_value(line);
		else if (!ci->model_number && key_is(line, "model"))
			ci->model_number = field_value(line);
		else if (!ci->stepping && key_is(line, "stepping"))
			ci->stepping = field_value(line);
	}
	free(line);
	fclose(f);
}

static void cpuinfo_free(struct cpuinfo *ci)
{
	free(ci->model);
	free(ci->vendor);
	free(ci->flags);
	free(ci->family);
	free(ci->model_number);
	free(ci->stepping);
}

/* A decimal field of /proc/cpuinfo ("cpu family: 25"), or NULL. */
static json_t *cpuinfo_number(const char *text)
{
	char *end;
	long n;

	if (!text || text[0] < '0' || text[0] > '9')
		return NULL;
	n = strtol(text, &end, 10);
	return *end == '\0' ? json_integer(n) : NULL;
}

static bool has_flag(const char *flags, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = flags; (p = strstr(p, name)) != NULL; p += n) {
		bool starts = p == flags || p[-1] == ' ';
		bool ends = p[n] == '\0' || p[n] == ' ';
		if (starts && ends)
			return true;
	}
	return false;
}

static const char *const flags_of_interest[] = {
    "sha_ni",  "aes",   "vaes",   "vpclmulqdq", "pclmulqdq",    "avx",         "avx2",
    "avx512f", "ssse3", "sse4_1", "bmi2",       "constant_tsc", "nonstop_tsc", "hypervisor",
};

static json_t *flags_object(const char *flags)
{
	if (!flags)
		return NULL;
	json_t *obj = json_object();
	for (size_t i = 0; obj && i < sizeof flags_of_interest / sizeof flags_of_interest[0]; i++)
		json_object_set_new(obj, flags_of_interest[i],
		                    json_boolean(has_flag(flags, flags_of_interest[i])));
	return obj;
}

/* ---- Caches ---- */

/* sysfs writes sizes as "32K", "1024K", "32768K". */
static json_t *cache_size(const char *text)
{
	char *end;
	if (text[0] < '0' || text[0] > '9')
		return NULL;
	unsigned long long n = strtoull(text, &end, 10);
	switch (*end) {
	case 'K':
		n <<= 10;
		break;
	case 'M':
		n <<= 20;
		break;
	case 'G':
		n <<= 30;
		break;
	case '\0':
		break;
	default:
		return NULL;
	}
	return json_integer((json_int_t)n);
}

#define MAX_CACHE_INDEX 16

static json_t *caches_array(void)
{
	json_t *list = json_array();
	for (int i = 0; list && i < MAX_CACHE_INDEX; i++) {
		char path[128], level[16], type[32], size[32];
		snprintf(path, sizeof path, SYS_CPU "/cpu0/cache/index%d/level", i);
		if (!read_line(path, level, sizeof level) || level[0] < '1' || level[0] > '9' ||
		    level[1] != '\0')
			continue; /* no level, no way to tell which cache this is */
		snprintf(path, sizeof path, SYS_CPU "/cpu0/cache/index%d/type", i);
		json_t *type_value = read_line(path, type, sizeof type) ? json_string(type) : NULL;
		snprintf(path, sizeof path, SYS_CPU "/cpu0/cache/index%d/size", i);
		json_t *size_value = read_line(path, size, sizeof size) ? cache_size(size) : NULL;

		json_t *cache = json_object();
		json_object_set_new(cache, "level", json_integer(level[0] - '0'));
		json_object_set_new(cache, "type", or_null(type_value));
		json_object_set_new(cache, "size", or_null(size_value));
		json_array_append_new(list, cache);
	}
	if (list && json_array_size(list) == 0) {
		json_decref(list);
		return NULL;
	}
	return list;
}

/* ---- Virtualisation ---- */

#if defined(__x86_64__)
/* The hypervisor's CPUID signature (leaf 0x40000000), which KVM guests such
 * as Firecracker's expose even when /sys/hypervisor and DMI are absent. */
static json_t *hypervisor_signature(void)
{
	static const struct {
		const char *signature;
		const char *name;
	} known[] = {
	    {"KVMKVMKVM", "kvm"},     {"Microsoft Hv", "hyperv"},    {"VMwareVMware", "vmware"},
	    {"XenVMMXenVMM", "xen"},  {"TCGTCGTCGTCG", "qemu-tcg"},  {"bhyve bhyve ", "bhyve"},
	    {"ACRNACRNACRN", "acrn"}, {" lrpepyh  vr", "parallels"},
	};
	unsigned int eax, regs[3];
	__cpuid(0x40000000u, eax, regs[0], regs[1], regs[2]);
	char signature[13];
	memcpy(signature, regs, 12);
	signature[12] = '\0';
	if (signature[0] == '\0')
		return NULL;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(signature, known[i].signature) == 0)
			return json_string(known[i].name);
	return json_string(signature);
}
#endif

static json_t *virtualization(const char *flags)
{
	json_t *name = file_string("/sys/hypervisor/type");
	if (name)
		return name;
	if (!flags)
		return NULL; /* no flags to say whether there is a hypervisor */
	if (!has_flag(flags, "hypervisor"))
		return json_string("none");
#if defined(__x86_64__)
	if ((name = hypervisor_signature()))
		return name;
#endif
	return file_string("/sys/class/dmi/id/product_name");
}

/* ---- Scheduling and time ---- */

static json_t *affinity_array(void)
{
	long configured = sysconf(_SC_NPROCESSORS_CONF);
	int ncpus = configured > 1024 ? (int)configured : 1024;
	cpu_set_t *set = CPU_ALLOC(ncpus);
	if (!set)
		return NULL;
	size_t size = CPU_ALLOC_SIZE(ncpus);
	json_t *list = NULL;
	if (sched_getaffinity(0, size, set) == 0 && (list = json_array()))
		for (int cpu = 0; cpu < ncpus; cpu++)
			if (CPU_ISSET_S(cpu, size, set))
				json_array_append_new(list, json_integer(cpu));
	CPU_FREE(set);
	return list;
}

static json_t *loadavg_array(void)
{
	double load[3];
	if (getloadavg(load, 3) != 3)
		return NULL;
	return json_pack("[fff]", load[0], load[1], load[2]);
}

static json_t *utc_now(void)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[32];
	if (!gmtime_r(&now, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return json_string(buf);
}

static json_t *governor(void)
{
	return file_string(SYS_CPU "/cpu0/cpufreq/scaling_governor");
}

static json_t *clocksource(void)
{
	return file_string("/sys/devices/system/clocksource/clocksource0/current_clocksource");
}

/* acpi-cpufreq and amd-pstate expose boost; intel_pstate says no_turbo. */
static json_t *boost(void)
{
	json_t *on = file_bool(SYS_CPU "/cpufreq/boost", false);
	return on ? on : file_bool(SYS_CPU "/intel_pstate/no_turbo", true);
}

/* ---- Capture ---- */

static json_t *kernel_object(const struct utsname *u)
{
	return json_pack("{ssssssss}", "sysname", u->sysname, "release", u->release, "version",
	                 u->version, "machine", u->machine);
}

static json_t *memory_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page_size <= 0)
		return NULL;
	return json_integer((json_int_t)pages * page_size);
}

static json_t *compiler(void)
{
#if defined(__clang__)
	return json_string(__VERSION__); /* already names clang */
#elif defined(__GNUC__)
	return json_string("gcc " __VERSION__);
#else
	return NULL;
#endif
}

static json_t *libc(void)
{
#if defined(__GLIBC__)
	char buf[64];
	snprintf(buf, sizeof buf, "glibc %s", gnu_get_libc_version());
	return json_string(buf);
#else
	return NULL;
#endif
}

static json_t *cpu_count(int name)
{
	long n = sysconf(name);
	return n > 0 ? json_integer(n) : NULL;
}

json_t *cb_host_capture(void)
{
	json_t *host = json_object();
	if (!host)
		return NULL;

	struct cpuinfo ci;
	cpuinfo_read(&ci);
	struct utsname u;
	bool have_uname = uname(&u) == 0;

	struct {
		const char *key;
		json_t *value;
	} fields[] = {
	    {"cpu", ci.model ? json_string(ci.model) : NULL},
	    {"vendor", ci.vendor ? json_string(ci.vendor) : NULL},
	    {"cpu_family", cpuinfo_number(ci.family)},
	    {"cpu_model", cpuinfo_number(ci.model_number)},
	    {"cpu_stepping", cpuinfo_number(ci.stepping)},
	    {"flags", flags_object(ci.flags)},
	    {"logical_cores", cpu_count(_SC_NPROCESSORS_CONF)},
	    {"online_cpus", cpu_count(_SC_NPROCESSORS_ONLN)},
	    {"smt", file_bool(SYS_CPU "/smt/active", false)},
	    {"caches", caches_array()},
	    {"kernel", have_uname ? kernel_object(&u) : NULL},
	    {"hostname", have_uname ? json_string(u.nodename) : NULL},
	    {"virtualization", virtualization(ci.flags)},
	    {"governor", governor()},
	    {"boost", boost()},
	    {"clocksource", clocksource()},
	    {"affinity", affinity_array()},
	    {"loadavg", loadavg_array()},
	    {"memory_bytes", memory_bytes()},
	    {"compiler", compiler()},
	    {"libc", libc()},
	    {"tsc_hz", cb_tsc_present() ? json_real(cb_tsc_hz()) : NULL},
	    {"time", utc_now()},
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		json_object_set_new(host, fields[i].key, or_null(fields[i].value));
#if defined(__aarch64__)
	cb_host_arm_fill(host); /* the processor by MIDR, the features by HWCAP */
#endif

	cpuinfo_free(&ci);
	return host;
}

const char *cb_host_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__aarch64__)
	return "aarch64";
#else
	return "other";
#endif
}

json_t *cb_host_features(void)
{
#if defined(__aarch64__)
	return cb_host_arm_live_flags();
#else
	struct cpuinfo ci;
	cpuinfo_read(&ci);
	json_t *flags = flags_object(ci.flags);
	cpuinfo_free(&ci);
	return flags;
#endif
}

json_t *cb_host_state(void)
{
	json_t *state = json_object();
	if (!state)
		return NULL;
	json_object_set_new(state, "time", or_null(utc_now()));
	json_object_set_new(state, "loadavg", or_null(loadavg_array()));
	json_object_set_new(state, "governor", or_null(governor()));
	json_object_set_new(state, "clocksource", or_null(clocksource()));
	return state;
}
