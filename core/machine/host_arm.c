/* host_arm.c: the AArch64 processor and its features for the host record. */
#include "core/machine/host_arm.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* ---- Names ---- */

static const struct {
	int implementer;
	const char *name;
} vendors[] = {
    {0x41, "Arm"},       {0x42, "Broadcom"},  {0x43, "Cavium"}, {0x46, "Fujitsu"},
    {0x48, "HiSilicon"}, {0x4e, "NVIDIA"},    {0x50, "APM"},    {0x51, "Qualcomm"},
    {0x61, "Apple"},     {0x6d, "Microsoft"}, {0xc0, "Ampere"},
};

/* Implementer 0 is reserved for software use: no silicon has it, an
 * emulator's model CPU may (cb_host_arm_fill). */

/* The cores people run this on: the clouds' (Graviton 2, 3 and 4 are
 * Neoverse N1, V1 and V2), the boards' (Raspberry Pi 4 and 5: Cortex-A72 and
 * A76), the laptops' (Snapdragon X: Oryon; Apple M1 and M2). */
static const struct {
	int implementer, part;
	const char *name;
} cores[] = {
    {0x41, 0xd03, "Cortex-A53"},   {0x41, 0xd04, "Cortex-A35"},   {0x41, 0xd05, "Cortex-A55"},
    {0x41, 0xd07, "Cortex-A57"},   {0x41, 0xd08, "Cortex-A72"},   {0x41, 0xd09, "Cortex-A73"},
    {0x41, 0xd0a, "Cortex-A75"},   {0x41, 0xd0b, "Cortex-A76"},   {0x41, 0xd0c, "Neoverse-N1"},
    {0x41, 0xd0d, "Cortex-A77"},   {0x41, 0xd40, "Neoverse-V1"},  {0x41, 0xd41, "Cortex-A78"},
    {0x41, 0xd44, "Cortex-X1"},    {0x41, 0xd46, "Cortex-A510"},  {0x41, 0xd47, "Cortex-A710"},
    {0x41, 0xd48, "Cortex-X2"},    {0x41, 0xd49, "Neoverse-N2"},  {0x41, 0xd4f, "Neoverse-V2"},
    {0x41, 0xd80, "Cortex-A520"},  {0x41, 0xd81, "Cortex-A720"},  {0x41, 0xd82, "Cortex-X4"},
    {0x41, 0xd84, "Neoverse-V3"},  {0x41, 0xd8e, "Neoverse-N3"},  {0x51, 0x001, "Oryon"},
    {0x61, 0x022, "M1 Icestorm"},  {0x61, 0x023, "M1 Firestorm"}, {0x61, 0x032, "M2 Blizzard"},
    {0x61, 0x033, "M2 Avalanche"}, {0xc0, 0xac3, "AmpereOne"},
};

const char *cb_host_arm_vendor(int implementer)
{
	for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
		if (vendors[i].implementer == implementer)
			return vendors[i].name;
	return NULL;
}

const char *cb_host_arm_core(int implementer, int part)
{
	for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++)
		if (cores[i].implementer == implementer && cores[i].part == part)
			return cores[i].name;
	return NULL;
}

/* ---- Features ---- */

/* Bits of AT_HWCAP (word 1) and AT_HWCAP2 (word 2), as the kernel's
 * arch/arm64/include/uapi/asm/hwcap.h numbers them; written out so that the
 * table compiles, and is tested, on every architecture. */
static const struct {
	const char *name;
	int word, bit;
} features[] = {
    {"asimd", 1, 1}, {"aes", 1, 3},   {"pmull", 1, 4},  {"sha1", 1, 5},     {"sha2", 1, 6},
    {"crc32", 1, 7}, {"sha3", 1, 17}, {"sm3", 1, 18},   {"sm4", 1, 19},     {"sha512", 1, 21},
    {"sve", 1, 22},  {"sve2", 2, 1},  {"sveaes", 2, 2}, {"svepmull", 2, 3},
};

size_t cb_host_arm_n_flags(void)
{
	return sizeof features / sizeof features[0];
}

json_t *cb_host_arm_flags(uint64_t hwcap, uint64_t hwcap2)
{
	json_t *obj = json_object();
	for (size_t i = 0; obj && i < cb_host_arm_n_flags(); i++) {
		uint64_t word = features[i].word == 1 ? hwcap : hwcap2;
		json_object_set_new(obj, features[i].name,
		                    json_boolean((word >> features[i].bit) & 1));
	}
	return obj;
}

/* ---- /proc/cpuinfo ---- */

