/* Criterion tests of symbolize/pt/ptpkt.c: Intel PT packets from hand-written bytes. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/pt/intel_pt.h"
#include "symbolize/pt/ptpkt.h"

static struct ptpkt
one(const uint8_t *b, size_t n, int want_len)
{
	enum ptpkt_ctx ctx = PTPKT_CTX_NONE;
	struct ptpkt pk;
	int r = ptpkt_get(b, n, &pk, &ctx);

	cr_assert_eq(r, want_len, "length %d, want %d", r, want_len);
	return pk;
}

Test(ptpkt, pad_psb_psbend)
{
	static const uint8_t pad[] = { 0x00 };
	static const uint8_t psbend[] = { 0x02, 0x23 };
	struct ptpkt pk;

	pk = one(pad, 1, 1);
	cr_assert_eq(pk.kind, PTPKT_PAD);
	pk = one(ptpkt_psb_bytes, 16, 16);
	cr_assert_eq(pk.kind, PTPKT_PSB);
	pk = one(psbend, 2, 2);
	cr_assert_eq(pk.kind, PTPKT_PSBEND);
	cr_assert_str_eq(ptpkt_name(PTPKT_TIP_PGE), "TIP.PGE");
}

Test(ptpkt, short_and_long_tnt)
{
	static const uint8_t t1[] = { 0x06 };			/* T */
	static const uint8_t n1[] = { 0x04 };			/* N */
	static const uint8_t six[] = { 0xee };			/* TTNTTT */
	static const uint8_t lng[] = { 0x02, 0xa3, 0x05, 0, 0, 0, 0, 0 };	/* NT: stop bit 2 */
	static const uint8_t empty[] = { 0x02, 0xa3, 0x01, 0, 0, 0, 0, 0 };
	struct ptpkt pk;

	pk = one(t1, 1, 1);
	cr_assert_eq(pk.kind, PTPKT_TNT);
	cr_assert_eq(pk.count, 1);
	cr_assert_eq(pk.payload, UINT64_C(1) << 63);
	pk = one(n1, 1, 1);
	cr_assert_eq(pk.count, 1);
	cr_assert_eq(pk.payload, 0);
	pk = one(six, 1, 1);
	cr_assert_eq(pk.count, 6);
	cr_assert_eq(pk.payload >> 58, 0x37);	/* 110111 */
	pk = one(lng, 8, 8);
	cr_assert_eq(pk.kind, PTPKT_TNT);
	cr_assert_eq(pk.count, 2);
	cr_assert_eq(pk.payload >> 62, 1);	/* N then T */
	pk = one(empty, 8, 8);
	cr_assert_eq(pk.count, 0);
}

