#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "core/bytes.h"
#include "core/names.h"
#include "core/safefile.h"
#include "core/session.h"

/* Cap on the bytes one COMPRESSED record may expand to. */
#define ZCHUNK_MAX	(UINT64_C(256) << 20)
/*
 * The default memory budget (session_default_budget): BUDGET_FILE_MULT
 * times the recording's size, at least BUDGET_FLOOR, at most
 * 1/BUDGET_RAM_SHARE of the machine's memory (peak memory may reach about
 * twice the budget: the index is sorted through a copy).
 */
#define BUDGET_FILE_MULT	64
#define BUDGET_FLOOR		(UINT64_C(64) << 20)
#define BUDGET_RAM_SHARE	4
/* A COMPRESSED record inflating more than this many times is suspicious:
 * perf's own records inflate 3 to 30 times. */
#define ZRATIO_ABSURD		1000
/* What a record costs in the index: its entry, and a round mark at most. */
#define REC_CHARGE		(sizeof(struct rec_ent) + sizeof(size_t))
/* Bytes decompressed at a time, the records they complete walked at once. */
#define ZSTEP			(UINT64_C(1) << 20)

/* State of the load walk. */
struct loader {
	struct session	*s;
	uint32_t	 file;		/* current file index */
	uint64_t	 last_time;
	size_t		*rounds;	/* index positions closing a round */
	size_t		 nrounds, caprounds;
	uint64_t	 zpending;	/* zbuf offset of the next inner record */
	bool		 zbroken;	/* decompression failed in this file */
	uint64_t	 zskipped;
	bool		 index;
	/* progress */
	session_progress_fn progress;
	void		*progress_arg;
	uint64_t	 total, done_before;	/* bytes to walk; of finished files */
	uint64_t	 next_report;
	bool		 stop;
	/* memory budget (bytes of decompressed data, index and rounds) */
	uint64_t	 budget;
	uint64_t	 zabsurd;	/* COMPRESSED records of absurd ratio */
	uint64_t	 charged;	/* index bytes of the records read, indexed or not */
	int		 zdepth;	/* inside process_compressed */
	uint64_t	 znested;	/* COMPRESSED records found decompressed */
	/* damaged records by (type, reason), summed up after the walk */
	struct bad_kind {
		uint32_t	 type;
		const char	*why;		/* static string */
		uint64_t	 n;
		uint64_t	 off;		/* file offset of the first */
		uint32_t	 file;
	} bad[16];
	size_t		 nbad;
};

#define PROGRESS_STEP	(UINT64_C(16) << 20)

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- files ---- */

static int
map_file(const char *path, int fd, struct sfile *f, struct perf_err *err)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", path,
		    strerror(errno));
	if (!S_ISREG(st.st_mode))
		return 1;	/* not mappable: caller reads it */
	f->size = (uint64_t)st.st_size;
	if (f->size == 0) {
		f->base = NULL;
		return 0;
	}
	p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: mmap: %s", path,
		    strerror(errno));
	/* no MADV_WILLNEED: it maps more than the walk needs at once */
	f->base = p;
	f->mapped = true;
	return 0;
}

/* Read a pipe (standard input) to its end, or to max bytes: 1 when it
 * stopped there, 0 at the end, -1 on a read error. */
static int
read_all(const char *path, int fd, struct sfile *f, uint64_t max, struct perf_err *err)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	for (;;) {
		size_t want;
		ssize_t n;

		if (len >= max) {
			rc = 1;
			break;
		}
		if (len == cap)
			GROW(buf, cap, len + 65536);
		want = cap - len;
		if (want > max - len)
			want = (size_t)(max - len);
		n = read(fd, buf + len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return perf_err_set(err, PERF_E_IO, len, "%s: read: %s", path,
			    strerror(errno));
		}
		if (n == 0)
			break;
		len += (size_t)n;
		/* Not a perf stream (say /dev/zero): stop before reading more. */
		if (len >= 8 && len - (size_t)n < 8 && rd64(buf, false) != PERF_MAGIC2 &&
		    rd64(buf, false) != PERF_MAGIC2_SWAPPED && rd64(buf, false) != PERF_MAGIC1)
			break;
	}
	f->base = buf;
	f->size = len;
	f->mapped = false;
	return rc;
}

/*
 * Open one file of the recording.  in_dir: a file of a perf.data directory,
 * which is only read when it is a regular file (safefile); the path given
 * by the user may be anything readable (a FIFO is read as a pipe).
 */
static int
open_one(struct session *s, const char *path, bool in_dir, struct perf_err *err)
{
	static const struct safefile_rule data_rule = { .what = "a data file", .cap = 0 };
	struct safefile_note note;
	struct sfile *f;
	int fd, rc;
	bool is_stdin = strcmp(path, "-") == 0;

	if (in_dir) {
		fd = safefile_open(path, &data_rule, NULL, &note);
		if (fd < 0)
			return perf_err_set(err, note.status == SAFEFILE_REFUSED ? PERF_E_UNSUPPORTED :
			    PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s%s", path,
			    note.status == SAFEFILE_REFUSED ? "refused: " : "", note.why);
	} else {
		fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", path,
		    strerror(errno));
	s->files = xreallocarray(s->files, s->nfiles + 1, sizeof *s->files);
	f = &s->files[s->nfiles];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(is_stdin ? "<stdin>" : path);
	s->nfiles++;
	rc = map_file(f->path, fd, f, err);
	if (rc == 1) {
		/* what is read is charged to the budget: half of it at most */
		uint64_t max = (s->mem_budget ? s->mem_budget : session_default_budget(0)) / 2;

		rc = read_all(f->path, fd, f, max, err);
		if (rc == 1) {
			diag_add(&s->diags, DIAG_ERROR, s->nfiles - 1, f->size,
			    "stopped reading after %llu MiB, the memory budget (--max-memory): records after this point are not loaded",
			    (unsigned long long)(f->size >> 20));
			s->damaged = true;
			s->input_cut = true;
			rc = 0;
		}
	}
	if (!is_stdin)
		close(fd);
	if (rc < 0)
		goto drop;
	f->vbase = s->nfiles > 1 ? s->files[s->nfiles - 2].vbase + s->files[s->nfiles - 2].size : 0;
	/* Keep file locations 8-aligned and apart: a gap between files. */
	if (s->nfiles > 1)
		f->vbase = (f->vbase + 8 + 7) & ~UINT64_C(7);
	if (f->vbase + f->size >= SESSION_ZLOC) {
		perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
		    "%s: recording larger than %llu bytes", path,
		    (unsigned long long)SESSION_ZLOC);
		goto drop;
	}
	return 0;
drop:
	/* Not one of the session's files after all: no hole in the table. */
	if (f->mapped)
		munmap((void *)f->base, f->size);
	else
		free((void *)f->base);
	free(f->path);
	s->nfiles--;
	return -1;
}

