/*
 * Tests of symbolize/filter.c (perf's --time, --cpu, --pid, --tid, --comms,
 * --dsos, --symbols), of tui/cmd/filter_opts.c, and of the fixes the
 * conformance time check led to.
 */

#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tui/cmd/filter_opts.h"

#define S(x) ((uint64_t)(x)*UINT64_C(1000000000))

static void
want_ranges(const struct hist_filter *f, size_t n, const uint64_t *se)
{
	cr_assert_eq(f->ntime, n);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(f->time[i].start, se[2 * i], "range %zu start %llu, want %llu", i,
		    (unsigned long long)f->time[i].start, (unsigned long long)se[2 * i]);
		cr_expect_eq(f->time[i].end, se[2 * i + 1], "range %zu end %llu, want %llu", i,
		    (unsigned long long)f->time[i].end, (unsigned long long)se[2 * i + 1]);
	}
}

Test(filter, absolute_ranges)
{
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_time(&f, "12.5,13", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ S(12) + 500000000, S(13) });
	cr_assert_eq(filter_parse_time(&f, "418.001992,418.021513", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ S(418) + 1992000, S(418) + 21513000 });
	cr_assert_eq(filter_parse_time(&f, "1.123456789,", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ S(1) + 123456789, 0 });
	cr_assert_eq(filter_parse_time(&f, ",7", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ 0, S(7) });
	cr_assert_eq(filter_parse_time(&f, ",", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ 0, 0 });
	/* several: perf's space-separated form, and pairs of a comma list */
	cr_assert_eq(filter_parse_time(&f, "1,2 3,4", 0, 0), 0);
	want_ranges(&f, 2, (uint64_t[]){ S(1), S(2), S(3), S(4) });
	cr_assert_eq(filter_parse_time(&f, "1,2,3,4,5,", 0, 0), 0);
	want_ranges(&f, 3, (uint64_t[]){ S(1), S(2), S(3), S(4), S(5), 0 });
	filter_free(&f);
	cr_expect_eq(f.ntime, 0);
}

Test(filter, bad_absolute)
{
	static const char *const bad[] = {
		"", "5", "x,1", "1,x", "2,1", "1.1234567891,2", "1,2,3", "1,2 3", "1,3 2,4",
		"1,2 2,3", "1,2,", "-1,2", "1.2.3,4", " ", "1,2 ,",
	};
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_time(&f, "1,2", 0, 0), 0);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_eq(filter_parse_time(&f, bad[i], 0, 0), -1, "'%s' accepted", bad[i]);
		/* a refused value leaves what was there */
		want_ranges(&f, 1, (uint64_t[]){ S(1), S(2) });
	}
	filter_free(&f);
}

/* Percents over [1000, 2000], as perf's set_percent_time rounds and trims them. */
Test(filter, percents)
{
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_time(&f, "10%/2", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1100, 1199 });
	cr_assert_eq(filter_parse_time(&f, "10%/2,10%/3", 1000, 2000), 0);
	want_ranges(&f, 2, (uint64_t[]){ 1100, 1199, 1200, 1299 });
	cr_assert_eq(filter_parse_time(&f, "0%-10%,30%-40%", 1000, 2000), 0);
	want_ranges(&f, 2, (uint64_t[]){ 1000, 1099, 1300, 1399 });
	cr_assert_eq(filter_parse_time(&f, "25%", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1000, 1249 });
	/* a range up to the last sample keeps it */
	cr_assert_eq(filter_parse_time(&f, "50%-100%", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1500, 2000 });
	cr_assert_eq(filter_parse_time(&f, "50%/2", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1500, 2000 });
	/* rounding: a third of 1000 */
	cr_assert_eq(filter_parse_time(&f, "33.3333%/2", 0, 1000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 333, 666 });
	filter_free(&f);
}

