/*
 * srcline.c: DWARF of one DSO through one libdw handle: source lines, and
 * the inline chains perf 6.1 shows, as GNU addr2line 2.40 (`addr2line -a
 * -i -f`, the long-running process perf starts per DSO when built without
 * libbfd) reports them.  addr2line keeps state between queries, and perf's
 * output depends on it, so srcline_inlines() keeps the same state:
 *  - the first record names the innermost function at the address by its
 *    linkage name (DW_AT_linkage_name, or DW_AT_name in C); a C++ function
 *    known only by DW_AT_name is named by the ELF symbol covering the
 *    address instead, the first time it is innermost; that symbol's name
 *    sticks to the function if the symbol starts where the function does;
 *  - the other records name each caller of an inlined level by its name
 *    as it stands then, with the call site's file and line.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <limits.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "symbolize/dso.h"
#include "symbolize/symtab.h"

struct seg {
	uint64_t	off, vaddr, filesz;
};

/* addr2line's view of one function DIE: its name now, and whether that
 * name is final ("linkage"). */
struct fstate {
	const char	*name;
	bool		 linkage;
};

/* One symbol of the symbol table addr2line reads, in file order. */
struct esym {
	uint64_t	 value, size;
	const char	*name;
	uint32_t	 shndx;
	uint8_t		 type, bind, vis;
};

struct esec {
	uint64_t	addr, size;
	uint32_t	idx;
};

struct srcline_h {
	int		 fd;
	Dwarf		*dw;
	Dwarf		*alt;		/* the .gnu_debugaltlink file we opened */
	int		 altfd;
	char		*altpath;	/* its path */
	struct seg	*segs;
	size_t		 nsegs;
	int		 has_lines;	/* .debug_line present: -1 unknown */
	struct fstate	*fs;		/* in the order met */
	size_t		 fscap, fsn;
	struct hmap	 fs_of;		/* DIE offset -> index in fs */
	bool		 syms_read;
	struct esym	*es;
	size_t		 nes;
	struct esec	*secs;
	size_t		 nsecs;
};

static void
read_segs(struct srcline_h *h, const char *runfile)
{
	int fd = safefile_open(runfile, &elfsym_rule, NULL, NULL);
	Elf *e;
	size_t n;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e != NULL && elf_getphdrnum(e, &n) == 0) {
		h->segs = xcalloc(n ? n : 1, sizeof *h->segs);
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
				continue;
			h->segs[h->nsegs].off = ph.p_offset;
			h->segs[h->nsegs].vaddr = ph.p_vaddr;
			h->segs[h->nsegs].filesz = ph.p_filesz > ph.p_memsz ? ph.p_filesz : ph.p_memsz;
			h->nsegs++;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
}

/*
 * The DWARF of a dwz-compressed file refers to a shared file named by its
 * .gnu_debugaltlink; libdw opens it when a name or DIE lives there, with a
 * plain open() of /usr/lib/debug/.build-id/xx/rest.debug, else of the name
 * (relative: to the file's own directory).  A FIFO there would hang it.  So
 * look first, the same places in the same order: the first that is there
 * is opened here, under the ELF rule, and handed to libdw (dwarf_setalt);
 * one that is there but refused is kept as *why/refused and the DWARF is
 * not used (-1).  0 otherwise.
 */
static int
open_alt(struct srcline_h *h, const char *symfile, const char *altdir, struct safefile_note *why,
    char *refused, size_t n)
{
	char cand[2][PATH_MAX], real[PATH_MAX];
	const char *name;
	const void *idp;
	const uint8_t *id;
	ssize_t idlen = dwelf_dwarf_gnu_debugaltlink(h->dw, &name, &idp);
	size_t k = 0;

	if (idlen <= 0)
		return 0;
	id = idp;
	if (idlen >= 3 && idlen <= 64) {
		int o = snprintf(cand[k], PATH_MAX, "%s/.build-id/%02x/",
		    altdir ? altdir : "/usr/lib/debug", id[0]);

		for (ssize_t i = 1; i < idlen && o < PATH_MAX - 8; i++)
			o += snprintf(cand[k] + o, (size_t)(PATH_MAX - o), "%02x", id[i]);
		snprintf(cand[k] + o, (size_t)(PATH_MAX - o), ".debug");
		k++;
	}
	if (altdir != NULL) {
		/* a bundle: its own copy by build id, nothing of this machine's */
	} else if (name[0] == '/') {
		snprintf(cand[k++], PATH_MAX, "%s", name);
	} else {
		char *slash;

		if (realpath(symfile, real) == NULL)
			snprintf(real, sizeof real, "%s", symfile);
		slash = strrchr(real, '/');
		if (slash != NULL)
			*slash = '\0';
		/* a path too long to hold is one libdw would not open either */
		if (snprintf(cand[k], PATH_MAX, "%s/%s", slash ? real : ".", name) < PATH_MAX)
			k++;
	}
	for (size_t i = 0; i < k; i++) {
		struct safefile_note sn;
		int fd = safefile_open(cand[i], &elfsym_rule, NULL, &sn);

		if (fd < 0 && sn.status == SAFEFILE_MISSING)
			continue;
		if (fd < 0) {
			*why = sn;
			snprintf(refused, n, "%s", cand[i]);
			return -1;
		}
		h->alt = dwarf_begin(fd, DWARF_C_READ);
		if (h->alt == NULL) {
			close(fd);
			return 0;	/* not DWARF: libdw would not use it either */
		}
		h->altfd = fd;
		h->altpath = xstrdup(cand[i]);
		dwarf_setalt(h->dw, h->alt);
		return 0;
	}
	return 0;
}

