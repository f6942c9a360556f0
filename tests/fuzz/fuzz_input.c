/* fuzz_input.c: each input as a file the code under test can open. */
#include "tests/fuzz/fuzz_input.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

const char *cb_fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create(suffix, 0);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0)
		return NULL;
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);

		if (n <= 0)
			return NULL;
		done += (size_t)n;
	}
	return path;
}
