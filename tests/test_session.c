/* Criterion tests of core/session.c, core/index.c and core/thread.c. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "tests/helpers.h"

static struct session *
open_bytes(const void *p, size_t n, struct perf_err *err, char **pathp)
{
	char *path = tmp_write("sess", p, n);
	struct session *s = session_open(path, NULL, err);

	if (pathp)
		*pathp = path;
	else {
		unlink(path);
		free(path);
	}
	return s;
}

static void
assert_sorted(const struct session *s)
{
	const struct rec_index *ix = session_index(s);

	for (size_t i = 1; i < ix->n; i++)
		cr_assert_leq(index_ent(ix, i - 1)->time, index_ent(ix, i)->time, "index not sorted at %zu", i);
}

Test(session, synth_native)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;

	synth_file(&b, false, 10);
	s = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_info(s).mode, SESSION_FILE);
	cr_assert_eq(session_info(s).swap, false);
	cr_assert_eq(session_attrs(s)->n, 1);
	cr_assert_eq(session_attrs(s)->v[0].attr.sample_type, (1u << 0 | 1u << 1 | 1u << 2 | 1u << 6 | 1u << 7 | 1u << 8));
	cr_assert_eq(session_attrs(s)->v[0].attr.freq, 1);
	cr_assert_eq(session_attrs(s)->v[0].attr.sample_id_all, 1);
	cr_assert_eq(session_attrs(s)->v[0].attr.mmap2, 1);
	cr_assert_eq(session_attrs(s)->v[0].attr.sample_period, 4000);
	cr_assert_eq(attr_table_find_id(session_attrs(s), 100), 0);
	cr_assert_eq(attr_table_find_id(session_attrs(s), 101), 0);
	cr_assert_eq(attr_table_find_id(session_attrs(s), 102), -1);
	cr_assert_eq(session_counts(s)->total, synth_layout.nrecords);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 10);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_FINISHED_ROUND], 2);
	cr_assert_not_null(session_attr_counts(s, 0));
	cr_assert_eq(session_attr_counts(s, 0)->by_type[PF_REC_SAMPLE], 10);
	cr_assert_eq(session_index(s)->n, synth_layout.nrecords);
	cr_assert_eq(session_info(s).damaged, false);
	cr_assert_eq(session_diags(s)->n, 0, "unexpected diagnostic: %s", session_diags(s)->n ? session_diags(s)->v[0].msg : "");
	cr_assert(session_features(s)->sec[PF_FEAT_HOSTNAME].present);
	cr_assert(session_features(s)->sec[PF_FEAT_OSRELEASE].present);
	assert_sorted(s);
	/* The samples' times are 1000..1090 step 10 once sorted. */
	{
		uint64_t want = 1000;

		for (size_t i = 0; i < session_index(s)->n; i++) {
			if (ent_type(index_ent(session_index(s), i)) != PF_REC_SAMPLE)
				continue;
			cr_assert_eq(index_ent(session_index(s), i)->time, want);
			cr_assert_eq(session_ent_who(s, i).pid, 42);
			cr_assert_eq(session_ent_who(s, i).tid, 42);
			cr_assert_eq(ent_attr(index_ent(session_index(s), i)), 0);
			cr_assert_lt(session_ent_who(s, i).cpu, 2);
			cr_assert_geq(session_ent_who(s, i).cpu, 0);
			want += 10;
		}
		cr_assert_eq(want, 1100);
	}
	/* The thread table saw the COMM, the MMAP2 and the EXIT. */
	cr_assert_eq(session_threads(s)->n, 1);
	cr_assert_eq(session_threads(s)->v[0].tid, 42);
	cr_assert_eq(session_threads(s)->v[0].samples, 10);
	cr_assert(session_threads(s)->v[0].exited);
	cr_assert_str_eq(thread_comm_at(session_threads(s), 0, 2000), "synth");
	cr_assert_eq(session_threads(s)->nmaps, 1);
	cr_assert_eq(session_threads(s)->maps[0].start, 0x400000);
	cr_assert_eq(session_threads(s)->maps[0].ino, 1234);
	cr_assert_str_eq(strtab_get(&session_threads(s)->strs, session_threads(s)->maps[0].filename), "/usr/bin/synth");
	session_close(s);
	pd_free(&b);
}

