/*
 * symtab.h: symbol tables inside symbolize/ (not for use outside it).
 *
 * A symbol table is a sorted array of struct sym, built from one source
 * (ELF .symtab/.dynsym + synthesized PLT entries, kallsyms, a perf-PID.map)
 * and fixed up the way perf fixes its tables (zero sizes extended to the
 * next symbol, aliases at one address reduced to the best one).  Names are
 * ids in a struct strtab owned by the caller.
 */
#ifndef PERFNAV_SYMBOLIZE_SYMTAB_H
#define PERFNAV_SYMBOLIZE_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/safefile.h"
#include "core/thread.h"

struct sym {
	uint64_t	start, end;	/* [start, end) in the DSO's address space */
	uint32_t	name;		/* strtab id */
	uint32_t	seq;		/* insertion order (ties) */
	uint8_t		bind;		/* STB_* */
	uint8_t		type;		/* STT_* */
};

struct symtab {
	struct sym	*v;
	size_t		 n, cap;
};

/* Add a symbol of size bytes (0: unknown, extended by symtab_fixup). */
void symtab_add(struct symtab *t, uint64_t start, uint64_t size, uint8_t bind, uint8_t type,
    uint32_t name);
/*
 * Sort and fix up as perf 6.1 does ELF and kallsyms tables alike: sizes
 * first (a symbol without one gets up to the next), then of the symbols at
 * one address the best one kept (perf's choice: see symtab.c).
 */
void symtab_fixup(struct symtab *t, const struct strtab *strs);
/* Sort only (for entries added after fixup, e.g. PLT). */
void symtab_sort(struct symtab *t);
/* Index of the symbol containing addr, or SIZE_MAX. */
size_t symtab_find(const struct symtab *t, uint64_t addr);
void symtab_free(struct symtab *t);

/* C++ (Itanium ABI) name as perf 6.1 prints it: without parameters or
 * return type.  Returns a malloc'd string, or NULL if name is not mangled. */
char *demangle_cxx(const char *name);

/*
 * src_kallsyms.c: read "ADDR TYPE NAME [MODULE]" lines (kernel symbols;
 * module symbols are skipped) from a regular file of at most
 * SAFEFILE_CAP_KALLSYMS (core/safefile.h).  Returns the number of symbols added, -1 if the file
 * cannot be read; note (may be NULL) says why (MISSING, REFUSED), or CUT
 * when reading stopped at a cap.
 */
long kallsyms_load(const char *path, struct symtab *t, struct strtab *strs,
    struct safefile_note *note);
/* The symbols of one module ("[name]", as kallsyms tags them), or of the
 * kernel itself for module NULL.  Same returns. */
long kallsyms_load_module(const char *path, const char *module, struct symtab *t,
    struct strtab *strs, struct safefile_note *note);
/*
 * A kallsyms file read once (under the same rules) and kept, so that the
 * kernel's and every module's symbols come from one read: a recording with
 * many module maps does not read it again for each.  Never NULL; a file
 * that could not be read loads as -1, its note says why.
 */
struct kallsyms_file;
struct kallsyms_file *kallsyms_file_read(const char *path);
/* How reading went (MISSING, REFUSED, CUT or OK). */
const struct safefile_note *kallsyms_file_note(const struct kallsyms_file *kf);
/* The symbols of module ("[name]") or of the kernel (NULL) into t: their
 * number, -1 if the file could not be read. */
long kallsyms_file_load(const struct kallsyms_file *kf, const char *module, struct symtab *t,
    struct strtab *strs);
void kallsyms_file_free(struct kallsyms_file *kf);
/* src_perfmap.c: read a perf-PID.map ("START SIZE NAME" in hex): a
 * regular file of at most SAFEFILE_CAP_JIT_MAP, in a world-writable
 * directory only if owned by the effective user or root.  Same returns. */
long perfmap_load(const char *path, struct symtab *t, struct strtab *strs,
    struct safefile_note *note);

/*
 * elfsym.c: reading ELF files (for src_elf.c, src_vdso.c, annotate.c and
 * unwind.c).  The rule ELF and DWARF files are opened under
 * (core/safefile.h): regular files of at most SAFEFILE_CAP_ELF.  Every elfsym_* function taking a
 * path opens it so, and fails (-1) on a file the rule refuses.
 */
extern const struct safefile_rule elfsym_rule;

/*
 * ELF symbols of a user-space DSO.  syms: the file with the symbol table
 * (may be a separate debug file); run: the runtime image (program headers,
 * PLT), may be the same path.  Symbol addresses are converted to file
 * offsets as perf does (st_value - (p_vaddr - p_offset) of the PT_LOAD
 * segment holding them), so they compare with map_ip (ip - start + pgoff).
 * Returns the number of symbols, 0 if the file has none, -1 if unreadable.
 */
long elfsym_load(const char *syms, const char *run, bool demangle, struct symtab *t,
    struct strtab *strs);
/* The same for an ELF image in memory (the running vdso); with bid_len,
 * -2 if its build id differs. */
long elfsym_load_mem(const void *p, size_t n, const uint8_t *bid, size_t bid_len, bool demangle,
    struct symtab *t, struct strtab *strs);
/* Build id of an ELF file (up to 20 bytes) into id; its length or -1. */
int elfsym_build_id(const char *path, uint8_t *id);
/* Which symbol tables an ELF file has (ELFSYM_* bits), -1 if not ELF.  A
 * separate debug file's .dynsym is NOBITS: it is no runtime image. */
#define ELFSYM_SYMTAB	1
#define ELFSYM_DYNSYM	2
int elfsym_has_symtab(const char *path);
/* The PT_LOAD segment of an ELF file holding file offset off: its
 * p_vaddr - p_offset into *bias (add it to a symbol address of ours to get
 * the file's virtual address).  0, or -1 (unreadable, no such segment). */
int elfsym_off_bias(const char *path, uint64_t off, uint64_t *bias);
/* .gnu_debuglink file name into buf; 0, or -1 if none. */
int elfsym_debuglink(const char *path, char *buf, size_t n);

#endif
