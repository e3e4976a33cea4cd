#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/pt/ptpkt.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/pt/pt_internal.h"

/*
 * pt_decoder.c: the Intel PT decoder of symbolize/intel_pt.h, which turns
 * one queue's packets into decoder states.
 *
 * An Intel PT stream (Intel SDM vol. 3, "Intel Processor Trace") carries
 * two sorts of packets.  Control-flow packets (TNT, TIP, TIP.PGE/PGD, FUP)
 * only make sense next to the traced code: a TNT says which way the next
 * conditional branches went, a TIP where the next indirect branch went.
 * Context packets stand alone: the clock (TSC, TMA, MTC, CYC), the
 * core:bus ratio (CBR), paging and VMX context (PIP), the transactional
 * state (MODE.TSX).  A PSB packet, every few kilobytes, is followed by a
 * snapshot of the context (PSB+, up to PSBEND) from which a decoder can
 * start.  perfnav never reads code, so every walk through it fails (the
 * caller says how, see pt_walk_fn): what comes out is the context, the
 * addresses the packets give outright, the events (power, PTWRITE, TSX)
 * and where the decoder loses and regains its footing, all placed at the
 * packets and times where perf places them, so that the output is perf's.
 *
 * The decoder is always in one phase: reading the PSB+ it synchronized
 * on, reading a PSB+ met while in sync, looking for a whole address,
 * waiting for the TIP of an asynchronous transfer whose source a FUP gave,
 * or following the trace.  Each phase reads packets until one ends it.
 * What a packet kind does in each phase is one row of the table `pt_rules`
 * below: feed the clock and context (apply_context(), the same function
 * for every phase), nothing, or end the phase in one of a few common ways;
 * the rest goes to the phase's own small function.
 */

const char *
pt_error_text(uint32_t code)
{
	/* The texts perf prints for these codes. */
	static const char *const text[] = {
		"Unknown error!", "Memory allocation failed", "Internal error", "Bad packet",
		"No more data", "Failed to get instruction", "Trace doesn't match instruction",
		"Overflow packet", "Lost trace data", "Unknown error!", "Never-ending loop",
	};

	return code < sizeof text / sizeof text[0] ? text[code] : text[0];
}

/*
 * The packet rules.  Kinds that end a PSB+ are those that cannot be part
 * of the snapshot; after a FUP, anything but context packets that may
 * come before the TIP means the FUP did not announce a transfer.
 */
