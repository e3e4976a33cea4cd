/*
 * symbolizer.h: from a sample's (pid, tid, time, cpumode, ip) to a DSO and a
 * function, the way perf report resolves it; and callchains to frames.
 *
 * A struct symbolizer is built over one open session and owns everything
 * it returns: DSO and symbol names are valid until symbolizer_free().  DSOs
 * and symbols are addressed by 32-bit ids.  Work is lazy and cached: a DSO's
 * ELF file is found and opened once, on first use; a lookup is memoized per
 * (DSO, address); nothing is re-read per sample.  So the TUI can resolve just
 * the rows it shows.
 *
 * Nothing here prints.  Every unresolved frame says why (enum sym_why).
 */
#ifndef PERFNAV_SYMBOLIZE_SYMBOLIZER_H
#define PERFNAV_SYMBOLIZE_SYMBOLIZER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct symbolizer;

struct sym_opts {
	const char	*buildid_dir;	/* build-id cache; NULL: $HOME/.debug */
	const char	*kallsyms;	/* NULL: /proc/kallsyms, if the kernel build id matches */
	const char	*perfmap_dir;	/* perf-PID.map files; NULL: /tmp */
	const char	*symfs;		/* prefix for binary paths; NULL: none */
	bool		 no_demangle;	/* keep C++ names mangled */
	bool		 no_srcline;	/* never open DWARF line tables */
	bool		 no_unwind;	/* do not unwind --call-graph dwarf stacks */
	bool		 no_path_cache;	/* a DSO the recording gives no build id resolves from
					 * its path only (perf's lookup), never from the sole
					 * build-id cache entry of that path (which, in a
					 * comparison of two builds, may be the other's) */
	bool		 no_debuginfod;	/* never ask the servers of DEBUGINFOD_URLS */
	bool		 no_system;	/* a bundle's files only (symbolize/bundle.h): files from
					 * buildid_dir, kallsyms and perfmap_dir, never a DSO's
					 * path, /usr/lib/debug, debuginfod, /proc/kallsyms
					 * or this machine's vdso */
	/* Downloads from those servers are counted here (may be NULL; shared
	 * by symbolizers on several threads). */
	struct sym_dbgd_progress *dbgd_progress;
};

/*
 * Downloads from debuginfod servers under way (symbolize/debuginfod.h),
 * for a progress display: updated by the threads that resolve, read by
 * any.  Zero it before use.
 */
struct sym_dbgd_progress {
	atomic_int		active;		/* downloads under way */
	atomic_int_fast64_t	done;		/* bytes of them received */
	atomic_int_fast64_t	total;		/* bytes of them announced (0: unknown) */
	atomic_uint		files;		/* files downloaded so far */
	atomic_bool		stop;		/* set: abandon downloads under way, ask no more */
};

/* Why a frame is not (fully) resolved. X(name, text) */
#define SYM_WHYS(X) \
	X(OK, "resolved") \
	X(NO_MAP, "no mapping covers the address") \
	X(NO_DSO_FILE, "the DSO's file was not found (build-id cache, --symfs, path)") \
	X(BUILDID_MISMATCH, "the file at the DSO's path has another build id") \
	X(NO_SYMBOLS, "the file has no symbol table (stripped)") \
	X(NOT_IN_SYMBOL, "the address is in no symbol of the file") \
	X(NO_KALLSYMS, "no kernel symbols (kallsyms) for this recording") \
	X(JIT_NO_MAP, "no perf-PID.map for this JIT code") \
	X(BAD_FILE, "the DSO's file could not be read as ELF") \
	X(REFUSED, "a file was refused: not a regular file, over its size cap, or not yours in a world-writable directory")

enum sym_why {
#define X(n, t) SYM_WHY_##n,
	SYM_WHYS(X)
#undef X
	SYM_WHY_COUNT
};

