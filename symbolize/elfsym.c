#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "symbolize/symtab.h"

/* ELF files named by a recording: regular, mapped rather than read. */
const struct safefile_rule elfsym_rule = {
	.what = "an ELF file",
	.cap = SAFEFILE_CAP_ELF,
};

/* An open ELF file. */
struct efile {
	int		 fd;
	Elf		*elf;
	GElf_Ehdr	 ehdr;
	size_t		 shstrndx;
};

static void
elf_init(void)
{
	elf_version(EV_CURRENT);
}

static int
efile_open(struct efile *f, const char *path)
{
	/* Symbolizers may load DSOs on several threads (perfnav top). */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, elf_init);
	memset(f, 0, sizeof *f);
	f->fd = safefile_open(path, &elfsym_rule, NULL, NULL);
	if (f->fd < 0)
		return -1;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (f->elf == NULL || elf_kind(f->elf) != ELF_K_ELF || gelf_getehdr(f->elf, &f->ehdr) == NULL ||
	    elf_getshdrstrndx(f->elf, &f->shstrndx) != 0) {
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		return -1;
	}
	return 0;
}

static int
efile_open_mem(struct efile *f, const void *p, size_t n)
{
	elf_version(EV_CURRENT);
	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->elf = elf_memory((char *)(uintptr_t)p, n);
	if (f->elf == NULL || elf_kind(f->elf) != ELF_K_ELF || gelf_getehdr(f->elf, &f->ehdr) == NULL ||
	    elf_getshdrstrndx(f->elf, &f->shstrndx) != 0) {
		if (f->elf)
			elf_end(f->elf);
		return -1;
	}
	return 0;
}

static void
efile_close(struct efile *f)
{
	elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

static Elf_Scn *
efile_section(struct efile *f, const char *name, GElf_Shdr *sh, size_t *idx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		const char *n;

		if (gelf_getshdr(scn, sh) == NULL)
			continue;
		n = elf_strptr(f->elf, f->shstrndx, sh->sh_name);
		if (n != NULL && strcmp(n, name) == 0) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static int
efile_build_id(struct efile *f, uint8_t *id)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	for (size_t k = 0; k < 3 && scn == NULL; k++)
		scn = efile_section(f, names[k], &sh, NULL);
	if (scn != NULL) {
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		while (d != NULL && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0) {
				size_t n = nh.n_descsz < 20 ? nh.n_descsz : 20;

				memcpy(id, (char *)d->d_buf + doff, n);
				return (int)n;
			}
		}
	}
	return -1;
}

int
elfsym_build_id(const char *path, uint8_t *id)
{
	struct efile f;
	int r;

	if (efile_open(&f, path) < 0)
		return -1;
	r = efile_build_id(&f, id);
	efile_close(&f);
	return r;
}

int
elfsym_has_symtab(const char *path)
{
	struct efile f;
	GElf_Shdr sh;
	int r = 0;

	if (efile_open(&f, path) < 0)
		return -1;
	if (efile_section(&f, ".symtab", &sh, NULL) != NULL && sh.sh_type == SHT_SYMTAB)
		r |= ELFSYM_SYMTAB;
	if (efile_section(&f, ".dynsym", &sh, NULL) != NULL && sh.sh_type == SHT_DYNSYM)
		r |= ELFSYM_DYNSYM;
	efile_close(&f);
	return r;
}

int
elfsym_debuglink(const char *path, char *buf, size_t n)
{
	struct efile f;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	int r = -1;

	if (efile_open(&f, path) < 0)
		return -1;
	scn = efile_section(&f, ".gnu_debuglink", &sh, NULL);
	if (scn != NULL && (d = elf_getdata(scn, NULL)) != NULL && d->d_size > 0 && n > 0) {
		size_t len = strnlen(d->d_buf, d->d_size);

		if (len > 0 && len < n) {
			memcpy(buf, d->d_buf, len);
			buf[len] = '\0';
			r = 0;
		}
	}
	efile_close(&f);
	return r;
}