static int
data_file_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	unsigned long nx = strtoul(x + 5, NULL, 10), ny = strtoul(y + 5, NULL, 10);

	return nx < ny ? -1 : nx > ny;
}

/* Directory mode: data, then data.N in numeric order. */
static int
open_dir(struct session *s, const char *path, struct perf_err *err)
{
	char *p, **names = NULL;
	size_t n = 0, cap = 0;
	DIR *d;
	struct dirent *de;
	int rc = 0;
	struct stat st;

	if (asprintf(&p, "%s/data", path) < 0)
		fatal_oom(0);
	if (stat(p, &st) < 0) {
		perf_err_set(err, PERF_E_NOT_PERF, PERF_ERR_OFF_NONE,
		    "%s: a directory without a 'data' file: not a perf.data directory", path);
		free(p);
		return -1;
	}
	rc = open_one(s, p, true, err);
	free(p);
	if (rc < 0)
		return -1;
	d = opendir(path);
	if (d == NULL)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", path,
		    strerror(errno));
	while ((de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		char *end;

		if (strcmp(nm, "kcore_dir") == 0) {
			if (asprintf(&s->kcore_dir, "%s/kcore_dir", path) < 0)
				fatal_oom(0);
			continue;
		}
		if (strncmp(nm, "data.", 5) != 0 || nm[5] == '\0')
			continue;
		strtoul(nm + 5, &end, 10);
		if (*end != '\0')
			continue;
		GROW(names, cap, n + 1);
		names[n++] = xstrdup(nm);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, data_file_cmp);
	for (size_t i = 0; i < n; i++) {
		struct perf_err ferr;

		if (asprintf(&p, "%s/%s", path, names[i]) < 0)
			fatal_oom(0);
		/* A data.N that cannot be read is left out; the others are read. */
		if (open_one(s, p, true, &ferr) < 0) {
			const char *why = ferr.msg;
			size_t lp = strlen(p);

			if (strncmp(why, p, lp) == 0 && why[lp] == ':')
				why += lp + 2;
			diag_add(&s->diags, DIAG_ERROR, UINT32_MAX, PERF_ERR_OFF_NONE,
			    "%s left out: %s", names[i], why);
			s->damaged = true;
		}
		free(p);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* ---- helpers ---- */

const uint8_t *
session_bytes(const struct session *s, uint64_t loc, uint64_t len)
{
	if (loc >= SESSION_ZLOC) {
		uint64_t z = loc - SESSION_ZLOC;

		if (z > s->zlen || len > s->zlen - z)
			return NULL;
		return s->zbuf + z;
	}
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];

		if (loc >= f->vbase && loc - f->vbase < f->size) {
			uint64_t off = loc - f->vbase;

			if (len > f->size - off)
				return NULL;
			return f->base + off;
		}
	}
	return NULL;
}

int
session_rec(const struct session *s, uint64_t loc, struct rec *out)
{
	const uint8_t *p = session_bytes(s, loc, 8);
	uint32_t size;

	if (p == NULL)
		return -1;
	size = rd16(p + 6, s->swap);
	if (size < 8 || session_bytes(s, loc, size) == NULL)
		return -1;
	out->p = p;
	out->size = size;
	out->type = rd32(p, s->swap);
	out->misc = rd16(p + 4, s->swap);
	out->swap = s->swap;
	out->loc = loc;
	return 0;
}

const struct zchunk *
session_zorigin(const struct session *s, uint64_t loc)
{
	size_t lo = 0, hi;
	uint64_t z;

	if (loc < SESSION_ZLOC || s->nzchunks == 0)
		return NULL;
	z = loc - SESSION_ZLOC;
	hi = s->nzchunks;
	while (lo + 1 < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->zchunks[mid].zoff <= z)
			lo = mid;
		else
			hi = mid;
	}
	return &s->zchunks[lo];
}

uint32_t
session_file_of(const struct session *s, uint64_t loc, uint64_t *file_off)
{
	const struct zchunk *z = session_zorigin(s, loc);

	if (z != NULL)
		loc = z->container;
	for (size_t i = s->nfiles; i-- > 0;) {
		if (loc >= s->files[i].vbase) {
			if (file_off)
				*file_off = loc - s->files[i].vbase;
			return (uint32_t)i;
		}
	}
	if (file_off)
		*file_off = loc;
	return 0;
}

void
session_drop_pages(const struct session *s, uint64_t from, uint64_t to)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t mask = pg > 0 ? (uint64_t)pg - 1 : 4095;

	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];
		uint64_t lo, hi;

		if (!f->mapped || to <= f->vbase || from >= f->vbase + f->size)
			continue;
		lo = from > f->vbase ? from - f->vbase : 0;
		hi = to - f->vbase < f->size ? to - f->vbase : f->size;
		lo = (lo + mask) & ~mask;	/* whole pages inside the range */
		hi &= ~mask;
		if (hi > lo)
			madvise((void *)(f->base + lo), hi - lo, MADV_DONTNEED);
	}
}

const char *
session_attr_name(const struct session *s, int i)
{
	if (i < 0 || (size_t)i >= s->attrs.n || s->attrs.v[i].name == NULL)
		return "unknown";
	return s->attrs.v[i].name;
}

/* ---- the file header ---- */

static int
read_file_header(struct session *s, struct perf_err *err)
{
	const struct sfile *f = &s->files[0];
	const uint8_t *p = f->base;
	bool sw = s->swap;

	s->header_size = rd64(p + 8, sw);
	if (s->header_size == sizeof(struct pf_pipe_header)) {
		s->mode = s->nfiles > 1 ? SESSION_DIR : SESSION_PIPE;
		if (s->nfiles > 1)
			return perf_err_set(err, PERF_E_BAD_HEADER, 8,
			    "%s: directory 'data' file is in pipe format", f->path);
		return 0;
	}
	if (s->header_size < PF_HEADER_FEATURES_OFF || f->size < PF_HEADER_FEATURES_OFF)
		return perf_err_set(err, PERF_E_BAD_HEADER, 8,
		    "%s: offset 0x8: header size %llu is neither a pipe (16) nor a file header",
		    f->path, (unsigned long long)s->header_size);
	s->attr_size = rd64(p + 16, sw);
	s->attrs_sec.offset = rd64(p + 24, sw);
	s->attrs_sec.size = rd64(p + 32, sw);
	s->data_sec.offset = rd64(p + 40, sw);
	s->data_sec.size = rd64(p + 48, sw);
	s->event_types_sec.offset = rd64(p + 56, sw);
	s->event_types_sec.size = rd64(p + 64, sw);
	if (s->header_size >= sizeof(struct pf_header) && f->size >= sizeof(struct pf_header))
		for (int i = 0; i < 4; i++)
			s->feat_bits[i] = rd64(p + PF_HEADER_FEATURES_OFF + 8 * i, sw);
	return 0;
}

