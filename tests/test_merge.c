/*
 * Criterion tests of core/merge.c and core/origin.c (perfnav merge) and
 * of the sort key file: byte-built recordings merged and loaded again
 * (events paired by name, ids united, each input's records and origin),
 * inputs refused (another sample format under one name, clashing ids,
 * byte orders), the origins section decoded from hostile bytes, and two
 * perf-made fixtures merged: the merge's rows are the sum of the inputs'
 * and its file rows each input's totals.  tests/merge-check.sh compares
 * perf report on a merged file with perf report on its inputs.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "tests/helpers.h"

#define ST_IP		(1u << 0)
#define ST_TID		(1u << 1)
#define ST_TIME		(1u << 2)
#define ST_PERIOD	(1u << 8)
#define ATTRS_OFF	120	/* synth_head_with's attr: after the header and two ids */

/* merge_write of the n sessions into memory: the bytes (malloc'd), or NULL with err. */
static uint8_t *
merge_mem(struct session **s, const char **names, size_t n, struct merge_result *res,
    size_t *len, struct perf_err *err)
{
	struct merge_input in[8];
	int fd = memfd_create("merge", 0);
	uint8_t *p = NULL;

	cr_assert_geq(fd, 0);
	for (size_t i = 0; i < n; i++) {
		in[i].s = s[i];
		in[i].name = names[i];
	}
	if (merge_write(in, n, fd, res, err) == 0) {
		*len = (size_t)lseek(fd, 0, SEEK_END);
		cr_assert_eq(*len, res->size);
		p = malloc(*len);
		cr_assert_eq(pread(fd, p, *len, 0), (ssize_t)*len);
	}
	close(fd);
	return p;
}

/* Samples of a session by walking it. */
static int
count_sample(void *arg, const struct rec *r, int depth)
{
	(void)depth;
	*(size_t *)arg += r->type == PF_REC_SAMPLE;
	return 0;
}

static size_t
nsamples(const struct session *s)
{
	size_t n = 0;

	session_walk(s, count_sample, &n);
	return n;
}

/* Two byte-built inputs merged in memory, the merge opened (two_merged, two_free). */
struct two {
	struct pdbuf		 a, b;
	struct session		*in[2], *m;
	struct merge_result	 res;
	uint8_t			*p;	/* the merged file's bytes */
	size_t			 len;
};

/* Inputs of na and nb samples, named names[0] and names[1], merged. */
static void
two_merged(struct two *t, int na, int nb, const char *names[2])
{
	struct perf_err err;

	synth_file(&t->a, false, na);
	synth_file(&t->b, false, nb);
	t->in[0] = session_of_buf("a", t->a.p, t->a.len);
	t->in[1] = session_of_buf("b", t->b.p, t->b.len);
	t->p = merge_mem(t->in, names, 2, &t->res, &t->len, &err);
	cr_assert_not_null(t->p, "merge_write: %s", err.msg);
	t->m = session_of_buf("merged", t->p, t->len);
}

static void
two_free(struct two *t)
{
	session_close(t->m);
	free(t->p);
	for (int i = 0; i < 2; i++)
		session_close(t->in[i]);
	pd_free(&t->a);
	pd_free(&t->b);
}

Test(merge, byte_built_inputs_pair_by_name_and_keep_their_origin)
{
	const char *names[2] = { "run-a.data", "run-b.data" };
	struct two t;
	struct session *m;
	struct perf_err err;
	struct origins org;
	const struct attr_table *at;

	two_merged(&t, 6, 10, names);
	m = t.m;
	cr_assert_eq(t.res.samples, 16);
	cr_assert_eq(t.res.nattrs, 1);
	cr_assert_not(session_info(m).damaged, "the merged file loads clean");
	at = session_attrs(m);
	cr_assert_eq(at->n, 1, "cpu-clock of both inputs is one event");
	cr_assert_eq(at->v[0].nids, 2, "ids 100 and 101 once");
	cr_assert_eq(nsamples(m), 16);
	cr_assert_str_eq(session_attr_name(m, 0), session_attr_name(t.in[0], 0), "EVENT_DESC names it");
	cr_assert_eq(origins_load(m, &org, &err), 0, "%s", err.msg);
	cr_assert_eq(org.n, 2);
	cr_assert_str_eq(org.v[0].name, "run-a.data");
	cr_assert_str_eq(org.v[1].name, "run-b.data");
	cr_assert_eq(org.v[0].end, org.v[1].start, "input after input");
	cr_assert_eq(org.v[0].start, session_info(m).data_sec.offset);
	cr_assert_eq(org.v[1].end, session_info(m).data_sec.offset + session_info(m).data_sec.size);
	origins_free(&org);
	two_free(&t);
}

