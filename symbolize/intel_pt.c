#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "core/ptpkt.h"
#include "symbolize/hist.h"
#include "symbolize/intel_pt.h"

/*
 * The decoder follows the packet stream the way perf 6.1's Intel PT decoder
 * does, so that its states (and so the samples and errors made from them)
 * fall at the same packets with the same timestamps.  Code is never read:
 * wherever perf would walk instructions, the walk fails (see intel_pt.h).
 */

static const char *const event_names[] = {
#define X(id, name) name,
	PT_EVENTS(X)
#undef X
};

const char *
pt_event_name(enum pt_event e)
{
	return (unsigned)e < PT_EV_COUNT ? event_names[e] : "?";
}

/* perf's error codes and texts. */
enum {
	ERR_NOMEM = 1, ERR_INTERN, ERR_BADPKT, ERR_NODATA, ERR_NOINSN, ERR_MISMAT, ERR_OVR,
	ERR_LOST, ERR_UNK, ERR_NELOOP,
};

const char *
pt_error_text(uint32_t code)
{
	static const char *const t[] = {
		"Unknown error!", "Memory allocation failed", "Internal error", "Bad packet",
		"No more data", "Failed to get instruction", "Trace doesn't match instruction",
		"Overflow packet", "Lost trace data", "Unknown error!", "Never-ending loop",
	};

	return code < sizeof t / sizeof t[0] ? t[code] : t[0];
}

const char *
pt_item_comm(const struct session *s, const struct pt_item *it, char *buf, size_t n)
{
	uint32_t th = thread_table_find(&s->threads, it->tid, it->time);
	const char *comm = th != THREAD_NONE ? thread_comm_at(&s->threads, th, it->time) : NULL;

	if (comm != NULL)
		return comm;
	if (it->tid == 0)
		return "swapper";
	snprintf(buf, n, ":%d", (int)it->tid);
	return buf;
}

/* Internal results: 0, or these. */
enum {
	R_AGAIN = -1,	/* go on with the next packet */
	R_LINK = -2,	/* start over in the new packet state, nothing to report */
	R_NODATA = -3,
	R_BADPKT = -4,
	R_NOINSN = -5,
	R_MISMAT = -6,
	R_OVF = -7,
	R_INTERN = -8,
};

static uint32_t
ext_err(int r)
{
	switch (r) {
	case R_NODATA: return ERR_NODATA;
	case R_BADPKT: return ERR_BADPKT;
	case R_NOINSN: return ERR_NOINSN;
	case R_MISMAT: return ERR_MISMAT;
	case R_OVF: return ERR_OVR;
	case R_INTERN: return ERR_INTERN;
	default: return ERR_UNK;
	}
}

enum pkt_state {
	S_NO_PSB,
	S_NO_IP,
	S_ERR_RESYNC,
	S_IN_SYNC,
	S_TNT_CONT,
	S_TNT,
	S_TIP,
	S_TIP_PGD,
	S_FUP,
	S_FUP_NO_TIP,
	S_FUP_IN_PSB,
};

/* States after which the sample time follows the current time. */
static bool
state_updates_time(enum pkt_state st)
{
	switch (st) {
	case S_TNT:
	case S_TIP:
	case S_TIP_PGD:
	case S_FUP:
	case S_FUP_NO_TIP:
	case S_FUP_IN_PSB:
		return false;
	default:
		return true;
	}
}

struct pt_decoder {
	struct pt_params	 p;
	const struct pt_buffer	*bufs;
	size_t			 nbufs, next_buf;
	pt_walk_fn		 walk;
	void			*walk_arg;

	const uint8_t		*buf;
	size_t			 len;
	uint64_t		 pos;
	int			 pkt_step;
	struct ptpkt		 pkt, tnt;
	enum ptpkt_ctx		 ctx;
	enum ptpkt_kind		 last_packet_type;
	enum pkt_state		 pkt_state;

	bool			 pge, in_psb, have_last_ip, have_tma, fixup_last_mtc;
	uint64_t		 pip_payload;
	bool			 nr, next_nr;	/* VMX non-root now / after the branch */
	uint64_t		 last_ip, ip, psb_ip;

	uint64_t		 timestamp, tsc_timestamp, ref_timestamp, buf_timestamp;
	uint64_t		 sample_timestamp;
	uint64_t		 ctc_timestamp, ctc_delta;
	uint32_t		 last_mtc, tsc_ctc_mult, ctc_rem_mask;
	uint64_t		 tsc_slip;
	uint64_t		 cycle_cnt, cyc_ref_timestamp;
	double			 calc_cyc_to_tsc;
	bool			 have_calc_cyc_to_tsc;

	unsigned		 cbr, cbr_seen;
	double			 cbr_cyc_to_tsc;

	unsigned		 tx_flags, fup_tx_flags;
	bool			 set_fup_tx_flags, set_fup_ptw, set_fup_mwait, set_fup_pwre,
				 set_fup_exstop, set_fup_bep;
	uint64_t		 fup_ptw_payload, fup_mwait_payload, fup_pwre_payload;

	struct pt_state		 state;
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
	d->ctc_rem_mask = (1u << d->p.mtc_shift) - 1;
	if (d->p.tsc_ctc_n == 0)
		d->p.tsc_ctc_d = 0;
	if (d->p.tsc_ctc_d != 0 && d->p.tsc_ctc_n % d->p.tsc_ctc_d == 0)
		d->tsc_ctc_mult = d->p.tsc_ctc_n / d->p.tsc_ctc_d;
	d->tsc_slip = 0x10000;
	d->pkt_state = S_NO_PSB;
	d->last_packet_type = PTPKT_PAD;
	d->pkt.kind = PTPKT_PAD;
	return d;
}

void
pt_decoder_free(struct pt_decoder *d)
{
	free(d);
}

static uint64_t
multdiv(uint64_t t, uint32_t n, uint32_t d)
{
	if (d == 0)
		return 0;
	return (t / d) * n + ((t % d) * n) / d;
}

static uint64_t
ctc_to_tsc(const struct pt_decoder *d, uint64_t ctc)
{
	return d->tsc_ctc_mult ? ctc * d->tsc_ctc_mult : multdiv(ctc, d->p.tsc_ctc_n, d->p.tsc_ctc_d);
}

/* ---- addresses ---- */

static uint64_t
calc_ip(const struct ptpkt *pk, uint64_t last_ip)
{
	uint64_t ip;

	switch (pk->count) {
	case 1:
		return (last_ip & UINT64_C(0xffffffffffff0000)) | pk->payload;
	case 2:
		return (last_ip & UINT64_C(0xffffffff00000000)) | pk->payload;
	case 3:
		ip = pk->payload;
		if (ip & UINT64_C(0x800000000000))
			ip |= UINT64_C(0xffff000000000000);
		return ip;
	case 4:
		return (last_ip & UINT64_C(0xffff000000000000)) | pk->payload;
	case 6:
		return pk->payload;
	default:
		return 0;
	}
}

static void
set_last_ip(struct pt_decoder *d)
{
	d->last_ip = calc_ip(&d->pkt, d->last_ip);
	d->have_last_ip = true;
}

static void
set_ip(struct pt_decoder *d)
{
	set_last_ip(d);
	d->ip = d->last_ip;
}

static bool
have_ip(const struct pt_decoder *d)
{
	return d->pkt.count && (d->have_last_ip || d->pkt.count == 3 || d->pkt.count == 6);
}

/* PIP: NR (bit 0) says whether the code is a guest's. */
static void update_pip(struct pt_decoder *d) { d->pip_payload = d->pkt.payload; }
static void update_nr(struct pt_decoder *d) { d->next_nr = d->pip_payload & 1; }

static void
set_nr(struct pt_decoder *d)
{
	d->nr = d->pip_payload & 1;
	d->next_nr = d->nr;
}

static void
set_pip(struct pt_decoder *d)
{
	update_pip(d);
	set_nr(d);
}

/* ---- data ---- */

static void
update_sample_time(struct pt_decoder *d)
{
	d->sample_timestamp = d->timestamp;
}

static int
get_data(struct pt_decoder *d)
{
	const struct pt_buffer *b;

	d->pkt_step = 0;
	if (d->next_buf >= d->nbufs)
		return R_NODATA;
	b = &d->bufs[d->next_buf++];
	d->buf = b->data;
	d->len = b->len;
	if (d->len == 0)
		return R_NODATA;
	d->buf_timestamp = b->ref_tsc;
	if (d->next_buf == 1) {
		/* A new trace: start over from a PSB. */
		d->ip = 0;
		d->pkt_state = S_NO_PSB;
		d->timestamp = 0;
		d->have_tma = false;
		d->ref_timestamp = b->ref_tsc;
		return R_LINK;
	}
	return 0;
}

static int
bad_packet(struct pt_decoder *d)
{
	d->tx_flags = 0;
	d->have_tma = false;
	d->pkt_step = 1;
	return R_BADPKT;
}

