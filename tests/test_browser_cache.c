/*
 * Criterion tests of the browser's finished hist kept in the cache
 * (tui/symbols.c with symbols.cache, symbolize/hist_cache.c's rows part):
 * a second open reads it back and its rows, call paths (top-down and
 * bottom-up), each sample's row and period and the scope recount (a time
 * range, a selection) are a fresh open's; a touched recording, another
 * version, a changed symbol file or a damaged file are not used (the
 * rows made afresh, the same).  Perf-made fixtures, a temporary cache
 * directory.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist_cache.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"
#include "tui/cmd/cmd.h"
#include "tui/symbols.h"

struct fx {
	char		 dir[64];	/* the cache directory */
	char		 bid[64];	/* a copy of the fixtures' build-id cache */
	char		*rec;		/* a copy of a recording */
	struct sym_opts	 so;
	struct common_opts co;
};

static void
fx_init(struct fx *f, const char *fixture)
{
	cache_fixture(f->dir, f->bid, sizeof f->dir, &f->rec, &f->so, fixture, "bcache");
	memset(&f->co, 0, sizeof f->co);
	f->co.input = f->rec;
}

static void
fx_fini(struct fx *f)
{
	cache_fixture_free(f->dir, f->bid, f->rec);
}

/* One call-path tree of event ev: every node, its function's name and counts. */
static void
dump_tree(FILE *fp, struct hist *h, size_t ev, bool bottom_up)
{
	struct cpath_query q;
	struct cpath *t;
	char name[512];

	memset(&q, 0, sizeof q);
	q.ev = ev;
	q.entry = CPATH_NONE;
	q.bottom_up = bottom_up;
	t = cpath_build(h, &q);
	cr_assert_not_null(t);
	fprintf(fp, "tree %zu %d: %zu nodes\n", ev, bottom_up, cpath_count(t));
	for (size_t i = 0; i < cpath_count(t); i++) {
		const struct cpath_node *n = cpath_node(t, (uint32_t)i);

		fprintf(fp, "%u %u %s %llu %llu %llu %llu\n", n->parent, n->depth,
		    n->func == CPATH_NONE ? "-" : cpath_func_name(h, n->func, name, sizeof name),
		    (unsigned long long)n->self_period, (unsigned long long)n->self_samples,
		    (unsigned long long)n->total_period, (unsigned long long)n->total_samples);
	}
	cpath_free(t);
}

/* What the panes read of h: rows, both trees per event, each sample's entry and period. */
static char *
dump(struct hist *h, const struct session *s)
{
	char *out = NULL, key[512];
	size_t len = 0, npos = session_index(s)->n;
	FILE *fp = open_memstream(&out, &len);

	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		hh_dump_event(fp, h, ev);
		dump_tree(fp, h, ev, false);
		dump_tree(fp, h, ev, true);
	}
	for (size_t p = 0; p < npos; p++) {
		uint32_t e = hist_sample_entry(h, p);

		if (e == UINT32_MAX)
			continue;
		fprintf(fp, "pos %zu %u %llu %s %s\n", p, e, (unsigned long long)hist_sample_period(h, p),
		    hist_key_text(h, hist_entry_get(h, e), HIST_KEY_SYM, key, sizeof key),
		    hist_scope_has(h, p) ? "in" : "out");
	}
	fclose(fp);
	return out;
}

/* The dumps after recounts: the middle of the recording's time, then one comm's samples. */
static char *
dump_recounted(struct hist *h, const struct session *s)
{
	const struct rec_index *ix = session_index(s);
	uint64_t t0 = ix->n ? index_ent(ix, 0)->time : 0, t1 = ix->n ? index_ent(ix, ix->n - 1)->time : 0;
	struct filter_range r = { t0 + (t1 - t0) / 4, t1 - (t1 - t0) / 4 };
	struct hist_filter f = { 0 };
	struct hist_select sel = { 0 };
	char *a, *b, *out = NULL;
	size_t len = 0;
	FILE *fp;

	f.time = &r;
	f.ntime = 1;
	cr_assert_eq(hist_rescope(h, &f), 0, "the browser's hist recounts");
	a = dump(h, s);
	sel.by_comm = true;
	sel.comm = hist_entry_get(h, 0)->comm;
	cr_assert_eq(hist_rescope_sel(h, NULL, &sel), 0);
	b = dump(h, s);
	hist_rescope(h, NULL);
	fp = open_memstream(&out, &len);
	fprintf(fp, "%s--- one comm ---\n%s", a, b);
	fclose(fp);
	free(a);
	free(b);
	return out;
}

/*
 * Open f's recording as the browser does with the cache: its symbols
 * resolved on the workers (two parts when parallel), the dumps of its
 * hist before and after recounts in *d and *rd; *cached whether the hist
 * came from the cache.  The kept hist is written before it returns.
 */