struct srcline_h *
srcline_open(const char *symfile, const char *runfile, struct safefile_note *why,
    char *refused, size_t n)
{
	return srcline_open_in(symfile, runfile, NULL, why, refused, n);
}

const char *
srcline_alt_path(const struct srcline_h *h)
{
	return h->altpath;
}

struct srcline_h *
srcline_open_in(const char *symfile, const char *runfile, const char *altdir,
    struct safefile_note *why, char *refused, size_t n)
{
	struct srcline_h *h;
	struct safefile_note sn;
	char rbuf[PATH_MAX];
	int fd = safefile_open(symfile, &elfsym_rule, NULL, NULL);
	Dwarf *dw;

	if (why == NULL || refused == NULL) {
		why = &sn;
		refused = rbuf;
		n = sizeof rbuf;
	}
	why->status = SAFEFILE_OK;
	why->why[0] = '\0';
	if (fd < 0)
		return NULL;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (dw == NULL) {
		close(fd);
		return NULL;
	}
	h = xcalloc(1, sizeof *h);
	h->fd = fd;
	h->dw = dw;
	h->altfd = -1;
	if (open_alt(h, symfile, altdir, why, refused, n) < 0) {
		srcline_close(h);
		return NULL;
	}
	h->has_lines = -1;
	read_segs(h, runfile ? runfile : symfile);
	return h;
}

static uint64_t
to_vaddr(const struct srcline_h *h, uint64_t fileoff)
{
	for (size_t i = 0; i < h->nsegs; i++)
		if (fileoff >= h->segs[i].off && fileoff < h->segs[i].off + h->segs[i].filesz)
			return fileoff - h->segs[i].off + h->segs[i].vaddr;
	return fileoff;
}

int
srcline_lookup(struct srcline_h *h, uint64_t fileoff, char *buf, size_t n)
{
	const char *src, *base;
	int lineno = 0;

	if (srcline_lookup_file(h, fileoff, &src, &lineno) < 0)
		return -1;
	base = strrchr(src, '/');
	snprintf(buf, n, "%s:%d", base ? base + 1 : src, lineno);
	return 0;
}

int
srcline_lookup_file(struct srcline_h *h, uint64_t fileoff, const char **path, int *lineno)
{
	uint64_t vaddr = to_vaddr(h, fileoff);
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *src;

	if (dwarf_addrdie(h->dw, vaddr, &cu) == NULL)
		return -1;
	line = dwarf_getsrc_die(&cu, vaddr);
	if (line == NULL)
		return -1;
	src = dwarf_linesrc(line, NULL, NULL);
	if (src == NULL || dwarf_lineno(line, lineno) != 0)
		return -1;
	*path = src;
	return 0;
}

void
srcline_close(struct srcline_h *h)
{
	if (h == NULL)
		return;
	dwarf_end(h->dw);
	close(h->fd);
	if (h->alt != NULL) {
		dwarf_end(h->alt);
		close(h->altfd);
	}
	free(h->altpath);
	free(h->segs);
	free(h->fs);
	hmap_free(&h->fs_of);
	free(h->es);
	free(h->secs);
	free(h);
}

/* ---- inline chains, as addr2line -i -f reports them ---- */

static const char *
base_name(const char *p)
{
	const char *b = p ? strrchr(p, '/') : NULL;

	return b ? b + 1 : p;
}