static int
next_packet(struct pt_decoder *d)
{
	int r;

	d->last_packet_type = d->pkt.kind;
	do {
		d->pos += (uint64_t)d->pkt_step;
		d->buf += d->pkt_step;
		d->len -= (size_t)d->pkt_step;
		if (d->len == 0) {
			r = get_data(d);
			if (r)
				return r;
		}
		r = ptpkt_get(d->buf, d->len, &d->pkt, &d->ctx);
		if (r <= 0)
			return bad_packet(d);
		d->pkt_step = r;
	} while (d->pkt.kind == PTPKT_PAD);
	return 0;
}

/*
 * Look at the packets after the current one in this buffer (PADs
 * skipped): fn returns non-zero to stop.
 */
typedef int (*look_fn)(struct pt_decoder *d, const struct ptpkt *pk, void *arg);

static void
lookahead(struct pt_decoder *d, look_fn fn, void *arg)
{
	const uint8_t *b = d->buf;
	size_t len = d->len, step = (size_t)d->pkt_step;
	enum ptpkt_ctx ctx = d->ctx;
	struct ptpkt pk;

	for (;;) {
		int r;

		do {
			b += step;
			len -= step;
			if (len == 0)
				return;
			r = ptpkt_get(b, len, &pk, &ctx);
			if (r <= 0)
				return;
			step = (size_t)r;
		} while (pk.kind == PTPKT_PAD);
		if (fn(d, &pk, arg))
			return;
	}
}

/* ---- time ---- */

static uint64_t
tsc_8b(uint64_t tsc, uint64_t ref)
{
	tsc |= ref & (UINT64_C(0xff) << 56);
	if (tsc < ref) {
		if (ref - tsc > (UINT64_C(1) << 55))
			tsc += UINT64_C(1) << 56;
	} else if (tsc - ref > (UINT64_C(1) << 55)) {
		tsc -= UINT64_C(1) << 56;
	}
	return tsc;
}

static void
calc_tsc(struct pt_decoder *d)
{
	uint64_t t;

	d->have_tma = false;
	if (d->ref_timestamp) {
		t = tsc_8b(d->pkt.payload, d->ref_timestamp);
		d->tsc_timestamp = t;
		d->timestamp = t;
		d->ref_timestamp = 0;
	} else if (d->timestamp) {
		t = d->pkt.payload | (d->timestamp & (UINT64_C(0xff) << 56));
		d->tsc_timestamp = t;
		if (t < d->timestamp && d->timestamp - t < d->tsc_slip)
			t = d->timestamp;	/* slipped back past an MTC */
		if (t < d->timestamp) {
			if (!d->buf_timestamp || t + (UINT64_C(1) << 56) < d->buf_timestamp) {
				t += UINT64_C(1) << 56;
				d->tsc_timestamp = t;
			} else {
				t = d->timestamp;
			}
		}
		d->timestamp = t;
	}
	if (d->last_packet_type == PTPKT_CYC) {
		/* (perf does not calibrate cycles against TSC packets) */
		d->cyc_ref_timestamp = d->timestamp;
		d->cycle_cnt = 0;
		d->have_calc_cyc_to_tsc = false;
	}
}

static void
calc_tma(struct pt_decoder *d)
{
	uint32_t ctc = (uint32_t)d->pkt.payload;
	uint32_t fc = (uint32_t)d->pkt.count;
	uint32_t rem = ctc & d->ctc_rem_mask;

	if (!d->p.tsc_ctc_d)
		return;
	d->last_mtc = (ctc >> d->p.mtc_shift) & 0xff;
	d->ctc_timestamp = d->tsc_timestamp - fc - ctc_to_tsc(d, rem);
	d->ctc_delta = 0;
	d->have_tma = true;
	d->fixup_last_mtc = true;
}

/* The TMA gives 16 bits of CTC; with a long MTC period the MTC has bits
 * the TMA lacks: take them from the first MTC, which comes after. */
static void
fixup_last_mtc(uint32_t mtc, int shift, uint32_t *last)
{
	uint32_t first_missing = 1u << (16 - shift);
	uint32_t mask = ~(first_missing - 1);

	*last |= mtc & mask;
	if (*last >= mtc) {
		*last -= first_missing;
		*last &= 0xff;
	}
}

/*
 * After an MTC that follows a CYC: look ahead in the buffer for the next
 * MTC that follows a CYC and take TSC ticks per cycle from the cycles
 * counted in between (as perf does, refusing a ratio over 1.25 times the
 * core:bus ratio's, and stopping at anything that may stop the clock).
 */
static void
calibrate_cyc(struct pt_decoder *d)
{
	const uint8_t *b = d->buf;
	size_t len = d->len, step = (size_t)d->pkt_step;
	enum ptpkt_ctx ctx = d->ctx;
	enum ptpkt_kind last = d->last_packet_type;
	uint64_t cycles = 0, ctc_delta = d->ctc_delta, ts = d->timestamp, t = 0;
	uint32_t last_mtc = d->last_mtc;
	bool fixup = d->fixup_last_mtc;
	unsigned cbr = 0;
	double cbr_ratio = 0, ratio;
	struct ptpkt pk;

	if (!d->have_tma)
		return;
	for (;;) {
		int r;

		do {
			b += step;
			len -= step;
			if (len == 0)
				return;
			r = ptpkt_get(b, len, &pk, &ctx);
			if (r <= 0)
				return;
			step = (size_t)r;
		} while (pk.kind == PTPKT_PAD);
		switch (pk.kind) {
		case PTPKT_TNT: case PTPKT_TIP_PGE: case PTPKT_TIP: case PTPKT_FUP: case PTPKT_PSB:
		case PTPKT_PIP: case PTPKT_MODE_EXEC: case PTPKT_MODE_TSX: case PTPKT_PSBEND:
		case PTPKT_VMCS: case PTPKT_MNT: case PTPKT_PTWRITE: case PTPKT_PTWRITE_IP:
		case PTPKT_BBP: case PTPKT_BIP: case PTPKT_BEP: case PTPKT_BEP_IP:
			last = pk.kind;
			continue;
		case PTPKT_CYC:
			cycles += pk.payload;
			last = pk.kind;
			continue;
		case PTPKT_CBR:
			if (cbr && cbr != (unsigned)pk.payload)
				return;
			cbr = (unsigned)pk.payload;
			cbr_ratio = cbr ? (double)d->p.max_non_turbo_ratio / cbr : 0;
			last = pk.kind;
			continue;
		case PTPKT_MTC: {
			uint32_t mtc = (uint32_t)pk.payload, delta;

			if (d->p.mtc_shift > 8 && fixup) {
				fixup = false;
				fixup_last_mtc(mtc, d->p.mtc_shift, &last_mtc);
			}
			delta = mtc > last_mtc ? mtc - last_mtc : mtc + 256 - last_mtc;
			ctc_delta += (uint64_t)delta << d->p.mtc_shift;
			last_mtc = mtc;
			t = d->ctc_timestamp + ctc_to_tsc(d, ctc_delta);
			if (t < ts)
				return;
			if (last != PTPKT_CYC) {
				ts = t;
				last = pk.kind;
				continue;
			}
			break;
		}
		default:	/* TSC, TMA and whatever may stop the clock */
			return;
		}
		break;
	}
	if (!cbr && d->cbr) {
		cbr = d->cbr;
		cbr_ratio = d->cbr_cyc_to_tsc;
	}
	if (!cycles)
		return;
	ratio = (double)(t - d->timestamp) / (double)cycles;
	if (cbr && ratio > cbr_ratio && ratio / cbr_ratio > 1.25)
		return;
	d->calc_cyc_to_tsc = ratio;
	d->have_calc_cyc_to_tsc = true;
}

static void
calc_mtc(struct pt_decoder *d)
{
	uint32_t mtc, delta;
	uint64_t t;

	if (!d->have_tma)
		return;
	mtc = (uint32_t)d->pkt.payload;
	if (d->p.mtc_shift > 8 && d->fixup_last_mtc) {
		d->fixup_last_mtc = false;
		fixup_last_mtc(mtc, d->p.mtc_shift, &d->last_mtc);
	}
	delta = mtc > d->last_mtc ? mtc - d->last_mtc : mtc + 256 - d->last_mtc;
	d->ctc_delta += (uint64_t)delta << d->p.mtc_shift;
	t = d->ctc_timestamp + ctc_to_tsc(d, d->ctc_delta);
	if (t >= d->timestamp)
		d->timestamp = t;
	d->last_mtc = mtc;
	if (d->last_packet_type == PTPKT_CYC) {
		d->cyc_ref_timestamp = d->timestamp;
		d->cycle_cnt = 0;
		d->have_calc_cyc_to_tsc = false;
		calibrate_cyc(d);
	}
}

static void
calc_cbr(struct pt_decoder *d)
{
	unsigned cbr = (unsigned)d->pkt.payload & 0xff;

	if (d->cbr == cbr)
		return;
	d->cbr = cbr;
	d->cbr_cyc_to_tsc = cbr ? (double)d->p.max_non_turbo_ratio / cbr : 0;
	/* cycles count from here at the new ratio */
	d->cyc_ref_timestamp = d->timestamp;
	d->cycle_cnt = 0;
}