/* The sort key file: each input's samples on a row of their own, named after it. */
Test(merge, file_key_rows_are_each_inputs_samples)
{
	const char *names[2] = { "one.data", "two.data" };
	struct two t;
	struct hist_opts o;
	struct hist *h;
	const uint32_t *rows;
	const char *bad;
	size_t badlen, n;
	char buf[256];
	uint64_t got[2] = { 0, 0 };

	two_merged(&t, 4, 12, names);
	memset(&o, 0, sizeof o);
	o.event = -1;
	cr_assert_eq(hist_parse_keys("file", o.keys, &bad, &badlen), 1);
	o.nkeys = 1;
	h = hist_new(t.m, NULL, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	cr_assert_eq(hist_nfiles(h), 2);
	n = hist_rows(h, 0, 0, &rows);
	cr_assert_eq(n, 2);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		hist_key_text(h, e, HIST_KEY_FILE, buf, sizeof buf);
		got[strcmp(buf, "two.data") == 0] = e->samples;
		cr_assert(strcmp(buf, "one.data") == 0 || strcmp(buf, "two.data") == 0, "%s", buf);
	}
	cr_assert_eq(got[0], 4);
	cr_assert_eq(got[1], 12);
	hist_free(h);
	/* not merged: one row, the recording's own name */
	h = hist_new(t.in[0], NULL, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 1);
	cr_assert_str_eq(hist_key_text(h, hist_entry_get(h, rows[0]), HIST_KEY_FILE, buf, sizeof buf),
	    "a");
	hist_free(h);
	two_free(&t);
}

/* Two inputs merge_write refuses, and the input its message must name. */
static void
expect_refused(struct pdbuf *a, struct pdbuf *b, const char *want)
{
	struct session *in[2];
	const char *names[2] = { "first.data", "second.data" };
	struct merge_result res;
	struct perf_err err;
	size_t len;

	in[0] = session_of_buf("a", a->p, a->len);
	in[1] = session_of_buf("b", b->p, b->len);
	memset(&err, 0, sizeof err);
	cr_assert_null(merge_mem(in, names, 2, &res, &len, &err));
	cr_assert(strstr(err.msg, "second.data") != NULL, "names the input: %s", err.msg);
	cr_assert(strstr(err.msg, want) != NULL, "says %s: %s", want, err.msg);
	session_close(in[0]);
	session_close(in[1]);
}

Test(merge, refuses_another_sample_format_under_one_name)
{
	struct pdbuf a, b;

	synth_file(&a, false, 4);
	synth_file(&b, false, 4);
	/* the second's cpu-clock without PERIOD */
	pd_put64(&b, ATTRS_OFF + 24, rd64(b.p + ATTRS_OFF + 24, false) & ~(uint64_t)ST_PERIOD);
	expect_refused(&a, &b, "sample_type");
	pd_free(&a);
	pd_free(&b);
}

Test(merge, refuses_ids_of_two_events)
{
	struct pdbuf a, b;

	synth_file(&a, false, 4);
	synth_file(&b, false, 4);
	pd_put64(&b, ATTRS_OFF + 8, 1);	/* task-clock, with ids 100 and 101 as cpu-clock's */
	expect_refused(&a, &b, "sample id 100");
	pd_free(&a);
	pd_free(&b);
}

Test(merge, refuses_another_byte_order)
{
	struct pdbuf a, b;

	synth_file(&a, false, 4);
	synth_file(&b, true, 4);
	expect_refused(&a, &b, "byte order");
	pd_free(&a);
	pd_free(&b);
}

/* ---- the origins section, hostile ---- */

static void
org_entry(struct pdbuf *b, uint64_t start, uint64_t end, const char *name)
{
	size_t n = strlen(name) + 1, len = (n + 7) / 8 * 8;

	pd_u64(b, start);
	pd_u64(b, end);
	pd_u64(b, len);
	pd_bytes(b, name, n);
	pd_zero(b, len - n);
}

