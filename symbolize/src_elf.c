/*
 * src_elf.c: the symbol source of user-space DSOs: their ELF files, found
 * in perf's order (the .gnu_debuglink file, the build-id cache's binary
 * and debug file, the system's debug files, the path itself under
 * --symfs, last the servers of DEBUGINFOD_URLS); the first with .symtab
 * gives the symbols, the first with .dynsym the runtime image (program
 * headers, PLT).  Reading the files is elfsym.c's.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "core/err.h"
#include "symbolize/debuginfod.h"
#include "symbolize/symsrc.h"

/* Does the file at p have d's build id?  1 yes, 0 another, -1 none/unreadable. */
static int
bid_match(const struct dso_ent *d, const char *p)
{
	uint8_t id[20];
	int n = elfsym_build_id(p, id);
	size_t cmp;

	if (n < 0)
		return -1;
	cmp = d->bid_len < (size_t)n ? d->bid_len : (size_t)n;
	/* perf compares the recorded size (20 bytes, zero padded). */
	if (memcmp(id, d->bid, cmp) != 0)
		return 0;
	for (size_t i = cmp; i < d->bid_len; i++)
		if (d->bid[i] != 0)
			return 0;
	return 1;
}

/* The files found so far. */
struct cand {
	char	symfile[PATH_MAX];
	char	runfile[PATH_MAX];
	char	anyfile[PATH_MAX];
	bool	have_sym, have_run, have_any;
	bool	mismatch;
};

/* Consider one candidate file, in perf's order: the first with .symtab
 * gives the symbols, the first ELF at all the runtime image.  True once
 * both are found. */
static bool
cand_try(struct dso_table *t, struct cand *c, const struct dso_ent *d, const char *p)
{
	int hs;

	if (!dso_probe(t, p, NULL))
		return false;
	if (d->bid_len > 0) {
		int m = bid_match(d, p);

		if (m == 0)
			c->mismatch = true;
		if (m != 1)
			return false;
	}
	hs = elfsym_has_symtab(p);
	if (hs < 0)
		return false;
	if ((hs & ELFSYM_SYMTAB) && !c->have_sym) {
		dso_path(c->symfile, sizeof c->symfile, "%s", p);
		c->have_sym = true;
	}
	if ((hs & ELFSYM_DYNSYM) && !c->have_run) {
		dso_path(c->runfile, sizeof c->runfile, "%s", p);
		c->have_run = true;
	}
	if (!c->have_any) {
		dso_path(c->anyfile, sizeof c->anyfile, "%s", p);
		c->have_any = true;
	}
	return c->have_sym && c->have_run;
}

static bool
cand_done(const struct cand *c)
{
	return c->have_sym && c->have_run;
}

/* 1. The .gnu_debuglink file of path: beside it, in .debug/ beside it,
 * under /usr/lib/debug. */
