/*
 * Criterion tests of who woke whom (symbolize/offcpu.c, the sort key
 * waker): the pairing fed switches and wakeups one at a time, and a
 * byte-built recording in both byte orders, written field by field from
 * the kernel's formats of sched:sched_switch and sched:sched_waking
 * (TRACING_DATA, EVENT_DESC, samples with their payloads), with the waker
 * of each span worked out by hand: the last wakeup of the span's thread
 * between its switch-out and its switch-in; a wakeup while the thread runs
 * is nobody's; short payloads are counted and skipped; the same with
 * SWITCH records in place of sched_switch samples.  And the fixture
 * wakers.data: every waker a sched_waking sample of the span's thread
 * within the span.  The wakers view's model (symbolize/wakers.h): the
 * byte-built spans grouped by waker, by hand; the fixture's, against the
 * spans themselves, its stacks resolved.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "core/index.h"
#include "symbolize/offcpu.h"
#include "symbolize/tpevent.h"
#include "symbolize/wakers.h"
#include "tests/helpers.h"

Test(wakers, pairing_takes_the_last_wakeup_in_the_span)
{
	struct offcpu o;
	struct offcpu_pairing *p = offcpu_pairing_begin(&o);

	/* 7 out at 100; woken at 90 (before: not its), 150, 180; in at 200 */
	offcpu_pairing_wake(p, 0, 90, 7);
	offcpu_pairing_add(p, 1, 100, 7, 9, 1);
	offcpu_pairing_wake(p, 2, 150, 7);
	offcpu_pairing_wake(p, 3, 180, 7);
	offcpu_pairing_add(p, 4, 200, 9, 7, 0);
	/* 9 out at 200, woken at 200 (its switch-out's time: in) and in at 300 */
	offcpu_pairing_wake(p, 5, 200, 9);
	offcpu_pairing_add(p, 6, 300, 7, 9, 0);
	/* 7 out at 300: woken at 400, but in at 350 first: no waker */
	offcpu_pairing_add(p, 7, 350, 9, 7, 0);
	offcpu_pairing_wake(p, 8, 400, 7);
	offcpu_pairing_wake(p, 9, 410, 0);	/* the idle task: nobody */
	offcpu_pairing_end(p);
	cr_assert_eq(o.n, 3);
	cr_expect_eq(o.v[0].pos, 1);
	cr_expect_eq(o.v[0].waker, 3);
	cr_expect_eq(o.v[1].pos, 4);
	cr_expect_eq(o.v[1].waker, 5);
	cr_expect_eq(o.v[2].pos, 6);
	cr_expect_eq(o.v[2].waker, OFFCPU_NO_WAKER);
	cr_expect_eq(o.nwoken, 2);
	cr_expect_eq(o.woken_ns, 200);
	offcpu_free(&o);
}

/* ---- a byte-built recording ---- */

#define ID_SWITCH	316
#define ID_WAKING	317
#define ATTR_SIZE	128
#define ST		(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW)

#define COMMON	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char fmt_switch[] = "name: sched_switch\nID: 316\nformat:\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";

static const char fmt_waking[] = "name: sched_waking\nID: 317\nformat:\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static const struct {
	uint64_t	 config, id;
	const char	*name;
} attrs[] = {
	{ ID_SWITCH, 200, "sched:sched_switch" },
	{ ID_WAKING, 201, "sched:sched_waking" },
};

/*
 * The recording being built: both attrs (sched_switch samples), or for
 * SWITCH records the wakeups' attr alone, with sample_id_all (the
 * records' thread and time, COMM's too).
 */
static size_t first_attr;
static bool id_all;
#define ATTR_SAMPLE_ID_ALL	(1ull << 18)
#define MISC_SWITCH_OUT		(1u << 13)

