/* code_copy.c: builds' code run from copies this process made
 * (code_copy.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/base/file_alias.h"
#include "core/builds/code_copy.h"

#define MAX_COPIES 16

static char folder[PATH_MAX]; /* "" until the first copy */
static pid_t folder_owner;    /* a forked child removes nothing */
static char copies[MAX_COPIES][PATH_MAX];
static size_t n_copies;
static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;

void cb_code_copy_remove(void)
{
	pthread_mutex_lock(&copies_lock);
	if (folder[0] && folder_owner == getpid()) {
		for (size_t i = 0; i < n_copies; i++) {
			char *slash = strrchr(copies[i], '/');

			unlink(copies[i]);
			if (slash) {
				*slash = '\0';
				rmdir(copies[i]);
			}
		}
		rmdir(folder);
		folder[0] = '\0';
		n_copies = 0;
	}
	pthread_mutex_unlock(&copies_lock);
}

static int make_folder(char *err, size_t err_len)
{
	const char *tmp = getenv("TMPDIR");

	if (folder[0])
		return 0;
	snprintf(folder, sizeof folder, "%s/cryptobench-code.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(folder)) {
		int saved = errno;

		folder[0] = '\0';
		return cb_errorf(err, err_len,
		                 "cannot make a folder for the builds' copies in %s: %s",
		                 tmp && *tmp ? tmp : "/tmp", strerror(saved));
	}
	char real[PATH_MAX];

	/* The loader names a library by the path it was given: the real one,
	 * so that a build's bound file compares equal to its copy. */
	if (realpath(folder, real))
		snprintf(folder, sizeof folder, "%s", real);
	folder_owner = getpid();
	atexit(cb_code_copy_remove);
	return 0;
}

/* FROM's bytes into a new file TO. */
static int copy_bytes(const char *from, const char *to, char *err, size_t err_len)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1;
	ssize_t n = 0;

	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500);
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		for (ssize_t done = 0, w; done < n; done += w)
			if ((w = write(out, buf + done, (size_t)(n - done))) <= 0) {
				n = -1;
				break;
			}
	int saved = errno;

	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0 && n == 0)
		n = -1;
	if (in < 0 || out < 0 || n != 0)
		return cb_errorf(err, err_len, "%s: cannot copy it to %s: %s", from, to,
		                 strerror(saved));
	return 0;
}

int cb_code_copy(const char *file, const char *key, char *out, size_t out_len, char *err,
                 size_t err_len)
{
	const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char dir[PATH_MAX];
	int rc = -1;

	pthread_mutex_lock(&copies_lock);
	if (n_copies == MAX_COPIES)
		cb_errorf(err, err_len, "%s: more than %d copies of builds in one process", file,
		          MAX_COPIES);
	else if (make_folder(err, err_len) == 0) {
		snprintf(dir, sizeof dir, "%s/%s", folder, key);
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			cb_errorf(err, err_len, "%s: cannot make %s: %s", file, dir,
			          strerror(errno));
		else if ((size_t)snprintf(copies[n_copies], PATH_MAX, "%s/%s", dir, name) >=
		         PATH_MAX)
			cb_errorf(err, err_len, "%s: its copy's path is too long", file);
		else if (copy_bytes(file, copies[n_copies], err, err_len) == 0) {
			char real[PATH_MAX];

			/* The profile names the file as its mappings do: by its
			 * real path. */
			if (!realpath(file, real) || cb_file_alias_add(copies[n_copies], real) != 0)
				cb_errorf(err, err_len, "%s: cannot note its copy %s", file,
				          copies[n_copies]);
			else
				rc = 0;
			snprintf(out, out_len, "%s", copies[n_copies++]);
		}
	}
	pthread_mutex_unlock(&copies_lock);
	return rc;
}

struct found {
	const void *base;
	const ElfW(Phdr) * phdr;
	size_t phnum;
};

