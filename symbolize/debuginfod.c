/*
 * debuginfod.c: files by build id from debuginfod servers through
 * libdebuginfod (see debuginfod.h).  The client reads DEBUGINFOD_URLS,
 * DEBUGINFOD_CACHE_PATH, DEBUGINFOD_TIMEOUT and its other variables
 * itself; this file decides whether to make one, counts the downloads for
 * a progress display, stops them when asked, lets no two threads fetch one
 * file at once, and remembers which files it gave (for top --why).
 */
#include "config.h"

#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "symbolize/debuginfod.h"

/*
 * The files being fetched in this process, by any client: a thread that
 * wants one another is fetching waits for it, then finds it in the cache
 * (two symbol workers never download one file twice).
 */
#define FETCH_MAX	16
static pthread_mutex_t	fetch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	fetch_moved = PTHREAD_COND_INITIALIZER;
static struct {
	uint8_t		bid[20];
	uint8_t		len;
	uint8_t		kind;
	bool		used;
} fetching[FETCH_MAX];

/*
 * libdebuginfod, opened on the first dbgd_new that has servers to ask: it
 * brings libcurl, GnuTLS and Kerberos (28 more libraries, 3 ms and 6 MB at
 * every start), which a run that asks no server never loads.  Its header's
 * prototypes type the pointers.
 */
static struct {
	__typeof__(debuginfod_begin)		*begin;
	__typeof__(debuginfod_end)		*end;
	__typeof__(debuginfod_find_executable)	*find_executable;
	__typeof__(debuginfod_find_debuginfo)	*find_debuginfo;
	__typeof__(debuginfod_set_progressfn)	*set_progressfn;
	__typeof__(debuginfod_set_user_data)	*set_user_data;
	__typeof__(debuginfod_get_user_data)	*get_user_data;
	__typeof__(debuginfod_get_url)		*get_url;
	bool					 ok;
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void
lib_load(void)
{
	void *h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL)
		return;
	lib.begin = (__typeof__(lib.begin))dlsym(h, "debuginfod_begin");
	lib.end = (__typeof__(lib.end))dlsym(h, "debuginfod_end");
	lib.find_executable = (__typeof__(lib.find_executable))dlsym(h, "debuginfod_find_executable");
	lib.find_debuginfo = (__typeof__(lib.find_debuginfo))dlsym(h, "debuginfod_find_debuginfo");
	lib.set_progressfn = (__typeof__(lib.set_progressfn))dlsym(h, "debuginfod_set_progressfn");
	lib.set_user_data = (__typeof__(lib.set_user_data))dlsym(h, "debuginfod_set_user_data");
	lib.get_user_data = (__typeof__(lib.get_user_data))dlsym(h, "debuginfod_get_user_data");
	lib.get_url = (__typeof__(lib.get_url))dlsym(h, "debuginfod_get_url");
	lib.ok = lib.begin && lib.end && lib.find_executable && lib.find_debuginfo &&
	    lib.set_progressfn && lib.set_user_data && lib.get_user_data && lib.get_url;
	/* never closed: its clients may live until exit */
}

/* A question asked: what it gave. */
struct dbgd_ans {
	uint8_t		 bid[20];
	uint8_t		 len;
	uint8_t		 kind;
	char		*path;		/* NULL: none */
	char		*url;		/* "" when it was in the cache */
};

/* At most so many answers are kept (a DSO asks at most two; looked up one
 * by one); beyond, questions are still answered (by the client's cache
 * the second time). */
#define DBGD_MAX_ANS	8192

struct dbgd {
	debuginfod_client		*client;	/* made on the first question */
	bool				 broken;	/* lib.begin failed: ask nothing */
	bool				 no_more;	/* dbgd_stop_asking: answers kept only */
	struct sym_dbgd_progress	*prog;
	/* this client's share of prog's counters while it downloads */
	long				 done, total;
	bool				 counted;
	struct dbgd_ans			*ans;
	size_t				 n, cap;
};

struct dbgd *
dbgd_new(const struct sym_opts *o)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	struct dbgd *g;

	if (o->no_debuginfod || urls == NULL || strspn(urls, " \t\n") == strlen(urls))
		return NULL;
	pthread_once(&lib_once, lib_load);
	if (!lib.ok)	/* libdebuginfod.so.1 not installed: as without servers */
		return NULL;
	g = xcalloc(1, sizeof *g);
	g->prog = o->dbgd_progress;
	return g;
}