/* LINE is "KEY<blanks>: VALUE": the number VALUE (0x.. or decimal), or -1. */
static int keyed_number(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *colon;
	char *end;

	if (strncmp(line, key, n) != 0 || line[n + strspn(line + n, " \t")] != ':')
		return -1;
	colon = strchr(line, ':') + 1;
	long value = strtol(colon, &end, 0);
	if (end == colon || value < 0 || value > 0xffff || end[strspn(end, " \t\n")] != '\0')
		return -1;
	return (int)value;
}

bool cb_host_arm_midr_read(FILE *f, struct cb_midr *midr, bool *foreign)
{
	static const struct {
		const char *key;
		size_t offset;
	} keys[] = {
	    {"CPU implementer", offsetof(struct cb_midr, implementer)},
	    {"CPU architecture", offsetof(struct cb_midr, architecture)},
	    {"CPU variant", offsetof(struct cb_midr, variant)},
	    {"CPU part", offsetof(struct cb_midr, part)},
	    {"CPU revision", offsetof(struct cb_midr, revision)},
	};
	char line[512];

	*midr = (struct cb_midr){-1, -1, -1, -1, -1};
	*foreign = false;
	/* Only the first processor's block, as host.c reads it. */
	while (fgets(line, sizeof line, f) && line[0] != '\n') {
		if (strncmp(line, "vendor_id", 9) == 0)
			*foreign = true;
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			int *field = (int *)((char *)midr + keys[k].offset);
			int value = keyed_number(line, keys[k].key);
			if (*field < 0 && value >= 0)
				*field = value;
		}
	}
	return midr->implementer >= 0 && midr->part >= 0;
}

/* ---- The live processor ---- */

#if defined(__aarch64__)
#define HWCAP_CPUID_BIT 11

/* MIDR_EL1 as the kernel emulates its read at EL0 (HWCAP_CPUID): the core
 * this thread runs on, for when /proc/cpuinfo does not say. */
static bool midr_register(struct cb_midr *midr)
{
	uint64_t value;

	if (!((getauxval(AT_HWCAP) >> HWCAP_CPUID_BIT) & 1))
		return false;
	__asm__ volatile("mrs %0, midr_el1" : "=r"(value));
	midr->implementer = (int)((value >> 24) & 0xff);
	midr->variant = (int)((value >> 20) & 0xf);
	midr->architecture = (int)((value >> 16) & 0xf);
	midr->part = (int)((value >> 4) & 0xfff);
	midr->revision = (int)(value & 0xf);
	return true;
}

static json_t *cpu_name(const struct cb_midr *m)
{
	const char *vendor = cb_host_arm_vendor(m->implementer);
	const char *core = cb_host_arm_core(m->implementer, m->part);
	char buf[96];

	if (vendor && core)
		snprintf(buf, sizeof buf, "%s %s", vendor, core);
	else if (vendor)
		snprintf(buf, sizeof buf, "%s part 0x%03x", vendor, (unsigned)m->part);
	else
		snprintf(buf, sizeof buf, "implementer 0x%02x part 0x%03x",
		         (unsigned)m->implementer, (unsigned)m->part);
	return json_string(buf);
}

static json_t *number_or_null(int value)
{
	return value >= 0 ? json_integer(value) : json_null();
}

json_t *cb_host_arm_live_flags(void)
{
	return cb_host_arm_flags(getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
}

void cb_host_arm_fill(json_t *host)
{
	struct cb_midr midr = {-1, -1, -1, -1, -1};
	bool foreign = false, known = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (f) {
		known = cb_host_arm_midr_read(f, &midr, &foreign);
		fclose(f);
	}
	if (!known)
		known = midr_register(&midr);

	const char *vendor = known ? cb_host_arm_vendor(midr.implementer) : NULL;
	json_object_set_new(host, "cpu", known ? cpu_name(&midr) : json_null());
	json_object_set_new(host, "vendor", vendor ? json_string(vendor) : json_null());
	json_object_set_new(host, "cpu_family", number_or_null(known ? midr.implementer : -1));
	json_object_set_new(host, "cpu_model", number_or_null(known ? midr.part : -1));
	json_object_set_new(host, "cpu_stepping",
	                    number_or_null(known && midr.variant >= 0 && midr.revision >= 0
	                                       ? midr.variant * 16 + midr.revision
	                                       : -1));
	json_object_set_new(host, "flags", cb_host_arm_live_flags());
	/* An AArch64 program reading an x86 /proc/cpuinfo runs under qemu-user;
	 * an implementer reserved for software is an emulator's model CPU. What
	 * else the emulator passes through (/sys: caches, governor, clock source)
	 * describes the machine underneath. */
	if (foreign)
		json_object_set_new(host, "virtualization", json_string("qemu-user"));
	else if (known && midr.implementer == 0)
		json_object_set_new(host, "virtualization", json_string("emulated"));
}
#endif
