/* elf_info.c: a shared library's soname, needed sonames and build id
 * (elf_info.h), from its sections. */
#include "core/builds/elf_info.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/errbuf.h"

/* DT_SONAME and DT_NEEDED of the dynamic section SCN into INFO. */
static void read_dynamic(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, struct cb_elf_info *info)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0;

	for (size_t i = 0; data && i < n; i++) {
		GElf_Dyn dyn;
		const char *name;

		if (!gelf_getdyn(data, (int)i, &dyn))
			break;
		if (dyn.d_tag != DT_SONAME && dyn.d_tag != DT_NEEDED)
			continue;
		name = elf_strptr(elf, shdr->sh_link, dyn.d_un.d_val);
		if (!name)
			continue;
		if (dyn.d_tag == DT_SONAME)
			snprintf(info->soname, sizeof info->soname, "%s", name);
		else if (info->n_needed < CB_ELF_MAX_NEEDED)
			snprintf(info->needed[info->n_needed++], sizeof info->needed[0], "%s",
			         name);
	}
}

/* The extent of the PT_LOAD segments into INFO: what the loader maps at
 * once (glibc's _dl_map_segments), its first page to its last byte; and
 * that of the executable ones within it. */
static void read_span(Elf *elf, struct cb_elf_info *info)
{
	size_t n, page = (size_t)sysconf(_SC_PAGESIZE);
	GElf_Addr lo = (GElf_Addr)-1, hi = 0, code_lo = (GElf_Addr)-1, code_hi = 0;

	if (elf_getphdrnum(elf, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr / page * page < lo)
			lo = ph.p_vaddr / page * page;
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
		if (!(ph.p_flags & PF_X))
			continue;
		if (ph.p_vaddr < code_lo)
			code_lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > code_hi)
			code_hi = ph.p_vaddr + ph.p_memsz;
	}
	if (hi > lo)
		info->span = (size_t)(hi - lo);
	if (code_hi > code_lo && code_lo >= lo) {
		info->code_lo = (size_t)(code_lo - lo);
		info->code_hi = (size_t)(code_hi - lo);
	}
}

/* The GNU build id among the notes of SCN, as hex, into INFO. */
static void read_notes(Elf_Scn *scn, struct cb_elf_info *info)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t offset = 0, next, name_at, desc_at;
	GElf_Nhdr note;

	while (data && (next = gelf_getnote(data, offset, &note, &name_at, &desc_at)) > 0) {
		const unsigned char *desc = (const unsigned char *)data->d_buf + desc_at;

		if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
		    memcmp((const char *)data->d_buf + name_at, "GNU", 4) == 0 &&
		    note.n_descsz <= 64) {
			for (size_t i = 0; i < note.n_descsz; i++)
				snprintf(info->build_id + 2 * i, 3, "%02x", desc[i]);
			return;
		}
		offset = next;
	}
}

int cb_elf_info_read(const char *path, struct cb_elf_info *info, char *err, size_t err_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	int status = -1;

	memset(info, 0, sizeof *info);
	if (fd < 0)
		return cb_errorf(err, err_len, "%s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr) ||
	    ehdr.e_type != ET_DYN) {
		cb_errorf(err, err_len, "%s: not an ELF shared library", path);
		goto done;
	}
	read_span(elf, info);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_DYNAMIC)
			read_dynamic(elf, scn, &shdr, info);
		else if (shdr.sh_type == SHT_NOTE)
			read_notes(scn, info);
	}
	status = 0;
done:
	elf_end(elf);
	close(fd);
	return status;
}