static bool
sec_ok(const struct sfile *f, uint64_t off, uint64_t size)
{
	return off <= f->size && size <= f->size - off;
}

static void
read_attrs(struct session *s)
{
	const struct sfile *f = &s->files[0];
	uint64_t stride = s->attr_size, off = s->attrs_sec.offset, size = s->attrs_sec.size;
	uint64_t n;

	if (size == 0)
		return;
	if (stride < PF_ATTR_SIZE_VER0_MIN + sizeof(struct pf_section) || stride > 4096) {
		diag_add(&s->diags, DIAG_ERROR, 0, 16, "header attr_size %llu is not plausible",
		    (unsigned long long)stride);
		s->damaged = true;
		return;
	}
	if (!sec_ok(f, off, size)) {
		diag_add(&s->diags, DIAG_ERROR, 0, 24,
		    "attrs section [0x%llx, +0x%llx) lies beyond the end of the file (0x%llx)",
		    (unsigned long long)off, (unsigned long long)size,
		    (unsigned long long)f->size);
		s->damaged = true;
		size = off <= f->size ? f->size - off : 0;
	}
	n = size / stride;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = f->base + off + i * stride;
		uint64_t abytes = stride - sizeof(struct pf_section);
		uint64_t ids_off = rd64(e + abytes, s->swap), ids_size = rd64(e + abytes + 8, s->swap);
		struct perf_event_attr a;
		uint32_t disk = rd32(e + 4, s->swap), idx;

		if (disk == 0 || disk > abytes)
			disk = (uint32_t)abytes;
		if (attr_decode(&a, e, disk, s->swap) < 0)
			continue;
		idx = attr_table_add(&s->attrs, &a, disk, off + i * stride);
		if (!sec_ok(f, ids_off, ids_size)) {
			diag_add(&s->diags, DIAG_ERROR, 0, off + i * stride + abytes,
			    "attr %u: id list [0x%llx, +0x%llx) lies beyond the end of the file",
			    idx, (unsigned long long)ids_off, (unsigned long long)ids_size);
			s->damaged = true;
			continue;
		}
		for (uint64_t j = 0; j + 8 <= ids_size; j += 8)
			attr_table_add_id(&s->attrs, idx, rd64(f->base + ids_off + j, s->swap));
	}
}

/* Old perf's event_types section: tracepoint ids and names. */
static void
read_event_types(struct session *s)
{
	const struct sfile *f = &s->files[0];
	uint64_t off = s->event_types_sec.offset, size = s->event_types_sec.size;

	if (size == 0 || !sec_ok(f, off, size))
		return;
	for (uint64_t i = 0; i + PF_EVENT_TYPE_SIZE <= size; i += PF_EVENT_TYPE_SIZE) {
		const uint8_t *e = f->base + off + i;
		uint64_t id = rd64(e, s->swap);

		for (size_t a = 0; a < s->attrs.n; a++) {
			struct pn_attr *pa = &s->attrs.v[a];

			if (pa->attr.type == PERF_TYPE_TRACEPOINT && pa->attr.config == id &&
			    pa->name == NULL) {
				pa->name = xstrndup((const char *)e + 8, PF_EVENT_TYPE_NAME_LEN);
				pa->name_given = true;
			}
		}
	}
}

static void
read_features(struct session *s)
{
	const struct sfile *f = &s->files[0];
	uint64_t tab = s->data_sec.offset + s->data_sec.size;
	size_t k = 0;

	s->feat_off = tab;
	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++) {
		struct feat_sec *fs = &s->feat.sec[bit];
		uint64_t at, off, size;

		if (!(s->feat_bits[bit / 64] >> (bit % 64) & 1))
			continue;
		at = tab + 16 * k++;
		fs->present = true;
		if (tab < s->data_sec.offset || !sec_ok(f, at, 16)) {
			fs->status = FEAT_MISSING;
			fs->why = xstrdup("feature section table lies beyond the end of the file");
			continue;
		}
		off = rd64(f->base + at, s->swap);
		size = rd64(f->base + at + 8, s->swap);
		fs->offset = off;
		fs->size = size;
		if (!sec_ok(f, off, size)) {
			fs->status = FEAT_MISSING;
			fs->why = xstrdup("section lies beyond the end of the file");
			diag_add(&s->diags, DIAG_WARN, 0, at,
			    "feature %u (%s): section [0x%llx, +0x%llx) lies beyond the end of the file",
			    bit, feat_name(bit) ? feat_name(bit) : "unknown",
			    (unsigned long long)off, (unsigned long long)size);
			continue;
		}
		feature_decode(&s->feat, bit, f->base + off, size, s->swap, off, &s->attrs,
		    &s->diags);
	}
	if (k > 0 && !sec_ok(f, tab, 16 * k))
		s->damaged = true;
}

/* ---- records ---- */

static void
count_rec(struct session *s, uint32_t type, int attr)
{
	uint32_t t = type < SESSION_NTYPES ? type : SESSION_NTYPES - 1;

	s->counts.total++;
	s->counts.by_type[t]++;
	if (attr >= 0 && (type == PERF_RECORD_SAMPLE || type == PERF_RECORD_LOST_SAMPLES)) {
		if ((size_t)attr >= s->nattr_counts) {
			size_t n = s->attrs.n > (size_t)attr ? s->attrs.n : (size_t)attr + 1;

			s->attr_counts = xreallocarray(s->attr_counts, n, sizeof *s->attr_counts);
			memset(s->attr_counts + s->nattr_counts, 0,
			    (n - s->nattr_counts) * sizeof *s->attr_counts);
			s->nattr_counts = n;
		}
		s->attr_counts[attr].total++;
		s->attr_counts[attr].by_type[t]++;
	}
}

