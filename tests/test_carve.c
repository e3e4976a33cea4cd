/*
 * Criterion tests of core/carve.c: a smaller perf.data written from a
 * session and loaded again.  Byte-built recordings in either byte order
 * (file mode, pipe mode with ATTR and FEATURE records, samples inside
 * COMPRESSED records), a big-endian copy of a perf-made fixture, the
 * perf-made directory, pipe and zstd fixtures; -z output; a descriptor
 * that cannot seek.  tests/carve-check.sh compares what perfnav and perf
 * report of the carved fixtures.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "core/core.h"
#include "tests/helpers.h"
#include "tests/swap.h"

#define ST_IP		(1u << 0)
#define ST_TID		(1u << 1)
#define ST_TIME		(1u << 2)
#define ST_PERIOD	(1u << 8)

/* The carved bytes of s (keep, arg; o may be NULL) in memory: a file read back. */
static uint8_t *
carve_mem(const struct session *s, const struct carve_opts *o, carve_keep_fn keep, void *arg,
    struct carve_result *res, size_t *len)
{
	int fd = memfd_create("carve", 0);
	struct perf_err err;
	uint8_t *p;

	cr_assert_geq(fd, 0);
	cr_assert_eq(carve_write(s, fd, o, keep, arg, res, &err), 0, "carve_write: %s", err.msg);
	*len = (size_t)lseek(fd, 0, SEEK_END);
	cr_assert_eq(*len, res->size);
	p = malloc(*len);
	cr_assert_eq(pread(fd, p, *len, 0), (ssize_t)*len);
	close(fd);
	return p;
}

/* The sample records of a session in file order, concatenated. */
struct samples {
	struct pdbuf	 b;
	size_t		 n;
	uint64_t	 types[256];	/* records per type (255: larger) */
};

static int
collect(void *arg, const struct rec *r, int depth)
{
	struct samples *sm = arg;

	(void)depth;
	sm->types[r->type < 255 ? r->type : 255]++;
	if (r->type == PF_REC_SAMPLE) {
		pd_bytes(&sm->b, r->p, r->size);
		sm->n++;
	}
	return 0;
}

static void
samples_of(const struct session *s, struct samples *sm)
{
	memset(sm, 0, sizeof *sm);
	sm->b.swap = session_info(s).swap;	/* the records' byte order, for odd_samples */
	session_walk(s, collect, sm);
}

/* Every other sample, as met. */
static bool
keep_odd(void *arg, const struct rec *r)
{
	int *n = arg;

	(void)r;
	return (*n)++ % 2 == 1;
}

/* The samples of time >= *(uint64_t *)arg (their TIME is the third u64). */
static bool
keep_from(void *arg, const struct rec *r)
{
	return rd64(r->p + 8 + 16, r->swap) >= *(const uint64_t *)arg;
}

/* Every other sample as keep_odd chooses them, in file order. */
static void
odd_samples(const struct samples *all, struct pdbuf *out)
{
	size_t off = 0;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < all->n; i++) {
		uint16_t size = rd16(all->b.p + off + 6, all->b.swap);

		if (i % 2 == 1)
			pd_bytes(out, all->b.p + off, size);
		off += size;
	}
}

static void
same_attrs(const struct session *a, const struct session *b)
{
	const struct attr_table *x = session_attrs(a), *y = session_attrs(b);

	cr_assert_eq(x->n, y->n);
	for (size_t i = 0; i < x->n; i++) {
		cr_expect_eq(memcmp(&x->v[i].attr, &y->v[i].attr, sizeof x->v[i].attr), 0, "attr %zu", i);
		cr_expect_eq(x->v[i].nids, y->v[i].nids, "attr %zu ids", i);
		for (size_t k = 0; k < x->v[i].nids && k < y->v[i].nids; k++)
			cr_expect_eq(x->v[i].ids[k], y->v[i].ids[k]);
		cr_expect_str_eq(session_attr_name(a, (int)i), session_attr_name(b, (int)i));
	}
}

