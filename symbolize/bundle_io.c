/*
 * bundle_io.c: reading bundles (bundle.h): the manifest, the tree's check,
 * tar files unpacked and packed through libarchive (plain or compressed;
 * sparse files as pax sparse entries), and opening a bundle or a perf
 * archive.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/safefile.h"
#include "symbolize/bundle.h"

#define NAME_MAX_LEN	1024	/* an entry's path in a tar */

/* snprintf for paths (a path too long is cut and then just not found). */
static void __attribute__((format(printf, 3, 4)))
pathf(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, n, fmt, ap);
	va_end(ap);
}

/* ---- the manifest ---- */

/* Is the value of key what this version writes? */
static bool
value_ok(const char *key, size_t klen, const char *v, size_t vlen)
{
	if (klen == 4 && memcmp(key, "data", 4) == 0)
		return vlen == 9 && memcmp(v, "perf.data", 9) == 0;
	if (klen == 8 && memcmp(key, "kallsyms", 8) == 0)
		return vlen == 8 && memcmp(v, "kallsyms", 8) == 0;
	return klen == 10 && memcmp(key, "created-by", 10) == 0 && vlen <= 200;
}

int
bundle_manifest_check(const char *name, const uint8_t *buf, size_t n, struct perf_err *err)
{
	static const char head[] = BUNDLE_MANIFEST " ";
	unsigned seen = 0;
	size_t off, eol;
	long v;
	char *end;
	char line[64];

	if (n > BUNDLE_MANIFEST_MAX)
		return perf_err_set(err, PERF_E_BAD_HEADER, BUNDLE_MANIFEST_MAX,
		    "%s: offset %u: longer than the %u bytes a manifest may be", name,
		    BUNDLE_MANIFEST_MAX, BUNDLE_MANIFEST_MAX);
	for (size_t i = 0; i < n; i++)
		if ((buf[i] < 0x20 && buf[i] != '\n') || buf[i] >= 0x7f)
			return perf_err_set(err, PERF_E_BAD_HEADER, i,
			    "%s: offset %zu: byte 0x%02x, not printable ASCII", name, i, buf[i]);
	if (n == 0 || buf[n - 1] != '\n')
		return perf_err_set(err, PERF_E_TRUNCATED, n,
		    "%s: offset %zu: truncated (the last line has no newline)", name, n);
	eol = (size_t)((const uint8_t *)memchr(buf, '\n', n) - buf);
	if (eol < sizeof head - 1 || memcmp(buf, head, sizeof head - 1) != 0)
		return perf_err_set(err, PERF_E_BAD_HEADER, 0,
		    "%s: offset 0: not a perfnav bundle manifest (its first line is not \"%s %d\")",
		    name, BUNDLE_MANIFEST, BUNDLE_VERSION);
	snprintf(line, sizeof line, "%.*s", (int)(eol - (sizeof head - 1)),
	    (const char *)buf + sizeof head - 1);
	v = strtol(line, &end, 10);
	if (end == line || *end != '\0' || v != BUNDLE_VERSION)
		return perf_err_set(err, PERF_E_UNSUPPORTED, sizeof head - 1,
		    "%s: offset %zu: version \"%s\": this perfnav reads version %d", name,
		    sizeof head - 1, line, BUNDLE_VERSION);
	for (off = eol + 1; off < n; off = eol + 1) {
		const char *l = (const char *)buf + off, *sp;
		size_t len;
		unsigned bit;

		eol = (size_t)((const uint8_t *)memchr(buf + off, '\n', n - off) - buf);
		len = eol - off;
		sp = memchr(l, ' ', len);
		if (sp == NULL || !value_ok(l, (size_t)(sp - l), sp + 1, len - (size_t)(sp - l) - 1))
			return perf_err_set(err, PERF_E_BAD_HEADER, off,
			    "%s: offset %zu: a line this version does not write: \"%.*s\"", name, off,
			    (int)(len > 60 ? 60 : len), l);
		bit = l[0] == 'd' ? 1 : l[0] == 'k' ? 2 : 4;
		if (seen & bit)
			return perf_err_set(err, PERF_E_BAD_HEADER, off,
			    "%s: offset %zu: \"%.*s\" given twice", name, off, (int)(sp - l), l);
		seen |= bit;
	}
	if (!(seen & 1))
		return perf_err_set(err, PERF_E_BAD_HEADER, n, "%s: offset %zu: no \"data\" line",
		    name, n);
	return 0;
}