static void
open_browser(struct fx *f, const char *version, bool parallel, char **d, char **rd, bool *cached)
{
	struct session_opts sopts = { .keep_going = true, .keep_who = true, .cache_dir = f->dir,
		.cache_version = version };
	struct perf_err err;
	struct session *s = session_open(f->rec, &sopts, &err);
	struct symbols *sy;

	cr_assert_not_null(s, "%s", err.msg);
	if (session_cache_status(s).state != SESSION_CACHE_HIT)
		cr_assert_eq(session_cache_save(s, &err), 0, "%s", err.msg);
	setenv("PERFNAV_PARALLEL_MIN", parallel ? "0" : "1000000000", 1);
	sy = symbols_new(s, &f->so, NULL);
	sy->cache = &f->co;
	symbols_start(sy);
	symbols_wait(sy);
	unsetenv("PERFNAV_PARALLEL_MIN");
	symbols_cache_wait(sy);
	*cached = sy->cached;
	*d = dump(sy->h, s);
	*rd = dump_recounted(sy->h, s);
	symbols_free(sy);
	session_close(s);
}

/* The first open (parallel or not) keeps the hist; the second reads it; both show the same. */
static void
assert_same_panes(const char *fixture, bool parallel)
{
	struct fx f;
	char *d1, *r1, *d2, *r2;
	bool c1, c2;

	fx_init(&f, fixture);
	open_browser(&f, "1", parallel, &d1, &r1, &c1);
	open_browser(&f, "1", parallel, &d2, &r2, &c2);
	cr_assert_not(c1, "%s: nothing kept before the first open", fixture);
	cr_assert(c2, "%s: the second open reads the kept hist", fixture);
	cr_assert_gt(strlen(d1), 200, "%s: rows to compare", fixture);
	cr_assert_not_null(strstr(d1, "pos "), "%s: samples to compare", fixture);
	cr_assert_str_eq(d2, d1, "%s", fixture);
	cr_assert_str_eq(r2, r1, "%s", fixture);
	cr_assert_str_neq(r1, d1, "%s: the recount changes something", fixture);
	free(d1);
	free(r1);
	free(d2);
	free(r2);
	fx_fini(&f);
}

Test(browser_cache, a_second_open_shows_the_first_opens_panes)
{
	static const char *const fixtures[] = { "fp.data", "multi.data", "fork.data", "plain.data",
		"nest.data", "group.data" };

	for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
		assert_same_panes(fixtures[i], false);
}

Test(browser_cache, a_hist_merged_from_two_workers_is_kept_the_same)
{
	assert_same_panes("fp.data", true);
	assert_same_panes("multi.data", true);
}