Test(filter, bad_percents)
{
	static const char *const bad[] = {
		"150%", "0%", "10%/0", "10%/x", "10%/", "0%/1", "10%/2,0%-10%", "10%-20", "10-20%",
		"10%,20%", "%", "x%", "10%x", "50%-150%", "10%/11", "-10%/1", "10%-",
	};
	struct hist_filter f = { 0 };

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_expect_eq(filter_parse_time(&f, bad[i], 1000, 2000), -1, "'%s' accepted", bad[i]);
	cr_expect_eq(f.ntime, 0);
	filter_free(&f);
}

Test(filter, time_matching)
{
	struct hist_filter f = { 0 };

	cr_expect(filter_time_ok(&f, 5), "no ranges: everything");
	cr_expect(filter_time_ok(NULL, 5));
	cr_assert_eq(filter_parse_time(&f, "1,2", 0, 0), 0);
	cr_expect(!filter_time_ok(&f, S(1) - 1));
	cr_expect(filter_time_ok(&f, S(1)));
	cr_expect(filter_time_ok(&f, S(2)));
	cr_expect(!filter_time_ok(&f, S(2) + 1));
	cr_expect(filter_time_ok(&f, 0), "a sample without a time is in");
	cr_assert_eq(filter_parse_time(&f, "1,", 0, 0), 0);
	cr_expect(filter_time_ok(&f, S(1000)));
	cr_expect(!filter_time_ok(&f, S(1) - 1));
	cr_assert_eq(filter_parse_time(&f, "1,2 3,", 0, 0), 0);
	cr_expect(filter_time_ok(&f, S(1)));
	cr_expect(!filter_time_ok(&f, S(2) + 1));
	cr_expect(filter_time_ok(&f, S(3)));
	cr_expect(filter_time_ok(&f, S(99)));
	cr_expect(filter_sample_ok(&f, S(3), true, 7));
	cr_expect(!filter_sample_ok(&f, S(2) + 5, true, 7));
	filter_free(&f);
}

Test(filter, cpus)
{
	static const char *const bad[] = { "", "a", "1,", ",1", "2-1", "1-", "-1", "70000", "1 2", "1-x" };
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_cpus(&f, "0-2,4"), 0);
	cr_assert_eq(f.ncpus, 4);
	cr_expect(f.cpus[0] == 0 && f.cpus[1] == 1 && f.cpus[2] == 2 && f.cpus[3] == 4);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_expect_eq(filter_parse_cpus(&f, bad[i]), -1, "'%s' accepted", bad[i]);
	cr_expect_eq(f.ncpus, 4);
	cr_expect(filter_sample_ok(&f, 0, true, 4));
	cr_expect(!filter_sample_ok(&f, 0, true, 3));
	cr_expect(!filter_sample_ok(&f, 0, false, 0), "a sample without a cpu is out");
	cr_expect(filter_entry_ok(&f, 1, 1, "x"), "cpus do not touch rows");
	filter_free(&f);
}

Test(filter, ids_and_comms)
{
	static const char *const bad_ids[] = { "", "x", "1,,2", "-3", "1,", "1-2", "99999999999" };
	static const char *const bad_comms[] = { "", "a,,b", ",a", "a," };
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_pids(&f, "10,20"), 0);
	cr_assert_eq(f.npids, 2);
	for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
		cr_expect_eq(filter_parse_pids(&f, bad_ids[i]), -1, "pids '%s' accepted", bad_ids[i]);
		cr_expect_eq(filter_parse_tids(&f, bad_ids[i]), -1, "tids '%s' accepted", bad_ids[i]);
	}
	for (size_t i = 0; i < sizeof bad_comms / sizeof *bad_comms; i++)
		cr_expect_eq(filter_parse_comms(&f, bad_comms[i]), -1, "comms '%s' accepted",
		    bad_comms[i]);
	cr_expect(filter_entry_ok(&f, 10, 11, NULL));
	cr_expect(filter_entry_ok(&f, 20, 21, "a"));
	cr_expect(!filter_entry_ok(&f, 30, 10, "a"));
	cr_assert_eq(filter_parse_tids(&f, "11"), 0);
	cr_expect(filter_entry_ok(&f, 10, 11, NULL));
	cr_expect(!filter_entry_ok(&f, 10, 12, NULL));
	cr_assert_eq(filter_parse_comms(&f, "cpu,perf-exec"), 0);
	cr_assert_eq(f.ncomms, 2);
	cr_expect(filter_entry_ok(&f, 10, 11, "perf-exec"));
	cr_expect(!filter_entry_ok(&f, 10, 11, "perf"));
	cr_expect(!filter_entry_ok(&f, 10, 11, NULL));
	cr_expect(filter_sample_ok(&f, 5, true, 0), "ids and comms do not drop samples");
	filter_free(&f);
}

