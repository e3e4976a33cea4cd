#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/bytes.h"
#include "core/names.h"
#include "core/safefile.h"
#include "core/session.h"
#include "core/session_int.h"

/*
 * session_file.c: the files of a recording (one file, a pipe read whole,
 * or a perf.data directory's data and data.N, mapped or read) and what the
 * file header points at: the attrs and their ids, old perf's event types,
 * the feature sections.  core/session.c calls it when it opens a session.
 */

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
int
session_file_open(struct session *s, const char *path, bool in_dir, struct perf_err *err)
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
	if (rc == 0 && f->mapped && s->nfiles == 1 && !in_dir) {
		struct stat st;

		/* who the file is, for a cache entry (core/session_cache.h) */
		if (fstat(fd, &st) == 0) {
			s->id_ok = true;
			s->id_dev = (uint64_t)st.st_dev;
			s->id_ino = (uint64_t)st.st_ino;
			s->id_mtime_s = (uint64_t)st.st_mtim.tv_sec;
			s->id_mtime_ns = (uint64_t)st.st_mtim.tv_nsec;
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
int
session_file_open_dir(struct session *s, const char *path, struct perf_err *err)
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
	rc = session_file_open(s, p, true, err);
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
		if (session_file_open(s, p, true, &ferr) < 0) {
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

/* ---- the file header ---- */

/*
 * The first file's magic: sets s->swap from it, or refuses a file too
 * short, of perf's first format, or not a perf.data file.
 */
int
session_file_check_magic(struct session *s, struct perf_err *err)
{
	const struct sfile *f0 = &s->files[0];
	uint64_t magic;

	if (f0->size == 0)
		return perf_err_set(err, PERF_E_EMPTY, 0, "%s: empty file", f0->path);
	if (f0->size < 16)
		return perf_err_set(err, PERF_E_NOT_PERF, 0, "%s: offset 0x0: %llu bytes is too short for a perf.data header",
		    f0->path, (unsigned long long)f0->size);
	magic = rd64(f0->base, false);
	if (magic == PERF_MAGIC1)
		return perf_err_set(err, PERF_E_UNSUPPORTED, 0,
		    "%s: offset 0x0: 'PERFFILE' (version 1) recordings of perf before 2.6.37 are not supported",
		    f0->path);
	if (magic != PERF_MAGIC2 && magic != PERF_MAGIC2_SWAPPED)
		return perf_err_set(err, PERF_E_NOT_PERF, 0,
		    "%s: offset 0x0: not a perf.data file (no PERFILE2 magic)", f0->path);
	s->swap = magic == PERF_MAGIC2_SWAPPED;
	return 0;
}

int
session_file_read_header(struct session *s, struct perf_err *err)
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

void
session_file_read_attrs(struct session *s)
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
void
session_file_read_event_types(struct session *s)
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

void
session_file_read_features(struct session *s)
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

/* Where each file's records are, with salvage of a bad data section. */
void
session_file_data_ranges(struct session *s)
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