/* The agg-*.pnc file of f's cache directory. */
static char *
aux_file(const struct fx *f)
{
	char cmd[256], *line = NULL;
	size_t cap = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd, "ls %s/agg-*.pnc", f->dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	cr_assert_gt(getline(&line, &cap, p), 0);
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/* A file a DSO of the fixture's rows loaded its symbols from, in the build-id copy. */
static char *
a_symbol_file(struct fx *f)
{
	struct session_opts sopts = { .keep_going = true };
	struct perf_err err;
	struct session *s = session_open(f->rec, &sopts, &err);
	struct symbols *sy;
	char *found = NULL;

	cr_assert_not_null(s, "%s", err.msg);
	sy = symbols_new(s, &f->so, NULL);
	symbols_run(sy);
	for (size_t d = 0; d < symbolizer_ndsos(sy->z) && found == NULL; d++) {
		struct sym_dso_state st;

		symbolizer_dso_state(sy->z, (uint32_t)d, &st);
		if (st.symfile != NULL && strncmp(st.symfile, f->bid, strlen(f->bid)) == 0 &&
		    st.nsyms > 0)
			found = strdup(st.symfile);
	}
	symbols_free(sy);
	session_close(s);
	cr_assert_not_null(found, "a DSO resolved from the build-id cache");
	return found;
}

Test(browser_cache, what_changed_is_not_used_and_the_panes_stay_right)
{
	struct timespec ts[2] = { { 3000000, 0 }, { 3000000, 0 } };
	struct fx f;
	char *want, *rwant, *d, *r, *sym, *aux;
	bool c;
	int fd;

	fx_init(&f, "fp.data");
	sym = a_symbol_file(&f);
	open_browser(&f, "1", false, &want, &rwant, &c);
	/* another version: not used, made and kept again for it */
	open_browser(&f, "2", false, &d, &r, &c);
	cr_assert_not(c);
	cr_assert_str_eq(d, want);
	free(d);
	free(r);
	open_browser(&f, "2", false, &d, &r, &c);
	cr_assert(c);
	free(d);
	free(r);
	/* a symbol file touched: not used; the rows as before */
	cr_assert_eq(utimensat(AT_FDCWD, sym, ts, 0), 0);
	open_browser(&f, "2", false, &d, &r, &c);
	cr_assert_not(c, "a changed symbol file");
	cr_assert_str_eq(d, want);
	cr_assert_str_eq(r, rwant);
	free(d);
	free(r);
	/* the file damaged (a byte of its payload's rows): refused, made afresh */
	open_browser(&f, "2", false, &d, &r, &c);
	cr_assert(c);
	free(d);
	free(r);
	aux = aux_file(&f);
	fd = open(aux, O_RDWR);
	cr_assert_geq(fd, 0);
	{
		struct stat st;
		uint8_t b;

		cr_assert_eq(fstat(fd, &st), 0);
		cr_assert_eq(pread(fd, &b, 1, st.st_size - 3), 1);
		b ^= 0x40;
		cr_assert_eq(pwrite(fd, &b, 1, st.st_size - 3), 1);
	}
	close(fd);
	open_browser(&f, "2", false, &d, &r, &c);
	cr_assert_not(c, "a damaged file");
	cr_assert_str_eq(d, want);
	free(d);
	free(r);
	/* the recording touched: its index and hist are stale */
	cr_assert_eq(utimensat(AT_FDCWD, f.rec, ts, 0), 0);
	open_browser(&f, "2", false, &d, &r, &c);
	cr_assert_not(c, "a touched recording");
	cr_assert_str_eq(d, want);
	free(d);
	free(r);
	free(aux);
	free(sym);
	free(want);
	free(rwant);
	fx_fini(&f);
}

/* A payload of the browser's hist of fp.data, damaged byte by byte: refused, stale or the same. */
Test(browser_cache, a_damaged_rows_part_is_refused_never_trusted)
{
	struct session_opts sopts = { .keep_going = true, .keep_who = true };
	struct perf_err err;
	struct fx f;
	struct session *s;
	struct symbols *sy;
	struct symbolizer *z;
	struct hist *h;
	uint8_t *p, *c;
	size_t len, refused = 0;
	const uint8_t *rows;

	fx_init(&f, "fp.data");
	s = session_open(f.rec, &sopts, &err);
	cr_assert_not_null(s, "%s", err.msg);
	sy = symbols_new(s, &f.so, NULL);
	symbols_run(sy);
	p = hist_cache_pack(sy->h, &len);
	cr_assert_not_null(p, "the browser's hist packs");
	rows = memmem(p, len, "PNROWS3\n", 8);
	cr_assert_not_null(rows, "with its rows part");
	z = symbolizer_new(s, &f.so);
	cr_assert_eq(hist_cache_unpack(s, z, hist_opts(sy->h), p, len, &h, &err), HIST_CACHE_OK,
	    "%s", err.msg);
	hist_free(h);
	/* cut in its rows */
	cr_assert_eq(hist_cache_unpack(s, z, hist_opts(sy->h), p, len - 8, &h, &err),
	    HIST_CACHE_REFUSED);
	cr_assert_null(h);
	c = malloc(len);
	for (size_t i = (size_t)(rows - p); i < len; i += 5) {
		memcpy(c, p, len);
		c[i] ^= 0x81;
		if (hist_cache_unpack(s, z, hist_opts(sy->h), c, len, &h, &err) == HIST_CACHE_OK) {
			hist_finish(h);
			free(dump(h, s));
			hist_free(h);
		} else {
			refused++;
			cr_assert_neq(err.offset, PERF_ERR_OFF_NONE);
			cr_assert_lt(err.offset, len);
		}
	}
	cr_assert_gt(refused, 0);
	free(c);
	free(p);
	symbolizer_free(z);
	symbols_free(sy);
	session_close(s);
	fx_fini(&f);
}

/*
 * A hist read back makes its tables of ids on first use: samples added to
 * it again find its entries, nodes, paths and rows, as they do in the hist
 * it was packed from.
 */
Test(browser_cache, a_kept_hist_finds_its_ids_when_added_to)
{
	struct session_opts sopts = { .keep_going = true, .keep_who = true };
	struct hist_opts o = { .nkeys = 4, .keys = { HIST_KEY_COMM, HIST_KEY_TID, HIST_KEY_DSO,
		HIST_KEY_SYM }, .children = true, .chain_root_first = true, .paths = true,
		.record_self = true, .event = -1, .max_stack = HIST_DEFAULT_MAX_STACK };
	struct perf_err err;
	struct fx f;
	struct session *s;
	struct symbolizer *z;
	struct hist *h, *g;
	uint8_t *p;
	size_t len;
	char *want, *got;

	fx_init(&f, "fp.data");
	s = session_open(f.rec, &sopts, &err);
	cr_assert_not_null(s, "%s", err.msg);
	z = symbolizer_new(s, &f.so);
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	p = hist_cache_pack(h, &len);
	cr_assert_not_null(p);
	hist_add_session(h, NULL);
	hist_finish(h);
	want = dump(h, s);
	cr_assert_eq(hist_cache_unpack(s, z, &o, p, len, &g, &err), HIST_CACHE_OK, "%s", err.msg);
	hist_add_session(g, NULL);
	hist_finish(g);
	got = dump(g, s);
	cr_assert_str_eq(got, want);
	free(want);
	free(got);
	free(p);
	hist_free(g);
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
	fx_fini(&f);
}