/* Index a record; smp is the sample decoded whole, or NULL (read its head). */
static void
index_rec(struct loader *ld, const struct rec *r, int attr, const struct sample *smp)
{
	struct session *s = ld->s;
	struct rec_ent e;
	uint64_t time = 0;
	int64_t pid = -1, tid = -1, cpu = -1;
	bool has_time = false;

	if (r->type == PERF_RECORD_SAMPLE) {
		struct sample head;

		if (smp == NULL && record_sample_head(s, r, attr, &head) == 0)
			smp = &head;
		if (smp != NULL) {
			uint64_t st = smp->sample_type;

			if (st & PERF_SAMPLE_TID) {
				pid = (int32_t)smp->pid;
				tid = (int32_t)smp->tid;
			}
			if (st & PERF_SAMPLE_TIME) {
				time = smp->time;
				has_time = true;
			}
			if (st & PERF_SAMPLE_CPU)
				cpu = smp->cpu;
		}
	} else if (r->type < PF_REC_USER_TYPE_START) {
		struct sample_id sid;
		struct rec_who w = { -1, -1, 0, false };

		record_who(r, &w);	/* who the body says, the trailer overrides */
		pid = w.pid;
		tid = w.tid;
		time = w.time;
		has_time = w.has_time;
		if (record_decode_sample_id(s, r, &sid) == 0) {
			if (sid.have & PERF_SAMPLE_TID) {
				pid = (int32_t)sid.pid;
				tid = (int32_t)sid.tid;
			}
			if (sid.have & PERF_SAMPLE_TIME) {
				time = sid.time;
				has_time = true;
			}
			if (sid.have & PERF_SAMPLE_CPU)
				cpu = sid.cpu;
		}
	}
	if (!has_time) {
		time = ld->last_time;
		s->index.n_untimed++;
	} else {
		ld->last_time = time;
	}
	ent_set(&e, time, r->loc, r->type, attr, cpu, pid, tid);
	index_push(&s->index, &e);
}

static void walk_region(struct loader *ld, uint64_t vstart, const uint8_t *base, uint64_t len,
    uint64_t file_off0, bool inner);

/* Pages of the mapped file behind the walk are given back every so often:
 * the walk reads each once, and the resident set stays small. */
#define DROP_STEP	(UINT64_C(128) << 20)

/* A sequential pass at base + pos: give back what lies DROP_STEP behind. */
static void
drop_behind(const struct session *s, uint64_t base, uint64_t *dropped, uint64_t pos)
{
	if (pos - *dropped >= DROP_STEP) {
		session_drop_pages(s, base + *dropped, base + pos);
		*dropped = pos;
	}
}

/* Pipe-mode HEADER_ATTR: attr + ids. */
static void
process_header_attr(struct session *s, const struct rec *r)
{
	const uint8_t *b = r->p + 8;
	size_t n = r->size - 8;
	uint32_t disk, idx;
	struct perf_event_attr a;

	if (n < PF_ATTR_SIZE_VER0_MIN)
		return;	/* record_check counts it */
	disk = rd32(b + 4, s->swap);
	if (disk == 0)
		disk = PF_ATTR_SIZE_VER0;
	if (disk > n)
		disk = (uint32_t)n;
	if (attr_decode(&a, b, disk, s->swap) < 0)
		return;
	idx = attr_table_add(&s->attrs, &a, disk, r->loc + 8);
	for (size_t off = disk; off + 8 <= n; off += 8)
		attr_table_add_id(&s->attrs, idx, rd64(b + off, s->swap));
	attr_table_finish(&s->attrs);
}

static void
process_event_update(struct session *s, const struct rec *r)
{
	const uint8_t *b = r->p + 8;
	size_t n = r->size - 8;
	uint64_t type, id;
	int a;

	if (n < 16)
		return;
	type = rd64(b, s->swap);
	id = rd64(b + 8, s->swap);
	if (type != 2 /* PERF_EVENT_UPDATE__NAME */)
		return;
	/*
	 * perf names pipe-mode events from their attrs (its stats say
	 * "cycles:uH" where the stream's EVENT_UPDATE says "cycles:u"); the
	 * header pane still shows the stream's EVENT_DESC names.
	 */
	if (s->mode == SESSION_PIPE)
		return;
	a = attr_table_find_id(&s->attrs, id);
	if (a < 0)
		return;
	free(s->attrs.v[a].name);
	s->attrs.v[a].name = xstrndup((const char *)b + 16, n - 16);
	s->attrs.v[a].name_given = true;
}

static void
process_id_index(struct session *s, const struct rec *r)
{
	const uint8_t *b = r->p + 8;
	size_t n = r->size - 8;
	uint64_t nr, esz;

	if (n < 8)
		return;
	nr = rd64(b, s->swap);
	if (nr == 0)
		return;
	if (nr > (n - 8) / 32) {
		diag_add(&s->diags, DIAG_WARN, 0, r->loc, "ID_INDEX: %llu entries do not fit in %u bytes",
		    (unsigned long long)nr, r->size);
		return;
	}
	/* Entries are 4 u64s (id, idx, cpu, tid); newer perf appends a second array. */
	esz = 32;
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *e = b + 8 + i * esz;
		uint64_t id = rd64(e, s->swap), idx = rd64(e + 8, s->swap);

		if (idx < s->attrs.n && attr_table_find_id(&s->attrs, id) < 0)
			attr_table_add_id(&s->attrs, (uint32_t)idx, id);
	}
}

uint64_t
session_rec_trailing(const struct rec *r)
{
	if (r->type == PF_REC_TRACING_DATA && r->size >= 12)
		return ((uint64_t)rd32(r->p + 8, r->swap) + 7) & ~UINT64_C(7);
	if (r->type == PF_REC_AUXTRACE && r->size >= 16)
		return rd64(r->p + 8, r->swap);
	return 0;
}

/* The file offset of a loc for a diagnostic: a decompressed record's is
 * its container's. */
static uint64_t
diag_off(const struct loader *ld, uint64_t loc)
{
	const struct session *s = ld->s;

	if (loc >= SESSION_ZLOC && s->nzchunks > 0)
		loc = s->zchunks[s->nzchunks - 1].container;
	return loc - s->files[ld->file].vbase;
}

/* Bytes the load has taken so far against the memory budget. */
static uint64_t
loader_used(const struct loader *ld)
{
	const struct session *s = ld->s;

	return s->zlen + ld->charged;
}

/*
 * Would taking 'more' bytes go past the budget?  The first time, loading
 * stops there with a diagnostic at loc; true from then on.
 */
static bool
over_budget(struct loader *ld, uint64_t loc, uint64_t more)
{
	struct session *s = ld->s;

	if (!ld->stop && loader_used(ld) + more <= ld->budget)
		return false;
	if (s->stop_loc == UINT64_MAX) {
		s->stop_loc = loc;
		/* in decompressed bytes: the chunk being filled is the last one */
		s->stop_zchunk = loc >= SESSION_ZLOC ? s->nzchunks - 1 : SIZE_MAX;
		bool kib = ld->budget < (UINT64_C(1) << 20);

		diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, loc),
		    "memory budget of %llu %s reached (%llu MiB decompressed, %llu records read): loading stopped here; --max-memory raises it",
		    (unsigned long long)(ld->budget >> (kib ? 10 : 20)), kib ? "KiB" : "MiB",
		    (unsigned long long)(s->zlen >> 20), (unsigned long long)s->counts.total);
		s->over_budget = true;
		s->damaged = true;
	}
	ld->stop = true;
	return true;
}

