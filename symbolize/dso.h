/*
 * dso.h: the DSO registry of a symbolizer (inside symbolize/).
 *
 * A DSO is what a map points at: a file path, the kernel, a kernel module,
 * the vdso, or a process's JIT code (perf-PID.map).  Each is loaded once,
 * on the first lookup, by the symbol sources of symsrc.h (src_*.c: its ELF
 * file through the build-id cache, --symfs, the path and separate debug
 * files in perf's order, then debuginfod servers; kallsyms; the perf-PID.map; the vdso), which dso.c
 * tries in their table's order.  Names live in the table; symbol ids are
 * global across DSOs.  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_DSO_H
#define PERFNAV_SYMBOLIZE_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hmap.h"
#include "core/thread.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symtab.h"

enum dso_kind {
	DSO_USER,
	DSO_KERNEL,
	DSO_MODULE,
	DSO_VDSO,
	DSO_JIT,
};

struct dbgd;
struct srcline_h;
struct sym_source;

/* An address's inline levels: inl[first .. first + n) of its dso_table. */
struct dso_inl_run {
	uint32_t		 first, n;
};

struct dso_ent {
	uint32_t		 name;		/* strtab id: perf's dso->name (path, [kernel.kallsyms]) */
	uint32_t		 short_name;
	enum dso_kind		 kind;
	int32_t			 pid;		/* DSO_JIT */
	uint8_t			 bid[20];
	uint8_t			 bid_len;
	bool			 loaded;
	uint8_t			 why;		/* enum sym_why when it has no symbols */
	const struct sym_source	*source;	/* what loaded it (symsrc.h), once loaded */
	struct symtab		 syms;
	struct strtab		 names;		/* symbol names, stable after loading */
	uint32_t		 sym_base;	/* global id of syms.v[0] */
	char			*symfile;	/* file the symbols came from */
	char			*runfile;	/* runtime image (program headers, PLT) */
	char			*linefile;	/* kallsyms or perf-PID.map the symbols came from */
	bool			 src_tried;
	struct srcline_h	*src;
	/* srcline memo: rel -> index in src_strs ("" when unknown) */
	struct hmap		 src_memo;
	char			**src_strs;
	size_t			 src_n, src_cap;
	/* inline memo: rel -> index in inl_runs, a run of the table's inl */
	struct hmap		 inl_memo;
	struct dso_inl_run	*inl_runs;
	size_t			 inl_n, inl_cap;
};

/* One level of an address's inline chain. */
struct dso_inl {
	uint32_t	sym;		/* global symbol id: the real one or an inlined one */
	uint32_t	src;		/* strs id of "file.c:12" ("??:0" if unknown) */
};

struct dso_symref {
	uint32_t	dso;
	uint32_t	name;		/* in that DSO's names; inlined: in the symbolizer's strs */
	uint32_t	base;		/* inlined: the real symbol it lies in; else SYM_NONE */
};

/*
 * A file refused while loading a DSO (core/safefile.h: not a regular file,
 * over its size cap, not the user's in a world-writable directory), or
 * read only up to a cap (cut).
 */
struct dso_refusal {
	char		*path;
	char		*why;
	uint32_t	 dso;
	bool		 cut;
};

#define DSO_REFUSALS_MAX	1000

struct dso_table {
	struct dso_ent		*v;
	size_t			 n, cap;
	struct hmap		 by_name;	/* name id -> dso id */
	uint32_t		 kernel;	/* DSO_NONE until a kernel map is seen */
	struct dso_symref	*refs;
	size_t			 nrefs, caprefs;
	struct dso_inl		*inl;		/* inline chains of all DSOs */
	size_t			 ninl, capinl;
	struct hmap		 isym_of;	/* base << 32 | name -> inlined symbol id */
	struct dso_refusal	*refusals;	/* at most DSO_REFUSALS_MAX, in the order met */
	size_t			 nrefusals, caprefusals;
	size_t			 refusals_dropped;
	uint32_t		 loading;	/* the DSO being loaded */
	/* kallsyms files read once for the kernel and every module */
	struct {
		char			*path;
		struct kallsyms_file	*kf;
	}			 ksyms[4];
	size_t			 nksyms;
};

/* What loading needs from the symbolizer. */
struct dso_ctx {
	const struct session	*s;
	const struct sym_opts	*o;
	const char		*buildid_dir;
	const char		*perfmap_dir;
	struct dbgd		*dbgd;		/* debuginfod.h: NULL when not to ask */
	bool			 no_system;	/* sym_opts.no_system: only buildid_dir's files */
};

void dso_table_init(struct dso_table *t);
void dso_table_free(struct dso_table *t);

/* The user DSO of a path (created on first use). */
uint32_t dso_get(struct dso_table *t, struct strtab *strs, const char *name, size_t len);
/* The DSO of a kernel map's file name: [kernel.kallsyms] or a module. */
uint32_t dso_for_kernel_map(struct dso_table *t, struct strtab *strs, const char *filename);
/* The JIT DSO of a process ("/tmp/perf-PID.map", "[JIT] tid PID"). */
uint32_t dso_for_jit(struct dso_table *t, struct strtab *strs, int32_t pid);
/*
 * Keep a refusal (or a cut read) of path for DSO d, once per (path, d);
 * why is copied.  Beyond DSO_REFUSALS_MAX they are counted only.
 */
