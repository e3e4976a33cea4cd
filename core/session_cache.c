/*
 * session_cache.c: a loaded session's index kept in a cache file and
 * mapped back in place (session_cache.h; the layout in docs/cache.md).
 *
 * A file is a header (struct chdr) and six sections, each 8-aligned, in
 * this order: the index entries (16 bytes each), who per entry (8), the
 * record counts, the counts per attr, the locs of the records to replay
 * and the recording's path.  The header holds the key, the counts, each
 * section's offset, length and checksum, and a checksum of itself.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/bytes.h"
#include "core/index.h"
#include "core/sample_read.h"
#include "core/session_cache.h"
#include "core/session_int.h"

/*
 * The magics end in their layout's generation: a file of another (an older
 * perfnav's, or one with other checksums) is stale, rebuilt without a word.
 */
#define CACHE_MAGIC	"PNIDXC2\n"
#define CACHE_ENDIAN	UINT32_C(0x01020304)
#define AUX_MAGIC	"PNAGGC2\n"
#define AUX_PREFIX	"agg-"

enum { SEC_ENT, SEC_WHO, SEC_COUNTS, SEC_ACOUNTS, SEC_REPLAY, SEC_PATH, SEC_N };

static const char *const sec_names[SEC_N] = {
	"index entries", "who per entry", "record counts", "counts per event", "replayed records",
	"recording path",
};

struct csec {
	uint64_t	off, len, sum;
};

/*
 * What an index entry's file (struct chdr) and an aux file (struct ahdr)
 * begin with: its layout, then the recording's key (cfile_set,
 * cfile_key_matches).
 */
struct cfile {
	char		magic[8];
	uint32_t	endian;
	uint32_t	hdr_size;
	uint64_t	file_size;
	uint64_t	hdr_sum;	/* of the header with this field 0 */
	/* the key */
	uint64_t	dev, ino, size, mtime_s, mtime_ns, content;
	char		version[32];
};

struct chdr {
	struct cfile	f;
	/* the session */
	uint64_t	n, n_untimed, nrecords, nattrs, nattr_counts, nreplay, path_len;
	uint64_t	counts_size;	/* sizeof(struct type_counts) */
	struct csec	sec[SEC_N];
};
_Static_assert(sizeof(struct chdr) % 8 == 0, "the header keeps sections 8-aligned");

struct session_cache {
	char			*dir, *name, *path;
	char			 version[32];
	uint64_t		 content;	/* the recording's content hash */
	enum session_cache_state state;
	struct perf_err		 err;
	bool			 clean;		/* the load can be kept */
	bool			 dir_bad;	/* the directory is not safely the user's */
	/* the adopted entry, mapped */
	void			*map;
	size_t			 map_len;
	/* a save on a thread of its own */
	pthread_t		 th;
	bool			 th_on;
	bool			 th_spill;	/* the thread's save: session_cache_spill */
	int			 th_rc;
	struct perf_err		 th_err;
};

/* ---- checksums and the recording's content hash ---- */

/* A magic of want's kind from another generation of its layout. */
static bool
other_generation(const char magic[8], const char *want)
{
	return memcmp(magic, want, 6) == 0 && magic[6] != want[6] && magic[7] == '\n';
}

/* A checksum of n bytes: libxxhash's XXH3 (several GB/s: the reopen reads its files through it). */
static uint64_t
csum(const void *p, size_t n, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, n, seed);
}

#define CONTENT_BLOCK	4096u
#define CONTENT_BLOCKS	32u

/* The recording's header and blocks spread evenly over it, and its size. */
static uint64_t
content_hash(const uint8_t *base, uint64_t size)
{
	uint64_t h = csum(base, size < CONTENT_BLOCK ? size : CONTENT_BLOCK, size);

	if (size <= CONTENT_BLOCK)
		return h;
	for (uint64_t i = 1; i <= CONTENT_BLOCKS; i++) {
		uint64_t off = (size - CONTENT_BLOCK) / CONTENT_BLOCKS * i;

		h = csum(base + off, CONTENT_BLOCK, h);
	}
	return h;
}

static uint64_t
hdr_sum(const struct chdr *h)
{
	struct chdr c = *h;

	c.f.hdr_sum = 0;
	return csum(&c, sizeof c, 0x5eed);
}

/* ---- opening the directory and the file ---- */

int
session_cache_dir_ok(int dirfd, const char *dir, struct perf_err *err)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
		    "%s: not a directory", dir);
	if (st.st_uid != geteuid())
		return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
		    "%s: cache directory owned by uid %lu, not by this user: not used", dir,
		    (unsigned long)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
		    "%s: cache directory writable by group or others (mode %03o): not used", dir,
		    (unsigned)(st.st_mode & 0777));
	return 0;
}

