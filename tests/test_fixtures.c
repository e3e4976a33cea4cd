/*
 * Criterion tests of the loader on the project's own recordings
 * (tests/data, made with real perf by tests/record-fixtures.sh), against
 * what real perf printed for them (tests/data/expected).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "tests/helpers.h"
#include "tests/swap.h"

/* ---- perf report --stats, parsed ---- */

struct stat_line {
	char		event[128];	/* "" for the aggregated block */
	char		type[64];
	uint64_t	count;
};

static size_t
parse_stats(const char *text, struct stat_line *out, size_t max)
{
	char event[128] = "";
	size_t n = 0;
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512], type[64];
		unsigned long long count;

		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (len > 7 && strcmp(buf + len - 7, " stats:") == 0 &&
		    strncmp(buf, "Aggregated", 10) != 0) {
			snprintf(event, sizeof event, "%.*s", (int)(len - 7), buf);
		} else if (sscanf(buf, " %63s events: %llu", type, &count) == 2 && n < max) {
			snprintf(out[n].event, sizeof out[n].event, "%s", event);
			snprintf(out[n].type, sizeof out[n].type, "%s", type);
			out[n].count = count;
			n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

static uint64_t
our_count(const struct session *s, const char *event, const char *type)
{
	const struct type_counts *c = session_counts(s);
	int attr = -1;

	if (event[0] != '\0') {
		for (size_t a = 0; a < session_attrs(s)->n; a++)
			if (strcmp(session_attr_name(s, (int)a), event) == 0 && session_attr_counts(s, a) != NULL &&
			    session_attr_counts(s, a)->total > 0)
				attr = (int)a;
		if (attr < 0)
			return UINT64_MAX;
		c = session_attr_counts(s, (size_t)attr);
	}
	if (strcmp(type, "TOTAL") == 0)
		return c->total;
	for (uint32_t t = 0; t < SESSION_NTYPES; t++) {
		const char *nm = record_type_name(t);

		if (nm && strcmp(nm, type) == 0)
			return c->by_type[t];
	}
	return UINT64_MAX;
}

/* Names of the fixtures that have expected output of the given kind. */
static size_t
fixtures(const char *suffix, char names[][64], size_t max)
{
	DIR *d = opendir(test_data("expected"));
	struct dirent *de;
	size_t n = 0, sl = strlen(suffix);

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && n < max) {
		size_t l = strlen(de->d_name);

		if (l > sl && strcmp(de->d_name + l - sl, suffix) == 0 && l - sl < 64) {
			memcpy(names[n], de->d_name, l - sl);
			names[n][l - sl] = '\0';
			n++;
		}
	}
	closedir(d);
	return n;
}

Test(fixtures, stats_equal_perf)
{
	char names[64][64];
	size_t n = fixtures(".stats.txt", names, 64), checked = 0;

	cr_assert_geq(n, 5, "tests/data/expected has %zu stats files", n);
	for (size_t i = 0; i < n; i++) {
		char path[4096], *text;
		struct stat_line lines[256];
		size_t nl;
		struct session *s;

		snprintf(path, sizeof path, "%s/expected/%s.stats.txt", TEST_DATA, names[i]);
		text = slurp(path, NULL);
		cr_assert_not_null(text);
		nl = parse_stats(text, lines, 256);
		free(text);
		if (nl == 0)
			continue;	/* perf printed nothing for it */
		s = open_fixture(names[i]);
		for (size_t k = 0; k < nl; k++) {
			uint64_t got = our_count(s, lines[k].event, lines[k].type);

			cr_expect_eq(got, lines[k].count, "%s: %s%s%s: perf %llu, ours %llu",
			    names[i], lines[k].type, lines[k].event[0] ? " @ " : "", lines[k].event,
			    (unsigned long long)lines[k].count, (unsigned long long)got);
		}
		cr_expect_eq(session_info(s).damaged, false, "%s flagged damaged", names[i]);
		session_close(s);
		checked++;
	}
	cr_assert_geq(checked, 5);
}

/* ---- dump: every record's (size, type), as a multiset ---- */

struct st_pair {
	uint32_t size, type;
};

struct collect {
	struct st_pair	*v;
	size_t		 n, cap;
};

static int
collect_rec(void *arg, const struct rec *r, int depth)
{
	struct collect *c = arg;

	(void)depth;
	if (r->type == PF_REC_COMPRESSED || r->type == PF_REC_COMPRESSED2)
		return 0;	/* perf -D does not list containers */
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->v = realloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n].size = r->size;
	c->v[c->n].type = r->type;
	c->n++;
	return 0;
}