/* A big-endian copy decodes to exactly the same tables. */
Test(session, synth_swapped_equals_native)
{
	struct pdbuf a, b;
	struct perf_err err;
	struct session *sa, *sb;

	synth_file(&a, false, 13);
	synth_file(&b, true, 13);
	cr_assert_eq(a.len, b.len);
	cr_assert_neq(memcmp(a.p, b.p, a.len), 0);
	sa = open_bytes(a.p, a.len, &err, NULL);
	cr_assert_not_null(sa, "%s", err.msg);
	sb = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(sb, "%s", err.msg);
	cr_assert_eq(session_info(sb).swap, true);
	cr_assert_eq(memcmp(&session_attrs(sa)->v[0].attr, &session_attrs(sb)->v[0].attr, sizeof session_attrs(sa)->v[0].attr), 0);
	cr_assert_eq(session_attrs(sb)->v[0].attr.sample_id_all, 1);
	cr_assert_eq(session_attrs(sb)->v[0].attr.freq, 1);
	cr_assert_eq(session_index(sa)->n, session_index(sb)->n);
	for (size_t i = 0; i < session_index(sa)->n; i++) {
		cr_assert_eq(index_ent(session_index(sa), i)->time, index_ent(session_index(sb), i)->time);
		cr_assert_eq(index_ent(session_index(sa), i)->loc, index_ent(session_index(sb), i)->loc);
		struct ent_who x = session_ent_who(sa, i), y = session_ent_who(sb, i);

		cr_assert(x.cpu == y.cpu && x.pid == y.pid && x.tid == y.tid, "entry %zu", i);
	}
	cr_assert_eq(memcmp(session_counts(sa), session_counts(sb), sizeof *session_counts(sa)), 0);
	cr_assert_eq(session_threads(sb)->nmaps, 1);
	cr_assert_eq(session_threads(sb)->maps[0].ino, 1234);
	cr_assert_eq(session_info(sb).damaged, false);
	session_close(sa);
	session_close(sb);
	pd_free(&a);
	pd_free(&b);
}

/* Record boundaries of the synthetic file's data section. */
static size_t
whole_records_before(const struct pdbuf *b, size_t cut)
{
	size_t pos = synth_layout.data_off, n = 0;
	size_t end = synth_layout.data_off + synth_layout.data_size;

	while (pos + 8 <= end) {
		uint16_t size;

		memcpy(&size, b->p + pos + 6, 2);
		if (b->swap)
			size = __builtin_bswap16(size);
		if (pos + size > cut)
			break;
		pos += size;
		n++;
	}
	return n;
}

/* Cut the file at every length: never a crash, the right record count. */
Test(session, truncated_at_every_length)
{
	struct pdbuf b;

	synth_file(&b, false, 9);
	for (size_t cut = 0; cut <= b.len; cut++) {
		struct perf_err err;
		struct session *s = open_bytes(b.p, cut, &err, NULL);

		if (cut < synth_layout.data_off) {
			/* Header, ids or attrs cut: opening may fail, but says why. */
			if (s == NULL) {
				cr_assert_neq(err.msg[0], '\0');
				continue;
			}
			cr_assert_eq(session_counts(s)->total, 0, "cut %zu", cut);
			cr_assert(session_info(s).damaged, "cut %zu not flagged", cut);
		} else {
			size_t want = whole_records_before(&b, cut);

			cr_assert_not_null(s, "cut %zu: %s", cut, err.msg);
			cr_assert_eq(session_counts(s)->total, want, "cut %zu: %llu records, want %zu", cut,
			    (unsigned long long)session_counts(s)->total, want);
			if (cut < synth_layout.feat_table + 32)
				cr_assert(session_info(s).damaged, "cut %zu not flagged", cut);
			assert_sorted(s);
		}
		session_close(s);
	}
	pd_free(&b);
}