static int
open_dir(const char *dir, struct perf_err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", dir,
		    strerror(errno));
	if (session_cache_dir_ok(fd, dir, err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

bool
session_cache_file_name(const char *name, bool *tmp)
{
	size_t n = strlen(name);

	*tmp = false;
	if ((strncmp(name, "idx-", 4) != 0 && strncmp(name, AUX_PREFIX, 4) != 0) ||
	    n < 4 + 16 + 4 ||
	    strspn(name + 4, "0123456789abcdef") != 16 || strncmp(name + 20, ".pnc", 4) != 0)
		return false;
	if (name[24] == '\0')
		return true;
	*tmp = strncmp(name + 24, ".tmp", 4) == 0;
	return *tmp;
}

/* ---- checking an image ---- */

static int
bad(struct perf_err *err, uint64_t off, const char *what)
{
	return perf_err_set(err, PERF_E_BAD_HEADER, off, "%s", what);
}

/* The header's sizes and the sections' bounds (nothing past it is read). */
static int
check_bounds(const struct chdr *h, size_t len, struct perf_err *err)
{
	const uint64_t elem[SEC_N] = { sizeof(struct rec_ent), sizeof(uint64_t),
		sizeof(struct type_counts), sizeof(struct type_counts), sizeof(uint64_t), 1 };
	const uint64_t count[SEC_N] = { h->n, h->n, 1, h->nattr_counts, h->nreplay, h->path_len };
	uint64_t at = sizeof *h;

	if (h->f.file_size != len)
		return perf_err_set(err, PERF_E_TRUNCATED, len,
		    "%zu bytes where the header says %llu: truncated or grown", len,
		    (unsigned long long)h->f.file_size);
	if (h->counts_size != sizeof(struct type_counts))
		return bad(err, offsetof(struct chdr, counts_size), "record counts of another size");
	for (int i = 0; i < SEC_N; i++) {
		const struct csec *c = &h->sec[i];
		uint64_t where = offsetof(struct chdr, sec) + (uint64_t)i * sizeof *c;

		if (c->off % 8 != 0 || c->off < at || c->off > len || c->len > len - c->off)
			return perf_err_set(err, PERF_E_BAD_HEADER, where,
			    "the %s lie out of the file's bounds", sec_names[i]);
		if (count[i] > c->len / elem[i] || count[i] * elem[i] != c->len)
			return perf_err_set(err, PERF_E_BAD_HEADER, where,
			    "the %s do not match their count", sec_names[i]);
		at = c->off + c->len;
	}
	if (h->n_untimed > h->n || h->n > h->nrecords)
		return bad(err, offsetof(struct chdr, n_untimed), "counts of entries that do not add up");
	return 0;
}

static int
check_sums(const struct chdr *h, const uint8_t *img, struct perf_err *err)
{
	for (int i = 0; i < SEC_N; i++)
		if (csum(img + h->sec[i].off, h->sec[i].len, (uint64_t)i) != h->sec[i].sum)
			return perf_err_set(err, PERF_E_BAD_HEADER, h->sec[i].off,
			    "the %s do not match their checksum", sec_names[i]);
	return 0;
}

/* Is loc a place a record of s could start at (8 bytes of header within its data)? */
static bool
loc_ok(const struct session *s, uint64_t loc)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];

		if (loc >= f->vbase + f->data_off && f->data_end >= 8 &&
		    loc <= f->vbase + f->data_end - 8)
			return true;
	}
	return false;
}

/* The entries and replayed locs: within the data, attrs known, in time order. */
static int
check_entries(const struct session *s, const struct chdr *h, const uint8_t *img,
    struct perf_err *err)
{
	const uint8_t *ents = img + h->sec[SEC_ENT].off, *rp = img + h->sec[SEC_REPLAY].off;
	uint64_t last = 0;

	for (uint64_t i = 0; i < h->n; i++) {
		struct rec_ent e;

		memcpy(&e, ents + i * sizeof e, sizeof e);
		if (!loc_ok(s, ent_loc(&e)) || ent_type(&e) == 0 ||
		    (ent_attr(&e) != ENT_ATTR_NONE && ent_attr(&e) >= s->attrs.n))
			return bad(err, h->sec[SEC_ENT].off + i * sizeof e, "an index entry outside the recording's records or events");
		if (e.time < last)
			return bad(err, h->sec[SEC_ENT].off + i * sizeof e, "index entries out of time order");
		last = e.time;
	}
	for (uint64_t i = 0; i < h->nreplay; i++) {
		uint64_t loc;

		memcpy(&loc, rp + i * 8, 8);
		if (!loc_ok(s, loc))
			return bad(err, h->sec[SEC_REPLAY].off + i * 8, "a replayed record outside the recording's records");
	}
	return 0;
}

static int
check_image(const struct session *s, const void *img, size_t len, bool sums, struct chdr *h,
    struct perf_err *err)
{
	if (len < sizeof *h)
		return perf_err_set(err, PERF_E_TRUNCATED, len,
		    "%zu bytes: shorter than a cache header (%zu)", len, sizeof *h);
	memcpy(h, img, sizeof *h);
	if (memcmp(h->f.magic, CACHE_MAGIC, 8) != 0)
		return bad(err, 0, "not a perfnav cache file");
	if (h->f.endian != CACHE_ENDIAN || h->f.hdr_size != sizeof *h)
		return bad(err, 8, "a cache file of another layout or byte order");
	if (sums && hdr_sum(h) != h->f.hdr_sum)
		return bad(err, offsetof(struct chdr, f.hdr_sum), "the header does not match its checksum");
	if (check_bounds(h, len, err) < 0)
		return -1;
	if (sums && check_sums(h, img, err) < 0)
		return -1;
	if (h->nattrs != s->attrs.n || h->nattr_counts > s->attrs.n)
		return bad(err, offsetof(struct chdr, nattrs), "counts for events the recording does not have");
	return check_entries(s, h, img, err);
}

