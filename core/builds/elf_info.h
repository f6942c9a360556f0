/* elf_info.h: what a shared library's file says of itself, read with
 * elfutils' libelf: its soname, the sonames it needs, its build id, how
 * much address space it takes when loaded, and where its code lies in it. */
#ifndef CB_ELF_INFO_H
#define CB_ELF_INFO_H

#include <stddef.h>

#define CB_ELF_MAX_NEEDED 32

struct cb_elf_info {
	char soname[256];                    /* DT_SONAME, "" when none */
	char needed[CB_ELF_MAX_NEEDED][256]; /* DT_NEEDED, in order */
	size_t n_needed;                     /* the first CB_ELF_MAX_NEEDED */
	char build_id[2 * 64 + 1];           /* hex of NT_GNU_BUILD_ID, "" when none */
	size_t span; /* from the first PT_LOAD segment's page to the last's end */
	/* The executable PT_LOAD segments' extent, from the first to the last
	 * byte past it, as offsets from the first PT_LOAD segment's page (the
	 * library's base as loaded); both 0 when it has none. */
	size_t code_lo, code_hi;
};

/* Read PATH's dynamic section and notes into INFO. 0, or -1 with ERR ("PATH:
 * reason") when PATH cannot be read or is not an ELF shared object. */
int cb_elf_info_read(const char *path, struct cb_elf_info *info, char *err, size_t err_len);

#endif