/* --dsos and --symbols: names (short or long DSO names), hex entries as sample addresses. */
Test(filter, dsos_and_symbols)
{
	struct hist_filter f = { 0 }, g = { 0 };

	cr_expect_eq(filter_parse_dsos(&f, "a,,b"), -1);
	cr_expect_eq(filter_parse_symbols(&f, ","), -1);
	cr_assert_eq(filter_parse_dsos(&f, "libc.so.6,/usr/bin/x"), 0);
	cr_assert_eq(f.ndsos, 2);
	cr_expect_str_eq(f.dsos[1], "/usr/bin/x");
	cr_expect(filter_active(&f) && filter_has_frame(&f));
	/* perf's rule: an entry that reads whole as hex is an address, "fade" too */
	cr_assert_eq(filter_parse_symbols(&f, "main,0x55d518bcb1cb,fade,mix_one,1x,beef "), 0);
	cr_assert_eq(f.nsyms, 3);
	cr_expect_str_eq(f.syms[0], "main");
	cr_expect_str_eq(f.syms[1], "mix_one");
	cr_expect_str_eq(f.syms[2], "1x");
	cr_assert_eq(f.nsym_ips, 3);
	cr_expect_eq(f.sym_ips[0], UINT64_C(0x55d518bcb1cb));
	cr_expect_eq(f.sym_ips[1], 0xfade);
	cr_expect_eq(f.sym_ips[2], 0xbeef);
	cr_expect(!filter_equal(&f, &g));
	cr_assert_eq(filter_parse_dsos(&g, "libc.so.6,/usr/bin/x"), 0);
	cr_assert_eq(filter_parse_symbols(&g, "main,0x55d518bcb1cb,fade,mix_one,1x,beef "), 0);
	cr_expect(filter_equal(&f, &g));
	cr_assert_eq(filter_parse_symbols(&g, "main,0x55d518bcb1cc,fade,mix_one,1x,beef "), 0);
	cr_expect(!filter_equal(&f, &g));
	cr_expect(filter_sample_ok(&f, 5, true, 0), "DSOs and symbols do not drop samples");
	cr_expect(filter_frame_ok(NULL, NULL, NULL));
	filter_free(&f);
	filter_free(&g);
	cr_expect(!filter_has_frame(&f));
}

Test(filter, equal_and_active)
{
	struct hist_filter a = { 0 }, b = { 0 };

	cr_expect(!filter_active(&a));
	cr_expect(!filter_active(NULL));
	cr_expect(filter_equal(&a, NULL));
	cr_assert_eq(filter_parse_time(&a, "1,2", 0, 0), 0);
	cr_expect(filter_active(&a));
	cr_expect(!filter_equal(&a, NULL));
	cr_expect(!filter_equal(&a, &b));
	cr_assert_eq(filter_parse_time(&b, "1,2", 0, 0), 0);
	cr_expect(filter_equal(&a, &b));
	cr_assert_eq(filter_parse_comms(&a, "x"), 0);
	cr_assert_eq(filter_parse_comms(&b, "y"), 0);
	cr_expect(!filter_equal(&a, &b));
	cr_assert_eq(filter_parse_comms(&b, "x"), 0);
	cr_expect(filter_equal(&a, &b));
	filter_free(&a);
	filter_free(&b);
}

/* ---- the filter in a hist over a fixture (hist_add_range, hist_merge) ---- */

static struct hist *
fp_hist(struct session *s, const struct hist_filter *f)
{
	struct hist_opts o;
	struct hist *h;

	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	o.filter = f;
	h = hist_new(s, NULL, &o);
	return h;
}

