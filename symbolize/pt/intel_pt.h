/*
 * intel_pt.h: Intel Processor Trace (AUX area) decoding, as perf 6.1 does
 * it when it cannot read the traced code: the events perf synthesizes from
 * the trace (psb, cbr, branches at asynchronous transfers, ...) and its
 * "instruction trace error" lines, with perf's times, threads and order.
 *
 * perf walks the traced instructions with the object files to follow TNT
 * and TIP packets; perfnav has no x86 instruction decoder, so every walk is
 * treated as failing, as it fails in perf when no object file is found
 * ("Failed to get instruction").  Recordings whose object files perf can
 * read give perf instruction and branch samples that this does not make.
 *
 * pt_synth() walks the session's index once, decoding each CPU's (or
 * thread's) trace in step with the other records exactly as perf
 * interleaves them, and returns the synthesized items in output order.
 * Each item says before which index position it comes.  The caller owns
 * the returned array (free()).  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_PT_INTEL_PT_H
#define PERFNAV_SYMBOLIZE_PT_INTEL_PT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"

/* Synthesized events, named as perf names them. X(id, name) */
#define PT_EVENTS(X) \
	X(BRANCHES, "branches") \
	X(TRANSACTIONS, "transactions") \
	X(PTWRITE, "ptwrite") \
	X(CBR, "cbr") \
	X(MWAIT, "mwait") \
	X(PWRE, "pwre") \
	X(EXSTOP, "exstop") \
	X(PWRX, "pwrx") \
	X(PSB, "psb")

enum pt_event {
#define X(id, name) PT_EV_##id,
	PT_EVENTS(X)
#undef X
	PT_EV_COUNT
};

const char *pt_event_name(enum pt_event e);

/* Branch flags of a branches sample (perf's PERF_IP_FLAG_* bits). */
#define PT_FLAG_BRANCH		(1u << 0)
#define PT_FLAG_CALL		(1u << 1)
#define PT_FLAG_RETURN		(1u << 2)
#define PT_FLAG_CONDITIONAL	(1u << 3)
#define PT_FLAG_SYSCALLRET	(1u << 4)
#define PT_FLAG_ASYNC		(1u << 5)
#define PT_FLAG_INTERRUPT	(1u << 6)
#define PT_FLAG_TX_ABORT	(1u << 7)
#define PT_FLAG_TRACE_BEGIN	(1u << 8)
#define PT_FLAG_TRACE_END	(1u << 9)
#define PT_FLAG_IN_TX		(1u << 10)
#define PT_FLAG_VMEXIT		(1u << 11)

enum pt_item_kind {
	PT_ITEM_SAMPLE,
	PT_ITEM_ERROR,
	PT_ITEM_DROPPED,	/* internal to pt_synth(), never in its result */
};

struct pt_item {
	enum pt_item_kind kind;
	enum pt_event	 event;		/* samples */
	uint8_t		 cpumode;	/* samples: PERF_RECORD_MISC_KERNEL / USER */
	int32_t		 pid, tid, cpu;
	uint64_t	 time;		/* perf time (ns) */
	uint64_t	 ip, addr;
	uint32_t	 flags;		/* branches: PT_FLAG_* */
	uint32_t	 code;		/* errors: perf's error code (5: no instruction) */
	uint64_t	 payload;	/* psb: offset in the trace; cbr: the ratio */
	uint32_t	 freq_khz;	/* cbr: the core frequency */
	uint32_t	 max_nonturbo;	/* cbr: the max non-turbo ratio */
	size_t		 before;	/* index position the item is output before */
	/* pt_synth_chains(): the sample's callchain, ips[chain .. chain + nchain) */
	uint32_t	 chain, nchain;
};

/*
 * The comm of an item's thread at its time, as perf names it: the thread's
 * comm, "swapper" for tid 0, else ":TID".  Returns a string of the
 * session's, or buf.
 */
const char *pt_item_comm(const struct session *s, const struct pt_item *it, char *buf,
    size_t n);

/* Error text as perf prints it ("Failed to get instruction"). */
const char *pt_error_text(uint32_t code);

struct hist_filter;