int
session_cache_check(const struct session *s, const void *img, size_t len, bool sums,
    struct perf_err *err)
{
	struct chdr h;

	return check_image(s, img, len, sums, &h, err);
}

void
session_cache_seal(void *img, size_t len)
{
	struct chdr h;
	uint8_t *p = img;
	bool ok = true;

	if (len < sizeof h)
		return;
	memcpy(&h, p, sizeof h);
	for (int i = 0; i < SEC_N; i++)
		ok = ok && h.sec[i].off <= len && h.sec[i].len <= len - h.sec[i].off;
	for (int i = 0; i < SEC_N && ok; i++)
		h.sec[i].sum = csum(p + h.sec[i].off, h.sec[i].len, (uint64_t)i);
	h.f.hdr_sum = hdr_sum(&h);
	memcpy(p, &h, sizeof h);
}

/* ---- the session's entry ---- */

void
session_cache_begin(struct session *s, const struct session_opts *opts)
{
	struct session_cache *c;
	uint64_t h;

	if (opts == NULL || opts->cache_dir == NULL)
		return;
	c = s->cache = xcalloc(1, sizeof *c);
	c->dir = xstrdup(opts->cache_dir);
	if (opts->cache_version != NULL)
		snprintf(c->version, sizeof c->version, "%s", opts->cache_version);
	c->state = SESSION_CACHE_OFF;
	if (opts->no_index || s->mode != SESSION_FILE || s->nfiles != 1 || !s->files[0].mapped ||
	    !s->id_ok || s->from_stdin || s->files[0].size == 0)
		return;
	c->content = content_hash(s->files[0].base, s->files[0].size);
	h = hash_mix64(s->id_dev * UINT64_C(0x9e3779b97f4a7c15) ^ hash_mix64(s->id_ino));
	if (asprintf(&c->name, "idx-%016llx.pnc", (unsigned long long)h) < 0 ||
	    asprintf(&c->path, "%s/%s", c->dir, c->name) < 0)
		fatal_oom(0);
	c->state = SESSION_CACHE_MISS;
}

static bool
refuse(struct session_cache *c, const struct perf_err *e)
{
	c->state = SESSION_CACHE_REFUSED;
	c->err = *e;
	return false;
}

/* Is a cache file's header (checked) keyed for s as it is now? */
static bool
cfile_key_matches(const struct session *s, const struct cfile *f)
{
	const struct session_cache *c = s->cache;

	return f->dev == s->id_dev && f->ino == s->id_ino && f->size == s->files[0].size &&
	    f->mtime_s == s->id_mtime_s && f->mtime_ns == s->id_mtime_ns &&
	    f->content == c->content && memcmp(f->version, c->version, sizeof c->version) == 0;
}

/* A cache file's header start for s: magic, layout (hdr_size bytes of header), key. */
static void
cfile_set(const struct session *s, struct cfile *f, const char *magic, uint32_t hdr_size)
{
	const struct session_cache *c = s->cache;

	memcpy(f->magic, magic, 8);
	f->endian = CACHE_ENDIAN;
	f->hdr_size = hdr_size;
	f->dev = s->id_dev;
	f->ino = s->id_ino;
	f->size = s->files[0].size;
	f->mtime_s = s->id_mtime_s;
	f->mtime_ns = s->id_mtime_ns;
	f->content = c->content;
	memcpy(f->version, c->version, sizeof f->version);
}