/* ---- the tree ---- */

static bool link_inside(const char *rel, const char *target);

/* nftw has no argument for its callback: the walk's state, per thread. */
static _Thread_local struct {
	const char	*root;		/* realpath of the root */
	size_t		 rootlen;
	size_t		 givenlen;	/* of the root as nftw names it */
	size_t		 n;
	struct perf_err	*err;
	int		 failed;
} tw;

static int
tree_fail(const char *path, const char *what, const char *arg)
{
	perf_err_set(tw.err, PERF_E_BAD_HEADER, PERF_ERR_OFF_NONE, "%s: %s%s", path, what, arg);
	tw.failed = 1;
	return 1;
}

static int
tree_visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	char real[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	if (++tw.n > BUNDLE_ENTRIES_MAX)
		return tree_fail(path, "more than 100000 entries in the bundle", "");
	if (ftw->level > BUNDLE_DEPTH_MAX)
		return tree_fail(path, "nested deeper than 64 directories", "");
	switch (type) {
	case FTW_D:
		return 0;
	case FTW_F:
		return S_ISREG(sb->st_mode) ? 0 :
		    tree_fail(path, S_ISFIFO(sb->st_mode) ? "a FIFO" : S_ISSOCK(sb->st_mode) ?
		    "a socket" : "a device", ", not a regular file, directory or link");
	case FTW_SL:
	case FTW_SLN:
		n = readlink(path, target, sizeof target - 1);
		target[n > 0 ? n : 0] = '\0';
		if (realpath(path, real) == NULL) {
			/* to nothing: harmless if it would point inside */
			if (path[tw.givenlen] == '/' && link_inside(path + tw.givenlen + 1, target))
				return 0;
			return tree_fail(path, "a symbolic link out of the bundle -> ", target);
		}
		if (strncmp(real, tw.root, tw.rootlen) != 0 ||
		    (real[tw.rootlen] != '/' && real[tw.rootlen] != '\0'))
			return tree_fail(path, "a symbolic link out of the bundle -> ", target);
		return 0;
	default:
		return tree_fail(path, "cannot be read", "");
	}
}

int
bundle_check_tree(const char *root, struct perf_err *err)
{
	char real[PATH_MAX];

	if (realpath(root, real) == NULL)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", root,
		    strerror(errno));
	memset(&tw, 0, sizeof tw);
	tw.root = real;
	tw.rootlen = strlen(real);
	tw.givenlen = strlen(root);
	tw.err = err;
	if (nftw(root, tree_visit, 16, FTW_PHYS) != 0 && !tw.failed)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot walk: %s", root,
		    strerror(errno));
	return tw.failed ? -1 : 0;
}

