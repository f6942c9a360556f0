/* symbols.c: program counters to objects and functions, through elfutils'
 * libdwfl (modules, symbol tables, unwind tables). */
#include "core/profile/symbols.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/base/errbuf.h"
#include "core/base/file_alias.h"
#include "core/profile/regions.h"

/* A function symbol of one module, at its run-time address. */
struct function_symbol {
	uint64_t addr, size;
	const char *name; /* libdwfl's */
	int exported;
};

/* What this file keeps per module (libdwfl's user data of the module). */
struct module_extra {
	char build_id[2 * 64 + 1];
	struct function_symbol *symbols;
	size_t n_symbols;
};

struct cb_symbols {
	Dwfl *dwfl;
	pid_t pid;
	struct cb_regions regions; /* perf map and anonymous executable mappings */
};

/* Separate debug files only from this machine (by build id): the standard
 * lookup would also ask debuginfod servers over the network. */
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_build_id_find_debuginfo,
};

static void load_symbols(Dwfl_Module *mod, struct module_extra *x)
{
	int n = dwfl_module_getsymtab(mod);

	if (n <= 0 || !(x->symbols = calloc((size_t)n, sizeof *x->symbols)))
		return;
	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word section;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name =
		    dwfl_module_getsym_info(mod, i, &sym, &addr, &section, &elf, &bias);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || section == SHN_UNDEF)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !(type == STT_NOTYPE && sym.st_size))
			continue;
		x->symbols[x->n_symbols++] = (struct function_symbol){
		    .addr = addr,
		    .size = sym.st_size,
		    .name = name,
		    .exported = GELF_ST_BIND(sym.st_info) != STB_LOCAL &&
		                GELF_ST_VISIBILITY(sym.st_other) == STV_DEFAULT,
		};
	}
}

static struct module_extra *extra_of(Dwfl_Module *mod)
{
	void **user = NULL;
	const unsigned char *bits;
	GElf_Addr vaddr;
	struct module_extra *x;
	int len;

	dwfl_module_info(mod, &user, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!user)
		return NULL;
	x = *user; /* made at the module's first lookup */
	if (x)
		return x;
	x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	len = dwfl_module_build_id(mod, &bits, &vaddr);
	for (int i = 0; i < len && i < 64; i++)
		snprintf(x->build_id + 2 * i, 3, "%02x", bits[i]);
	load_symbols(mod, x);
	*user = x;
	return x;
}

static int free_extra(Dwfl_Module *mod, void **user, const char *name, Dwarf_Addr start, void *arg)
{
	struct module_extra *x = *user;

	(void)mod;
	(void)name;
	(void)start;
	(void)arg;
	if (x) {
		free(x->symbols);
		free(x);
		*user = NULL;
	}
	return DWARF_CB_OK;
}

/* LINE of /proc/PID/maps (no newline) onto OUT, its file named as the file
 * it is a copy of (file_alias.h), with that file's device and inode, so that
 * libdwfl reads the library's mappings as one module of that file. */
static void aliased_line(const char *line, FILE *out)
{
	char perms[8], original[PATH_MAX];
	unsigned long long lo, hi, offset;
	struct stat st;
	int path_at = -1;

	if (sscanf(line, "%llx-%llx %7s %llx %*x:%*x %*u %n", &lo, &hi, perms, &offset, &path_at) >=
	        4 &&
	    path_at > 0 && cb_file_alias_of(line + path_at, original, sizeof original) &&
	    stat(original, &st) == 0)
		fprintf(out, "%llx-%llx %s %08llx %02x:%02x %llu %s\n", lo, hi, perms, offset,
		        major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino,
		        original);
	else
		fprintf(out, "%s\n", line);
}

/* This process's modules, where some of its code runs from copies of files:
 * its mappings as aliased_line names them, and the vDSO, which libdwfl
 * finds itself only when it reads the mappings itself. */