/* Does the file have line tables?  (perf starts addr2line only then.) */
static bool
has_lines(struct srcline_h *h)
{
	Elf *e;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (h->has_lines >= 0)
		return h->has_lines;
	h->has_lines = 0;
	e = dwarf_getelf(h->dw);
	if (e == NULL || elf_getshdrstrndx(e, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *nm;

		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		nm = elf_strptr(e, shstrndx, sh.sh_name);
		if (nm != NULL && strcmp(nm, ".debug_line") == 0) {
			h->has_lines = 1;
			break;
		}
	}
	return h->has_lines;
}

/* binutils' mangle_style() == 0: languages whose DW_AT_name is the
 * linkage name. */
static bool
c_like(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_PLI:
	case DW_LANG_C99:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
	case 0x8765 /* DW_LANG_Upc */:
		return true;
	default:
		return false;
	}
}

static struct fstate *
fstate_get(struct srcline_h *h, Dwarf_Die *die, int lang)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	uint32_t i = hmap_get(&h->fs_of, off);
	struct fstate *f;
	Dwarf_Attribute a;

	if (i != HMAP_NONE)
		return &h->fs[i];
	GROW(h->fs, h->fscap, h->fsn + 1);
	i = (uint32_t)h->fsn++;
	hmap_set(&h->fs_of, off, i);
	f = &h->fs[i];
	memset(f, 0, sizeof *f);
	f->name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	if (f->name == NULL)
		f->name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (f->name != NULL) {
		f->linkage = true;
	} else {
		f->name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
		f->linkage = f->name != NULL && c_like(lang);
	}
	return f;
}

/* Length of the range of die holding pc, 0 if none. */
static uint64_t
range_len(Dwarf_Die *die, uint64_t pc)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (pc >= start && pc < end)
			return end - start;
	return 0;
}

/*
 * The function DIEs containing pc, outermost first (the concrete tree, as
 * addr2line nests them).  Of sibling functions holding pc, the one whose
 * range there is shortest, the later one at equal length (addr2line's
 * "best fit": glibc's assembler CUs have aliases with equal ranges).
 */
