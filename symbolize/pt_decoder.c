#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/ptpkt.h"
#include "symbolize/intel_pt.h"

/*
 * pt_decoder.c: the Intel PT decoder of symbolize/intel_pt.h.  It follows
 * the packet stream the way perf 6.1's decoder does, so that its states
 * (and so the samples and errors made from them) fall at the same packets
 * with the same timestamps.  Code is never read: wherever perf would walk
 * instructions, the walk fails (see intel_pt.h).
 */

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