static void
header_and_attrs(struct pdbuf *b, bool swap)
{
	size_t ids, at, n = 2 - first_attr;

	memset(b, 0, sizeof *b);
	b->swap = swap;
	pd_u64(b, 0x32454c4946524550ULL);	/* "PERFILE2" */
	pd_u64(b, 104);
	pd_u64(b, ATTR_SIZE + 16);
	pd_zero(b, 104 - 24);
	ids = b->len;
	for (size_t i = first_attr; i < 2; i++)
		pd_u64(b, attrs[i].id);
	at = b->len;
	for (size_t i = first_attr; i < 2; i++) {
		pd_attr(b, ATTR_SIZE, PERF_TYPE_TRACEPOINT, attrs[i].config, 1, ST, 0,
		    id_all ? ATTR_SAMPLE_ID_ALL : 0);
		pd_u64(b, ids + 8 * (i - first_attr));
		pd_u64(b, 8);
	}
	pd_put64(b, 24, at);
	pd_put64(b, 32, n * (ATTR_SIZE + 16));
	pd_put64(b, 40, b->len);	/* the data section starts here */
}

/* A COMM record: thread tid (its own process) is called name. */
static void
comm(struct pdbuf *b, uint32_t tid, const char *name)
{
	size_t r = pd_rec_begin(b, PF_REC_COMM, 0);

	pd_u32(b, tid);
	pd_u32(b, tid);
	pd_str8(b, name);
	if (id_all) {	/* the trailer: TID, TIME, IDENTIFIER */
		pd_u32(b, tid);
		pd_u32(b, tid);
		pd_u64(b, 0);
		pd_u64(b, 201);
	}
	pd_rec_end(b, r);
}

/* A SWITCH record of tid at t, out or in. */
static void
switch_rec(struct pdbuf *b, uint32_t tid, uint64_t t, bool out)
{
	size_t r = pd_rec_begin(b, PF_REC_SWITCH, out ? MISC_SWITCH_OUT : 0);

	pd_u32(b, tid);
	pd_u32(b, tid);
	pd_u64(b, t);
	pd_u64(b, 201);
	pd_rec_end(b, r);
}

/* The sample head: id, pid/tid, time; then the RAW size. */
static size_t
sample_head(struct pdbuf *b, uint64_t id, uint32_t tid, uint64_t t, uint32_t raw_size)
{
	size_t r = pd_rec_begin(b, PF_REC_SAMPLE, PERF_RECORD_MISC_KERNEL);

	pd_u64(b, id);
	pd_u32(b, tid);
	pd_u32(b, tid);
	pd_u64(b, t);
	pd_u32(b, raw_size);
	return r;
}

static void
common(struct pdbuf *b, uint16_t type, uint32_t pid)
{
	pd_u16(b, type);
	pd_u8(b, 0);
	pd_u8(b, 0);
	pd_u32(b, pid);
}

/* sched_switch in tid's sample at t: prev out (state), next in. */
static void
sw(struct pdbuf *b, uint64_t t, uint32_t prev, uint32_t next, int64_t state)
{
	size_t r = sample_head(b, 200, prev, t, 68);

	common(b, ID_SWITCH, prev);
	pd_zero(b, 16);
	pd_u32(b, prev);
	pd_u32(b, 120);
	pd_u64(b, (uint64_t)state);
	pd_zero(b, 16);
	pd_u32(b, next);
	pd_u32(b, 120);
	pd_zero(b, 4);	/* to align the sample's end */
	pd_rec_end(b, r);
}

/* sched_waking of pid, in waker's sample at t; short: a payload cut before pid. */
static void
wake(struct pdbuf *b, uint64_t t, uint32_t waker, uint32_t pid, bool short_payload)
{
	size_t r = sample_head(b, 201, waker, t, short_payload ? 20 : 36);

	common(b, ID_WAKING, waker);
	if (short_payload) {
		pd_zero(b, 12);
	} else {
		pd_zero(b, 16);
		pd_u32(b, pid);
		pd_u32(b, 120);
		pd_u32(b, 0);
	}
	pd_rec_end(b, r);
}