/* CYC: cycles since the last MTC or TSC that followed a CYC, at the
 * calibrated ratio, else the core:bus ratio's. */
static void
calc_cyc(struct pt_decoder *d)
{
	uint64_t t = d->cyc_ref_timestamp;
	double ratio;

	d->cycle_cnt += d->pkt.payload;
	if (!d->cyc_ref_timestamp)
		return;
	if (d->have_calc_cyc_to_tsc)
		ratio = d->calc_cyc_to_tsc;
	else if (d->cbr)
		ratio = d->cbr_cyc_to_tsc;
	else
		return;
	/* in double, as perf computes it */
	t = (uint64_t)((double)t + (double)d->cycle_cnt * ratio);
	if (t >= d->timestamp)
		d->timestamp = t;
}

static int
overflow(struct pt_decoder *d)
{
	d->tx_flags = 0;
	set_nr(d);
	d->pkt_state = S_ERR_RESYNC;
	return R_OVF;
}

/* ---- walks ---- */

/* Walk code from ip to to_ip (0: to the next branch).  Code is never read,
 * so only an empty walk (ip already at to_ip) succeeds. */
static int
walk_insn(struct pt_decoder *d, uint64_t to_ip)
{
	if (to_ip && d->ip == to_ip)
		return R_AGAIN;
	d->pkt_state = S_NO_IP;
	return d->walk(d->walk_arg, d->ip, d->state.to_nr) == PT_WALK_SILENT ? R_LINK : R_NOINSN;
}

static bool
fup_event(struct pt_decoder *d)
{
	bool ret = false;

	if (d->set_fup_tx_flags) {
		d->set_fup_tx_flags = false;
		d->tx_flags = d->fup_tx_flags;
		d->state.type = PT_ST_TRANSACTION;
		if (d->fup_tx_flags & PT_SF_ABORT_TX)
			d->state.type |= PT_ST_BRANCH;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		d->state.flags = d->fup_tx_flags;
		return true;
	}
	if (d->set_fup_ptw) {
		d->set_fup_ptw = false;
		d->state.type = PT_ST_PTW;
		d->state.flags |= PT_SF_FUP_IP;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		d->state.payload = d->fup_ptw_payload;
		return true;
	}
	if (d->set_fup_mwait) {
		d->set_fup_mwait = false;
		d->state.type = PT_ST_MWAIT;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		d->state.payload = d->fup_mwait_payload;
		ret = true;
	}
	if (d->set_fup_pwre) {
		d->set_fup_pwre = false;
		d->state.type |= PT_ST_PWR_ENTRY;
		d->state.type &= ~PT_ST_BRANCH;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		d->state.payload = d->fup_pwre_payload;
		ret = true;
	}
	if (d->set_fup_exstop) {
		d->set_fup_exstop = false;
		d->state.type |= PT_ST_EX_STOP;
		d->state.type &= ~PT_ST_BRANCH;
		d->state.flags |= PT_SF_FUP_IP;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		ret = true;
	}
	if (d->set_fup_bep) {
		d->set_fup_bep = false;
		d->state.type |= PT_ST_BLK;
		d->state.type &= ~PT_ST_BRANCH;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		ret = true;
	}
	return ret;
}

static int
walk_fup(struct pt_decoder *d)
{
	int r = walk_insn(d, d->last_ip);

	if (r == R_AGAIN) {
		bool no_tip = d->pkt_state != S_FUP;

		d->pkt_state = S_IN_SYNC;
		if (fup_event(d) && no_tip)
			return 0;
		return R_AGAIN;
	}
	d->set_fup_tx_flags = false;
	return r;
}

/* After a FUP of an asynchronous transfer: the TIP that says where to. */
static int
walk_fup_tip(struct pt_decoder *d)
{
	int r;

	if (d->tx_flags & PT_SF_ABORT_TX) {
		d->tx_flags = 0;
		d->state.flags &= ~PT_SF_IN_TX;
		d->state.flags |= PT_SF_ABORT_TX;
	} else {
		d->state.flags |= PT_SF_ASYNC;
	}
	for (;;) {
		r = next_packet(d);
		if (r)
			return r;
		switch (d->pkt.kind) {
		case PTPKT_TNT: case PTPKT_FUP: case PTPKT_TRACESTOP: case PTPKT_PSB:
		case PTPKT_TSC: case PTPKT_TMA: case PTPKT_MODE_TSX: case PTPKT_BAD:
		case PTPKT_PSBEND: case PTPKT_PTWRITE: case PTPKT_PTWRITE_IP:
		case PTPKT_EXSTOP: case PTPKT_EXSTOP_IP: case PTPKT_MWAIT: case PTPKT_PWRE:
		case PTPKT_PWRX: case PTPKT_BBP: case PTPKT_BIP: case PTPKT_BEP: case PTPKT_BEP_IP:
			/* Missing TIP after FUP */
			d->pkt_state = S_ERR_RESYNC;
			d->pkt_step = 0;
			return R_MISMAT;
		case PTPKT_CBR:
			calc_cbr(d);
			break;
		case PTPKT_OVF:
			return overflow(d);
		case PTPKT_TIP_PGD:
			d->state.from_ip = d->ip;
			if (d->pkt.count == 0) {
				d->state.to_ip = 0;
			} else {
				set_ip(d);
				d->state.to_ip = d->ip;
			}
			d->pge = false;
			d->state.type |= PT_ST_TRACE_END;
			update_nr(d);
			return 0;
		case PTPKT_TIP_PGE:
			d->pge = true;
			d->state.from_ip = 0;
			if (d->pkt.count == 0) {
				d->state.to_ip = 0;
			} else {
				set_ip(d);
				d->state.to_ip = d->ip;
			}
			d->state.type |= PT_ST_TRACE_BEGIN;
			set_nr(d);
			return 0;
		case PTPKT_TIP:
			d->state.from_ip = d->ip;
			if (d->pkt.count == 0) {
				d->state.to_ip = 0;
			} else {
				set_ip(d);
				d->state.to_ip = d->ip;
			}
			update_nr(d);
			return 0;
		case PTPKT_PIP:
			update_pip(d);
			break;
		case PTPKT_MTC:
			calc_mtc(d);
			break;
		case PTPKT_CYC:
			calc_cyc(d);
			break;
		default:	/* MODE.Exec, VMCS, MNT, PAD */
			break;
		}
	}
}

/* The PSB+ packets once in sync (up to PSBEND). */
static int
walk_psbend(struct pt_decoder *d)
{
	int r;

	d->in_psb = true;
	for (;;) {
		r = next_packet(d);
		if (r)
			break;
		switch (d->pkt.kind) {
		case PTPKT_PSBEND:
			r = 0;
			goto out;
		case PTPKT_TIP_PGD: case PTPKT_TIP_PGE: case PTPKT_TIP: case PTPKT_TNT:
		case PTPKT_TRACESTOP: case PTPKT_BAD: case PTPKT_PSB: case PTPKT_PTWRITE:
		case PTPKT_PTWRITE_IP: case PTPKT_EXSTOP: case PTPKT_EXSTOP_IP: case PTPKT_MWAIT:
		case PTPKT_PWRE: case PTPKT_PWRX: case PTPKT_BBP: case PTPKT_BIP: case PTPKT_BEP:
		case PTPKT_BEP_IP:
			d->have_tma = false;
			r = R_AGAIN;
			goto out;
		case PTPKT_OVF:
			r = overflow(d);
			goto out;
		case PTPKT_TSC:
			calc_tsc(d);
			break;
		case PTPKT_TMA:
			calc_tma(d);
			break;
		case PTPKT_CBR:
			calc_cbr(d);
			break;
		case PTPKT_PIP:
			set_pip(d);
			break;
		case PTPKT_FUP:
			d->pge = true;
			if (d->pkt.count) {
				set_last_ip(d);
				d->psb_ip = d->last_ip;
			}
			break;
		case PTPKT_MODE_TSX:
			d->tx_flags = (unsigned)d->pkt.payload & PT_SF_IN_TX;
			break;
		case PTPKT_MTC:
			calc_mtc(d);
			break;
		case PTPKT_CYC:
			calc_cyc(d);
			break;
		default:
			break;
		}
	}
out:
	d->in_psb = false;
	return r;
}