const struct rule pt_rules[PTPKT_KIND_COUNT] = {
	/*                    sync PSB+ PSB+  find IP after FUP trace   traits */
	/* padding, maintenance, bytes that are no packet, lost packets */
	[PTPKT_PAD]        = { { SKIP,  SKIP, SKIP,   SKIP,     SKIP }, SIDEBAND },
	[PTPKT_MNT]        = { { SKIP,  SKIP, SKIP,   SKIP,     SKIP }, SIDEBAND | CLOCK_RUNS },
	[PTPKT_BAD]        = { { LOST,  CUT,  LOST,   CUT,      LOST }, 0 },
	[PTPKT_OVF]        = { { OVFL,  OVFL, OVFL,   OVFL,     OVFL }, 0 },
	/* a PSB and the end of its PSB+ */
	[PTPKT_PSB]        = { { SKIP,  CUT,  OWN,    CUT,      OWN },  CLOCK_RUNS },
	[PTPKT_PSBEND]     = { { DONE,  DONE, SKIP,   CUT,      SKIP }, CLOCK_RUNS },
	/* branches */
	[PTPKT_TNT]        = { { OWN,   CUT,  SKIP,   CUT,      OWN },  CLOCK_RUNS },
	[PTPKT_TIP]        = { { CUT,   CUT,  OWN,    OWN,      OWN },  CLOCK_RUNS },
	[PTPKT_FUP]        = { { OWN,   OWN,  OWN,    CUT,      OWN },  CLOCK_RUNS },
	/* tracing enabled, disabled, stopped */
	[PTPKT_TIP_PGE]    = { { CUT,   CUT,  OWN,    OWN,      OWN },  CLOCK_RUNS },
	[PTPKT_TIP_PGD]    = { { CUT,   CUT,  OWN,    OWN,      OWN },  0 },
	[PTPKT_TRACESTOP]  = { { OWN,   CUT,  STOP,   CUT,      STOP }, 0 },
	/* time */
	[PTPKT_TSC]        = { { CTX,   CTX,  CTX,    CUT,      CTX },  SIDEBAND },
	[PTPKT_TMA]        = { { CTX,   CTX,  CTX,    CUT,      CTX },  SIDEBAND },
	[PTPKT_MTC]        = { { CTX,   CTX,  CTX,    CTX,      CTX },  SIDEBAND },
	[PTPKT_CYC]        = { { CTX,   CTX,  CTX,    CTX,      CTX },  SIDEBAND },
	[PTPKT_CBR]        = { { CTX,   CTX,  CTX,    CTX,      OWN },  SIDEBAND },
	/* execution context */
	[PTPKT_MODE_EXEC]  = { { SKIP,  SKIP, SKIP,   SKIP,     SKIP }, SIDEBAND | CLOCK_RUNS },
	[PTPKT_MODE_TSX]   = { { CTX,   CTX,  CTX,    CUT,      OWN },  SIDEBAND | CLOCK_RUNS },
	[PTPKT_PIP]        = { { CTX,   CTX,  CTX,    CTX,      CTX },  SIDEBAND | CLOCK_RUNS },
	[PTPKT_VMCS]       = { { SKIP,  SKIP, SKIP,   SKIP,     SKIP }, SIDEBAND | CLOCK_RUNS },
	/* PTWRITE */
	[PTPKT_PTWRITE]    = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT | CLOCK_RUNS },
	[PTPKT_PTWRITE_IP] = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT | CLOCK_RUNS },
	/* power events */
	[PTPKT_MWAIT]      = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT },
	[PTPKT_PWRE]       = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT },
	[PTPKT_EXSTOP]     = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT },
	[PTPKT_EXSTOP_IP]  = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT },
	[PTPKT_PWRX]       = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT },
	/* block events */
	[PTPKT_BBP]        = { { CUT,   CUT,  SKIP,   CUT,      SKIP }, EVENT | CLOCK_RUNS },
	[PTPKT_BIP]        = { { CUT,   CUT,  SKIP,   CUT,      SKIP }, EVENT | CLOCK_RUNS },
	[PTPKT_BEP]        = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT | CLOCK_RUNS },
	[PTPKT_BEP_IP]     = { { CUT,   CUT,  SKIP,   CUT,      OWN },  EVENT | CLOCK_RUNS },
};

struct pt_decoder *
pt_decoder_new(const struct pt_params *p, const struct pt_buffer *bufs, size_t n, pt_walk_fn walk,
    void *arg)
{
	struct pt_decoder *d = calloc(1, sizeof *d);

	if (d == NULL)
		return NULL;
	d->p = *p;
	d->bufs = bufs;
	d->nbufs = n;
	d->walk = walk;
	d->walk_arg = arg;
	if (d->p.mtc_shift < 0 || d->p.mtc_shift > 15)
		d->p.mtc_shift = 0;
	d->clk.ctc_low_mask = (1u << d->p.mtc_shift) - 1;
	if (d->p.tsc_ctc_n == 0)
		d->p.tsc_ctc_d = 0;
	if (d->p.tsc_ctc_d != 0 && d->p.tsc_ctc_n % d->p.tsc_ctc_d == 0)
		d->clk.tsc_per_ctc = d->p.tsc_ctc_n / d->p.tsc_ctc_d;
	d->sync = SEEK_PSB;
	d->prev_kind = PTPKT_PAD;
	d->pkt.kind = PTPKT_PAD;
	return d;
}

void
pt_decoder_free(struct pt_decoder *d)
{
	free(d);
}

/* ---- addresses and VMX context ---- */

