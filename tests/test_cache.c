/*
 * Criterion tests of core/session_cache.c: a session's index kept in a
 * cache directory (a temporary one) and adopted again, and every way an
 * entry must not be trusted: a changed recording, another version, a
 * damaged file, a directory or file not the user's alone.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "tests/helpers.h"

struct fx {
	char	 dir[64];	/* the cache directory */
	char	*rec;		/* a copy of a recording */
	char	*entry;		/* the entry's path once an open said it */
};

static void
fx_init(struct fx *f, const char *fixture)
{
	char *buf;
	size_t n;

	snprintf(f->dir, sizeof f->dir, "/tmp/pn-cache-XXXXXX");
	cr_assert_not_null(mkdtemp(f->dir));
	buf = slurp(test_data(fixture), &n);
	cr_assert_not_null(buf, "%s", test_data(fixture));
	f->rec = tmp_write("cache", buf, n);
	free(buf);
	f->entry = NULL;
}

static void
fx_fini(struct fx *f)
{
	char cmd[256];

	unlink(f->rec);
	free(f->rec);
	free(f->entry);
	snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", f->dir, f->dir);
	cr_assert_eq(system(cmd), 0);
}

static struct session *
fx_open(struct fx *f, const char *version, bool keep_who, enum session_cache_state want)
{
	struct session_opts so = { .keep_going = true, .keep_who = keep_who,
		.cache_dir = f->dir, .cache_version = version };
	struct perf_err err;
	struct session *s = session_open(f->rec, &so, &err);
	struct session_cache_status st;

	cr_assert_not_null(s, "%s", err.msg);
	st = session_cache_status(s);
	cr_assert_eq(st.state, want, "cache state %s, wanted %s (%s)",
	    session_cache_state_name(st.state), session_cache_state_name(want), st.err.msg);
	if (f->entry == NULL && st.path != NULL)
		f->entry = strdup(st.path);
	return s;
}

/* Open with a cache (state want), save its entry, close. */
static void
fx_save(struct fx *f, const char *version, enum session_cache_state want)
{
	struct session *s = fx_open(f, version, false, want);
	struct perf_err err;

	cr_assert(session_cache_status(s).savable);
	cr_assert_eq(session_cache_save(s, &err), 0, "%s", err.msg);
	session_close(s);
}

/* s holds what a load without a cache gives. */
static void
assert_same_load(const struct fx *f, const struct session *s)
{
	struct perf_err err;
	struct session_opts so = { .keep_going = true };
	struct session *r = session_open(f->rec, &so, &err);
	const struct rec_index *a = session_index(r), *b = session_index(s);
	const struct thread_table *ta = session_threads(r), *tb = session_threads(s);

	cr_assert_not_null(r, "%s", err.msg);
	cr_assert_eq(a->n, b->n);
	cr_assert_eq(a->n_untimed, b->n_untimed);
	for (size_t i = 0; i < a->n; i++) {
		struct ent_who wa = session_ent_who(r, i), wb = session_ent_who(s, i);

		cr_assert_eq(memcmp(index_ent(a, i), index_ent(b, i), sizeof(struct rec_ent)), 0,
		    "entry %zu", i);
		cr_assert(wa.cpu == wb.cpu && wa.pid == wb.pid && wa.tid == wb.tid, "who %zu", i);
	}
	cr_assert_eq(memcmp(session_counts(r), session_counts(s), sizeof(struct type_counts)), 0);
	for (size_t i = 0; i < session_attrs(r)->n; i++) {
		const struct type_counts *ca = session_attr_counts(r, i), *cb = session_attr_counts(s, i);

		cr_assert_eq(ca == NULL, cb == NULL);
		if (ca != NULL)
			cr_assert_eq(memcmp(ca, cb, sizeof *ca), 0);
		cr_assert_str_eq(session_attrs(r)->v[i].name, session_attrs(s)->v[i].name);
	}
	cr_assert_eq(ta->n, tb->n);
	cr_assert_eq(ta->ncomms, tb->ncomms);
	cr_assert_eq(ta->nmaps, tb->nmaps);
	cr_assert_eq(session_file(r, 0)->nrecords, session_file(s, 0)->nrecords);
	session_close(r);
}