Test(carve, file_mode_both_byte_orders)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf in = { 0 }, want;
		struct samples all, got;
		struct carve_result res;
		struct session *s, *t;
		size_t len;
		uint8_t *out;
		int n = 0;

		synth_file(&in, swap, 12);
		s = session_of_buf("synth", in.p, in.len);
		samples_of(s, &all);
		out = carve_mem(s, NULL, keep_odd, &n, &res, &len);
		cr_expect_eq(res.samples, 12);
		cr_expect_eq(res.kept, 6);
		t = session_of_buf("carved", out, len);
		cr_expect_eq(session_info(t).swap, (bool)swap, "written in the input's byte order");
		cr_expect_eq(session_info(t).mode, SESSION_FILE);
		cr_expect_not(session_info(t).damaged);
		cr_expect_eq(session_diags(t)->n, 0);
		same_attrs(s, t);
		samples_of(t, &got);
		odd_samples(&all, &want);
		cr_assert_eq(got.n, 6);
		cr_expect_eq(got.b.len, want.len);
		cr_expect_eq(memcmp(got.b.p, want.p, want.len), 0, "the kept samples, byte for byte");
		/* the rest kept: COMM, MMAP2, the rounds, EXIT */
		cr_expect_eq(got.types[PF_REC_COMM], 1);
		cr_expect_eq(got.types[PF_REC_MMAP2], 1);
		cr_expect_eq(got.types[PF_REC_EXIT], 1);
		cr_expect_eq(got.types[PF_REC_FINISHED_ROUND], all.types[PF_REC_FINISHED_ROUND]);
		cr_expect_str_eq(session_features(t)->hostname, session_features(s)->hostname);
		cr_expect_str_eq(session_features(t)->osrelease, session_features(s)->osrelease);
		session_close(t);
		session_close(s);
		free(out);
		pd_free(&want);
		pd_free(&all.b);
		pd_free(&got.b);
		pd_free(&in);
	}
}

/* A pipe: header, ATTR (ids 100, 101), FEATURE HOSTNAME, COMM, samples, the end marker. */
static void
pipe_build(struct pdbuf *b, bool swap, int nsamples, bool compressed)
{
	struct pdbuf inner = { .swap = swap }, *d = compressed ? &inner : b;
	size_t r;

	memset(b, 0, sizeof *b);
	b->swap = swap;
	pd_u64(b, 0x32454c4946524550ULL);
	pd_u64(b, 16);
	r = pd_rec_begin(b, PF_REC_ATTR, 0);
	pd_attr(b, 128, 1 /* SOFTWARE */, 0, 4000, ST_IP | ST_TID | ST_TIME | ST_PERIOD, 0, 0);
	pd_u64(b, 100);
	pd_u64(b, 101);
	pd_rec_end(b, r);
	r = pd_rec_begin(b, PF_REC_FEATURE, 0);
	pd_u64(b, PF_FEAT_HOSTNAME);
	pd_feat_str(b, "pipehost");
	pd_rec_end(b, r);
	r = pd_rec_begin(b, PF_REC_COMM, 0);
	pd_u32(b, 7);
	pd_u32(b, 7);
	pd_str8(b, "piped");
	pd_rec_end(b, r);
	for (int i = 0; i < nsamples; i++) {
		r = pd_rec_begin(d, PF_REC_SAMPLE, 2 /* USER */);
		pd_u64(d, 0x401000 + 16 * (uint64_t)i);
		pd_u32(d, 7);
		pd_u32(d, 7);
		pd_u64(d, 1000 + 10 * (uint64_t)i);
		pd_u64(d, 4000);
		pd_rec_end(d, r);
	}
	if (compressed) {
		size_t zcap = ZSTD_compressBound(inner.len), zn;
		uint8_t *z = malloc(zcap);

		zn = ZSTD_compress(z, zcap, inner.p, inner.len, 3);
		cr_assert(!ZSTD_isError(zn));
		r = pd_rec_begin(b, PF_REC_COMPRESSED, 0);
		pd_bytes(b, z, zn);
		pd_rec_end(b, r);
		free(z);
		pd_free(&inner);
	}
	r = pd_rec_begin(b, PF_REC_FEATURE, 0);
	pd_u64(b, PF_FEAT_FIRST_END_MARKER);
	pd_rec_end(b, r);
}