/*
 * The address of a TIP, FUP or TIP.PGE/PGD packet: its IPBytes field says
 * how many low bytes it holds; the rest comes from `base`, the last
 * address seen (3: 6 bytes, sign-extended; 6: all 8 bytes).
 */
static uint64_t
complete_ip(const struct ptpkt *pk, uint64_t base)
{
	switch (pk->count) {
	case 1:
	case 2:
	case 4: {
		unsigned low = pk->count == 4 ? 48 : 16 * (unsigned)pk->count;

		return (base >> low << low) | pk->payload;
	}
	case 3:
		return pk->payload & (UINT64_C(1) << 47) ? pk->payload | ~((UINT64_C(1) << 48) - 1) :
		    pk->payload;
	case 6:
		return pk->payload;
	default:
		return 0;
	}
}

static void
take_base_ip(struct pt_decoder *d)
{
	d->base_ip = complete_ip(&d->pkt, d->base_ip);
	d->base_ip_known = true;
}

static void
take_ip(struct pt_decoder *d)
{
	take_base_ip(d);
	d->ip = d->base_ip;
}

/* Does the packet give an address (one that needs no base, or a base)? */
static bool
gives_ip(const struct pt_decoder *d)
{
	return d->pkt.count && (d->base_ip_known || d->pkt.count == 3 || d->pkt.count == 6);
}

/* The PIP's NR bit: from now on, or from the next branch on. */
static void
guest_now(struct pt_decoder *d)
{
	d->guest = d->pip & 1;
	d->guest_next = d->guest;
}

static void
guest_after_branch(struct pt_decoder *d)
{
	d->guest_next = d->pip & 1;
}

/* ---- the packet stream ---- */

static int
load_buffer(struct pt_decoder *d)
{
	const struct pt_buffer *b;

	d->size = 0;
	if (d->next_buf >= d->nbufs)
		return E_NO_DATA;
	b = &d->bufs[d->next_buf++];
	d->at = b->data;
	d->left = b->len;
	if (d->left == 0)
		return E_NO_DATA;
	d->clk.buffer_ref = b->ref_tsc;
	if (d->next_buf > 1)
		return 0;
	/* The first buffer: nothing is known, start from a PSB. */
	d->ip = 0;
	d->sync = SEEK_PSB;
	d->clk.now = 0;
	d->clk.ctc_known = false;
	d->clk.first_ref = b->ref_tsc;
	return RESTART;
}

/* Bytes that are no packet: step over one of them. */
static int
bad_bytes(struct pt_decoder *d)
{
	d->tsx = 0;
	d->clk.ctc_known = false;
	d->size = 1;
	return E_BAD_PACKET;
}

/* Step to the next packet that is not a PAD (size 0: read pkt again). */
static int
advance(struct pt_decoder *d)
{
	int n;

	d->prev_kind = d->pkt.kind;
	do {
		d->offset += (uint64_t)d->size;
		d->at += d->size;
		d->left -= (size_t)d->size;
		if (d->left == 0) {
			n = load_buffer(d);
			if (n)
				return n;
		}
		n = ptpkt_get(d->at, d->left, &d->pkt, &d->ctx);
		if (n <= 0)
			return bad_bytes(d);
		d->size = n;
	} while (d->pkt.kind == PTPKT_PAD);
	return 0;
}

void
pt_peek(struct pt_decoder *d, pt_peek_fn fn, void *arg)
{
	const uint8_t *at = d->at;
	size_t left = d->left, size = (size_t)d->size;
	enum ptpkt_ctx ctx = d->ctx;
	struct ptpkt pk;
	int n;

	do {
		do {
			at += size;
			left -= size;
			if (left == 0)
				return;
			n = ptpkt_get(at, left, &pk, &ctx);
			if (n <= 0)
				return;
			size = (size_t)n;
		} while (pk.kind == PTPKT_PAD);
	} while (!fn(d, &pk, arg));
}

/* Find the next PSB and step onto it. */
static int
find_psb(struct pt_decoder *d)
{
	for (;;) {
		size_t at;
		int r;

		if (d->left == 0) {
			r = load_buffer(d);
			if (r)
				return r;
		}
		at = ptpkt_find_psb(d->at, d->left);
		if (at < d->left) {
			d->size = (int)at;
			return advance(d);
		}
		d->offset += d->left;
		d->left = 0;
	}
}