/* Walk the complete records decompressed and not walked yet. */
static void
walk_decompressed(struct loader *ld)
{
	struct session *s = ld->s;

	if (ld->zpending != UINT64_MAX && ld->zpending < s->zlen) {
		uint64_t from = ld->zpending;

		walk_region(ld, SESSION_ZLOC + from, s->zbuf + from, s->zlen - from, UINT64_MAX, true);
	}
}

/*
 * Decompress one COMPRESSED record ZSTEP bytes at a time, walking the
 * records each step completes, so that the memory budget stops a bomb
 * after what it allows, with the records before that point loaded.
 */
static void
process_compressed(struct loader *ld, const struct rec *r)
{
	struct session *s = ld->s;
	const uint8_t *src = r->p + 8;
	size_t srclen = r->size - 8, zstart = s->zlen, zi;
	ZSTD_inBuffer in;
	struct zchunk *zc;

	if (r->type == PF_REC_COMPRESSED2) {
		uint64_t dsz;

		if (r->size < 16)
			return;
		dsz = rd64(r->p + 8, r->swap);
		src = r->p + 16;
		srclen = dsz <= r->size - 16 ? dsz : r->size - 16;
	}
	if (ld->zbroken) {
		ld->zskipped++;
		return;
	}
	if (ld->zdepth > 0) {
		/* perf never compresses a COMPRESSED record again */
		if (ld->znested++ == 0)
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "a COMPRESSED record inside decompressed data: not decompressed");
		s->damaged = true;
		return;
	}
	if (s->zctx == NULL) {
		s->zctx = ZSTD_createDCtx();
		if (s->zctx == NULL)
			fatal_oom(0);
	}
	GROW(s->zchunks, s->capzchunks, s->nzchunks + 1);
	zi = s->nzchunks++;
	zc = &s->zchunks[zi];
	zc->zoff = zc->zend = zstart;
	zc->container = r->loc;
	zc->first_rec = UINT64_MAX;	/* set by walk_region */
	ld->zdepth++;
	in.src = src;
	in.size = srclen;
	in.pos = 0;
	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;

		if (over_budget(ld, ld->zpending != UINT64_MAX ? SESSION_ZLOC + ld->zpending : r->loc,
		    ZSTEP))
			break;
		if (s->zlen - zstart >= ZCHUNK_MAX) {
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "COMPRESSED record expands beyond %llu bytes: giving up on it",
			    (unsigned long long)ZCHUNK_MAX);
			ld->zbroken = true;
			s->damaged = true;
			break;
		}
		if (s->zcap - s->zlen < ZSTEP)
			GROW(s->zbuf, s->zcap, s->zlen + ZSTEP);
		out.dst = s->zbuf + s->zlen;
		out.size = ZSTEP;
		out.pos = 0;
		ret = ZSTD_decompressStream(s->zctx, &out, &in);
		s->zlen += out.pos;
		s->zchunks[zi].zend = s->zlen;
		if (ZSTD_isError(ret)) {
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "COMPRESSED record: zstd: %s", ZSTD_getErrorName(ret));
			ld->zbroken = true;
			s->damaged = true;
			break;
		}
		walk_decompressed(ld);
		if (ld->stop || ld->zbroken)
			break;
		/* All input taken and room left over: everything is out. */
		if (in.pos >= in.size && out.pos < out.size)
			break;
		if (out.pos == 0 && in.pos < in.size) {
			/* no progress: zstd should never do this */
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "COMPRESSED record: zstd made no progress: %zu of its bytes left undecompressed",
			    in.size - in.pos);
			ld->zbroken = true;
			s->damaged = true;
			break;
		}
	}
	ld->zdepth--;
	if (srclen > 0 && (s->zlen - zstart) / srclen > ZRATIO_ABSURD && ld->zabsurd++ == 0)
		diag_add(&s->diags, DIAG_WARN, ld->file, diag_off(ld, r->loc),
		    "COMPRESSED record inflates %zu bytes to %llu%s, %llu times: perf's records never compress that well (a decompression bomb?)",
		    srclen, (unsigned long long)(s->zlen - zstart), ld->stop ? " or more" : "",
		    (unsigned long long)((s->zlen - zstart) / srclen));
	zc = &s->zchunks[zi];
	if (zc->first_rec > zc->zend)
		zc->first_rec = zc->zend;
}

/* Count a damaged record under its type and reason. */
static void
tally_bad(struct loader *ld, const struct rec *r, const char *why)
{
	struct bad_kind *b;
	size_t i;

	for (i = 0; i < ld->nbad; i++)
		if (ld->bad[i].type == r->type && ld->bad[i].why == why)
			break;
	if (i == ld->nbad) {
		if (ld->nbad == sizeof ld->bad / sizeof ld->bad[0])
			i--;	/* a last catch-all row */
		else
			ld->nbad++;
		b = &ld->bad[i];
		if (b->n == 0) {
			b->type = r->type;
			b->why = why;
			b->off = diag_off(ld, r->loc);
			b->file = ld->file;
		} else if (b->type != r->type) {
			b->why = "and of other types and kinds";
		} else {
			b->why = "of several kinds";
		}
	}
	ld->bad[i].n++;
}

/* One diagnostic per kind of damaged record: count and first offset. */
static void
report_bad(struct loader *ld)
{
	struct session *s = ld->s;

	for (size_t i = 0; i < ld->nbad; i++) {
		const struct bad_kind *b = &ld->bad[i];
		const char *name = record_type_name(b->type);
		char tbuf[32];

		if (name == NULL) {
			snprintf(tbuf, sizeof tbuf, "type %u", b->type);
			name = tbuf;
		}
		diag_add(&s->diags, DIAG_ERROR, b->file, b->off,
		    "%llu damaged %s record%s (%s), the first here: ignored (dump and hex show it)",
		    (unsigned long long)b->n, name, b->n == 1 ? "" : "s", b->why);
		s->damaged = true;
	}
}