Test(carve, pipe_and_compressed_inputs_both_byte_orders)
{
	for (int k = 0; k < 4; k++) {
		bool swap = k & 1, comp = k & 2;
		struct pdbuf in;
		struct samples all, got;
		struct carve_result res;
		struct session *s, *t;
		uint64_t from = 1050;
		size_t len;
		uint8_t *out;

		pipe_build(&in, swap, 10, comp);
		s = session_of_buf("pipe", in.p, in.len);
		cr_assert_eq(session_info(s).mode, SESSION_PIPE);
		samples_of(s, &all);
		cr_assert_eq(all.n, 10);
		out = carve_mem(s, NULL, keep_from, &from, &res, &len);
		cr_expect_eq(res.kept, 5, "swap %d compressed %d", swap, comp);
		t = session_of_buf("carved", out, len);
		cr_expect_eq(session_info(t).mode, SESSION_FILE);
		cr_expect_eq(session_info(t).swap, swap);
		cr_expect_not(session_info(t).damaged, "swap %d compressed %d", swap, comp);
		same_attrs(s, t);
		cr_expect_str_eq(session_features(t)->hostname, "pipehost");
		samples_of(t, &got);
		/* the last five samples, decompressed; ATTR and FEATURE records gone */
		cr_assert_eq(got.n, 5);
		cr_expect_eq(memcmp(got.b.p, all.b.p + all.b.len - got.b.len, got.b.len), 0);
		cr_expect_eq(got.types[PF_REC_ATTR], 0);
		cr_expect_eq(got.types[PF_REC_FEATURE], 0);
		cr_expect_eq(got.types[PF_REC_COMPRESSED], 0);
		cr_expect_eq(got.types[PF_REC_COMM], 1);
		session_close(t);
		session_close(s);
		free(out);
		pd_free(&all.b);
		pd_free(&got.b);
		pd_free(&in);
	}
}

Test(carve, compressed_output_reads_back_the_same)
{
	struct carve_opts zo = { .compress = true };
	struct carve_result plain_res, zres;
	struct samples a, b;
	struct session *s, *p, *z;
	size_t plen, zlen;
	uint8_t *pout, *zout;
	uint64_t from = 0;
	int n = 0;

	s = session_of_path(test_data("fp.data"));
	pout = carve_mem(s, NULL, keep_odd, &n, &plain_res, &plen);
	n = 0;
	zout = carve_mem(s, &zo, keep_odd, &n, &zres, &zlen);
	cr_expect_eq(zres.kept, plain_res.kept);
	cr_expect_lt(zlen, plen, "-z is smaller (%zu, %zu)", zlen, plen);
	p = session_of_buf("plain", pout, plen);
	z = session_of_buf("z", zout, zlen);
	cr_expect_not(session_info(z).damaged);
	samples_of(p, &a);
	samples_of(z, &b);
	cr_expect_gt(b.types[PF_REC_COMPRESSED], 0);
	cr_expect_eq(a.types[PF_REC_COMPRESSED], 0);
	cr_assert_eq(a.n, b.n);
	cr_expect_eq(memcmp(a.b.p, b.b.p, a.b.len), 0);
	cr_expect(session_features(z)->sec[PF_FEAT_COMPRESSED].present);
	cr_expect_eq(session_features(z)->comp.comp_type, 1);
	cr_expect_geq(session_features(z)->comp.comp_mmap_len, 65536);
	cr_expect_not(session_features(p)->sec[PF_FEAT_COMPRESSED].present);
	/* a predicate that takes everything: every sample of the original */
	free(pout);
	session_close(p);
	pout = carve_mem(s, NULL, keep_from, &from, &plain_res, &plen);
	cr_expect_eq(plain_res.kept, session_counts(s)->by_type[PF_REC_SAMPLE]);
	session_close(z);
	session_close(s);
	free(pout);
	free(zout);
	pd_free(&a.b);
	pd_free(&b.b);
}

/* A perf-made fixture in big-endian: carved big-endian, the same samples as its little-endian twin. */
Test(carve, big_endian_copy_of_a_fixture)
{
	size_t n, len1, len2;
	char *le = slurp(test_data("fp.data"), &n);
	struct pdbuf be = { 0 };
	struct carve_result r1, r2;
	struct session *s1, *s2, *t1, *t2;
	struct samples a, b;
	uint8_t *o1, *o2;
	uint64_t from;

	cr_assert_not_null(le);
	cr_assert_eq(swap_perf_file((const uint8_t *)le, n, &be), 0);
	s1 = session_of_buf("le", le, n);
	s2 = session_of_buf("be", be.p, be.len);
	cr_assert(session_info(s2).swap);
	from = index_ent(session_index(s1), session_index(s1)->n / 2)->time;
	o1 = carve_mem(s1, NULL, keep_from, &from, &r1, &len1);
	o2 = carve_mem(s2, NULL, keep_from, &from, &r2, &len2);
	cr_expect_gt(r1.kept, 0);
	cr_expect_lt(r1.kept, r1.samples);
	cr_expect_eq(r2.kept, r1.kept);
	t1 = session_of_buf("le-carved", o1, len1);
	t2 = session_of_buf("be-carved", o2, len2);
	cr_expect(session_info(t2).swap);
	cr_expect_not(session_info(t2).damaged);
	same_attrs(t1, t2);
	samples_of(t1, &a);
	samples_of(t2, &b);
	cr_expect_eq(a.n, r1.kept);
	cr_expect_eq(b.n, a.n);
	for (size_t i = 0; i < session_index(t1)->n && i < session_index(t2)->n; i++)
		cr_expect_eq(index_ent(session_index(t1), i)->time, index_ent(session_index(t2), i)->time);
	/* SAMPLE_TIME: the kept samples' span */
	cr_expect_geq(session_features(t2)->sample_time_first, from);
	cr_expect_eq(session_features(t2)->sample_time_first, session_features(t1)->sample_time_first);
	cr_expect_eq(session_features(t2)->sample_time_last, session_features(s1)->sample_time_last);
	session_close(t1);
	session_close(t2);
	session_close(s1);
	session_close(s2);
	free(o1);
	free(o2);
	free(le);
	pd_free(&be);
	pd_free(&a.b);
	pd_free(&b.b);
}