/* TRACING_DATA, version 0.6: the two formats as system sched, in b's byte order. */
static void
tracing_data(struct pdbuf *b)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *fmts[] = { fmt_switch, fmt_waking };

	pd_bytes(b, magic, sizeof magic);
	pd_bytes(b, "0.6", 4);
	pd_u8(b, b->swap != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__));	/* big-endian file */
	pd_u8(b, 8);
	pd_u32(b, 4096);
	pd_bytes(b, "header_page", 12);
	pd_u64(b, 0);
	pd_bytes(b, "header_event", 13);
	pd_u64(b, 0);
	pd_u32(b, 0);	/* ftrace formats */
	pd_u32(b, 1);	/* systems */
	pd_bytes(b, "sched", 6);
	pd_u32(b, 2);
	for (size_t i = 0; i < 2; i++) {
		pd_u64(b, strlen(fmts[i]));
		pd_bytes(b, fmts[i], strlen(fmts[i]));
	}
	pd_u32(b, 0);	/* kallsyms */
	pd_u32(b, 0);	/* printk formats */
	pd_u64(b, 0);	/* saved cmdlines */
}

/* The data section ends here: TRACING_DATA and EVENT_DESC after it. */
static void
features(struct pdbuf *b)
{
	uint64_t data = 0;
	size_t feat = b->len, h;

	memcpy(&data, b->p + 40, sizeof data);
	if (b->swap)
		data = __builtin_bswap64(data);
	pd_put64(b, 48, feat - data);
	pd_zero(b, 32);
	h = b->len;
	tracing_data(b);
	pd_put64(b, feat, h);
	pd_put64(b, feat + 8, b->len - h);
	h = b->len;
	pd_u32(b, (uint32_t)(2 - first_attr));
	pd_u32(b, ATTR_SIZE);
	for (size_t i = first_attr; i < 2; i++) {
		pd_attr(b, ATTR_SIZE, PERF_TYPE_TRACEPOINT, attrs[i].config, 1, ST, 0,
		    id_all ? ATTR_SAMPLE_ID_ALL : 0);
		pd_u32(b, 1);
		pd_feat_str(b, attrs[i].name);
		pd_u64(b, attrs[i].id);
	}
	pd_put64(b, feat + 16, h);
	pd_put64(b, feat + 24, b->len - h);
	pd_put64(b, 72, 1ull << 1 | 1ull << 12);	/* TRACING_DATA, EVENT_DESC */
}

/*
 * Threads 101 "sleeper", 102 "waker", 103 "other" (index positions: the
 * three COMMs 0..2, then the samples from 3 on, in time order):
 *   3  t=1000 switch: 101 out (S), 102 in
 *   4  t=1500 103 wakes 101          (a wakeup in the span, not the last)
 *   5  t=1800 102 wakes 101          (the last: 101's waker)
 *   6  t=2000 switch: 102 out (S), 101 in      span 101: 1000, waker 5
 *   7  t=2500 101 wakes 102          (102's waker)
 *   8  t=2600 103 wakes 101          (101 runs: nobody's span)
 *   [hostile: t=2700 103 wakes 102 with its payload cut: counted, skipped]
 *   9  t=3000 switch: 101 out (S), 102 in      span 102: 1000, waker 7
 *  10  t=4000 switch: 102 out (D), 101 in      span 101: 1000, no waker
 * 102 never comes back in: left out.
 */
static char *
wakers_file(bool swap, bool hostile)
{
	struct pdbuf b;
	char *path;

	first_attr = 0;
	id_all = false;
	header_and_attrs(&b, swap);
	comm(&b, 101, "sleeper");
	comm(&b, 102, "waker");
	comm(&b, 103, "other");
	sw(&b, 1000, 101, 102, 1);
	wake(&b, 1500, 103, 101, false);
	wake(&b, 1800, 102, 101, false);
	sw(&b, 2000, 102, 101, 1);
	wake(&b, 2500, 101, 102, false);
	wake(&b, 2600, 103, 101, false);
	if (hostile)
		wake(&b, 2700, 103, 102, true);
	sw(&b, 3000, 101, 102, 1);
	sw(&b, 4000, 102, 101, 2);
	features(&b);
	path = tmp_write("wakers", b.p, b.len);
	pd_free(&b);
	return path;
}

static struct session *
open_path(const char *path)
{
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s: %s", path, err.msg);
	return s;
}