static void
process_rec(struct loader *ld, const struct rec *r, uint64_t *extra)
{
	struct session *s = ld->s;
	struct sample smp;
	const char *why;
	bool whole;
	int attr = -1;

	*extra = session_rec_trailing(r);
	switch (r->type) {
	case PF_REC_ATTR:
		process_header_attr(s, r);
		break;
	case PF_REC_EVENT_UPDATE:
		process_event_update(s, r);
		break;
	case PF_REC_ID_INDEX:
		process_id_index(s, r);
		break;
	case PF_REC_BUILD_ID:
		if (r->size >= 8 + 4 + 24) {
			const uint8_t *b = r->p + 8;
			uint8_t len = 20;

			if ((r->misc & PF_MISC_BUILD_ID_SIZE) && b[4 + 20] <= 20)
				len = b[4 + 20];
			features_add_build_id(&s->feat, (int32_t)rd32(b, s->swap), r->misc, b + 4,
			    len, (const char *)b + 28, r->size - 8 - 28);
		}
		break;
	case PF_REC_FEATURE:
		if (r->size >= 16) {
			uint64_t bit = rd64(r->p + 8, s->swap);

			if (bit < PF_FEAT_BITS) {
				struct feat_sec *fs = &s->feat.sec[bit];

				fs->present = true;
				fs->offset = r->loc + 16;
				fs->size = r->size - 16;
				s->feat_bits[bit / 64] |= UINT64_C(1) << (bit % 64);
				feature_decode(&s->feat, (unsigned)bit, r->p + 16, r->size - 16,
				    s->swap, r->loc + 16,
				    s->mode == SESSION_PIPE ? NULL : &s->attrs, &s->diags);
			}
		}
		break;
	default:
		break;
	}
	if (r->type == PERF_RECORD_SAMPLE || r->type < PF_REC_USER_TYPE_START)
		attr = record_attr(s, r);
	count_rec(s, r->type, attr);
	whole = record_check(s, r, &smp, &why) == 0;
	if (!whole)
		tally_bad(ld, r, why);
	if (ld->index) {
		if (r->type == PF_REC_FINISHED_ROUND) {
			GROW(ld->rounds, ld->caprounds, ld->nrounds + 1);
			ld->rounds[ld->nrounds++] = s->index.n;
		}
		index_rec(ld, r, attr, whole && r->type == PERF_RECORD_SAMPLE ? &smp : NULL);
	}
	if (r->type == PF_REC_COMPRESSED || r->type == PF_REC_COMPRESSED2)
		process_compressed(ld, r);
}

/*
 * Walk the records of [base, base + len) at location vstart.  For inner
 * (decompressed) regions a partial record at the end is left pending.
 */
static void
walk_region(struct loader *ld, uint64_t vstart, const uint8_t *base, uint64_t len,
    uint64_t file_off0, bool inner)
{
	struct session *s = ld->s;
	uint64_t pos = 0, dropped = 0;

	while (pos < len) {
		struct rec r;
		uint64_t extra = 0;
		uint32_t size;

		if (ld->stop)
			return;
		if (!inner)
			drop_behind(s, vstart, &dropped, pos);
		if (!inner && ld->progress != NULL && ld->done_before + pos >= ld->next_report) {
			ld->next_report = ld->done_before + pos + PROGRESS_STEP;
			if (ld->progress(ld->progress_arg, ld->done_before + pos, ld->total) != 0) {
				ld->stop = true;
				s->cancelled = true;
				s->stop_loc = vstart + pos;
				diag_add(&s->diags, DIAG_NOTE, ld->file, file_off0 + pos,
				    "loading stopped here on request");
				return;
			}
		}

		if (len - pos < 8) {
			if (!inner) {
				diag_add(&s->diags, DIAG_ERROR, ld->file, file_off0 + pos,
				    "truncated record header (%llu bytes left)",
				    (unsigned long long)(len - pos));
				s->damaged = true;
				s->files[ld->file].damaged = true;
			}
			break;
		}
		size = rd16(base + pos + 6, s->swap);
		if (size < 8) {
			diag_add(&s->diags, DIAG_ERROR, ld->file,
			    inner ? vstart + pos : file_off0 + pos,
			    "%srecord size %u is smaller than its header: cannot go on%s",
			    inner ? "decompressed " : "", size,
			    inner ? "" : " (records after it are lost)");
			s->damaged = true;
			if (inner) {
				ld->zbroken = true;
				ld->zpending = UINT64_MAX;
			} else {
				s->files[ld->file].damaged = true;
			}
			return;
		}
		if (size > len - pos) {
			if (!inner) {
				diag_add(&s->diags, DIAG_ERROR, ld->file, file_off0 + pos,
				    "record of type %u and size %u runs past the end of the data (%llu bytes left)",
				    rd32(base + pos, s->swap), size,
				    (unsigned long long)(len - pos));
				s->damaged = true;
				s->files[ld->file].damaged = true;
			}
			break;
		}
		/*
		 * Every record is charged what indexing it costs, indexed or
		 * not: every subcommand then stops at the same record.
		 */
		if (loader_used(ld) + REC_CHARGE > ld->budget &&
		    over_budget(ld, vstart + pos, REC_CHARGE))
			return;
		ld->charged += REC_CHARGE;
		r.p = base + pos;
		r.size = size;
		r.type = rd32(base + pos, s->swap);
		r.misc = rd16(base + pos + 4, s->swap);
		r.swap = s->swap;
		r.loc = vstart + pos;
		/* Decompressed: a record whose trailing data is still to come
		 * waits for the next step, as a partial record does. */
		if (inner && session_rec_trailing(&r) > len - pos - size)
			break;
		if (!inner)
			s->files[ld->file].nrecords++;
		else
			s->nr_containers_records++;
		if (inner) {
			struct zchunk *zc = &s->zchunks[s->nzchunks - 1];
			uint64_t z = r.loc - SESSION_ZLOC;

			if (zc->first_rec == UINT64_MAX && z >= zc->zoff)
				zc->first_rec = z;
			ld->zpending = z + size;
		}
		process_rec(ld, &r, &extra);
		if (inner) {
			/* process_rec may not grow zbuf for inner records, but be safe. */
			base = s->zbuf + (vstart - SESSION_ZLOC);
		}
		pos += size;
		if (extra > 0) {
			if (extra > len - pos) {
				diag_add(&s->diags, DIAG_ERROR, ld->file, file_off0 + pos,
				    "%llu bytes of data after the record run past the end",
				    (unsigned long long)extra);
				s->damaged = true;
				break;
			}
			if (r.type == PF_REC_TRACING_DATA && !s->feat.sec[PF_FEAT_TRACING_DATA].present) {
				/* Pipe mode: the tracing data follows the record. */
				struct feat_sec *fs = &s->feat.sec[PF_FEAT_TRACING_DATA];

				fs->present = true;
				fs->offset = inner ? r.loc + size : file_off0 + pos;
				fs->size = extra;
				feature_decode(&s->feat, PF_FEAT_TRACING_DATA, base + pos, extra,
				    s->swap, fs->offset, NULL, &s->diags);
			}
			pos += extra;
			if (inner)
				ld->zpending += extra;
		}
	}
}

