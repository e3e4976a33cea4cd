#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "symbolize/pt/ptpkt.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/pt/pt_internal.h"

/*
 * pt_clock.c: the Intel PT decoder's clock (struct pt_clock), fed by the
 * TSC, TMA, MTC, CYC and CBR packets the decoder meets (pt_decoder.c calls
 * pt_clock_*() from apply_context()).
 */

static uint64_t
scale(uint64_t x, uint32_t mul, uint32_t div)
{
	if (div == 0)
		return 0;
	return (x / div) * mul + ((x % div) * mul) / div;
}

static uint64_t
ctc_as_tsc(const struct pt_decoder *d, uint64_t ctc)
{
	const struct pt_clock *c = &d->clk;

	return c->tsc_per_ctc ? ctc * c->tsc_per_ctc : scale(ctc, d->p.tsc_ctc_n, d->p.tsc_ctc_d);
}

/* Cycles count afresh from now. */
static void
cycles_from_now(struct pt_clock *c)
{
	c->cyc_start = c->now;
	c->cycles = 0;
}

/* The 56 bits of a TSC packet, widened to the 64-bit TSC nearest to ref. */
static uint64_t
widen_tsc(uint64_t low, uint64_t ref)
{
	uint64_t t = low | (ref & TSC_HIGH);

	if (t < ref && ref - t > TSC_WRAP / 2)
		t += TSC_WRAP;
	else if (t >= ref && t - ref > TSC_WRAP / 2)
		t -= TSC_WRAP;
	return t;
}

/*
 * TSC: the time outright.  The first one is widened against the
 * AUXTRACE reference; later ones take the high byte of the time reached,
 * and may not take the time back: one a little behind (MTCs and CYCs
 * went past it) leaves the time as it is; one further behind has wrapped
 * unless that would pass the buffer's reference.
 */
void
pt_clock_tsc(struct pt_decoder *d)
{
	struct pt_clock *c = &d->clk;
	uint64_t t;

	c->ctc_known = false;
	if (c->first_ref) {
		t = widen_tsc(d->pkt.payload, c->first_ref);
		c->tsc = t;
		c->now = t;
		c->first_ref = 0;
	} else if (c->now) {
		t = d->pkt.payload | (c->now & TSC_HIGH);
		c->tsc = t;
		if (t < c->now && c->now - t < TSC_LAG_MAX)
			t = c->now;
		if (t < c->now) {
			if (!c->buffer_ref || t + TSC_WRAP < c->buffer_ref) {
				t += TSC_WRAP;
				c->tsc = t;
			} else {
				t = c->now;
			}
		}
		c->now = t;
	}
	if (d->prev_kind == PTPKT_CYC) {
		/* cycles count from here, at a ratio not measured yet */
		cycles_from_now(c);
		c->tsc_per_cycle_known = false;
	}
}

/*
 * TMA: the CTC's low 16 bits and the fast counter at the last TSC, so
 * that MTCs can be counted as TSC ticks from there.
 */
void
pt_clock_tma(struct pt_decoder *d)
{
	struct pt_clock *c = &d->clk;
	uint32_t ctc = (uint32_t)d->pkt.payload;
	uint32_t fast = (uint32_t)d->pkt.count;

	if (!d->p.tsc_ctc_d)
		return;
	c->mtc_slice = (ctc >> d->p.mtc_shift) & 0xff;
	c->ctc_start = c->tsc - fast - ctc_as_tsc(d, ctc & c->ctc_low_mask);
	c->ctc_ticks = 0;
	c->ctc_known = true;
	c->mtc_high_open = true;
}

/*
 * With an MTC period over 2^8, an MTC's slice has CTC bits above the
 * TMA's 16: the first MTC after the TMA fills them in for the TMA's
 * slice, one step back when that puts the TMA at or past the MTC.
 */
static uint32_t
fill_mtc_high(uint32_t tma_slice, uint32_t mtc, int shift)
{
	uint32_t open_bit = 1u << (16 - shift);

	tma_slice |= mtc & ~(open_bit - 1);
	if (tma_slice >= mtc)
		tma_slice = (tma_slice - open_bit) & 0xff;
	return tma_slice;
}

/*
 * Count an MTC (its CTC slice `mtc`) into *ticks from the slice before,
 * *slice; the result is the TSC it stands for.
 */
static uint64_t
count_mtc(const struct pt_decoder *d, uint32_t mtc, uint32_t *slice, bool *high_open,
    uint64_t *ticks)
{
	uint32_t steps;

	if (d->p.mtc_shift > 8 && *high_open) {
		*high_open = false;
		*slice = fill_mtc_high(*slice, mtc, d->p.mtc_shift);
	}
	steps = mtc > *slice ? mtc - *slice : mtc + 256 - *slice;
	*ticks += (uint64_t)steps << d->p.mtc_shift;
	*slice = mtc;
	return d->clk.ctc_start + ctc_as_tsc(d, *ticks);
}