/*
 * A clock or context packet: TSC, TMA, MTC, CYC, CBR, PIP or MODE.TSX.
 * A PIP's NR bit applies at once where no branch is pending (PSB+, while
 * looking for an address), else from the next branch on.
 */
static void
apply_context(struct pt_decoder *d, bool guest_at_once)
{
	switch (d->pkt.kind) {
	case PTPKT_TSC:
		pt_clock_tsc(d);
		break;
	case PTPKT_TMA:
		pt_clock_tma(d);
		break;
	case PTPKT_MTC:
		pt_clock_mtc(d);
		break;
	case PTPKT_CYC:
		pt_clock_cyc(d);
		break;
	case PTPKT_CBR:
		pt_clock_cbr(d);
		break;
	case PTPKT_PIP:
		d->pip = d->pkt.payload;
		if (guest_at_once)
			guest_now(d);
		break;
	case PTPKT_MODE_TSX:
		d->tsx = (unsigned)d->pkt.payload & PT_SF_IN_TX;
		break;
	default:
		break;
	}
}

/* ---- steps shared by the phases ---- */

static void
trace_stopped(struct pt_decoder *d)
{
	d->tracing = false;
	d->tsx = 0;
	d->clk.ctc_known = false;
}

static int
overflowed(struct pt_decoder *d)
{
	d->tsx = 0;
	guest_now(d);
	d->sync = RESYNC_IP;
	return E_OVERFLOW;
}

/*
 * Follow the code from ip: perfnav cannot, so the walk fails and the
 * address is lost.  The caller says whether that is reported.
 */
static int
walk_fails(struct pt_decoder *d)
{
	d->sync = SEEK_IP;
	return d->walk(d->walk_arg, d->ip, d->state.to_nr) == PT_WALK_SILENT ? RESTART : E_NO_CODE;
}

/* A state of a plain event at the current address. */
static int
event_state(struct pt_decoder *d, unsigned type, bool with_payload)
{
	d->state.type = type;
	d->state.from_ip = d->ip;
	d->state.to_ip = 0;
	if (with_payload)
		d->state.payload = d->pkt.payload;
	return 0;
}

static int
psb_state(struct pt_decoder *d)
{
	d->state.type = PT_ST_PSB;
	d->state.from_ip = d->psb_fup_ip;
	d->state.to_ip = 0;
	return 0;
}

static unsigned
trace_edge(enum ptpkt_kind k)
{
	return k == PTPKT_TIP_PGE ? PT_ST_TRACE_BEGIN : k == PTPKT_TIP_PGD ? PT_ST_TRACE_END : 0;
}

/*
 * The FUP reached: the events waiting for its address become the state.
 * A transaction or a PTWRITE makes a state of its own; power and block
 * events share one.  Returns whether there was any.
 */
static bool
place_pending_events(struct pt_decoder *d)
{
	const unsigned shared = PT_ST_MWAIT | PT_ST_PWR_ENTRY | PT_ST_EX_STOP | PT_ST_BLK;
	struct pt_state *st = &d->state;
	unsigned ev = d->fup_pending;

	if (ev & PT_ST_TRANSACTION) {
		d->fup_pending &= ~PT_ST_TRANSACTION;
		d->tsx = d->fup_tsx;
		st->type = PT_ST_TRANSACTION | (d->fup_tsx & PT_SF_ABORT_TX ? PT_ST_BRANCH : 0);
		st->flags = d->fup_tsx;
	} else if (ev & PT_ST_PTW) {
		d->fup_pending &= ~PT_ST_PTW;
		st->type = PT_ST_PTW;
		st->flags |= PT_SF_FUP_IP;
		st->payload = d->ptw_payload;
	} else if (ev & shared) {
		d->fup_pending &= ~shared;
		if (ev & PT_ST_MWAIT) {
			st->type = PT_ST_MWAIT;
			st->payload = d->mwait_payload;
		}
		if (ev & PT_ST_PWR_ENTRY)
			st->payload = d->pwre_payload;
		if (ev & PT_ST_EX_STOP)
			st->flags |= PT_SF_FUP_IP;
		if (ev & (shared & ~PT_ST_MWAIT)) {
			/* (an MWAIT alone keeps the state type it sets) */
			st->type |= ev & (shared & ~PT_ST_MWAIT);
			st->type &= ~PT_ST_BRANCH;
		}
	} else {
		return false;
	}
	st->from_ip = d->ip;
	st->to_ip = 0;
	return true;
}

