/* Criterion tests of symbolize/pt/intel_pt.c: the decoder over a made-up trace. */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/pt/ptpkt.h"
#include "symbolize/pt/intel_pt.h"

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

static void
put_psb(struct tbuf *t)
{
	put(t, ptpkt_psb_bytes, 16);
}
static void
put_psbend(struct tbuf *t)
{
	put(t, "\x02\x23", 2);
}

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
walk(void *arg, uint64_t ip, bool nr)
{
	(void)nr;
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

/* ---- a whole recording: pt_synth() over a made-up perf.data ---- */

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

static void
sid(struct pdbuf *b, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	pd_u32(b, pid);
	pd_u32(b, tid);
	pd_u64(b, time);
	pd_u64(b, 100);
	pd_u32(b, cpu);
	pd_u32(b, 0);
}

/* A kernel address. */
#define K(a)	(UINT64_C(0xffffffff81000000) + (a))

/*
 * A trace of user code at 0x400010 from TSC 2000 (PSB+ with a CBR), then
 * an interrupt right there into the kernel at K(0).
 */
static void
put_user_interrupt(struct tbuf *t)
{
	put_psb(t);
	put_tsc(t, 2000);
	put_tma(t, 0, 0);
	put_cbr(t, 0x20);
	put_ip64(t, OP_FUP, 0x400010);
	put_psbend(t);
	put_ip64(t, OP_FUP, 0x400010);
	put_ip64(t, OP_TIP, K(0));
}

/* A sample of thread 42 on cpu 0 that pt_file() writes after the trace. */
struct at_ip {
	uint64_t	time, ip;
};

/*
 * One intel_pt attr (type 8, TSC on, branches on) and the records perf
 * writes around a trace: COMM and MMAP2 of pid 42, AUXTRACE_INFO (TSC ==
 * perf time), ITRACE_START on cpu 0, an AUX record saying the area was
 * truncated, the AUXTRACE buffer of cpu 0, nsmp samples of the attr
 * (without callchains), EXIT.
 */
static char *
pt_file(const struct tbuf *trace, bool vdso, const struct at_ip *smp, size_t nsmp)
{
	struct pdbuf b;
	size_t attrs_off, ids_off, data_off, r;
	static const uint64_t priv[17] = {
		8, 0, 1, 0, 1, 0x400, 0x800, 0, 0, 1, 0x200, 0x3c000, 2, 1, 2, 12, 0,
	};
	char *path;

	memset(&b, 0, sizeof b);
	pd_u64(&b, 0x32454c4946524550ULL);
	pd_u64(&b, 104);
	pd_u64(&b, 128 + 16);
	pd_zero(&b, 104 - 24);
	ids_off = b.len;
	pd_u64(&b, 100);
	attrs_off = b.len;
	pd_attr(&b, 128, 8, 0x2401, 1, 0x1c7 /* IP|TID|TIME|ID|CPU|PERIOD */, 0,
	    1ull << 9 | 1ull << 18 | 1ull << 23 /* comm, sample_id_all, mmap2 */);
	pd_u64(&b, ids_off);
	pd_u64(&b, 8);
	data_off = b.len;

	r = pd_rec_begin(&b, 70 /* AUXTRACE_INFO */, 0);
	pd_u32(&b, 1);
	pd_u32(&b, 0);
	for (int i = 0; i < 17; i++)
		pd_u64(&b, priv[i]);
	pd_rec_end(&b, r);
	r = pd_rec_begin(&b, 3 /* COMM */, 0);
	pd_u32(&b, 42);
	pd_u32(&b, 42);
	pd_str8(&b, "synth");
	sid(&b, 42, 42, 900, 0);
	pd_rec_end(&b, r);
	r = pd_rec_begin(&b, 10 /* MMAP2 */, 2);
	pd_u32(&b, 42);
	pd_u32(&b, 42);
	pd_u64(&b, 0x400000);
	pd_u64(&b, 0x1000);
	pd_u64(&b, 0);
	pd_u32(&b, 8);
	pd_u32(&b, 1);
	pd_u64(&b, 1234);
	pd_u64(&b, 0);
	pd_u32(&b, 5);
	pd_u32(&b, 2);
	pd_str8(&b, "/nonexistent/synth");
	sid(&b, 42, 42, 950, 0);
	pd_rec_end(&b, r);
	if (vdso) {
		r = pd_rec_begin(&b, 10 /* MMAP2 */, 2);
		pd_u32(&b, 42);
		pd_u32(&b, 42);
		pd_u64(&b, 0x7fff0000);
		pd_u64(&b, 0x2000);
		pd_u64(&b, 0);
		pd_zero(&b, 24);
		pd_u32(&b, 5);
		pd_u32(&b, 2);
		pd_str8(&b, "[vdso]");
		sid(&b, 42, 42, 960, 0);
		pd_rec_end(&b, r);
	}
	r = pd_rec_begin(&b, 12 /* ITRACE_START */, 0);
	pd_u32(&b, 42);
	pd_u32(&b, 42);
	sid(&b, 42, 42, 1000, 0);
	pd_rec_end(&b, r);
	r = pd_rec_begin(&b, 11 /* AUX */, 0);	/* a truncated AUX area */
	pd_u64(&b, 0);
	pd_u64(&b, trace->n);
	pd_u64(&b, 1);		/* PERF_AUX_FLAG_TRUNCATED */
	sid(&b, 42, 42, 1500, 0);
	pd_rec_end(&b, r);
	r = pd_rec_begin(&b, 71 /* AUXTRACE */, 0);
	pd_u64(&b, trace->n);
	pd_u64(&b, 0);
	pd_u64(&b, 2000);	/* reference TSC */
	pd_u32(&b, 0);		/* idx */
	pd_u32(&b, 42);		/* tid */
	pd_u32(&b, 0);		/* cpu */
	pd_u32(&b, 0);
	pd_rec_end(&b, r);
	pd_bytes(&b, trace->b, trace->n);
	for (size_t i = 0; i < nsmp; i++) {
		r = pd_rec_begin(&b, 9 /* SAMPLE */, smp[i].ip >> 63 ? 1 : 2);
		pd_u64(&b, smp[i].ip);
		sid(&b, 42, 42, smp[i].time, 0);
		pd_u64(&b, 1);		/* period */
		pd_rec_end(&b, r);
	}
	r = pd_rec_begin(&b, 4 /* EXIT */, 0);
	pd_u32(&b, 42);
	pd_u32(&b, 1);
	pd_u32(&b, 42);
	pd_u32(&b, 1);
	pd_u64(&b, 5000);
	sid(&b, 42, 42, 5000, 0);
	pd_rec_end(&b, r);

	pd_put64(&b, 24, attrs_off);
	pd_put64(&b, 32, 128 + 16);
	pd_put64(&b, 40, data_off);
	pd_put64(&b, 48, b.len - data_off);
	path = tmp_write("pt", b.p, b.len);
	pd_free(&b);
	return path;
}

Test(intel_pt, synthesized_from_a_recording)
{
	struct tbuf t = { .n = 0 };
	struct session *s;
	struct perf_err err;
	struct sym_opts so;
	struct symbolizer *z;
	struct pt_item *it;
	struct pt_opts po = { .script = true };
	size_t n, exit_pos = 0, aux_pos = 0;
	char *path;

	put_user_interrupt(&t);
	put(&t, "\x59\x01", 2);				/* MTC: +1 CTC = +2 TSC */
	t.b[t.n++] = 0x06;				/* TNT: kernel code, no map */
	while (t.n % 8)
		t.b[t.n++] = 0;
	path = pt_file(&t, false, NULL, 0);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(pt_present(s));
	memset(&so, 0, sizeof so);
	z = symbolizer_new(s, &so);
	for (size_t i = 0; i < session_index(s)->n; i++)
		if (ent_type(index_ent(session_index(s), i)) == PF_REC_EXIT)
			exit_pos = i;
		else if (ent_type(index_ent(session_index(s), i)) == PF_REC_AUX)
			aux_pos = i;

	n = pt_synth(s, z, &po, &it);
	cr_assert_eq(n, 5);
	/* the truncated AUX area: lost data, reported as the AUX record comes */
	cr_assert_eq(it[0].kind, PT_ITEM_ERROR);
	cr_assert_eq(it[0].code, 8);
	cr_assert_str_eq(pt_error_text(it[0].code), "Lost trace data");
	cr_assert_eq(it[0].time, 1500);
	cr_assert_eq(it[0].before, aux_pos);
	memmove(it, it + 1, --n * sizeof *it);
	cr_assert_eq(it[0].kind, PT_ITEM_SAMPLE);
	cr_assert_eq(it[0].event, PT_EV_PSB);
	cr_assert_eq(it[0].ip, 0x400010);
	cr_assert_eq(it[0].time, 2000);
	cr_assert_eq(it[0].cpumode, PERF_RECORD_MISC_USER);
	cr_assert_eq(it[1].event, PT_EV_CBR);
	cr_assert_eq(it[1].payload, 0x20);
	cr_assert_eq(it[2].event, PT_EV_BRANCHES);
	cr_assert_eq(it[2].ip, 0x400010);
	cr_assert_eq(it[2].addr, UINT64_C(0xffffffff81000000));
	cr_assert_eq(it[2].flags, PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_ASYNC |
	    PT_FLAG_INTERRUPT);
	cr_assert_eq(it[3].kind, PT_ITEM_ERROR);
	cr_assert_eq(it[3].code, PT_ERR_NOINSN);
	cr_assert_eq(it[3].ip, UINT64_C(0xffffffff81000000));
	cr_assert_eq(it[3].time, 2002);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(it[i].pid, 42);
		cr_assert_eq(it[i].tid, 42);
		cr_assert_eq(it[i].cpu, 0);
		cr_assert_eq(it[i].before, exit_pos, "item %zu comes before the EXIT", i);
	}
	free(it);

	po.script = false;	/* perf report: psb and cbr only */
	n = pt_synth(s, z, &po, &it);
	cr_assert_eq(n, 2);
	cr_assert_eq(it[0].event, PT_EV_PSB);
	cr_assert_eq(it[1].event, PT_EV_CBR);
	free(it);

	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

/* CYC packets advance time at the core:bus ratio from the CBR on. */
Test(intel_pt, cyc_time_from_cbr)
{
	struct tbuf t = { .n = 0 };
	struct walks w = { .n = 0, .silent_from = 100 };
	struct pt_buffer buf;
	struct pt_decoder *d;
	const struct pt_state *st;

	put_psb(&t);
	put_tsc(&t, 0x1000);
	put_tma(&t, 0, 0);
	put_cbr(&t, 32);		/* 12 / 32 TSC ticks per cycle */
	put_psbend(&t);
	put_ip64(&t, OP_PGE, 0x400000);
	put(&t, "\x47\x3e", 2);	/* CYC: 8 | 31 << 5 = 1000 cycles */
	t.b[t.n++] = 0x06;		/* TNT */
	buf = (struct pt_buffer){ t.b, t.n, 0x1000 };
	d = pt_decoder_new(&params, &buf, 1, walk, &w);

	st = pt_decode(d);
	cr_assert_eq(st->type, PT_ST_PSB | PT_ST_CBR_CHG);
	st = pt_decode(d);
	cr_assert_eq(st->to_ip, 0x400000);
	st = pt_decode(d);
	cr_assert_eq(st->err, PT_ERR_NOINSN);
	cr_assert_eq(st->timestamp, 0x1000 + 375);
	pt_decoder_free(d);
}

/*
 * Walks into a DSO whose file cannot be read: perf reports the first two
 * and then stays silent, or reports one only when the DSO was already
 * found unreadable - as when the process mapped [vdso] after it.
 */
static size_t
user_errors(bool vdso)
{
	struct tbuf t = { .n = 0 };
	struct session *s;
	struct perf_err err;
	struct sym_opts so;
	struct symbolizer *z;
	struct pt_item *it;
	struct pt_opts po = { .script = true };
	size_t n, k = 0;
	char *path;

	put_psb(&t);
	put_tsc(&t, 2000);
	put_tma(&t, 0, 0);
	put_cbr(&t, 0x20);
	put_ip64(&t, OP_FUP, UINT64_C(0xffffffff81000000));
	put_psbend(&t);
	put_ip64(&t, OP_FUP, UINT64_C(0xffffffff81000000));
	put_ip64(&t, OP_TIP, 0x400010);		/* back to user code */
	t.b[t.n++] = 0x06;			/* walk 1 */
	put_ip64(&t, OP_FUP, 0x400020);		/* in sync again */
	t.b[t.n++] = 0x06;			/* walk 2 */
	put_ip64(&t, OP_FUP, 0x400030);
	t.b[t.n++] = 0x06;			/* walk 3 */
	while (t.n % 8)
		t.b[t.n++] = 0;
	path = pt_file(&t, vdso, NULL, 0);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	memset(&so, 0, sizeof so);
	z = symbolizer_new(s, &so);
	n = pt_synth(s, z, &po, &it);
	for (size_t i = 0; i < n; i++)
		if (it[i].kind == PT_ITEM_ERROR && it[i].code == PT_ERR_NOINSN) {
			cr_assert_eq(it[i].ip, 0x400010 + 0x10 * k);
			k++;
		}
	free(it);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
	return k;
}

Test(intel_pt, unreadable_dso_errors)
{
	cr_assert_eq(user_errors(false), 2);
	cr_assert_eq(user_errors(true), 1);
}

/* ---- thread stacks and the callchains made of them ---- */

/* Calls push the address after them, returns pop down to where they return. */
Test(intel_pt, stacks_push_and_pop)
{
	struct pt_stacks *k = pt_stacks_new();
	const uint32_t call = PT_FLAG_BRANCH | PT_FLAG_CALL;
	const uint32_t ret = PT_FLAG_BRANCH | PT_FLAG_RETURN;
	uint64_t c[PT_CHAIN_ROOM];

	cr_assert_not_null(k);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x1000, PT_CHAIN_ROOM, c), 1, "no stack: the ip");
	cr_assert_eq(c[0], 0x1000);
	pt_stacks_event(k, 7, 0, call, 0x1000, 0x2000, 5, 1);	/* main -> f */
	pt_stacks_event(k, 7, 0, call, 0x2010, 0x3000, 5, 1);	/* f -> g */
	pt_stacks_event(k, 7, 0, call, 0x3020, 0x3025, 5, 1);	/* to the next instruction: none */
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x3030, PT_CHAIN_ROOM, c), 3);
	cr_assert_eq(c[0], 0x3030);
	cr_assert_eq(c[1], 0x2015, "g returns into f");
	cr_assert_eq(c[2], 0x1005, "f returns into main");
	cr_assert_eq(pt_stacks_sample(k, 8, 0, 0x3030, PT_CHAIN_ROOM, c), 1, "another thread's");

	pt_stacks_event(k, 7, 0, ret, 0x3040, 0x2015, 0, 1);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x2020, PT_CHAIN_ROOM, c), 2);
	cr_assert_eq(c[1], 0x1005);
	pt_stacks_event(k, 7, 0, ret, 0x2030, 0x9999, 0, 1);	/* a return not seen called */
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x2020, PT_CHAIN_ROOM, c), 2, "left alone");
	pt_stacks_event(k, 7, 0, call, 0x2040, 0x3000, 5, 1);
	pt_stacks_event(k, 7, 0, ret, 0x3040, 0x1005, 0, 1);	/* longjmp-like: pops both */
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x1010, PT_CHAIN_ROOM, c), 1);

	/* an interrupt (no instruction length) pushes its source */
	pt_stacks_event(k, 7, 0, call | PT_FLAG_ASYNC | PT_FLAG_INTERRUPT, 0x1010, K(0), 0, 1);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, K(0x40), PT_CHAIN_ROOM, c), 2);
	cr_assert_eq(c[0], K(0x40));
	cr_assert_eq(c[1], 0x1010);
	/* another trace number: the stack may be anything, it starts over */
	pt_stacks_event(k, 7, 0, PT_FLAG_BRANCH, K(0x50), K(0x60), 0, 2);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, K(0x60), PT_CHAIN_ROOM, c), 1);
	pt_stacks_free(k);
}

