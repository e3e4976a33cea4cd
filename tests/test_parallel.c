/*
 * Criterion tests of symbolize/parallel.c and the latency and parallelism
 * it gives the hist (perf 6.15's report --latency, --sort parallelism,
 * --parallelism): recordings built byte by byte with switch and exit
 * records at known times, whose parallelism, latencies and rows are worked
 * out by hand below; hostile switch records (counts below 1 and over the
 * cpus); the --parallelism list's syntax; the perf-made switch.data; and
 * the browser's hist with latency recounted (hist_rescope) for a time
 * range, a thread and a level, against a pass with that filter; the
 * timeline's columns by parallelism.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/parallel.h"
#include "symbolize/symbolizer.h"
#include "symbolize/timeline.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

/* sample_type IP|TID|TIME|ID|CPU|PERIOD, as helpers.c's synthetic attr */
#define ST	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
/* attr flags: disabled, inherit, mmap, comm, sample_id_all, mmap2, and context_switch (bit 26) */
#define FLAGS	((1ull << 0) | (1ull << 1) | (1ull << 8) | (1ull << 9) | (1ull << 18) | (1ull << 23))
#define CONTEXT_SWITCH	(1ull << 26)

/* One record of a test recording: a sample, a switch (in or out) or an exit. */
enum ev_kind { SMP, SW_IN, SW_OUT, EXIT };
struct ev {
	enum ev_kind	 kind;
	uint64_t	 time;
	int32_t		 tid;
	uint64_t	 period;	/* samples */
};

/* The sample_id_all trailer: TID, TIME, ID, CPU. */
static void
trailer(struct pdbuf *b, int32_t tid, uint64_t time)
{
	pd_u32(b, 10);	/* every thread is of process 10 */
	pd_u32(b, (uint32_t)tid);
	pd_u64(b, time);
	pd_u64(b, 100);
	pd_u32(b, (uint32_t)tid % 2);
	pd_u32(b, 0);
}

/*
 * A recording of these records (in time order) with one cpu-clock attr,
 * context_switch if sw, and an NRCPUS feature of avail cpus (0: none).
 */