/* The code up to the FUP's address could not be followed. */
static int
fup_not_reached(struct pt_decoder *d)
{
	d->fup_pending &= ~PT_ST_TRANSACTION;
	return walk_fails(d);
}

/*
 * Reach a FUP's address from ip: only possible when already there.  Its
 * events make the state when alone (no TIP to wait for); else GO_ON.
 */
static int
reach_fup(struct pt_decoder *d, bool alone)
{
	if (!d->base_ip || d->ip != d->base_ip)
		return fup_not_reached(d);
	d->sync = TRACING;
	if (place_pending_events(d) && alone)
		return 0;
	return GO_ON;
}

/* ---- phases ---- */

struct phase_ops {
	bool	guest_at_once;			/* PIP's NR applies at once */
	int	(*cut)(struct pt_decoder *d);	/* CUT packets */
	int	(*own)(struct pt_decoder *d);	/* OWN packets */
};

static const struct phase_ops phases[PH_COUNT];

static int
handle(struct pt_decoder *d, enum phase ph)
{
	const struct phase_ops *f = &phases[ph];

	switch ((enum action)pt_rules[d->pkt.kind].in[ph]) {
	case SKIP:
		return GO_ON;
	case CTX:
		apply_context(d, f->guest_at_once);
		return GO_ON;
	case STOP:
		trace_stopped(d);
		return GO_ON;
	case OVFL:
		return overflowed(d);
	case LOST:
		d->sync = SEEK_PSB;
		return E_INTERNAL;
	case DONE:
		return 0;
	case CUT:
		return f->cut(d);
	case OWN:
	default:
		return f->own(d);
	}
}

/* Read packets in phase ph until one ends it. */
static int
run(struct pt_decoder *d, enum phase ph)
{
	for (;;) {
		int r = advance(d);

		if (r)
			return r;
		do
			r = handle(d, ph);
		while (r == AGAIN);
		if (r != GO_ON)
			return r;
	}
}

/* A FUP in PSB+: the address execution is at; tracing is on. */
static int
psb_fup(struct pt_decoder *d, bool take_as_current)
{
	d->tracing = true;
	if (d->pkt.count == 0)
		return GO_ON;
	take_base_ip(d);
	d->psb_fup_ip = d->base_ip;
	if (take_as_current)
		d->ip = d->base_ip;
	return GO_ON;
}

/* PH_SYNC_PSB: anything that is no PSB+ packet means no sync here. */
static int
sync_psb_cut(struct pt_decoder *d)
{
	(void)d;
	return E_MISMATCH;
}

static int
sync_psb_own(struct pt_decoder *d)
{
	switch (d->pkt.kind) {
	case PTPKT_FUP:
		return psb_fup(d, true);
	case PTPKT_TRACESTOP:
		trace_stopped(d);
		/* fall through */
	default:	/* TNT */
		d->clk.ctc_known = false;
		d->sync = d->ip ? TRACING : RESYNC_IP;
		return E_MISMATCH;
	}
}

/* PH_PSB: a packet that is no PSB+ packet belongs to the trace. */
static int
psb_cut(struct pt_decoder *d)
{
	d->clk.ctc_known = false;
	return PSB_CUT;
}

static int
psb_own(struct pt_decoder *d)
{
	return psb_fup(d, false);	/* FUP */
}