/* The PSB+ packets when getting in sync. */
static int
walk_psb(struct pt_decoder *d)
{
	int r;

	d->in_psb = true;
	for (;;) {
		r = next_packet(d);
		if (r)
			goto out;
		switch (d->pkt.kind) {
		case PTPKT_TIP_PGD: case PTPKT_TIP_PGE: case PTPKT_TIP: case PTPKT_PTWRITE:
		case PTPKT_PTWRITE_IP: case PTPKT_EXSTOP: case PTPKT_EXSTOP_IP: case PTPKT_MWAIT:
		case PTPKT_PWRE: case PTPKT_PWRX: case PTPKT_BBP: case PTPKT_BIP: case PTPKT_BEP:
		case PTPKT_BEP_IP:
			r = R_MISMAT;
			goto out;
		case PTPKT_FUP:
			d->pge = true;
			if (have_ip(d)) {
				set_ip(d);
				d->psb_ip = d->ip;
			}
			break;
		case PTPKT_PIP:
			set_pip(d);
			break;
		case PTPKT_MTC:
			calc_mtc(d);
			break;
		case PTPKT_TSC:
			calc_tsc(d);
			break;
		case PTPKT_TMA:
			calc_tma(d);
			break;
		case PTPKT_CYC:
			calc_cyc(d);
			break;
		case PTPKT_CBR:
			calc_cbr(d);
			break;
		case PTPKT_MODE_TSX:
			d->tx_flags = (unsigned)d->pkt.payload & PT_SF_IN_TX;
			break;
		case PTPKT_TRACESTOP:
			d->pge = false;
			d->tx_flags = 0;
			/* fall through */
		case PTPKT_TNT:
			d->have_tma = false;
			d->pkt_state = d->ip ? S_IN_SYNC : S_ERR_RESYNC;
			r = R_MISMAT;
			goto out;
		case PTPKT_BAD:
			d->pkt_state = S_NO_PSB;
			r = R_INTERN;
			goto out;
		case PTPKT_OVF:
			r = overflow(d);
			goto out;
		case PTPKT_PSBEND:
			r = 0;
			goto out;
		default:
			break;
		}
	}
out:
	d->in_psb = false;
	return r;
}

/* Scan for a packet that gives a whole address. */
static int
walk_to_ip(struct pt_decoder *d)
{
	int r;

	for (;;) {
		r = next_packet(d);
		if (r)
			return r;
		switch (d->pkt.kind) {
		case PTPKT_TIP_PGD:
			d->pge = false;
			if (have_ip(d))
				set_ip(d);
			if (!d->ip)
				break;
			d->state.type |= PT_ST_TRACE_END;
			return 0;
		case PTPKT_TIP_PGE:
			d->pge = true;
			if (have_ip(d))
				set_ip(d);
			if (!d->ip)
				break;
			d->state.type |= PT_ST_TRACE_BEGIN;
			return 0;
		case PTPKT_TIP:
			d->pge = true;
			if (have_ip(d))
				set_ip(d);
			if (!d->ip)
				break;
			return 0;
		case PTPKT_FUP:
			if (have_ip(d))
				set_ip(d);
			if (d->ip)
				return 0;
			break;
		case PTPKT_MTC:
			calc_mtc(d);
			break;
		case PTPKT_TSC:
			calc_tsc(d);
			break;
		case PTPKT_TMA:
			calc_tma(d);
			break;
		case PTPKT_CYC:
			calc_cyc(d);
			break;
		case PTPKT_CBR:
			calc_cbr(d);
			break;
		case PTPKT_MODE_TSX:
			d->tx_flags = (unsigned)d->pkt.payload & PT_SF_IN_TX;
			break;
		case PTPKT_PIP:
			set_pip(d);
			break;
		case PTPKT_OVF:
			return overflow(d);
		case PTPKT_BAD:
			d->pkt_state = S_NO_PSB;
			return R_INTERN;
		case PTPKT_TRACESTOP:
			d->pge = false;
			d->tx_flags = 0;
			d->have_tma = false;
			break;
		case PTPKT_PSB:
			d->state.psb_offset = d->pos;
			d->psb_ip = 0;
			d->last_ip = 0;
			d->have_last_ip = true;
			r = walk_psb(d);
			if (r)
				return r;
			d->state.type = PT_ST_PSB;
			d->state.from_ip = d->psb_ip;
			d->state.to_ip = 0;
			return 0;
		default:
			break;
		}
	}
}

static int
sync_ip(struct pt_decoder *d)
{
	int r;

	d->set_fup_tx_flags = d->set_fup_ptw = d->set_fup_mwait = false;
	d->set_fup_pwre = d->set_fup_exstop = d->set_fup_bep = false;
	if (!d->p.branch_enable) {
		d->pkt_state = S_IN_SYNC;
		d->state.type = 0;
		return 0;
	}
	r = walk_to_ip(d);
	if (r || ((d->state.type & PT_ST_PSB) && !d->ip))
		return r;
	d->pkt_state = S_IN_SYNC;
	d->state.from_ip = 0;
	d->state.to_ip = d->ip;
	return 0;
}

static int
scan_for_psb(struct pt_decoder *d)
{
	for (;;) {
		size_t off;

		if (d->len == 0) {
			int r = get_data(d);

			if (r)
				return r;
		}
		off = ptpkt_find_psb(d->buf, d->len);
		if (off == d->len) {
			d->pos += d->len;
			d->len = 0;
			continue;
		}
		d->pkt_step = (int)off;
		return next_packet(d);
	}
}

static int
do_sync(struct pt_decoder *d)
{
	int r;

	d->pge = false;
	d->have_last_ip = false;
	d->last_ip = 0;
	d->psb_ip = 0;
	d->ip = 0;
	r = scan_for_psb(d);
	if (r)
		return r;
	d->have_last_ip = true;
	d->pkt_state = S_NO_IP;
	r = walk_psb(d);
	if (r)
		return r;
	d->state.type = PT_ST_PSB;
	d->state.from_ip = d->psb_ip;
	d->state.to_ip = 0;
	if (d->ip)
		d->pkt_state = S_IN_SYNC;
	return 0;
}

static int
do_psb(struct pt_decoder *d)
{
	int r;

	d->last_ip = 0;
	d->psb_ip = 0;
	d->have_last_ip = true;
	r = walk_psbend(d);
	if (r)
		return r;
	d->state.type = PT_ST_PSB;
	d->state.from_ip = d->psb_ip;
	d->state.to_ip = 0;
	return 0;
}

static int
fup_in_psb(struct pt_decoder *d)
{
	int r;

	if (d->ip != d->last_ip) {
		r = walk_fup(d);
		if (r != R_AGAIN)
			return r;
	}
	d->pkt_state = S_IN_SYNC;
	r = do_psb(d);
	if (r) {
		d->pkt_state = S_ERR_RESYNC;
		return R_MISMAT;
	}
	return 0;
}

struct psb_look {
	struct ptpkt	fup;
	bool		have_fup;
	int		after_psbend;
};

static int
psb_look(struct pt_decoder *d, const struct ptpkt *pk, void *arg)
{
	struct psb_look *l = arg;

	(void)d;
	switch (pk->kind) {
	case PTPKT_PAD: case PTPKT_MNT: case PTPKT_TSC: case PTPKT_TMA: case PTPKT_MODE_EXEC:
	case PTPKT_MODE_TSX: case PTPKT_MTC: case PTPKT_CYC: case PTPKT_VMCS: case PTPKT_CBR:
	case PTPKT_PIP:
		if (l->after_psbend && --l->after_psbend == 0)
			return 1;
		return 0;
	case PTPKT_FUP:
		if (l->after_psbend || l->have_fup || pk->count == 0)
			return 1;
		l->fup = *pk;
		l->have_fup = true;
		return 0;
	case PTPKT_PSBEND:
		if (!l->have_fup)
			return 1;
		l->after_psbend = 6;	/* look for a TIP.PGE after it */
		return 0;
	case PTPKT_TIP_PGE:
		if (l->after_psbend)
			l->have_fup = false;
		return 1;
	case PTPKT_PTWRITE: case PTPKT_PTWRITE_IP: case PTPKT_EXSTOP: case PTPKT_EXSTOP_IP:
	case PTPKT_MWAIT: case PTPKT_PWRE: case PTPKT_PWRX: case PTPKT_BBP: case PTPKT_BIP:
	case PTPKT_BEP: case PTPKT_BEP_IP:
		if (l->after_psbend) {
			if (--l->after_psbend == 0)
				return 1;
			return 0;
		}
		return 1;
	default:
		return 1;
	}
}

/* A PSB while tracing: if PSB+ has a FUP, the code up to it comes first. */
static bool
psb_with_fup(struct pt_decoder *d, int *r)
{
	struct psb_look l;

	if (!d->p.branch_enable || !d->pge)
		return false;
	memset(&l, 0, sizeof l);
	lookahead(d, psb_look, &l);
	if (!l.have_fup)
		return false;
	d->pkt = l.fup;
	set_last_ip(d);
	d->pkt_state = S_FUP_IN_PSB;
	*r = fup_in_psb(d);
	return true;
}

static int
mode_tsx(struct pt_decoder *d, bool *no_tip)
{
	unsigned flags = (unsigned)d->pkt.payload & (PT_SF_IN_TX | PT_SF_ABORT_TX);
	int r = next_packet(d);

	if (r)
		return r;
	if (d->pkt.kind == PTPKT_FUP) {
		d->fup_tx_flags = flags;
		d->set_fup_tx_flags = true;
		if (!(flags & PT_SF_ABORT_TX))
			*no_tip = true;
	} else {
		d->tx_flags = (unsigned)d->pkt.payload & PT_SF_IN_TX;
	}
	return 0;
}

