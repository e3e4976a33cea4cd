#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/err.h"
#include "core/session.h"
#include "core/thread.h"

/* ---- tid map ---- */

static void
tid_put(struct thread_table *t, int32_t tid, uint32_t th)
{
	hmap_set(&t->tids, (uint32_t)tid, th);
}

static uint32_t
tid_get(const struct thread_table *t, int32_t tid)
{
	return hmap_get(&t->tids, (uint32_t)tid);
}

/* ---- building ---- */

static uint32_t
thread_new(struct thread_table *t, int32_t pid, int32_t tid, uint64_t time)
{
	struct pn_thread *th;
	uint32_t id;

	GROW(t->v, t->cap, t->n + 1);
	id = (uint32_t)t->n++;
	th = &t->v[id];
	memset(th, 0, sizeof *th);
	th->pid = pid;
	th->tid = tid;
	th->ppid = th->ptid = -1;
	th->parent = THREAD_NONE;
	th->start = time;
	th->first_comm = th->last_comm = UINT32_MAX;
	th->prev = tid_get(t, tid);
	tid_put(t, tid, id);
	return id;
}

static uint32_t
thread_get(struct thread_table *t, int32_t pid, int32_t tid, uint64_t time)
{
	uint32_t id = tid_get(t, tid);

	if (id == THREAD_NONE || (t->v[id].exited && time > t->v[id].end))
		id = thread_new(t, pid, tid, time);
	else if (t->v[id].pid == -1 && pid != -1)
		t->v[id].pid = pid;
	return id;
}

static void
comm_add(struct thread_table *t, uint32_t th, uint64_t time, uint32_t name, bool exec)
{
	struct comm_ev *c;
	uint32_t ci;

	GROW(t->comms, t->capcomms, t->ncomms + 1);
	ci = (uint32_t)t->ncomms++;
	c = &t->comms[ci];
	c->time = time;
	c->thread = th;
	c->name = name;
	c->exec = exec;
	c->next = UINT32_MAX;
	if (t->v[th].last_comm != UINT32_MAX)
		t->comms[t->v[th].last_comm].next = ci;
	else
		t->v[th].first_comm = ci;
	t->v[th].last_comm = ci;
	t->v[th].ncomms++;
}

/* Length of a NUL-terminated string within n bytes (n if none). */
static size_t
bounded_strlen(const uint8_t *p, size_t n)
{
	const uint8_t *z = memchr(p, 0, n);

	return z ? (size_t)(z - p) : n;
}

static void
add_map(struct thread_table *t, const struct session *s, const struct rec *r, uint64_t time)
{
	const uint8_t *b = r->p + 8;
	size_t n = r->size - 8, fo;
	struct map_ev m;

	memset(&m, 0, sizeof m);
	if (r->type == PERF_RECORD_MMAP) {
		if (n < 32)
			return;
		fo = 32;
	} else {
		if (n < 64)
			return;
		fo = 64;
		m.mmap2 = true;
		if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m.build_id_len = b[32] <= 20 ? b[32] : 20;
			memcpy(m.build_id, b + 36, m.build_id_len);
		} else {
			m.maj = rd32(b + 32, r->swap);
			m.min = rd32(b + 36, r->swap);
			m.ino = rd64(b + 40, r->swap);
			m.ino_generation = rd64(b + 48, r->swap);
		}
		m.prot = rd32(b + 56, r->swap);
		m.flags = rd32(b + 60, r->swap);
	}
	m.time = time;
	m.loc = r->loc;
	m.pid = (int32_t)rd32(b, r->swap);
	m.tid = (int32_t)rd32(b + 4, r->swap);
	m.start = rd64(b + 8, r->swap);
	m.len = rd64(b + 16, r->swap);
	m.pgoff = rd64(b + 24, r->swap);
	m.misc = r->misc;
	m.filename = strtab_intern(&t->strs, (const char *)b + fo, bounded_strlen(b + fo, n - fo));
	GROW(t->maps, t->capmaps, t->nmaps + 1);
	t->maps[t->nmaps++] = m;
	(void)s;
}