static int
rm_visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int
bundle_rmtree(const char *dir)
{
	return nftw(dir, rm_visit, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- unpacking ---- */

/*
 * An entry's path made relative and plain into out ("./a//b/" -> "a/b");
 * NULL (what is wrong in *why) for an absolute one, one with "..", a
 * control character, or too long.  "" for the top directory itself.
 */
static const char *
entry_name(const char *name, char *out, size_t n, const char **why)
{
	size_t o = 0, depth = 0;
	const char *p = name;

	if (strlen(name) >= NAME_MAX_LEN || strlen(name) >= n) {
		*why = "a path longer than 1024 bytes";
		return NULL;
	}
	if (name[0] == '/') {
		*why = "an absolute path";
		return NULL;
	}
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			*why = "a control character in its path";
			return NULL;
		}
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			*why = "a path with \"..\"";
			return NULL;
		}
		if (len > 0 && !(len == 1 && p[0] == '.')) {
			if (o > 0)
				out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
			depth++;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	out[o] = '\0';
	if (depth > BUNDLE_DEPTH_MAX) {
		*why = "a path nested too deep";
		return NULL;
	}
	return out;
}

/* Does a link at rel (a plain relative path) to target stay inside? */
static bool
link_inside(const char *rel, const char *target)
{
	long depth = 0;
	const char *p = target;

	if (target[0] == '/' || target[0] == '\0' || strlen(target) >= NAME_MAX_LEN)
		return false;
	for (const char *c = rel; *c; c++)	/* the link's own directory's depth */
		depth += *c == '/';
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (len > 0 && !(len == 1 && p[0] == '.')) {
			depth++;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	return true;
}

/* The directories above rel made, none of them a link.  0, or -1 (*why). */
static int
make_parents(const char *dir, const char *rel, const char **why)
{
	char p[PATH_MAX];
	size_t dl = strlen(dir);
	struct stat sb;

	pathf(p, sizeof p, "%s/%s", dir, rel);
	for (char *c = p + dl + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (lstat(p, &sb) == 0) {
			if (!S_ISDIR(sb.st_mode)) {
				*why = S_ISLNK(sb.st_mode) ? "a path through a symbolic link" :
				    "a path through a file";
				return -1;
			}
		} else if (mkdir(p, 0755) < 0) {
			*why = "a directory that cannot be made";
			return -1;
		}
		*c = '/';
	}
	return 0;
}

struct unpack {
	struct archive	*a;
	const char	*name;
	const char	*dir;
	uint64_t	 total;
	struct perf_err	*err;
};

static int
bad_entry(struct unpack *u, uint64_t pos, const char *ename, const char *why)
{
	return perf_err_set(u->err, PERF_E_BAD_RECORD, pos, "%s: offset 0x%llx: entry \"%.200s\": %s",
	    u->name, (unsigned long long)pos, ename, why);
}

/* A regular file's data into dir/rel. */
static int
unpack_file(struct unpack *u, struct archive_entry *e, const char *rel, uint64_t pos)
{
	char p[PATH_MAX];
	la_int64_t size = archive_entry_size(e);
	const void *buf;
	size_t len;
	la_int64_t off;
	int fd, r;

	if (!archive_entry_size_is_set(e) || size < 0)
		return bad_entry(u, pos, rel, "a file with no size");
	if ((uint64_t)size > BUNDLE_TOTAL_MAX - u->total)
		return bad_entry(u, pos, rel, "a size over the 64 GiB a bundle may unpack to");
	u->total += (uint64_t)size;
	pathf(p, sizeof p, "%s/%s", u->dir, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return bad_entry(u, pos, rel, errno == EEXIST ? "in the tar twice" : strerror(errno));
	while ((r = archive_read_data_block(u->a, &buf, &len, &off)) == ARCHIVE_OK) {
		if (off < 0 || (uint64_t)off > (uint64_t)size || len > (uint64_t)size - (uint64_t)off) {
			close(fd);
			return bad_entry(u, pos, rel, "data past its size");
		}
		if (len > 0 && pwrite(fd, buf, len, (off_t)off) != (ssize_t)len) {
			close(fd);
			return bad_entry(u, pos, rel, strerror(errno));
		}
	}
	if (r != ARCHIVE_EOF) {
		close(fd);
		return perf_err_set(u->err, PERF_E_TRUNCATED, pos,
		    "%s: offset 0x%llx: entry \"%.200s\": truncated or damaged: %s", u->name,
		    (unsigned long long)pos, rel, archive_error_string(u->a));
	}
	if (ftruncate(fd, (off_t)size) < 0 || close(fd) < 0)
		return bad_entry(u, pos, rel, strerror(errno));
	return 0;
}

/* One entry, checked, into u->dir. */
static int
unpack_entry(struct unpack *u, struct archive_entry *e, uint64_t pos)
{
	const char *name = archive_entry_pathname(e), *why = NULL, *target;
	char rel[NAME_MAX_LEN + 1], p[PATH_MAX];
	struct stat sb;

	if (name == NULL)
		return bad_entry(u, pos, "", "no path");
	if (entry_name(name, rel, sizeof rel, &why) == NULL)
		return bad_entry(u, pos, name, why);
	if (archive_entry_hardlink(e) != NULL)
		return bad_entry(u, pos, rel, "a hard link");
	if (rel[0] == '\0')
		return 0;	/* "./" itself */
	if (make_parents(u->dir, rel, &why) < 0)
		return bad_entry(u, pos, rel, why);
	pathf(p, sizeof p, "%s/%s", u->dir, rel);
	switch (archive_entry_filetype(e)) {
	case AE_IFDIR:
		if (mkdir(p, 0755) == 0 || (errno == EEXIST && lstat(p, &sb) == 0 &&
		    S_ISDIR(sb.st_mode)))
			return 0;
		return bad_entry(u, pos, rel, "a directory where a file or link is");
	case AE_IFLNK:
		target = archive_entry_symlink(e);
		if (target == NULL || !link_inside(rel, target))
			return bad_entry(u, pos, rel, "a symbolic link out of the bundle");
		if (symlink(target, p) < 0)
			return bad_entry(u, pos, rel, errno == EEXIST ? "in the tar twice" :
			    strerror(errno));
		return 0;
	case AE_IFREG:
		return unpack_file(u, e, rel, pos);
	default:
		return bad_entry(u, pos, rel, "not a regular file, directory or symbolic link");
	}
}

int
bundle_unpack(const char *name, const char *path, const void *buf, size_t n, const char *dir,
    struct perf_err *err)
{
	struct unpack u = { archive_read_new(), name, dir, 0, err };
	struct archive_entry *e;
	size_t count = 0;
	int r, rc = 0;

	/* the compressions libarchive decodes itself: none that runs a program */
	archive_read_support_filter_gzip(u.a);
	archive_read_support_filter_bzip2(u.a);
	archive_read_support_filter_xz(u.a);
	archive_read_support_filter_lzma(u.a);
	archive_read_support_filter_zstd(u.a);
	archive_read_support_format_tar(u.a);
	r = buf != NULL ? archive_read_open_memory(u.a, buf, n) :
	    archive_read_open_filename(u.a, path, 1 << 16);
	if (r != ARCHIVE_OK) {
		rc = perf_err_set(err, PERF_E_BAD_HEADER, 0, "%s: offset 0x0: not a tar file: %s",
		    name, archive_error_string(u.a));
		goto out;
	}
	for (;;) {
		uint64_t pos;

		r = archive_read_next_header(u.a, &e);
		pos = (uint64_t)archive_read_header_position(u.a);
		if (r == ARCHIVE_EOF)
			break;
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			rc = perf_err_set(err, PERF_E_TRUNCATED, pos,
			    "%s: offset 0x%llx: truncated or damaged: %s", name,
			    (unsigned long long)pos, archive_error_string(u.a));
			break;
		}
		if (++count > BUNDLE_ENTRIES_MAX) {
			rc = perf_err_set(err, PERF_E_BAD_RECORD, pos,
			    "%s: offset 0x%llx: more than %u entries", name, (unsigned long long)pos,
			    BUNDLE_ENTRIES_MAX);
			break;
		}
		if ((rc = unpack_entry(&u, e, pos)) < 0)
			break;
	}
out:
	archive_read_free(u.a);
	if (rc == 0)
		rc = bundle_check_tree(dir, err);
	return rc;
}

/* ---- packing ---- */

static _Thread_local struct {
	struct archive	*a;
	size_t		 rootlen;
	struct perf_err	*err;
	int		 failed;
} pw;

/* A file's data regions as sparse entries, when it has holes. */
static void
add_sparse(struct archive_entry *e, int fd, off_t size)
{
	off_t data = lseek(fd, 0, SEEK_DATA), hole;

	if (data >= 0 && (data > 0 || lseek(fd, 0, SEEK_HOLE) < size)) {
		while (data >= 0 && data < size) {
			hole = lseek(fd, data, SEEK_HOLE);
			if (hole < 0)
				hole = size;
			archive_entry_sparse_add_entry(e, data, hole - data);
			data = lseek(fd, hole, SEEK_DATA);
		}
	}
	lseek(fd, 0, SEEK_SET);
}

static int
pack_data(int fd)
{
	static char buf[1 << 16];
	ssize_t r;

	while ((r = read(fd, buf, sizeof buf)) > 0)
		if (archive_write_data(pw.a, buf, (size_t)r) != r)
			return -1;
	return r < 0 ? -1 : 0;
}

static int
pack_visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	struct archive_entry *e;
	char target[PATH_MAX];
	int fd = -1, rc = 0;
	ssize_t n;

	(void)ftw;
	if (path[pw.rootlen] == '\0')
		return 0;
	e = archive_entry_new();
	archive_entry_copy_stat(e, sb);
	archive_entry_set_pathname(e, path + pw.rootlen + 1);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	if (type == FTW_SL) {
		n = readlink(path, target, sizeof target - 1);
		target[n > 0 ? n : 0] = '\0';
		archive_entry_set_symlink(e, target);
	} else if (type == FTW_F && S_ISREG(sb->st_mode)) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			rc = -1;
		else
			add_sparse(e, fd, sb->st_size);
	} else if (type != FTW_D) {
		rc = -1;
	}
	if (rc == 0 && archive_write_header(pw.a, e) != ARCHIVE_OK)
		rc = -1;
	if (rc == 0 && fd >= 0)
		rc = pack_data(fd);
	if (fd >= 0)
		close(fd);
	archive_entry_free(e);
	if (rc < 0) {
		perf_err_set(pw.err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot pack: %s", path,
		    archive_error_string(pw.a) ? archive_error_string(pw.a) : strerror(errno));
		pw.failed = 1;
		return 1;
	}
	return 0;
}