static void
expect_bad(const struct pdbuf *b, const char *want, uint64_t off)
{
	struct origins o;
	struct perf_err err;

	memset(&err, 0, sizeof err);
	cr_assert_eq(origins_decode(b->p, b->len, false, 0x1000, &o, &err), -1, "refused: %s", want);
	cr_assert_eq(o.n, 0);
	cr_assert(strstr(err.msg, want) != NULL, "%s in: %s", want, err.msg);
	cr_assert_eq(err.offset, 0x1000 + off, "%s: offset 0x%llx", err.msg,
	    (unsigned long long)err.offset);
}

Test(origins, decodes_and_refuses_what_is_wrong)
{
	struct pdbuf b = { 0 };
	struct origins o;
	struct perf_err err;

	pd_u64(&b, 2);
	org_entry(&b, 100, 200, "a.data");
	org_entry(&b, 200, 300, "host b/perf.data");
	cr_assert_eq(origins_decode(b.p, b.len, false, 0, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(o.n, 2);
	cr_assert_str_eq(o.v[1].name, "host b/perf.data");
	cr_assert_eq(origins_find(&o, 99), 2, "before the first: none");
	cr_assert_eq(origins_find(&o, 100), 0);
	cr_assert_eq(origins_find(&o, 250), 1);
	cr_assert_eq(origins_find(&o, 300), 2);
	origins_free(&o);
	/* cut short: the second entry's name */
	b.len -= 8;
	expect_bad(&b, "length", 8 + 32 + 16);
	/* a count larger than the bytes hold */
	pd_free(&b);
	pd_u64(&b, 1000);
	org_entry(&b, 0, 1, "x");
	expect_bad(&b, "1000 inputs", 0);
	/* ranges out of order */
	pd_free(&b);
	pd_u64(&b, 2);
	org_entry(&b, 100, 200, "a");
	org_entry(&b, 150, 300, "b");
	expect_bad(&b, "out of order", 8 + 32);
	/* a name with no NUL */
	pd_free(&b);
	pd_u64(&b, 1);
	pd_u64(&b, 0);
	pd_u64(&b, 8);
	pd_u64(&b, 8);
	pd_bytes(&b, "abcdefgh", 8);
	expect_bad(&b, "no NUL", 8 + 24);
	/* bytes after the last entry */
	pd_free(&b);
	pd_u64(&b, 1);
	org_entry(&b, 0, 8, "a");
	pd_u64(&b, 0);
	pd_u64(&b, 0);
	pd_u64(&b, 0);
	pd_u64(&b, 0);
	expect_bad(&b, "after the last", 8 + 32);
	pd_free(&b);
}

/* A merged file whose origins section is damaged: one origin saying so, the samples kept. */
Test(origins, a_damaged_section_is_said_in_the_one_origin)
{
	const char *names[2] = { "a.data", "b.data" };
	struct two t;
	struct perf_err err;
	struct origins org;
	const struct feat_sec *fs;

	two_merged(&t, 4, 4, names);
	fs = &session_features(t.m)->sec[PF_FEAT_PERFNAV_ORIGINS];
	cr_assert(fs->present);
	memset(t.p + fs->offset, 0xff, 8);	/* its count */
	session_close(t.m);
	t.m = session_of_buf("merged", t.p, t.len);
	cr_assert_eq(origins_load(t.m, &org, &err), -1);
	cr_assert_eq(org.n, 1);
	cr_assert(strstr(org.v[0].name, "merged (origins section") != NULL, "%s", org.v[0].name);
	cr_assert_eq(nsamples(t.m), 8);
	origins_free(&org);
	two_free(&t);
}

/* ---- perf-made inputs ---- */

/* Samples per (comm, dso) of a hist of s (two keys, no symbolizer needed). */
static struct hist *
hist_of(struct session *s, const char *keys)
{
	struct hist_opts o;
	struct hist *h;
	const char *bad;
	size_t badlen;
	int n;

	memset(&o, 0, sizeof o);
	o.event = -1;
	n = hist_parse_keys(keys, o.keys, &bad, &badlen);
	cr_assert_gt(n, 0);
	o.nkeys = (unsigned)n;
	h = hist_new(s, NULL, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

static uint64_t
total_samples(const struct hist *h)
{
	uint64_t n = 0;

	for (size_t ev = 0; ev < hist_nevents(h); ev++)
		n += hist_event(h, ev)->nsamples;
	return n;
}

Test(merge, perf_fixtures_merged_sum_their_rows)
{
	const char *fx[2] = { test_data("diff-a.data"), test_data("fp.data") };
	struct session *in[2], *m;
	struct merge_result res;
	struct perf_err err;
	struct hist *hi[2], *hm;
	const uint32_t *rows;
	size_t len, n;
	uint8_t *p;
	char buf[512];

	for (int i = 0; i < 2; i++) {
		in[i] = session_of_path(fx[i]);
		hi[i] = hist_of(in[i], "comm,pid");
	}
	p = merge_mem(in, fx, 2, &res, &len, &err);
	cr_assert_not_null(p, "%s", err.msg);
	m = session_of_buf("merged", p, len);
	hm = hist_of(m, "comm,pid");
	cr_assert_eq(total_samples(hm), total_samples(hi[0]) + total_samples(hi[1]));
	cr_assert_eq(hist_nevents(hm), 1, "cpu-clock of both");
	/* each (comm, pid) row of the merge is the sum of the inputs' rows */
	n = hist_rows(hm, 0, 0, &rows);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(hm, rows[i]);
		uint64_t want = 0;

		hist_key_text(hm, e, HIST_KEY_COMM, buf, sizeof buf);
		for (int k = 0; k < 2; k++) {
			const uint32_t *r2;
			size_t n2 = hist_rows(hi[k], 0, 0, &r2);

			for (size_t j = 0; j < n2; j++) {
				const struct hist_entry *f = hist_entry_get(hi[k], r2[j]);
				char b2[512];

				if (f->pid == e->pid &&
				    strcmp(hist_key_text(hi[k], f, HIST_KEY_COMM, b2, sizeof b2), buf) == 0)
					want += f->samples;
			}
		}
		cr_assert_eq(e->samples, want, "%s %d: %llu samples, the inputs %llu", buf, e->pid,
		    (unsigned long long)e->samples, (unsigned long long)want);
	}
	hist_free(hm);
	/* file rows: each input's totals */
	hm = hist_of(m, "file");
	n = hist_rows(hm, 0, 0, &rows);
	cr_assert_eq(n, 2);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(hm, rows[i]);
		int k = strcmp(hist_key_text(hm, e, HIST_KEY_FILE, buf, sizeof buf), fx[1]) == 0;

		cr_assert_str_eq(buf, fx[k]);
		cr_assert_eq(e->samples, total_samples(hi[k]), "%s", buf);
		cr_assert_eq(e->period, hist_event(hi[k], 0)->total_period, "%s", buf);
	}
	hist_free(hm);
	session_close(m);
	free(p);
	for (int i = 0; i < 2; i++) {
		hist_free(hi[i]);
		session_close(in[i]);
	}
}

/* Every other sample, as met. */
static bool
keep_odd(void *arg, const struct rec *r)
{
	int *n = arg;

	(void)r;
	return (*n)++ % 2 == 1;
}

/* Carving a merged file keeps each input's origin, at the records' new places. */
Test(merge, carving_a_merged_file_keeps_its_origins)
{
	struct pdbuf a, b;
	struct session *in[2], *m, *c;
	const char *names[2] = { "a.data", "b.data" };
	struct merge_result res;
	struct carve_result cres;
	struct perf_err err;
	struct hist *h;
	const uint32_t *rows;
	int fd = memfd_create("carve", 0), k = 0;
	size_t len, clen, n;
	uint8_t *p, *cp;
	char buf[64];

	synth_file(&a, false, 4);
	synth_file(&b, false, 8);
	in[0] = session_of_buf("a", a.p, a.len);
	in[1] = session_of_buf("b", b.p, b.len);
	p = merge_mem(in, names, 2, &res, &len, &err);
	cr_assert_not_null(p, "%s", err.msg);
	m = session_of_buf("merged", p, len);
	cr_assert_eq(carve_write(m, fd, NULL, keep_odd, &k, &cres, &err), 0, "%s", err.msg);
	clen = (size_t)cres.size;
	cp = malloc(clen);
	cr_assert_eq(pread(fd, cp, clen, 0), (ssize_t)clen);
	close(fd);
	c = session_of_buf("carved", cp, clen);
	h = hist_of(c, "file");
	n = hist_rows(h, 0, 0, &rows);
	cr_assert_eq(n, 2, "both inputs have samples kept");
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		hist_key_text(h, e, HIST_KEY_FILE, buf, sizeof buf);
		cr_assert_eq(e->samples, strcmp(buf, "b.data") == 0 ? 4 : 2, "%s: %llu", buf,
		    (unsigned long long)e->samples);
	}
	hist_free(h);
	session_close(c);
	free(cp);
	session_close(m);
	free(p);
	session_close(in[0]);
	session_close(in[1]);
	pd_free(&a);
	pd_free(&b);
}
