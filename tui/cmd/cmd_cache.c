/*
 * cmd_cache.c: the cache's policy and perfnav cache.
 *
 * Where entries live ($XDG_CACHE_HOME/perfnav, else ~/.cache/perfnav, made
 * 0700), how large the cache may grow (--cache-size, 2 GiB by default: the
 * least recently used entries go first), when an entry is written (after
 * an open that loaded afresh, on a thread of its own) and what the user is
 * told (an entry refused, a save that failed); an index over the bound is
 * still moved to a file never named (session_cache_spill).  core/session_cache.h keeps
 * and checks the entries themselves.  perfnav cache list|clear shows and
 * empties the directory.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/hist_cache.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

#define CACHE_DEFAULT_SIZE	(UINT64_C(2) << 30)

uint64_t
cmd_cache_bound(const struct common_opts *co)
{
	return co->cache_size ? co->cache_size : CACHE_DEFAULT_SIZE;
}

const char *
cmd_cache_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int k;

	/* the XDG base directory rules: a relative XDG_CACHE_HOME is ignored */
	if (x != NULL && x[0] == '/')
		k = snprintf(buf, n, "%s/perfnav", x);
	else if (home != NULL && home[0] == '/')
		k = snprintf(buf, n, "%s/.cache/perfnav", home);
	else
		return NULL;
	return k > 0 && (size_t)k < n ? buf : NULL;
}