Test(cache, second_open_adopts_the_same_index)
{
	struct fx f;
	struct session *s;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	cr_assert_not(session_cache_status(s).savable);
	assert_same_load(&f, s);
	session_close(s);
	/* without keep_who too, as the subcommands open */
	s = fx_open(&f, "1", false, SESSION_CACHE_HIT);
	cr_assert_not(index_has_who(session_index(s)));
	assert_same_load(&f, s);
	session_close(s);
	fx_fini(&f);
}

Test(cache, save_on_a_thread)
{
	struct fx f;
	struct session *s;
	struct perf_err err;

	fx_init(&f, "fp.data");
	s = fx_open(&f, "1", true, SESSION_CACHE_MISS);
	cr_assert_eq(session_cache_save_start(s), 0);
	cr_assert_eq(session_cache_save_wait(s, &err), 0, "%s", err.msg);
	session_close(s);
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	session_close(s);
	fx_fini(&f);
}

/* The file /proc/self/maps names for the mapping holding p ("" if anonymous). */
static void
mapped_file(const void *p, char *out, size_t n)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[4096];

	cr_assert_not_null(fp);
	out[0] = 0;
	while (fgets(line, sizeof line, fp) != NULL) {
		unsigned long lo, hi;
		int at = 0;

		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &at) < 2 ||
		    (uintptr_t)p < lo || (uintptr_t)p >= hi)
			continue;
		snprintf(out, n, "%s", line + at);
		out[strcspn(out, "\n")] = 0;
		break;
	}
	fclose(fp);
}

/* Does the mapping of every page of [p, p + len) name the file path? */
static bool
mapped_from(const void *p, size_t len, const char *path)
{
	char got[4096];

	for (size_t off = 0; off < len; off += 4096) {
		mapped_file((const char *)p + off, got, sizeof got);
		if (strcmp(got, path) != 0)
			return false;
	}
	mapped_file((const char *)p + len - 1, got, sizeof got);
	return strcmp(got, path) == 0;
}

struct reader {
	const struct rec_index	*ix;
	volatile bool		 stop;
	bool			 changed;
	unsigned long		 rounds;
};

/* Sum the index's entries and who over and over until told to stop. */
static void *
read_index(void *arg)
{
	struct reader *r = arg;
	uint64_t first = 0;

	do {
		uint64_t sum = 0;

		for (size_t i = 0; i < r->ix->n; i++)
			sum = sum * 31 + index_ent(r->ix, i)->time + r->ix->who[i];
		if (r->rounds++ == 0)
			first = sum;
		else if (sum != first)
			r->changed = true;
	} while (!r->stop);
	return NULL;
}

Test(cache, a_saved_index_is_read_from_the_entrys_pages)
{
	struct fx f;
	struct session *s;
	struct perf_err err;
	const struct rec_index *ix;
	struct reader rd = { 0 };
	pthread_t th;
	void *v, *who;

	fx_init(&f, "fp.data");
	s = fx_open(&f, "1", true, SESSION_CACHE_MISS);
	ix = session_index(s);
	cr_assert(ix->n > 100 && ix->who != NULL, "%zu entries", ix->n);
	cr_assert_not(mapped_from(ix->v, ix->n * sizeof *ix->v, f.entry));
	v = malloc(ix->n * sizeof *ix->v);
	who = malloc(ix->n * 8);
	memcpy(v, ix->v, ix->n * sizeof *ix->v);
	memcpy(who, ix->who, ix->n * 8);
	/* a reader on another thread all along sees the same bytes */
	rd.ix = ix;
	cr_assert_eq(pthread_create(&th, NULL, read_index, &rd), 0);
	while (__atomic_load_n(&rd.rounds, __ATOMIC_RELAXED) < 2)
		usleep(100);
	cr_assert_eq(session_cache_save_start(s), 0);
	cr_assert_eq(session_cache_save_wait(s, &err), 0, "%s", err.msg);
	rd.stop = true;
	pthread_join(th, NULL);
	cr_assert_not(rd.changed);
	/* the tables now live in the entry's pages, with the same bytes */
	cr_assert(mapped_from(ix->v, ix->n * sizeof *ix->v, f.entry), "entries not from %s", f.entry);
	cr_assert(mapped_from(ix->who, ix->n * 8, f.entry), "who not from %s", f.entry);
	cr_assert_eq(memcmp(v, ix->v, ix->n * sizeof *ix->v), 0);
	cr_assert_eq(memcmp(who, ix->who, ix->n * 8), 0);
	assert_same_load(&f, s);
	session_close(s);
	free(v);
	free(who);
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	assert_same_load(&f, s);
	session_close(s);
	fx_fini(&f);
}