/* Measuring TSC ticks per cycle: the look-ahead's state. */
struct cyc_span {
	uint64_t	cycles, ctc_ticks, floor, end;
	uint32_t	mtc_slice;
	bool		high_open, complete;
	unsigned	cbr;
	double		cbr_tsc_per_cycle;
	enum ptpkt_kind	prev;
};

static bool
span_packet(struct pt_decoder *d, const struct ptpkt *pk, void *arg)
{
	struct cyc_span *s = arg;
	uint64_t t;

	switch (pk->kind) {
	case PTPKT_CYC:
		s->cycles += pk->payload;
		break;
	case PTPKT_CBR:
		if (s->cbr && s->cbr != (unsigned)pk->payload)
			return true;
		s->cbr = (unsigned)pk->payload;
		s->cbr_tsc_per_cycle = s->cbr ? (double)d->p.max_non_turbo_ratio / s->cbr : 0;
		break;
	case PTPKT_MTC:
		t = count_mtc(d, (uint32_t)pk->payload, &s->mtc_slice, &s->high_open, &s->ctc_ticks);
		s->end = t;
		if (t < s->floor)
			return true;
		if (s->prev == PTPKT_CYC) {
			s->complete = true;
			return true;
		}
		s->floor = t;
		break;
	default:
		if (!(pt_rules[pk->kind].traits & CLOCK_RUNS))
			return true;
		break;
	}
	s->prev = pk->kind;
	return false;
}

/*
 * At an MTC right after a CYC: measure TSC ticks per cycle up to the next
 * MTC right after a CYC in this buffer, from the cycles counted in
 * between.  Nothing is measured if the clock may stop on the way, the
 * core:bus ratio changes, time would go back, or the ratio comes out
 * over 1.25 times the core:bus ratio's.
 */
static void
measure_cycles(struct pt_decoder *d)
{
	struct pt_clock *c = &d->clk;
	struct cyc_span s = {
		.ctc_ticks = c->ctc_ticks,
		.floor = c->now,
		.mtc_slice = c->mtc_slice,
		.high_open = c->mtc_high_open,
		.prev = d->prev_kind,
	};
	double ratio;

	pt_peek(d, span_packet, &s);
	if (!s.complete)
		return;
	if (!s.cbr && c->cbr) {
		s.cbr = c->cbr;
		s.cbr_tsc_per_cycle = c->cbr_tsc_per_cycle;
	}
	if (!s.cycles)
		return;
	ratio = (double)(s.end - c->now) / (double)s.cycles;
	if (s.cbr && ratio > s.cbr_tsc_per_cycle && ratio / s.cbr_tsc_per_cycle > 1.25)
		return;
	c->tsc_per_cycle = ratio;
	c->tsc_per_cycle_known = true;
}

/* MTC: the CTC moved on; time follows it, never back. */
void
pt_clock_mtc(struct pt_decoder *d)
{
	struct pt_clock *c = &d->clk;
	uint64_t t;

	if (!c->ctc_known)
		return;
	t = count_mtc(d, (uint32_t)d->pkt.payload, &c->mtc_slice, &c->mtc_high_open,
	    &c->ctc_ticks);
	if (t >= c->now)
		c->now = t;
	if (d->prev_kind == PTPKT_CYC) {
		cycles_from_now(c);
		c->tsc_per_cycle_known = false;
		measure_cycles(d);
	}
}

/* CBR: a new core:bus ratio; cycles count at it from here. */
void
pt_clock_cbr(struct pt_decoder *d)
{
	struct pt_clock *c = &d->clk;
	unsigned cbr = (unsigned)d->pkt.payload & 0xff;

	if (c->cbr == cbr)
		return;
	c->cbr = cbr;
	c->cbr_tsc_per_cycle = cbr ? (double)d->p.max_non_turbo_ratio / cbr : 0;
	cycles_from_now(c);
}

/* CYC: core cycles since the last one; time follows them, never back. */
void
pt_clock_cyc(struct pt_decoder *d)
{
	struct pt_clock *c = &d->clk;
	double ratio;
	uint64_t t;

	c->cycles += d->pkt.payload;
	if (!c->cyc_start)
		return;
	if (c->tsc_per_cycle_known)
		ratio = c->tsc_per_cycle;
	else if (c->cbr)
		ratio = c->cbr_tsc_per_cycle;
	else
		return;
	/* (in double precision: the digits are perf's) */
	t = (uint64_t)((double)c->cyc_start + (double)c->cycles * ratio);
	if (t >= c->now)
		c->now = t;
}