/* mkdir -p dir, each new level 0700.  0, or -1 (errno). */
static int
make_dirs(char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0)
		return 0;
	for (char *p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(dir, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* An entry of the directory, for eviction and list. */
struct centry {
	char		 name[64];
	uint64_t	 size;
	struct timespec	 used;
	bool		 tmp;
};

/* The cache files of the directory open at dfd, oldest use first; *n of them. */
static struct centry *
list_entries(int dfd, size_t *n)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct centry *v = NULL;
	size_t cap = 0;
	struct dirent *de;

	*n = 0;
	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		bool tmp;

		if (!session_cache_file_name(de->d_name, &tmp) || strlen(de->d_name) >= 64 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		GROW(v, cap, *n + 1);
		snprintf(v[*n].name, sizeof v[*n].name, "%s", de->d_name);
		v[*n].size = (uint64_t)st.st_size;
		v[*n].used = st.st_mtim;
		v[*n].tmp = tmp;
		(*n)++;
	}
	closedir(d);
	return v;
}

static int
older_first(const void *a, const void *b)
{
	const struct centry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Make room for need bytes under bound: the least recently used entries
 * go (keep: the one about to be written over), and temporary files a
 * writer left a day ago or more.
 */
static void
evict(int dfd, uint64_t bound, uint64_t need, const char *keep)
{
	size_t n;
	struct centry *v = list_entries(dfd, &n);
	uint64_t total = need;
	time_t day_ago = time(NULL) - 86400;

	if (n > 1)	/* none: v may be NULL */
		qsort(v, n, sizeof *v, older_first);
	for (size_t i = 0; i < n; i++)
		if (!v[i].tmp && (keep == NULL || strcmp(v[i].name, keep) != 0))
			total += v[i].size;
	for (size_t i = 0; i < n; i++) {
		if (v[i].tmp) {
			if (v[i].used.tv_sec < day_ago)
				unlinkat(dfd, v[i].name, 0);
			continue;
		}
		if (total <= bound)
			continue;
		if (keep != NULL && strcmp(v[i].name, keep) == 0)
			continue;
		if (unlinkat(dfd, v[i].name, 0) == 0)
			total -= v[i].size;
	}
	free(v);
}

int
cmd_cache_setup(const struct common_opts *co, char *dir, size_t n)
{
	struct perf_err err;
	int fd;

	if (co->no_cache || strcmp(co->input, "-") == 0 || cmd_cache_dir(dir, n) == NULL)
		return -1;
	if (make_dirs(dir) < 0)
		return -1;	/* nowhere to keep it: as --no-cache */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (session_cache_dir_ok(fd, dir, &err) < 0) {
		fprintf(stderr, "perfnav: %s\n", textout_esc(err.msg));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * May an index of bytes be spilled to a file of dir (never named) for the
 * session's life: its file system keeps twice that free.
 */
static bool
spill_room(const char *dir, uint64_t bytes)
{
	struct statvfs v;

	return statvfs(dir, &v) == 0 && bytes <= UINT64_MAX / 2 &&
	    (uint64_t)v.f_bavail >= 2 * bytes / (v.f_frsize ? v.f_frsize : 1);
}

/*
 * Make room under the bound in dir and save s's entry on a thread of its
 * own.  An entry larger than the bound is not saved: said in why (n bytes),
 * and false returned; its index is still moved to a file of dir that is
 * never named (session_cache_spill), when the disk has room.
 */
static bool
save_start(const struct common_opts *co, struct session *s, const char *dir, char *why, size_t n)
{
	struct session_cache_status st = session_cache_status(s);
	uint64_t bound = cmd_cache_bound(co);
	const char *slash;
	int dfd;

	if (st.savable && st.bytes > bound) {
		snprintf(why, n, "not cached: its index entry (%.1f MiB) is larger than --cache-size "
		    "(%.1f MiB); a larger --cache-size keeps it", (double)st.bytes / 1048576.0,
		    (double)bound / 1048576.0);
		if (spill_room(dir, st.bytes))
			(void)session_cache_spill_start(s);
		return false;
	}
	if (!st.savable)
		return true;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return true;
	slash = strrchr(st.path, '/');
	evict(dfd, bound, st.bytes, slash != NULL ? slash + 1 : NULL);
	close(dfd);
	(void)session_cache_save_start(s);
	return true;
}

void
cmd_cache_opened(const struct common_opts *co, struct session *s, const char *dir)
{
	struct session_cache_status st = session_cache_status(s);
	char why[200];

	if (st.state == SESSION_CACHE_REFUSED && st.err.offset != PERF_ERR_OFF_NONE)
		fprintf(stderr, "perfnav: %s: offset 0x%llx: %s: cache entry not used, loaded afresh\n",
		    textout_esc(st.path), (unsigned long long)st.err.offset, textout_esc(st.err.msg));
	else if (st.state == SESSION_CACHE_REFUSED)
		fprintf(stderr, "perfnav: %s: %s: cache entry not used, loaded afresh\n",
		    textout_esc(st.path), textout_esc(st.err.msg));
	if (!co->cache_own && !save_start(co, s, dir, why, sizeof why))
		fprintf(stderr, "perfnav: %s: %s\n", textout_esc(co->input), why);
}

bool
cmd_cache_save_index(const struct common_opts *co, struct session *s, char *why, size_t n)
{
	char dir[4096];

	/* the directory cmd_cache_setup checked at the open, when it gave one */
	if (s == NULL || !co->cache_own || co->no_cache || cmd_cache_dir(dir, sizeof dir) == NULL ||
	    !session_cache_status(s).savable)
		return true;
	return save_start(co, s, dir, why, n);
}

void
cmd_cache_close(struct session *s)
{
	struct perf_err err;

	if (s != NULL && session_cache_save_wait(s, &err) < 0)
		fprintf(stderr, "perfnav: index not written to the cache directory: %s\n",
		    textout_esc(err.msg));
}

/* ---- finished hists (symbolize/hist_cache.h) ---- */

/* A hist payload larger than this is neither written nor read. */
#define HIST_PAYLOAD_MAX	(UINT64_C(1) << 30)

enum hist_cache_result
cmd_cache_hist_read(const struct common_opts *co, const struct session *s, struct symbolizer *z,
    const struct sym_opts *so, const struct hist_opts *ho, struct hist **out)
{
	uint64_t sub = hist_cache_sub(ho, so);
	enum hist_cache_result res = HIST_CACHE_STALE;
	struct perf_err err;
	char *path;
	void *img;
	uint64_t base;
	size_t len;
	int rc;

	*out = NULL;
	if (co->no_cache || s == NULL || z == NULL || !hist_cache_able(s, ho))
		return HIST_CACHE_STALE;
	rc = session_cache_aux_read(s, sub, HIST_PAYLOAD_MAX, &img, &len, &base, &path, &err);
	if (rc > 0)
		res = hist_cache_unpack(s, z, ho, img, len, out, &err);
	if (rc < 0 || res == HIST_CACHE_REFUSED) {
		if (err.offset != PERF_ERR_OFF_NONE)
			fprintf(stderr, "perfnav: %s: offset 0x%llx: %s: cached rows not used, made afresh\n",
			    textout_esc(path), (unsigned long long)(err.offset + (rc > 0 ? base : 0)), textout_esc(err.msg));
		else
			fprintf(stderr, "perfnav: %s: %s: cached rows not used, made afresh\n",
			    textout_esc(path), textout_esc(err.msg));
		res = HIST_CACHE_REFUSED;
	}
	session_cache_aux_free(img, len, base);
	free(path);
	return rc > 0 ? res : HIST_CACHE_STALE;
}

enum hist_cache_result
cmd_cache_hist_get(struct cmd_run *r, const struct sym_opts *so, const struct hist_opts *ho,
    struct hist **out)
{
	return cmd_cache_hist_read(&r->co, r->s, r->z, so, ho, out);
}

bool
cmd_cache_hist_wanted(const struct common_opts *co, const struct session *s,
    const struct hist_opts *ho)
{
	return !co->no_cache && s != NULL && hist_cache_able(s, ho) &&
	    session_cache_status(s).path != NULL;
}

struct pack_fill {
	struct hist_pack	*k;
	const struct hist	*h;
};

static void
fill_pack(void *dst, size_t len, void *arg)
{
	struct pack_fill *f = arg;

	(void)len;
	hist_cache_pack_fill(f->k, f->h, dst);
	f->k = NULL;
}

void
cmd_cache_hist_write(const struct common_opts *co, const struct session *s, uint64_t sub,
    struct hist_pack *k, const struct hist *h)
{
	size_t len = hist_cache_pack_size(k, h);	/* 0: k freed */
	struct pack_fill f = { len > 0 ? k : NULL, h };
	struct perf_err err;
	int dfd;

	if (len > 0 && (uint64_t)len <= HIST_PAYLOAD_MAX && (uint64_t)len < cmd_cache_bound(co)) {
		const char *entry = session_cache_status(s).path;
		char dir[PATH_MAX];
		const char *slash = strrchr(entry, '/');

		snprintf(dir, sizeof dir, "%.*s", slash != NULL ? (int)(slash - entry) : 0, entry);
		if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			evict(dfd, cmd_cache_bound(co), len + 4096, NULL);
			close(dfd);
		}
		if (session_cache_aux_fill(s, sub, len, fill_pack, &f, &err) < 0)
			fprintf(stderr, "perfnav: cached rows not saved: %s\n", textout_esc(err.msg));
	}
	hist_cache_pack_free(f.k);	/* not written */
}

void
cmd_cache_hist_put(struct cmd_run *r, const struct sym_opts *so, struct hist *h)
{
	if (!cmd_cache_hist_wanted(&r->co, r->s, hist_opts(h)))
		return;
	cmd_cache_hist_write(&r->co, r->s, hist_cache_sub(hist_opts(h), so),
	    hist_cache_pack_start(h), h);
}

/* ---- perfnav cache list|clear ---- */

static int
cache_list(int dfd, const char *dir, uint64_t bound)
{
	size_t n;
	struct centry *v = list_entries(dfd, &n);
	uint64_t total = 0;
	size_t shown = 0;

	if (n > 1)	/* none: v may be NULL */
		qsort(v, n, sizeof *v, older_first);
	for (size_t i = n; i-- > 0;) {
		struct session_cache_desc d;
		struct perf_err err;
		char when[32];
		struct tm tm;
		time_t t = v[i].used.tv_sec;

		total += v[i].size;
		if (v[i].tmp)
			continue;
		if (shown++ == 0)
			printf("%-16s %9s %10s  %-8s %s\n", "Last used", "Size", "Records", "Version",
			    "Recording");
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime_r(&t, &tm));
		if (session_cache_describe(dfd, v[i].name, &d, &err) < 0) {
			printf("%-16s %8.1fM %10s  %-8s %s (unreadable: %s)\n", when,
			    (double)v[i].size / 1048576.0, "-", "-", v[i].name, textout_esc(err.msg));
			continue;
		}
		if (d.aux)	/* a finished aggregation (symbolize/hist_cache.h) */
			printf("%-16s %8.1fM %10s  %-8s %s\n", when, (double)v[i].size / 1048576.0,
			    "(rows)", textout_esc(d.version), textout_esc(d.recording));
		else
			printf("%-16s %8.1fM %10llu  %-8s %s\n", when, (double)v[i].size / 1048576.0,
			    (unsigned long long)d.nrecords, textout_esc(d.version),
			    textout_esc(d.recording));
	}
	printf("%zu entr%s, %.1f MiB of %.1f MiB in %s\n", shown, shown == 1 ? "y" : "ies",
	    (double)total / 1048576.0, (double)bound / 1048576.0, textout_esc(dir));
	free(v);
	return EXIT_OK;
}

static int
cache_clear(int dfd, const char *dir)
{
	size_t n, gone = 0;
	struct centry *v = list_entries(dfd, &n);
	uint64_t bytes = 0;
	int status = EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		if (unlinkat(dfd, v[i].name, 0) < 0) {
			fprintf(stderr, "perfnav cache: %s/%s: %s\n", textout_esc(dir), v[i].name,
			    strerror(errno));
			status = EXIT_FAIL;
			continue;
		}
		gone++;
		bytes += v[i].size;
	}
	printf("removed %zu file%s (%.1f MiB) from %s\n", gone, gone == 1 ? "" : "s",
	    (double)bytes / 1048576.0, textout_esc(dir));
	free(v);
	return status;
}

int
cmd_cache(int argc, char **argv)
{
	struct cmd_run r;
	char dir[4096];
	const char *what;
	struct perf_err err;
	int dfd, status;

	if (cmd_begin(&r, argc, argv, &cache_spec, NULL) < 0)
		return r.status;
	/* the action is the word a recording would take ("perf.data": none given) */
	what = strcmp(r.co.input, "perf.data") == 0 ? "list" : r.co.input;
	if (strcmp(what, "list") != 0 && strcmp(what, "clear") != 0) {
		fprintf(stderr, "perfnav cache: unknown action '%s' (list or clear)\n",
		    textout_esc(what));
		return EXIT_USAGE;
	}
	if (cmd_cache_dir(dir, sizeof dir) == NULL) {
		fprintf(stderr, "perfnav cache: no cache directory: neither XDG_CACHE_HOME nor HOME is an absolute path\n");
		return EXIT_FAIL;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 && errno == ENOENT) {
		printf("0 entries in %s (none made yet)\n", textout_esc(dir));
		return EXIT_OK;
	}
	if (dfd < 0) {
		fprintf(stderr, "perfnav cache: %s: %s\n", textout_esc(dir), strerror(errno));
		return EXIT_FAIL;
	}
	if (session_cache_dir_ok(dfd, dir, &err) < 0) {
		fprintf(stderr, "perfnav cache: %s\n", textout_esc(err.msg));
		close(dfd);
		return EXIT_FAIL;
	}
	status = strcmp(what, "list") == 0 ? cache_list(dfd, dir, cmd_cache_bound(&r.co)) :
					     cache_clear(dfd, dir);
	close(dfd);
	return status;
}

const struct cmd_spec cache_spec = {
	.name = "cache",
	.summary = "list or clear the cache of loaded recordings",
	.run = cmd_cache,
	.usage = "cache [OPTIONS] [list|clear]\n\n"
	    "The browser and the subcommands keep what loading a recording computed\n"
	    "(its record index) in $XDG_CACHE_HOME/perfnav (default ~/.cache/perfnav),\n"
	    "and the next open of the same recording maps it back instead of reading\n"
	    "the whole file; 'perfnav top' keeps its finished rows there too, per set\n"
	    "of options (Records '(rows)').  'list' (the default) shows each entry, most\n"
	    "recently used first, and the space they take of --cache-size; 'clear'\n"
	    "removes them.",
	.opts = NULL,
	.fn = NULL,
	.maxpos = 0,
};