/* perf's directory, pipe and zstd recordings: one file-mode file with every record but the moved ones. */
Test(carve, perf_made_modes)
{
	static const char *const names[] = { "dir.data", "pipe.data", "zstd.data", "tppipe.data" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct session *s = session_of_path(test_data(names[i])), *t;
		const struct type_counts *c = session_counts(s), *d;
		struct carve_result res;
		size_t len;
		uint8_t *out = carve_mem(s, NULL, NULL, NULL, &res, &len);

		t = session_of_buf(names[i], out, len);
		d = session_counts(t);
		cr_expect_eq(session_info(t).mode, SESSION_FILE, "%s", names[i]);
		cr_expect_not(session_info(t).damaged, "%s", names[i]);
		cr_expect_eq(d->by_type[PF_REC_SAMPLE], c->by_type[PF_REC_SAMPLE], "%s", names[i]);
		cr_expect_eq(d->by_type[PF_REC_MMAP2], c->by_type[PF_REC_MMAP2], "%s", names[i]);
		cr_expect_eq(d->by_type[PF_REC_COMM], c->by_type[PF_REC_COMM], "%s", names[i]);
		cr_expect_eq(d->by_type[PF_REC_ATTR] + d->by_type[PF_REC_FEATURE] +
		    d->by_type[PF_REC_COMPRESSED] + d->by_type[PF_REC_TRACING_DATA], 0, "%s", names[i]);
		cr_expect_eq(session_attrs(t)->n, session_attrs(s)->n, "%s", names[i]);
		cr_expect_not(session_features(t)->sec[PF_FEAT_DIR_FORMAT].present);
		/* tracing data: the pipe's record's bytes, now a section */
		if (session_features(s)->sec[PF_FEAT_TRACING_DATA].present) {
			const struct feat_sec *a = &session_features(s)->sec[PF_FEAT_TRACING_DATA];
			const struct feat_sec *b = &session_features(t)->sec[PF_FEAT_TRACING_DATA];

			cr_assert(b->present, "%s", names[i]);
			cr_expect_eq(b->size, a->size);
			cr_expect_eq(memcmp(session_bytes(s, a->offset, a->size), session_bytes(t, b->offset,
			    b->size), a->size), 0);
		}
		/* directory mode: in time order */
		for (size_t k = 1; k < session_index(t)->n; k++)
			if (session_info(s).mode == SESSION_DIR)
				cr_expect_leq(index_ent(session_index(t), k - 1)->time,
				    index_ent(session_index(t), k)->time);
		session_close(t);
		session_close(s);
		free(out);
	}
}

Test(carve, a_pipe_is_refused)
{
	struct pdbuf in = { 0 };
	struct session *s;
	struct perf_err err;
	int fds[2];

	synth_file(&in, false, 4);
	s = session_of_buf("synth", in.p, in.len);
	cr_assert_eq(pipe(fds), 0);
	cr_expect_eq(carve_write(s, fds[1], NULL, NULL, NULL, NULL, &err), -1);
	cr_expect_eq(err.code, PERF_E_IO);
	cr_expect(strstr(err.msg, "seek") != NULL, "%s", err.msg);
	close(fds[0]);
	close(fds[1]);
	session_close(s);
	pd_free(&in);
}

struct aux_found {
	uint64_t	 n, trailing;
	const uint8_t	*payload;
};

static int
find_aux(void *arg, const struct rec *r, int depth)
{
	struct aux_found *f = arg;

	(void)depth;
	if (r->type == PF_REC_AUXTRACE) {
		f->n++;
		f->trailing = session_rec_trailing(r);
		f->payload = r->p + r->size;
	}
	return 0;
}

