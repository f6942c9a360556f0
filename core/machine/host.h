/* host.h: the machine a run measured, recorded at the start and the end. */
#ifndef CB_HOST_H
#define CB_HOST_H

#include <jansson.h>

/* A JSON object describing the host: cpu model, flags of interest (sha_ni,
 * aes, vaes, vpclmulqdq, avx2, avx512f, ...), logical cores, caches, kernel,
 * virtualisation, governor and boost where readable, SMT, clock source,
 * affinity, load average, compiler. Fields that cannot be read are absent or
 * null, never guessed. New reference. */
json_t *cb_host_capture(void);

/* The parts that change during a run (load average, governor, clock
 * source, time), for the end line. New reference. */
json_t *cb_host_state(void);

#endif