/* Open the entry's file if it is there and safely ours: fd, -1 (none), -2 (refused). */
static int
open_entry(struct session_cache *c, struct stat *st)
{
	struct perf_err e;
	int dfd, fd;

	if ((dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;	/* none yet: a miss */
	if (session_cache_dir_ok(dfd, c->dir, &e) < 0) {
		close(dfd);
		c->dir_bad = true;
		refuse(c, &e);
		return -2;
	}
	fd = openat(dfd, c->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd < 0 && errno == ENOENT)
		return -1;
	if (fd < 0 || fstat(fd, st) < 0)
		perf_err_set(&e, PERF_E_IO, PERF_ERR_OFF_NONE, "%s", strerror(errno));
	else if (!S_ISREG(st->st_mode))
		perf_err_set(&e, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE, "not a regular file");
	else if (st->st_uid != geteuid() || (st->st_mode & (S_IWGRP | S_IWOTH)))
		perf_err_set(&e, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
		    "owned by uid %lu, mode %03o: not this user's alone", (unsigned long)st->st_uid,
		    (unsigned)(st->st_mode & 0777));
	else
		return fd;
	if (fd >= 0)
		close(fd);
	refuse(c, &e);
	return -2;
}

/* Set the session's index, counts and replay list from a checked image. */
static void
adopt(struct session *s, const struct chdr *h, uint8_t *map)
{
	struct rec_index *ix = &s->index;

	ix->v = (struct rec_ent *)(void *)(map + h->sec[SEC_ENT].off);
	ix->who = h->n ? (uint64_t *)(void *)(map + h->sec[SEC_WHO].off) : NULL;
	ix->n = h->n;
	ix->n_untimed = h->n_untimed;
	ix->borrowed = true;
	memcpy(&s->counts, map + h->sec[SEC_COUNTS].off, sizeof s->counts);
	free(s->attr_counts);
	s->attr_counts = NULL;
	s->nattr_counts = h->nattr_counts;
	if (h->nattr_counts) {
		s->attr_counts = xcalloc(h->nattr_counts, sizeof *s->attr_counts);
		memcpy(s->attr_counts, map + h->sec[SEC_ACOUNTS].off, h->sec[SEC_ACOUNTS].len);
	}
	s->files[0].nrecords = h->nrecords;
	s->nreplay = s->capreplay = h->nreplay;
	s->replay = h->nreplay ? xcalloc(h->nreplay, sizeof *s->replay) : NULL;
	if (h->nreplay)
		memcpy(s->replay, map + h->sec[SEC_REPLAY].off, h->sec[SEC_REPLAY].len);
}

bool
session_cache_try(struct session *s)
{
	struct session_cache *c = s->cache;
	struct perf_err e;
	struct stat st;
	struct chdr h;
	void *map;
	int fd;

	if (c == NULL || c->state != SESSION_CACHE_MISS)
		return false;
	if ((fd = open_entry(c, &st)) < 0)
		return false;
	if ((uint64_t)st.st_size < sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		close(fd);
		perf_err_set(&e, PERF_E_TRUNCATED, (uint64_t)st.st_size,
		    "%llu bytes: shorter than a cache header (%zu)", (unsigned long long)st.st_size,
		    sizeof h);
		return refuse(c, &e);
	}
	/* a header that is whole and of another key or generation: stale, whatever follows */
	if (other_generation(h.f.magic, CACHE_MAGIC) ||
	    (memcmp(h.f.magic, CACHE_MAGIC, 8) == 0 && h.f.endian == CACHE_ENDIAN &&
	    h.f.hdr_size == sizeof h && hdr_sum(&h) == h.f.hdr_sum &&
	    (!cfile_key_matches(s, &h.f) || h.n * SESSION_REC_CHARGE > s->mem_budget))) {
		close(fd);
		c->state = SESSION_CACHE_STALE;
		return false;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		perf_err_set(&e, PERF_E_IO, PERF_ERR_OFF_NONE, "mmap: %s", strerror(errno));
		return refuse(c, &e);
	}
	if (check_image(s, map, (size_t)st.st_size, true, &h, &e) < 0) {
		munmap(map, (size_t)st.st_size);
		close(fd);
		return refuse(c, &e);
	}
	(void)futimens(fd, NULL);	/* used now: the last to go (perfnav cache) */
	close(fd);
	c->map = map;
	c->map_len = (size_t)st.st_size;
	adopt(s, &h, map);
	c->state = SESSION_CACHE_HIT;
	return true;
}

void
session_cache_done(struct session *s, size_t ndiag)
{
	struct session_cache *c = s->cache;

	if (c == NULL || c->state == SESSION_CACHE_OFF || c->state == SESSION_CACHE_HIT)
		return;
	c->clean = s->mode == SESSION_FILE && s->nfiles == 1 && s->zlen == 0 &&
	    s->nzchunks == 0 && !s->damaged && !s->cancelled && !s->over_budget &&
	    !s->input_cut && s->stop_loc == UINT64_MAX && s->diags.n + s->diags.dropped == ndiag &&
	    !session_has_read_samples(s) && s->index.n > 0 && s->index.v != NULL &&
	    s->index.who != NULL && !s->files[0].damaged;
}

void
session_cache_free(struct session *s)
{
	struct session_cache *c = s->cache;

	if (c == NULL)
		return;
	if (c->th_on)
		pthread_join(c->th, NULL);
	if (c->map != NULL)
		munmap(c->map, c->map_len);
	free(c->dir);
	free(c->name);
	free(c->path);
	free(c);
	s->cache = NULL;
}

struct session_cache_status
session_cache_status(const struct session *s)
{
	struct session_cache_status st;
	const struct session_cache *c = s->cache;

	memset(&st, 0, sizeof st);
	if (c == NULL)
		return st;
	st.state = c->state;
	st.path = c->path;
	st.err = c->err;
	st.savable = c->clean && c->state != SESSION_CACHE_HIT && !c->dir_bad;
	st.bytes = sizeof(struct chdr) + s->index.n * (sizeof(struct rec_ent) + 8) +
	    sizeof(struct type_counts) * (1 + s->nattr_counts) + s->nreplay * 8 +
	    strlen(s->path) + 8;
	return st;
}

const char *
session_cache_state_name(enum session_cache_state st)
{
	static const char *const names[] = { "off", "miss", "stale", "refused", "hit" };

	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

/* ---- saving ---- */

static int
write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n > 0) {
		ssize_t k = write(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The page size mappings are made in (a power of two). */
static uint64_t
page_bytes(void)
{
	long pg = sysconf(_SC_PAGESIZE);

	return pg >= 8 && (pg & (pg - 1)) == 0 ? (uint64_t)pg : 4096;
}

/*
 * The header of s's entry, its sections laid out from the data at src[].
 * The entries and who start on a page of their own, so that the saved
 * file can be mapped in their place (map_saved).
 */
static void
lay_out(const struct session *s, struct chdr *h, const void *src[SEC_N], bool sums)
{
	uint64_t at = sizeof *h, pg = page_bytes();

	memset(h, 0, sizeof *h);
	cfile_set(s, &h->f, CACHE_MAGIC, sizeof *h);
	h->n = s->index.n;
	h->n_untimed = s->index.n_untimed;
	h->nrecords = s->files[0].nrecords;
	h->nattrs = s->attrs.n;
	h->nattr_counts = s->nattr_counts;
	h->nreplay = s->nreplay;
	h->path_len = strlen(s->path);
	h->counts_size = sizeof(struct type_counts);
	src[SEC_ENT] = s->index.v;
	src[SEC_WHO] = s->index.who;
	src[SEC_COUNTS] = &s->counts;
	src[SEC_ACOUNTS] = s->attr_counts;
	src[SEC_REPLAY] = s->replay;
	src[SEC_PATH] = s->path;
	h->sec[SEC_ENT].len = h->n * sizeof(struct rec_ent);
	h->sec[SEC_WHO].len = h->n * 8;
	h->sec[SEC_COUNTS].len = sizeof(struct type_counts);
	h->sec[SEC_ACOUNTS].len = h->nattr_counts * sizeof(struct type_counts);
	h->sec[SEC_REPLAY].len = h->nreplay * 8;
	h->sec[SEC_PATH].len = h->path_len;
	for (int i = 0; i < SEC_N; i++) {
		if (i == SEC_ENT || i == SEC_WHO)
			at = (at + pg - 1) & ~(pg - 1);
		h->sec[i].off = at;
		h->sec[i].sum = sums ? csum(src[i], h->sec[i].len, (uint64_t)i) : 0;
		at = (at + h->sec[i].len + 7) & ~UINT64_C(7);
	}
	h->f.file_size = h->sec[SEC_PATH].off + h->sec[SEC_PATH].len;
	h->f.hdr_sum = hdr_sum(h);
}

/* n zero bytes to fd. */
static int
write_zeros(int fd, uint64_t n)
{
	static const uint8_t zero[4096];

	for (; n > 0; n -= n < sizeof zero ? n : sizeof zero)
		if (write_all(fd, zero, n < sizeof zero ? (size_t)n : sizeof zero) < 0)
			return -1;
	return 0;
}

/* s's entry to fd (its header into *hp); without its checksums unless sums. */
static int
write_entry(const struct session *s, int fd, struct chdr *hp, bool sums)
{
	const void *src[SEC_N];
	struct chdr h;
	uint64_t at = sizeof h;

	lay_out(s, &h, src, sums);
	*hp = h;
	if (write_all(fd, &h, sizeof h) < 0)
		return -1;
	for (int i = 0; i < SEC_N; i++) {
		if (h.sec[i].off > at && write_zeros(fd, h.sec[i].off - at) < 0)
			return -1;
		if (write_all(fd, src[i], (size_t)h.sec[i].len) < 0)
			return -1;
		at = h.sec[i].off + h.sec[i].len;
	}
	return 0;
}

/* A table of the index and its pages in the file just saved (map_saved). */
struct saved_map {
	void	*at, *p;
	size_t	 len;
};

/*
 * One of the index's tables (at, in a mapping of its own of room bytes),
 * just written to fd as the section c: the file's pages mapped (m->p),
 * when they hold the same bytes (compared if check; else only mapped in
 * at once, as the comparison would), to be put in the table's place once
 * the entry is in place (map_saved_end).  The table then lives in the page
 * cache (clean pages of a file, which the kernel can drop and read again)
 * instead of anonymous memory.
 */
static void
map_saved_table(struct saved_map *m, void *at, size_t room, int fd, const struct csec *c,
    bool check)
{
	uint64_t pg = page_bytes(), len = (c->len + pg - 1) & ~(pg - 1);

	m->p = NULL;
	if (at == NULL || c->len == 0 || c->off % pg != 0 || (uintptr_t)at % pg != 0 ||
	    len > room || len > SIZE_MAX || c->off > (uint64_t)INT64_MAX)
		return;
	m->p = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE | (check ? 0 : MAP_POPULATE), fd,
	    (off_t)c->off);
	if (m->p == MAP_FAILED) {
		m->p = NULL;
		return;
	}
	m->at = at;
	m->len = (size_t)len;
	if (check && memcmp(m->p, at, (size_t)c->len) != 0) {
		munmap(m->p, m->len);
		m->p = NULL;
	}
}

/* After a save to fd (laid out as h): the index's tables' pages mapped from it. */
static void
map_saved(const struct session *s, struct saved_map m[2], int fd, const struct chdr *h,
    bool check)
{
	const struct rec_index *ix = &s->index;

	m[0].p = m[1].p = NULL;
	if (h == NULL || ix->borrowed || ix->lv != NULL || ix->n != h->n)
		return;
	map_saved_table(&m[0], ix->v, ix->map_bytes, fd, &h->sec[SEC_ENT], check);
	map_saved_table(&m[1], ix->who, ix->who_bytes, fd, &h->sec[SEC_WHO], check);
}

/*
 * The pages map_saved mapped put in their tables' place (swap), or let go.
 * Readers of the tables on other threads see the same bytes throughout:
 * mremap moves the pages in under the mapping lock.
 */
static void
map_saved_end(struct saved_map m[2], bool swap)
{
	for (int i = 0; i < 2; i++) {
		if (m[i].p == NULL)
			continue;
		if (swap && mremap(m[i].p, m[i].len, m[i].len, MREMAP_MAYMOVE | MREMAP_FIXED,
		    m[i].at) != MAP_FAILED)
			continue;
		/* a move that failed may have unmapped the table already: its bytes put back */
		if (swap && mmap(m[i].at, m[i].len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
			memcpy(m[i].at, m[i].p, m[i].len);
		munmap(m[i].p, m[i].len);
	}
}

/*
 * A file of the directory dfd that no name will ever point to (spill):
 * O_TMPFILE, or where the file system has none, a name unlinked at once.
 */
static int
open_unnamed(int dfd, const char *dir, char *tmp, size_t n, struct perf_err *err)
{
	int fd;

#ifdef O_TMPFILE
	fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0) {
		snprintf(tmp, n, "(unnamed)");
		return fd;
	}
#endif
	fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		unlinkat(dfd, tmp, 0);
	else
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", dir, tmp, strerror(errno));
	return fd;
}

/*
 * Write s's entry to a temporary file of the directory, its index then
 * read from the file's pages; renamed over the entry unless spill (the
 * file then never named, or named only until it is unlinked at once where
 * O_TMPFILE is missing; freed with the session's index: its bytes are
 * neither checksummed, as no open reads them, nor compared back).
 */
static int
save_as(struct session *s, bool spill, struct perf_err *err)
{
	static unsigned seq;
	struct session_cache *c = s->cache;
	struct saved_map m[2];
	struct chdr h;
	char tmp[128];
	int dfd, fd, rc;

	if (c == NULL || !session_cache_status(s).savable)
		return 0;
	if ((dfd = open_dir(c->dir, err)) < 0)
		return -1;
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", c->name, (long)getpid(),
	    __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	if (spill)
		fd = open_unnamed(dfd, c->dir, tmp, sizeof tmp, err);
	else if ((fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600)) < 0)
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", c->dir, tmp,
		    strerror(errno));
	if (fd < 0) {
		close(dfd);
		return -1;
	}
	rc = write_entry(s, fd, &h, !spill);
	if (rc < 0)
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", c->dir, tmp,
		    strerror(errno));
	map_saved(s, m, fd, rc == 0 ? &h : NULL, !spill);
	if (close(fd) < 0 && rc == 0)
		rc = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", c->dir, tmp,
		    strerror(errno));
	if (rc == 0 && !spill && renameat(dfd, tmp, dfd, c->name) < 0)
		rc = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", c->path,
		    strerror(errno));
	map_saved_end(m, rc == 0);
	if (rc < 0 && !spill)
		unlinkat(dfd, tmp, 0);
	close(dfd);
	return rc;
}