static void
try_debuglink(struct dso_table *t, struct cand *cd, const struct dso_ent *d, const char *path)
{
	char dir[PATH_MAX], link[PATH_MAX], p[PATH_MAX];
	char *slash;

	if (elfsym_debuglink(path, link, sizeof link) != 0)
		return;
	dso_path(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	dso_path(p, sizeof p, "%s/%s", dir, link);
	if (strcmp(p, path) != 0)
		cand_try(t, cd, d, p);
	dso_path(p, sizeof p, "%s/.debug/%s", dir, link);
	cand_try(t, cd, d, p);
	dso_path(p, sizeof p, "/usr/lib/debug%s/%s", dir, link);
	cand_try(t, cd, d, p);
}

/* 2 - 5. By build id: the cache's binary, then its debug file, then the
 * system's debug files. */
static void
try_build_id(struct dso_table *t, struct cand *cd, const struct dso_ent *d, const char *name,
    const char *hex, const struct dso_ctx *c)
{
	char p[PATH_MAX];

	if (!cand_done(cd) && dso_cache_file(t, c->buildid_dir, hex, name, "elf", p, sizeof p))
		cand_try(t, cd, d, p);
	if (!cand_done(cd) && dso_cache_file(t, c->buildid_dir, hex, name, "debug", p, sizeof p))
		cand_try(t, cd, d, p);
	if (c->no_system)
		return;	/* a bundle: its build-id cache only */
	if (!cand_done(cd)) {
		dso_path(p, sizeof p, "/usr/lib/debug%s.debug", name);
		cand_try(t, cd, d, p);
	}
	if (!cand_done(cd)) {
		dso_path(p, sizeof p, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		cand_try(t, cd, d, p);
	}
}

/*
 * 7. Last, the servers of DEBUGINFOD_URLS (debuginfod.h), as perf and gdb
 * ask them: the executable when no runtime image was found, the debuginfo
 * when no .symtab was (a stripped library at its path gets its symbols).
 */
static void
try_debuginfod(struct dso_table *t, struct cand *cd, const struct dso_ent *d,
    const struct dso_ctx *c)
{
	char p[PATH_MAX];

	if (c->dbgd == NULL || d->bid_len == 0)
		return;
	if (!cd->have_run && dbgd_find(c->dbgd, d->bid, d->bid_len, DBGD_EXECUTABLE, p, sizeof p))
		cand_try(t, cd, d, p);
	if (!cd->have_sym && dbgd_find(c->dbgd, d->bid, d->bid_len, DBGD_DEBUGINFO, p, sizeof p))
		cand_try(t, cd, d, p);
}

/* Load the symbols of the files found, or say why there are none. */
static void
load_found(struct dso_ent *d, struct cand *cd, const struct dso_ctx *c)
{
	long nr;

	if (!cd->have_sym && !cd->have_run && cd->have_any) {
		/* An ELF file with neither table: stripped of everything. */
		d->why = SYM_WHY_NO_SYMBOLS;
		d->symfile = xstrdup(cd->anyfile);
		d->runfile = xstrdup(cd->anyfile);
		return;
	}
	if (!cd->have_sym && !cd->have_run) {
		d->why = cd->mismatch ? SYM_WHY_BUILDID_MISMATCH : SYM_WHY_NO_DSO_FILE;
		return;
	}
	if (!cd->have_sym)
		memcpy(cd->symfile, cd->runfile, sizeof cd->symfile);
	if (!cd->have_run)
		memcpy(cd->runfile, cd->symfile, sizeof cd->runfile);
	d->symfile = xstrdup(cd->symfile);
	d->runfile = xstrdup(cd->runfile);
	nr = elfsym_load(cd->symfile, cd->runfile, !c->o->no_demangle, &d->syms, &d->names);
	if (nr < 0)
		d->why = SYM_WHY_BAD_FILE;
	else if (d->syms.n == 0)
		d->why = SYM_WHY_NO_SYMBOLS;
}

static bool
elf_match(const struct dso_ent *d)
{
	return d->kind == DSO_USER;
}

static void
elf_dso_load(struct dso_table *t, struct dso_ent *d, const char *name, const struct dso_ctx *c)
{
	struct cand cd;
	char hex[41], path[PATH_MAX];
	const char *symfs = c->o->symfs;
	bool path_ok;

	memset(&cd, 0, sizeof cd);
	dso_path(path, sizeof path, "%s%s", symfs ? symfs : "", name);
	/* a bundle never looks at the DSO's path on this machine */
	path_ok = !c->no_system && dso_probe(t, path, NULL);
	if (d->bid_len == 0 && path_ok) {
		int n = elfsym_build_id(path, d->bid);

		if (n > 0)
			d->bid_len = (uint8_t)n;
	}
	if (d->bid_len == 0 && !path_ok && !c->o->no_path_cache &&
	    dso_cache_sole_entry(c->buildid_dir, name, hex))
		dso_bid_from_hex(d, hex);
	dso_bid_hex(d, hex);
	if (path_ok)
		try_debuglink(t, &cd, d, path);
	if (d->bid_len > 0)
		try_build_id(t, &cd, d, name, hex, c);
	/* 6. The path itself. */
	if (!cand_done(&cd) && path_ok)
		cand_try(t, &cd, d, path);
	if (!cand_done(&cd))
		try_debuginfod(t, &cd, d, c);
	load_found(d, &cd, c);
}

const struct sym_source symsrc_elf = {
	.name = "elf",
	.match = elf_match,
	.load = elf_dso_load,
	.lines = true,
};