static int
pair_cmp(const void *a, const void *b)
{
	const struct st_pair *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

Test(fixtures, dump_records_equal_perf)
{
	char names[64][64];
	size_t n = fixtures(".dump.txt", names, 64);

	cr_assert_geq(n, 5);
	for (size_t i = 0; i < n; i++) {
		char path[4096], *text, *line, *save = NULL;
		struct collect want = { 0 }, got = { 0 };
		struct session *s;

		snprintf(path, sizeof path, "%s/expected/%s.dump.txt", TEST_DATA, names[i]);
		text = slurp(path, NULL);
		cr_assert_not_null(text);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char off[64], tname[64];
			unsigned size, type = UINT32_MAX;

			if (sscanf(line, "%63s %x %63s", off, &size, tname) != 3)
				continue;
			/* "PERF_RECORD_NAME" or a number */
			if (strncmp(tname, "PERF_RECORD_", 12) == 0) {
				for (uint32_t t = 0; t < 256; t++)
					if (record_type_name(t) && strcmp(record_type_name(t), tname + 12) == 0)
						type = t;
			} else {
				type = (unsigned)strtoul(tname, NULL, 10);
			}
			cr_assert_neq(type, UINT32_MAX, "%s: unknown type in '%s'", names[i], line);
			if (type == PF_REC_COMPRESSED || type == PF_REC_COMPRESSED2)
				continue;
			collect_rec(&want, &(struct rec){ .size = size, .type = type }, 0);
		}
		free(text);
		s = open_fixture(names[i]);
		session_walk(s, collect_rec, &got);
		cr_expect_eq(got.n, want.n, "%s: %zu records, perf %zu", names[i], got.n, want.n);
		qsort(want.v, want.n, sizeof *want.v, pair_cmp);
		qsort(got.v, got.n, sizeof *got.v, pair_cmp);
		for (size_t k = 0; k < want.n && k < got.n; k++) {
			cr_expect(want.v[k].size == got.v[k].size && want.v[k].type == got.v[k].type,
			    "%s: record %zu: perf (0x%x, %u), ours (0x%x, %u)", names[i], k,
			    want.v[k].size, want.v[k].type, got.v[k].size, got.v[k].type);
			if (want.v[k].size != got.v[k].size || want.v[k].type != got.v[k].type)
				break;
		}
		/* The index holds every record, containers too, in time order. */
		cr_expect_geq(session_index(s)->n, got.n, "%s", names[i]);
		for (size_t k = 1; k < session_index(s)->n; k++)
			cr_assert_leq(index_ent(session_index(s), k - 1)->time, index_ent(session_index(s), k)->time, "%s: index at %zu",
			    names[i], k);
		free(want.v);
		free(got.v);
		session_close(s);
	}
}

/*
 * Cut a real recording at every length: no crash, never more records than
 * the whole file, and every cut inside the data section keeps the records
 * wholly before it.
 */
Test(fixtures, every_truncation_of_a_real_file, .timeout = 600)
{
	size_t len;
	char *bytes = slurp(test_data("plain.data"), &len);
	struct session *full;
	struct perf_err err;
	char *path;
	uint64_t data_off, data_end, *starts = NULL;
	size_t nstarts = 0, cap = 0;

	cr_assert_not_null(bytes, "tests/data/plain.data is missing");
	full = open_fixture("plain.data");
	data_off = session_file(full, 0)->data_off;
	data_end = session_file(full, 0)->data_end;
	/* record start offsets of the whole file */
	for (uint64_t pos = data_off; pos + 8 <= data_end;) {
		uint16_t sz;

		memcpy(&sz, bytes + pos + 6, 2);
		if (nstarts == cap) {
			cap = cap ? 2 * cap : 1024;
			starts = realloc(starts, cap * sizeof *starts);
		}
		starts[nstarts++] = pos + sz;	/* end of record */
		pos += sz;
	}
	path = tmp_write("trunc", "", 0);
	for (size_t cut = 0; cut < len; cut++) {
		FILE *fp = fopen(path, "wb");
		struct session *s;

		cr_assert_not_null(fp);
		if (cut > 0)
			fwrite(bytes, 1, cut, fp);
		fclose(fp);
		s = session_open(path, &(struct session_opts){ .no_index = cut % 7 != 0 }, &err);
		if (s == NULL) {
			cr_assert_neq(err.msg[0], '\0', "cut %zu: failed without a message", cut);
			cr_assert_lt(cut, data_off, "cut %zu inside the data failed to open: %s", cut,
			    err.msg);
			continue;
		}
		cr_assert_leq(session_counts(s)->total, session_counts(full)->total, "cut %zu", cut);
		if (cut >= data_off && cut < data_end) {
			size_t whole = 0;

			while (whole < nstarts && starts[whole] <= cut)
				whole++;
			cr_assert_geq(session_counts(s)->total, whole, "cut %zu: %llu records, %zu lie before it",
			    cut, (unsigned long long)session_counts(s)->total, whole);
			cr_assert(session_info(s).damaged, "cut %zu: damage not flagged", cut);
		}
		session_close(s);
	}
	unlink(path);
	free(path);
	free(starts);
	free(bytes);
	session_close(full);
}