static uint64_t
row_samples(struct hist *h)
{
	const uint32_t *rows;
	uint64_t sum = 0;
	size_t n = hist_nevents(h) ? hist_rows(h, 0, 0, &rows) : 0;

	for (size_t i = 0; i < n; i++)
		sum += hist_entry_get(h, rows[i])->samples;
	return sum;
}

Test(filter, hist_time_and_tid)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	struct hist_filter f = { 0 };
	const struct rec_index *ix;
	uint64_t lo, hi, inside = 0, all = 0;
	struct hist *h;

	cr_assert_not_null(s, "%s", err.msg);
	ix = session_index(s);
	/* the middle third of the samples' times */
	for (size_t i = 0; i < ix->n; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE)
			all++;
	lo = hi = 0;
	for (size_t i = 0, k = 0; i < ix->n; i++) {
		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE)
			continue;
		if (k == all / 3)
			lo = index_ent(ix, i)->time;
		if (k == 2 * all / 3)
			hi = index_ent(ix, i)->time;
		k++;
	}
	for (size_t i = 0; i < ix->n; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE && index_ent(ix, i)->time >= lo &&
		    index_ent(ix, i)->time <= hi)
			inside++;
	f.time = calloc(1, sizeof *f.time);
	f.time[0].start = lo;
	f.time[0].end = hi;
	f.ntime = 1;
	h = fp_hist(s, &f);
	cr_expect_eq(hist_add_session(h, NULL), inside);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 1);
	cr_expect_eq(hist_event(h, 0)->nsamples, inside, "totals are of the span");
	cr_expect_eq(row_samples(h), inside);
	cr_expect(inside > 0 && inside < all);
	hist_free(h);
	filter_free(&f);

	/* a tid that has no sample: no rows, the whole recording in the totals */
	cr_assert_eq(filter_parse_tids(&f, "1"), 0);
	h = fp_hist(s, &f);
	hist_add_session(h, NULL);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 1);
	cr_expect_eq(hist_event(h, 0)->nsamples, all);
	cr_expect_eq(row_samples(h), 0);
	hist_free(h);
	filter_free(&f);
	session_close(s);
}

Test(filter, hist_merge_same_filter)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	struct hist_filter f = { 0 }, g = { 0 };
	struct hist *one, *a, *b, *c;
	size_t mid;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(filter_parse_time(&f, "30%-70%", session_features(s)->sample_time_first,
	    session_features(s)->sample_time_last), 0);
	cr_assert_eq(filter_parse_time(&g, "30%-60%", session_features(s)->sample_time_first,
	    session_features(s)->sample_time_last), 0);
	one = fp_hist(s, &f);
	hist_add_session(one, NULL);
	hist_finish(one);
	cr_assert(hist_split_point(s, hist_opts(one), &mid));
	a = fp_hist(s, &f);
	b = fp_hist(s, &f);
	c = fp_hist(s, &g);
	hist_add_range(a, 0, mid, NULL);
	hist_add_range(b, mid, session_index(s)->n, NULL);
	cr_expect_eq(hist_merge(a, c), -1, "another filter: refused");
	cr_assert_eq(hist_merge(a, b), 0);
	hist_finish(a);
	cr_expect_eq(hist_event(a, 0)->nsamples, hist_event(one, 0)->nsamples);
	cr_expect_eq(hist_event(a, 0)->total_period, hist_event(one, 0)->total_period);
	cr_expect_eq(row_samples(a), row_samples(one));
	cr_expect(row_samples(one) > 0);
	hist_free(one);
	hist_free(a);
	hist_free(b);
	hist_free(c);
	filter_free(&f);
	filter_free(&g);
	session_close(s);
}

/*
 * synth_file() (times 1000 + 10*i, EXIT at 1000 + 10*nsamples) with the
 * records of r spliced in after its data, before the feature sections
 * (their offsets moved).
 */