static bool
ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

bool
bundle_tar_name(const char *path)
{
	return ends(path, ".tar") || ends(path, ".tar.gz") || ends(path, ".tgz") ||
	    ends(path, ".tar.bz2") || ends(path, ".tar.xz") || ends(path, ".tar.zst");
}

int
bundle_pack(const char *dir, const char *path, struct perf_err *err)
{
	int fd, r;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", path,
		    strerror(errno));
	memset(&pw, 0, sizeof pw);
	pw.a = archive_write_new();
	pw.rootlen = strlen(dir);
	pw.err = err;
	archive_write_set_format_pax_restricted(pw.a);
	if (ends(path, ".gz") || ends(path, ".tgz"))
		archive_write_add_filter_gzip(pw.a);
	else if (ends(path, ".bz2"))
		archive_write_add_filter_bzip2(pw.a);
	else if (ends(path, ".xz"))
		archive_write_add_filter_xz(pw.a);
	else if (ends(path, ".zst"))
		archive_write_add_filter_zstd(pw.a);
	r = archive_write_open_fd(pw.a, fd);
	if (r != ARCHIVE_OK)
		pw.failed = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", path,
		    archive_error_string(pw.a)) != 0;
	else if (nftw(dir, pack_visit, 16, FTW_PHYS) != 0 && !pw.failed)
		pw.failed = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot walk: %s",
		    dir, strerror(errno)) != 0;
	if (archive_write_close(pw.a) != ARCHIVE_OK && !pw.failed)
		pw.failed = perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", path,
		    archive_error_string(pw.a)) != 0;
	archive_write_free(pw.a);
	close(fd);
	if (pw.failed)
		unlink(path);
	return pw.failed ? -1 : 0;
}

