/*
 * Criterion tests of symbolize/hist_cache.c and the aux files of
 * core/session_cache.c: a finished hist kept in a cache directory (a
 * temporary one) and made again gives a fresh hist's rows; other options,
 * another state of the recording or of a symbol file, another version:
 * not used; a damaged payload or file: refused.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/hist_cache.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

struct fx {
	char		 dir[64];	/* the cache directory */
	char		 bid[64];	/* a copy of the fixtures' build-id cache */
	char		*rec;		/* a copy of a recording */
	struct sym_opts	 so;
};

static void
fx_init(struct fx *f, const char *fixture)
{
	cache_fixture(f->dir, f->bid, sizeof f->dir, &f->rec, &f->so, fixture, "hcache");
}

static void
fx_fini(struct fx *f)
{
	cache_fixture_free(f->dir, f->bid, f->rec);
}

static struct session *
fx_open(struct fx *f, const char *version)
{
	struct session_opts so = { .keep_going = true, .cache_dir = f->dir,
		.cache_version = version };
	struct perf_err err;
	struct session *s = session_open(f->rec, &so, &err);

	cr_assert_not_null(s, "%s", err.msg);
	return s;
}

/* A fresh, finished hist of s over z. */
static struct hist *
fresh(const struct session *s, struct symbolizer *z, const struct hist_opts *o)
{
	struct hist *h = hist_new(s, z, o);

	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* Every row of every event of h, every key's text and count, and the failure counts. */
static char *
dump(struct hist *h)
{
	const struct hist_why *w;
	char *out = NULL;
	size_t len = 0, nw;
	FILE *fp = open_memstream(&out, &len);

	for (size_t ev = 0; ev < hist_nevents(h); ev++)
		hh_dump_event(fp, h, ev);
	nw = hist_whys(h, &w);
	for (size_t i = 0; i < nw; i++) {
		fprintf(fp, "why %u", w[i].dso);
		for (unsigned r = 0; r < SYM_WHY_COUNT; r++)
			fprintf(fp, " %llu/%llu", (unsigned long long)w[i].self[r],
			    (unsigned long long)w[i].chain[r]);
		fputc('\n', fp);
	}
	fclose(fp);
	return out;
}

struct in_place {
	struct hist_pack	*k;
	const struct hist	*h;
	bool			 zeroed;	/* dst was zeroed when given */
};

static void
fill_in_place(void *dst, size_t len, void *arg)
{
	struct in_place *ip = arg;
	const uint8_t *b = dst;

	ip->zeroed = true;
	for (size_t i = 0; i < len; i++)
		ip->zeroed = ip->zeroed && b[i] == 0;
	hist_cache_pack_fill(ip->k, ip->h, dst);
	ip->k = NULL;
}

/* The payload of the aux file sub of s, as read back: equal to want's len bytes? */
static bool
kept_payload_is(const struct session *s, uint64_t sub, const void *want, size_t len)
{
	struct perf_err err;
	uint64_t base;
	char *path;
	void *p;
	size_t n;
	bool same;

	cr_assert_eq(session_cache_aux_read(s, sub, SIZE_MAX, &p, &n, &base, &path, &err), 1, "%s",
	    err.msg);
	same = n == len && memcmp(p, want, len) == 0;
	session_cache_aux_free(p, n, base);
	free(path);
	return same;
}

/*
 * Open (a fresh load: the index entry saved), build, keep the hist as the
 * browser and the subcommands do (packed straight into the file's pages);
 * the bytes are hist_cache_pack's.  Its dump.
 */
static char *
keep(struct fx *f, const struct hist_opts *o, const char *version)
{
	struct session *s = fx_open(f, version);
	struct symbolizer *z = symbolizer_new(s, &f->so);
	struct hist *h = fresh(s, z, o);
	struct perf_err err;
	size_t len;
	void *p = hist_cache_pack(h, &len);
	char *d = dump(h);
	struct in_place ip;

	if (p == NULL) {	/* perf's entry tree: children by sym over DWARF stacks */
		cr_assert(o->children && strstr(f->rec, "hcache") != NULL);
		hist_free(h);
		symbolizer_free(z);
		session_close(s);
		free(d);
		return NULL;
	}
	cr_assert_eq(session_cache_save(s, &err), 0, "%s", err.msg);
	ip.h = h;
	ip.k = hist_cache_pack_start(h);
	cr_assert_eq(hist_cache_pack_size(ip.k, h), len);
	cr_assert_eq(session_cache_aux_fill(s, hist_cache_sub(hist_opts(h), &f->so), len,
	    fill_in_place, &ip, &err), 0, "%s", err.msg);
	cr_assert_null(ip.k);
	cr_assert(ip.zeroed);
	cr_assert(kept_payload_is(s, hist_cache_sub(hist_opts(h), &f->so), p, len));
	free(p);
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
	return d;
}

/*
 * Open again and read the kept hist: the aux file's result (1, 0, -1) in
 * *rc, the unpacking's returned (HIST_CACHE_STALE when nothing was read),
 * *dumped the hist's dump when made.
 */
static enum hist_cache_result
again(struct fx *f, const struct hist_opts *o, const char *version, int *rc, char **dumped,
    struct perf_err *err)
{
	struct session *s = fx_open(f, version);
	struct symbolizer *z = symbolizer_new(s, &f->so);
	enum hist_cache_result r = HIST_CACHE_STALE;
	struct hist *h = NULL;
	uint64_t base;
	char *path;
	void *p;
	size_t len;

	*dumped = NULL;
	*rc = session_cache_aux_read(s, hist_cache_sub(o, &f->so), SIZE_MAX, &p, &len, &base,
	    &path, err);
	if (*rc > 0)
		r = hist_cache_unpack(s, z, o, p, len, &h, err);
	if (h != NULL) {
		hist_finish(h);
		*dumped = dump(h);
		hist_free(h);
	}
	session_cache_aux_free(p, len, base);
	free(path);
	symbolizer_free(z);
	session_close(s);
	return r;
}

static void
assert_same_rows(const char *fixture, const struct hist_opts *o)
{
	struct fx f;
	struct perf_err err;
	char *want, *got;
	int rc;

	fx_init(&f, fixture);
	want = keep(&f, o, "1");
	if (want == NULL) {
		/* not kept: then not read either */
		cr_assert_str_eq(fixture, "dwarf.data");
		cr_assert_eq(again(&f, o, "1", &rc, &got, &err), HIST_CACHE_STALE);
		fx_fini(&f);
		return;
	}
	cr_assert_eq(again(&f, o, "1", &rc, &got, &err), HIST_CACHE_OK, "%s: %s", fixture,
	    err.msg);
	cr_assert_eq(rc, 1);
	cr_assert_not_null(got);
	cr_assert_gt(strlen(want), 100, "%s: rows to compare", fixture);
	cr_assert_str_eq(got, want, "%s", fixture);
	free(want);
	free(got);
	fx_fini(&f);
}

static const char *const fixtures[] = { "fp.data", "multi.data", "fork.data", "group.data",
	"dwarf.data", "plain.data", "nest.data" };

Test(hist_cache, the_kept_hist_gives_a_fresh_ones_rows_children)
{
	struct hist_opts o = { .children = true, .chain_root_first = true, .event = -1,
		.max_stack = HIST_DEFAULT_MAX_STACK };

	for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
		assert_same_rows(fixtures[i], &o);
}

Test(hist_cache, the_kept_hist_gives_a_fresh_ones_rows_self_and_other_keys)
{
	struct hist_opts o = { .event = -1, .max_stack = HIST_DEFAULT_MAX_STACK, .nkeys = 5,
		.keys = { HIST_KEY_COMM, HIST_KEY_TID, HIST_KEY_DSO, HIST_KEY_SYM, HIST_KEY_CPU } };
	struct hist_opts sym = { .children = true, .event = -1, .max_stack = 3, .nkeys = 1,
		.keys = { HIST_KEY_SYM } };

	for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
		assert_same_rows(fixtures[i], &o);
		assert_same_rows(fixtures[i], &sym);
	}
}