struct pt_opts {
	/*
	 * perf script's defaults (branches at calls and asynchronous
	 * transfers, errors, power events and PSBs) and the probing of code
	 * bytes perf script does at each printed sample; otherwise perf
	 * report's (power events and PSBs).
	 */
	bool	script;
	/*
	 * perf's --time (NULL: none): as perf decodes only the ranges (its
	 * decoder fast-forwards to the last PSB before each start), no state
	 * outside them reports anything, the core ratio is reported again at
	 * the first state inside one when it is not the last one reported,
	 * and script's decoding errors are those from that PSB on.
	 */
	const struct hist_filter *time;
};

/* Does the session hold an Intel PT trace (AUXTRACE_INFO of type 1)? */
bool pt_present(const struct session *s);

/*
 * Decode the session's Intel PT trace.  Returns the number of items
 * (*out malloc'd, NULL when 0), or 0 when there is no trace to decode.
 */
size_t pt_synth(const struct session *s, struct symbolizer *z, const struct pt_opts *o,
    struct pt_item **out);

/*
 * The callchains perf report gives from the trace (when callchains are
 * wanted, its default for a trace): each thread's stack of return
 * addresses follows the decoded calls and returns (pt_stacks, below); a
 * synthesized sample's chain is its ip, then the stack from the top
 * down; a sample of the session without a callchain of its own gets the
 * stack at its time, less the kernel addresses above its ip or the first
 * user address (perf's thread_stack__sample_late), or else its ip alone.
 * Addresses leaf first; each resolves in the mode pt_chain_cpumode() says.
 */
struct pt_late_chain {
	size_t		 pos;		/* index position of the sample */
	uint32_t	 at, n;		/* its addresses, ips[at .. at + n) */
};

struct pt_chains {
	uint64_t	*ips;		/* every chain's addresses */
	size_t		 nips, capips;
	struct pt_late_chain *late;	/* by pos, ascending */
	size_t		 nlate, caplate;
};

/*
 * pt_synth() that also gives each sample item its chain (branches have
 * none) and fills *c (zeroed by the caller; pt_chains_free() it) with the
 * chains and those of the session's samples.
 */
size_t pt_synth_chains(const struct session *s, struct symbolizer *z, const struct pt_opts *o,
    struct pt_item **out, struct pt_chains *c);

/* The chain of the session's sample at index position pos: its count (0: none), *ips. */
size_t pt_chains_of_sample(const struct pt_chains *c, size_t pos, const uint64_t **ips);

/* Give back c's arrays (c itself is the caller's): it is empty again. */
void pt_chains_free(struct pt_chains *c);

/*
 * The chains of a PT session's own samples (perf report's, see above), for
 * a walk over its samples: malloc'd, NULL when there is no trace to decode.
 * pt_chains_free() then free() it.
 */
struct pt_chains *pt_session_chains(const struct session *s, struct symbolizer *z);

struct hist;

/*
 * Add the samples perf report synthesizes from the session's Intel PT
 * trace (pt_synth() without script's extras) to h, as events of their own
 * (attr index session_attrs(s)->n + enum pt_event, named as perf names them).
 * When h keeps call paths and not children, each with its chain
 * (pt_synth_chains()); with children, chains would add entries perf's
 * children table of a trace does not have.  Returns the number of samples
 * added.
 */
size_t pt_hist_add(struct hist *h, const struct session *s, struct symbolizer *z);

/* ---- the decoder (symbolize/pt_decoder.c), also alone for tests ---- */

/* One trace buffer of a queue, in order. */
struct pt_buffer {
	const uint8_t	*data;
	size_t		 len;
	uint64_t	 ref_tsc;	/* the AUXTRACE record's reference (TSC) */
};

/* Decoder parameters (from AUXTRACE_INFO and the PT event's config). */
struct pt_params {
	int		 mtc_shift;	/* MTC period */
	uint32_t	 tsc_ctc_n, tsc_ctc_d;
	unsigned	 max_non_turbo_ratio;
	bool		 branch_enable;
	bool		 return_compression;
};

/*
 * How a code walk from ip ends, as the caller's address lookup answers:
 * PT_WALK_FAIL reports "Failed to get instruction", PT_WALK_SILENT ends
 * the walk without a report (perf's answer for code it already failed to
 * read twice).  nr: the code runs in a guest (VMX non-root).
 */
enum pt_walk { PT_WALK_FAIL, PT_WALK_SILENT };
typedef enum pt_walk (*pt_walk_fn)(void *arg, uint64_t ip, bool nr);