int
session_cache_save(struct session *s, struct perf_err *err)
{
	return save_as(s, false, err);
}

int
session_cache_spill(struct session *s, struct perf_err *err)
{
	return save_as(s, true, err);
}

static void *
save_thread(void *arg)
{
	struct session *s = arg;

	s->cache->th_rc = save_as(s, s->cache->th_spill, &s->cache->th_err);
	return NULL;
}

/* save_as(s, spill) on a thread of its own. */
static int
save_start(struct session *s, bool spill)
{
	struct session_cache *c = s->cache;

	if (c == NULL || c->th_on || !session_cache_status(s).savable)
		return 0;
	c->th_spill = spill;
	if (pthread_create(&c->th, NULL, save_thread, s) != 0)
		return -1;
	c->th_on = true;
	return 0;
}

int
session_cache_spill_start(struct session *s)
{
	return save_start(s, true);
}

int
session_cache_save_start(struct session *s)
{
	return save_start(s, false);
}

int
session_cache_save_wait(struct session *s, struct perf_err *err)
{
	struct session_cache *c = s->cache;

	if (c == NULL || !c->th_on)
		return 0;
	pthread_join(c->th, NULL);
	c->th_on = false;
	if (c->th_rc < 0 && err != NULL)
		*err = c->th_err;
	return c->th_rc;
}

