/*
 * src_vdso.c: the symbol source of the vdso: the build-id cache's copy
 * ([vdso]/<build id>/vdso), else, as perf does, the vdso of this machine
 * (its image in memory) when the build id allows.
 */
#include "config.h"

#include <elf.h>
#include <limits.h>
#include <string.h>
#include <sys/auxv.h>

#include "core/err.h"
#include "symbolize/symsrc.h"

static bool
vdso_match(const struct dso_ent *d)
{
	return d->kind == DSO_VDSO;
}

/* The running vdso's symbols, if its build id is d's (or d has none). */
static void
vdso_load_running(struct dso_ent *d, const struct dso_ctx *c)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	long nr;

	if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64) {
		d->why = SYM_WHY_NO_DSO_FILE;
		return;
	}
	nr = elfsym_load_mem(eh, eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize, d->bid,
	    d->bid_len, !c->o->no_demangle, &d->syms, &d->names);
	d->why = nr == -2 ? SYM_WHY_BUILDID_MISMATCH : nr < 0 ? SYM_WHY_BAD_FILE :
	    nr == 0 ? SYM_WHY_NO_SYMBOLS : SYM_WHY_NOT_IN_SYMBOL;
}

static void
vdso_dso_load(struct dso_table *t, struct dso_ent *d, const char *name, const struct dso_ctx *c)
{
	char hex[41], p[PATH_MAX];

	(void)name;
	dso_bid_hex(d, hex);
	if (d->bid_len == 0 || !dso_cache_file(t, c->buildid_dir, hex, "[vdso]", "vdso", p, sizeof p)) {
		if (c->no_system)
			d->why = SYM_WHY_NO_DSO_FILE;	/* a bundle: not this machine's */
		else
			vdso_load_running(d, c);
		return;
	}
	if (elfsym_load(p, p, !c->o->no_demangle, &d->syms, &d->names) < 0) {
		d->why = SYM_WHY_BAD_FILE;
		return;
	}
	d->symfile = xstrdup(p);
	d->runfile = xstrdup(p);
	d->why = d->syms.n ? SYM_WHY_NOT_IN_SYMBOL : SYM_WHY_NO_SYMBOLS;
}

const struct sym_source symsrc_vdso = {
	.name = "vdso",
	.match = vdso_match,
	.load = vdso_dso_load,
	.lines = true,
};