static int
walk_trace(struct pt_decoder *d)
{
	bool no_tip = false;
	int r;

	for (;;) {
		r = next_packet(d);
		if (r)
			return r;
next:
		switch (d->pkt.kind) {
		case PTPKT_TNT:
			if (!d->pkt.count)
				break;
			d->tnt = d->pkt;
			d->pkt_state = S_TNT;
			return walk_insn(d, 0);
		case PTPKT_TIP_PGD:
			if (d->pkt.count)
				set_last_ip(d);
			d->pkt_state = S_TIP_PGD;
			return walk_insn(d, 0);
		case PTPKT_TIP_PGE:
			d->pge = true;
			set_nr(d);
			if (d->pkt.count == 0)
				break;
			set_ip(d);
			d->state.from_ip = 0;
			d->state.to_ip = d->ip;
			d->state.type |= PT_ST_TRACE_BEGIN;
			return 0;
		case PTPKT_OVF:
			return overflow(d);
		case PTPKT_TIP:
			if (d->pkt.count)
				set_last_ip(d);
			d->pkt_state = S_TIP;
			return walk_insn(d, 0);
		case PTPKT_FUP:
			if (d->pkt.count == 0) {
				no_tip = false;
				break;
			}
			set_last_ip(d);
			if (!d->p.branch_enable) {
				d->ip = d->last_ip;
				if (fup_event(d))
					return 0;
				no_tip = false;
				break;
			}
			if (d->set_fup_mwait)
				no_tip = true;
			d->pkt_state = no_tip ? S_FUP_NO_TIP : S_FUP;
			r = walk_fup(d);
			if (r != R_AGAIN)
				return r;
			if (no_tip) {
				no_tip = false;
				break;
			}
			return walk_fup_tip(d);
		case PTPKT_TRACESTOP:
			d->pge = false;
			d->tx_flags = 0;
			d->have_tma = false;
			break;
		case PTPKT_PSB:
			d->state.psb_offset = d->pos;
			d->psb_ip = 0;
			if (psb_with_fup(d, &r))
				return r;
			r = do_psb(d);
			if (r == R_AGAIN)
				goto next;
			return r;
		case PTPKT_MTC:
			calc_mtc(d);
			break;
		case PTPKT_TSC:
			calc_tsc(d);
			break;
		case PTPKT_TMA:
			calc_tma(d);
			break;
		case PTPKT_CYC:
			calc_cyc(d);
			break;
		case PTPKT_CBR:
			calc_cbr(d);
			if (d->cbr != d->cbr_seen) {
				d->state.type = 0;
				return 0;
			}
			break;
		case PTPKT_MODE_TSX:
			if (!d->pge || d->in_psb) {
				d->tx_flags = (unsigned)d->pkt.payload & PT_SF_IN_TX;
				break;
			}
			r = mode_tsx(d, &no_tip);
			if (r)
				return r;
			goto next;
		case PTPKT_BAD:
			d->pkt_state = S_NO_PSB;
			return R_INTERN;
		case PTPKT_PTWRITE_IP:
			d->fup_ptw_payload = d->pkt.payload;
			r = next_packet(d);
			if (r)
				return r;
			if (d->pkt.kind == PTPKT_FUP) {
				d->set_fup_ptw = true;
				no_tip = true;
			}
			goto next;
		case PTPKT_PTWRITE:
			d->state.type = PT_ST_PTW;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.payload = d->pkt.payload;
			return 0;
		case PTPKT_MWAIT:
			d->fup_mwait_payload = d->pkt.payload;
			d->set_fup_mwait = true;
			break;
		case PTPKT_PWRE:
			if (d->set_fup_mwait) {
				d->fup_pwre_payload = d->pkt.payload;
				d->set_fup_pwre = true;
				break;
			}
			d->state.type = PT_ST_PWR_ENTRY;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.payload = d->pkt.payload;
			return 0;
		case PTPKT_EXSTOP_IP:
			r = next_packet(d);
			if (r)
				return r;
			if (d->pkt.kind == PTPKT_FUP) {
				d->set_fup_exstop = true;
				no_tip = true;
			}
			goto next;
		case PTPKT_EXSTOP:
			d->state.type = PT_ST_EX_STOP;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			return 0;
		case PTPKT_PWRX:
			d->state.type = PT_ST_PWR_EXIT;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.payload = d->pkt.payload;
			return 0;
		case PTPKT_BEP:
			d->state.type = PT_ST_BLK;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			return 0;
		case PTPKT_BEP_IP:
			r = next_packet(d);
			if (r)
				return r;
			if (d->pkt.kind == PTPKT_FUP) {
				d->set_fup_bep = true;
				no_tip = true;
			}
			goto next;
		case PTPKT_PIP:
			update_pip(d);
			break;
		default:	/* MODE.Exec, PSBEND, VMCS, MNT, BBP, BIP */
			break;
		}
	}
}

const struct pt_state *
pt_decode(struct pt_decoder *d)
{
	int r;

	do {
		d->state.type = PT_ST_BRANCH;
		d->state.flags = 0;
		switch (d->pkt_state) {
		case S_NO_PSB:
			r = do_sync(d);
			break;
		case S_NO_IP:
			d->have_last_ip = false;
			d->last_ip = 0;
			d->ip = 0;
			/* fall through */
		case S_ERR_RESYNC:
			r = sync_ip(d);
			break;
		case S_IN_SYNC:
			r = walk_trace(d);
			break;
		case S_TNT:
		case S_TNT_CONT:
			r = walk_insn(d, 0);
			break;
		case S_TIP:
		case S_TIP_PGD:
			r = walk_insn(d, 0);
			break;
		case S_FUP:
			r = walk_fup(d);
			if (r == R_AGAIN)
				r = walk_fup_tip(d);
			break;
		case S_FUP_NO_TIP:
			r = walk_fup(d);
			if (r == R_AGAIN)
				r = walk_trace(d);
			break;
		case S_FUP_IN_PSB:
			r = fup_in_psb(d);
			break;
		default:
			d->pkt_state = S_NO_PSB;
			r = R_INTERN;
			break;
		}
	} while (r == R_LINK);

	if (r) {
		d->state.err = ext_err(r);
		d->state.from_ip = d->ip;
		update_sample_time(d);
		set_nr(d);
	} else {
		d->state.err = 0;
		if (d->cbr != d->cbr_seen) {
			d->cbr_seen = d->cbr;
			if (!d->state.type) {
				d->state.from_ip = d->ip;
				d->state.to_ip = 0;
			}
			d->state.type |= PT_ST_CBR_CHG;
			d->state.cbr = d->cbr;
		}
		if (state_updates_time(d->pkt_state))
			update_sample_time(d);
	}
	/* A PSB event has the PSB's own TSC. */
	if ((d->state.type & PT_ST_PSB) && d->tsc_timestamp)
		d->sample_timestamp = d->tsc_timestamp;
	d->state.from_nr = d->nr;
	d->state.to_nr = d->next_nr;
	d->nr = d->next_nr;
	d->state.timestamp = d->sample_timestamp;
	return &d->state;
}

/* ---- the session: queues, threads and samples, in perf's order ---- */

#define KERNEL_START	(UINT64_C(1) << 63)

/* AUXTRACE_INFO private words of an Intel PT recording. */
enum {
	PRIV_PMU_TYPE, PRIV_TIME_SHIFT, PRIV_TIME_MULT, PRIV_TIME_ZERO, PRIV_CAP_TIME_ZERO,
	PRIV_TSC_BIT, PRIV_NORETCOMP_BIT, PRIV_HAVE_SCHED_SWITCH, PRIV_SNAPSHOT_MODE,
	PRIV_PER_CPU_MMAPS, PRIV_MTC_BIT, PRIV_MTC_FREQ_BITS, PRIV_TSC_CTC_N, PRIV_TSC_CTC_D,
	PRIV_CYC_BIT, PRIV_MAX_NONTURBO_RATIO, PRIV_FILTER_STR_LEN, PRIV_COUNT
};

#define AUXTRACE_TYPE_INTEL_PT	1

struct ptq {
	uint32_t		 idx;
	int32_t			 cpu, qtid;
	struct pt_buffer	*bufs;
	size_t			 nbufs, capbufs;
	struct pt_decoder	*d;
	const struct pt_state	*state;
	bool			 have_sample, on_heap;
	uint64_t		 timestamp;	/* TSC */
	uint64_t		 ordinal;	/* heap key */
	int32_t			 pid, tid;
	unsigned		 cbr_seen;
	uint32_t		 flags;
};

struct tidpid {
	int32_t	tid, pid;
};

struct ptx {
	const struct session	*s;
	struct symbolizer	*z;
	bool			 script;
	struct ptq		*q;
	size_t			 nq;
	struct ptq		*cur;
	/* TSC <-> perf time */
	uint32_t		 time_shift, time_mult;
	uint64_t		 time_zero;
	int			 have_sched_switch;
	bool			 per_cpu_mmaps;
	bool			 set_up;
	/* what the machine knows: the current tid per cpu, pids of tids */
	int32_t			*cur_tid;
	size_t			 ncpu;
	struct tidpid		*tp;
	size_t			 ntp, captp;
	/* perf's per-DSO data status: could not be read / seen by the trace */
	uint8_t			*dso_err, *dso_seen;
	size_t			 ndso;
	int32_t			*pid_typed;	/* address spaces with a readable DSO */
	size_t			 npt, cappt;
	uint64_t		 now;		/* perf time of the last record delivered */
	uint64_t		 min_ordinal;	/* of the queues on the heap, UINT64_MAX none */
	unsigned		 max_nonturbo;
	uint32_t		 cbr2khz;	/* kHz per CBR step */
	size_t			 pos;		/* index position being delivered */
	uint32_t		 branches_filter;
	struct pt_item		*items;
	size_t			 nitems, capitems;
};

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return p;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	n = realloc(p, ncap * size);
	if (n == NULL)
		abort();
	*cap = ncap;
	return n;
}