Test(wakers, byte_built_spans_and_their_wakers)
{
	for (int swap = 0; swap < 2; swap++) {
		for (int hostile = 0; hostile < 2; hostile++) {
			char *path = wakers_file(swap, hostile);
			struct session *s = open_path(path);
			struct offcpu o;
			uint64_t at = hostile ? 1 : 0;	/* the cut sample's place */

			cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK, "swap %d", swap);
			cr_assert(o.has_wakeups);
			cr_assert_eq(o.n, 3, "swap %d hostile %d: %zu spans", swap, hostile, o.n);
			cr_expect_eq(o.v[0].pos, 3);
			cr_expect_eq(o.v[0].tid, 101);
			cr_expect_eq(o.v[0].ns, 1000);
			cr_expect_eq(o.v[0].waker, 5, "swap %d: %llu", swap,
			    (unsigned long long)o.v[0].waker);
			cr_expect_eq(o.v[1].pos, 6);
			cr_expect_eq(o.v[1].tid, 102);
			cr_expect_eq(o.v[1].waker, 7);
			cr_expect_eq(o.v[2].pos, 9 + at);
			cr_expect_eq(o.v[2].tid, 101);
			cr_expect_eq(o.v[2].waker, OFFCPU_NO_WAKER);
			cr_expect_eq(o.nopen, 1);
			cr_expect_eq(o.nwake, 4 + at);
			cr_expect_eq(o.nwakebad, at);
			cr_expect_eq(o.nwoken, 2);
			cr_expect_eq(o.woken_ns, 2000);
			offcpu_free(&o);
			session_close(s);
			unlink(path);
			free(path);
		}
	}
}

/* perfnav top --off-cpu --sort waker[,pid] --tsv on the byte-built recording, by hand. */
Test(wakers, top_sort_waker_by_hand)
{
	static const char *want[] = {
		"# event\tself\tsamples\twaker\n"
		"off-cpu\t33.33\t1\twaker 102\n"
		"off-cpu\t33.33\t1\tsleeper 101\n"
		"off-cpu\t33.33\t1\tN/A\n",
		"# event\tself\tsamples\twaker\tpid\n"
		"off-cpu\t33.33\t1\twaker 102\t    101:sleeper\n"
		"off-cpu\t33.33\t1\tsleeper 101\t    102:waker\n"
		"off-cpu\t33.33\t1\tN/A\t    101:sleeper\n",
	};
	const char *sort[] = { "waker", "waker,pid" };

	for (int swap = 0; swap < 2; swap++) {
		char *path = wakers_file(swap, true);

		for (size_t i = 0; i < 2; i++) {
			char cmd[4200], *out;
			int status;

			snprintf(cmd, sizeof cmd, "%s/perfnav top --off-cpu --tsv --sort %s %s 2>/dev/null",
			    TEST_BUILDDIR, sort[i], path);
			out = cmd_output(cmd, NULL, &status);
			cr_assert_not_null(out);
			cr_expect_eq(status, 0);
			cr_expect_str_eq(out, want[i], "swap %d, --sort %s:\n%s", swap, sort[i], out);
			free(out);
		}
		unlink(path);
		free(path);
	}
}

/*
 * The fixture (perf record -e sched:sched_switch -e sched:sched_waking -g
 * -a ./offcpu): every waker is a sched_waking sample of the span's thread
 * (its payload's pid) at or after the switch-out and at or before the
 * switch-in; most of the workload's spans have one.
 */
