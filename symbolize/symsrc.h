/*
 * symsrc.h: symbol sources, one file each, behind one interface (inside
 * symbolize/, not for use outside it).
 *
 * A symbol source fills a DSO's symbol table from one kind of file: the
 * ELF file of a user-space DSO (src_elf.c), kallsyms for the kernel and
 * its modules (src_kallsyms.c), a JIT's perf-PID.map (src_perfmap.c), the
 * vdso's image (src_vdso.c).  dso.c keeps the registry and the build-id
 * cache and, on a DSO's first lookup, tries the sources of symsrc_table in
 * order.  A new source is one file plus one entry in that table
 * (symsrc.c).
 *
 * Every file a source opens goes through core/safefile.h; a file refused
 * (or cut at a cap) is kept with dso_note_file() as a refusal of the DSO
 * being loaded.  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_SYMSRC_H
#define PERFNAV_SYMBOLIZE_SYMSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/safefile.h"
#include "symbolize/dso.h"

struct sym_source {
	const char	*name;		/* "elf", "kallsyms", "perf-map", "vdso" */
	/* Does this source give symbols to d (by its kind)? */
	bool		(*match)(const struct dso_ent *d);
	/*
	 * Fill d->syms and d->names, and d->symfile and d->runfile when it
	 * finds files; set d->why to the reason lookups fail if it finds no
	 * symbols (d->why is SYM_WHY_NOT_IN_SYMBOL on entry).  name is d's
	 * long name; t->loading is d's id.  Never fails otherwise.
	 */
	void		(*load)(struct dso_table *t, struct dso_ent *d, const char *name,
			    const struct dso_ctx *c);
	/* Are d's DWARF line tables and inline chains in its symfile/runfile? */
	bool		 lines;
};

/*
 * The sources, in the order they are tried (NULL-terminated).  For a DSO,
 * each source that matches it loads in turn until one gives symbols; the
 * DSO keeps the reason of the first that matched when none does.
 */
extern const struct sym_source *const symsrc_table[];

extern const struct sym_source symsrc_elf;
extern const struct sym_source symsrc_kallsyms;
extern const struct sym_source symsrc_perfmap;
extern const struct sym_source symsrc_vdso;

/* ---- what dso.c gives the sources ---- */

/* snprintf for paths (a path too long just fails to exist). */
void dso_path(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Keep what core/safefile said of path, if it refused it or cut it short,
 * as a refusal of the DSO being loaded. */
void dso_note_file(struct dso_table *t, const char *path, const struct safefile_note *n);
/*
 * May the file at p be opened under rule (elfsym_rule when NULL)?  One
 * that is there but refused (a FIFO, a device, too large) is kept as a
 * refusal of the DSO being loaded; one that is not there is just absent.
 */
bool dso_probe(struct dso_table *t, const char *p, const struct safefile_rule *rule);
/* d's build id in lower-case hex into hex (41 bytes; "" when none). */
void dso_bid_hex(const struct dso_ent *d, char *hex);
/* Give d the build id of hex digits hex (at most 20 bytes). */
void dso_bid_from_hex(struct dso_ent *d, const char *hex);
/*
 * The build-id cache's file of kind ("elf", "debug", "kallsyms", "vdso")
 * for build id hex under dir: DIR/.build-id/xx/rest (a symlink to the
 * entry's directory, an old-style file, or a file holding the link's
 * target), else DIR/<name>/<hex>/<kind>; into out.  True if found (and
 * not refused: refusals are kept).
 */
bool dso_cache_file(struct dso_table *t, const char *dir, const char *hex, const char *name,
    const char *kind, char *out, size_t n);
/* Without a build id: the only version of a path in the cache, its hex
 * into hex_out (41 bytes).  True if there is exactly one. */
bool dso_cache_sole_entry(const char *dir, const char *name, char *hex_out);

/* ---- what symsrc.c gives the line-file sources (kallsyms, perf-PID.map) ---- */

/* At most so many symbols are kept from a line file (a file of 6-byte
 * lines would otherwise make 40 M symbols of its 256 MiB). */
#define SYMSRC_MAX_SYMS	(4u << 20)
/* After reading a line file under rule: say in note (may be NULL) if the
 * reader or the symbol cap (nr symbols kept) stopped it early. */
void symsrc_lines_end(const struct safefile_lines *lr, const struct safefile_rule *rule, long nr,
    struct safefile_note *note);

#endif
