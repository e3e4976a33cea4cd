#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/err.h"
#include "core/index.h"

static uint32_t
pack_id(int64_t v)
{
	if (v < 0)
		return ENT_ID_NONE;
	if (v >= ENT_ID_BIG)
		return ENT_ID_BIG;
	return (uint32_t)v;
}

void
ent_set(struct load_ent *e, uint64_t time, uint64_t loc, uint32_t type, int attr, int64_t cpu,
    int64_t pid, int64_t tid)
{
	uint64_t t = type >= ENT_TYPE_BIG ? ENT_TYPE_BIG : type;
	uint64_t a = attr < 0 || attr >= (int)ENT_ATTR_NONE ? ENT_ATTR_NONE : (uint64_t)attr;
	uint64_t c = cpu < 0 || cpu >= ENT_CPU_NONE ? ENT_CPU_NONE : (uint64_t)cpu;

	e->e.time = time;
	e->e.loc = (loc & ENT_LOC_MASK) | t << 48 | a << 56;
	e->who = c << 48 | (uint64_t)pack_id(pid) << 24 | pack_id(tid);
}

static bool
id_unpack(uint32_t v, int32_t *out)
{
	*out = v == ENT_ID_NONE ? -1 : (int32_t)v;
	return v != ENT_ID_BIG;
}

bool
who_unpack(uint64_t who, struct ent_who *w)
{
	unsigned cpu = (unsigned)(who >> 48);
	bool pid_ok = id_unpack((uint32_t)(who >> 24) & 0xffffff, &w->pid);

	w->cpu = cpu == ENT_CPU_NONE ? -1 : (int32_t)cpu;
	return id_unpack((uint32_t)who & 0xffffff, &w->tid) && pid_ok;
}

/* The table lives in its own mapping, grown by mremap (no copy) and
 * backed by huge pages where the kernel gives them (index_grow). */
#define INDEX_CHUNK	(UINT64_C(2) << 20)

static size_t
index_bytes(size_t bytes)
{
	return (bytes + INDEX_CHUNK - 1) & ~(size_t)(INDEX_CHUNK - 1);
}

/*
 * Room for need entries: doubling (push), or exactly (reserve, which may
 * fail: false and nothing changed).  Pages are taken as they are written,
 * huge ones where the kernel gives them on request: a file's walk reserves
 * room for every record its data section can hold at once, so the mapping
 * does not move as it fills.  Measured on a 10 GB recording (100 M
 * records): 800,000 page faults -> 210,000-290,000, the walk 14-15.8 s ->
 * 10.3-10.7 s; no change on 356 MB, nor on a pipe (which grows by doubling).
 * (Before the walk reserved its room, the moves as the mapping grew made
 * huge pages cost more than they saved.)
 */
static bool
index_grow(struct rec_index *ix, size_t need, bool reserve)
{
	size_t ncap = ix->cap ? ix->cap : INDEX_CHUNK / sizeof(struct load_ent), nbytes;
	void *p;

	if (need > SIZE_MAX / 2 / sizeof(struct load_ent)) {
		if (reserve)
			return false;
		fatal_oom(SIZE_MAX);
	}
	if (ix->before_grow != NULL) {
		void (*fn)(void *) = ix->before_grow;

		ix->before_grow = NULL;
		fn(ix->grow_arg);
	}
	while (ncap < need)
		ncap = reserve ? need : ncap * 2;
	nbytes = index_bytes(ncap * sizeof(struct load_ent));
	if (ix->lv == NULL) {
		p = mmap(NULL, nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		    -1, 0);
		if (p != MAP_FAILED)
			huge_advise(p, nbytes);
	} else
		p = mremap(ix->lv, ix->map_bytes, nbytes, MREMAP_MAYMOVE);
	if (p == MAP_FAILED) {
		if (reserve)
			return false;
		fatal_oom(nbytes);
	}
	ix->lv = p;
	ix->map_bytes = nbytes;
	ix->cap = nbytes / sizeof(struct load_ent);
	return true;
}

void
index_push(struct rec_index *ix, const struct load_ent *e)
{
	if (ix->n == ix->cap)
		(void)index_grow(ix, ix->n + 1, false);
	ix->lv[ix->n++] = *e;
}

bool
index_reserve(struct rec_index *ix, size_t n)
{
	return n <= ix->cap || index_grow(ix, n, true);
}

/* Merge sorted a[0..na) and b[0..nb) into out, stably (a first on ties). */
static void
merge(struct load_ent *out, const struct load_ent *a, size_t na, const struct load_ent *b, size_t nb)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb) {
		if (b[j].e.time < a[i].e.time)
			out[k++] = b[j++];
		else
			out[k++] = a[i++];
	}
	/* out may alias b's tail (in-place merge): memmove. */
	memmove(out + k, a + i, (na - i) * sizeof *a);
	k += na - i;
	memmove(out + k, b + j, (nb - j) * sizeof *b);
}

static size_t
run_end(const struct load_ent *v, size_t i, size_t n)
{
	while (i + 1 < n && v[i + 1].e.time >= v[i].e.time)
		i++;
	return i + 1;
}

/*
 * Stable natural merge sort of v[0..n) using tmp (n entries).  Runs that
 * are already in order cost one pass to find.
 */