/* Pipe-mode fixture read through standard input gives the same counts. */
Test(fixtures, pipe_from_stdin)
{
	struct session *a, *b;
	struct perf_err err;
	int fd, saved;

	if (!file_exists(test_data("pipe.data")))
		cr_skip_test("no pipe.data fixture");
	a = open_fixture("pipe.data");
	cr_assert_eq(session_info(a).mode, SESSION_PIPE);
	fd = open(test_data("pipe.data"), O_RDONLY);
	cr_assert_geq(fd, 0);
	saved = dup(0);
	dup2(fd, 0);
	close(fd);
	b = session_open("-", NULL, &err);
	dup2(saved, 0);
	close(saved);
	cr_assert_not_null(b, "%s", err.msg);
	cr_assert_eq(memcmp(session_counts(a), session_counts(b), sizeof *session_counts(a)), 0);
	cr_assert_eq(session_attrs(a)->n, session_attrs(b)->n);
	session_close(a);
	session_close(b);
}

Test(fixtures, directory_mode)
{
	struct session *s;

	if (!file_exists(test_data("dir.data")))
		cr_skip_test("no dir.data fixture");
	s = open_fixture("dir.data");
	cr_assert_eq(session_info(s).mode, SESSION_DIR);
	cr_assert_gt(session_nfiles(s), 1);
	cr_assert(session_features(s)->sec[PF_FEAT_DIR_FORMAT].present);
	cr_assert_gt(session_counts(s)->by_type[PF_REC_SAMPLE], 0);
	session_close(s);
}

Test(fixtures, zstd_records_have_identity)
{
	struct session *s;
	size_t inner = 0;

	if (!file_exists(test_data("zstd.data")))
		cr_skip_test("no zstd.data fixture");
	s = open_fixture("zstd.data");
	cr_assert_gt(session_counts(s)->by_type[PF_REC_COMPRESSED], 0);
	cr_assert_gt(session_info(s).nzchunks, 0);
	for (size_t i = 0; i < session_index(s)->n; i++) {
		uint64_t loc = ent_loc(index_ent(session_index(s), i));
		const struct zchunk *z;
		struct rec r, c;

		if (loc < SESSION_ZLOC)
			continue;
		inner++;
		z = session_zorigin(s, loc);
		cr_assert_not_null(z);
		cr_assert_eq(session_rec(s, loc, &r), 0);
		cr_assert_eq(session_rec(s, z->container, &c), 0);
		cr_assert_eq(c.type, PF_REC_COMPRESSED);
		cr_assert_leq(z->zoff, loc - SESSION_ZLOC);
	}
	cr_assert_gt(inner, 0);
	cr_assert_eq(inner, session_info(s).nr_containers_records);
	session_close(s);
}