static struct session *
build(const struct ev *evs, size_t n, bool sw, uint32_t avail, struct pdbuf *b)
{
	struct perf_err err;
	struct session_mem mem;
	struct session *s;
	size_t data_off = synth_head_with(b, false, ST, FLAGS | (sw ? CONTEXT_SWITCH : 0)), r, ft;

	for (size_t i = 0; i < n; i++) {
		const struct ev *e = &evs[i];

		switch (e->kind) {
		case SMP:
			r = pd_rec_begin(b, PF_REC_SAMPLE, PERF_RECORD_MISC_USER);
			pd_u64(b, 0x400100 + (uint64_t)e->tid);	/* IP */
			pd_u32(b, 10);				/* TID */
			pd_u32(b, (uint32_t)e->tid);
			pd_u64(b, e->time);			/* TIME */
			pd_u64(b, 100);				/* ID */
			pd_u32(b, (uint32_t)e->tid % 2);	/* CPU */
			pd_u32(b, 0);
			pd_u64(b, e->period);			/* PERIOD */
			break;
		case SW_IN:
		case SW_OUT:
			r = pd_rec_begin(b, PF_REC_SWITCH, e->kind == SW_OUT ? PERF_RECORD_MISC_SWITCH_OUT : 0);
			trailer(b, e->tid, e->time);
			break;
		default:
			r = pd_rec_begin(b, PF_REC_EXIT, 0);
			pd_u32(b, 10);
			pd_u32(b, 1);
			pd_u32(b, (uint32_t)e->tid);
			pd_u32(b, 1);
			pd_u64(b, e->time);
			trailer(b, e->tid, e->time);
			break;
		}
		pd_rec_end(b, r);
	}
	ft = b->len;
	if (avail > 0) {
		/* the feature table's one entry (NRCPUS, bit 7), then online, avail */
		pd_zero(b, 16);
		pd_put64(b, ft, b->len);
		pd_u32(b, avail);
		pd_u32(b, avail);
		pd_put64(b, ft + 8, 8);
		pd_put64(b, 72, 1ull << 7);
	}
	pd_put64(b, 40, data_off);
	pd_put64(b, 48, ft - data_off);
	mem.base = b->p;
	mem.size = b->len;
	s = session_open_mem("parallel", &mem, 1, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	return s;
}

/*
 * Threads 10, 11 and 12 of process 10 on a machine of 2 cpus.  perf's count
 * starts at 1 (10 runs, its switch-in not recorded):
 *
 *   idx time  record        count  sample: parallelism, latency = period * 1000 / par
 *    0   100  sample 10            1: 1000 * 1000 / 1 = 1,000,000
 *    1   200  11 in         2
 *    2   300  sample 10            2: 1000 * 1000 / 2 =   500,000
 *    3   310  sample 11            2: 6000 * 1000 / 2 = 3,000,000
 *    4   400  12 in         3
 *    5   500  sample 12            3, clamped to the 2 cpus: 1000 * 1000 / 2 = 500,000
 *    6   600  12 out        2
 *    7   700  11 out        1
 *    8   800  sample 10            1: 2000 * 1000 / 1 = 2,000,000
 *    9   900  exit 10       0      (an exiting thread is not switched out)
 *   10  1000  sample 10            0, clamped to 1: 1500 * 1000 / 1 = 1,500,000
 *
 * Totals: period 1000 + 1000 + 6000 + 1000 + 2000 + 1500 = 12500; latency
 * 1M + 0.5M + 3M + 0.5M + 2M + 1.5M = 8.5M.
 */
static const struct ev phases[] = {
	{ SMP, 100, 10, 1000 },
	{ SW_IN, 200, 11, 0 },
	{ SMP, 300, 10, 1000 },
	{ SMP, 310, 11, 6000 },
	{ SW_IN, 400, 12, 0 },
	{ SMP, 500, 12, 1000 },
	{ SW_OUT, 600, 12, 0 },
	{ SW_OUT, 700, 11, 0 },
	{ SMP, 800, 10, 2000 },
	{ EXIT, 900, 10, 0 },
	{ SMP, 1000, 10, 1500 },
};
#define NPHASES	(sizeof phases / sizeof *phases)

Test(parallel, counts_switches_and_exits_and_clamps)
{
	struct pdbuf b;
	struct session *s = build(phases, NPHASES, true, 2, &b);
	struct parallel p;
	/* each index position's parallelism, as worked out above (records: that of the next sample) */
	static const uint32_t at[] = { 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1 };

	cr_assert(parallel_recorded(s));
	cr_assert_eq(session_index(s)->n, NPHASES);
	parallel_build(s, &p);
	cr_expect_eq(p.max, 2);
	cr_expect_eq(p.n, 5);	/* a step per switch and exit */
	cr_expect_eq(p.nin, 2);
	cr_expect_eq(p.nout, 2);
	cr_expect_eq(p.nexit, 1);
	cr_expect_eq(p.nsamples, 6);
	cr_expect_eq(p.nhigh, 1);	/* the sample at 500 met 3 */
	cr_expect_eq(p.nlow, 1);	/* the one at 1000 met 0 */
	cr_expect_eq(p.nserial, 3);	/* at 100, 800 and 1000 */
	cr_expect_not(parallel_serial(&p));
	cr_expect_eq(p.v[1].count, 3);
	cr_expect_eq(p.v[4].count, 0);
	for (size_t i = 0; i < NPHASES; i++)
		cr_expect_eq(parallel_at(&p, i), at[i], "position %zu: %u", i, parallel_at(&p, i));
	/* by time: after every record at or before it */
	cr_expect_eq(parallel_at_time(&p, 50), 1);
	cr_expect_eq(parallel_at_time(&p, 200), 2);
	cr_expect_eq(parallel_at_time(&p, 450), 2);	/* 3, clamped */
	cr_expect_eq(parallel_at_time(&p, 650), 2);
	cr_expect_eq(parallel_at_time(&p, 700), 1);
	cr_expect_eq(parallel_at_time(&p, 950), 1);	/* 0, clamped */
	parallel_free(&p);
	session_close(s);
	pd_free(&b);
}

/* A hist of the phases recording keyed by keys, with its model; by latency if lat. */
static struct hist *
phases_hist(const char *keys, bool lat, const struct hist_filter *f, struct parallel *p,
    struct session **s, struct pdbuf *b)
{
	struct hist_opts o;
	const char *bad;
	size_t badlen;
	struct hist *h;
	int n;

	*s = build(phases, NPHASES, true, 2, b);
	parallel_build(*s, p);
	memset(&o, 0, sizeof o);
	n = hist_parse_keys(keys, o.keys, &bad, &badlen);
	cr_assert_gt(n, 0);
	o.nkeys = (unsigned)n;
	o.event = -1;
	o.parallel = p;
	o.by_latency = lat;
	o.filter = f;
	h = hist_new(*s, NULL, &o);
	/* the samples added to rows: the filter's (1) keeps 3 */
	cr_assert_eq(hist_add_session(h, NULL), f != NULL ? 3 : 6);
	hist_finish(h);
	return h;
}

static void
phases_free(struct hist *h, struct parallel *p, struct session *s, struct pdbuf *b)
{
	hist_free(h);
	parallel_free(p);
	session_close(s);
	pd_free(b);
}

Test(parallel, latency_per_thread_and_its_order)
{
	struct pdbuf b;
	struct session *s;
	struct parallel p;
	struct hist *h = phases_hist("pid", false, NULL, &p, &s, &b);
	const uint32_t *rows;
	const struct hist_entry *e;

	cr_assert_eq(hist_event(h, 0)->total_period, 12500);
	cr_assert_eq(hist_event(h, 0)->total_latency, 8500000);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 3);
	/* by overhead: 11 (6000, 48%), 10 (1000 + 1000 + 2000 + 1500 = 5500, 44%), 12 (1000, 8%) */
	e = hist_entry_get(h, rows[0]);
	cr_expect_eq(e->tid, 11);
	cr_expect_eq(e->latency, 3000000);
	cr_expect_float_eq(hist_self_pct(h, e), 48.0, 1e-9);
	cr_expect_float_eq(hist_self_lat_pct(h, e), 100.0 * 3 / 8.5, 1e-9);	/* 35.29% */
	e = hist_entry_get(h, rows[1]);
	cr_expect_eq(e->tid, 10);
	cr_expect_eq(e->period, 5500);
	cr_expect_eq(e->latency, 5000000);	/* 1M + 0.5M + 2M + 1.5M */
	cr_expect_float_eq(hist_self_lat_pct(h, e), 100.0 * 5 / 8.5, 1e-9);	/* 58.82% */
	e = hist_entry_get(h, rows[2]);
	cr_expect_eq(e->tid, 12);
	cr_expect_eq(e->latency, 500000);
	phases_free(h, &p, s, &b);

	/* by latency (perf's --latency): 10 (5M) before 11 (3M), then 12 */
	h = phases_hist("pid", true, NULL, &p, &s, &b);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 3);
	cr_expect_eq(hist_entry_get(h, rows[0])->tid, 10);
	cr_expect_eq(hist_entry_get(h, rows[1])->tid, 11);
	cr_expect_eq(hist_entry_get(h, rows[2])->tid, 12);
	/* the percent limit stays of the period, as perf 6.15's
	 * hist_entry__get_percent_limit: 12's 8% passes 6, not 9 (its latency is 5.88%) */
	cr_expect_eq(hist_rows(h, 0, 6.0, &rows), 3);
	cr_expect_eq(hist_rows(h, 0, 9.0, &rows), 2);
	phases_free(h, &p, s, &b);
}