static uint64_t
tsc_to_perf(const struct ptx *x, uint64_t tsc)
{
	uint64_t quot = tsc >> x->time_shift;
	uint64_t rem = tsc & ((UINT64_C(1) << x->time_shift) - 1);

	return x->time_zero + quot * x->time_mult + ((rem * x->time_mult) >> x->time_shift);
}

static uint64_t
perf_to_tsc(const struct ptx *x, uint64_t ns)
{
	uint64_t t = ns - x->time_zero;
	uint64_t quot = t / x->time_mult, rem = t % x->time_mult;

	return (quot << x->time_shift) + (rem << x->time_shift) / x->time_mult;
}

static int32_t
pid_of(const struct ptx *x, int32_t tid)
{
	uint32_t th;

	for (size_t i = x->ntp; i-- > 0;)
		if (x->tp[i].tid == tid)
			return x->tp[i].pid;
	th = thread_table_find(&x->s->threads, tid, x->now);
	return th != THREAD_NONE ? x->s->threads.v[th].pid : -1;
}

static bool
knows_tid(const struct ptx *x, int32_t tid)
{
	for (size_t i = 0; i < x->ntp; i++)
		if (x->tp[i].tid == tid)
			return true;
	return thread_table_find(&x->s->threads, tid, x->now) != THREAD_NONE;
}

static void
set_current_tid(struct ptx *x, int64_t cpu, int32_t pid, int32_t tid)
{
	if (cpu < 0 || cpu > 65535)
		return;
	if ((size_t)cpu >= x->ncpu) {
		size_t n = (size_t)cpu + 1;
		int32_t *v = realloc(x->cur_tid, n * sizeof *v);

		if (v == NULL)
			abort();
		for (size_t i = x->ncpu; i < n; i++)
			v[i] = -1;
		x->cur_tid = v;
		x->ncpu = n;
	}
	x->cur_tid[cpu] = tid;
	if (pid != -1) {
		size_t i;

		for (i = 0; i < x->ntp; i++)
			if (x->tp[i].tid == tid)
				break;
		if (i == x->ntp) {
			x->tp = grow(x->tp, &x->captp, x->ntp + 1, sizeof *x->tp);
			x->ntp++;
		}
		x->tp[i].tid = tid;
		x->tp[i].pid = pid;
	}
}

static int32_t
current_tid(const struct ptx *x, int32_t cpu)
{
	return cpu >= 0 && (size_t)cpu < x->ncpu ? x->cur_tid[cpu] : -1;
}

/* The DSO ip lies in for the queue's thread, or DSO_NONE. */
static uint32_t
dso_at(struct ptx *x, int32_t pid, int32_t tid, uint64_t ip)
{
	struct frame f;
	uint8_t cm = ip >= KERNEL_START ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	symbolizer_resolve(x->z, pid, tid, x->now, cm, ip, &f);
	if (f.dso == DSO_NONE || f.dso >= x->ndso)
		return DSO_NONE;
	return f.dso;
}

/* perf reads the [vdso] of its own process: the one DSO it always can. */
static bool
dso_readable(const struct ptx *x, uint32_t dso)
{
	return strcmp(symbolizer_dso_long(x->z, dso), "[vdso]") == 0;
}

static enum pt_walk
walk_cb(void *arg, uint64_t ip, bool nr)
{
	struct ptx *x = arg;
	struct ptq *q = x->cur;
	uint32_t dso;

	if (nr)
		return PT_WALK_FAIL;	/* a guest's code: no guest machine */
	if (ip < KERNEL_START && q->tid == -1)
		return PT_WALK_FAIL;
	dso = dso_at(x, q->pid, q->tid, ip);
	if (dso == DSO_NONE)
		return PT_WALK_FAIL;
	if (x->dso_err[dso]) {
		if (x->dso_seen[dso])
			return PT_WALK_SILENT;
		x->dso_seen[dso] = 1;
		return PT_WALK_FAIL;
	}
	x->dso_err[dso] = 1;
	return PT_WALK_FAIL;
}

/* perf script reads the code bytes at each sample it prints. */
static void
probe_code(struct ptx *x, int32_t pid, int32_t tid, uint64_t ip)
{
	uint32_t dso;

	if (!x->script || ip == 0)
		return;
	dso = dso_at(x, pid, tid, ip);
	if (dso != DSO_NONE && !dso_readable(x, dso))
		x->dso_err[dso] = 1;
}

/* perf asks each DSO mapped into an address space for its type until one
 * answers; those that cannot be read are marked as such. */
static void
probe_map(struct ptx *x, int32_t pid, int32_t tid, uint64_t start)
{
	uint32_t dso;

	for (size_t i = 0; i < x->npt; i++)
		if (x->pid_typed[i] == pid)
			return;
	dso = dso_at(x, pid, tid, start);
	if (dso == DSO_NONE)
		return;
	if (dso_readable(x, dso)) {
		x->pid_typed = grow(x->pid_typed, &x->cappt, x->npt + 1, sizeof *x->pid_typed);
		x->pid_typed[x->npt++] = pid;
	} else {
		x->dso_err[dso] = 1;
	}
}

static struct pt_item *
new_item(struct ptx *x, enum pt_item_kind kind, const struct ptq *q)
{
	struct pt_item *it;

	x->items = grow(x->items, &x->capitems, x->nitems + 1, sizeof *x->items);
	it = &x->items[x->nitems++];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->pid = q->pid;
	it->tid = q->tid;
	it->cpu = q->cpu;
	it->before = x->pos;
	return it;
}

static void
synth_sample(struct ptx *x, struct ptq *q, enum pt_event ev, uint64_t payload)
{
	const struct pt_state *st = q->state;
	struct pt_item *it = new_item(x, PT_ITEM_SAMPLE, q);
	uint64_t mode_ip = st->from_ip ? st->from_ip : st->to_ip;
	bool nr = st->from_ip ? st->from_nr : st->to_nr;

	it->event = ev;
	it->time = tsc_to_perf(x, q->timestamp);
	it->ip = st->from_ip;
	it->addr = st->to_ip;
	if (nr)
		it->cpumode = mode_ip >= KERNEL_START ? PERF_RECORD_MISC_GUEST_KERNEL :
		    PERF_RECORD_MISC_GUEST_USER;
	else
		it->cpumode = mode_ip >= KERNEL_START ? PERF_RECORD_MISC_KERNEL :
		    PERF_RECORD_MISC_USER;
	it->flags = ev == PT_EV_BRANCHES ? q->flags : 0;
	it->payload = payload;
	if (ev == PT_EV_CBR) {
		it->freq_khz = (uint32_t)payload * x->cbr2khz;
		it->max_nonturbo = x->max_nonturbo;
	}
	if (!nr)
		probe_code(x, it->pid, it->tid, it->ip);
}

static void
sample_flags(struct ptq *q)
{
	const struct pt_state *st = q->state;

	if (st->flags & PT_SF_ABORT_TX) {
		q->flags = PT_FLAG_BRANCH | PT_FLAG_TX_ABORT;
	} else if (st->flags & PT_SF_ASYNC) {
		if (!st->to_ip)
			q->flags = PT_FLAG_BRANCH | PT_FLAG_TRACE_END;
		else if (st->from_nr && !st->to_nr)
			q->flags = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_VMEXIT;
		else
			q->flags = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_ASYNC |
			    PT_FLAG_INTERRUPT;
	} else {
		/* Without a walked instruction, a branch from somewhere has no type. */
		q->flags = st->from_ip ? 0 : PT_FLAG_BRANCH | PT_FLAG_TRACE_BEGIN;
		if (st->flags & PT_SF_IN_TX)
			q->flags |= PT_FLAG_IN_TX;
	}
	if (st->type & PT_ST_TRACE_BEGIN)
		q->flags |= PT_FLAG_TRACE_BEGIN;
	if (st->type & PT_ST_TRACE_END)
		q->flags |= PT_FLAG_TRACE_END;
}