Test(wakers, fixture_wakers_wake_their_spans)
{
	struct session *s = open_path(test_data("wakers.data"));
	const struct rec_index *ix = session_index(s);
	const struct attr_table *at = session_attrs(s);
	struct tpevent *tp = tpevent_new(s);
	struct offcpu o;
	size_t woken = 0;

	cr_assert_not_null(tp);
	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	cr_assert(o.has_wakeups);
	cr_expect_eq(o.nwakebad, 0);
	cr_expect_gt(o.nwake, 100);
	for (size_t k = 0; k < o.n; k++) {
		const struct offcpu_span *sp = &o.v[k];
		uint64_t t_out = index_ent(ix, (size_t)sp->pos)->time, t;
		struct sample smp;
		struct tp_loc loc;
		struct rec r;
		int64_t pid;

		if (sp->waker == OFFCPU_NO_WAKER)
			continue;
		woken++;
		cr_assert_lt(sp->waker, ix->n);
		t = index_ent(ix, (size_t)sp->waker)->time;
		cr_expect(t >= t_out && t <= t_out + sp->ns, "span %zu: woken at %llu", k,
		    (unsigned long long)t);
		cr_assert_eq(session_rec(s, ent_loc(index_ent(ix, (size_t)sp->waker)), &r), 0);
		cr_assert_geq(record_decode_sample(at, &r, &smp, NULL), 0);
		cr_assert_str_eq(session_attr_name(s, smp.attr), "sched:sched_waking");
		cr_assert(tpevent_field_loc(tp, at->v[smp.attr].attr.config, "pid", &loc));
		cr_assert(tp_loc_read(&loc, smp.raw, smp.raw_size, &pid));
		cr_expect_eq(pid, sp->tid, "span %zu of %d: a wakeup of %lld", k, (int)sp->tid,
		    (long long)pid);
		cr_expect_gt(smp.callchain_nr, 0, "the waker's stack is recorded");
	}
	cr_expect_eq(woken, o.nwoken);
	cr_expect_gt(woken, 200);
	tpevent_free(tp);
	offcpu_free(&o);
	session_close(s);
}

/* Only the spans of thread *arg. */
static bool
take_tid(void *arg, size_t k)
{
	const struct offcpu *oc = ((void **)arg)[0];

	return oc->v[k].tid == *(const int *)((void **)arg)[1];
}

/* The byte-built spans by waker: 102 "waker" 1000, 101 "sleeper" 1000; one unwoken. */
Test(wakers, model_by_hand)
{
	char *path = wakers_file(false, false);
	struct session *s = open_path(path);
	struct offcpu o;
	struct wakers w;
	int tid = 101;
	void *arg[2] = { &o, &tid };

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	wakers_build(&w, s, NULL, &o, NULL, NULL, 0);
	cr_expect_eq(w.total_ns, 3000);
	cr_expect_eq(w.spans, 3);
	cr_expect_eq(w.woken_ns, 2000);
	cr_expect_eq(w.woken, 2);
	cr_assert_eq(w.nrows, 2);
	/* equal times: by tid */
	cr_expect_eq(w.rows[0].tid, 101);
	cr_expect_str_eq(w.rows[0].comm, "sleeper");
	cr_expect_eq(w.rows[0].ns, 1000);
	cr_expect_eq(w.rows[1].tid, 102);
	cr_expect_str_eq(w.rows[1].comm, "waker");
	cr_expect_eq(w.rows[1].spans, 1);
	cr_expect_eq(w.rows[1].nstacks, 1);
	cr_expect_eq(w.stacks[w.rows[1].stack].pos, 5);
	cr_expect_eq(w.stacks[w.rows[1].stack].nframes, 0);	/* no symbolizer */
	wakers_free(&w);
	/* 101's spans only: the one 102 woke, and the one nobody did */
	wakers_build(&w, s, NULL, &o, take_tid, arg, 0);
	cr_expect_eq(w.spans, 2);
	cr_expect_eq(w.woken, 1);
	cr_assert_eq(w.nrows, 1);
	cr_expect_eq(w.rows[0].tid, 102);
	wakers_free(&w);
	offcpu_free(&o);
	session_close(s);
	unlink(path);
	free(path);
}