/* A PSB+ while in sync: its PSB state, or PSB_CUT. */
static int
psb_in_sync(struct pt_decoder *d)
{
	int r;

	d->base_ip = 0;
	d->psb_fup_ip = 0;
	d->base_ip_known = true;
	r = run(d, PH_PSB);
	return r ? r : psb_state(d);
}

/* PH_FIND_IP: a TIP, TIP.PGE/PGD or FUP with a whole address, or a PSB+. */
static int
find_ip_own(struct pt_decoder *d)
{
	enum ptpkt_kind k = d->pkt.kind;
	int r;

	if (k == PTPKT_PSB) {
		d->state.psb_offset = d->offset;
		d->psb_fup_ip = 0;
		d->base_ip = 0;
		d->base_ip_known = true;
		r = run(d, PH_SYNC_PSB);
		return r ? r : psb_state(d);
	}
	if (k != PTPKT_FUP)
		d->tracing = k != PTPKT_TIP_PGD;
	if (gives_ip(d))
		take_ip(d);
	if (!d->ip)
		return GO_ON;
	d->state.type |= trace_edge(k);
	return 0;
}

/* PH_AFTER_FUP: anything but a TIP means the FUP was no transfer. */
static int
after_fup_cut(struct pt_decoder *d)
{
	d->sync = RESYNC_IP;
	d->size = 0;	/* the packet is looked at again */
	return E_MISMATCH;
}

/* The TIP, TIP.PGE or TIP.PGD: the transfer's destination. */
static int
after_fup_own(struct pt_decoder *d)
{
	enum ptpkt_kind k = d->pkt.kind;
	bool begins = k == PTPKT_TIP_PGE;

	d->state.from_ip = begins ? 0 : d->ip;
	d->state.to_ip = 0;
	if (d->pkt.count) {
		take_ip(d);
		d->state.to_ip = d->ip;
	}
	if (k != PTPKT_TIP)
		d->tracing = begins;
	d->state.type |= trace_edge(k);
	if (begins)
		guest_now(d);
	else
		guest_after_branch(d);
	return 0;
}

/* After a FUP that announces an asynchronous transfer (or a TSX abort). */
static int
follow_fup_tip(struct pt_decoder *d)
{
	if (d->tsx & PT_SF_ABORT_TX) {
		d->tsx = 0;
		d->state.flags &= ~PT_SF_IN_TX;
		d->state.flags |= PT_SF_ABORT_TX;
	} else {
		d->state.flags |= PT_SF_ASYNC;
	}
	return run(d, PH_AFTER_FUP);
}

/* PH_TRACE packets. */

static int
trace_fup(struct pt_decoder *d)
{
	int r;

	if (d->pkt.count == 0) {
		d->fup_alone = false;
		return GO_ON;
	}
	take_base_ip(d);
	if (!d->p.branch_enable) {
		d->ip = d->base_ip;
		if (place_pending_events(d))
			return 0;
		d->fup_alone = false;
		return GO_ON;
	}
	if (d->fup_pending & PT_ST_MWAIT)
		d->fup_alone = true;
	r = reach_fup(d, d->fup_alone);
	if (r != GO_ON)
		return r;
	if (d->fup_alone) {
		d->fup_alone = false;
		return GO_ON;
	}
	return follow_fup_tip(d);
}

/*
 * PSB+ look-ahead: does the PSB+ have a FUP that the code must reach
 * first?  Not when a TIP.PGE closely follows PSBEND (within six packets
 * of sideband or events).
 */
struct psb_scan {
	struct ptpkt	fup;
	bool		have_fup;
	int		after_end;	/* packets still looked at after PSBEND */
};

static bool
psb_scan_packet(struct pt_decoder *d, const struct ptpkt *pk, void *arg)
{
	struct psb_scan *s = arg;
	unsigned traits = pt_rules[pk->kind].traits;

	(void)d;
	switch (pk->kind) {
	case PTPKT_FUP:
		if (s->after_end || s->have_fup || pk->count == 0)
			return true;
		s->fup = *pk;
		s->have_fup = true;
		return false;
	case PTPKT_PSBEND:
		if (!s->have_fup)
			return true;
		s->after_end = 6;
		return false;
	case PTPKT_TIP_PGE:
		if (s->after_end)
			s->have_fup = false;
		return true;
	default:
		if (traits & SIDEBAND)
			return s->after_end && --s->after_end == 0;
		if (traits & EVENT)
			return !s->after_end || --s->after_end == 0;
		return true;
	}
}