/* A big-endian copy of a real recording decodes to the same tables. */
static void
check_swapped(const char *name)
{
	size_t len;
	char *bytes = slurp(test_data(name), &len);
	struct pdbuf sw;
	struct session *a, *b;
	struct perf_err err;
	char *path;

	cr_assert_not_null(bytes, "%s missing", name);
	cr_assert_eq(swap_perf_file((const uint8_t *)bytes, len, &sw), 0, "%s: cannot swap", name);
	path = tmp_write("swapped", sw.p, sw.len);
	a = open_fixture(name);
	b = session_open(path, NULL, &err);
	cr_assert_not_null(b, "%s swapped: %s", name, err.msg);
	cr_assert_eq(session_info(b).swap, true);
	cr_assert_eq(session_attrs(a)->n, session_attrs(b)->n);
	for (size_t i = 0; i < session_attrs(a)->n; i++) {
		cr_assert_eq(memcmp(&session_attrs(a)->v[i].attr, &session_attrs(b)->v[i].attr, sizeof session_attrs(a)->v[i].attr),
		    0, "%s: attr %zu differs", name, i);
		cr_assert_eq(session_attrs(a)->v[i].nids, session_attrs(b)->v[i].nids);
		cr_assert_str_eq(session_attr_name(a, (int)i), session_attr_name(b, (int)i));
	}
	cr_assert_eq(memcmp(session_counts(a), session_counts(b), sizeof *session_counts(a)), 0, "%s: counts differ", name);
	cr_assert_eq(session_index(a)->n, session_index(b)->n);
	for (size_t i = 0; i < session_index(a)->n; i++) {
		cr_assert_eq(index_ent(session_index(a), i)->time, index_ent(session_index(b), i)->time, "%s: entry %zu", name, i);
		cr_assert_eq(index_ent(session_index(a), i)->loc, index_ent(session_index(b), i)->loc, "%s: entry %zu", name, i);
		struct ent_who x = session_ent_who(a, i), y = session_ent_who(b, i);

		cr_assert(x.cpu == y.cpu && x.pid == y.pid && x.tid == y.tid, "%s: entry %zu", name, i);
	}
	cr_assert_eq(session_threads(a)->n, session_threads(b)->n);
	cr_assert_eq(session_threads(a)->nmaps, session_threads(b)->nmaps);
	for (size_t i = 0; i < session_threads(a)->nmaps; i++) {
		cr_assert_eq(session_threads(a)->maps[i].start, session_threads(b)->maps[i].start);
		cr_assert_eq(session_threads(a)->maps[i].pgoff, session_threads(b)->maps[i].pgoff);
		cr_assert_eq(session_threads(a)->maps[i].ino, session_threads(b)->maps[i].ino);
	}
	cr_assert_not_null(session_features(b)->hostname);
	cr_assert_str_eq(session_features(a)->hostname, session_features(b)->hostname);
	cr_assert_str_eq(session_features(a)->osrelease, session_features(b)->osrelease);
	cr_assert_eq(session_features(a)->nr_cpus_online, session_features(b)->nr_cpus_online);
	cr_assert_eq(session_features(a)->total_mem, session_features(b)->total_mem);
	cr_assert_eq(session_features(a)->cmdline_n, session_features(b)->cmdline_n);
	/* Samples decode to the same values, callchains included. */
	for (size_t i = 0; i < session_index(a)->n; i++) {
		struct rec ra, rb;
		struct sample sa, sb;
		const char *why;

		if (ent_type(index_ent(session_index(a), i)) != PF_REC_SAMPLE)
			continue;
		cr_assert_eq(session_rec(a, ent_loc(index_ent(session_index(a), i)), &ra), 0);
		cr_assert_eq(session_rec(b, ent_loc(index_ent(session_index(b), i)), &rb), 0);
		cr_assert_eq(record_decode_sample(session_attrs(a), &ra, &sa, &why), 0);
		cr_assert_eq(record_decode_sample(session_attrs(b), &rb, &sb, &why), 0);
		cr_assert_eq(sa.ip, sb.ip);
		cr_assert_eq(sa.period, sb.period);
		cr_assert_eq(sa.callchain_nr, sb.callchain_nr);
		for (uint64_t k = 0; k < sa.callchain_nr; k++)
			cr_assert_eq(sample_callchain_ip(&sa, k), sample_callchain_ip(&sb, k));
	}
	session_close(a);
	session_close(b);
	unlink(path);
	free(path);
	pd_free(&sw);
	free(bytes);
}

Test(fixtures, byte_swapped_plain)
{
	check_swapped("plain.data");
}

Test(fixtures, byte_swapped_callchains)
{
	check_swapped("fp.data");
}

/* A zstd stream that fails to decompress: a diagnostic at the container,
 * every record before it kept, no crash. */