/*
 * A mode's key values (here parallelism) live apart from the entry,
 * once per distinct set: entries of one value share its id, a table
 * without such keys has none.
 */
Test(parallel, key_values_kept_once_per_value)
{
	struct pdbuf b;
	struct session *s;
	struct parallel p;
	struct hist *h = phases_hist("pid,parallelism", false, NULL, &p, &s, &b);
	const uint32_t *rows;
	size_t n = hist_rows(h, 0, 0, &rows);

	cr_assert_geq(n, 2);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *x = hist_entry_get(h, rows[i]);

		cr_expect_neq(x->xkey, 0, "row %zu: parallelism is a value", i);
		for (size_t j = 0; j < n; j++) {
			const struct hist_entry *y = hist_entry_get(h, rows[j]);
			bool same = hist_entry_xkey(h, x)->parallelism ==
			    hist_entry_xkey(h, y)->parallelism;

			cr_expect_eq(x->xkey == y->xkey, same, "rows %zu and %zu", i, j);
		}
	}
	phases_free(h, &p, s, &b);
	h = phases_hist("pid", false, NULL, &p, &s, &b);
	n = hist_rows(h, 0, 0, &rows);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(hist_entry_get(h, rows[i])->xkey, 0);
	phases_free(h, &p, s, &b);
}

