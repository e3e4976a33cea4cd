/*
 * annotate.h: one function's samples per instruction, beside its
 * disassembly and source lines, as perf annotate shows them.
 *
 * An annotation is made for one symbol of a symbolizer and fed the samples
 * whose own ip resolved into it (annotate_add, or annotate_collect which
 * walks a session's samples).  annotate_build() then disassembles the
 * function with objdump (binutils; perf annotate runs it too), credits each
 * instruction with the samples at its address, and puts a source row
 * ("file.c:12", from libdw) before every instruction whose line differs
 * from the one before.  When there is no file with the code (kallsyms,
 * JIT maps, the in-memory vdso) or objdump cannot be run, the rows are the
 * sampled addresses alone and a note says why.
 *
 * Nothing here prints.  The annotation owns its rows and their text until
 * annotate_free(); it borrows the symbolizer, which must outlive it.
 */
#ifndef PERFNAV_SYMBOLIZE_ANNOTATE_H
#define PERFNAV_SYMBOLIZE_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/hmap.h"
#include "symbolize/symbolizer.h"

enum annot_kind {
	ANNOT_INSN,		/* an instruction (objdump's text) */
	ANNOT_SRC,		/* the source line of the instructions below */
	ANNOT_ADDR,		/* a sampled address, no disassembly */
};

/* What an instruction row does to the flow (annotate_build parses objdump's text). */
enum annot_branch {
	ANNOT_BR_NONE,
	ANNOT_BR_JUMP,		/* a jump, conditional or not (jmp, jne, loop, b.ne, cbz) */
	ANNOT_BR_CALL,		/* a call (call, bl) */
};

#define ANNOT_ROW_NONE	UINT32_MAX

struct annot_row {
	uint8_t		kind;		/* enum annot_kind */
	uint8_t		branch;		/* enum annot_branch (instructions) */
	bool		has_target;	/* a direct branch: target is its destination */
	uint64_t	rel;		/* address in the DSO's space (frames' rel) */
	uint64_t	vaddr;		/* the address as the file (and objdump) numbers it */
	uint64_t	samples, period;
	uint64_t	target;		/* a direct branch's destination, DSO space */
	uint32_t	target_row;	/* the instruction row it goes to in this function,
					 * ANNOT_ROW_NONE (elsewhere, indirect, no branch) */
	uint32_t	src_row;	/* instructions: the source row above (ANNOT_ROW_NONE) */
	/* source rows: */
	uint32_t	line_first;	/* the first source row of the same file and line */
	uint64_t	line_samples, line_period;	/* on line_first: every instruction
							 * of that line, wherever it lies */
	uint32_t	path;		/* text offset of the file's path, ANNOT_ROW_NONE */
	int32_t		lineno;		/* its line, 0 if unknown */
	/* diff mode (annotate_pair): the other recording's samples of the
	 * instruction at the same offset, or on line_first of the line */
	uint64_t	pair_samples, pair_period;
	uint32_t	text;		/* offset of the row's text in the annotation */
};

/* The per-address counts fed so far (an open-addressing table). */
struct annot_hit {
	uint64_t	rel;
	uint64_t	samples, period;
};

struct annotation {
	struct symbolizer	*z;
	uint32_t		 sym, dso;
	uint64_t		 start, end;	/* the symbol, in the DSO's space */
	uint64_t		 bias;		/* vaddr - rel in the code file */
	bool			 have_code;	/* rows are a disassembly */
	struct annot_row	*rows;
	size_t			 nrows, caprows;
	char			*text;
	size_t			 ntext, captext;
	uint64_t		 samples, period;	/* everything fed */
	uint64_t		 max_period;		/* of the hottest row */
	size_t			 hottest;		/* its row, SIZE_MAX if none */
	char			 note[256];	/* why there is no disassembly, or "" */
	/* diff mode (annotate_pair) */
	bool			 paired;
	bool			 pair_by_offset;	/* else by source line */
	uint64_t		 pair_samples, pair_period;	/* the other's totals */
	/* fed counts */
	struct annot_hit	*hits;			/* in the order first fed */
	size_t			 nhits, caphits;
	struct hmap		 hit_of;		/* rel -> index in hits */
};

struct hist_filter;

struct annot_opts {
	const char	*objdump;	/* program; NULL: $PERFNAV_OBJDUMP, else "objdump" */
	bool		 no_source;	/* no source rows */
	uint64_t	 max_code;	/* bytes of code disassembled at most; 0: 1 MiB */
};

/*
 * An empty annotation of symbol sym of z, or NULL (with *why set, may be
 * NULL) when sym is SYM_NONE or unknown.
 */
struct annotation *annotate_new(struct symbolizer *z, uint32_t sym, const char **why);
void annotate_free(struct annotation *a);

/* Credit one sample at address rel (DSO space) with its period. */
void annotate_add(struct annotation *a, uint64_t rel, uint64_t period);

/*
 * Walk the session's index positions [from, to) and feed every sample of
 * event attr (-1: any) whose own ip resolves (through a's symbolizer) into
 * a's symbol; want (may be NULL) can skip positions cheaply first.
 * Returns the samples fed; undecodable records are skipped.
 */
