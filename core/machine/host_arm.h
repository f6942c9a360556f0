/* host_arm.h: the AArch64 part of the host record.
 *
 * An AArch64 processor names itself by its MIDR fields (implementer, part,
 * variant, revision), which Linux prints in /proc/cpuinfo, and its features
 * by the auxiliary vector's HWCAP words (getauxval). The decoding below is
 * plain data and compiles on every architecture, so the x86-64 tests check
 * it too; only cb_host_arm_fill reads the live values, on AArch64. */
#ifndef CB_HOST_ARM_H
#define CB_HOST_ARM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The processor's MIDR fields as /proc/cpuinfo gives them; -1 where absent. */
struct cb_midr {
	int implementer;  /* "CPU implementer": 0x41 Arm, 0x51 Qualcomm, ... */
	int architecture; /* "CPU architecture": 8 */
	int variant;      /* "CPU variant": the major revision, rN */
	int part;         /* "CPU part": the core within the implementer's list */
	int revision;     /* "CPU revision": the minor revision, pN */
};

/* The first processor's MIDR fields from F, a /proc/cpuinfo. Returns true
 * when F has the implementer and the part. *FOREIGN is set when the block
 * is another architecture's (an x86 "vendor_id" line): what a program under
 * qemu-user reads, since the emulator passes the host's file through. */
bool cb_host_arm_midr_read(FILE *f, struct cb_midr *midr, bool *foreign);

/* The implementer's name ("Arm", "Qualcomm", "Apple", "Ampere", ...), or
 * NULL when the number is not in the table. */
const char *cb_host_arm_vendor(int implementer);
/* The core's name ("Neoverse-N1", "Cortex-A72", "Oryon", ...), or NULL. */
const char *cb_host_arm_core(int implementer, int part);

/* The features of interest (asimd, aes, pmull, sha1, sha2, sha3, sha512,
 * sm3, sm4, crc32, sve, sve2, sveaes, svepmull), each true or false, named
 * as the kernel's "Features" line names them, from the AT_HWCAP and
 * AT_HWCAP2 words. New reference. */
json_t *cb_host_arm_flags(uint64_t hwcap, uint64_t hwcap2);
/* The number of features cb_host_arm_flags names. */
size_t cb_host_arm_n_flags(void);

/* The flags of the processor this runs on (getauxval). Only built into
 * AArch64 programs. New reference. */
json_t *cb_host_arm_live_flags(void);

/* Fill HOST's cpu, vendor, cpu_family (the implementer), cpu_model (the
 * part), cpu_stepping (variant * 16 + revision), flags and virtualization
 * for the AArch64 processor this runs on; a field that cannot be read is
 * null. Only built into AArch64 programs. */
void cb_host_arm_fill(json_t *host);

#endif