/* Text of a reason ("no mapping covers the address"). */
const char *sym_why_text(enum sym_why w);
/* Short name of a reason ("NO_MAP"). */
const char *sym_why_name(enum sym_why w);

#define DSO_NONE UINT32_MAX
#define SYM_NONE UINT32_MAX

/* One resolved address. */
struct frame {
	uint64_t	ip;		/* as recorded */
	uint64_t	rel;		/* address relative to the DSO as perf computes it (map_ip) */
	uint64_t	symoff;		/* ip - symbol start, if sym != SYM_NONE */
	uint32_t	dso;		/* DSO id, or DSO_NONE ([unknown]) */
	uint32_t	sym;		/* symbol id, or SYM_NONE */
	uint8_t		cpumode;	/* PERF_RECORD_MISC_KERNEL/USER/... */
	uint8_t		why;		/* enum sym_why */
	bool		kernel;		/* printed as [k] (kernel or guest kernel) */
	uint32_t	src;		/* inline level: its "file.c:12" (string id + 1), else 0 */
};

/* The address perf 6.1 prints for a callchain frame: a user DSO's frame at
 * its address in the DSO (map_ip), others as recorded. */
static inline uint64_t
frame_chain_addr(const struct frame *f)
{
	return f->dso != DSO_NONE && !f->kernel ? f->rel : f->ip;
}

/*
 * Build a symbolizer over the session (its thread table and map history).
 * Never fails; missing files show up as reasons on frames.
 */
struct symbolizer *symbolizer_new(const struct session *s, const struct sym_opts *o);
void symbolizer_free(struct symbolizer *z);

/*
 * Resolve one address of thread (pid, tid) at time, with the sample's
 * cpumode (misc & PERF_RECORD_MISC_CPUMODE_MASK).  Always fills *out.
 */
void symbolizer_resolve(struct symbolizer *z, int32_t pid, int32_t tid, uint64_t time,
    uint8_t cpumode, uint64_t ip, struct frame *out);

/*
 * Decode the fixed head of sample record r (record_sample_head) into *smp
 * and resolve its own ip (thread -1 when the sample has no TID).  Returns
 * 0, or -1 (*out untouched) if r is no decodable sample.
 */
int symbolizer_resolve_self(struct symbolizer *z, const struct rec *r, struct sample *smp,
    struct frame *out);

/*
 * The inline chain of a callchain frame, as perf 6.1 appends it to
 * unwound chains (its append_inlines(), answered the way addr2line -i -f answers, see
 * symbolize/srcline.c): when the DSO's DWARF has records for the address,
 * one frame per level, innermost first, each a copy of f whose symbol is
 * the real one where the level's function has its name, else an inlined
 * symbol (symbolizer_sym_inlined(), "name (inlined)") named by the
 * function, and whose src is the level's file:line.  Memoized per (DSO,
 * address); answers depend on the order of first queries, as perf's do.
 * Returns the number of levels, at most n written; 0 when f stays as it
 * is (no symbol, no debug info, no record).
 */
size_t symbolizer_inlines(struct symbolizer *z, const struct frame *f, struct frame *out,
    size_t n);
/* Is sym an inlined symbol (made by symbolizer_inlines)? */
bool symbolizer_sym_inlined(const struct symbolizer *z, uint32_t sym);
/* Does z unwind --call-graph dwarf stacks (symbolizer_chain_ips), and so
 * expand their frames into inline levels? */
bool symbolizer_unwinds(const struct symbolizer *z);

/*
 * The callchain of a decoded sample as frames, leaf first, the way perf
 * report builds it; frames unwound from a --call-graph dwarf stack are
 * expanded into their inline levels (symbolizer_inlines), as perf 6.1's
 * unwind_entry() does (recorded frame-pointer chains are not).  For --call-graph dwarf samples (user registers and
 * stack recorded): the kernel part of the recorded chain, then the user
 * stack unwound with DWARF CFI (symbolize/unwind.h).  Otherwise: PERF_CONTEXT_* markers set the cpumode of the entries
 * after them and are dropped (the chain starts in user mode, as perf's),
 * at most max_stack frames (0: no limit).  Frame-pointer chains already
 * start with the sample ip, so nothing else is dropped (perf 6.1 does the
 * same).  With no callchain, one frame for the sample ip.  Returns the
 * number of frames written (at most n).
 */