Test(parallel, rows_per_parallelism)
{
	struct pdbuf b;
	struct session *s;
	struct parallel p;
	struct hist *h = phases_hist("parallelism", false, NULL, &p, &s, &b);
	const uint32_t *rows;
	const struct hist_entry *e;
	char buf[32];

	/*
	 * parallelism 1: the samples at 100, 800, 1000: period 1000 + 2000 +
	 * 1500 = 4500 (36%), latency 1M + 2M + 1.5M = 4.5M (52.94%);
	 * parallelism 2: those at 300, 310, 500: 1000 + 6000 + 1000 = 8000
	 * (64%), latency 0.5M + 3M + 0.5M = 4M (47.06%).
	 */
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 2);
	e = hist_entry_get(h, rows[0]);
	cr_expect_str_eq(hist_key_text(h, e, HIST_KEY_PARALLELISM, buf, sizeof buf), "2");
	cr_expect_eq(e->period, 8000);
	cr_expect_eq(e->samples, 3);
	cr_expect_eq(e->latency, 4000000);
	e = hist_entry_get(h, rows[1]);
	cr_expect_str_eq(hist_key_text(h, e, HIST_KEY_PARALLELISM, buf, sizeof buf), "1");
	cr_expect_eq(e->period, 4500);
	cr_expect_float_eq(hist_self_pct(h, e), 36.0, 1e-9);
	cr_expect_float_eq(hist_self_lat_pct(h, e), 100.0 * 4.5 / 8.5, 1e-9);
	phases_free(h, &p, s, &b);

	h = phases_hist("parallelism", true, NULL, &p, &s, &b);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 2);
	cr_expect_eq(hist_entry_xkey(h, hist_entry_get(h, rows[0]))->parallelism, 1);
	phases_free(h, &p, s, &b);
}

Test(parallel, filter_keeps_levels_in_rows_only)
{
	struct pdbuf b;
	struct session *s;
	struct parallel p;
	struct hist_filter f;
	struct hist *h;
	const uint32_t *rows;
	const struct hist_entry *e;

	memset(&f, 0, sizeof f);
	cr_assert_eq(filter_parse_parallelism(&f, "1"), 0);
	h = phases_hist("pid", true, &f, &p, &s, &b);
	/* the serial phases only: thread 10's samples at 100, 800, 1000 (its one at 300 ran
	 * beside 11); the totals stay the whole recording's, as perf's --comms */
	cr_assert_eq(hist_event(h, 0)->total_period, 12500);
	cr_assert_eq(hist_event(h, 0)->total_latency, 8500000);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 1);
	e = hist_entry_get(h, rows[0]);
	cr_expect_eq(e->tid, 10);
	cr_expect_eq(e->samples, 3);
	cr_expect_eq(e->period, 4500);
	cr_expect_eq(e->latency, 4500000);
	phases_free(h, &p, s, &b);
	filter_free(&f);
}

Test(parallel, hostile_switches_are_clamped_and_counted)
{
	/* five switch-outs of threads never seen: -4; a sample; ten switch-ins
	 * (one thread twice): 6 on 2 cpus; a sample */
	struct ev evs[18];
	size_t n = 0;
	struct pdbuf b;
	struct session *s;
	struct parallel p;

	for (int i = 0; i < 5; i++)
		evs[n++] = (struct ev){ SW_OUT, 100 + (uint64_t)i, 50 + i, 0 };
	evs[n++] = (struct ev){ SMP, 200, 10, 100 };
	for (int i = 0; i < 10; i++)
		evs[n++] = (struct ev){ SW_IN, 300 + (uint64_t)i, i == 9 ? 60 : 60 + i, 0 };
	evs[n++] = (struct ev){ SMP, 400, 10, 100 };
	s = build(evs, n, true, 2, &b);
	parallel_build(s, &p);
	cr_expect_eq(p.nout, 5);
	cr_expect_eq(p.nin, 10);
	cr_expect_eq(p.nlow, 1);
	cr_expect_eq(p.nhigh, 1);
	cr_expect_eq(parallel_at(&p, 5), 1);	/* -4 */
	cr_expect_eq(parallel_at(&p, n - 1), 2);	/* 6 */
	cr_expect_eq(p.v[p.n - 1].count, 6);
	parallel_free(&p);
	session_close(s);
	pd_free(&b);
}