/* The fixture's: rows sum to the spans with a waker, stacks to their rows, each stack resolved. */
Test(wakers, model_of_the_fixture)
{
	struct session *s = open_path(test_data("wakers.data"));
	struct sym_opts so;
	struct symbolizer *z;
	struct offcpu o;
	struct wakers w;
	uint64_t ns = 0, spans = 0;

	memset(&so, 0, sizeof so);
	so.buildid_dir = test_data("buildid");
	so.kallsyms = "/dev/null";
	z = symbolizer_new(s, &so);
	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	wakers_build(&w, s, z, &o, NULL, NULL, 0);
	cr_expect_eq(w.spans, o.n);
	cr_expect_eq(w.total_ns, o.total_ns);
	cr_expect_eq(w.woken, o.nwoken);
	cr_expect_eq(w.woken_ns, o.woken_ns);
	cr_assert_gt(w.nrows, 3);
	for (size_t i = 0; i < w.nrows; i++) {
		const struct wakers_row *r = &w.rows[i];
		uint64_t sns = 0, ssp = 0;

		cr_expect(i == 0 || w.rows[i - 1].ns >= r->ns);
		cr_assert_gt(r->nstacks, 0);
		for (size_t k = r->stack; k < r->stack + r->nstacks; k++) {
			sns += w.stacks[k].ns;
			ssp += w.stacks[k].spans;
			cr_expect_gt(w.stacks[k].nframes, 1, "%s %d: a stack", r->comm, (int)r->tid);
			cr_expect_eq(session_ent_who(s, (size_t)w.stacks[k].pos).tid, r->tid);
		}
		cr_expect_eq(sns, r->ns);
		cr_expect_eq(ssp, r->spans);
		ns += r->ns;
		spans += r->spans;
	}
	cr_expect_eq(ns, w.woken_ns);
	cr_expect_eq(spans, w.woken);
	wakers_free(&w);
	offcpu_free(&o);
	symbolizer_free(z);
	session_close(s);
}

/*
 * SWITCH records and sched_waking samples (perf record --switch-events -e
 * sched:sched_waking): the spans lie at their thread's last sample, and
 * learn their wakers as with sched_switch samples.  Positions: COMMs 0..2,
 *   3  t=900  101 wakes 103          (101's last sample: its spans lie here)
 *   4  t=1000 SWITCH out 101
 *   5  t=1500 103 wakes 101
 *   6  t=1800 102 wakes 101          (the last: the waker)
 *   7  t=2000 SWITCH in 101          span 1000, waker 6
 *   8  t=2100 103 wakes 101          (101 runs)
 *   9  t=2500 SWITCH out 101
 *  10  t=3000 SWITCH in 101          span 500, no waker
 */
Test(wakers, switch_records_spans_learn_their_wakers)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf b;
		struct session *s;
		struct offcpu o;
		char *path;

		first_attr = 1;
		id_all = true;
		header_and_attrs(&b, swap);
		comm(&b, 101, "sleeper");
		comm(&b, 102, "waker");
		comm(&b, 103, "other");
		wake(&b, 900, 101, 103, false);
		switch_rec(&b, 101, 1000, true);
		wake(&b, 1500, 103, 101, false);
		wake(&b, 1800, 102, 101, false);
		switch_rec(&b, 101, 2000, false);
		wake(&b, 2100, 103, 101, false);
		switch_rec(&b, 101, 2500, true);
		switch_rec(&b, 101, 3000, false);
		features(&b);
		path = tmp_write("wakers-sw", b.p, b.len);
		pd_free(&b);
		s = open_path(path);
		cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
		cr_assert_eq(o.source, OFFCPU_SRC_SWITCH, "swap %d", swap);
		cr_assert(o.has_wakeups);
		cr_assert_eq(o.n, 2, "swap %d: %zu spans", swap, o.n);
		cr_expect_eq(o.nwake, 4);
		cr_expect_eq(o.v[0].pos, 3);
		cr_expect_eq(o.v[1].pos, 3);
		/* one position: in the order of their switch-outs */
		cr_expect_eq(o.v[0].ns, 1000);
		cr_expect_eq(o.v[0].waker, 6, "swap %d: %llu", swap, (unsigned long long)o.v[0].waker);
		cr_expect_eq(o.v[1].ns, 500);
		cr_expect_eq(o.v[1].waker, OFFCPU_NO_WAKER);
		cr_expect_eq(o.nwoken, 1);
		offcpu_free(&o);
		session_close(s);
		unlink(path);
		free(path);
	}
	first_attr = 0;
	id_all = false;
}