size_t symbolizer_callchain(struct symbolizer *z, const struct sample *smp, uint16_t misc,
    struct frame *out, size_t n, unsigned max_stack);

/*
 * The raw chain behind symbolizer_callchain: (ip, cpumode) pairs, leaf
 * first, for callers that resolve through caches of their own.  Returns 0
 * for a sample without a chain, and for a chain with a context marker
 * perf does not know (perf drops such chains).
 */
struct chain_ip {
	uint64_t	ip;
	uint8_t		cpumode;
	bool		unwound;	/* from DWARF unwinding (perf expands only these
					 * into inline levels) */
};
size_t symbolizer_chain_ips(struct symbolizer *z, const struct sample *smp, uint16_t misc,
    struct chain_ip *out, size_t n, unsigned max_stack);
/*
 * Is smp's user chain its branch stack (perf's --call-graph lbr: an event
 * with PERF_SAMPLE_BRANCH_CALL_STACK, a user marker within max_stack
 * entries)?  symbolizer_chain_ips then gives the recorded chain up to the
 * marker and the branch stack's calls: the newest call's target, then
 * every call's source.
 */
bool symbolizer_lbr_stack(const struct symbolizer *z, const struct sample *smp,
    unsigned max_stack);
/* Does the sample carry a chain (recorded, or a user stack to unwind)? */
bool symbolizer_has_chain(const struct sample *smp);

/* DSO names: long (the path, "[kernel.kallsyms]", "[JIT] tid 123") and
 * short (basename, as perf report's dso column). */
const char *symbolizer_dso_long(const struct symbolizer *z, uint32_t dso);
const char *symbolizer_dso_short(const struct symbolizer *z, uint32_t dso);
/* Symbol name (demangled unless no_demangle), "[unknown]" for SYM_NONE. */
const char *symbolizer_sym_name(const struct symbolizer *z, uint32_t sym);

/* The name of the symbol source that loaded dso's symbols ("elf",
 * "kallsyms", "perf-map", "vdso": symbolize/symsrc.h), or NULL for a DSO
 * not loaded yet (no lookup in it so far) and for DSO_NONE. */
const char *symbolizer_dso_source(const struct symbolizer *z, uint32_t dso);

/* A file of a DSO that a debuginfod server gave (symbolize/debuginfod.h). */
struct sym_dbgd_file {
	const char	*kind;		/* "executable" or "debuginfo" */
	const char	*path;		/* in the client's cache (DEBUGINFOD_CACHE_PATH) */
	const char	*url;		/* downloaded from; "" when already in the cache */
};
/* The files of a loaded dso that came from debuginfod (its symbol file and
 * its runtime image, when one of them or both did): 0, 1 or 2, into out. */
size_t symbolizer_dso_debuginfod(const struct symbolizer *z, uint32_t dso,
    struct sym_dbgd_file out[2]);
/*
 * Ask debuginfod servers nothing from now on (the browser's UI thread,
 * which must not wait for a download): what they answered before (z's
 * own questions and those taken over from another symbolizer) is kept.
 */
void symbolizer_no_debuginfod(struct symbolizer *z);
/* Take over from's answers from debuginfod servers (a second symbolizer over
 * the same session, done), so z never asks them again. */
void symbolizer_adopt_debuginfod(struct symbolizer *z, const struct symbolizer *from);

/* Number of DSOs (ids 0 .. n-1).  Every DSO is registered when the
 * symbolizer is built, from the session's maps and build ids, so two
 * symbolizers of one session number their DSOs alike. */