/* Tracing ends in a call and begins again: the call is dropped, a return is taken. */
Test(intel_pt, stacks_trace_begin)
{
	struct pt_stacks *k = pt_stacks_new();
	const uint32_t call = PT_FLAG_BRANCH | PT_FLAG_CALL;
	const uint32_t begin = PT_FLAG_BRANCH | PT_FLAG_TRACE_BEGIN;
	uint64_t c[PT_CHAIN_ROOM];

	pt_stacks_event(k, 7, 0, call, 0x1000, 0x2000, 5, 1);
	pt_stacks_event(k, 7, 0, call, 0x2000, 0x3000, 5, 1);
	pt_stacks_event(k, 7, 0, call | PT_FLAG_TRACE_END, 0x3000, 0x4000, 5, 1);
	pt_stacks_event(k, 7, 0, begin, 0, 0x4010, 0, 1);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x4010, PT_CHAIN_ROOM, c), 3);
	cr_assert_eq(c[1], 0x2005);
	pt_stacks_event(k, 7, 0, begin, 0, 0x2005, 0, 1);	/* resumes after a return */
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x2005, PT_CHAIN_ROOM, c), 2);
	cr_assert_eq(c[1], 0x1005);

	/* the idle thread has a stack per CPU; a fork makes a thread's anew */
	pt_stacks_event(k, 0, 1, call, 0x1000, 0x2000, 5, 1);
	cr_assert_eq(pt_stacks_sample(k, 0, 1, 0x2000, PT_CHAIN_ROOM, c), 2);
	cr_assert_eq(pt_stacks_sample(k, 0, 2, 0x2000, PT_CHAIN_ROOM, c), 1);
	pt_stacks_forget(k, 7);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x2005, PT_CHAIN_ROOM, c), 1);
	pt_stacks_free(k);
}