/* An index not kept (over the bound) is spilled: read from a file of the directory never named. */
Test(cache, a_spilled_index_is_read_from_a_file_never_named)
{
	struct fx f;
	struct session *s;
	struct perf_err err;
	const struct rec_index *ix;
	char got[4096], *slash;

	fx_init(&f, "fp.data");
	s = fx_open(&f, "1", true, SESSION_CACHE_MISS);
	ix = session_index(s);
	cr_assert_eq(session_cache_spill_start(s), 0);
	cr_assert_eq(session_cache_save_wait(s, &err), 0, "%s", err.msg);
	cr_assert_eq(dir_files_with(f.dir, NULL), 0, "nothing named in the directory");
	mapped_file(ix->v, got, sizeof got);
	slash = strrchr(got, '/');
	cr_assert_not_null(slash, "entries mapped from '%s'", got);
	cr_assert(strncmp(got, f.dir, strlen(f.dir)) == 0 && strstr(got, "(deleted)") != NULL,
	    "entries mapped from '%s'", got);
	cr_assert(mapped_from(ix->v, ix->n * sizeof *ix->v, got));
	cr_assert(mapped_from(ix->who, ix->n * 8, got));
	assert_same_load(&f, s);
	session_close(s);
	/* not an entry: the next open loads afresh */
	s = fx_open(&f, "1", true, SESSION_CACHE_MISS);
	session_close(s);
	fx_fini(&f);
}

Test(cache, a_touched_recording_is_stale)
{
	struct fx f;
	struct timespec ts[2] = { { 1000000, 0 }, { 1000000, 0 } };
	struct session *s;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	cr_assert_eq(utimensat(AT_FDCWD, f.rec, ts, 0), 0);
	fx_save(&f, "1", SESSION_CACHE_STALE);	/* rebuilt and kept again */
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	assert_same_load(&f, s);
	session_close(s);
	fx_fini(&f);
}

Test(cache, a_changed_recording_of_the_same_size_and_mtime_is_stale)
{
	struct fx f;
	struct stat st;
	struct timespec ts[2];
	struct session *s;
	uint8_t byte;
	int fd;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	cr_assert_eq(stat(f.rec, &st), 0);
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	/* a byte of the header's first block: what the content hash reads */
	fd = open(f.rec, O_RDWR);
	cr_assert_eq(pread(fd, &byte, 1, 200), 1);
	byte ^= 0x40;
	cr_assert_eq(pwrite(fd, &byte, 1, 200), 1);
	close(fd);
	cr_assert_eq(utimensat(AT_FDCWD, f.rec, ts, 0), 0);
	s = fx_open(&f, "1", true, SESSION_CACHE_STALE);
	session_close(s);
	fx_fini(&f);
}

Test(cache, another_version_is_stale)
{
	struct fx f;
	struct session *s;

	fx_init(&f, "fp.data");
	fx_save(&f, "0.1.0", SESSION_CACHE_MISS);
	s = fx_open(&f, "0.2.0", true, SESSION_CACHE_STALE);
	assert_same_load(&f, s);
	session_close(s);
	fx_fini(&f);
}

