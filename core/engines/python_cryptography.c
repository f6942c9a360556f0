/* python_cryptography.c: python-cryptography through the cryptography package
 * (its OpenSSL), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). */
#include "config.h"

#include "core/engine/process.h"

CB_PROCESS_ENGINE(python_cryptography, "python-cryptography", cb_process_find_python,
                  "cryptography");