/* ---- opening ---- */

/* Does the file at path start as a tar or a compressed stream? */
static bool
archive_magic(const char *path)
{
	uint8_t b[512];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return false;
	n = read(fd, b, sizeof b);
	close(fd);
	if (n < 4)
		return false;
	return (b[0] == 0x1f && b[1] == 0x8b) || memcmp(b, "BZh", 3) == 0 ||
	    memcmp(b, "\xfd" "7zXZ", 5) == 0 || memcmp(b, "\x28\xb5\x2f\xfd", 4) == 0 ||
	    (n >= 262 && memcmp(b + 257, "ustar", 5) == 0);
}

static const struct safefile_rule manifest_rule = {
	.what = "a bundle manifest",
	.cap = BUNDLE_MANIFEST_MAX,
};

static char *
join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* The bundle in directory root (its manifest there): checked, into b. */
static int
open_dir(const char *shown, const char *root, struct bundle_in *b, struct perf_err *err)
{
	char *man = join(root, BUNDLE_MANIFEST), name[PATH_MAX];
	uint8_t buf[BUNDLE_MANIFEST_MAX + 1];
	struct safefile_note sn;
	struct stat sb;
	ssize_t n;
	int fd = safefile_open(man, &manifest_rule, NULL, &sn);

	pathf(name, sizeof name, "%s/%s", shown, BUNDLE_MANIFEST);
	free(man);
	if (fd < 0)
		return perf_err_set(err, PERF_E_BAD_HEADER, PERF_ERR_OFF_NONE, "%s: %s", name,
		    sn.why[0] ? sn.why : "cannot be read");
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", name,
		    strerror(errno));
	if (bundle_manifest_check(name, buf, (size_t)n, err) < 0 || bundle_check_tree(root, err) < 0)
		return -1;
	b->root = xstrdup(root);
	b->data = join(root, "perf.data");
	if (lstat(b->data, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		free(b->root);
		free(b->data);
		memset(b, 0, sizeof *b);
		return perf_err_set(err, PERF_E_BAD_HEADER, PERF_ERR_OFF_NONE,
		    "%s/perf.data: missing, or not a regular file", shown);
	}
	b->kallsyms = join(root, "kallsyms");
	if (lstat(b->kallsyms, &sb) < 0) {
		free(b->kallsyms);
		b->kallsyms = xstrdup("/dev/null");
	}
	return 1;
}

