/*
 * pt_internal.h: what the Intel PT decoder's files (pt_decoder.c, the
 * phases and packet rules; pt_clock.c, the clock) share.  Private to
 * symbolize/pt/; the decoder's interface is symbolize/pt/intel_pt.h.
 */
#ifndef PERFNAV_SYMBOLIZE_PT_PT_INTERNAL_H
#define PERFNAV_SYMBOLIZE_PT_PT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/pt/intel_pt.h"
#include "symbolize/pt/ptpkt.h"

/*
 * Step results.  0: a state is ready.  Positive: the error code the state
 * reports (see pt_error_text()).  Negative: how the decoder goes on.
 */
enum {
	E_INTERNAL = 2,
	E_BAD_PACKET = 3,
	E_NO_DATA = 4,
	E_NO_CODE = 5,
	E_MISMATCH = 6,
	E_OVERFLOW = 7,
};

enum {
	GO_ON = -1,		/* on to the next packet, same phase */
	AGAIN = -2,		/* this packet once more, same phase */
	PSB_CUT = -3,		/* a PSB+ ended early, at a packet of the trace */
	RESTART = -4,		/* a new sync state: start over, nothing to report */
};

/* How far the decoder's footing goes, between calls of pt_decode(). */
enum sync {
	SEEK_PSB,	/* nothing known: find a PSB */
	SEEK_IP,	/* the address is lost: forget it and find a whole one */
	RESYNC_IP,	/* after an error: find a whole address again */
	TRACING,	/* in sync: follow the trace */
};

/* The phases a step reads packets in (columns of `rules`). */
enum phase {
	PH_SYNC_PSB,	/* the PSB+ the decoder synchronizes on */
	PH_PSB,		/* a PSB+ met while in sync */
	PH_FIND_IP,	/* looking for a packet with a whole address */
	PH_AFTER_FUP,	/* after the FUP of an asynchronous transfer: its TIP */
	PH_TRACE,	/* in sync */
	PH_COUNT
};

/* What a packet does in a phase. */
enum action {
	SKIP,		/* nothing */
	CTX,		/* feeds the clock or the context: apply_context() */
	STOP,		/* TraceSTOP: tracing stopped; go on */
	OVFL,		/* the processor lost packets: find an address again */
	LOST,		/* no packet: start over from a PSB */
	DONE,		/* the phase is complete: a state is ready */
	CUT,		/* the phase ends early: the phase's cut() */
	OWN,		/* the phase's own handling: its own() */
};

/* Traits of packet kinds for the look-aheads. */
enum {
	SIDEBAND = 1 << 0,	/* may stand in PSB+ around the FUP */
	EVENT = 1 << 1,		/* PTWRITE, power and block events */
	CLOCK_RUNS = 1 << 2,	/* the core clock keeps running across it */
};

struct rule {
	uint8_t	in[PH_COUNT];	/* enum action, by phase */
	uint8_t	traits;
};

/* The packet rules, by packet kind (pt_decoder.c). */
extern const struct rule pt_rules[PTPKT_KIND_COUNT];

/* A TSC packet may fall this far behind the time MTCs and CYCs reached. */
#define TSC_LAG_MAX	UINT64_C(0x10000)
/* TSC packets hold the low 56 bits. */
#define TSC_WRAP	(UINT64_C(1) << 56)
#define TSC_HIGH	(UINT64_C(0xff) << 56)

/*
 * The decoder's idea of the time, in TSC ticks.  A TSC packet gives the
 * TSC outright (low 56 bits); between TSC packets, MTC packets give a
 * slice of the crystal clock (CTC), which a TMA after a TSC ties to the
 * TSC, and CYC packets count core cycles, turned to TSC ticks with a
 * ratio measured between two MTCs or else taken from the core:bus ratio.
 */
struct pt_clock {
	uint64_t	now;		/* the time reached; 0 until known */
	uint64_t	tsc;		/* the last TSC packet, widened to 64 bits */
	uint64_t	first_ref;	/* the first buffer's AUXTRACE TSC, until a TSC packet */
	uint64_t	buffer_ref;	/* the current buffer's AUXTRACE TSC */

