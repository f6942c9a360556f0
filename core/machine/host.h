/* host.h: the machine a run measured, recorded at the start and the end. */
#ifndef CB_HOST_H
#define CB_HOST_H

#include <jansson.h>

/* A JSON object describing the host: cpu model, flags of interest (sha_ni,
 * aes, vaes, vpclmulqdq, avx2, avx512f, ...; on AArch64 asimd, aes, pmull,
 * sha2, sha512, sve, ...: core/host_arm.h), logical cores, caches, kernel,
 * virtualisation, governor and boost where readable, SMT, clock source,
 * affinity, load average, compiler. Fields that cannot be read are absent or
 * null, never guessed. New reference. */
json_t *cb_host_capture(void);

/* The processor's architecture as this program was built for it: "x86_64",
 * "aarch64", or "other". */
const char *cb_host_arch(void);

/* The flags object of cb_host_capture alone: the features of interest, each
 * true or false (x86-64: from /proc/cpuinfo's flags; AArch64: from HWCAP),
 * or NULL where they cannot be read. For scenarios to choose by. New
 * reference. */
json_t *cb_host_features(void);

/* The parts that change during a run (load average, governor, clock
 * source, time), for the end line. New reference. */
json_t *cb_host_state(void);

#endif