/*
 * The PT_LOAD segment holding addr, a virtual address (by_offset false:
 * within its memory size) or a file offset (true: within its file size):
 * its p_vaddr - p_offset into *bias.  0, or -1 if none does.
 */
static int
load_bias_at(struct efile *f, uint64_t addr, bool by_offset, uint64_t *bias)
{
	size_t n;

	if (elf_getphdrnum(f->elf, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t start, sz;

		if (gelf_getphdr(f->elf, (int)i, &ph) == NULL)
			return -1;
		if (ph.p_type != PT_LOAD)
			continue;
		start = by_offset ? ph.p_offset : ph.p_vaddr;
		sz = by_offset ? ph.p_filesz :
		    ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (sz == 0)
			continue;
		if (addr >= start && addr - start < sz) {
			*bias = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return -1;
}

int
elfsym_off_bias(const char *path, uint64_t off, uint64_t *bias)
{
	struct efile f;
	int r;

	if (efile_open(&f, path) < 0)
		return -1;
	r = load_bias_at(&f, off, true, bias);
	efile_close(&f);
	return r;
}

static uint32_t
intern_name(struct strtab *strs, const char *name, bool demangle, const char *suffix)
{
	char *dm = demangle ? demangle_cxx(name) : NULL;
	const char *use = dm ? dm : name;
	uint32_t id;

	if (suffix != NULL) {
		size_t a = strlen(use), b = strlen(suffix);
		char *tmp = xmalloc(a + b + 1);

		memcpy(tmp, use, a);
		memcpy(tmp + a, suffix, b + 1);
		id = strtab_intern(strs, tmp, a + b);
		free(tmp);
	} else {
		id = strtab_intern(strs, use, strlen(use));
	}
	free(dm);
	return id;
}

static long
load_table(struct efile *sf, struct efile *rf, Elf_Scn *scn, const GElf_Shdr *sh, bool demangle,
    struct symtab *t, struct strtab *strs)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t nsyms, nr = 0;
	bool arm = sf->ehdr.e_machine == EM_ARM || sf->ehdr.e_machine == EM_AARCH64;

	if (d == NULL || sh->sh_entsize == 0)
		return -1;
	nsyms = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s;
		GElf_Shdr ssh;
		Elf_Scn *sscn;
		const char *name, *secname;
		int type;
		bool is_label;
		uint64_t value, bias;

		if (gelf_getsym(d, (int)i, &s) == NULL)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if (s.st_name == 0 || s.st_shndx == SHN_UNDEF)
			continue;
		is_label = type == STT_NOTYPE && s.st_shndx != SHN_ABS;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT && !is_label)
			continue;
		name = elf_strptr(sf->elf, sh->sh_link, s.st_name);
		if (name == NULL)
			continue;
		if (arm && name[0] == '$' && name[1] != '\0' && strchr("adtx", name[1]) &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		if (s.st_shndx >= SHN_LORESERVE)
			continue;
		sscn = elf_getscn(sf->elf, s.st_shndx);
		if (sscn == NULL || gelf_getshdr(sscn, &ssh) == NULL)
			continue;
		secname = elf_strptr(sf->elf, sf->shstrndx, ssh.sh_name);
		if (is_label && (secname == NULL || strstr(secname, "text") == NULL))
			continue;
		value = s.st_value;
		if (sf->ehdr.e_machine == EM_ARM)
			value &= ~UINT64_C(1);
		if (load_bias_at(rf, s.st_value, false, &bias) == 0)
			value -= bias;
		else
			value -= ssh.sh_addr - ssh.sh_offset;
		symtab_add(t, value, s.st_size, (uint8_t)GELF_ST_BIND(s.st_info), (uint8_t)type,
		    intern_name(strs, name, demangle, NULL));
		nr++;
	}
	return (long)nr;
}

/* name@plt entries from .rela.plt/.rel.plt and .plt, as perf 6.1 makes them. */
static long
load_plt(struct efile *f, bool demangle, struct symtab *t, struct strtab *strs)
{
	GElf_Shdr dsh, rsh, psh;
	size_t dynidx;
	Elf_Scn *dscn, *rscn;
	Elf_Data *rd, *sd;
	uint64_t off, nrel;
	long nr = 0;

	dscn = efile_section(f, ".dynsym", &dsh, &dynidx);
	if (dscn == NULL)
		return 0;
	rscn = efile_section(f, ".rela.plt", &rsh, NULL);
	if (rscn == NULL)
		rscn = efile_section(f, ".rel.plt", &rsh, NULL);
	if (rscn == NULL || rsh.sh_link != dynidx || rsh.sh_entsize == 0)
		return 0;
	if (efile_section(f, ".plt", &psh, NULL) == NULL)
		return 0;
	rd = elf_getdata(rscn, NULL);
	sd = elf_getdata(dscn, NULL);
	if (rd == NULL || sd == NULL)
		return 0;
	nrel = rsh.sh_size / rsh.sh_entsize;
	off = psh.sh_offset;
	for (uint64_t i = 0; i < nrel; i++) {
		GElf_Sym s;
		uint64_t info;
		const char *name;

		if (rsh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (gelf_getrela(rd, (int)i, &r) == NULL)
				break;
			info = r.r_info;
		} else {
			GElf_Rel r;

			if (gelf_getrel(rd, (int)i, &r) == NULL)
				break;
			info = r.r_info;
		}
		off += psh.sh_entsize;
		if (gelf_getsym(sd, (int)GELF_R_SYM(info), &s) == NULL)
			continue;
		name = elf_strptr(f->elf, dsh.sh_link, s.st_name);
		symtab_add(t, off, psh.sh_entsize, STB_GLOBAL, STT_FUNC,
		    intern_name(strs, name ? name : "", demangle, "@plt"));
		nr++;
	}
	return nr;
}

long
elfsym_load(const char *syms, const char *run, bool demangle, struct symtab *t,
    struct strtab *strs)
{
	struct efile sf, rf;
	bool same = run == NULL || strcmp(syms, run) == 0;
	GElf_Shdr sh;
	Elf_Scn *scn;
	long nr;

	if (efile_open(&sf, syms) < 0)
		return -1;
	if (same || efile_open(&rf, run) < 0)
		rf = sf, same = true;
	scn = efile_section(&sf, ".symtab", &sh, NULL);
	if (scn == NULL || sh.sh_type != SHT_SYMTAB) {
		scn = efile_section(&sf, ".dynsym", &sh, NULL);
		if (scn != NULL && sh.sh_type != SHT_DYNSYM)
			scn = NULL;
	}
	nr = scn ? load_table(&sf, &rf, scn, &sh, demangle, t, strs) : 0;
	if (nr > 0) {
		symtab_fixup(t, strs);
		if (load_plt(&rf, demangle, t, strs) > 0)
			symtab_sort(t);
	}
	if (!same)
		efile_close(&rf);
	efile_close(&sf);
	return nr < 0 ? 0 : nr;
}

long
elfsym_load_mem(const void *p, size_t n, const uint8_t *bid, size_t bid_len, bool demangle,
    struct symtab *t, struct strtab *strs)
{
	struct efile f;
	GElf_Shdr sh;
	Elf_Scn *scn;
	long nr;

	if (efile_open_mem(&f, p, n) < 0)
		return -1;
	if (bid_len > 0) {
		uint8_t id[20];
		int k = efile_build_id(&f, id);

		if (k < 0 || (size_t)k < bid_len || memcmp(id, bid, bid_len) != 0) {
			efile_close(&f);
			return -2;
		}
	}
	scn = efile_section(&f, ".symtab", &sh, NULL);
	if (scn == NULL || sh.sh_type != SHT_SYMTAB) {
		scn = efile_section(&f, ".dynsym", &sh, NULL);
		if (scn != NULL && sh.sh_type != SHT_DYNSYM)
			scn = NULL;
	}
	nr = scn ? load_table(&f, &f, scn, &sh, demangle, t, strs) : 0;
	if (nr > 0)
		symtab_fixup(t, strs);
	efile_close(&f);
	return nr < 0 ? 0 : nr;
}