void dso_add_refusal(struct dso_table *t, uint32_t d, const char *path, const char *why,
    bool cut);
/* The first refusal that left d without symbols (SYM_WHY_REFUSED), or NULL. */
const struct dso_refusal *dso_refusal(const struct dso_table *t, uint32_t d);
/* Give a DSO its build id, unless it has one. */
void dso_set_build_id(struct dso_table *t, uint32_t d, const uint8_t *id, size_t len);

/* The name of the source that loaded d (symsrc.h), or NULL if none has. */
const char *dso_source_name(const struct dso_table *t, uint32_t d);

/* Symbol containing rel (loading the DSO on first use): global id or
 * SYM_NONE; *start gets the symbol's start. */
uint32_t dso_find_sym(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    uint32_t d, uint64_t rel, uint64_t *start);
/* Why a lookup in d found no symbol (after dso_find_sym). */
enum sym_why dso_why(const struct dso_table *t, uint32_t d);

const char *dso_long_name(const struct dso_table *t, const struct strtab *strs, uint32_t d);
const char *dso_short_name(const struct dso_table *t, const struct strtab *strs, uint32_t d);
const char *dso_sym_name(const struct dso_table *t, const struct strtab *strs, uint32_t sym);
/* "file.c:12" of rel in d, memoized; NULL if unknown. */
const char *dso_srcline(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    uint32_t d, uint64_t rel);

/* The source file (path as the DWARF names it, owned by the table) and
 * line of rel in d; 0, or -1 if unknown. */
int dso_source(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t d,
    uint64_t rel, const char **path, int *line);

/*
 * The inline chain of rel in d, as perf 6.1 appends it to callchains
 * (memoized per (DSO, rel)): innermost level first, the real symbol base
 * where the level's function name is base's name, else an inlined symbol
 * named by the function (one id per (base, name)).  Returns the number of
 * levels (0: no chain; the entry stays as it is), *out owned by t.
 */
size_t dso_inlines(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    uint32_t d, uint64_t rel, uint32_t base, const struct dso_inl **out);
/* d's DWARF line tables (loading d and opening them once), or NULL. */
struct srcline_h *dso_lines(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    uint32_t d);
/* A symbol's DSO and [start, end) (an inlined one's real symbol's); 0 or -1. */
int dso_sym_range(const struct dso_table *t, uint32_t sym, uint32_t *dso, uint64_t *start,
    uint64_t *end);
/* The runtime image of d (loading it on first use): the ELF file with its
 * code, or NULL (kallsyms, JIT maps, the in-memory vdso, no file). */
const char *dso_image(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    uint32_t d);
/* Is sym an inlined symbol (printed "name (inlined)")? */
bool dso_sym_inlined(const struct dso_table *t, uint32_t sym);
/* Is sym a data object (an ELF STT_OBJECT symbol, a kallsyms data symbol)? */
bool dso_sym_object(const struct dso_table *t, uint32_t sym);
/* symbolizer_dso_state() of a DSO loaded (symbolizer.h). */
void dso_state(const struct dso_table *t, uint32_t dso, struct sym_dso_state *out);
/* See symbolizer_sym_ident() and symbolizer_sym_by_ident() (symbolizer.h). */
int dso_sym_ident(const struct dso_table *t, const struct strtab *strs, uint32_t sym,
    uint32_t *dso, uint32_t *index, const char **inl_name);
uint32_t dso_sym_by_ident(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    uint32_t d, uint32_t index, const char *inl_name);

/*
 * srcline.c: DWARF line tables and inline chains of one DSO (libdw).  NULL
 * if symfile has no DWARF, or (why REFUSED, the file's path in refused)
 * when a file its DWARF refers to (.gnu_debugaltlink) is one core/safefile
 * refuses, which libdw would open blindly.  why and refused may be NULL.
 */
struct srcline_h *srcline_open(const char *symfile, const char *runfile,
    struct safefile_note *why, char *refused, size_t n);
/* The same, the .gnu_debugaltlink file looked for only as
 * ALTDIR/.build-id/xx/rest.debug when altdir is not NULL (a bundle's). */
struct srcline_h *srcline_open_in(const char *symfile, const char *runfile, const char *altdir,
    struct safefile_note *why, char *refused, size_t n);
/* The path of the .gnu_debugaltlink file h opened, or NULL. */
const char *srcline_alt_path(const struct srcline_h *h);
/* basename:line of a file offset, into buf; 0, or -1 if unknown. */
int srcline_lookup(struct srcline_h *h, uint64_t fileoff, char *buf, size_t n);
/* The source file (its path as the DWARF names it, owned by h) and line
 * of fileoff; 0 or -1. */
int srcline_lookup_file(struct srcline_h *h, uint64_t fileoff, const char **path, int *lineno);
void srcline_close(struct srcline_h *h);
/* One record of addr2line -i -f: a function name and a file:line (file a
 * basename; NULL, and name NULL, when unknown). */
struct srcline_rec {
	const char	*name;
	const char	*file;
	unsigned	 line;
};
/* The records for a file offset, innermost first (see srcline.c); the
 * count, 0 when addr2line would give none.  Strings live as long as h. */
size_t srcline_inlines(struct srcline_h *h, uint64_t fileoff, struct srcline_rec *out, size_t n);

#endif