Test(session, record_size_zero)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;
	size_t at;

	synth_file(&b, false, 8);
	at = synth_layout.first_sample;
	at += 2 * 56;	/* the third sample (each is 56 bytes) */
	pd_put16(&b, at + 6, 0);
	s = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(session_info(s).damaged);
	cr_assert_eq(session_counts(s)->total, 4);	/* COMM, MMAP2, two samples */
	cr_assert_geq(session_diags(s)->n, 1);
	cr_assert_eq(session_diags(s)->v[0].offset, at, "diag at 0x%llx, want 0x%zx",
	    (unsigned long long)session_diags(s)->v[0].offset, at);
	cr_assert_not_null(strstr(session_diags(s)->v[0].msg, "size 0"), "%s", session_diags(s)->v[0].msg);
	session_close(s);
	pd_free(&b);
}

Test(session, data_size_zero_salvaged)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;

	synth_file(&b, false, 8);
	/* A killed perf record: data.size 0, no features, file ends after the data. */
	pd_put64(&b, 48, 0);
	pd_put64(&b, 72, 0);
	s = open_bytes(b.p, synth_layout.feat_table, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(session_info(s).damaged);
	cr_assert_eq(session_counts(s)->total, synth_layout.nrecords);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 8);
	session_close(s);
	pd_free(&b);
}

Test(session, data_size_past_eof)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;

	synth_file(&b, false, 8);
	pd_put64(&b, 48, 1ull << 40);
	s = open_bytes(b.p, synth_layout.feat_table, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(session_info(s).damaged);
	cr_assert_eq(session_counts(s)->total, synth_layout.nrecords);
	cr_assert_not_null(strstr(session_diags(s)->v[0].msg, "past the end"), "%s", session_diags(s)->v[0].msg);
	session_close(s);
	pd_free(&b);
}

Test(session, feature_table_beyond_eof)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;

	synth_file(&b, false, 4);
	pd_put64(&b, synth_layout.feat_table, 1ull << 40);	/* HOSTNAME section offset */
	s = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_features(s)->sec[PF_FEAT_HOSTNAME].status, FEAT_MISSING);
	cr_assert_eq(session_counts(s)->total, synth_layout.nrecords);
	session_close(s);
	pd_free(&b);
}

Test(session, bad_inputs)
{
	struct perf_err err;
	struct session *s;
	static const char junk[64] = "\x7f" "ELF this is not a recording";
	char dir[] = "/tmp/perfnav-test-dir-XXXXXX";

	s = open_bytes("", 0, &err, NULL);
	cr_assert_null(s);
	cr_assert_eq(err.code, PERF_E_EMPTY);
	cr_assert_not_null(strstr(err.msg, "empty"));

	s = open_bytes(junk, sizeof junk, &err, NULL);
	cr_assert_null(s);
	cr_assert_eq(err.code, PERF_E_NOT_PERF);
	cr_assert_not_null(strstr(err.msg, "offset 0x0"), "%s", err.msg);

	s = session_open("/nonexistent/perf.data", NULL, &err);
	cr_assert_null(s);
	cr_assert_eq(err.code, PERF_E_IO);
	cr_assert_not_null(strstr(err.msg, "/nonexistent/perf.data"));

	cr_assert_not_null(mkdtemp(dir));
	s = session_open(dir, NULL, &err);
	cr_assert_null(s);
	cr_assert_not_null(strstr(err.msg, "without a 'data' file"), "%s", err.msg);
	rmdir(dir);
}