/* What a decoded state is (bits of pt_state.type); each may give a synthesized sample. */
#define PT_ST_BRANCH		(1u << 0)
#define PT_ST_INSTRUCTION	(1u << 1)
#define PT_ST_TRANSACTION	(1u << 2)
#define PT_ST_PTW		(1u << 3)
#define PT_ST_MWAIT		(1u << 4)
#define PT_ST_PWR_ENTRY		(1u << 5)
#define PT_ST_EX_STOP		(1u << 6)
#define PT_ST_PWR_EXIT		(1u << 7)
#define PT_ST_CBR_CHG		(1u << 8)
#define PT_ST_TRACE_BEGIN	(1u << 9)
#define PT_ST_TRACE_END		(1u << 10)
#define PT_ST_PSB		(1u << 11)
#define PT_ST_BLK		(1u << 12)

/* Conditions of a decoded state (bits of pt_state.flags). */
#define PT_SF_IN_TX		(1u << 0)
#define PT_SF_ABORT_TX		(1u << 1)
#define PT_SF_ASYNC		(1u << 2)
#define PT_SF_FUP_IP		(1u << 3)

struct pt_state {
	unsigned	type;		/* PT_ST_* */
	unsigned	flags;		/* PT_SF_* */
	uint64_t	from_ip, to_ip;
	uint64_t	timestamp;	/* TSC */
	uint32_t	err;		/* 0, or perf's error code */
	uint64_t	psb_offset;
	unsigned	cbr;
	uint64_t	payload;	/* ptwrite, mwait, pwre, pwrx */
	bool		from_nr, to_nr;	/* in VMX non-root operation (a guest) */
};

struct pt_decoder;

/* A decoder over bufs (borrowed, n of them); walk says how walks end. */
struct pt_decoder *pt_decoder_new(const struct pt_params *p, const struct pt_buffer *bufs,
    size_t n, pt_walk_fn walk, void *arg);
void pt_decoder_free(struct pt_decoder *d);
/* The next state; err PT_ERR_NODATA (4) at the end of the trace. */
const struct pt_state *pt_decode(struct pt_decoder *d);

/* ---- thread stacks (symbolize/pt/pt_stack.c), also alone for tests ---- */

/* perf's room for a chain made from a trace: 16 frames and a context marker. */
#define PT_CHAIN_ROOM	17

/* The cpumode a chain address resolves in: kernel for the top half, else user. */
uint8_t pt_chain_cpumode(uint64_t ip);

/* Every thread's stack of return addresses (the idle thread's, per CPU). */
struct pt_stacks;

/* An empty set of stacks (never NULL: out of memory aborts). */
struct pt_stacks *pt_stacks_new(void);
void pt_stacks_free(struct pt_stacks *k);

/*
 * A decoded branch of thread tid on cpu, of trace number trace_nr, with
 * perf's flags (PT_FLAG_*): a call pushes from_ip + insn_len (unless it
 * goes there), a return pops down to to_ip, a trace begin pops down to
 * to_ip and drops the calls made as tracing ended.  A new trace number
 * empties the stack first.
 */
void pt_stacks_event(struct pt_stacks *k, int32_t tid, int32_t cpu, uint32_t flags,
    uint64_t from_ip, uint64_t to_ip, unsigned insn_len, uint64_t trace_nr);

/* The thread tid is made anew (a fork of that tid): its stack is empty. */
void pt_stacks_forget(struct pt_stacks *k, int32_t tid);

/*
 * The chain of a sample at ip of thread tid (-1: none) on cpu, leaf first,
 * into out (room addresses): ip, then the return addresses from the top
 * down, as many as fit in room with perf's context markers counted.
 * Returns the count (0 when room < 2).
 */
size_t pt_stacks_sample(const struct pt_stacks *k, int32_t tid, int32_t cpu, uint64_t ip,
    size_t room, uint64_t *out);

/* The same for a sample recorded after it was taken (see struct pt_chains). */
size_t pt_stacks_sample_late(const struct pt_stacks *k, int32_t tid, int32_t cpu, uint64_t ip,
    size_t room, uint64_t *out);

#define PT_ERR_NODATA	4
#define PT_ERR_NOINSN	5
#define PT_ERR_LOST	8

#endif