static int report_aliased(Dwfl *dwfl, pid_t pid)
{
	FILE *maps = fopen("/proc/self/maps", "r"), *text;
	char *buf = NULL, *line = NULL;
	size_t buf_len = 0, line_cap = 0;
	unsigned long long vdso_lo = 0, vdso_hi = 0;
	ssize_t n;
	int rc = -1;

	if (!maps || !(text = open_memstream(&buf, &buf_len))) {
		if (maps)
			fclose(maps);
		return -1;
	}
	while ((n = getline(&line, &line_cap, maps)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (strstr(line, " [vdso]"))
			sscanf(line, "%llx-%llx", &vdso_lo, &vdso_hi);
		aliased_line(line, text);
	}
	free(line);
	fclose(maps);
	if (fclose(text) == 0 && (text = fmemopen(buf, buf_len, "r"))) {
		char vdso[32];

		rc = dwfl_linux_proc_maps_report(dwfl, text) == 0 ? 0 : -1;
		fclose(text);
		snprintf(vdso, sizeof vdso, "[vdso: %d]", (int)pid);
		if (rc == 0 && vdso_hi > vdso_lo &&
		    !dwfl_report_module(dwfl, vdso, (Dwarf_Addr)vdso_lo, (Dwarf_Addr)vdso_hi))
			rc = -1;
	}
	free(buf);
	return rc;
}

struct cb_symbols *cb_symbols_open(pid_t pid, char *err, size_t err_len)
{
	struct cb_symbols *s = calloc(1, sizeof *s);

	if (!s) {
		cb_errorf(err, err_len, "symbols: out of memory");
		return NULL;
	}
	s->pid = pid ? pid : getpid();
	s->dwfl = dwfl_begin(&callbacks);
	if (!s->dwfl) {
		cb_errorf(err, err_len, "symbols: %s", dwfl_errmsg(-1));
		free(s);
		return NULL;
	}
	dwfl_report_begin(s->dwfl);
	if ((s->pid == getpid() && cb_file_alias_any()
	         ? report_aliased(s->dwfl, s->pid)
	         : dwfl_linux_proc_report(s->dwfl, s->pid)) != 0) {
		cb_errorf(err, err_len, "symbols: cannot read the mappings of pid %d: %s",
		          (int)s->pid, strerror(errno));
		dwfl_end(s->dwfl);
		free(s);
		return NULL;
	}
	dwfl_report_end(s->dwfl, NULL, NULL);
	cb_regions_read(&s->regions, s->pid);
	return s;
}

pid_t cb_symbols_pid(const struct cb_symbols *s)
{
	return s->pid;
}

/* The range of the function holding PC from the module's unwind tables. */
static int cfi_range(Dwfl_Module *mod, uint64_t pc, uint64_t *start, uint64_t *end)
{
	Dwarf_Addr bias, low, high;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	Dwarf_Frame *frame;
	bool signalp;

	if ((!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) &&
	    (!(cfi = dwfl_module_dwarf_cfi(mod, &bias)) ||
	     dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0))
		return -1;
	if (dwarf_frame_info(frame, &low, &high, &signalp) < 0 || low >= high) {
		free(frame);
		return -1;
	}
	free(frame);
	*start = low + bias;
	*end = high + bias;
	return 0;
}

/* Name, range and hint from the module's function symbols. */
static void symbol_lookup(const struct module_extra *x, uint64_t pc, struct cb_symbol *out,
                          uint64_t *sym_start, uint64_t *sym_size)
{
	const struct function_symbol *inside = NULL, *below = NULL;

	for (size_t i = 0; i < x->n_symbols; i++) {
		const struct function_symbol *f = &x->symbols[i];
		if (f->addr > pc)
			continue;
		if (pc < f->addr + f->size && (!inside || f->size < inside->size))
			inside = f; /* the narrowest of aliases and nested symbols */
		else if (f->exported && (!below || f->addr > below->addr))
			below = f;
	}
	if (inside) {
		out->name = inside->name;
		*sym_start = inside->addr;
		*sym_size = inside->size;
	} else if (below) {
		out->hint = below->name;
	}
}

static void module_lookup(Dwfl_Module *mod, uint64_t pc, struct cb_symbol *out)
{
	Dwarf_Addr bias = 0;
	const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	struct module_extra *x;
	uint64_t start, end, sym_start = 0, sym_size = 0;

	dwfl_module_getelf(mod, &bias); /* loads the file; BIAS stays 0 when it cannot */
	x = extra_of(mod);
	/* libdwfl names the vDSO "[vdso: PID]": the PID says nothing of the code */
	out->object = !name ? "[unnamed object]" : strncmp(name, "[vdso", 5) == 0 ? "[vdso]" : name;
	out->build_id = x ? x->build_id : "";
	out->bias = bias;
	out->offset = pc - bias;
	out->start = out->offset;
	if (x)
		symbol_lookup(x, pc, out, &sym_start, &sym_size);
	if (cfi_range(mod, pc, &start, &end) == 0) {
		out->range = "cfi";
		out->start = start - bias;
		out->size = end - start;
	} else if (sym_size) {
		out->range = "symbol";
		out->start = sym_start - bias;
		out->size = sym_size;
	}
}

int cb_symbols_lookup(struct cb_symbols *s, uint64_t pc, struct cb_symbol *out)
{
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, pc);
	const struct cb_region *r;

	memset(out, 0, sizeof *out);
	out->build_id = "";
	out->range = "none";
	out->offset = out->start = pc;
	if (mod) {
		module_lookup(mod, pc, out);
		return 0;
	}
	if ((r = cb_regions_find(&s->regions, pc))) {
		out->object = r->perf_map ? "perf map" : "JIT/anonymous code";
		out->range = r->perf_map ? "perf-map" : "region";
		out->name = r->name;
		out->start = r->start;
		out->size = r->end - r->start;
		return 0;
	}
	out->object = "[unknown]";
	return -1;
}

void cb_symbols_close(struct cb_symbols *s)
{
	if (!s)
		return;
	dwfl_getmodules(s->dwfl, free_extra, NULL, 0);
	dwfl_end(s->dwfl);
	cb_regions_free(&s->regions);
	free(s);
}
