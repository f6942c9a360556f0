/* memory.h: reading the code of a running process. */
#ifndef CB_PROFILE_MEMORY_H
#define CB_PROFILE_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Copy up to LEN bytes (at most 1 MiB) at ADDR of process PID (0: this process) into BUF
 * with process_vm_readv, or /proc/PID/mem when that is refused. Returns the
 * bytes copied, short when the mapping ends first, or -1 (errno set) when
 * not even the first byte is readable. */
ssize_t cb_memory_read(pid_t pid, uint64_t addr, void *buf, size_t len);

#endif
