/* memory.c: reading the code of a running process. */
#include "core/profile/memory.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

#define PAGE 4096u
#define MAX_PAGES 256u

/* A transfer stops at the first remote element that faults, never inside
 * one: one element per page keeps what precedes the end of a mapping. */
static ssize_t read_vm(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = {.iov_base = buf, .iov_len = len};
	struct iovec remote[MAX_PAGES];
	size_t n = 0, done = 0;

	while (done < len && n < MAX_PAGES) {
		uint64_t at = addr + done;
		size_t piece = PAGE - (size_t)(at % PAGE);
		if (piece > len - done)
			piece = len - done;
		remote[n].iov_base = (void *)(uintptr_t)at;
		remote[n++].iov_len = piece;
		done += piece;
	}
	local.iov_len = done;
	return process_vm_readv(pid, &local, 1, remote, n, 0);
}

static ssize_t read_proc_mem(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = pread(fd, buf, len, (off_t)addr);
	close(fd);
	return n;
}

ssize_t cb_memory_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	ssize_t n;

	if (pid == 0)
		pid = getpid();
	n = read_vm(pid, addr, buf, len);
	if (n < 0 && errno != EFAULT)
		n = read_proc_mem(pid, addr, buf, len);
	return n == 0 && len > 0 ? (errno = EFAULT, -1) : n;
}