static void
sort_runs(struct load_ent *v, size_t n, struct load_ent *tmp)
{
	struct load_ent *src = v, *dst = tmp;

	if (n < 2 || run_end(v, 0, n) == n)
		return;
	for (;;) {
		size_t i = 0, nruns = 0;

		while (i < n) {
			size_t m = run_end(src, i, n), e;

			if (m == n) {
				memcpy(dst + i, src + i, (n - i) * sizeof *src);
				i = n;
			} else {
				e = run_end(src, m, n);
				merge(dst + i, src + i, m - i, src + m, e - m);
				i = e;
			}
			nruns++;
		}
		src = dst;
		dst = (dst == tmp) ? v : tmp;
		if (nruns <= 1)
			break;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

/* First position in v[0..n) whose time is greater than t. */
static size_t
upper_bound(const struct rec_ent *v, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* upper_bound over loading entries. */
static size_t
load_upper_bound(const struct load_ent *v, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].e.time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
index_first_at(const struct rec_index *ix, uint64_t t)
{
	return t == 0 ? 0 : upper_bound(ix->v, ix->n, t - 1);
}

/*
 * A round whose merge would move more than this many times its own
 * entries (plus a slack) starts a segment of its own: perf's rounds
 * overlap the previous one's tail at most, but a recording of several
 * runs (perfnav merge) goes back in time at each run's first round.
 */
#define SEGMENT_MOVES	4
#define SEGMENT_SLACK	65536

void
index_sort(struct rec_index *ix, const size_t *rounds, size_t nrounds)
{
	struct load_ent *tmp = NULL, *tmp2 = NULL;
	size_t tmpcap = 0, tmp2cap = 0, start = 0, work = 0, seg = 0, nseg = 1;
	size_t n = ix->n;

	/*
	 * Sort each round on its own, then merge it into the sorted segment
	 * before it: only the segment's tail newer than the round's first
	 * record moves.  Segments (sorted runs) are merged at the end.
	 */
	for (size_t r = 0; r <= nrounds; r++) {
		size_t end = r < nrounds ? rounds[r] : n, p, ntail;

		if (end > n)
			end = n;
		if (end <= start)
			continue;
		GROW(tmp, tmpcap, end - start);
		sort_runs(ix->lv + start, end - start, tmp);
		p = seg + load_upper_bound(ix->lv + seg, start - seg, ix->lv[start].e.time);
		ntail = start - p;
		if (ntail > SEGMENT_MOVES * (end - start) + SEGMENT_SLACK) {
			seg = start;	/* back in time: a run of its own */
			nseg++;
		} else if (ntail > 0) {
			work += ntail;
			if (work > 8 * n + 1024) {
				/* Rounds overlap badly: sort all at once. */
				nseg = 2;
				break;
			}
			GROW(tmp2, tmp2cap, ntail);
			memcpy(tmp2, ix->lv + p, ntail * sizeof *tmp2);
			merge(ix->lv + p, tmp2, ntail, ix->lv + start, end - start);
		}
		start = end;
	}
	if (nseg > 1) {
		free(tmp);
		tmp = xmalloc(n * sizeof *tmp);
		sort_runs(ix->lv, n, tmp);
	}
	free(tmp);
	free(tmp2);
}

void
index_finish_begin(struct rec_index *ix, bool keep_who)
{
	ix->who = NULL;
	ix->who_bytes = 0;
	if (keep_who && ix->lv != NULL && ix->n > 0) {
		/* a mapping of its own, page-aligned: session_cache_save can put
		 * the saved entry's pages in its place */
		size_t nbytes = index_bytes(ix->n * sizeof *ix->who);
		void *p = mmap(NULL, nbytes, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p != MAP_FAILED) {	/* none: read from the records */
			huge_advise(p, nbytes);	/* filled once, in order */
			ix->who = p;
			ix->who_bytes = nbytes;
		}
	}
}

void
index_finish_end(struct rec_index *ix)
{
	struct rec_ent *v = (struct rec_ent *)ix->lv;
	size_t n = ix->n, nbytes;

	if (ix->lv == NULL)
		return;
	nbytes = index_bytes(n * sizeof *v);
	if (nbytes < ix->map_bytes) {
		void *p = mremap(v, ix->map_bytes, nbytes, 0);

		if (p != MAP_FAILED)
			ix->map_bytes = nbytes;
	}
	ix->v = v;
	ix->lv = NULL;
	ix->cap = 0;
	ix->before_grow = NULL;
}

void
index_finish(struct rec_index *ix, bool keep_who)
{
	index_finish_begin(ix, keep_who);
	for (size_t i = 0; i < ix->n; i++) {
		struct load_ent le = ix->lv[i];

		index_finish_step(ix, i, &le);
	}
	index_finish_end(ix);
}

void
index_free(struct rec_index *ix)
{
	void *base = ix->lv != NULL ? (void *)ix->lv : (void *)ix->v;

	if (ix->borrowed) {
		memset(ix, 0, sizeof *ix);
		return;
	}
	if (base != NULL)
		munmap(base, ix->map_bytes);
	if (ix->who_bytes)
		munmap(ix->who, ix->who_bytes);
	memset(ix, 0, sizeof *ix);
}