/* ---- other files of a recording (session_cache_aux_read/_write) ---- */

/* An aux file: this header, the recording's path, the payload (8-aligned). */
struct ahdr {
	struct cfile	f;		/* the recording's key, as the index entry's */
	uint64_t	sub;		/* and the caller's */
	uint64_t	path_off, path_len;
	uint64_t	pay_off, pay_len, pay_sum;
};
_Static_assert(sizeof(struct ahdr) % 8 == 0, "the payload stays 8-aligned");

static uint64_t
ahdr_sum(const struct ahdr *h)
{
	struct ahdr c = *h;

	c.f.hdr_sum = 0;
	return csum(&c, sizeof c, 0xa5a5);
}

/* The name of the aux file of sub ("agg-HASH.pnc"), or NULL when s keeps none. */
static char *
aux_name(const struct session *s, uint64_t sub)
{
	const struct session_cache *c = s->cache;
	char *name;
	uint64_t h;

	if (c == NULL || c->name == NULL || c->dir_bad ||
	    (c->state != SESSION_CACHE_HIT && !c->clean))
		return NULL;
	h = hash_mix64(hash_mix64(s->id_dev * UINT64_C(0x9e3779b97f4a7c15) ^ hash_mix64(s->id_ino)) ^ sub);
	if (asprintf(&name, AUX_PREFIX "%016llx.pnc", (unsigned long long)h) < 0)
		fatal_oom(0);
	return name;
}