Test(parallel, serial_recording)
{
	/* 99 samples alone and one beside another thread: 99%, perf leaves Latency out; 98 of 99 not */
	struct ev evs[103];
	size_t n = 0;
	struct pdbuf b;
	struct session *s;
	struct parallel p;

	for (int i = 0; i < 99; i++)
		evs[n++] = (struct ev){ SMP, 100 + (uint64_t)i, 10, 1000 };
	evs[n++] = (struct ev){ SW_IN, 300, 11, 0 };
	evs[n++] = (struct ev){ SMP, 310, 10, 1000 };
	s = build(evs, n, true, 2, &b);
	parallel_build(s, &p);
	cr_expect_eq(p.nsamples, 100);
	cr_expect_eq(p.nserial, 99);
	cr_expect(parallel_serial(&p));
	parallel_free(&p);
	session_close(s);
	pd_free(&b);
	evs[98] = (struct ev){ SW_IN, 197, 12, 0 };	/* the 99th sample's place: 98 alone */
	s = build(evs, n, true, 2, &b);
	parallel_build(s, &p);
	cr_expect_eq(p.nserial, 98);
	cr_expect_not(parallel_serial(&p));
	parallel_free(&p);
	session_close(s);
	pd_free(&b);
}

Test(parallel, without_nrcpus_or_switch_events)
{
	struct pdbuf b;
	struct session *s = build(phases, NPHASES, false, 0, &b);
	struct parallel p;

	/* no context_switch attr: perf refuses latency (parallel_recorded is its test) */
	cr_expect_not(parallel_recorded(s));
	/* no NRCPUS: perfnav's clamp is perf's MAX_NR_CPUS, so 3 stays 3 */
	parallel_build(s, &p);
	cr_expect_eq(p.max, PARALLEL_MAX);
	cr_expect_eq(parallel_at(&p, 5), 3);
	cr_expect_eq(p.nhigh, 0);
	parallel_free(&p);
	session_close(s);
	pd_free(&b);
}

Test(parallel, latency_arithmetic)
{
	cr_expect_eq(parallel_latency(3, 2), 1500);
	cr_expect_eq(parallel_latency(1, 3), 333);	/* rounded down, as perf's integer division */
	cr_expect_eq(parallel_latency(10, 0), 10000);	/* level 0 counts as 1 */
	cr_expect_eq(parallel_latency(UINT64_MAX, 1), UINT64_MAX);	/* saturated */
	cr_expect_eq(parallel_latency(UINT64_MAX / 1000, 4096),
	    (UINT64_MAX / 1000) / 4096 * 1000 + (UINT64_MAX / 1000) % 4096 * 1000 / 4096);
}

Test(parallel, levels_list_syntax)
{
	struct hist_filter f;

	memset(&f, 0, sizeof f);
	cr_assert_eq(filter_parse_parallelism(&f, "1,64-128"), 0);
	cr_expect(filter_par_ok(&f, 1));
	cr_expect_not(filter_par_ok(&f, 2));
	cr_expect(filter_par_ok(&f, 64));
	cr_expect(filter_par_ok(&f, 128));
	cr_expect_not(filter_par_ok(&f, 129));
	cr_expect(filter_par_ok(&f, 0));	/* unknown: in */
	cr_expect(filter_active(&f));
	cr_assert_eq(filter_parse_parallelism(&f, "4096"), 0);
	cr_expect(filter_par_ok(&f, 4096));
	cr_expect_not(filter_par_ok(&f, 1));
	cr_expect_eq(filter_parse_parallelism(&f, "0"), -1);	/* perf: level 0 is invalid */
	cr_expect_eq(filter_parse_parallelism(&f, "4097"), -1);
	cr_expect_eq(filter_parse_parallelism(&f, "2-1"), -1);
	cr_expect_eq(filter_parse_parallelism(&f, ""), -1);
	cr_expect_eq(filter_parse_parallelism(&f, "1,,2"), -1);
	cr_expect_eq(filter_parse_parallelism(&f, "x"), -1);
	cr_expect(filter_par_ok(&f, 4096));	/* unchanged by the bad lists */
	{
		struct hist_filter g;

		filter_copy(&g, &f);
		cr_expect(filter_equal(&f, &g));
		cr_assert_eq(filter_parse_parallelism(&g, "1"), 0);
		cr_expect_not(filter_equal(&f, &g));
		filter_free(&g);
	}
	filter_free(&f);
}