Test(hist_cache, what_cannot_be_kept_is_not)
{
	struct fx f;
	struct session *s;
	struct hist_opts o = { .event = -1, .paths = true };
	struct hist_opts k = { .event = -1, .nkeys = 1, .keys = { HIST_KEY_SRCLINE } };
	struct hist_opts ok = { .event = -1 };

	fx_init(&f, "fp.data");
	s = fx_open(&f, "1");
	cr_assert_not(hist_cache_able(s, &o));
	cr_assert_not(hist_cache_able(s, &k));
	cr_assert(hist_cache_able(s, &ok));
	session_close(s);
	fx_fini(&f);
}

Test(hist_cache, other_options_are_not_used)
{
	struct fx f;
	struct perf_err err;
	struct hist_opts o = { .children = true, .event = -1, .max_stack = 127 };
	struct hist_opts other = o;
	char *want, *got;
	int rc;

	fx_init(&f, "fp.data");
	want = keep(&f, &o, "1");
	other.children = false;
	cr_assert_neq(hist_cache_sub(&o, &f.so), hist_cache_sub(&other, &f.so));
	cr_assert_eq(again(&f, &other, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, 0);	/* another file name: none */
	other = o;
	other.max_stack = 4;
	cr_assert_eq(again(&f, &other, "1", &rc, &got, &err), HIST_CACHE_STALE);
	/* other symbol options: another digest */
	{
		struct sym_opts so = f.so;

		so.no_demangle = true;
		cr_assert_neq(hist_cache_sub(&o, &so), hist_cache_sub(&o, &f.so));
		so = f.so;
		so.symfs = "/nonexistent";
		cr_assert_neq(hist_cache_sub(&o, &so), hist_cache_sub(&o, &f.so));
	}
	/* DEBUGINFOD_URLS empty is none, as unset (perf sets it empty for its children) */
	{
		struct sym_opts so = f.so;
		uint64_t unset, empty;

		so.no_debuginfod = false;
		unsetenv("DEBUGINFOD_URLS");
		unset = hist_cache_sub(&o, &so);
		setenv("DEBUGINFOD_URLS", "", 1);
		empty = hist_cache_sub(&o, &so);
		setenv("DEBUGINFOD_URLS", "http://localhost:1", 1);
		cr_assert_eq(unset, empty);
		cr_assert_neq(hist_cache_sub(&o, &so), unset);
		unsetenv("DEBUGINFOD_URLS");
	}
	/* another version: the file is there, keyed for the other */
	cr_assert_eq(again(&f, &o, "2", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, 0);
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_OK, "%s", err.msg);
	free(got);
	free(want);
	fx_fini(&f);
}

Test(hist_cache, a_touched_recording_is_not_used)
{
	struct fx f;
	struct perf_err err;
	struct hist_opts o = { .children = true, .event = -1, .max_stack = 127 };
	struct timespec ts[2] = { { 1000000, 0 }, { 1000000, 0 } };
	char *want, *got;
	int rc;

	fx_init(&f, "fp.data");
	want = keep(&f, &o, "1");
	cr_assert_eq(utimensat(AT_FDCWD, f.rec, ts, 0), 0);
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, 0);
	free(want);
	fx_fini(&f);
}