static void
synth_plus(struct pdbuf *out, int nsamples, const struct pdbuf *r)
{
	struct pdbuf b;
	size_t ft;

	synth_file(&b, false, nsamples);
	ft = synth_layout.feat_table;
	memset(out, 0, sizeof *out);
	pd_bytes(out, b.p, ft);
	pd_bytes(out, r->p, r->len);
	pd_bytes(out, b.p + ft, b.len - ft);
	pd_put64(out, 48, ft + r->len - synth_layout.data_off);
	for (int i = 0; i < 2; i++) {	/* the two feature sections' offsets */
		uint64_t off;

		memcpy(&off, b.p + ft + 16 * (size_t)i, sizeof off);
		pd_put64(out, ft + r->len + 16 * (size_t)i, off + r->len);
	}
	pd_free(&b);
}

/* A sample of synth_file()'s attr (IP, TID, TIME, ID, CPU, PERIOD). */
static void
synth_sample(struct pdbuf *r, uint16_t misc, uint32_t pid, uint64_t ip, uint64_t time)
{
	size_t at = pd_rec_begin(r, 9 /* SAMPLE */, misc);

	pd_u64(r, ip);
	pd_u32(r, pid);
	pd_u32(r, pid);
	pd_u64(r, time);
	pd_u64(r, 100);		/* ID */
	pd_u32(r, 0);		/* CPU */
	pd_u32(r, 0);
	pd_u64(r, 4000);	/* PERIOD */
	pd_rec_end(r, at);
}

/*
 * A sample after its thread's EXIT keeps the thread's comm (perf keeps a
 * dead thread until a FORK reuses its tid): --comms of that comm counts it.
 */
Test(filter, comm_of_a_sample_after_exit)
{
	struct pdbuf b, r = { 0 };
	struct perf_err err;
	struct session *s;
	struct hist_filter f = { 0 };
	const struct thread_table *t;
	char *path;
	struct hist *h;

	synth_sample(&r, 2 /* USER */, 42, 0x400100, 1085);	/* EXIT at 1080 */
	synth_plus(&b, 8, &r);
	path = tmp_write("afterexit", b.p, b.len);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 9);
	t = session_threads(s);
	cr_expect_eq(t->n, 1, "no second lifetime of tid 42");
	cr_expect_str_eq(thread_comm_at(t, thread_table_find(t, 42, 1085), 1085), "synth");
	cr_assert_eq(filter_parse_comms(&f, "synth"), 0);
	h = fp_hist(s, &f);
	hist_add_session(h, NULL);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 1);
	cr_expect_eq(hist_event(h, 0)->nsamples, 9);
	cr_expect_eq(row_samples(h), 9, "the sample after EXIT is synth's");
	hist_free(h);
	filter_free(&f);
	session_close(s);
	unlink(path);
	free(path);
	pd_free(&b);
	pd_free(&r);
}

/*
 * An address of a kernel module with no symbol for it is module-relative,
 * as perf keys and prints it ("[k] 0x0000000000001234"); the kernel's own
 * stay absolute.
 */
Test(filter, unresolved_module_address_is_module_relative)
{
	static const uint64_t mod = UINT64_C(0xffffffffc0000000);
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct pdbuf b, r = { 0 };
	struct perf_err err;
	struct session *s;
	struct symbolizer *z;
	struct frame fr;
	char *path, buf[128];
	size_t at;

	at = pd_rec_begin(&r, 1 /* MMAP */, 1 /* KERNEL */);
	pd_u32(&r, UINT32_MAX);	/* pid -1 */
	pd_u32(&r, 0);
	pd_u64(&r, mod);
	pd_u64(&r, 0x10000);
	pd_u64(&r, 0);
	pd_str8(&r, "/lib/modules/6.1.0/kernel/net/foo-bar.ko");
	pd_u32(&r, UINT32_MAX);	/* sample_id_all: pid, tid, time, id, cpu */
	pd_u32(&r, 0);
	pd_u64(&r, 500);
	pd_u64(&r, 100);
	pd_u64(&r, 0);
	pd_rec_end(&r, at);
	synth_plus(&b, 4, &r);
	path = tmp_write("module", b.p, b.len);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	z = symbolizer_new(s, &so);
	symbolizer_resolve(z, 42, 42, 1005, PERF_RECORD_MISC_KERNEL, mod + 0x1234, &fr);
	cr_assert_neq(fr.dso, DSO_NONE);
	cr_expect_eq(fr.sym, SYM_NONE);
	cr_expect_eq(fr.ip, mod + 0x1234);
	cr_expect_eq(fr.rel, 0x1234);
	cr_expect_str_eq(symbolizer_sym_label(z, &fr, buf, sizeof buf), "[k] 0x0000000000001234");
	symbolizer_resolve(z, 42, 42, 1005, PERF_RECORD_MISC_KERNEL, UINT64_C(0xffffffff81001234),
	    &fr);
	cr_expect_str_eq(symbolizer_sym_label(z, &fr, buf, sizeof buf), "[k] 0xffffffff81001234");
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
	pd_free(&b);
	pd_free(&r);
}