static bool
aux_key_matches(const struct session *s, const struct ahdr *h, uint64_t sub)
{
	return cfile_key_matches(s, &h->f) && h->sub == sub;
}

/* The header's bounds against a file of len bytes. */
static int
aux_check(const struct ahdr *h, uint64_t len, struct perf_err *err)
{
	if (h->f.endian != CACHE_ENDIAN || h->f.hdr_size != sizeof *h)
		return bad(err, 8, "a cache file of another layout or byte order");
	if (ahdr_sum(h) != h->f.hdr_sum)
		return bad(err, offsetof(struct ahdr, f.hdr_sum), "the header does not match its checksum");
	if (h->f.file_size != len)
		return perf_err_set(err, PERF_E_TRUNCATED, len,
		    "%llu bytes where the header says %llu: truncated or grown",
		    (unsigned long long)len, (unsigned long long)h->f.file_size);
	if (h->path_off != sizeof *h || h->path_len > len - h->path_off ||
	    h->pay_off % 8 != 0 || h->pay_off < h->path_off + h->path_len || h->pay_off > len ||
	    h->pay_len != len - h->pay_off)
		return bad(err, offsetof(struct ahdr, path_off), "the path or payload lie out of the file's bounds");
	return 0;
}

int
session_cache_aux_read(const struct session *s, uint64_t sub, size_t max, void **img,
    size_t *len, uint64_t *base, char **path, struct perf_err *err)
{
	const struct session_cache *c = s->cache;
	char *name = aux_name(s, sub);
	struct stat st;
	struct ahdr h;
	int dfd, fd, rc = 0;
	uint8_t *buf;

	*img = NULL;
	*len = 0;
	*base = 0;
	*path = NULL;
	if (name == NULL)
		return 0;
	if (asprintf(path, "%s/%s", c->dir, name) < 0)
		fatal_oom(0);
	dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	fd = dfd < 0 ? -1 : openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0)
		close(dfd);
	free(name);
	if (fd < 0 && (errno == ENOENT || dfd < 0))
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		rc = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE, "not a regular file");
	else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		rc = perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
		    "owned by uid %lu, mode %03o: not this user's alone", (unsigned long)st.st_uid,
		    (unsigned)(st.st_mode & 0777));
	else if ((uint64_t)st.st_size < sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
		rc = perf_err_set(err, PERF_E_TRUNCATED, (uint64_t)st.st_size,
		    "%llu bytes: shorter than a cache header (%zu)", (unsigned long long)st.st_size,
		    sizeof h);
	else if (other_generation(h.f.magic, AUX_MAGIC))
		rc = 0;		/* stale: written by a perfnav of another layout */
	else if (memcmp(h.f.magic, AUX_MAGIC, 8) != 0)
		rc = bad(err, 0, "not a perfnav cache file");
	else if (aux_check(&h, (uint64_t)st.st_size, err) < 0)
		rc = -1;
	else if (!aux_key_matches(s, &h, sub))
		rc = 0;		/* stale: another state of the recording, version or options */
	else if (h.pay_len > max)
		rc = bad(err, offsetof(struct ahdr, pay_len), "a payload larger than any this perfnav writes");
	else {
		/* mapped, not read: the page cache's pages, no copy of them */
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);

		buf = map == MAP_FAILED ? NULL : (uint8_t *)map + h.pay_off;
		if (buf == NULL) {
			rc = perf_err_set(err, PERF_E_IO, h.pay_off, "cannot map the payload: %s", strerror(errno));
		} else if (csum(buf, h.pay_len, h.sub) != h.pay_sum) {
			munmap(map, (size_t)st.st_size);
			rc = bad(err, h.pay_off, "the payload does not match its checksum");
		} else {
			*img = buf;
			*len = h.pay_len;
			*base = h.pay_off;
			(void)futimens(fd, NULL);	/* used now */
			rc = 1;
		}
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

void
session_cache_aux_free(void *img, size_t len, uint64_t base)
{
	if (img != NULL)
		munmap((uint8_t *)img - base, (size_t)base + len);
}

/* session_cache_aux_write's fill: a copy of the payload in memory. */
static void
fill_copy(void *dst, size_t len, void *arg)
{
	memcpy(dst, arg, len);
}

int
session_cache_aux_write(const struct session *s, uint64_t sub, const void *img, size_t len,
    struct perf_err *err)
{
	return session_cache_aux_fill(s, sub, len, fill_copy, (void *)(uintptr_t)img, err);
}

/*
 * The aux file's bytes (h, the path, the payload fill writes) put in fd
 * through a shared mapping: its blocks taken first (posix_fallocate), so
 * that a full disk is an error here, never a fault in the writes.
 */
static int
aux_fill_fd(const struct session *s, int fd, struct ahdr *h,
    void (*fill)(void *dst, size_t len, void *arg), void *arg)
{
	uint8_t *p;
	int e;

	if (h->f.file_size > SIZE_MAX || h->f.file_size > (uint64_t)INT64_MAX) {
		errno = EFBIG;
		return -1;
	}
	if ((e = posix_fallocate(fd, 0, (off_t)h->f.file_size)) != 0) {
		errno = e;
		return -1;
	}
	p = mmap(NULL, (size_t)h->f.file_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	memcpy(p + h->path_off, s->path, (size_t)h->path_len);
	fill(p + h->pay_off, (size_t)h->pay_len, arg);
	h->pay_sum = csum(p + h->pay_off, (size_t)h->pay_len, h->sub);
	h->f.hdr_sum = ahdr_sum(h);
	memcpy(p, h, sizeof *h);
	return munmap(p, (size_t)h->f.file_size);
}

int
session_cache_aux_fill(const struct session *s, uint64_t sub, size_t len,
    void (*fill)(void *dst, size_t len, void *arg), void *arg, struct perf_err *err)
{
	static unsigned seq;
	const struct session_cache *c = s->cache;
	char *name = aux_name(s, sub), tmp[128];
	struct ahdr h;
	int dfd, fd, rc;

	if (name == NULL)
		return 0;
	memset(&h, 0, sizeof h);
	cfile_set(s, &h.f, AUX_MAGIC, sizeof h);
	h.sub = sub;
	h.path_off = sizeof h;
	h.path_len = strlen(s->path);
	h.pay_off = (h.path_off + h.path_len + 7) & ~UINT64_C(7);
	h.pay_len = len;
	h.f.file_size = h.pay_off + len;
	if ((dfd = open_dir(c->dir, err)) < 0) {
		free(name);
		return -1;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", name, (long)getpid(),
	    __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	rc = fd < 0 || aux_fill_fd(s, fd, &h, fill, arg) < 0 ? -1 : 0;
	if (rc < 0)
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", c->dir, tmp,
		    strerror(errno));
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", c->dir, tmp,
		    strerror(errno));
	if (rc == 0 && renameat(dfd, tmp, dfd, name) < 0)
		rc = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s/%s: %s", c->dir, name,
		    strerror(errno));
	if (rc < 0 && fd >= 0)
		unlinkat(dfd, tmp, 0);
	close(dfd);
	free(name);
	return rc;
}