/*
 * A PSB while tracing: if its PSB+ has a FUP, the code must first reach
 * that address; then the PSB+ is read.
 */
static int
trace_psb(struct pt_decoder *d)
{
	struct psb_scan s = { .have_fup = false };
	int r;

	d->state.psb_offset = d->offset;
	d->psb_fup_ip = 0;
	if (d->p.branch_enable && d->tracing)
		pt_peek(d, psb_scan_packet, &s);
	if (!s.have_fup) {
		r = psb_in_sync(d);
		return r == PSB_CUT ? AGAIN : r;
	}
	d->pkt = s.fup;
	take_base_ip(d);
	if (d->ip != d->base_ip)
		return fup_not_reached(d);
	d->sync = TRACING;
	if (psb_in_sync(d)) {
		d->sync = RESYNC_IP;
		return E_MISMATCH;
	}
	return 0;
}

/*
 * MODE.TSX while tracing: its FUP places the transaction event (a begin
 * or commit has no TIP); without one, the state applies at once, taken
 * (as perf does) from the packet that came instead.
 */
static int
trace_tsx(struct pt_decoder *d)
{
	unsigned flags = (unsigned)d->pkt.payload & (PT_SF_IN_TX | PT_SF_ABORT_TX);
	int r;

	if (!d->tracing) {
		apply_context(d, false);
		return GO_ON;
	}
	r = advance(d);
	if (r)
		return r;
	if (d->pkt.kind == PTPKT_FUP) {
		d->fup_tsx = flags;
		d->fup_pending |= PT_ST_TRANSACTION;
		if (!(flags & PT_SF_ABORT_TX))
			d->fup_alone = true;
	} else {
		d->tsx = (unsigned)d->pkt.payload & PT_SF_IN_TX;
	}
	return AGAIN;
}

/* An event packet with IP bit: a FUP right after it gives its address. */
static int
event_at_next_fup(struct pt_decoder *d, unsigned event)
{
	int r = advance(d);

	if (r)
		return r;
	if (d->pkt.kind == PTPKT_FUP) {
		d->fup_pending |= event;
		d->fup_alone = true;
	}
	return AGAIN;
}

static int
trace_own(struct pt_decoder *d)
{
	switch (d->pkt.kind) {
	case PTPKT_TNT:
		return d->pkt.count ? walk_fails(d) : GO_ON;
	case PTPKT_TIP:
	case PTPKT_TIP_PGD:
		if (d->pkt.count)
			take_base_ip(d);
		return walk_fails(d);
	case PTPKT_TIP_PGE:
		d->tracing = true;
		guest_now(d);
		if (d->pkt.count == 0)
			return GO_ON;
		take_ip(d);
		d->state.from_ip = 0;
		d->state.to_ip = d->ip;
		d->state.type |= PT_ST_TRACE_BEGIN;
		return 0;
	case PTPKT_FUP:
		return trace_fup(d);
	case PTPKT_PSB:
		return trace_psb(d);
	case PTPKT_CBR:
		apply_context(d, false);
		if (d->clk.cbr == d->cbr_reported)
			return GO_ON;
		d->state.type = 0;	/* a state of its own */
		return 0;
	case PTPKT_MODE_TSX:
		return trace_tsx(d);
	case PTPKT_PTWRITE_IP:
		d->ptw_payload = d->pkt.payload;
		return event_at_next_fup(d, PT_ST_PTW);
	case PTPKT_EXSTOP_IP:
		return event_at_next_fup(d, PT_ST_EX_STOP);
	case PTPKT_BEP_IP:
		return event_at_next_fup(d, PT_ST_BLK);
	case PTPKT_MWAIT:
		/* its address comes with the FUP after the PWRE */
		d->mwait_payload = d->pkt.payload;
		d->fup_pending |= PT_ST_MWAIT;
		return GO_ON;
	case PTPKT_PWRE:
		if (d->fup_pending & PT_ST_MWAIT) {
			d->pwre_payload = d->pkt.payload;
			d->fup_pending |= PT_ST_PWR_ENTRY;
			return GO_ON;
		}
		return event_state(d, PT_ST_PWR_ENTRY, true);
	case PTPKT_PTWRITE:
		return event_state(d, PT_ST_PTW, true);
	case PTPKT_EXSTOP:
		return event_state(d, PT_ST_EX_STOP, false);
	case PTPKT_PWRX:
		return event_state(d, PT_ST_PWR_EXIT, true);
	case PTPKT_BEP:
		return event_state(d, PT_ST_BLK, false);
	default:
		return GO_ON;
	}
}