void
dbgd_free(struct dbgd *g)
{
	if (g == NULL)
		return;
	if (g->client != NULL)
		lib.end(g->client);
	for (size_t i = 0; i < g->n; i++) {
		free(g->ans[i].path);
		free(g->ans[i].url);
	}
	free(g->ans);
	free(g);
}

const char *
dbgd_kind_name(enum dbgd_kind k)
{
	return k == DBGD_DEBUGINFO ? "debuginfo" : "executable";
}

/* Take this client's share out of the shared counters (its download ended). */
static void
prog_end(struct dbgd *g)
{
	if (g->prog == NULL || !g->counted)
		return;
	atomic_fetch_sub(&g->prog->done, g->done);
	atomic_fetch_sub(&g->prog->total, g->total);
	atomic_fetch_sub(&g->prog->active, 1);
	g->done = g->total = 0;
	g->counted = false;
}

/*
 * libdebuginfod's progress callback, called while a download runs: a
 * bytes so far, b the size announced (<= 0: unknown).  Non-zero abandons
 * the download.
 */
static int
on_progress(debuginfod_client *c, long a, long b)
{
	struct dbgd *g = lib.get_user_data(c);
	struct sym_dbgd_progress *p = g->prog;

	if (p == NULL)
		return 0;
	if (!g->counted) {
		atomic_fetch_add(&p->active, 1);
		g->counted = true;
	}
	if (a < 0)
		a = 0;
	if (b < 0)
		b = 0;
	atomic_fetch_add(&p->done, a - g->done);
	atomic_fetch_add(&p->total, b - g->total);
	g->done = a;
	g->total = b;
	return atomic_load(&p->stop) ? 1 : 0;
}

static bool
client_ready(struct dbgd *g)
{
	if (g->client != NULL)
		return true;
	if (g->broken)
		return false;
	g->client = lib.begin();
	if (g->client == NULL) {
		g->broken = true;
		return false;
	}
	lib.set_user_data(g->client, g);
	/*
	 * Always our own callback: the one DEBUGINFOD_PROGRESS installs writes
	 * to stderr, under the browser's screen.
	 */
	lib.set_progressfn(g->client, on_progress);
	return true;
}

static struct dbgd_ans *
ans_find(const struct dbgd *g, const uint8_t *bid, size_t len, enum dbgd_kind k)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->ans[i].len == len && g->ans[i].kind == k && memcmp(g->ans[i].bid, bid, len) == 0)
			return &g->ans[i];
	return NULL;
}

static bool
stopped(const struct dbgd *g)
{
	return g->prog != NULL && atomic_load(&g->prog->stop);
}

/*
 * Wait while another thread fetches (bid, k), then take a slot for it: its
 * index, or -1 with no slot free (the question goes on untracked) or when
 * stopped (*stop set).
 */
static int
fetch_begin(const struct dbgd *g, const uint8_t *bid, size_t len, enum dbgd_kind k, bool *stop)
{
	int slot = -1;
	bool busy;

	*stop = false;
	pthread_mutex_lock(&fetch_lock);
	do {
		busy = false;
		for (int i = 0; i < FETCH_MAX && !busy; i++)
			busy = fetching[i].used && fetching[i].len == len && fetching[i].kind == k &&
			    memcmp(fetching[i].bid, bid, len) == 0;
		if (busy) {
			struct timespec ts;

			/* a stop flag is looked at every 100 ms meanwhile */
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&fetch_moved, &fetch_lock, &ts);
			*stop = stopped(g);
		}
	} while (busy && !*stop);
	for (int i = 0; i < FETCH_MAX && slot < 0 && !*stop; i++)
		if (!fetching[i].used) {
			slot = i;
			fetching[i].used = true;
			fetching[i].len = (uint8_t)len;
			fetching[i].kind = (uint8_t)k;
			memcpy(fetching[i].bid, bid, len);
		}
	pthread_mutex_unlock(&fetch_lock);
	return slot;
}

