/*
 * elftrim.c: a copy of an ELF file with only what symbolization reads
 * (perfnav bundle): the ELF header, the program and section headers, the
 * symbol and string tables, the notes (the build id), the DWARF, the
 * unwind tables (.eh_frame, .eh_frame_hdr, .debug_frame), the PLT and its
 * relocations, the dynamic section and the debug links.  Every kept byte
 * stays at its offset, since the unwinder and the address mapping read the
 * runtime image by file offset as the program headers give them; the rest
 * (code, read-only and writable data) is left a hole of the output file,
 * which a sparse file and the bundle's tar store as nothing.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "symbolize/bundle.h"
#include "symbolize/symtab.h"

/* A byte range of the input to copy. */
struct span {
	uint64_t	off, len;
};

struct spans {
	struct span	*v;
	size_t		 n, cap;
};

static void
span_add(struct spans *s, uint64_t off, uint64_t len, uint64_t size)
{
	if (off >= size || len == 0)
		return;
	if (len > size - off)
		len = size - off;
	GROW(s->v, s->cap, s->n + 1);
	s->v[s->n].off = off;
	s->v[s->n].len = len;
	s->n++;
}

/* Is a section of this type and name read by symbolization? */
static bool
keep_section(uint32_t type, const char *name)
{
	static const char *const names[] = {
		".eh_frame", ".eh_frame_hdr", ".debug_frame", ".gnu_debuglink",
		".gnu_debugaltlink", ".gnu_debugdata", ".plt", ".plt.got", ".plt.sec",
		".got", ".got.plt", ".interp", ".comment", ".opd",
	};

	switch (type) {
	case SHT_SYMTAB:
	case SHT_DYNSYM:
	case SHT_STRTAB:
	case SHT_NOTE:
	case SHT_DYNAMIC:
	case SHT_REL:
	case SHT_RELA:
	case SHT_HASH:
	case SHT_GNU_HASH:
	case SHT_GNU_versym:
	case SHT_GNU_verdef:
	case SHT_GNU_verneed:
	case SHT_SYMTAB_SHNDX:
		return true;
	case SHT_NOBITS:
		return false;
	default:
		break;
	}
	if (name == NULL)
		return false;
	if (strncmp(name, ".debug_", 7) == 0 || strncmp(name, ".zdebug_", 8) == 0)
		return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* The spans of the ELF file elf (size bytes) to keep; -1 if it is no ELF
 * file libelf can read whole. */
static int
elf_spans(Elf *elf, uint64_t size, struct spans *sp)
{
	GElf_Ehdr eh;
	size_t shstrndx, nph;
	Elf_Scn *scn = NULL;

	if (elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &eh) == NULL ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 || elf_getphdrnum(elf, &nph) != 0)
		return -1;
	span_add(sp, 0, eh.e_ehsize, size);
	span_add(sp, eh.e_phoff, (uint64_t)nph * eh.e_phentsize, size);
	if (eh.e_shoff != 0) {
		size_t nsh;

		if (elf_getshdrnum(elf, &nsh) != 0)
			return -1;
		span_add(sp, eh.e_shoff, (uint64_t)nsh * eh.e_shentsize, size);
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		/* PT_NOTE and PT_GNU_EH_FRAME: read by program header too */
		if (gelf_getphdr(elf, (int)i, &ph) != NULL &&
		    (ph.p_type == PT_NOTE || ph.p_type == PT_GNU_EH_FRAME || ph.p_type == PT_DYNAMIC ||
		    ph.p_type == PT_INTERP))
			span_add(sp, ph.p_offset, ph.p_filesz, size);
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL)
			return -1;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (keep_section(sh.sh_type, name))
			span_add(sp, sh.sh_offset, sh.sh_size, size);
	}
	return 0;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Copy [off, off + len) of in to the same offset of out. */
static int
copy_range(int in, int out, uint64_t off, uint64_t len)
{
	static char buf[1 << 16];

	while (len > 0) {
		size_t n = len < sizeof buf ? (size_t)len : sizeof buf;
		ssize_t r = pread(in, buf, n, (off_t)off);

		if (r <= 0)
			return -1;
		if (pwrite(out, buf, (size_t)r, (off_t)off) != r)
			return -1;
		off += (uint64_t)r;
		len -= (uint64_t)r;
	}
	return 0;
}

int
elftrim_copy(const char *from, const char *to, bool whole, uint64_t *kept, struct perf_err *err)
{
	struct stat st;
	struct spans sp = { 0 };
	int in, out, rc = -1;
	Elf *elf = NULL;
	uint64_t size, total = 0, end = 0;

	in = safefile_open(from, &elfsym_rule, &st, NULL);
	if (in < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot open: %s", from,
		    strerror(errno));
	size = (uint64_t)st.st_size;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", to,
		    strerror(errno));
		close(in);
		return -1;
	}
	elf_version(EV_CURRENT);
	if (!whole)
		elf = elf_begin(in, ELF_C_READ_MMAP, NULL);
	if (elf == NULL || elf_spans(elf, size, &sp) < 0) {
		/* not trimmable: the whole file */
		sp.n = 0;
		span_add(&sp, 0, size, size);
	}
	if (elf != NULL)
		elf_end(elf);
	qsort(sp.v, sp.n, sizeof *sp.v, span_cmp);
	for (size_t i = 0; i < sp.n; i++) {
		uint64_t off = sp.v[i].off, e = off + sp.v[i].len;

		if (e <= end)
			continue;
		if (off < end)
			off = end;
		if (copy_range(in, out, off, e - off) < 0) {
			perf_err_set(err, PERF_E_IO, off, "%s: cannot copy to %s: %s", from, to,
			    strerror(errno ? errno : EIO));
			goto done;
		}
		total += e - off;
		end = e;
	}
	/* the holes up to the input's size */
	if (ftruncate(out, (off_t)size) < 0 || close(out) < 0) {
		out = -1;
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot write: %s", to,
		    strerror(errno));
		goto done;
	}
	out = -1;
	if (kept != NULL)
		*kept = total;
	rc = 0;
done:
	if (out >= 0)
		close(out);
	close(in);
	free(sp.v);
	return rc;
}