size_t symbolizer_ndsos(const struct symbolizer *z);

/*
 * A symbol's identity apart from the order symbols were loaded in (symbol
 * ids are handed out as DSOs load, so two symbolizers of one session
 * number them differently): its DSO, its index in the DSO's symbol table,
 * and for an inlined symbol its name (else NULL; the index is then that of
 * the real symbol it lies in).  Returns 0, or -1 for an unknown id.
 */
int symbolizer_sym_ident(const struct symbolizer *z, uint32_t sym, uint32_t *dso,
    uint32_t *index, const char **inl_name);
/*
 * The id in z of the symbol so identified (loading the DSO, making the
 * inlined symbol if needed), or SYM_NONE if z has no such symbol.
 */
uint32_t symbolizer_sym_by_ident(struct symbolizer *z, uint32_t dso, uint32_t index,
    const char *inl_name);

/*
 * The symbol column as perf report prints it: "[.] name", "[k] name",
 * "[.] name (inlined)",
 * "[.] 0x0000000000045c0e" (rel, unresolved user), "[k] 0xffffffff9661da49"
 * (ip, unresolved kernel).  Writes into buf; returns buf.
 */
const char *symbolizer_sym_label(const struct symbolizer *z, const struct frame *f, char *buf,
    size_t n);

/*
 * Where symbol sym lies: its DSO and [start, end) in the DSO's address
 * space (that of frames' rel); an inlined symbol answers for the real one
 * it lies in.  Returns 0, or -1 for SYM_NONE or an unknown id.
 */
int symbolizer_sym_range(const struct symbolizer *z, uint32_t sym, uint32_t *dso,
    uint64_t *start, uint64_t *end);
/*
 * The symbol of DSO dso holding address rel (DSO space, as frames' rel),
 * loading the DSO's symbols if needed; SYM_NONE if none holds it.
 */
uint32_t symbolizer_sym_at(struct symbolizer *z, uint32_t dso, uint64_t rel);
/*
 * What dso's symbols came from, loading it if no lookup has yet: the source
 * ("elf", "kallsyms"...; NULL: none), the files (NULL: none), why lookups
 * fail (enum sym_why, when it has no symbols), its symbol count and a digest
 * of its symbol table (each symbol's range and name).  A cache of what was
 * resolved (symbolize/hist_cache.h) compares these, and the files' sizes and
 * times, to tell whether a fresh symbolizer would resolve as the one it kept.
 */
struct sym_dso_state {
	const char	*source, *symfile, *runfile;
	uint8_t		 why;
	uint64_t	 nsyms;
	uint64_t	 digest;
};
void symbolizer_dso_state(struct symbolizer *z, uint32_t dso, struct sym_dso_state *out);
/* The build id of dso (at most 20 bytes into out); its length, 0 if none. */
size_t symbolizer_dso_build_id(const struct symbolizer *z, uint32_t dso, uint8_t out[20]);
/* Is sym a data object (STT_OBJECT): perf prints such a symbol of a data
 * address as "name+0xOFFSET". */
bool symbolizer_sym_object(const struct symbolizer *z, uint32_t sym);

/*
 * What perf's dcacheline key sees of the map holding an address (found as
 * symbolizer_resolve finds it): the DSO's device and inode ids, the map's
 * protection and flags.  Returns 0, or -1 when no map holds it.
 */
struct sym_map_id {
	uint32_t	maj, min;
	uint64_t	ino, ino_generation;
	uint32_t	prot, flags;
};
int symbolizer_map_id(struct symbolizer *z, int32_t pid, uint64_t time, uint8_t cpumode,
    uint64_t addr, struct sym_map_id *out);

/*
 * The ELF file holding the code of DSO dso (found and loaded on first use),
 * or NULL when there is none (kallsyms, JIT maps, the in-memory vdso, no
 * file found).  Owned by the symbolizer.
 */
const char *symbolizer_dso_image(struct symbolizer *z, uint32_t dso);