/* index_sort against a reference stable sort, on nearly sorted rounds. */
static int
ref_cmp(const void *a, const void *b)
{
	const struct load_ent *x = a, *y = b;

	if (x->e.time != y->e.time)
		return x->e.time < y->e.time ? -1 : 1;
	/* loc holds the original position: stability */
	return x->e.loc < y->e.loc ? -1 : x->e.loc > y->e.loc;
}

Test(index, sort_matches_stable_reference)
{
	for (int trial = 0; trial < 40; trial++) {
		struct rec_index ix;
		size_t n = 1 + (size_t)(trial * 97 % 3000), rounds[64], nr = 0;
		struct load_ent *ref;

		memset(&ix, 0, sizeof ix);
		srand((unsigned)trial);
		for (size_t i = 0; i < n; i++) {
			struct load_ent e;
			/* time grows with i, jitter makes overlaps, few distinct values make ties */
			uint64_t t = i / 3 + (uint64_t)(rand() % (trial % 5 == 0 ? 1000 : 20));

			ent_set(&e, t, i, 9, 0, 0, 1, 1);
			index_push(&ix, &e);
			if (nr < 64 && rand() % 50 == 0)
				rounds[nr++] = i;
		}
		ref = malloc(n * sizeof *ref);
		memcpy(ref, ix.lv, n * sizeof *ref);
		qsort(ref, n, sizeof *ref, ref_cmp);
		index_sort(&ix, rounds, nr);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(ix.lv[i].e.loc, ref[i].e.loc, "trial %d: position %zu", trial, i);
		/* finished: the same entries, 16 bytes each, who kept alongside */
		index_finish(&ix, true);
		cr_assert_null(ix.lv);
		for (size_t i = 0; i < n; i++) {
			struct ent_who w;

			cr_assert_eq(ix.v[i].loc, ref[i].e.loc, "trial %d: finished %zu", trial, i);
			cr_assert_eq(ix.v[i].time, ref[i].e.time);
			cr_assert(who_unpack(ix.who[i], &w));
			cr_assert(w.cpu == 0 && w.pid == 1 && w.tid == 1);
		}
		free(ref);
		index_free(&ix);
	}
}

/*
 * Several runs one after the other (perfnav merge's output): each run's
 * rounds go back to the first run's start, the sort takes each as a
 * segment and merges them; ties keep file order.
 */
Test(index, runs_back_in_time_sort_as_the_reference)
{
	const size_t per = 150000, nruns = 3, n = per * nruns;
	size_t rounds[1024], nr = 0;
	struct rec_index ix;
	struct load_ent *ref;

	memset(&ix, 0, sizeof ix);
	srand(7);
	for (size_t i = 0; i < n; i++) {
		struct load_ent e;
		size_t k = i % per;	/* each run from time 0 again, jittered within rounds */

		ent_set(&e, k / 2 + (uint64_t)(rand() % 300), i, 9, 0, 0, 1, 1);
		index_push(&ix, &e);
		if (k % 1000 == 999 && nr < 1024)
			rounds[nr++] = i + 1;
	}
	ref = malloc(n * sizeof *ref);
	memcpy(ref, ix.lv, n * sizeof *ref);
	qsort(ref, n, sizeof *ref, ref_cmp);
	index_sort(&ix, rounds, nr);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(ix.lv[i].e.loc, ref[i].e.loc, "position %zu", i);
	free(ref);
	index_free(&ix);
}

Test(index, entry_packing)
{
	struct load_ent e;
	struct ent_who w;

	ent_set(&e, 77, 0x123456789abcull, 9, 3, 5, 1234, 5678);
	cr_assert_eq(ent_loc(&e.e), 0x123456789abcull);
	cr_assert_eq(ent_type(&e.e), 9);
	cr_assert_eq(ent_attr(&e.e), 3);
	cr_assert(who_unpack(e.who, &w));
	cr_assert(w.cpu == 5 && w.pid == 1234 && w.tid == 5678);
	ent_set(&e, 0, 0, 300, -1, -1, -1, 1 << 30);
	cr_assert_eq(ent_type(&e.e), ENT_TYPE_BIG);
	cr_assert_eq(ent_attr(&e.e), ENT_ATTR_NONE);
	/* a tid too large to pack: the record must be read */
	cr_assert_not(who_unpack(e.who, &w));
	cr_assert(w.cpu == -1 && w.pid == -1);
}

