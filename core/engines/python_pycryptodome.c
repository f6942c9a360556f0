/* python_pycryptodome.c: python-pycryptodome through pycryptodome (its own C
 * code), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). */
#include "config.h"

#include "core/engine/process.h"

CB_PROCESS_ENGINE(python_pycryptodome, "python-pycryptodome", cb_process_find_python,
                  "pycryptodome");