static int find_base(struct dl_phdr_info *info, size_t size, void *data)
{
	struct found *f = data;

	(void)size;
	if ((const void *)info->dlpi_addr != f->base)
		return 0;
	f->phdr = info->dlpi_phdr;
	f->phnum = info->dlpi_phnum;
	return 1;
}

/* Whether the loader wrote into the code (DT_TEXTREL, DF_TEXTREL). */
static bool text_relocated(const struct found *f)
{
	for (size_t i = 0; i < f->phnum; i++) {
		if (f->phdr[i].p_type != PT_DYNAMIC)
			continue;
		for (const ElfW(Dyn) *d = (const void *)((uintptr_t)f->base + f->phdr[i].p_vaddr);
		     d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_TEXTREL ||
			    (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL)))
				return true;
	}
	return false;
}

/* Segment PH of the library at BASE mapped again from FD, checked against
 * the bytes it replaced. */
static int remap_segment(const void *base, const ElfW(Phdr) * ph, int fd, const char *file,
                         char *err, size_t err_len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)base + ph->p_vaddr) & ~(page - 1);
	uintptr_t end = ((uintptr_t)base + ph->p_vaddr + ph->p_filesz + page - 1) & ~(page - 1);
	off_t offset = (off_t)(ph->p_offset & ~(page - 1));
	size_t len = end - start;
	void *before = malloc(len), *at;
	int rc = 0;

	if (!before)
		return cb_errorf(err, err_len, "not enough memory");
	memcpy(before, (void *)start, len);
	at = mmap((void *)start, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, offset);
	if (at == MAP_FAILED) {
		rc = cb_errorf(err, err_len, "%s: cannot map its code again: %s", file,
		               strerror(errno));
	} else if (memcmp(before, at, len) != 0) {
		/* The file changed since it was loaded: the code that ran goes
		 * back, in memory of its own. */
		rc = cb_errorf(err, err_len, "%s: the file's code is not the loaded code any more",
		               file);
		at = mmap((void *)start, len, PROT_READ | PROT_WRITE,
		          MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0);
		if (at != MAP_FAILED) {
			memcpy(at, before, len);
			mprotect(at, len, PROT_READ | PROT_EXEC);
		}
	}
	free(before);
	return rc;
}

int cb_code_copy_remap(const char *file, const void *base, char *err, size_t err_len)
{
	struct found f = {.base = base};
	char copy[PATH_MAX];
	int fd, rc = 0;

	if (!dl_iterate_phdr(find_base, &f))
		return cb_errorf(err, err_len, "%s: no library is loaded at %p", file, base);
	if (text_relocated(&f))
		return 0;
	if (cb_code_copy(file, "default", copy, sizeof copy, err, err_len) != 0)
		return -1;
	if ((fd = open(copy, O_RDONLY | O_CLOEXEC)) < 0)
		return cb_errorf(err, err_len, "%s: %s", copy, strerror(errno));
	for (size_t i = 0; i < f.phnum && rc == 0; i++)
		if (f.phdr[i].p_type == PT_LOAD && (f.phdr[i].p_flags & PF_X))
			rc = remap_segment(base, &f.phdr[i], fd, file, err, err_len);
	close(fd);
	return rc;
}

bool cb_code_copy_holds(const void *addr)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128], path[PATH_MAX];
	bool holds = false, found = false;

	if (!maps)
		return false;
	pthread_mutex_lock(&copies_lock);
	while (!found && fgets(line, sizeof line, maps)) {
		uintptr_t lo, hi;

		path[0] = '\0';
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %*s %*s %*s %*s %4095s", &lo, &hi,
		           path) < 2 ||
		    (uintptr_t)addr < lo || (uintptr_t)addr >= hi)
			continue;
		found = true;
		for (size_t i = 0; i < n_copies && !holds; i++)
			holds = strcmp(path, copies[i]) == 0;
	}
	pthread_mutex_unlock(&copies_lock);
	fclose(maps);
	return holds;
}