static void
walk_file(struct loader *ld, uint32_t fi)
{
	struct session *s = ld->s;
	struct sfile *f = &s->files[fi];

	ld->file = fi;
	ld->zbroken = false;
	ld->zpending = s->zlen;
	if (s->zctx != NULL)
		ZSTD_DCtx_reset(s->zctx, ZSTD_reset_session_only);
	if (f->data_end > f->data_off)
		walk_region(ld, f->vbase + f->data_off, f->base + f->data_off,
		    f->data_end - f->data_off, f->data_off, false);

	if (ld->zabsurd > 1)
		diag_add(&s->diags, DIAG_WARN, fi, PERF_ERR_OFF_NONE,
		    "%s: %llu COMPRESSED records inflate more than %d times", f->path,
		    (unsigned long long)ld->zabsurd, ZRATIO_ABSURD);
	ld->zabsurd = 0;
	if (!ld->stop && ld->zpending != UINT64_MAX && ld->zpending < s->zlen) {
		diag_add(&s->diags, DIAG_ERROR, fi, PERF_ERR_OFF_NONE,
		    "%s: %llu decompressed bytes at the end do not form a whole record", f->path,
		    (unsigned long long)(s->zlen - ld->zpending));
		s->damaged = true;
	}
	if (ld->zskipped > 0) {
		diag_add(&s->diags, DIAG_ERROR, fi, PERF_ERR_OFF_NONE,
		    "%s: %llu COMPRESSED records skipped after a decompression error", f->path,
		    (unsigned long long)ld->zskipped);
		ld->zskipped = 0;
	}
}

/* Where each file's records are, with salvage of a bad data section. */
static void
set_data_ranges(struct session *s)
{
	struct sfile *f0 = &s->files[0];

	if (s->mode == SESSION_PIPE) {
		f0->data_off = sizeof(struct pf_pipe_header);
		f0->data_end = f0->size;
	} else {
		uint64_t off = s->data_sec.offset, size = s->data_sec.size;

		if (off < s->header_size && size > 0) {
			diag_add(&s->diags, DIAG_ERROR, 0, 40,
			    "data section offset 0x%llx lies inside the header",
			    (unsigned long long)off);
			s->damaged = true;
		}
		if (off > f0->size) {
			diag_add(&s->diags, DIAG_ERROR, 0, 40,
			    "data section offset 0x%llx lies beyond the end of the file (0x%llx)",
			    (unsigned long long)off, (unsigned long long)f0->size);
			s->damaged = true;
			off = f0->size;
			size = 0;
		} else if (size == 0 && s->nfiles == 1) {
			diag_add(&s->diags, DIAG_WARN, 0, 48,
			    "data size is 0 (perf record did not finish): reading records up to the end of the file");
			size = f0->size - off;
			s->damaged = true;
		} else if (size > f0->size - off) {
			diag_add(&s->diags, DIAG_ERROR, 0, 48,
			    "data section [0x%llx, +0x%llx) runs past the end of the file (0x%llx): reading what is there",
			    (unsigned long long)off, (unsigned long long)size,
			    (unsigned long long)f0->size);
			size = f0->size - off;
			s->damaged = true;
		}
		f0->data_off = off;
		f0->data_end = off + size;
	}
	for (size_t i = 1; i < s->nfiles; i++) {
		s->files[i].data_off = 0;
		s->files[i].data_end = s->files[i].size;
	}
}

static void
name_attrs(struct session *s)
{
	char buf[256];

	for (size_t i = 0; i < s->attrs.n; i++) {
		struct pn_attr *pa = &s->attrs.v[i];

		if (pa->name != NULL)
			continue;
		if (pa->attr.type == PERF_TYPE_TRACEPOINT) {
			const char *tp = features_tracepoint_name(&s->feat, pa->attr.config);

			if (tp != NULL) {
				pa->name = xstrdup(tp);
				continue;
			}
		}
		names_event_name(&pa->attr, buf, sizeof buf);
		pa->name = xstrdup(buf);
	}
}

uint64_t
session_default_budget(uint64_t size)
{
	long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && pg > 0 ? (uint64_t)pages * (uint64_t)pg : UINT64_C(8) << 30;
	uint64_t cap = ram / BUDGET_RAM_SHARE, b;

	if (size == 0)
		return cap;
	b = size > UINT64_MAX / BUDGET_FILE_MULT ? UINT64_MAX : size * BUDGET_FILE_MULT;
	if (b < BUDGET_FLOOR)
		b = BUDGET_FLOOR;
	return b < cap ? b : cap;
}

/*
 * Memory buffers as the session's files: unmapped and borrowed (never
 * freed); several are a directory's data, data.0, data.1, ...
 */
static int
open_mem(struct session *s, const struct session_mem *mem, size_t nmem, struct perf_err *err)
{
	s->files = xcalloc(nmem, sizeof *s->files);
	for (size_t i = 0; i < nmem; i++) {
		struct sfile *f = &s->files[i];

		if (nmem == 1)
			f->path = xstrdup(s->path);
		else if (i == 0 && asprintf(&f->path, "%s/data", s->path) < 0)
			fatal_oom(0);
		else if (i > 0 && asprintf(&f->path, "%s/data.%zu", s->path, i - 1) < 0)
			fatal_oom(0);
		f->base = mem[i].size > 0 ? mem[i].base : NULL;
		f->size = mem[i].size;
		f->borrowed = true;
		s->nfiles++;
		if (i > 0)
			f->vbase = (f[-1].vbase + f[-1].size + 8 + 7) & ~UINT64_C(7);
		if (f->vbase + f->size >= SESSION_ZLOC)
			return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
			    "%s: recording larger than %llu bytes", f->path,
			    (unsigned long long)SESSION_ZLOC);
	}
	if (nmem > 1)
		s->mode = SESSION_DIR;
	return 0;
}

