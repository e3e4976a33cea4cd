#include "config.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "symbolize/dso.h"

struct seg {
	uint64_t	off, vaddr, filesz;
};

struct srcline_h {
	int		 fd;
	Dwarf		*dw;
	struct seg	*segs;
	size_t		 nsegs;
};

static void
read_segs(struct srcline_h *h, const char *runfile)
{
	int fd = open(runfile, O_RDONLY | O_CLOEXEC);
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

struct srcline_h *
srcline_open(const char *symfile, const char *runfile)
{
	struct srcline_h *h;
	int fd = open(symfile, O_RDONLY | O_CLOEXEC);
	Dwarf *dw;

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
	read_segs(h, runfile ? runfile : symfile);
	return h;
}

int
srcline_lookup(struct srcline_h *h, uint64_t fileoff, char *buf, size_t n)
{
	uint64_t vaddr = fileoff;
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *src, *base;
	int lineno = 0;

	for (size_t i = 0; i < h->nsegs; i++) {
		if (fileoff >= h->segs[i].off && fileoff < h->segs[i].off + h->segs[i].filesz) {
			vaddr = fileoff - h->segs[i].off + h->segs[i].vaddr;
			break;
		}
	}
	if (dwarf_addrdie(h->dw, vaddr, &cu) == NULL)
		return -1;
	line = dwarf_getsrc_die(&cu, vaddr);
	if (line == NULL)
		return -1;
	src = dwarf_linesrc(line, NULL, NULL);
	if (src == NULL || dwarf_lineno(line, &lineno) != 0)
		return -1;
	base = strrchr(src, '/');
	snprintf(buf, n, "%s:%d", base ? base + 1 : src, lineno);
	return 0;
}

void
srcline_close(struct srcline_h *h)
{
	if (h == NULL)
		return;
	dwarf_end(h->dw);
	close(h->fd);
	free(h->segs);
	free(h);
}
