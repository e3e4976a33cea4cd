/* Criterion tests of symbolize/intel_pt.c: the decoder over a made-up trace. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/ptpkt.h"
#include "symbolize/intel_pt.h"

struct tbuf {
	uint8_t	b[512];
	size_t	n;
};

static void
put(struct tbuf *t, const void *p, size_t n)
{
	cr_assert_leq(t->n + n, sizeof t->b);
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static void
put_le(struct tbuf *t, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		t->b[t->n++] = (uint8_t)(v >> (8 * i));
}

static void put_psb(struct tbuf *t) { put(t, ptpkt_psb_bytes, 16); }
static void put_psbend(struct tbuf *t) { put(t, "\x02\x23", 2); }

static void
put_tsc(struct tbuf *t, uint64_t tsc)
{
	t->b[t->n++] = 0x19;
	put_le(t, tsc, 7);
}

static void
put_tma(struct tbuf *t, uint16_t ctc, uint16_t fc)
{
	put(t, "\x02\x73", 2);
	put_le(t, ctc, 2);
	t->b[t->n++] = 0;
	t->b[t->n++] = (uint8_t)fc;
	t->b[t->n++] = (uint8_t)(fc >> 8 & 1);
}

static void
put_cbr(struct tbuf *t, uint8_t cbr)
{
	put(t, "\x02\x03", 2);
	t->b[t->n++] = cbr;
	t->b[t->n++] = 0;
}

/* A TIP-family packet (low 5 bits op) with a whole 8-byte address. */
static void
put_ip64(struct tbuf *t, uint8_t op, uint64_t ip)
{
	t->b[t->n++] = (uint8_t)(6 << 5 | op);
	put_le(t, ip, 8);
}

#define OP_TIP		0x0d
#define OP_PGE		0x11
#define OP_PGD		0x01
#define OP_FUP		0x1d

struct walks {
	int		n;
	uint64_t	ip[8];
	int		silent_from;	/* calls from this one on end silently */
};

static enum pt_walk
walk(void *arg, uint64_t ip)
{
	struct walks *w = arg;

	if (w->n < 8)
		w->ip[w->n] = ip;
	return w->n++ >= w->silent_from ? PT_WALK_SILENT : PT_WALK_FAIL;
}

static const struct pt_params params = {
	.mtc_shift = 3,
	.tsc_ctc_n = 2,
	.tsc_ctc_d = 1,
	.max_non_turbo_ratio = 12,
	.branch_enable = true,
	.return_compression = true,
};