static bool
find_path(Dwarf_Die *parent, uint64_t pc, Dwarf_Die *path, size_t *np, size_t max, int depth)
{
	Dwarf_Die c, best;
	uint64_t blen = 0;
	bool have = false;

	if (depth > 256 || dwarf_child(parent, &c) != 0)
		return false;
	do {
		int tag = dwarf_tag(&c);
		uint64_t len;

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
			if ((len = range_len(&c, pc)) == 0 || (have && len > blen))
				break;
			best = c;
			blen = len;
			have = true;
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (have || dwarf_haspc(&c, pc) != 1)
				break;
			find_path(&c, pc, path, np, max, depth + 1);
			return true;
		case DW_TAG_namespace:
		case DW_TAG_module:
			if (!have && find_path(&c, pc, path, np, max, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	if (!have)
		return false;
	if (*np < max)
		path[(*np)++] = best;
	find_path(&best, pc, path, np, max, depth + 1);
	return true;
}

static void
read_syms(struct srcline_h *h)
{
	Elf *e = dwarf_getelf(h->dw);
	Elf_Scn *scn = NULL, *symscn = NULL, *dynscn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	h->syms_read = true;
	if (e == NULL)
		return;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB && sh.sh_size > sh.sh_entsize)
			symscn = scn;
		else if (sh.sh_type == SHT_DYNSYM && sh.sh_size > sh.sh_entsize)
			dynscn = scn;
		if (sh.sh_flags & SHF_ALLOC) {
			GROW(h->secs, cap, h->nsecs + 1);
			h->secs[h->nsecs].addr = sh.sh_addr;
			h->secs[h->nsecs].size = sh.sh_size;
			h->secs[h->nsecs].idx = (uint32_t)elf_ndxscn(scn);
			h->nsecs++;
		}
	}
	if (symscn == NULL)
		symscn = dynscn;
	if (symscn != NULL && gelf_getshdr(symscn, &sh) != NULL && sh.sh_entsize > 0) {
		Elf_Data *d = elf_getdata(symscn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;

		h->es = xcalloc(n ? n : 1, sizeof *h->es);
		for (size_t i = 1; i < n; i++) {
			GElf_Sym sym;
			struct esym *x;

			if (gelf_getsym(d, (int)i, &sym) == NULL)
				continue;
			x = &h->es[h->nes++];
			x->value = sym.st_value;
			x->size = sym.st_size;
			x->shndx = sym.st_shndx;
			x->type = GELF_ST_TYPE(sym.st_info);
			x->bind = GELF_ST_BIND(sym.st_info);
			x->vis = GELF_ST_VISIBILITY(sym.st_other);
			x->name = elf_strptr(e, sh.sh_link, sym.st_name);
		}
	}
}

/* binutils' elf_find_function(): the symbol addr2line names an address by. */
static const struct esym *
elf_find_function(struct srcline_h *h, uint64_t pc)
{
	const struct esym *best = NULL;
	uint64_t boff = 0, bsize = 0;
	uint32_t sec = 0;
	bool have_sec = false;

	if (!h->syms_read)
		read_syms(h);
	for (size_t i = 0; i < h->nsecs; i++) {
		if (pc >= h->secs[i].addr && pc < h->secs[i].addr + h->secs[i].size) {
			sec = h->secs[i].idx;
			have_sec = true;
			break;
		}
	}
	if (!have_sec)
		return NULL;
	for (size_t i = 0; i < h->nes; i++) {
		const struct esym *s = &h->es[i];
		uint64_t off = s->value, size = s->size;
		bool better;

		if (s->type == STT_FILE || s->type == STT_SECTION || s->type == STT_OBJECT ||
		    s->type == STT_TLS || s->type == STT_COMMON || s->shndx != sec)
			continue;
		if (size == 0 && s->bind == STB_LOCAL && s->type == STT_NOTYPE &&
		    s->vis == STV_HIDDEN)
			continue;
		if (size == 0)
			size = 1;
		if (off > pc || (best != NULL && off < boff))
			continue;
		if (best == NULL || off > boff)
			better = true;
		else if (boff + bsize <= pc)
			better = size > bsize;
		else if (off + size > pc)
			/* Narrower wins; at equal size a function over another
			 * kind, else the later symbol (addr2line 2.40 names
			 * glibc's __memmove_* aliases __memcpy_* so). */
			better = size < bsize || (size == bsize && (s->type == STT_FUNC ||
			    s->type == STT_GNU_IFUNC || (best->type != STT_FUNC &&
			    best->type != STT_GNU_IFUNC)));
		else
			better = false;
		if (better) {
			best = s;
			boff = off;
			bsize = size;
		}
	}
	return best;
}

static uint64_t
first_low(Dwarf_Die *die)
{
	Dwarf_Addr base, start, end;

	if (dwarf_ranges(die, 0, &base, &start, &end) > 0)
		return start;
	return UINT64_MAX;
}

size_t
srcline_inlines(struct srcline_h *h, uint64_t fileoff, struct srcline_rec *out, size_t n)
{
	uint64_t pc = to_vaddr(h, fileoff);
	Dwarf_Die cu, path[64];
	size_t np = 0, k = 0;
	bool have_cu, have_line = false;
	int lang = -1, lineno = 0;
	const char *file = NULL, *name = NULL;
	struct fstate *fs = NULL;

	if (n == 0 || !has_lines(h))
		return 0;
	have_cu = dwarf_addrdie(h->dw, pc, &cu) != NULL;
	if (have_cu) {
		Dwarf_Line *line = dwarf_getsrc_die(&cu, pc);

		lang = dwarf_srclang(&cu);
		if (line != NULL && (file = dwarf_linesrc(line, NULL, NULL)) != NULL) {
			dwarf_lineno(line, &lineno);
			have_line = true;
		}
		find_path(&cu, pc, path, &np, sizeof path / sizeof *path, 0);
	}
	if (np > 0)
		fs = fstate_get(h, &path[np - 1], lang);
	if (fs != NULL && fs->linkage) {
		name = fs->name;
	} else {
		const struct esym *sym = elf_find_function(h, pc);

		if (sym != NULL)
			name = sym->name;
		if (fs != NULL) {
			if (sym == NULL)
				name = fs->name;
			else if (sym->value == first_low(&path[np - 1]))
				fs->name = sym->name;
			fs->linkage = true;
		}
		if (sym == NULL && np == 0 && !have_line)
			return 0;	/* "??" / "??:0": perf takes no record */
	}
	out[k].name = name;
	out[k].file = have_line ? base_name(file) : NULL;
	out[k].line = have_line ? (unsigned)lineno : 0;
	k++;
	/* The callers of inlined levels, innermost first. */
	for (size_t i = np; i-- > 1 && k < n;) {
		Dwarf_Attribute a;
		Dwarf_Word cf = 0, cl = 0;
		Dwarf_Files *files;
		size_t nfiles;

		if (dwarf_tag(&path[i]) != DW_TAG_inlined_subroutine)
			break;
		dwarf_formudata(dwarf_attr(&path[i], DW_AT_call_file, &a), &cf);
		dwarf_formudata(dwarf_attr(&path[i], DW_AT_call_line, &a), &cl);
		out[k].name = fstate_get(h, &path[i - 1], lang)->name;
		out[k].file = NULL;
		if (dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 && cf < nfiles)
			out[k].file = base_name(dwarf_filesrc(files, cf, NULL, NULL));
		out[k].line = (unsigned)cl;
		k++;
	}
	return k;
}