/* The samples of the queue's last state. */
static void
queue_sample(struct ptx *x, struct ptq *q)
{
	const struct pt_state *st = q->state;

	if (!q->have_sample)
		return;
	q->have_sample = false;
	if (st->type & PT_ST_PSB)
		synth_sample(x, q, PT_EV_PSB, st->psb_offset);
	if (st->cbr != q->cbr_seen) {
		q->cbr_seen = st->cbr;
		synth_sample(x, q, PT_EV_CBR, st->cbr);
	}
	if (st->type & PT_ST_MWAIT)
		synth_sample(x, q, PT_EV_MWAIT, st->payload);
	if (st->type & PT_ST_PWR_ENTRY)
		synth_sample(x, q, PT_EV_PWRE, st->payload);
	if (st->type & PT_ST_EX_STOP)
		synth_sample(x, q, PT_EV_EXSTOP, 0);
	if (st->type & PT_ST_PWR_EXIT)
		synth_sample(x, q, PT_EV_PWRX, st->payload);
	if (st->type & PT_ST_TRANSACTION)
		synth_sample(x, q, PT_EV_TRANSACTIONS, 0);
	if (st->type & PT_ST_PTW)
		synth_sample(x, q, PT_EV_PTWRITE, st->payload);
	if (!(st->type & PT_ST_BRANCH))
		return;
	if (!x->branches_filter || !(q->flags & x->branches_filter))
		return;
	if (st->from_nr != st->to_nr && st->from_ip && st->to_ip) {
		/* host and guest addresses: perf makes two samples */
		struct pt_state *w = (struct pt_state *)st;
		uint64_t from = w->from_ip, to = w->to_ip;

		w->to_ip = 0;
		synth_sample(x, q, PT_EV_BRANCHES, 0);
		w->from_ip = 0;
		w->to_ip = to;
		synth_sample(x, q, PT_EV_BRANCHES, 0);
		w->from_ip = from;
		return;
	}
	synth_sample(x, q, PT_EV_BRANCHES, 0);
}

/* Decode queue q until its time reaches *ts: 0, or 1 at its end. */
static int
run_decoder(struct ptx *x, struct ptq *q, uint64_t *ts)
{
	x->cur = q;
	for (;;) {
		const struct pt_state *st;

		queue_sample(x, q);
		st = pt_decode(q->d);
		if (st->err) {
			struct pt_item *it;

			if (st->err == PT_ERR_NODATA)
				return 1;
			if (!x->script)
				continue;
			it = new_item(x, PT_ITEM_ERROR, q);
			it->code = st->err;
			it->ip = st->from_ip;
			it->time = tsc_to_perf(x, st->timestamp);
			continue;
		}
		q->state = st;
		q->have_sample = true;
		sample_flags(q);
		/* perf's estimate on return to user space (no instructions counted) */
		if ((st->from_ip >= KERNEL_START || !st->from_ip) && st->to_ip &&
		    st->to_ip < KERNEL_START)
			q->timestamp = st->timestamp;
		else if (st->timestamp > q->timestamp)
			q->timestamp = st->timestamp;
		if (q->timestamp >= *ts) {
			*ts = q->timestamp;
			return 0;
		}
	}
}

static void
set_pid_tid_cpu(struct ptx *x, struct ptq *q)
{
	if (q->qtid == -1 || x->have_sched_switch) {
		q->tid = current_tid(x, q->cpu);
		if (q->tid == -1)
			q->pid = -1;
	}
	if (q->tid != -1 && knows_tid(x, q->tid))
		q->pid = pid_of(x, q->tid);
}

static void update_min(struct ptx *x);

static void
setup_queues(struct ptx *x)
{
	for (size_t i = 0; i < x->nq; i++) {
		struct ptq *q = &x->q[i];

		x->cur = q;
		for (;;) {
			const struct pt_state *st = pt_decode(q->d);

			if (st->err) {
				if (st->err == PT_ERR_NODATA)
					break;
				continue;
			}
			if (st->timestamp) {
				q->timestamp = st->timestamp;
				q->state = st;
				q->have_sample = true;
				sample_flags(q);
				q->ordinal = q->timestamp;
				q->on_heap = true;
				break;
			}
		}
	}
	update_min(x);
}

static struct ptq *
heap_top(struct ptx *x, const struct ptq *skip)
{
	struct ptq *best = NULL;

	for (size_t i = 0; i < x->nq; i++) {
		struct ptq *q = &x->q[i];

		if (q == skip || !q->on_heap)
			continue;
		if (best == NULL || q->ordinal < best->ordinal)
			best = q;
	}
	return best;
}

static void
update_min(struct ptx *x)
{
	const struct ptq *q = heap_top(x, NULL);

	x->min_ordinal = q != NULL ? q->ordinal : UINT64_MAX;
}

/* Decode every queue up to TSC ts (exclusive), earliest first. */
static void
process_queues(struct ptx *x, uint64_t ts)
{
	if (x->min_ordinal >= ts)
		return;		/* the common case: nothing due yet */
	for (;;) {
		struct ptq *q = heap_top(x, NULL), *next;
		uint64_t upto;

		if (q == NULL || q->ordinal >= ts) {
			update_min(x);
			return;
		}
		q->on_heap = false;
		next = heap_top(x, q);
		upto = ts;
		if (next != NULL && next->ordinal + 1 < ts)
			upto = next->ordinal + 1;
		set_pid_tid_cpu(x, q);
		if (run_decoder(x, q, &upto) == 0) {
			q->ordinal = upto;
			q->on_heap = true;
		}
	}
}

/* What perf does with a record once the trace is decoded up to it. */
static void
deliver(struct ptx *x, const struct rec *r)
{
	struct sample_id sid;
	uint16_t cm = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	switch (r->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = r->misc & PERF_RECORD_MISC_SWITCH_OUT;

		if (record_decode_sample_id(x->s, r, &sid) < 0 || !(sid.have & PERF_SAMPLE_CPU))
			return;
		if (x->have_sched_switch == 3) {
			if (!out) {
				if (current_tid(x, (int32_t)sid.cpu) != (int32_t)sid.tid)
					set_current_tid(x, sid.cpu, (int32_t)sid.pid, (int32_t)sid.tid);
				return;
			}
			if (r->type != PERF_RECORD_SWITCH_CPU_WIDE || r->size < 16)
				return;
			set_current_tid(x, sid.cpu, (int32_t)rd32(r->p + 8, r->swap),
			    (int32_t)rd32(r->p + 12, r->swap));
		} else if (!out) {
			set_current_tid(x, sid.cpu, (int32_t)sid.pid, (int32_t)sid.tid);
		}
		return;
	}
	case PERF_RECORD_AUX:
		/* A truncated AUX area: perf reports lost trace data. */
		if (!x->script || r->size < 32 || !(rd64(r->p + 24, r->swap) & 1))
			return;
		if (record_decode_sample_id(x->s, r, &sid) < 0)
			return;
		{
			struct ptq none = {
				.pid = (sid.have & PERF_SAMPLE_TID) ? (int32_t)sid.pid : -1,
				.tid = (sid.have & PERF_SAMPLE_TID) ? (int32_t)sid.tid : -1,
				.cpu = (sid.have & PERF_SAMPLE_CPU) ? (int32_t)sid.cpu : -1,
			};
			struct pt_item *it = new_item(x, PT_ITEM_ERROR, &none);

			it->code = ERR_LOST;
			it->time = (sid.have & PERF_SAMPLE_TIME) ? sid.time : 0;
		}
		return;
	case PERF_RECORD_ITRACE_START:
		if (!x->per_cpu_mmaps || r->size < 16)
			return;
		if (record_decode_sample_id(x->s, r, &sid) < 0 || !(sid.have & PERF_SAMPLE_CPU))
			return;
		set_current_tid(x, sid.cpu, (int32_t)rd32(r->p + 8, r->swap),
		    (int32_t)rd32(r->p + 12, r->swap));
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (r->size < 24 || cm == PERF_RECORD_MISC_KERNEL ||
		    cm == PERF_RECORD_MISC_GUEST_KERNEL)
			return;
		if ((int32_t)rd32(r->p + 8, r->swap) == -1)
			return;
		probe_map(x, (int32_t)rd32(r->p + 8, r->swap), (int32_t)rd32(r->p + 12, r->swap),
		    rd64(r->p + 16, r->swap));
		return;
	case PERF_RECORD_SAMPLE: {
		struct sample smp;
		int a = record_attr(x->s, r);

		if (!x->script || a < 0 || record_sample_head(x->s, r, a, &smp) < 0)
			return;
		if (!(smp.sample_type & PERF_SAMPLE_IP))
			return;
		probe_code(x, (int32_t)smp.pid, (int32_t)smp.tid, smp.ip);
		return;
	}
	default:
		return;
	}
}

static const struct rec_ent *
find_type(const struct session *s, unsigned type)
{
	for (size_t i = 0; i < s->index.n; i++)
		if (ent_type(&s->index.v[i]) == type)
			return &s->index.v[i];
	return NULL;
}

bool
pt_present(const struct session *s)
{
	const struct rec_ent *e = find_type(s, PF_REC_AUXTRACE_INFO);
	struct rec r;

	return e != NULL && session_rec(s, ent_loc(e), &r) == 0 && r.size >= 16 &&
	    rd32(r.p + 8, r.swap) == AUXTRACE_TYPE_INTEL_PT;
}