/* The file a DSO of fp.data's rows loaded its symbols from, in the build-id copy. */
static char *
a_symbol_file(struct fx *f)
{
	struct session *s = fx_open(f, "1");
	struct symbolizer *z = symbolizer_new(s, &f->so);
	struct hist_opts o = { .event = -1 };
	struct hist *h = fresh(s, z, &o);
	char *found = NULL;

	for (size_t d = 0; d < symbolizer_ndsos(z) && found == NULL; d++) {
		struct sym_dso_state st;

		symbolizer_dso_state(z, (uint32_t)d, &st);
		if (st.symfile != NULL && strncmp(st.symfile, f->bid, strlen(f->bid)) == 0 &&
		    st.nsyms > 0)
			found = strdup(st.symfile);
	}
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
	cr_assert_not_null(found, "a DSO resolved from the build-id cache");
	return found;
}

Test(hist_cache, a_changed_symbol_file_gives_a_rebuild)
{
	struct fx f;
	struct perf_err err;
	struct hist_opts o = { .children = true, .event = -1, .max_stack = 127 };
	struct timespec ts[2] = { { 2000000, 0 }, { 2000000, 0 } };
	char *want, *got, *sym;
	int rc;

	fx_init(&f, "fp.data");
	sym = a_symbol_file(&f);
	want = keep(&f, &o, "1");
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_OK, "%s", err.msg);
	free(got);
	/* the same bytes, another mtime: stale */
	cr_assert_eq(utimensat(AT_FDCWD, sym, ts, 0), 0);
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, 1);
	cr_assert_null(got);
	/* kept again: used */
	free(want);
	want = keep(&f, &o, "1");
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_OK, "%s", err.msg);
	free(got);
	/* gone: stale too */
	cr_assert_eq(unlink(sym), 0);
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	free(want);
	free(sym);
	fx_fini(&f);
}