/* session_cache_describe of an aux file open at fd. */
static int
aux_describe(int fd, const struct stat *st, struct session_cache_desc *d, struct perf_err *err)
{
	struct ahdr h;
	size_t n;

	if ((uint64_t)st->st_size < sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
		return perf_err_set(err, PERF_E_TRUNCATED, (uint64_t)st->st_size,
		    "shorter than a cache header");
	if (aux_check(&h, (uint64_t)st->st_size, err) < 0)
		return -1;
	n = h.path_len < sizeof d->recording - 1 ? (size_t)h.path_len : sizeof d->recording - 1;
	if (pread(fd, d->recording, n, (off_t)h.path_off) != (ssize_t)n)
		return perf_err_set(err, PERF_E_IO, h.path_off, "cannot read the recording's path");
	d->recording[n] = '\0';
	memcpy(d->version, h.f.version, sizeof d->version - 1);
	d->rec_size = h.f.size;
	d->aux = true;
	return 0;
}

/* ---- describing a file ---- */

int
session_cache_describe(int dirfd, const char *name, struct session_cache_desc *d,
    struct perf_err *err)
{
	struct stat st;
	struct chdr h;
	size_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), rc = -1;

	memset(d, 0, sizeof *d);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s",
		    fd < 0 ? strerror(errno) : "not a regular file");
		goto out;
	}
	d->file_size = (uint64_t)st.st_size;
	if ((uint64_t)st.st_size < sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		perf_err_set(err, PERF_E_TRUNCATED, (uint64_t)st.st_size, "shorter than a cache header");
		goto out;
	}
	if (memcmp(h.f.magic, AUX_MAGIC, 8) == 0) {
		rc = aux_describe(fd, &st, d, err);
		goto out;
	}
	if (memcmp(h.f.magic, CACHE_MAGIC, 8) != 0 || h.f.endian != CACHE_ENDIAN ||
	    h.f.hdr_size != sizeof h || hdr_sum(&h) != h.f.hdr_sum) {
		bad(err, 0, "not a cache file of this perfnav, or its header is damaged");
		goto out;
	}
	if (check_bounds(&h, (size_t)st.st_size, err) < 0)
		goto out;
	n = h.path_len < sizeof d->recording - 1 ? (size_t)h.path_len : sizeof d->recording - 1;
	if (pread(fd, d->recording, n, (off_t)h.sec[SEC_PATH].off) != (ssize_t)n) {
		perf_err_set(err, PERF_E_IO, h.sec[SEC_PATH].off, "cannot read the recording's path");
		goto out;
	}
	d->recording[n] = '\0';
	memcpy(d->version, h.f.version, sizeof d->version - 1);
	d->rec_size = h.f.size;
	d->nrecords = h.n;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	return rc;
}