/* 16 frames and a context marker fit; another marker takes a frame's room. */
Test(intel_pt, stacks_chain_room)
{
	struct pt_stacks *k = pt_stacks_new();
	const uint32_t call = PT_FLAG_BRANCH | PT_FLAG_CALL;
	uint64_t c[PT_CHAIN_ROOM];

	for (uint64_t i = 0; i < 20; i++)
		pt_stacks_event(k, 7, 0, call, 0x1000 + 0x100 * i, 0x1000 + 0x100 * (i + 1), 5, 1);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, 0x9000, PT_CHAIN_ROOM, c), 16);
	cr_assert_eq(c[15], 0x1000 + 0x100 * 5 + 5);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, K(0), PT_CHAIN_ROOM, c), 15, "a user marker too");
	cr_assert_eq(c[1], 0x1000 + 0x100 * 19 + 5);
	cr_assert_eq(pt_stacks_sample(k, 7, 0, K(0), 1, c), 0);
	pt_stacks_free(k);
}

/*
 * A sample recorded after it was taken: kernel addresses above the first
 * user one (or the sample's own ip) are skipped; with none left, the ip.
 */
Test(intel_pt, stacks_late_samples)
{
	struct pt_stacks *k = pt_stacks_new();
	const uint32_t irq = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_ASYNC | PT_FLAG_INTERRUPT;
	uint64_t c[PT_CHAIN_ROOM];

	pt_stacks_event(k, 7, 0, PT_FLAG_BRANCH | PT_FLAG_CALL, 0x1000, 0x2000, 5, 1);
	pt_stacks_event(k, 7, 0, irq, 0x2010, K(0), 0, 1);
	pt_stacks_event(k, 7, 0, irq, K(0x10), K(0x100), 0, 1);
	pt_stacks_event(k, 7, 0, irq, K(0x110), K(0x200), 0, 1);
	/* user stack: [0x1005 0x2010], kernel above it: [K(0x10) K(0x110)] */
	cr_assert_eq(pt_stacks_sample_late(k, 7, 0, 0x2010, PT_CHAIN_ROOM, c), 2);
	cr_assert_eq(c[0], 0x2010);
	cr_assert_eq(c[1], 0x1005);
	cr_assert_eq(pt_stacks_sample_late(k, 7, 0, K(0x10), PT_CHAIN_ROOM, c), 3);
	cr_assert_eq(c[0], K(0x10));
	cr_assert_eq(c[1], 0x2010);
	cr_assert_eq(pt_stacks_sample_late(k, 8, 0, K(0x10), PT_CHAIN_ROOM, c), 1);
	cr_assert_eq(c[0], K(0x10));
	pt_stacks_free(k);
	k = pt_stacks_new();
	pt_stacks_event(k, 7, 0, irq, K(0x10), K(0x100), 0, 1);
	cr_assert_eq(pt_stacks_sample_late(k, 7, 0, K(0x500), PT_CHAIN_ROOM, c), 1,
	    "only kernel addresses, none the ip's");
	cr_assert_eq(c[0], K(0x500));
	pt_stacks_free(k);
}