void
thread_table_build(struct thread_table *t, const struct session *s)
{
	/* Runs of samples of one thread are common: remember the last one. */
	int32_t last_tid = INT32_MIN;
	uint32_t last_th = THREAD_NONE;
	/*
	 * The records read here are scattered over the file, and each read
	 * maps the pages around it too: on a large recording, give them back
	 * as we go, or the resident set grows by ~64 KiB per record.
	 */
	bool give_back = s->nfiles > 0 && s->files[0].size > (UINT64_C(256) << 20);
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned pending = 0;

	for (size_t i = 0; i < s->index.n; i++) {
		const struct rec_ent *e = &s->index.v[i];
		unsigned type = ent_type(e);
		struct rec r;
		const uint8_t *b;
		size_t n;

		if (type != PERF_RECORD_COMM && type != PERF_RECORD_FORK &&
		    type != PERF_RECORD_EXIT && type != PERF_RECORD_MMAP &&
		    type != PERF_RECORD_MMAP2 && type != PERF_RECORD_SAMPLE)
			continue;
		if (type == PERF_RECORD_SAMPLE) {
			int32_t tid = ent_tid(e);

			if (tid < 0 && ent_pid(e) < 0)
				continue;
			if (tid != last_tid || last_th == THREAD_NONE ||
			    (t->v[last_th].exited && e->time > t->v[last_th].end)) {
				last_th = thread_get(t, ent_pid(e), tid, e->time);
				last_tid = tid;
			}
			t->v[last_th].samples++;
			continue;
		}
		last_tid = INT32_MIN;	/* COMM/FORK/EXIT may change the mapping */
		if (session_rec(s, ent_loc(e), &r) < 0)
			continue;
		b = r.p + 8;
		n = r.size - 8;
		switch (type) {
		case PERF_RECORD_COMM: {
			uint32_t th;

			if (n < 8)
				break;
			th = thread_get(t, (int32_t)rd32(b, r.swap), (int32_t)rd32(b + 4, r.swap),
			    e->time);
			comm_add(t, th, e->time,
			    strtab_intern(&t->strs, (const char *)b + 8, bounded_strlen(b + 8, n - 8)),
			    (r.misc & PERF_RECORD_MISC_COMM_EXEC) != 0);
			break;
		}
		case PERF_RECORD_FORK: {
			int32_t pid, ppid, tid, ptid;
			uint32_t th, parent;

			if (n < 24)
				break;
			pid = (int32_t)rd32(b, r.swap);
			ppid = (int32_t)rd32(b + 4, r.swap);
			tid = (int32_t)rd32(b + 8, r.swap);
			ptid = (int32_t)rd32(b + 12, r.swap);
			parent = tid_get(t, ptid);
			th = tid_get(t, tid);
			/* A FORK for a live tid that was already forked starts a new lifetime. */
			if (th == THREAD_NONE || t->v[th].exited || t->v[th].ppid != -1 ||
			    t->v[th].ncomms > 0)
				th = thread_new(t, pid, tid, e->time);
			t->v[th].ppid = ppid;
			t->v[th].ptid = ptid;
			t->v[th].parent = parent;
			t->v[th].start = e->time;
			if (parent != THREAD_NONE && t->v[parent].last_comm != UINT32_MAX)
				comm_add(t, th, e->time, t->comms[t->v[parent].last_comm].name, false);
			break;
		}
		case PERF_RECORD_EXIT: {
			uint32_t th;

			if (n < 24)
				break;
			th = tid_get(t, (int32_t)rd32(b + 8, r.swap));
			if (th != THREAD_NONE) {
				t->v[th].exited = true;
				t->v[th].end = e->time;
			}
			break;
		}
		default:
			add_map(t, s, &r, e->time);
			break;
		}
		if (give_back) {
			/* in batches: one madvise for a run of nearby records */
			uint64_t l = ent_loc(e) & ~(uint64_t)0xffff;

			l = l >= 0x10000 ? l - 0x10000 : 0;
			lo = l < lo ? l : lo;
			hi = l + 0x30000 > hi ? l + 0x30000 : hi;
			if (++pending >= 256 || hi - lo > (UINT64_C(64) << 20)) {
				session_drop_pages(s, lo, hi);
				lo = UINT64_MAX;
				hi = 0;
				pending = 0;
			}
		}
	}
	if (pending)
		session_drop_pages(s, lo, hi);
}

uint32_t
thread_table_find(const struct thread_table *t, int32_t tid, uint64_t time)
{
	uint32_t id = tid_get(t, tid);

	while (id != THREAD_NONE && t->v[id].start > time && t->v[id].prev != THREAD_NONE)
		id = t->v[id].prev;
	return id;
}

const char *
thread_comm_at(const struct thread_table *t, uint32_t thread, uint64_t time)
{
	uint32_t ci, best = UINT32_MAX;

	if (thread >= t->n)
		return NULL;
	for (ci = t->v[thread].first_comm; ci != UINT32_MAX; ci = t->comms[ci].next) {
		if (best == UINT32_MAX || t->comms[ci].time <= time)
			best = ci;
		else
			break;
	}
	return best == UINT32_MAX ? NULL : strtab_get(&t->strs, t->comms[best].name);
}

void
thread_table_free(struct thread_table *t)
{
	free(t->v);
	free(t->comms);
	free(t->maps);
	strtab_free(&t->strs);
	hmap_free(&t->tids);
	memset(t, 0, sizeof *t);
}