/* A tar at path unpacked into a new temporary directory: its path, or NULL. */
static char *
unpack_tmp(const char *path, struct perf_err *err)
{
	const char *t = getenv("TMPDIR");
	char *dir = join(t && t[0] ? t : "/tmp", "perfnav-bundle.XXXXXX");

	if (mkdtemp(dir) == NULL) {
		perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot make a directory: %s",
		    dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (bundle_unpack(path, path, NULL, 0, dir, err) < 0) {
		bundle_rmtree(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

int
bundle_open(const char *path, struct bundle_in *b, struct perf_err *err)
{
	struct stat sb;
	char *man, *dir;
	int rc;

	if (stat(path, &sb) < 0)
		return 0;
	if (S_ISDIR(sb.st_mode)) {
		man = join(path, BUNDLE_MANIFEST);
		rc = lstat(man, &sb);
		free(man);
		return rc < 0 ? 0 : open_dir(path, path, b, err);
	}
	if (!S_ISREG(sb.st_mode) || !archive_magic(path))
		return 0;
	if ((dir = unpack_tmp(path, err)) == NULL)
		return -1;
	man = join(dir, BUNDLE_MANIFEST);
	rc = lstat(man, &sb);
	free(man);
	if (rc < 0) {
		man = join(dir, ".build-id");
		rc = lstat(man, &sb);
		free(man);
		bundle_rmtree(dir);
		free(dir);
		if (rc == 0)
			return perf_err_set(err, PERF_E_NOT_PERF, PERF_ERR_OFF_NONE,
			    "%s: a perf archive (a build-id cache, no recording): give it as --buildid-dir %s with the recording",
			    path, path);
		return perf_err_set(err, PERF_E_NOT_PERF, PERF_ERR_OFF_NONE,
		    "%s: a tar with no %s manifest: not a perfnav bundle", path, BUNDLE_MANIFEST);
	}
	rc = open_dir(path, dir, b, err);
	if (rc < 0) {
		bundle_rmtree(dir);
		free(dir);
		return -1;
	}
	b->tmp = dir;
	return 1;
}

int
bundle_open_cache(const char *path, struct bundle_in *b, struct perf_err *err)
{
	struct stat sb;
	char *dir;

	if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode) || !archive_magic(path))
		return 0;
	if ((dir = unpack_tmp(path, err)) == NULL)
		return -1;
	memset(b, 0, sizeof *b);
	b->root = xstrdup(dir);
	b->tmp = dir;
	return 1;
}

void
bundle_in_free(struct bundle_in *b)
{
	if (b->tmp != NULL)
		bundle_rmtree(b->tmp);
	free(b->tmp);
	free(b->root);
	free(b->data);
	free(b->kallsyms);
	memset(b, 0, sizeof *b);
}
