/* python_hashlib.c: python-hashlib through hashlib (OpenSSL underneath;
 * BLAKE2 is Python's own), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). */
#include "config.h"

#include "core/engine/process.h"

CB_PROCESS_ENGINE(python_hashlib, "python-hashlib", cb_process_find_python, "hashlib");