static void
fetch_end(int slot)
{
	if (slot < 0)
		return;
	pthread_mutex_lock(&fetch_lock);
	fetching[slot].used = false;
	pthread_cond_broadcast(&fetch_moved);
	pthread_mutex_unlock(&fetch_lock);
}

/* Ask the servers (or the cache); the answer's path or NULL. */
static char *
ask(struct dbgd *g, const uint8_t *bid, size_t len, enum dbgd_kind k, char **url)
{
	char *path = NULL;
	const char *u;
	bool stop;
	int fd, slot;

	*url = NULL;
	if (g->no_more || !client_ready(g) || stopped(g))
		return NULL;
	slot = fetch_begin(g, bid, len, k, &stop);
	if (stop)
		return NULL;
	fd = k == DBGD_DEBUGINFO ?
	    lib.find_debuginfo(g->client, bid, (int)len, &path) :
	    lib.find_executable(g->client, bid, (int)len, &path);
	prog_end(g);
	fetch_end(slot);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	/* the URL of a download made now; none when the cache had the file */
	u = lib.get_url(g->client);
	*url = xstrdup(u != NULL ? u : "");
	if (u != NULL && g->prog != NULL)
		atomic_fetch_add(&g->prog->files, 1);
	return path;
}

/* Keep an answer (path and url are taken); NULL beyond DBGD_MAX_ANS. */
static struct dbgd_ans *
ans_add(struct dbgd *g, const uint8_t *bid, size_t len, enum dbgd_kind k, char *path, char *url)
{
	struct dbgd_ans *a;

	if (g->n >= DBGD_MAX_ANS)
		return NULL;
	GROW(g->ans, g->cap, g->n + 1);
	a = &g->ans[g->n++];
	memset(a, 0, sizeof *a);
	memcpy(a->bid, bid, len);
	a->len = (uint8_t)len;
	a->kind = (uint8_t)k;
	a->path = path;
	a->url = url;
	return a;
}

bool
dbgd_find(struct dbgd *g, const uint8_t *bid, size_t len, enum dbgd_kind k, char *out, size_t n)
{
	struct dbgd_ans *a;
	bool found;

	if (g == NULL || len == 0 || len > 20 || n == 0)
		return false;
	a = ans_find(g, bid, len, k);
	if (a == NULL && !g->no_more) {
		char *url, *path = ask(g, bid, len, k, &url);

		a = ans_add(g, bid, len, k, path, url);
		if (a == NULL) {	/* not kept: answered all the same */
			found = path != NULL && strlen(path) < n;
			if (found)
				snprintf(out, n, "%s", path);
			free(path);
			free(url);
			return found;
		}
	}
	if (a == NULL || a->path == NULL || strlen(a->path) >= n)
		return false;
	snprintf(out, n, "%s", a->path);
	return true;
}

void
dbgd_stop_asking(struct dbgd *g)
{
	if (g != NULL)
		g->no_more = true;
}

void
dbgd_adopt(struct dbgd *g, const struct dbgd *from)
{
	if (g == NULL || from == NULL)
		return;
	for (size_t i = 0; i < from->n; i++) {
		const struct dbgd_ans *f = &from->ans[i];
		struct dbgd_ans *a = ans_find(g, f->bid, f->len, (enum dbgd_kind)f->kind);

		if (a == NULL && ans_add(g, f->bid, f->len, (enum dbgd_kind)f->kind,
		    f->path ? xstrdup(f->path) : NULL, f->url ? xstrdup(f->url) : NULL) == NULL)
			return;
		/* the same file, which from downloaded and g found in the cache */
		if (a != NULL && a->path != NULL && f->path != NULL && strcmp(a->path, f->path) == 0 &&
		    a->url != NULL && a->url[0] == '\0' && f->url != NULL && f->url[0] != '\0') {
			free(a->url);
			a->url = xstrdup(f->url);
		}
	}
}

const char *
dbgd_origin(const struct dbgd *g, const char *path, enum dbgd_kind *kind)
{
	if (g == NULL || path == NULL)
		return NULL;
	for (size_t i = 0; i < g->n; i++)
		if (g->ans[i].path != NULL && strcmp(g->ans[i].path, path) == 0) {
			*kind = (enum dbgd_kind)g->ans[i].kind;
			return g->ans[i].url;
		}
	return NULL;
}