/*
 * The files symbols of dso came from (loading it, and its DWARF line
 * tables, on first use): for a user DSO or the vdso its symbol file, its
 * runtime image and the .gnu_debugaltlink file its DWARF uses; for the
 * kernel and its modules the kallsyms file; for JIT code its perf-PID.map.
 * Each NULL when there is none.  Owned by the symbolizer.
 */
struct sym_dso_files {
	const char	*symfile, *runfile, *altfile;
	bool		 kernel;	/* the kernel or a module: symfile is kallsyms */
	bool		 jit;		/* symfile is a perf-PID.map */
	bool		 vdso;
};
void symbolizer_dso_files(struct symbolizer *z, uint32_t dso, struct sym_dso_files *out);

/* The name in such a label: after its "[.] " / "[k] " level, if it has one. */
const char *symbolizer_label_name(const char *label);

/* "file.c:123" for the frame (libdw line tables; an inline level's own
 * line), or NULL if unknown. */
const char *symbolizer_srcline(struct symbolizer *z, const struct frame *f);

/* The source file of the frame's address (its path as the DWARF names it,
 * owned by the symbolizer) and line; 0, or -1 if unknown. */
int symbolizer_source(struct symbolizer *z, const struct frame *f, const char **path, int *line);

/* Per-DSO count of frames that failed and why, for --why and the UI. */
struct sym_why_count {
	uint32_t	dso;
	uint64_t	count[SYM_WHY_COUNT];
};
/* Fill up to n entries; returns the number of DSOs with failures. */
size_t symbolizer_why_counts(const struct symbolizer *z, struct sym_why_count *out, size_t n);

/*
 * Files refused while symbolizing (core/safefile.h: not a regular file, over
 * the size cap of their kind, a perf-PID.map not the user's or root's in a
 * world-writable directory), or read only up to a cap (cut).  A DSO whose
 * symbols were not found because of one says SYM_WHY_REFUSED.  Strings are
 * owned by the symbolizer.
 */
struct sym_refusal {
	const char	*path;
	const char	*why;		/* "is a FIFO, not a regular file" */
	uint32_t	 dso;		/* the DSO it was for */
	bool		 cut;		/* read, but only up to a cap */
};
/* Fill up to n refusals, in the order met; returns how many there are.
 * *dropped (may be NULL) gets the number not kept (beyond 1000). */
size_t symbolizer_refusals(const struct symbolizer *z, struct sym_refusal *out, size_t n,
    size_t *dropped);
/* Why dso says SYM_WHY_REFUSED: the refused file's reason (and its path
 * into *path, may be NULL), or NULL if it does not. */
const char *symbolizer_dso_refusal(const struct symbolizer *z, uint32_t dso, const char **path);
/* Take over from's refusals (a second symbolizer over the same session,
 * whose DSO ids are the same), so z reports them too. */
void symbolizer_adopt_refusals(struct symbolizer *z, const struct symbolizer *from);

/* Per-DSO count of DWARF unwinds that ended early and why (enum
 * unwind_stop, symbolize/unwind.h); dso is the DSO of the last frame
 * reached, DSO_NONE when no frame was. */
#define SYM_UNWIND_STOPS 9
struct sym_unwind_count {
	uint32_t	dso;
	uint64_t	count[SYM_UNWIND_STOPS];
};
/* Fill up to n entries; returns the number of DSOs with early stops. */
size_t symbolizer_unwind_counts(const struct symbolizer *z, struct sym_unwind_count *out,
    size_t n);

/*
 * The text of reason w for DSO dso's unresolved addresses: sym_why_text(),
 * but for SYM_WHY_REFUSED the refused file and its own reason ("refused:
 * /tmp/perf-1.map: is a FIFO, not a regular file").  Into buf; returns it.
 */
const char *symbolizer_why_text(const struct symbolizer *z, uint32_t dso, unsigned w, char *buf,
    size_t n);

#endif