/* Change the entry's file: at off, xor with x, or cut it to len (x 0). */
static void
damage(const char *path, off_t off, uint8_t x, off_t len)
{
	int fd = open(path, O_RDWR);
	uint8_t b;

	cr_assert_geq(fd, 0);
	if (x == 0) {
		cr_assert_eq(ftruncate(fd, len), 0);
	} else {
		cr_assert_eq(pread(fd, &b, 1, off), 1);
		b ^= x;
		cr_assert_eq(pwrite(fd, &b, 1, off), 1);
	}
	close(fd);
}

static void
assert_refused(struct fx *f, const char *words, bool at_offset)
{
	struct session *s = fx_open(f, "1", true, SESSION_CACHE_REFUSED);
	struct session_cache_status st = session_cache_status(s);

	cr_assert_not_null(strstr(st.err.msg, words), "message: %s", st.err.msg);
	cr_assert_eq(st.err.offset != PERF_ERR_OFF_NONE, at_offset, "offset %llx",
	    (unsigned long long)st.err.offset);
	assert_same_load(f, s);	/* loaded afresh */
	session_close(s);
}

/*
 * An entry of another generation of the layout (an older perfnav's: its
 * magic's digit) is stale, rebuilt without a message; a magic of no perfnav
 * is refused.
 */
Test(cache, another_generation_is_stale_and_another_magic_refused)
{
	struct fx f;
	struct session *s;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	damage(f.entry, 6, 0x03, 0);	/* PNIDXC2 -> PNIDXC1 */
	s = fx_open(&f, "1", true, SESSION_CACHE_STALE);
	cr_assert_eq(session_cache_status(s).err.msg[0], '\0', "%s", session_cache_status(s).err.msg);
	assert_same_load(&f, s);
	session_close(s);
	fx_save(&f, "1", SESSION_CACHE_STALE);
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	session_close(s);
	damage(f.entry, 2, 0x20, 0);	/* PNiDXC2: no perfnav's */
	assert_refused(&f, "not a perfnav cache file", true);
	fx_fini(&f);
}

Test(cache, a_truncated_entry_is_refused)
{
	struct fx f;
	struct stat st;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	cr_assert_eq(stat(f.entry, &st), 0);
	damage(f.entry, 0, 0, st.st_size - 100);
	assert_refused(&f, "truncated", true);
	damage(f.entry, 0, 0, 40);
	assert_refused(&f, "shorter than a cache header", true);
	fx_fini(&f);
}

Test(cache, a_flipped_bit_is_refused_and_the_entry_rebuilt)
{
	struct fx f;
	struct stat st;
	struct session *s;
	struct perf_err err;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	cr_assert_eq(stat(f.entry, &st), 0);
	damage(f.entry, st.st_size / 2, 0x10, 0);	/* in the entries */
	assert_refused(&f, "checksum", true);
	s = fx_open(&f, "1", true, SESSION_CACHE_REFUSED);
	cr_assert(session_cache_status(s).savable);
	cr_assert_eq(session_cache_save(s, &err), 0, "%s", err.msg);
	session_close(s);
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	session_close(s);
	/* and in the header */
	damage(f.entry, 100, 0x01, 0);
	assert_refused(&f, "checksum", true);
	fx_fini(&f);
}

Test(cache, an_entry_not_the_users_alone_is_refused)
{
	struct fx f;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	cr_assert_eq(chmod(f.entry, 0644 | S_IWOTH), 0);
	assert_refused(&f, "not this user's alone", false);
	cr_assert_eq(chmod(f.entry, 0600), 0);
	if (geteuid() == 0) {
		cr_assert_eq(chown(f.entry, 1, 1), 0);
		assert_refused(&f, "owned by uid 1", false);
		cr_assert_eq(chown(f.entry, 0, 0), 0);
	}
	cr_assert_eq(chmod(f.dir, 0777), 0);
	{
		struct session *s = fx_open(&f, "1", true, SESSION_CACHE_REFUSED);

		cr_assert_not_null(strstr(session_cache_status(s).err.msg, "writable by group or others"));
		cr_assert_not(session_cache_status(s).savable);	/* nothing written there */
		session_close(s);
	}
	cr_assert_eq(chmod(f.dir, 0700), 0);
	fx_fini(&f);
}