/*
 * A recording whose trace has an interrupt push the user address it left,
 * tracing stop in the kernel and a PSB come while it is off; then two
 * samples of the trace's attr (kernel, user), without callchains.
 */
static const struct at_ip chain_samples[] = { { 2100, K(0x100) }, { 2200, 0x400050 } };

static char *
chains_file(void)
{
	struct tbuf t = { .n = 0 };

	put_user_interrupt(&t);
	put_ip64(&t, OP_FUP, K(0));			/* tracing stops there */
	t.b[t.n++] = OP_PGD;
	put(&t, "\x59\x01", 2);				/* MTC: +1 CTC = +2 TSC */
	put_psb(&t);
	put_tsc(&t, 2010);
	put_psbend(&t);
	while (t.n % 8)
		t.b[t.n++] = 0;
	return pt_file(&t, false, chain_samples, 2);
}

/*
 * Over a recording: the PSB's sample shows the interrupted address under
 * its own ip; the recorded samples after it get the stack as perf report
 * gives them.
 */
Test(intel_pt, chains_from_a_recording)
{
	struct session *s;
	struct perf_err err;
	struct sym_opts so;
	struct symbolizer *z;
	struct pt_item *it;
	struct pt_opts po = { .script = false };
	struct pt_chains c;
	const uint64_t *ips;
	size_t n, sample_pos[2], k = 0;
	char *path = chains_file();

	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	for (size_t i = 0; i < session_index(s)->n; i++)
		if (ent_type(index_ent(session_index(s), i)) == PF_REC_SAMPLE)
			sample_pos[k++] = i;
	cr_assert_eq(k, 2);
	memset(&so, 0, sizeof so);
	z = symbolizer_new(s, &so);
	memset(&c, 0, sizeof c);
	n = pt_synth_chains(s, z, &po, &it, &c);
	cr_assert_eq(n, 3);
	cr_assert_eq(it[0].event, PT_EV_PSB);
	cr_assert_eq(it[0].nchain, 1, "nothing called yet: the ip");
	cr_assert_eq(c.ips[it[0].chain], 0x400010);
	cr_assert_eq(it[1].event, PT_EV_CBR);
	cr_assert_eq(it[1].nchain, 1);
	cr_assert_eq(it[2].event, PT_EV_PSB);
	cr_assert_eq(it[2].ip, 0, "tracing is off: no ip");
	cr_assert_eq(it[2].nchain, 2);
	cr_assert_eq(c.ips[it[2].chain], 0);
	cr_assert_eq(c.ips[it[2].chain + 1], 0x400010, "where the interrupt left user code");
	/* the kernel sample: the stack down from its first user address (not its ip) */
	cr_assert_eq(pt_chains_of_sample(&c, sample_pos[0], &ips), 1);
	cr_assert_eq(ips[0], 0x400010);
	cr_assert_eq(pt_chains_of_sample(&c, sample_pos[1], &ips), 1);
	cr_assert_eq(ips[0], 0x400010);
	cr_assert_eq(pt_chains_of_sample(&c, sample_pos[1] + 1, &ips), 0, "not a sample");
	cr_assert_eq(pt_chain_cpumode(K(0)), PERF_RECORD_MISC_KERNEL);
	cr_assert_eq(pt_chain_cpumode(0), PERF_RECORD_MISC_USER);
	free(it);

	n = pt_synth(s, z, &po, &it);	/* without chains: the same items */
	cr_assert_eq(n, 3);
	cr_assert_eq(it[2].nchain, 0);
	free(it);
	pt_chains_free(&c);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* One event's chains as perf's folded lines, leaf first ("ip;caller count"), sorted. */
static void
folded_paths(struct hist *h, const char *event, char *out, size_t n)
{
	struct cpath_query q = { .entry = CPATH_NONE, .chained_only = true, .bottom_up = true };
	struct cpath *t;
	char lines[8][128];
	size_t nl = 0, used = 0;
	int ev = hist_event_find(h, event);

	cr_assert_geq(ev, 0, "%s", event);
	q.ev = (size_t)ev;
	t = cpath_build(h, &q);
	for (uint32_t id = 1; id < cpath_count(t); id++) {
		uint32_t funcs[32];
		size_t d = cpath_path(t, id, funcs, 32), l = 0;
		char name[64];

		if (cpath_node(t, id)->self_samples == 0)
			continue;
		cr_assert_lt(nl, 8);
		for (size_t j = 0; j < d; j++)
			l += (size_t)snprintf(lines[nl] + l, sizeof lines[nl] - l, "%s%s", j ? ";" : "",
			    cpath_func_name(h, funcs[j], name, sizeof name));
		snprintf(lines[nl] + l, sizeof lines[nl] - l, " %" PRIu64,
		    cpath_node(t, id)->self_samples);
		nl++;
	}
	qsort(lines, nl, sizeof lines[0], cmp_line);
	out[0] = '\0';
	for (size_t i = 0; i < nl; i++)
		used += (size_t)snprintf(out + used, n - used, "%s%s", i ? "," : "", lines[i]);
	cpath_free(t);
}

/*
 * A hist that keeps call paths (not children): the trace's samples and the
 * session's own get perf report's chains, unresolved frames by address.
 */
Test(intel_pt, chains_in_a_hist)
{
	struct hist_opts ho = { .keys = { HIST_KEY_SYM }, .nkeys = 1, .event = -1, .paths = true };
	struct session *s;
	struct perf_err err;
	struct sym_opts so;
	struct symbolizer *z;
	struct hist *h;
	char got[512];
	char *path = chains_file();

	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	memset(&so, 0, sizeof so);
	z = symbolizer_new(s, &so);
	h = hist_new(s, z, &ho);
	cr_assert_eq(hist_opts(h)->paths, true);
	cr_assert_eq(hist_add_session(h, NULL), 2);
	cr_assert_eq(pt_hist_add(h, s, z), 3);
	hist_finish(h);
	folded_paths(h, "psb", got, sizeof got);
	cr_assert_str_eq(got, "0;0x400010 1,0x400010 1");
	folded_paths(h, "cbr", got, sizeof got);
	cr_assert_str_eq(got, "0x400010 1");
	folded_paths(h, session_attr_name(s, 0), got, sizeof got);
	cr_assert_str_eq(got, "0x400010 2", "the kernel sample's chain starts at the user address");
	hist_free(h);

	ho.children = true;	/* perf's children tables of a trace have no chain entries */
	h = hist_new(s, z, &ho);
	hist_add_session(h, NULL);
	pt_hist_add(h, s, z);
	hist_finish(h);
	folded_paths(h, "psb", got, sizeof got);
	cr_assert_str_eq(got, "");
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

/*
 * A filter leaves the trace's samples out as it does the session's: a time
 * range that holds only the last psb item keeps that one, and the core
 * ratio reported again there (as perf decodes only the range).
 */
Test(intel_pt, filter_in_a_hist)
{
	struct hist_opts ho = { .keys = { HIST_KEY_SYM }, .nkeys = 1, .event = -1 };
	struct hist_filter f = { 0 };
	struct pt_opts po = { .script = false };
	struct session *s;
	struct perf_err err;
	struct sym_opts so;
	struct symbolizer *z;
	struct pt_item *it;
	struct hist *h;
	int psb;
	char *path = chains_file();

	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	memset(&so, 0, sizeof so);
	z = symbolizer_new(s, &so);
	cr_assert_eq(pt_synth_chains(s, z, &po, &it, NULL), 3);
	cr_assert_eq(it[1].event, PT_EV_CBR);
	cr_assert_eq(it[2].event, PT_EV_PSB);
	cr_assert_lt(it[1].time, it[2].time);
	f.time = calloc(1, sizeof *f.time);
	cr_assert_not_null(f.time);
	f.time[0].start = f.time[0].end = it[2].time;
	f.ntime = 1;
	ho.filter = &f;
	h = hist_new(s, z, &ho);
	pt_hist_add(h, s, z);
	hist_finish(h);
	psb = hist_event_find(h, "psb");
	cr_assert_geq(psb, 0);
	cr_expect_eq(hist_event(h, (size_t)psb)->nsamples, 1, "the first psb is before the range");
	cr_assert_geq(hist_event_find(h, "cbr"), 0);
	cr_expect_eq(hist_event(h, (size_t)hist_event_find(h, "cbr"))->nsamples, 1);
	hist_free(h);
	filter_free(&f);
	free(it);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

/*
 * With perf's --time, as perf decodes only the ranges: nothing before a
 * range's start is reported, and the core ratio is reported again at the
 * first state inside it (perf's cbr_seen was never set).
 */
Test(intel_pt, time_ranges_report_the_ratio_again)
{
	struct hist_filter f = { 0 };
	struct pt_opts po = { .script = false };
	struct session *s;
	struct perf_err err;
	struct sym_opts so;
	struct symbolizer *z;
	struct pt_item *all, *it;
	size_t n;
	char *path = chains_file();

	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	memset(&so, 0, sizeof so);
	z = symbolizer_new(s, &so);
	cr_assert_eq(pt_synth(s, z, &po, &all), 3);
	cr_assert_eq(all[1].event, PT_EV_CBR);
	cr_assert_lt(all[1].time, all[2].time);
	f.time = calloc(1, sizeof *f.time);
	cr_assert_not_null(f.time);
	f.time[0].start = all[1].time + 1;
	f.ntime = 1;
	po.time = &f;
	n = pt_synth(s, z, &po, &it);
	cr_assert_eq(n, 2, "the last psb and the ratio again");
	cr_expect_eq(it[0].event, PT_EV_PSB);
	cr_expect_eq(it[0].time, all[2].time);
	cr_expect_eq(it[1].event, PT_EV_CBR);
	cr_expect_eq(it[1].payload, all[1].payload);
	cr_expect_eq(it[1].time, all[2].time, "at the first state inside");
	free(it);
	free(all);
	filter_free(&f);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}