Test(session, attrs_section_beyond_eof)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;

	synth_file(&b, false, 4);
	pd_put64(&b, 24, b.len + 4096);	/* attrs.offset */
	s = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(session_info(s).damaged);
	cr_assert_eq(session_attrs(s)->n, 0);
	cr_assert_not_null(strstr(session_diags(s)->v[0].msg, "attrs section"), "%s", session_diags(s)->v[0].msg);
	cr_assert_eq(session_diags(s)->v[0].offset, 24);
	/* the records are still all there */
	cr_assert_eq(session_counts(s)->total, synth_layout.nrecords);
	session_close(s);
	pd_free(&b);
}

Test(session, unknown_record_type_kept)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;
	size_t at;

	synth_file(&b, false, 4);
	at = synth_layout.first_sample;
	pd_put32(&b, at, 200);	/* make the first sample an unknown type */
	s = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_counts(s)->total, synth_layout.nrecords);
	cr_assert_eq(session_counts(s)->by_type[200], 1);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 3);
	cr_assert_eq(session_info(s).damaged, false);
	session_close(s);
	pd_free(&b);
}

/* A recording in memory loads as the same bytes in a file do. */
Test(session, open_mem_file_mode)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *a, *m;
	struct session_mem mem;

	synth_file(&b, false, 10);
	a = open_bytes(b.p, b.len, &err, NULL);
	cr_assert_not_null(a, "%s", err.msg);
	mem.base = b.p;
	mem.size = b.len;
	m = session_open_mem("<mem>", &mem, 1, NULL, &err);
	cr_assert_not_null(m, "%s", err.msg);
	cr_assert_eq(session_info(m).mode, SESSION_FILE);
	cr_assert_str_eq(session_info(m).path, "<mem>");
	cr_assert_eq(session_nfiles(m), 1);
	cr_assert_eq(session_file(m, 0)->base, b.p, "the buffer is used in place");
	cr_assert_eq(session_file(m, 0)->borrowed, true);
	cr_assert_eq(session_index(m)->n, session_index(a)->n);
	cr_assert_eq(memcmp(session_counts(m), session_counts(a), sizeof *session_counts(m)), 0);
	for (size_t i = 0; i < session_index(m)->n; i++) {
		cr_assert_eq(index_ent(session_index(m), i)->loc, index_ent(session_index(a), i)->loc);
		cr_assert_eq(index_ent(session_index(m), i)->time, index_ent(session_index(a), i)->time);
	}
	cr_assert_eq(session_diags(m)->n, 0);
	cr_assert_str_eq(session_features(m)->hostname, session_features(a)->hostname);
	session_close(m);
	/* The buffer is the caller's: still intact after session_close(). */
	cr_assert_eq(memcmp(b.p, "PERFILE2", 8), 0);
	session_close(a);
	pd_free(&b);
}