/* The aux file of f's cache directory. */
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

static void
flip(const char *path, off_t off, off_t cut)
{
	int fd = open(path, O_RDWR);
	uint8_t b;

	cr_assert_geq(fd, 0);
	if (cut > 0) {
		cr_assert_eq(ftruncate(fd, cut), 0);
	} else {
		cr_assert_eq(pread(fd, &b, 1, off), 1);
		b ^= 0x10;
		cr_assert_eq(pwrite(fd, &b, 1, off), 1);
	}
	close(fd);
}

Test(hist_cache, a_damaged_file_is_refused)
{
	struct fx f;
	struct perf_err err;
	struct hist_opts o = { .children = true, .event = -1, .max_stack = 127 };
	struct stat st;
	char *want, *got, *aux;
	int rc;

	fx_init(&f, "fp.data");
	want = keep(&f, &o, "1");
	aux = aux_file(&f);
	cr_assert_eq(stat(aux, &st), 0);
	flip(aux, st.st_size - 10, 0);	/* in the payload */
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, -1);
	cr_assert_not_null(strstr(err.msg, "checksum"), "%s", err.msg);
	cr_assert_neq(err.offset, PERF_ERR_OFF_NONE);
	free(want);
	want = keep(&f, &o, "1");	/* written again over it */
	flip(aux, 0, st.st_size - 100);
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, -1);
	cr_assert_not_null(strstr(err.msg, "truncated"), "%s", err.msg);
	free(want);
	want = keep(&f, &o, "1");
	cr_assert_eq(chmod(aux, 0666), 0);
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, -1);
	cr_assert_not_null(strstr(err.msg, "not this user's alone"), "%s", err.msg);
	cr_assert_eq(chmod(aux, 0600), 0);
	free(want);
	/* of another generation (its magic's digit changed): stale without a word */
	want = keep(&f, &o, "1");
	flip(aux, 6, 0);
	err.msg[0] = '\0';
	cr_assert_eq(again(&f, &o, "1", &rc, &got, &err), HIST_CACHE_STALE);
	cr_assert_eq(rc, 0, "%s", err.msg);
	free(want);
	free(aux);
	fx_fini(&f);
}

/* A payload of fp.data's hist, and the session and symbolizer to unpack it with. */
struct pay {
	struct fx		 f;
	struct session		*s;
	struct symbolizer	*z;
	uint8_t			*p;
	size_t			 len;
};

static void
pay_make(struct pay *y, const struct hist_opts *o)
{
	struct hist *h;

	fx_init(&y->f, "fp.data");
	y->s = fx_open(&y->f, "1");
	y->z = symbolizer_new(y->s, &y->f.so);
	h = fresh(y->s, y->z, o);
	y->p = hist_cache_pack(h, &y->len);
	cr_assert_not_null(y->p);
	hist_free(h);
}