/* An entry's image in memory, for session_cache_check. */
static uint8_t *
read_entry(const char *path, size_t *n)
{
	struct stat st;
	uint8_t *p;
	int fd = open(path, O_RDONLY);

	cr_assert_eq(fstat(fd, &st), 0);
	p = malloc((size_t)st.st_size);
	cr_assert_eq(read(fd, p, (size_t)st.st_size), st.st_size);
	close(fd);
	*n = (size_t)st.st_size;
	return p;
}

Test(cache, a_sealed_image_is_still_checked_entry_by_entry)
{
	struct fx f;
	struct session *s;
	struct perf_err err;
	uint64_t off, loc;
	uint8_t *img;
	size_t n;

	fx_init(&f, "fp.data");
	fx_save(&f, "1", SESSION_CACHE_MISS);
	s = fx_open(&f, "1", true, SESSION_CACHE_HIT);
	img = read_entry(f.entry, &n);
	cr_assert_eq(session_cache_check(s, img, n, true, &err), 0, "%s", err.msg);
	/* the first entry, where the image has it */
	off = 0;
	{
		const struct rec_ent *e0 = index_ent(session_index(s), 0);

		for (size_t i = 0; i + 16 <= n; i += 8)
			if (memcmp(img + i, e0, 16) == 0) {
				off = i;
				break;
			}
	}
	cr_assert_neq(off, 0);
	/* a loc past the recording, sealed: checked, refused */
	memcpy(&loc, img + off + 8, 8);
	loc = (loc & ~ENT_LOC_MASK) | (UINT64_C(1) << 40);
	memcpy(img + off + 8, &loc, 8);
	session_cache_seal(img, n);
	cr_assert_eq(session_cache_check(s, img, n, true, &err), -1);
	cr_assert_not_null(strstr(err.msg, "outside the recording"), "%s", err.msg);
	cr_assert_eq(err.offset, off);
	/* a later time first: out of order */
	free(img);
	img = read_entry(f.entry, &n);
	memset(img + off, 0xff, 8);
	session_cache_seal(img, n);
	cr_assert_eq(session_cache_check(s, img, n, true, &err), -1);
	cr_assert_not_null(strstr(err.msg, "time order"), "%s", err.msg);
	free(img);
	session_close(s);
	fx_fini(&f);
}

Test(cache, a_damaged_recording_is_not_kept)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;
	char dir[] = "/tmp/pn-cache-XXXXXX", *path;
	struct session_opts so = { .keep_going = true, .cache_dir = dir, .cache_version = "1" };

	cr_assert_not_null(mkdtemp(dir));
	synth_file(&b, false, 10);
	pd_put16(&b, synth_layout.data_off + 6, 3);	/* the first record's size: damage */
	path = tmp_write("cache", b.p, b.len);
	s = session_open(path, &so, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert(session_info(s).damaged);
	cr_assert_not(session_cache_status(s).savable);
	session_close(s);
	unlink(path);
	free(path);
	pd_free(&b);
	rmdir(dir);
}

Test(cache, standard_input_and_no_cache_are_off)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;
	struct session_mem m;

	synth_file(&b, false, 10);
	m.base = b.p;
	m.size = b.len;
	s = session_open_mem("mem", &m, 1, NULL, &err);
	cr_assert_not_null(s);
	cr_assert_eq(session_cache_status(s).state, SESSION_CACHE_OFF);
	cr_assert_eq(session_cache_save(s, &err), 0);	/* nothing to save */
	session_close(s);
	pd_free(&b);
}