Test(parallel, children_latency)
{
	/*
	 * Two samples through hist_add, leaf first: main -> a (period 400,
	 * parallelism 4: latency 100,000) and main -> b (period 100,
	 * parallelism 1: latency 100,000).  Children: main 500 / 200,000,
	 * a 400 / 100,000, b 100 / 100,000.
	 */
	struct hist *h = hh_new("sym", true, false);
	struct frame ma = hh_frame(0, 1, 0x1100), a = hh_frame(0, 2, 0x1200), bf = hh_frame(0, 3, 0x1300);
	struct frame c1[2] = { a, ma }, c2[2] = { bf, ma };
	struct hist_sample s1 = { .attr = 0, .event_name = "cpu-clock", .comm = "x", .pid = 1,
		.tid = 1, .period = 400, .parallelism = 4, .self = &c1[0], .chain = c1, .nchain = 2 };
	struct hist_sample s2 = s1;
	const struct hist_entry *e;

	s2.period = 100;
	s2.parallelism = 1;
	s2.self = &c2[0];
	s2.chain = c2;
	hist_add(h, &s1);
	hist_add(h, &s2);
	hist_finish(h);
	cr_assert_eq(hist_event(h, 0)->total_latency, 200000);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_not_null(e);
	cr_expect_eq(e->acc_latency, 200000);
	cr_expect_eq(e->latency, 0);
	cr_expect_float_eq(hist_children_lat_pct(h, e), 100.0, 1e-9);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s2");
	cr_expect_eq(e->latency, 100000);
	cr_expect_eq(e->acc_latency, 100000);
	cr_expect_float_eq(hist_self_lat_pct(h, e), 50.0, 1e-9);
	cr_expect_float_eq(hist_self_pct(h, e), 80.0, 1e-9);
	hist_free(h);
}

Test(parallel, perf_made_switch_events)
{
	/* switch.data: perf record --switch-events of a program whose two
	 * threads run together, then one alone, on a machine of 2 cpus */
	struct perf_err err;
	struct session *s = session_open(test_data("switch.data"), NULL, &err);
	struct parallel p;
	uint64_t n1 = 0, n2 = 0;
	const struct rec_index *ix;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(parallel_recorded(s));
	parallel_build(s, &p);
	ix = session_index(s);
	cr_expect_eq(p.max, 2);
	cr_expect_gt(p.nin, 0);
	cr_expect_gt(p.nout, 0);
	cr_expect_eq(p.nbad, 0);
	for (size_t i = 0; i < ix->n; i++) {
		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE)
			continue;
		if (parallel_at(&p, i) == 1)
			n1++;
		else if (parallel_at(&p, i) == 2)
			n2++;
	}
	/* every sample has 1 or 2, and both phases are there (top --sort parallelism: 78 and 150) */
	cr_expect_eq(n1 + n2, p.nsamples);
	cr_expect_eq(n1, 78);
	cr_expect_eq(n2, 150);
	parallel_free(&p);
	session_close(s);
}

Test(parallel, split_in_two_gives_one_pass)
{
	/* cut the phases recording at every position, each part a hist of its
	 * own (as top's second core): merged, the rows' latencies are one pass's */
	struct pdbuf b;
	struct session *s;
	struct parallel p;
	struct hist *one = phases_hist("parallelism,pid", true, NULL, &p, &s, &b);
	const uint32_t *rows1;
	size_t n1 = hist_rows(one, 0, 0, &rows1);
	const struct hist_opts *o = hist_opts(one);

	for (size_t cut = 1; cut < NPHASES; cut++) {
		struct hist *a = hist_new(s, NULL, o), *c = hist_new(s, NULL, o);
		const uint32_t *rows;

		hist_add_range(a, 0, cut, NULL);
		hist_add_range(c, cut, NPHASES, NULL);
		cr_assert_eq(hist_merge(a, c), 0, "cut %zu", cut);
		hist_free(c);
		hist_finish(a);
		cr_assert_eq(hist_event(a, 0)->total_latency, 8500000, "cut %zu", cut);
		cr_assert_eq(hist_rows(a, 0, 0, &rows), n1, "cut %zu", cut);
		for (size_t i = 0; i < n1; i++) {
			const struct hist_entry *x = hist_entry_get(a, rows[i]);
			const struct hist_entry *y = hist_entry_get(one, rows1[i]);

			cr_expect(x->tid == y->tid &&
			    hist_entry_xkey(a, x)->parallelism == hist_entry_xkey(one, y)->parallelism &&
			    x->latency == y->latency && x->period == y->period, "cut %zu row %zu", cut, i);
		}
		hist_free(a);
	}
	phases_free(one, &p, s, &b);
}