static void
pay_free(struct pay *y)
{
	free(y->p);
	symbolizer_free(y->z);
	session_close(y->s);
	fx_fini(&y->f);
}

Test(hist_cache, a_damaged_payload_is_refused_with_its_offset)
{
	struct hist_opts o = { .children = true, .event = -1, .max_stack = 127 };
	struct pay y;
	struct perf_err err;
	struct hist *h;
	uint32_t big = UINT32_MAX - 5;
	uint8_t *c;

	pay_make(&y, &o);
	/* as packed: made */
	cr_assert_eq(hist_cache_unpack(y.s, y.z, &o, y.p, y.len, &h, &err), HIST_CACHE_OK, "%s",
	    err.msg);
	hist_free(h);
	/* cut */
	cr_assert_eq(hist_cache_unpack(y.s, y.z, &o, y.p, y.len - 8, &h, &err),
	    HIST_CACHE_REFUSED);
	cr_assert_null(h);
	cr_assert_not_null(strstr(err.msg, "counts"), "%s", err.msg);
	/* the last record (a DSO state) naming a DSO out of bounds */
	c = malloc(y.len);
	memcpy(c, y.p, y.len);
	memcpy(c + y.len - 104, &big, 4);
	cr_assert_eq(hist_cache_unpack(y.s, y.z, &o, c, y.len, &h, &err), HIST_CACHE_REFUSED);
	cr_assert_eq(err.offset, y.len - 104, "offset %llx", (unsigned long long)err.offset);
	/* one DSO's state twice (the last two records: fp.data's rows name several DSOs) */
	memcpy(c, y.p, y.len);
	memcpy(c + y.len - 208, c + y.len - 104, 104);
	cr_assert_eq(hist_cache_unpack(y.s, y.z, &o, c, y.len, &h, &err), HIST_CACHE_REFUSED);
	cr_assert_eq(err.offset, y.len - 104, "offset %llx: %s", (unsigned long long)err.offset,
	    err.msg);
	cr_assert_not_null(strstr(err.msg, "second state"), "%s", err.msg);
	/* another magic */
	memcpy(c, y.p, y.len);
	c[0] ^= 1;
	cr_assert_eq(hist_cache_unpack(y.s, y.z, &o, c, y.len, &h, &err), HIST_CACHE_REFUSED);
	/* every byte flipped in turn: refused, stale or made, never a crash */
	for (size_t i = 0; i < y.len; i += 7) {
		memcpy(c, y.p, y.len);
		c[i] ^= 0x81;
		if (hist_cache_unpack(y.s, y.z, &o, c, y.len, &h, &err) == HIST_CACHE_OK) {
			hist_finish(h);
			free(dump(h));
			hist_free(h);
		}
	}
	free(c);
	pay_free(&y);
}

static void
fill_ones(void *dst, size_t len, void *arg)
{
	(void)arg;
	memset(dst, 1, len);
}

/*
 * A payload written in place whose file cannot get its room (here: over
 * the process's file size limit; a full disk is the same) is an error
 * naming the file, not a fault in the writes, and leaves no file behind.
 */
Test(hist_cache, a_payload_without_room_is_an_error_not_a_fault)
{
	struct fx f;
	struct session *s;
	struct perf_err err;
	struct rlimit rl = { 1 << 20, 1 << 20 };

	fx_init(&f, "fp.data");
	s = fx_open(&f, "1");
	cr_assert_eq(session_cache_save(s, &err), 0, "%s", err.msg);
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	cr_assert_eq(session_cache_aux_fill(s, 7, 4 << 20, fill_ones, NULL, &err), -1);
	cr_assert(strstr(err.msg, f.dir) != NULL && strstr(err.msg, ".tmp.") != NULL, "%s", err.msg);
	cr_assert_eq(dir_files_with(f.dir, "agg-"), 0);
	/* within the limit: written */
	cr_assert_eq(session_cache_aux_fill(s, 7, 4096, fill_ones, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dir_files_with(f.dir, "agg-"), 1);
	session_close(s);
	fx_fini(&f);
}