/* An AUXTRACE record's data after it (perf's AUX area, Intel PT's trace) goes with it. */
Test(carve, auxtrace_data_follows_its_record)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf b;
		uint8_t trace[40];
		struct aux_found f = { 0 };
		struct carve_result res;
		struct session *s, *t;
		size_t data_off, r, len;
		uint8_t *out;
		int n = 0;

		for (size_t i = 0; i < sizeof trace; i++)
			trace[i] = (uint8_t)(0xa0 + i);
		data_off = synth_head_with(&b, swap, ST_IP | ST_TID | ST_TIME | ST_PERIOD, 0);
		for (int i = 0; i < 4; i++) {
			r = pd_rec_begin(&b, PF_REC_SAMPLE, 2);
			pd_u64(&b, 0x401000);
			pd_u32(&b, 7);
			pd_u32(&b, 7);
			pd_u64(&b, 1000 + (uint64_t)i);
			pd_u64(&b, 4000);
			pd_rec_end(&b, r);
			if (i == 1) {
				r = pd_rec_begin(&b, PF_REC_AUXTRACE, 0);
				pd_u64(&b, sizeof trace);
				pd_u64(&b, 0);
				pd_u64(&b, 2000);
				pd_u32(&b, 0);
				pd_u32(&b, 7);
				pd_u32(&b, 0);
				pd_u32(&b, 0);
				pd_rec_end(&b, r);
				pd_bytes(&b, trace, sizeof trace);
			}
		}
		pd_put64(&b, 40, data_off);
		pd_put64(&b, 48, b.len - data_off);
		s = session_of_buf("aux", b.p, b.len);
		cr_assert_not(session_info(s).damaged);
		out = carve_mem(s, NULL, keep_odd, &n, &res, &len);
		cr_expect_eq(res.kept, 2);
		t = session_of_buf("carved", out, len);
		cr_expect_not(session_info(t).damaged);
		session_walk(t, find_aux, &f);
		cr_assert_eq(f.n, 1);
		cr_expect_eq(f.trailing, sizeof trace);
		cr_expect_eq(memcmp(f.payload, trace, sizeof trace), 0);
		cr_expect_eq(session_counts(t)->by_type[PF_REC_SAMPLE], 2);
		session_close(t);
		session_close(s);
		free(out);
		pd_free(&b);
	}
}

/* The periods perf gives the READ values of the samples from time 'from' on, in file order. */
struct periods {
	const struct session	*s;
	struct read_state	 st;
	uint64_t		 from;
	uint64_t		 v[4096];
	size_t			 n;
};

static int
read_periods(void *arg, const struct rec *r, int depth)
{
	struct periods *p = arg;
	struct read_delivery d[64];
	struct sample smp;
	size_t n;

	(void)depth;
	if (r->type != PF_REC_SAMPLE || record_decode_sample(session_attrs(p->s), r, &smp, NULL) < 0)
		return 0;
	n = read_deliver(p->s, &p->st, &smp, d, 64);
	for (size_t i = 0; i < n && smp.time >= p->from && p->n < 4096; i++)
		p->v[p->n++] = d[i].period;
	return 0;
}

/* Leader sampling: a kept sample keeps the periods its READ values give in the original. */
Test(carve, read_values_keep_their_periods)
{
	struct session *s = session_of_path(test_data("leader.data")), *t;
	static struct periods a, b;
	struct carve_result res;
	uint64_t from;
	size_t len;
	uint8_t *out;

	cr_assert(session_has_read_samples(s));
	from = index_ent(session_index(s), session_index(s)->n / 2)->time;
	out = carve_mem(s, NULL, keep_from, &from, &res, &len);
	cr_assert_gt(res.kept, 0);
	cr_assert_lt(res.kept, res.samples);
	t = session_of_buf("carved", out, len);
	a = (struct periods){ .s = s, .from = from };
	b = (struct periods){ .s = t, .from = 0 };
	session_walk(s, read_periods, &a);
	session_walk(t, read_periods, &b);
	cr_assert_gt(a.n, 0);
	cr_assert_eq(b.n, a.n);
	for (size_t i = 0; i < a.n; i++)
		cr_expect_eq(b.v[i], a.v[i], "value %zu: period %llu, %llu in the original", i,
		    (unsigned long long)b.v[i], (unsigned long long)a.v[i]);
	read_state_free(&a.st);
	read_state_free(&b.st);
	session_close(t);
	session_close(s);
	free(out);
}