Test(fixtures, zstd_corrupt_stream)
{
	size_t len;
	char *bytes = slurp(test_data("zstd.data"), &len);
	struct session *good, *bad;
	struct perf_err err;
	uint64_t first = 0, before = 0;
	char *path;

	cr_assert_not_null(bytes);
	good = open_fixture("zstd.data");
	/* the first COMPRESSED record, and how many records precede it */
	for (uint64_t pos = session_file(good, 0)->data_off; pos < session_file(good, 0)->data_end;) {
		struct rec r;

		cr_assert_eq(session_rec(good, pos, &r), 0);
		if (r.type == PF_REC_COMPRESSED) {
			first = pos;
			break;
		}
		before++;
		pos += r.size;
	}
	cr_assert_gt(first, 0);
	/* garble the middle of its payload */
	for (size_t i = 0; i < 16; i++)
		bytes[first + 24 + i] ^= 0x5a;
	path = tmp_write("zbad", bytes, len);
	bad = session_open(path, NULL, &err);
	cr_assert_not_null(bad, "%s", err.msg);
	cr_assert(session_info(bad).damaged);
	cr_assert_geq(session_diags(bad)->n, 1);
	{
		bool at_container = false;

		for (size_t i = 0; i < session_diags(bad)->n; i++)
			if (session_diags(bad)->v[i].offset == first && strstr(session_diags(bad)->v[i].msg, "zstd"))
				at_container = true;
		cr_assert(at_container, "no zstd diagnostic at 0x%llx", (unsigned long long)first);
	}
	cr_assert_geq(session_counts(bad)->total, before + 1);
	cr_assert_lt(session_info(bad).nr_containers_records, session_info(good).nr_containers_records);
	session_close(bad);
	session_close(good);
	unlink(path);
	free(path);
	free(bytes);
}

/* Loading reports its progress, and stops where the callback asks. */
struct prog {
	uint64_t	calls, last_done, total;
	bool		monotonic, stop;
};

static int
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct prog *p = arg;

	if (done < p->last_done)
		p->monotonic = false;
	p->calls++;
	p->last_done = done;
	p->total = total;
	return p->stop;
}

Test(fixtures, load_progress_and_cancel)
{
	struct prog p = { .monotonic = true };
	struct session_opts o = { .progress = on_progress, .progress_arg = &p };
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), &o, &err);
	uint64_t all;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_geq(p.calls, 2, "a first report and the final one");
	cr_assert(p.monotonic);
	cr_assert_eq(p.last_done, p.total, "the last report says done");
	cr_assert_eq(p.total, session_file(s, 0)->data_end - session_file(s, 0)->data_off);
	cr_assert_eq(session_info(s).cancelled, false);
	all = session_counts(s)->total;
	session_close(s);

	/* stop at the first report: the session opens with what it read */
	p = (struct prog){ .monotonic = true, .stop = true };
	s = session_open(test_data("fp.data"), &o, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(session_info(s).cancelled);
	cr_assert_eq(p.calls, 1);
	cr_assert_lt(session_counts(s)->total, all);
	session_close(s);
}

/*
 * With stop_abandons, a stop asked by the progress callback gives no
 * session but PERF_E_STOPPED (the browser's q while loading), in one walk
 * and with the data indexed in two parts (the part is stopped too).
 */
Test(fixtures, load_stop_abandons)
{
	struct prog p = { .monotonic = true, .stop = true };
	struct session_opts o = { .progress = on_progress, .progress_arg = &p, .keep_who = true,
		.stop_abandons = true };
	struct perf_err err;

	for (int split = 0; split < 2; split++) {
		struct session *s;

		if (split)
			setenv("PERFNAV_LOAD_SPLIT_MIN", "0", 1);
		p = (struct prog){ .monotonic = true, .stop = true };
		memset(&err, 0, sizeof err);
		s = session_open(test_data("fp.data"), &o, &err);
		unsetenv("PERFNAV_LOAD_SPLIT_MIN");
		cr_assert_null(s, "split %d: no session once stopped", split);
		cr_assert_eq(err.code, PERF_E_STOPPED, "split %d: %s", split, err.msg);
		cr_assert_eq(p.calls, 1, "split %d: stopped at the first report", split);
	}
	/* a callback that never stops: the same load as without the option, its
	 * reports never going back (both halves of a split walk counted) */
	for (int split = 0; split < 2; split++) {
		struct session *s;

		if (split)
			setenv("PERFNAV_LOAD_SPLIT_MIN", "0", 1);
		p = (struct prog){ .monotonic = true };
		s = session_open(test_data("fp.data"), &o, &err);
		unsetenv("PERFNAV_LOAD_SPLIT_MIN");
		cr_assert_not_null(s, "%s", err.msg);
		cr_assert_eq(session_info(s).cancelled, false);
		cr_assert_eq(session_info(s).load_split, (unsigned)split, "split %d", split);
		cr_assert(p.monotonic, "split %d", split);
		cr_assert_eq(p.last_done, p.total);
		session_close(s);
	}
}