/* session_open() and session_open_mem(): from path, or from mem if not NULL. */
static struct session *
open_session(const char *path, const struct session_mem *mem, size_t nmem,
    const struct session_opts *opts, struct perf_err *err)
{
	struct session *s = xcalloc(1, sizeof *s);
	struct loader ld;
	struct stat st;
	const struct sfile *f0;
	uint64_t magic;
	double t0 = now_s(), t;
	int rc;

	s->path = xstrdup(path);
	s->from_stdin = mem == NULL && strcmp(path, "-") == 0;
	s->mem_budget = opts ? opts->mem_budget : 0;
	s->stop_loc = UINT64_MAX;
	s->stop_zchunk = SIZE_MAX;
	if (mem != NULL) {
		rc = open_mem(s, mem, nmem, err);
	} else if (!s->from_stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = open_dir(s, path, err);
		s->mode = SESSION_DIR;
	} else {
		rc = open_one(s, path, false, err);
	}
	if (rc < 0)
		goto fail;
	f0 = &s->files[0];
	if (f0->size == 0) {
		perf_err_set(err, PERF_E_EMPTY, 0, "%s: empty file", f0->path);
		goto fail;
	}
	if (f0->size < 16) {
		perf_err_set(err, PERF_E_NOT_PERF, 0, "%s: offset 0x0: %llu bytes is too short for a perf.data header",
		    f0->path, (unsigned long long)f0->size);
		goto fail;
	}
	magic = rd64(f0->base, false);
	if (magic == PERF_MAGIC2) {
		s->swap = false;
	} else if (magic == PERF_MAGIC2_SWAPPED) {
		s->swap = true;
	} else if (magic == PERF_MAGIC1) {
		perf_err_set(err, PERF_E_UNSUPPORTED, 0,
		    "%s: offset 0x0: 'PERFFILE' (version 1) recordings of perf before 2.6.37 are not supported",
		    f0->path);
		goto fail;
	} else {
		perf_err_set(err, PERF_E_NOT_PERF, 0,
		    "%s: offset 0x0: not a perf.data file (no PERFILE2 magic)", f0->path);
		goto fail;
	}
	if (read_file_header(s, err) < 0)
		goto fail;
	if (s->mode != SESSION_PIPE) {
		if (s->mode != SESSION_DIR)
			s->mode = SESSION_FILE;
		read_attrs(s);
		attr_table_finish(&s->attrs);
		read_features(s);
		attr_table_finish(&s->attrs);
		read_event_types(s);
	}
	set_data_ranges(s);

	t = now_s();
	s->t_open = t - t0;
	memset(&ld, 0, sizeof ld);
	ld.s = s;
	ld.index = !(opts && opts->no_index);
	ld.progress = opts ? opts->progress : NULL;
	ld.progress_arg = opts ? opts->progress_arg : NULL;
	for (uint32_t i = 0; i < s->nfiles; i++)
		ld.total += s->files[i].data_end - s->files[i].data_off;
	if (s->mem_budget == 0) {
		uint64_t size = 0;

		for (uint32_t i = 0; i < s->nfiles; i++)
			size += s->files[i].size;
		s->mem_budget = session_default_budget(size);
	}
	ld.budget = s->mem_budget;
	/* What was read from a pipe is held in memory: it counts too. */
	for (uint32_t i = 0; i < s->nfiles; i++)
		if (!s->files[i].mapped && !s->files[i].borrowed)
			ld.charged += s->files[i].size;
	for (uint32_t i = 0; i < s->nfiles && !ld.stop; i++) {
		if (i > 0 && ld.index) {
			GROW(ld.rounds, ld.caprounds, ld.nrounds + 1);
			ld.rounds[ld.nrounds++] = s->index.n;
		}
		walk_file(&ld, i);
		ld.done_before += s->files[i].data_end - s->files[i].data_off;
	}
	report_bad(&ld);
	if (ld.progress != NULL && !ld.stop)
		ld.progress(ld.progress_arg, ld.total, ld.total);
	name_attrs(s);
	s->t_walk = now_s() - t;
	if (ld.index) {
		t = now_s();
		index_sort(&s->index, ld.rounds, ld.nrounds);
		s->t_sort = now_s() - t;
		t = now_s();
		thread_table_build(&s->threads, s);
		s->t_threads = now_s() - t;
	}
	/*
	 * Nothing read while loading needs to stay resident; the thread table's
	 * scattered reads of COMM/MMAP records alone map ~64 KiB around each.
	 */
	for (size_t i = 0; i < s->nfiles; i++)
		session_drop_pages(s, s->files[i].vbase, s->files[i].vbase + s->files[i].size);
	free(ld.rounds);
	if (s->zctx != NULL) {
		ZSTD_freeDCtx(s->zctx);
		s->zctx = NULL;
	}
	return s;
fail:
	session_close(s);
	return NULL;
}

struct session *
session_open(const char *path, const struct session_opts *opts, struct perf_err *err)
{
	return open_session(path, NULL, 0, opts, err);
}

struct session *
session_open_mem(const char *name, const struct session_mem *mem, size_t nmem,
    const struct session_opts *opts, struct perf_err *err)
{
	if (mem == NULL || nmem == 0) {
		perf_err_set(err, PERF_E_EMPTY, 0, "%s: no buffer", name);
		return NULL;
	}
	return open_session(name, mem, nmem, opts, err);
}

void
session_close(struct session *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		struct sfile *f = &s->files[i];

		if (f->mapped)
			munmap((void *)f->base, f->size);
		else if (!f->borrowed)
			free((void *)f->base);
		free(f->path);
	}
	free(s->files);
	attr_table_free(&s->attrs);
	features_free(&s->feat);
	free(s->zbuf);
	free(s->zchunks);
	if (s->zctx != NULL)
		ZSTD_freeDCtx(s->zctx);
	index_free(&s->index);
	free(s->attr_counts);
	thread_table_free(&s->threads);
	diag_free(&s->diags);
	free(s->kcore_dir);
	free(s->path);
	free(s);
}

/* ---- file-order walk of loaded data ---- */

static int
walk_inner(const struct session *s, const struct zchunk *zc, session_walk_fn fn, void *arg,
    bool *stopped)
{
	uint64_t pos = zc->first_rec, stop = UINT64_MAX;

	/* Loading stopped in this chunk (before a record, or at its end). */
	if (s->stop_loc != UINT64_MAX && s->stop_loc >= SESSION_ZLOC &&
	    s->stop_zchunk == (size_t)(zc - s->zchunks)) {
		stop = s->stop_loc - SESSION_ZLOC;
		*stopped = true;
	}
	while (pos < zc->zend && pos < stop) {
		struct rec r;
		int rc;

		if (session_rec(s, SESSION_ZLOC + pos, &r) < 0)
			return 0;
		rc = fn(arg, &r, 1);
		if (rc)
			return rc;
		pos += r.size + session_rec_trailing(&r);
	}
	return 0;
}

int
session_walk(const struct session *s, session_walk_fn fn, void *arg)
{
	size_t zi = 0;

	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];
		uint64_t pos = f->data_off, dropped = f->data_off;

		while (pos < f->data_end) {
			struct rec r;
			int rc;

			drop_behind(s, f->vbase, &dropped, pos);

			if (f->data_end - pos < 8 || session_rec(s, f->vbase + pos, &r) < 0 ||
			    pos + r.size > f->data_end)
				break;
			if (r.loc == s->stop_loc)
				return 0;	/* loading stopped here */
			rc = fn(arg, &r, 0);
			if (rc)
				return rc;
			if (r.type == PF_REC_COMPRESSED || r.type == PF_REC_COMPRESSED2) {
				while (zi < s->nzchunks && s->zchunks[zi].container < r.loc)
					zi++;
				if (zi < s->nzchunks && s->zchunks[zi].container == r.loc) {
					bool stopped = false;

					rc = walk_inner(s, &s->zchunks[zi], fn, arg, &stopped);
					if (rc || stopped)
						return rc;
				}
			}
			pos += r.size + session_rec_trailing(&r);
		}
	}
	return 0;
}