/* ---- hist_rescope with latency: a recount equals a pass with the filter ---- */

/* The browser's hist (tui/symbols.c hist_opts_of) with the model p and filter f, resolved. */
static struct hist *
browser_hist(struct session *s, struct symbolizer *z, const struct parallel *p,
    const struct hist_filter *f)
{
	struct hist_opts o;
	struct hist *h;

	memset(&o, 0, sizeof o);
	o.keys[0] = HIST_KEY_COMM;
	o.keys[1] = HIST_KEY_TID;
	o.keys[2] = HIST_KEY_DSO;
	o.keys[3] = HIST_KEY_SYM;
	o.nkeys = 4;
	o.children = attr_table_has_callchains(session_attrs(s));
	o.chain_root_first = o.children;
	o.paths = true;
	o.record_self = true;
	o.event = -1;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	o.parallel = p;
	o.filter = f;
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every event's totals and rows (keys, counts, latencies) as sorted lines; their number. */
static size_t
lat_lines(struct hist *h, char ***out)
{
	unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_DSO) |
	    HIST_KEEP(HIST_KEY_SYM);
	char **v = NULL, line[1024], k[4][200];
	size_t n = 0;

	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const struct hist_event *he = hist_event(h, ev);
		const struct hist_entry *const *rows;
		size_t nr;

		if (he->nsamples == 0)
			continue;	/* kept by hist_rescope, absent from a pass */
		nr = hist_rows_merged(h, ev, NULL, keep, 0, &rows);
		v = realloc(v, (n + nr + 1) * sizeof *v);
		snprintf(line, sizeof line, "event %s %" PRIu64 " %" PRIu64 " lat %" PRIu64,
		    hist_str(h, he->name), he->nsamples, he->total_period, he->total_latency);
		v[n++] = strdup(line);
		for (size_t i = 0; i < nr; i++) {
			const struct hist_entry *e = rows[i];

			snprintf(line, sizeof line, "row %zu %s|%s|%s|%s %" PRIu64 " %" PRIu64 " %" PRIu64
			    " %" PRIu64 " lat %" PRIu64 " %" PRIu64, ev,
			    hist_key_text(h, e, HIST_KEY_COMM, k[0], 200),
			    hist_key_text(h, e, HIST_KEY_TID, k[1], 200),
			    hist_key_text(h, e, HIST_KEY_DSO, k[2], 200),
			    hist_key_text(h, e, HIST_KEY_SYM, k[3], 200), e->samples, e->period,
			    e->acc_samples, e->acc_period, e->latency, e->acc_latency);
			v[n++] = strdup(line);
		}
	}
	qsort(v, n, sizeof *v, cmp_line);
	*out = v;
	return n;
}

/* h recounted for f (0) has the lines of a fresh pass with f; their number. */
static size_t
expect_recount(struct hist *h, struct session *s, struct symbolizer *z, const struct parallel *p,
    const struct hist_filter *f, const char *what)
{
	struct hist *fresh = browser_hist(s, z, p, f);
	char **a, **b;
	size_t na, nb;

	cr_assert_eq(hist_rescope(h, f), 0, "%s: recounted", what);
	na = lat_lines(h, &a);
	nb = lat_lines(fresh, &b);
	for (size_t i = 0; i < na && i < nb; i++)
		cr_expect_str_eq(a[i], b[i], "%s: line %zu", what, i);
	cr_expect_eq(na, nb, "%s: %zu lines vs %zu", what, na, nb);
	for (size_t i = 0; i < na; i++)
		free(a[i]);
	for (size_t i = 0; i < nb; i++)
		free(b[i]);
	free(a);
	free(b);
	hist_free(fresh);
	return na;
}

/*
 * Recounts of s's browser hist for a time range (lat_time, if not 0: its
 * total latency), a thread, a level and everything again.
 */