	/* CTC: counted from the TMA's value through the MTCs */
	bool		ctc_known;	/* a TMA since the last TSC (nothing lost since) */
	bool		mtc_high_open;	/* the MTC slice reaches above the TMA's 16 bits */
	uint64_t	ctc_start;	/* TSC at the CTC count the MTCs are counted from */
	uint64_t	ctc_ticks;	/* CTC ticks counted since */
	uint32_t	mtc_slice;	/* the last MTC (CTC bits mtc_shift.. mtc_shift + 7) */
	uint32_t	tsc_per_ctc;	/* the TSC:CTC ratio when whole, else 0 */
	uint32_t	ctc_low_mask;	/* CTC bits below the MTC slice */

	/* CYC: core cycles counted from a point in time */
	uint64_t	cyc_start;	/* TSC the cycles count from; 0: none */
	uint64_t	cycles;
	double		tsc_per_cycle;	/* measured over a span between MTCs */
	bool		tsc_per_cycle_known;
	unsigned	cbr;		/* core:bus ratio */
	double		cbr_tsc_per_cycle; /* max non-turbo ratio / cbr */
};

struct pt_decoder {
	struct pt_params	 p;
	const struct pt_buffer	*bufs;
	size_t			 nbufs, next_buf;
	pt_walk_fn		 walk;
	void			*walk_arg;

	/* the stream: pkt is the packet at `at`, `size` bytes long */
	const uint8_t		*at;
	size_t			 left;
	uint64_t		 offset;	/* of `at` in the whole trace */
	int			 size;
	struct ptpkt		 pkt;
	enum ptpkt_ctx		 ctx;
	enum ptpkt_kind		 prev_kind;	/* of the packet before pkt */
	enum sync		 sync;

	/* where the code is */
	uint64_t		 ip;		/* the current address */
	uint64_t		 base_ip;	/* what compressed addresses complete (SDM: last IP) */
	bool			 base_ip_known;
	uint64_t		 psb_fup_ip;	/* the FUP's address in the last PSB+, or 0 */
	bool			 tracing;	/* packets enabled (TIP.PGE .. TIP.PGD) */
	uint64_t		 pip;		/* the last PIP (bit 0: VMX non-root) */
	bool			 guest, guest_next; /* non-root now, after the next branch */
	unsigned		 tsx;		/* PT_SF_IN_TX, PT_SF_ABORT_TX */

	/*
	 * Events that a following FUP gives the address of (PT_ST_* bits),
	 * with their payloads; fup_alone: the FUP to come only places
	 * events, no TIP follows it.
	 */
	unsigned		 fup_pending;
	bool			 fup_alone;
	unsigned		 fup_tsx;
	uint64_t		 ptw_payload, mwait_payload, pwre_payload;

	struct pt_clock		 clk;
	unsigned		 cbr_reported;
	struct pt_state		 state;
};

/*
 * The chains of struct pt_chains, appended (pt_stack.c): that of a
 * synthesized sample (pt_stacks_sample(): *at, *n where it lies in c->ips),
 * and that of the session's sample at index position pos
 * (pt_stacks_sample_late(); positions come in ascending order).
 */
void pt_chains_put(struct pt_chains *c, const struct pt_stacks *k, int32_t tid, int32_t cpu,
    uint64_t ip, uint32_t *at, uint32_t *n);
void pt_chains_put_late(struct pt_chains *c, const struct pt_stacks *k, size_t pos, int32_t tid,
    int32_t cpu, uint64_t ip);

/* Show fn the packets after the current one in this buffer (no PADs) until it returns true. */
typedef bool (*pt_peek_fn)(struct pt_decoder *d, const struct ptpkt *pk, void *arg);
void pt_peek(struct pt_decoder *d, pt_peek_fn fn, void *arg);

/* The clock packets (pt_clock.c): d->pkt is a TSC, TMA, MTC, CBR or CYC packet. */
void pt_clock_tsc(struct pt_decoder *d);
void pt_clock_tma(struct pt_decoder *d);
void pt_clock_mtc(struct pt_decoder *d);
void pt_clock_cbr(struct pt_decoder *d);
void pt_clock_cyc(struct pt_decoder *d);

#endif