Test(ptpkt, ip_packets)
{
	static const uint8_t pge[] = { 0x71, 0x02, 0xd3, 0x60, 0xb9, 0xff, 0xff };
	static const uint8_t tip16[] = { 0x2d, 0x94, 0xd7 };
	static const uint8_t tip32[] = { 0x4d, 0xa2, 0x20, 0x74, 0xb9 };
	static const uint8_t fup48[] = { 0x9d, 0x60, 0xbd, 0x08, 0x6d, 0xb3, 0x7f };
	static const uint8_t fup64[] = { 0xdd, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t pgd0[] = { 0x01 };
	struct ptpkt pk;

	pk = one(pge, sizeof pge, 7);
	cr_assert_eq(pk.kind, PTPKT_TIP_PGE);
	cr_assert_eq(pk.count, 3);
	cr_assert_eq(pk.payload, UINT64_C(0xffffb960d302));
	pk = one(tip16, sizeof tip16, 3);
	cr_assert_eq(pk.kind, PTPKT_TIP);
	cr_assert_eq(pk.count, 1);
	cr_assert_eq(pk.payload, 0xd794);
	pk = one(tip32, sizeof tip32, 5);
	cr_assert_eq(pk.count, 2);
	cr_assert_eq(pk.payload, 0xb97420a2);
	pk = one(fup48, sizeof fup48, 7);
	cr_assert_eq(pk.kind, PTPKT_FUP);
	cr_assert_eq(pk.count, 4);
	cr_assert_eq(pk.payload, UINT64_C(0x7fb36d08bd60));
	pk = one(fup64, sizeof fup64, 9);
	cr_assert_eq(pk.count, 6);
	cr_assert_eq(pk.payload, UINT64_C(0x0807060504030201));
	pk = one(pgd0, 1, 1);
	cr_assert_eq(pk.kind, PTPKT_TIP_PGD);
	cr_assert_eq(pk.count, 0);
}

Test(ptpkt, timing_packets)
{
	static const uint8_t tsc[] = { 0x19, 0xe8, 0xcf, 0xd2, 0x4c, 0xbc, 0x00, 0x00 };
	static const uint8_t mtc[] = { 0x59, 0x48 };
	static const uint8_t tma[] = { 0x02, 0x73, 0x3c, 0xb2, 0x00, 0x30, 0x01 };
	static const uint8_t cbr[] = { 0x02, 0x03, 0x1d, 0x00 };
	static const uint8_t cyc1[] = { 0x2b };			/* 5 */
	static const uint8_t cyc2[] = { 0x0f, 0x02 };		/* 1 | 1 << 5 */
	struct ptpkt pk;

	pk = one(tsc, sizeof tsc, 8);
	cr_assert_eq(pk.kind, PTPKT_TSC);
	cr_assert_eq(pk.payload, UINT64_C(0xbc4cd2cfe8));
	pk = one(mtc, sizeof mtc, 2);
	cr_assert_eq(pk.kind, PTPKT_MTC);
	cr_assert_eq(pk.payload, 0x48);
	pk = one(tma, sizeof tma, 7);
	cr_assert_eq(pk.kind, PTPKT_TMA);
	cr_assert_eq(pk.payload, 0xb23c);
	cr_assert_eq(pk.count, 0x130);
	pk = one(cbr, sizeof cbr, 4);
	cr_assert_eq(pk.kind, PTPKT_CBR);
	cr_assert_eq(pk.payload, 0x1d);
	pk = one(cyc1, 1, 1);
	cr_assert_eq(pk.kind, PTPKT_CYC);
	cr_assert_eq(pk.payload, 5);
	pk = one(cyc2, 2, 2);
	cr_assert_eq(pk.payload, 1 | 1 << 5);
}

Test(ptpkt, mode_pip_and_others)
{
	static const uint8_t exec[] = { 0x99, 0x01 };
	static const uint8_t tsx[] = { 0x99, 0x22 };
	static const uint8_t pip[] = { 0x02, 0x43, 0x00, 0x34, 0xd4, 0x3f, 0x00, 0x00 };
	static const uint8_t ovf[] = { 0x02, 0xf3 };
	static const uint8_t stop[] = { 0x02, 0x83 };
	static const uint8_t vmcs[] = { 0x02, 0xc8, 1, 2, 3, 4, 5 };
	static const uint8_t mnt[] = { 0x02, 0xc3, 0x88, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t ptw4[] = { 0x02, 0x12, 1, 2, 3, 4 };
	static const uint8_t ptw8ip[] = { 0x02, 0xb2, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t exstop[] = { 0x02, 0xe2 };
	static const uint8_t mwait[] = { 0x02, 0xc2, 1, 0, 0, 0, 2, 0, 0, 0 };
	static const uint8_t pwre[] = { 0x02, 0x22, 0x10, 0x20 };
	static const uint8_t pwrx[] = { 0x02, 0xa2, 1, 2, 3, 4, 5 };
	struct ptpkt pk;

	pk = one(exec, 2, 2);
	cr_assert_eq(pk.kind, PTPKT_MODE_EXEC);
	cr_assert_eq(pk.payload, 1);
	pk = one(tsx, 2, 2);
	cr_assert_eq(pk.kind, PTPKT_MODE_TSX);
	cr_assert_eq(pk.payload, 2);
	pk = one(pip, sizeof pip, 8);
	cr_assert_eq(pk.kind, PTPKT_PIP);
	cr_assert_eq(pk.payload, UINT64_C(0x3fd43400));
	cr_assert_eq(one(ovf, 2, 2).kind, PTPKT_OVF);
	cr_assert_eq(one(stop, 2, 2).kind, PTPKT_TRACESTOP);
	pk = one(vmcs, sizeof vmcs, 7);
	cr_assert_eq(pk.kind, PTPKT_VMCS);
	cr_assert_eq(pk.payload, UINT64_C(0x0504030201) << 12);
	cr_assert_eq(one(mnt, sizeof mnt, 11).kind, PTPKT_MNT);
	pk = one(ptw4, sizeof ptw4, 6);
	cr_assert_eq(pk.kind, PTPKT_PTWRITE);
	cr_assert_eq(pk.payload, 0x04030201);
	pk = one(ptw8ip, sizeof ptw8ip, 10);
	cr_assert_eq(pk.kind, PTPKT_PTWRITE_IP);
	cr_assert_eq(one(exstop, 2, 2).kind, PTPKT_EXSTOP_IP);
	pk = one(mwait, sizeof mwait, 10);
	cr_assert_eq(pk.kind, PTPKT_MWAIT);
	cr_assert_eq(pk.payload, UINT64_C(0x0000000200000001));
	pk = one(pwre, sizeof pwre, 4);
	cr_assert_eq(pk.kind, PTPKT_PWRE);
	cr_assert_eq(pk.payload, 0x2010);
	cr_assert_eq(one(pwrx, sizeof pwrx, 7).kind, PTPKT_PWRX);
}

Test(ptpkt, block_items_need_context)
{
	static const uint8_t s[] = { 0x02, 0x63, 0x81, 0x0c, 1, 2, 3, 4, 0x02, 0x33, 0x0c };
	enum ptpkt_ctx ctx = PTPKT_CTX_NONE;
	struct ptpkt pk;

	cr_assert_eq(ptpkt_get(s, sizeof s, &pk, &ctx), 3);
	cr_assert_eq(pk.kind, PTPKT_BBP);
	cr_assert_eq(ctx, PTPKT_CTX_BLOCK4);
	cr_assert_eq(ptpkt_get(s + 3, sizeof s - 3, &pk, &ctx), 5);
	cr_assert_eq(pk.kind, PTPKT_BIP);
	cr_assert_eq(pk.count, 1);
	cr_assert_eq(pk.payload, 0x04030201);
	cr_assert_eq(ptpkt_get(s + 8, sizeof s - 8, &pk, &ctx), 2);
	cr_assert_eq(pk.kind, PTPKT_BEP);
	cr_assert_eq(ctx, PTPKT_CTX_NONE);
	/* outside a block the same byte is a TNT */
	cr_assert_eq(ptpkt_get(s + 10, 1, &pk, &ctx), 1);
	cr_assert_eq(pk.kind, PTPKT_TNT);
}

Test(ptpkt, truncated_packets_ask_for_more)
{
	static const uint8_t tsc[] = { 0x19, 0xe8, 0xcf, 0xd2, 0x4c, 0xbc, 0x00, 0x00 };
	static const uint8_t cyc[] = { 0x07, 0x03, 0x03 };
	enum ptpkt_ctx ctx = PTPKT_CTX_NONE;
	struct ptpkt pk;

	for (size_t n = 0; n < sizeof tsc; n++)
		cr_assert_eq(ptpkt_get(tsc, n, &pk, &ctx), 0);
	for (size_t n = 1; n < 16; n++)
		cr_assert_eq(ptpkt_get(ptpkt_psb_bytes, n, &pk, &ctx), 0);
	cr_assert_eq(ptpkt_get(cyc, sizeof cyc, &pk, &ctx), 0);
}

Test(ptpkt, bad_bytes)
{
	static const uint8_t badext[] = { 0x02, 0xff };
	static const uint8_t badip[] = { 0xad, 0, 0, 0, 0, 0, 0, 0, 0 };	/* IPBytes 5 */
	static const uint8_t badmode[] = { 0x99, 0xe0 };
	static const uint8_t badpsb[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x00 };
	enum ptpkt_ctx ctx = PTPKT_CTX_NONE;
	struct ptpkt pk;

	cr_assert_eq(ptpkt_get(badext, 2, &pk, &ctx), -1);
	cr_assert_eq(pk.kind, PTPKT_BAD);
	cr_assert_eq(ptpkt_get(badip, sizeof badip, &pk, &ctx), -1);
	cr_assert_eq(ptpkt_get(badmode, 2, &pk, &ctx), -1);
	cr_assert_eq(ptpkt_get(badpsb, 16, &pk, &ctx), -1);
}

static enum pt_walk
walk_fails(void *arg, uint64_t ip, bool nr)
{
	(void)ip;
	(void)nr;
	++*(size_t *)arg;
	return PT_WALK_FAIL;
}

/*
 * Any bytes: the decoders make progress on their own.  ptpkt_get answers
 * 0 (more bytes needed) only within PTPKT_MAX_LEN of the end, else a
 * length within what is left or -1 with PTPKT_BAD (its contract: step one
 * byte); the walk by its answers covers the buffer exactly.  The trace
 * decoder, which steps over bad bytes itself, reaches the end of the data
 * (PT_ERR_NODATA, and stays there) in fewer calls than there are bytes.
 */
Test(ptpkt, garbage_never_hangs)
{
	static uint8_t buf[4096];
	uint32_t seed = 12345;

	for (int round = 0; round < 64; round++) {
		enum ptpkt_ctx ctx = PTPKT_CTX_NONE;
		struct pt_params params = { .mtc_shift = 3, .tsc_ctc_n = 1, .tsc_ctc_d = 1 };
		struct pt_buffer pb = { .data = buf, .len = sizeof buf, .ref_tsc = 1 };
		struct pt_decoder *d;
		const struct pt_state *st;
		size_t pos = 0, calls = 0, walks = 0, bad = 0;

		for (size_t i = 0; i < sizeof buf; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = (uint8_t)(seed >> 16);
		}
		if (round & 1)
			memcpy(buf + 100, ptpkt_psb_bytes, 16);
		for (;;) {
			struct ptpkt pk;
			size_t left = sizeof buf - pos;
			int r = ptpkt_get(buf + pos, left, &pk, &ctx);

			if (r == 0) {
				cr_assert_lt(left, PTPKT_MAX_LEN, "round %d: 0 with %zu bytes left",
				    round, left);
				break;
			}
			if (r < 0) {
				cr_assert_eq(r, -1);
				cr_assert_eq(pk.kind, PTPKT_BAD);
				bad++;
				r = 1;	/* the contract's step */
			} else {
				cr_assert_leq((size_t)r, left);
				cr_assert_leq(r, PTPKT_MAX_LEN);
			}
			pos += (size_t)r;
			if (pos == sizeof buf)
				break;
		}
		cr_assert_gt(bad, 0, "round %d: garbage holds bytes that are no packet", round);
		if (round & 1)
			cr_assert_leq(ptpkt_find_psb(buf, sizeof buf), 100);

		d = pt_decoder_new(&params, &pb, 1, walk_fails, &walks);
		cr_assert_not_null(d);
		do {
			st = pt_decode(d);
			cr_assert_not_null(st);
			calls++;
			cr_assert_leq(calls, sizeof buf, "round %d: no end after %zu states",
			    round, calls);
		} while (st->err != PT_ERR_NODATA);
		cr_assert_eq(pt_decode(d)->err, PT_ERR_NODATA);
		if (round & 1) {
			/* in sync from the PSB at 100: it decodes, not only skips */
			cr_assert_gt(calls, 100, "round %d: %zu states", round, calls);
			cr_assert_gt(walks, 0, "round %d: no code walk", round);
		} else {
			cr_assert_eq(walks, 0, "round %d: a walk with no PSB", round);
		}
		pt_decoder_free(d);
	}
}

Test(ptpkt, find_psb)
{
	uint8_t b[64];

	memset(b, 0x02, sizeof b);
	cr_assert_eq(ptpkt_find_psb(b, sizeof b), sizeof b);
	memcpy(b + 33, ptpkt_psb_bytes, 16);
	cr_assert_eq(ptpkt_find_psb(b, sizeof b), 33);
	cr_assert_eq(ptpkt_find_psb(b, 40), 40);
	cr_assert_eq(ptpkt_find_psb(b, 0), 0);
}