static void
recounts(struct session *s, uint64_t t0, uint64_t t1, uint64_t lat_time, const char *tid,
    const char *name)
{
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct symbolizer *z = symbolizer_new(s, &so);
	struct parallel p;
	struct hist *h;
	struct hist_filter f;
	char what[128];

	parallel_build(s, &p);
	h = browser_hist(s, z, &p, NULL);
	cr_assert(hist_scope_known(h), "%s: a hist with latency can be recounted", name);
	memset(&f, 0, sizeof f);
	f.time = calloc(1, sizeof *f.time);
	f.time[0].start = t0;
	f.time[0].end = t1;
	f.ntime = 1;
	snprintf(what, sizeof what, "%s: time", name);
	cr_expect_gt(expect_recount(h, s, z, &p, &f, what), 1);
	if (lat_time)
		cr_expect_eq(hist_event(h, 0)->total_latency, lat_time, "%s", what);
	filter_free(&f);
	cr_assert_eq(filter_parse_tids(&f, tid), 0);
	snprintf(what, sizeof what, "%s: thread", name);
	expect_recount(h, s, z, &p, &f, what);
	filter_free(&f);
	cr_assert_eq(filter_parse_parallelism(&f, "1"), 0);
	snprintf(what, sizeof what, "%s: parallelism 1", name);
	expect_recount(h, s, z, &p, &f, what);
	filter_free(&f);
	snprintf(what, sizeof what, "%s: everything", name);
	expect_recount(h, s, z, &p, NULL, what);
	hist_free(h);
	parallel_free(&p);
	symbolizer_free(z);
}

Test(parallel, rescope_recounts_latency)
{
	struct pdbuf b;
	struct session *s = build(phases, NPHASES, true, 2, &b);
	struct perf_err err;

	/* the phases: 300..600 holds the samples at 300, 310 and 500 (parallelism 2):
	 * latency 0.5M + 3M + 0.5M */
	recounts(s, 300, 600, 4000000, "11", "phases");
	session_close(s);
	pd_free(&b);
	s = session_open(test_data("switch.data"), NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	{
		const struct rec_index *ix = session_index(s);
		uint64_t t0 = UINT64_MAX, t1 = 0;
		int32_t tid = -1;
		char buf[32];

		for (size_t i = 0; i < ix->n; i++) {
			const struct rec_ent *e = index_ent(ix, i);

			if (ent_type(e) != PF_REC_SAMPLE)
				continue;
			t0 = e->time < t0 ? e->time : t0;
			t1 = e->time > t1 ? e->time : t1;
			if (tid < 0)
				tid = session_ent_who(s, i).tid;
		}
		snprintf(buf, sizeof buf, "%" PRId32, tid);
		recounts(s, t0 + (t1 - t0) / 3, t0 + 2 * (t1 - t0) / 3, 0, buf, "switch.data");
	}
	session_close(s);
}

Test(parallel, timeline_columns_by_parallelism)
{
	struct pdbuf b;
	struct session *s = build(phases, NPHASES, true, 2, &b);
	struct parallel p;
	uint32_t out[10], lo, hi;
	/* 100 ns columns from 100: 1 until 200, 2 (3 clamped) until 700, then 1 (0 clamped) */
	static const uint32_t by100[10] = { 1, 2, 2, 2, 2, 2, 1, 1, 1, 1 };

	parallel_build(s, &p);
	timeline_par_buckets(&p, 100, 1100, 10, out);
	for (size_t k = 0; k < 10; k++)
		cr_expect_eq(out[k], by100[k], "column %zu: %u", k, out[k]);
	/*
	 * 250 ns columns: [100, 350) 100 ns of 1 and 150 of 2, 1.6: 2;
	 * [350, 600) 2; [600, 850) 100 of 2 and 150 of 1, 1.4: 1; [850, 1100) 1
	 */
	timeline_par_buckets(&p, 100, 1100, 4, out);
	cr_expect_eq(out[0], 2);
	cr_expect_eq(out[1], 2);
	cr_expect_eq(out[2], 1);
	cr_expect_eq(out[3], 1);
	/* the colours: levels themselves up to 4 cpus, quarters of the cpus above */
	cr_expect_eq(timeline_par_bin(1, 2), 0);
	cr_expect_eq(timeline_par_bin(2, 2), 1);
	cr_expect_not(timeline_par_range(2, 2, &lo, &hi));
	cr_expect_eq(timeline_par_bin(2, 16), 0);
	cr_expect_eq(timeline_par_bin(5, 16), 1);
	cr_expect_eq(timeline_par_bin(16, 16), 3);
	cr_assert(timeline_par_range(3, 16, &lo, &hi));
	cr_expect(lo == 13 && hi == 16, "%u-%u", lo, hi);
	cr_assert(timeline_par_range(0, 16, &lo, &hi));
	cr_expect(lo == 1 && hi == 4, "%u-%u", lo, hi);
	parallel_free(&p);
	session_close(s);
	pd_free(&b);
}