typedef bool (*annot_want_fn)(void *arg, size_t pos);
uint64_t annotate_collect(struct annotation *a, const struct session *s, int attr, size_t from,
    size_t to, annot_want_fn want, void *arg);
/*
 * The same, with only the samples filter f takes (NULL: all): as perf
 * annotate, every condition of f (time, cpu, pid, tid, comm, DSO, symbol)
 * leaves a sample out, so percentages are of the samples inside.
 */
uint64_t annotate_collect_filter(struct annotation *a, const struct session *s, int attr,
    size_t from, size_t to, const struct hist_filter *f, annot_want_fn want, void *arg);

/*
 * Make the rows from what was fed (call once, after feeding).  Returns 0
 * with a disassembly, 1 with sampled addresses only (a->note says why).
 */
int annotate_build(struct annotation *a, const struct annot_opts *o);

/*
 * The text of line lineno (1-based) of source file path, tabs expanded to
 * 8 columns, into out (cap bytes); what annotate_build() puts
 * in source rows.  False when path is no readable regular file (a FIFO or
 * device is not opened for reading) or has no such line.
 */
bool annotate_source_line(const char *path, int lineno, char *out, size_t cap);

/* A row's text (instruction, "file.c:12", or "" for an address row). */
const char *annotate_row_text(const struct annotation *a, const struct annot_row *r);

/* ---- navigation (annotate_nav.c) ---- */

/*
 * Classify objdump's text of one instruction ("jne    117b <mix_one+0x7>",
 * "call   1149 <fill>", "jmp    *%rax"): enum annot_branch, and for a
 * direct one its destination as objdump numbers it (*vaddr, *direct set).
 */
enum annot_branch annotate_parse_branch(const char *insn, uint64_t *vaddr, bool *direct);
/*
 * What annotate_build() runs last: each instruction's branch and the row a
 * jump inside the function goes to, each source row's line identity and
 * the samples of its line summed.
 */
void annotate_link(struct annotation *a);
/*
 * The symbol of a's DSO that a direct call (or a jump out of the
 * function: a tail call) of row lands in, or SYM_NONE (no branch, an
 * indirect one, an address in no symbol such as a PLT slot).
 */
uint32_t annotate_callee(struct annotation *a, size_t row);

/* Which rows a view shows. */
enum annot_mode {
	ANNOT_MODE_BOTH,	/* source rows and instructions */
	ANNOT_MODE_SOURCE,	/* one row per source line, with its summed samples */
	ANNOT_MODE_ASM,		/* instructions (or addresses) only */
	ANNOT_MODE_N
};
/* The rows mode shows, in order, into out (a->nrows entries); returns how many. */
size_t annotate_visible(const struct annotation *a, enum annot_mode mode, uint32_t *out);
/* A row's samples and period as mode counts them (a source line's sums in
 * ANNOT_MODE_SOURCE, nothing for source rows otherwise). */
uint64_t annotate_row_samples(const struct annotation *a, enum annot_mode mode, size_t row);
uint64_t annotate_row_period(const struct annotation *a, enum annot_mode mode, size_t row);
/* The hottest row mode shows (most period), SIZE_MAX if none has samples. */
size_t annotate_hottest(const struct annotation *a, enum annot_mode mode);
/*
 * The source file and line of a row (a source row's own, an instruction's
 * source row's); false when the DWARF names none.
 */
bool annotate_row_source(const struct annotation *a, size_t row, const char **path, int *line);

/*
 * Diff mode: does b's function come from the same build as a's (their
 * DSOs' build ids equal)?  Then its code is the same, instruction by
 * instruction.
 */
bool annotate_same_build(const struct annotation *a, const struct annotation *b);
/*
 * Diff mode: credit other's samples (the same function in the other
 * recording, built) to a's rows: with by_offset, each instruction's to
 * a's instruction at the same offset in the function (and to its source
 * line); else each source line's to a's same file and line.  The totals
 * go in a->pair_samples and a->pair_period.
 */
void annotate_pair(struct annotation *a, const struct annotation *other, bool by_offset);
/* Does a row show paired numbers in mode (diff: instructions when paired by
 * offset, source lines in the source mode or when paired by line)? */
bool annotate_row_paired(const struct annotation *a, enum annot_mode mode, size_t row);
/* A row's paired period and samples as mode shows them (annotate_row_period's pair). */
uint64_t annotate_row_pair_period(const struct annotation *a, enum annot_mode mode, size_t row);
uint64_t annotate_row_pair_samples(const struct annotation *a, enum annot_mode mode, size_t row);

/* The part of the selected jump's arrow on a row. */
enum annot_arrow {
	ANNOT_AR_NONE,
	ANNOT_AR_FROM_DOWN,	/* the jump, its target below */
	ANNOT_AR_FROM_UP,	/* the jump, its target above */
	ANNOT_AR_TO_DOWN,	/* the target, reached from above */
	ANNOT_AR_TO_UP,		/* the target, reached from below */
	ANNOT_AR_PASS,		/* a row the arrow passes */
};
/* The arrow of the jump on row sel (inside the function) at row. */
enum annot_arrow annotate_arrow(const struct annotation *a, size_t sel, size_t row);

#endif