/*
 * tui/cmd/filter_opts.h, the options' shared parser (top, script, ..., the
 * TUI's start): values, messages returned (nothing printed), setup against
 * a recording.
 */
Test(filter, shared_options)
{
	struct filter_opts fo = { 0 };
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	char msg[FILTER_OPTS_MSG];
	uint64_t first, last;

	cr_assert_not_null(s, "%s", err.msg);
	cr_expect(filter_opt_is(FILTER_OPT_SYMBOLS) && !filter_opt_is(FILTER_OPT_END));
	cr_expect_null(filter_opts_filter(&fo));
	cr_assert_eq(filter_opts_take(&fo, FILTER_OPT_TIME, "10%/2", msg, sizeof msg), 0);
	cr_assert_eq(filter_opts_take(&fo, FILTER_OPT_DSOS, "cpu", msg, sizeof msg), 0);
	cr_expect_eq(filter_opts_take(&fo, FILTER_OPT_COMMS, "a,,b", msg, sizeof msg), -1);
	cr_expect_str_eq(msg, "bad value 'a,,b' for --comms (comma-separated command names)");
	cr_expect_eq(filter_opts_take(&fo, FILTER_OPT_TIME, "1,2,3", msg, sizeof msg), -1);
	cr_expect_eq(strncmp(msg, "bad value '1,2,3' for --time", 28), 0, "%s", msg);
	cr_expect_str_eq(fo.time, "10%/2", "a bad value keeps the earlier one");
	cr_expect_eq(fo.f.ntime, 0, "--time is placed at setup");
	cr_assert_eq(filter_opts_setup(&fo, s, "fp.data", msg, sizeof msg), 0, "%s", msg);
	cr_assert(filter_sample_span(s, &first, &last));
	cr_assert_eq(fo.f.ntime, 1);
	cr_expect_eq(fo.f.time[0].start, first + (uint64_t)((double)(last - first) * 0.1 + 0.5));
	cr_expect_eq(filter_opts_filter(&fo), &fo.f);
	/* fp.data's event does not record the cpu */
	cr_assert_eq(filter_opts_take(&fo, FILTER_OPT_CPU, "0", msg, sizeof msg), 0);
	cr_expect_eq(filter_opts_setup(&fo, s, "fp.data", msg, sizeof msg), -1);
	cr_expect_str_eq(msg, "fp.data: no event records its cpu: --cpu cannot choose");
	filter_opts_free(&fo);
	cr_expect_null(filter_opts_filter(&fo));
	session_close(s);
}

/*
 * --symbols by address asks for the sample's own address: that of another
 * process whose frame is the same (the walk caches frames less their ip:
 * fork.data's parent and exec'd child map forkexec at other addresses)
 * counts for nothing.
 */
