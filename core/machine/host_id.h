/* host_id.h: which machine a results file was measured on.
 *
 * A host is a machine, not a hostname: many VMs are all called "vm" or
 * "localhost". Its identity is read from the header's host object
 * (host.h): the name (the one given with `run --host`, else the hostname),
 * the CPU model string, its family, model and stepping, the logical cores,
 * the memory rounded to the nearest GiB (the kernel's total moves by a few
 * MiB with its version and reservations) and the kernel release. Two
 * headers are one host when every one of these fields that both record
 * agrees: a file older than a field still finds its host by the others. */
#ifndef CB_HOST_ID_H
#define CB_HOST_ID_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* HOST's name: its name_given, else its hostname; "?" when it has neither.
 * Owned by HOST. */
const char *cb_host_id_name(const json_t *host);

/* Whether the host objects A and B are one machine (above). */
bool cb_host_id_same(const json_t *a, const json_t *b);

/* HOST's identity as text, its fields joined by " | " in the order above,
 * "?" for a field it lacks ("vm | AMD EPYC | 25/1/1 | 2 cores | 24 GiB |
 * 6.18.44"). Truncated to LEN. */
void cb_host_id_key(const json_t *host, char *buf, size_t len);

/* HOST's CPU model for a label: the model string without its clock
 * ("@ 2.40GHz"), a trailing "CPU" or "N-Core Processor", and runs of
 * blanks; "?" when it has none. */
void cb_host_id_cpu_short(const json_t *host, char *buf, size_t len);

#endif