static const struct phase_ops phases[PH_COUNT] = {
	[PH_SYNC_PSB] = { true, sync_psb_cut, sync_psb_own },
	[PH_PSB] = { true, psb_cut, psb_own },
	[PH_FIND_IP] = { true, NULL, find_ip_own },
	[PH_AFTER_FUP] = { false, after_fup_cut, after_fup_own },
	[PH_TRACE] = { false, NULL, trace_own },
};

/* ---- the steps of pt_decode() ---- */

/* From nothing: the next PSB, and its PSB+. */
static int
sync_on_psb(struct pt_decoder *d)
{
	int r;

	d->tracing = false;
	d->base_ip_known = false;
	d->base_ip = 0;
	d->psb_fup_ip = 0;
	d->ip = 0;
	r = find_psb(d);
	if (r)
		return r;
	d->base_ip_known = true;
	d->sync = SEEK_IP;
	r = run(d, PH_SYNC_PSB);
	if (r)
		return r;
	psb_state(d);
	if (d->ip)
		d->sync = TRACING;
	return 0;
}

/* The next whole address: the trace goes on from there. */
static int
find_ip(struct pt_decoder *d)
{
	int r;

	d->fup_pending = 0;
	if (!d->p.branch_enable) {
		d->sync = TRACING;
		d->state.type = 0;
		return 0;
	}
	r = run(d, PH_FIND_IP);
	if (r || ((d->state.type & PT_ST_PSB) && !d->ip))
		return r;
	d->sync = TRACING;
	d->state.from_ip = 0;
	d->state.to_ip = d->ip;
	return 0;
}

static int
follow_trace(struct pt_decoder *d)
{
	d->fup_alone = false;
	return run(d, PH_TRACE);
}

const struct pt_state *
pt_decode(struct pt_decoder *d)
{
	struct pt_state *st = &d->state;
	int r;

	do {
		st->type = PT_ST_BRANCH;
		st->flags = 0;
		switch (d->sync) {
		case SEEK_PSB:
			r = sync_on_psb(d);
			break;
		case SEEK_IP:
			d->base_ip_known = false;
			d->base_ip = 0;
			d->ip = 0;
			r = find_ip(d);
			break;
		case RESYNC_IP:
			r = find_ip(d);
			break;
		default:
			r = follow_trace(d);
			break;
		}
	} while (r == RESTART);

	if (r) {
		st->err = (uint32_t)r;
		st->from_ip = d->ip;
		guest_now(d);
	} else {
		st->err = 0;
		if (d->clk.cbr != d->cbr_reported) {
			d->cbr_reported = d->clk.cbr;
			if (!st->type) {
				st->from_ip = d->ip;
				st->to_ip = 0;
			}
			st->type |= PT_ST_CBR_CHG;
			st->cbr = d->clk.cbr;
		}
	}
	/* A PSB's state has the time of the TSC in its PSB+. */
	st->timestamp = (st->type & PT_ST_PSB) && d->clk.tsc ? d->clk.tsc : d->clk.now;
	st->from_nr = d->guest;
	st->to_nr = d->guest_next;
	d->guest = d->guest_next;
	return st;
}