static struct ptq *
queue_of(struct ptx *x, uint32_t idx, int32_t cpu, int32_t tid)
{
	size_t i;

	for (i = 0; i < x->nq; i++)
		if (x->q[i].idx == idx)
			return &x->q[i];
	x->q = realloc(x->q, (x->nq + 1) * sizeof *x->q);
	if (x->q == NULL)
		abort();
	/* queues stay in idx order, as perf's queue array */
	for (i = x->nq; i > 0 && x->q[i - 1].idx > idx; i--)
		x->q[i] = x->q[i - 1];
	memset(&x->q[i], 0, sizeof x->q[i]);
	x->q[i].idx = idx;
	x->q[i].cpu = cpu;
	x->q[i].qtid = tid;
	x->q[i].tid = tid;
	x->q[i].pid = -1;
	x->q[i].cbr_seen = UINT32_MAX;
	x->nq++;
	return &x->q[i];
}

static int
cmp_loc(const void *a, const void *b)
{
	uint64_t x = ent_loc(*(const struct rec_ent *const *)a);
	uint64_t y = ent_loc(*(const struct rec_ent *const *)b);

	return x < y ? -1 : x > y;
}

/* The PT event's config and whether all events have time (else timeless). */
static bool
pt_config(const struct session *s, uint64_t pmu_type, uint64_t *config)
{
	bool found = false;

	for (size_t i = 0; i < s->attrs.n; i++) {
		const struct perf_event_attr *a = &s->attrs.v[i].attr;

		if (!(a->sample_type & PERF_SAMPLE_TIME))
			return false;
		if (a->type == pmu_type && !found) {
			*config = a->config;
			found = true;
		}
	}
	return found;
}

size_t
pt_synth(const struct session *s, struct symbolizer *z, const struct pt_opts *o,
    struct pt_item **out)
{
	const struct rec_ent *e = find_type(s, PF_REC_AUXTRACE_INFO);
	const struct rec_ent **aux = NULL;
	struct ptx x;
	struct pt_params p;
	uint64_t priv[PRIV_COUNT], config = 0;
	size_t npriv, naux = 0, capaux = 0;
	struct rec r;

	*out = NULL;
	if (e == NULL || session_rec(s, ent_loc(e), &r) < 0 || r.size < 16 ||
	    rd32(r.p + 8, r.swap) != AUXTRACE_TYPE_INTEL_PT)
		return 0;
	memset(priv, 0, sizeof priv);
	npriv = (r.size - 16) / 8;
	for (size_t i = 0; i < npriv && i < PRIV_COUNT; i++)
		priv[i] = rd64(r.p + 16 + 8 * i, r.swap);
	if (npriv <= PRIV_PER_CPU_MMAPS || priv[PRIV_TIME_MULT] == 0 ||
	    priv[PRIV_TIME_SHIFT] > 63 || !priv[PRIV_CAP_TIME_ZERO] || !priv[PRIV_TSC_BIT])
		return 0;	/* no timestamps: perf decodes such traces timeless */
	if (!pt_config(s, priv[PRIV_PMU_TYPE], &config) || !(config & priv[PRIV_TSC_BIT]))
		return 0;

	memset(&x, 0, sizeof x);
	x.s = s;
	x.z = z;
	x.script = o->script;
	x.time_shift = (uint32_t)priv[PRIV_TIME_SHIFT];
	x.time_mult = (uint32_t)priv[PRIV_TIME_MULT];
	x.time_zero = priv[PRIV_TIME_ZERO];
	x.have_sched_switch = (int)priv[PRIV_HAVE_SCHED_SWITCH];
	x.max_nonturbo = (unsigned)priv[PRIV_MAX_NONTURBO_RATIO];
	if (x.max_nonturbo) {
		/* TSC ticks per second over the ratio: kHz per CBR step */
		uint64_t sec = UINT64_C(1000000000);
		uint64_t ticks = ((sec / x.time_mult) << x.time_shift) +
		    ((sec % x.time_mult) << x.time_shift) / x.time_mult;

		x.cbr2khz = (uint32_t)(ticks / x.max_nonturbo / 1000);
	}
	x.per_cpu_mmaps = priv[PRIV_PER_CPU_MMAPS] != 0;
	x.ndso = symbolizer_ndsos(z);
	x.dso_err = calloc(x.ndso + 1, 1);
	x.dso_seen = calloc(x.ndso + 1, 1);
	if (x.dso_err == NULL || x.dso_seen == NULL)
		abort();
	if (o->script)
		x.branches_filter = PT_FLAG_CALL | PT_FLAG_ASYNC | PT_FLAG_TRACE_END;

	memset(&p, 0, sizeof p);
	if (priv[PRIV_MTC_FREQ_BITS]) {
		uint64_t bits = priv[PRIV_MTC_FREQ_BITS];
		int shift = 0;

		while (!(bits & 1)) {
			bits >>= 1;
			shift++;
		}
		p.mtc_shift = (int)((config & priv[PRIV_MTC_FREQ_BITS]) >> shift);
	}
	p.tsc_ctc_n = (uint32_t)priv[PRIV_TSC_CTC_N];
	p.tsc_ctc_d = (uint32_t)priv[PRIV_TSC_CTC_D];
	p.max_non_turbo_ratio = (unsigned)priv[PRIV_MAX_NONTURBO_RATIO];
	p.branch_enable = !((config & 1) && !(config & 0x2000));
	p.return_compression = !priv[PRIV_NORETCOMP_BIT] || !(config & priv[PRIV_NORETCOMP_BIT]);

	/* The trace buffers, per queue in file order. */
	for (size_t i = 0; i < s->index.n; i++)
		if (ent_type(&s->index.v[i]) == PF_REC_AUXTRACE) {
			aux = grow(aux, &capaux, naux + 1, sizeof *aux);
			aux[naux++] = &s->index.v[i];
		}
	if (naux > 1)
		qsort(aux, naux, sizeof *aux, cmp_loc);
	for (size_t i = 0; i < naux; i++) {
		struct ptq *q;
		uint64_t size;
		const uint8_t *data;

		if (session_rec(s, ent_loc(aux[i]), &r) < 0 || r.size < 48)
			continue;
		size = rd64(r.p + 8, r.swap);
		data = session_bytes(s, r.loc + r.size, size);
		if (data == NULL || size == 0)
			continue;
		q = queue_of(&x, rd32(r.p + 32, r.swap), (int32_t)rd32(r.p + 40, r.swap),
		    (int32_t)rd32(r.p + 36, r.swap));
		q->bufs = grow(q->bufs, &q->capbufs, q->nbufs + 1, sizeof *q->bufs);
		q->bufs[q->nbufs].data = data;
		q->bufs[q->nbufs].len = (size_t)size;
		q->bufs[q->nbufs].ref_tsc = rd64(r.p + 24, r.swap);
		q->nbufs++;
	}
	free(aux);
	for (size_t i = 0; i < x.nq; i++) {
		x.q[i].d = pt_decoder_new(&p, x.q[i].bufs, x.q[i].nbufs, walk_cb, &x);
		if (x.q[i].d == NULL)
			abort();
	}

	/* The records in time order; the trace decoded up to each. */
	for (size_t i = 0; i < s->index.n; i++) {
		const struct rec_ent *en = &s->index.v[i];
		unsigned type = ent_type(en);

		x.pos = i;
		if (type >= PF_REC_ATTR && type != ENT_TYPE_BIG)
			continue;	/* perf's own records carry no time */
		if (session_rec(s, ent_loc(en), &r) < 0 || r.type >= 64)
			continue;
		if (en->time != 0 && en->time != UINT64_MAX) {
			if (!x.set_up) {
				x.set_up = true;
				setup_queues(&x);
			}
			process_queues(&x, perf_to_tsc(&x, en->time));
			x.now = en->time;
		}
		deliver(&x, &r);
	}
	x.pos = s->index.n;
	if (!x.set_up)
		setup_queues(&x);
	process_queues(&x, UINT64_MAX);

	for (size_t i = 0; i < x.nq; i++) {
		pt_decoder_free(x.q[i].d);
		free(x.q[i].bufs);
	}
	free(x.q);
	free(x.cur_tid);
	free(x.tp);
	free(x.dso_err);
	free(x.dso_seen);
	free(x.pid_typed);
	*out = x.items;
	return x.nitems;
}

size_t
pt_hist_add(struct hist *h, const struct session *s, struct symbolizer *z)
{
	struct pt_opts po = { .script = false };
	struct pt_item *items;
	size_t n = pt_synth(s, z, &po, &items), added = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pt_item *it = &items[i];
		struct hist_sample hs;
		struct frame f;
		char buf[32];

		if (it->kind != PT_ITEM_SAMPLE)
			continue;
		symbolizer_resolve(z, it->pid, it->tid, it->time, it->cpumode, it->ip, &f);
		memset(&hs, 0, sizeof hs);
		hs.attr = (int)s->attrs.n + (int)it->event;
		hs.event_name = pt_event_name(it->event);
		hs.comm = pt_item_comm(s, it, buf, sizeof buf);
		hs.pid = it->pid;
		hs.tid = it->tid;
		hs.cpu = (uint32_t)it->cpu;
		hs.period = 1;
		hs.self = &f;
		hs.own_nodes = true;
		hist_add(h, &hs);
		added++;
	}
	free(items);
	return added;
}