Test(filter, symbol_address_of_one_process)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fork.data"), NULL, &err);
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct hist_filter f = { 0 };
	const struct rec_index *ix;
	struct symbolizer *z;
	struct frame seen[512];
	size_t nseen = 0;
	uint64_t want = 0, kept = 0, all = 0;
	char bdir[4096], arg[32];
	struct hist_opts o;
	struct hist *h;

	cr_assert_not_null(s, "%s", err.msg);
	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	so.buildid_dir = bdir;
	z = symbolizer_new(s, &so);
	ix = session_index(s);
	/* a resolved sample address whose frame (DSO, address in it) an earlier
	 * sample of another address had, and how many samples are at it */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ix->n; i++) {
			struct rec r;
			struct sample smp;
			struct frame fr;
			size_t k;

			if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE ||
			    session_rec(s, ent_loc(index_ent(ix, i)), &r) != 0 ||
			    record_decode_sample(session_attrs(s), &r, &smp, NULL) < 0)
				continue;
			if (pass == 1) {
				all++;
				kept += smp.ip == want;
				continue;
			}
			symbolizer_resolve(z, (int32_t)smp.pid, (int32_t)smp.tid, smp.time,
			    r.misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &fr);
			if (fr.sym == SYM_NONE || want != 0)
				continue;
			k = 0;
			while (k < nseen && (seen[k].dso != fr.dso || seen[k].rel != fr.rel))
				k++;
			if (k < nseen && seen[k].ip != fr.ip)
				want = fr.ip;
			else if (k == nseen && nseen < sizeof seen / sizeof *seen)
				seen[nseen++] = fr;
		}
		cr_assert_neq(want, 0, "fork.data: one frame at two addresses");
	}
	cr_assert_gt(kept, 0);
	snprintf(arg, sizeof arg, "%#" PRIx64, want);
	cr_assert_eq(filter_parse_symbols(&f, arg), 0);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.keys[0] = HIST_KEY_SYM;
	o.nkeys = 1;
	o.filter = &f;
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 1);
	cr_expect_eq(hist_event(h, 0)->nsamples, all, "the others in the totals");
	cr_expect_eq(row_samples(h), kept, "the samples at %s", arg);
	hist_free(h);
	filter_free(&f);
	symbolizer_free(z);
	session_close(s);
}

/*
 * --files: names placed on a recording's inputs (by the name the key file
 * prints, or its last component), then a record's location in or out;
 * an unknown name refused; copied and compared with the rest.
 */
Test(filter, files_placed_on_origins)
{
	struct origin v[3] = {
		{ 0x100, 0x200, (char *)"runs/a.data" },
		{ 0x200, 0x300, (char *)"runs/b.data" },
		{ 0x300, 0x400, (char *)"/tmp/c.data" },
	};
	struct origins o = { v, 3 };
	struct hist_filter f = { 0 }, g;
	const char *bad = NULL;

	cr_assert_eq(filter_parse_files(&f, "b.data,/tmp/c.data"), 0);
	cr_assert(filter_active(&f));
	cr_assert_eq(filter_place_files(&f, &o, &bad), 0);
	cr_assert_eq(f.nflocs, 2);
	cr_expect_not(filter_loc_ok(&f, 0x1ff), "a.data's");
	cr_expect(filter_loc_ok(&f, 0x200));
	cr_expect(filter_loc_ok(&f, 0x3ff));
	cr_expect_not(filter_loc_ok(&f, 0x400), "past the last input");
	cr_expect(filter_loc_ok(NULL, 0x1ff), "no filter: every record");
	filter_copy(&g, &f);
	cr_expect(filter_equal(&f, &g));
	filter_free(&g);
	cr_assert_eq(filter_parse_files(&f, "runs/a.data"), 0);
	cr_expect_eq(f.nflocs, 0, "a new list: not placed yet");
	cr_assert_eq(filter_place_files(&f, &o, &bad), 0);
	cr_expect(filter_loc_ok(&f, 0x1ff) && !filter_loc_ok(&f, 0x200));
	cr_assert_eq(filter_parse_files(&f, "a.data,nosuch.data"), 0);
	cr_expect_eq(filter_place_files(&f, &o, &bad), -1);
	cr_expect_str_eq(bad, "nosuch.data");
	cr_expect_eq(filter_parse_files(&f, "a.data,,b.data"), -1, "an empty name");
	filter_free(&f);
}