Test(intel_pt, states_of_a_small_trace)
{
	struct tbuf t = { .n = 0 };
	struct walks w = { .n = 0, .silent_from = 1 };
	struct pt_buffer buf;
	struct pt_decoder *d;
	const struct pt_state *st;
	size_t psb2;

	put_psb(&t);
	put_tsc(&t, 0x1000);
	put_tma(&t, 0, 0);
	put_cbr(&t, 0x20);
	put_ip64(&t, OP_FUP, UINT64_C(0xffffffff81000000));
	put_psbend(&t);
	put_ip64(&t, OP_PGE, 0x400000);
	t.b[t.n++] = 0x00;				/* PAD */
	put_ip64(&t, OP_FUP, 0x400000);			/* interrupt right there */
	put_ip64(&t, OP_TIP, UINT64_C(0xffffffff81001000));
	put(&t, "\x59\x01", 2);				/* MTC: CTC += 8 */
	t.b[t.n++] = 0x06;				/* TNT: needs the code */
	put_ip64(&t, OP_FUP, 0x500000);
	put_ip64(&t, OP_TIP, 0x500100);
	psb2 = t.n;
	put_psb(&t);
	put_tsc(&t, 0x2000);
	put_psbend(&t);

	buf.data = t.b;
	buf.len = t.n;
	buf.ref_tsc = 0x1000;
	d = pt_decoder_new(&params, &buf, 1, walk, &w);
	cr_assert_not_null(d);

	st = pt_decode(d);	/* the first PSB, with its FUP and CBR */
	cr_assert_eq(st->err, 0);
	cr_assert_eq(st->type, PT_ST_PSB | PT_ST_CBR_CHG);
	cr_assert_eq(st->from_ip, UINT64_C(0xffffffff81000000));
	cr_assert_eq(st->to_ip, 0);
	cr_assert_eq(st->timestamp, 0x1000);
	cr_assert_eq(st->cbr, 0x20);
	cr_assert_eq(st->psb_offset, 0);

	st = pt_decode(d);	/* tracing starts */
	cr_assert_eq(st->err, 0);
	cr_assert_eq(st->type, PT_ST_BRANCH | PT_ST_TRACE_BEGIN);
	cr_assert_eq(st->from_ip, 0);
	cr_assert_eq(st->to_ip, 0x400000);

	st = pt_decode(d);	/* FUP at the current ip, then TIP: asynchronous */
	cr_assert_eq(st->err, 0);
	cr_assert_eq(st->type, PT_ST_BRANCH);
	cr_assert(st->flags & PT_SF_ASYNC);
	cr_assert_eq(st->from_ip, 0x400000);
	cr_assert_eq(st->to_ip, UINT64_C(0xffffffff81001000));
	cr_assert_eq(w.n, 0, "no code needed so far");

	st = pt_decode(d);	/* the TNT needs code: error, at the MTC's time */
	cr_assert_eq(st->err, PT_ERR_NOINSN);
	cr_assert_eq(st->from_ip, UINT64_C(0xffffffff81001000));
	cr_assert_eq(st->timestamp, 0x1000 + 2 * 8);
	cr_assert_eq(w.n, 1);

	st = pt_decode(d);	/* back in sync at the next whole address */
	cr_assert_eq(st->err, 0);
	cr_assert_eq(st->type, PT_ST_BRANCH);
	cr_assert_eq(st->from_ip, 0);
	cr_assert_eq(st->to_ip, 0x500000);

	st = pt_decode(d);	/* the TIP's walk ends silently; the next PSB has no FUP */
	cr_assert_eq(st->err, 0);
	cr_assert_eq(w.n, 2);
	cr_assert_eq(w.ip[1], 0x500000);
	cr_assert_eq(st->type, PT_ST_PSB);
	cr_assert_eq(st->from_ip, 0);
	cr_assert_eq(st->to_ip, 0);
	cr_assert_eq(st->psb_offset, psb2);
	cr_assert_eq(st->timestamp, 0x2000);

	st = pt_decode(d);
	cr_assert_eq(st->err, PT_ERR_NODATA);
	st = pt_decode(d);
	cr_assert_eq(st->err, PT_ERR_NODATA);
	pt_decoder_free(d);
}

Test(intel_pt, no_psb_means_no_data)
{
	static const uint8_t junk[] = { 0x06, 0x06, 0x19, 0x00 };
	struct walks w = { .n = 0, .silent_from = 100 };
	struct pt_buffer buf = { junk, sizeof junk, 0 };
	struct pt_decoder *d = pt_decoder_new(&params, &buf, 1, walk, &w);

	cr_assert_eq(pt_decode(d)->err, PT_ERR_NODATA);
	pt_decoder_free(d);
	d = pt_decoder_new(&params, NULL, 0, walk, &w);
	cr_assert_eq(pt_decode(d)->err, PT_ERR_NODATA);
	pt_decoder_free(d);
}

/* Random bytes after a PSB: decoding ends (no hang) in at most a state per byte. */
Test(intel_pt, garbage_ends)
{
	static uint8_t b[4096];
	uint32_t seed = 7;

	for (int round = 0; round < 32; round++) {
		struct walks w = { .n = 0, .silent_from = round & 1 ? 0 : 1000000 };
		struct pt_buffer buf[2];
		struct pt_decoder *d;
		size_t steps = 0;

		memcpy(b, ptpkt_psb_bytes, 16);
		for (size_t i = 16; i < sizeof b; i++) {
			seed = seed * 1103515245u + 12345u;
			b[i] = (uint8_t)(seed >> 16);
		}
		buf[0] = (struct pt_buffer){ b, sizeof b / 2, 0x100 };
		buf[1] = (struct pt_buffer){ b + sizeof b / 2, sizeof b / 2, 0x200 };
		d = pt_decoder_new(&params, buf, 2, walk, &w);
		while (pt_decode(d)->err != PT_ERR_NODATA)
			cr_assert_lt(++steps, 2 * sizeof b);
		pt_decoder_free(d);
	}
	cr_assert_str_eq(pt_error_text(PT_ERR_NOINSN), "Failed to get instruction");
	cr_assert_str_eq(pt_event_name(PT_EV_PSB), "psb");
}
