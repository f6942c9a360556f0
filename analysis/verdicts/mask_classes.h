/* mask_classes.h: which instruction-set classes a capability mask clears,
 * read from its variables' values.
 *
 * A mask is a variant's `env`; a variable the table of mask_classes.c knows
 * (OPENSSL_ia32cap: OpenSSL's capability words, as crypto/cpuid.c reads
 * them) clears the classes whose capability bits its value clears. The
 * classes are the profiler's (cb_attribution_classes), so that the masks'
 * code join (masks.h) can look for them in the profiles. A mask may clear
 * a class the CPU never had: the bits say what the mask takes away where
 * it is present. */
#ifndef CB_MASK_CLASSES_H
#define CB_MASK_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The classes the variables of ENV (an object of strings) clear, as bits of
 * cb_attribution_classes. *KNOWN is whether some variable of ENV is one the
 * table knows; UNKNOWN gets the others' names, space-separated ("" when
 * none). */
uint32_t cb_mask_classes(json_t *env, bool *known, char *unknown, size_t len);

#endif