/* Several buffers are a directory: 'data', then data.0, ... */
Test(session, open_mem_directory_mode)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;
	struct session_mem mem[2];

	synth_file(&b, false, 8);
	mem[0].base = b.p;
	mem[0].size = b.len;
	/* data.0: the same records again, as a per-CPU file holds them. */
	mem[1].base = b.p + synth_layout.data_off;
	mem[1].size = synth_layout.data_size;
	s = session_open_mem("rec", mem, 2, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_info(s).mode, SESSION_DIR);
	cr_assert_eq(session_nfiles(s), 2);
	cr_assert_str_eq(session_file(s, 0)->path, "rec/data");
	cr_assert_str_eq(session_file(s, 1)->path, "rec/data.0");
	cr_assert_geq(session_file(s, 1)->vbase, session_file(s, 0)->size + 8);
	cr_assert_eq(session_file(s, 1)->vbase % 8, 0);
	cr_assert_eq(session_counts(s)->total, 2 * synth_layout.nrecords);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 16);
	cr_assert_eq(session_index(s)->n, 2 * synth_layout.nrecords);
	cr_assert_eq(session_diags(s)->n, 0, "unexpected diagnostic: %s", session_diags(s)->n ? session_diags(s)->v[0].msg : "");
	assert_sorted(s);
	session_close(s);
	pd_free(&b);
}

Test(session, open_mem_bad_inputs)
{
	struct perf_err err;
	struct session_mem mem = { "", 0 };
	static const char junk[64] = "not a recording";
	struct pdbuf b;

	cr_assert_null(session_open_mem("m", NULL, 0, NULL, &err));
	cr_assert_eq(err.code, PERF_E_EMPTY);
	cr_assert_null(session_open_mem("m", &mem, 1, NULL, &err));
	cr_assert_eq(err.code, PERF_E_EMPTY);
	mem.base = junk;
	mem.size = sizeof junk;
	cr_assert_null(session_open_mem("m", &mem, 1, NULL, &err));
	cr_assert_eq(err.code, PERF_E_NOT_PERF);
	cr_assert_not_null(strstr(err.msg, "m: offset 0x0"), "%s", err.msg);
	/* A pipe-mode header cannot be a directory's 'data'. */
	memset(&b, 0, sizeof b);
	pd_bytes(&b, "PERFILE2", 8);
	pd_u64(&b, 16);
	{
		struct session_mem two[2] = { { b.p, b.len }, { b.p, b.len } };

		cr_assert_null(session_open_mem("m", two, 2, NULL, &err));
		cr_assert_eq(err.code, PERF_E_BAD_HEADER);
	}
	pd_free(&b);
}

/* The pipe and directory fixtures load from memory as from their files. */
Test(session, open_mem_fixtures)
{
	static const char *const dir_files[] = { "data", "data.0", "data.1" };
	struct perf_err err;
	struct session_mem mem[3];
	char *bytes[3];
	struct session *a, *m;
	size_t n;

	bytes[0] = slurp(test_data("pipe.data"), &n);
	if (bytes[0] == NULL)
		cr_skip_test("no pipe.data fixture");
	mem[0].base = bytes[0];
	mem[0].size = n;
	m = session_open_mem("pipe", mem, 1, NULL, &err);
	cr_assert_not_null(m, "%s", err.msg);
	a = session_open(test_data("pipe.data"), NULL, &err);
	cr_assert_not_null(a, "%s", err.msg);
	cr_assert_eq(session_info(m).mode, SESSION_PIPE);
	cr_assert_eq(session_index(m)->n, session_index(a)->n);
	cr_assert_eq(memcmp(session_counts(m), session_counts(a), sizeof *session_counts(m)), 0);
	cr_assert_eq(session_attrs(m)->n, session_attrs(a)->n);
	session_close(m);
	session_close(a);
	free(bytes[0]);

	for (size_t i = 0; i < 3; i++) {
		char p[4096];

		snprintf(p, sizeof p, "%s/%s", test_data("dir.data"), dir_files[i]);
		bytes[i] = slurp(p, &n);
		cr_assert_not_null(bytes[i], "%s", p);
		mem[i].base = bytes[i];
		mem[i].size = n;
	}
	m = session_open_mem("dir", mem, 3, NULL, &err);
	cr_assert_not_null(m, "%s", err.msg);
	a = session_open(test_data("dir.data"), NULL, &err);
	cr_assert_not_null(a, "%s", err.msg);
	cr_assert_eq(session_nfiles(a), 3, "dir.data has data, data.0, data.1");
	cr_assert_eq(session_info(m).mode, SESSION_DIR);
	cr_assert_eq(session_index(m)->n, session_index(a)->n);
	cr_assert_eq(memcmp(session_counts(m), session_counts(a), sizeof *session_counts(m)), 0);
	for (size_t i = 0; i < session_index(m)->n; i++)
		cr_assert_eq(index_ent(session_index(m), i)->loc, index_ent(session_index(a), i)->loc);
	session_close(m);
	session_close(a);
	for (size_t i = 0; i < 3; i++)
		free(bytes[i]);
}

/* Everything loading makes of a recording, in s and t alike. */
static void
same_load(const struct session *s, const struct session *t, const char *name)
{
	const struct rec_index *a = session_index(s), *b = session_index(t);
	const struct diag_list *da = session_diags(s), *db = session_diags(t);

	cr_assert_eq(a->n, b->n, "%s: %zu vs %zu entries", name, a->n, b->n);
	cr_assert_eq(a->n_untimed, b->n_untimed, "%s: untimed", name);
	for (size_t i = 0; i < a->n; i++)
	{
		struct ent_who x = session_ent_who(s, i), y = session_ent_who(t, i);

		cr_assert(index_ent(a, i)->time == index_ent(b, i)->time && index_ent(a, i)->loc == index_ent(b, i)->loc &&
		    x.cpu == y.cpu && x.pid == y.pid && x.tid == y.tid, "%s: entry %zu", name, i);
	}
	cr_assert_eq(memcmp(session_counts(s), session_counts(t), sizeof *session_counts(s)), 0,
	    "%s: counts", name);
	for (size_t i = 0; i < session_attrs(s)->n; i++) {
		const struct type_counts *x = session_attr_counts(s, i), *y = session_attr_counts(t, i);

		cr_assert_eq(x == NULL, y == NULL, "%s: attr %zu counts", name, i);
		if (x != NULL)
			cr_assert_eq(memcmp(x, y, sizeof *x), 0, "%s: attr %zu counts", name, i);
	}
	cr_assert_eq(da->n, db->n, "%s: %zu vs %zu diagnostics", name, da->n, db->n);
	for (size_t i = 0; i < da->n; i++)
		cr_assert(strcmp(da->v[i].msg, db->v[i].msg) == 0 && da->v[i].offset == db->v[i].offset,
		    "%s: diagnostic %zu: %s vs %s", name, i, da->v[i].msg, db->v[i].msg);
	cr_assert_eq(session_info(s).damaged, session_info(t).damaged, "%s: damaged", name);
}

/*
 * path loaded with its data in two parts (walk_split) and in one walk,
 * under a memory budget (0: the default); 1 if split.  Indexed (index):
 * the first keeps who each record is about in the index, the second reads
 * it from the records; else a load without an index (perfnav stats) that
 * only counts.  The same answers: the counts, the diagnostics, the entries.
 */
static int
split_equals_one_as(const char *path, const char *name, uint64_t budget, bool index)
{
	struct perf_err e1, e2;
	struct session *s, *t;
	struct session_opts keep = { .keep_going = true, .keep_who = true, .mem_budget = budget };
	struct session_opts one = { .keep_going = true, .mem_budget = budget };
	struct session_opts count = { .keep_going = true, .no_index = true, .mem_budget = budget };
	int split = 0;

	setenv("PERFNAV_LOAD_SPLIT_MIN", "0", 1);
	s = session_open(path, index ? &keep : &count, &e1);
	unsetenv("PERFNAV_LOAD_SPLIT_MIN");
	t = session_open(path, !index ? &count : budget ? &one : NULL, &e2);
	cr_assert_eq(s == NULL, t == NULL, "%s: opens", name);
	if (s != NULL) {
		if (index) {
			cr_assert(session_index(s)->n == 0 || session_index(s)->who != NULL,
			    "%s: who kept", name);
			cr_assert_null(session_index(t)->who, "%s: who let go", name);
		} else {
			cr_assert_eq(session_index(s)->n, 0, "%s: no index", name);
		}
		same_load(s, t, name);
		cr_assert_eq(session_file(s, 0)->nrecords, session_file(t, 0)->nrecords, "%s", name);
		cr_assert_eq(session_info(s).over_budget, session_info(t).over_budget, "%s", name);
		split = session_info(s).load_split > 0;
		cr_assert_eq(session_info(t).load_split, 0, "%s: one walk", name);
	}
	session_close(s);
	session_close(t);
	return split;
}

static int
split_equals_one(const char *path, const char *name)
{
	return split_equals_one_as(path, name, 0, true);
}

static int
count_split_equals_one(const char *path, const char *name)
{
	return split_equals_one_as(path, name, 0, false);
}

static uint8_t *
read_all(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *p;
	long len;

	cr_assert_not_null(fp, "%s", path);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	p = malloc((size_t)len);
	cr_assert_eq(fread(p, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	*n = (size_t)len;
	return p;
}

/*
 * A large data section's second half is indexed on a thread of its own
 * from a guessed record boundary; the session must be what one walk makes:
 * on every fixture, and on fp.data damaged (a header's size or type
 * overwritten) or cut at many places, in the first half, at the guess and
 * in the second.
 */
Test(session, split_load_equals_one_walk)
{
	const char *names[] = { "fp.data", "fork.data", "dwarf.data", "multi.data", "zstd.data",
		"plain.data", "switch.data", "tracepoint.data", "group.data", "diff-a.data", "dir.data" };
	size_t n, nsplit = 0, ncsplit = 0, ndamaged = 0, ncdamaged = 0;
	uint8_t *p;
	char name[64];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		nsplit += (size_t)split_equals_one(test_data(names[i]), names[i]);
		ncsplit += (size_t)count_split_equals_one(test_data(names[i]), names[i]);
	}
	cr_assert_geq(nsplit, 6, "most fixtures load in two parts (%zu did)", nsplit);
	cr_assert_geq(ncsplit, 6, "most fixtures are counted in two parts (%zu were)", ncsplit);
	/* under budgets that end the load in either half: where one walk stops */
	for (uint64_t b = 1024; b <= 16384; b += 512) {
		snprintf(name, sizeof name, "fp.data under a budget of %llu", (unsigned long long)b);
		split_equals_one_as(test_data("fp.data"), name, b, false);
		split_equals_one_as(test_data("fp.data"), name, b, true);
	}
	p = read_all(test_data("fp.data"), &n);
	for (size_t k = 1; k < 64; k++) {
		size_t at = n / 64 * k & ~(size_t)7, m;
		uint8_t *q = malloc(n);
		char *path;

		memcpy(q, p, n);
		q[at + (k % 3 == 0 ? 6 : k % 3 == 1 ? 0 : 2)] ^= (uint8_t)(0x10 + k);
		path = tmp_write("split", q, n);
		snprintf(name, sizeof name, "fp.data damaged at %zu", at);
		ndamaged += (size_t)split_equals_one(path, name);
		ncdamaged += (size_t)count_split_equals_one(path, name);
		unlink(path);
		free(path);
		m = n - n / 64 * k;
		path = tmp_write("split", p, m);
		snprintf(name, sizeof name, "fp.data cut at %zu", m);
		split_equals_one(path, name);
		count_split_equals_one(path, name);
		unlink(path);
		free(path);
		free(q);
	}
	cr_assert_geq(ndamaged, 20, "damaged copies load in two parts too (%zu did)", ndamaged);
	cr_assert_geq(ncdamaged, 20, "damaged copies are counted in two parts too (%zu were)", ncdamaged);
	free(p);
}
