#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/perf_file.h"
#include "core/err.h"
#include "core/record.h"
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
add_map(struct thread_table *t, const struct rec *r, uint64_t time)
{
	struct rec_mmap mm;
	struct map_ev m;

	if (record_mmap(r, &mm) < 0)
		return;
	memset(&m, 0, sizeof m);
	m.mmap2 = mm.mmap2;
	if (mm.has_build_id) {
		m.build_id_len = mm.build_id_size <= 20 ? mm.build_id_size : 20;
		memcpy(m.build_id, mm.build_id, m.build_id_len);
	}
	m.maj = mm.maj;
	m.min = mm.min;
	m.ino = mm.ino;
	m.ino_generation = mm.ino_generation;
	m.prot = mm.prot;
	m.flags = mm.flags;
	m.time = time;
	m.loc = r->loc;
	m.pid = mm.pid;
	m.tid = mm.tid;
	m.start = mm.addr;
	m.len = mm.len;
	m.pgoff = mm.pgoff;
	m.misc = r->misc;
	m.filename = strtab_intern(&t->strs, mm.filename,
	    bounded_strlen((const uint8_t *)mm.filename, mm.filename_max));
	GROW(t->maps, t->capmaps, t->nmaps + 1);
	t->maps[t->nmaps++] = m;
}

/* A FORK: a new lifetime of its tid, unless this one is fresh. */
static void
on_fork(struct thread_table *t, const struct rec *r, uint64_t time)
{
	struct rec_task f;
	uint32_t th, parent;

	if (record_task(r, &f) < 0)
		return;
	parent = tid_get(t, f.ptid);
	th = tid_get(t, f.tid);
	/* A FORK for a live tid that was already forked starts a new lifetime. */
	if (th == THREAD_NONE || t->v[th].exited || t->v[th].ppid != -1 || t->v[th].ncomms > 0)
		th = thread_new(t, f.pid, f.tid, time);
	t->v[th].ppid = f.ppid;
	t->v[th].ptid = f.ptid;
	t->v[th].parent = parent;
	t->v[th].start = time;
	if (parent != THREAD_NONE && t->v[parent].last_comm != UINT32_MAX)
		comm_add(t, th, time, t->comms[t->v[parent].last_comm].name, false);
}

/* A COMM, EXIT, FORK, MMAP or MMAP2 record of the index. */
void
thread_table_add(struct thread_table *t, const struct rec *r, uint64_t time)
{
	struct rec_comm c;
	struct rec_task x;
	uint32_t th;

	t->cached = false;	/* COMM/FORK/EXIT may change the mapping */
	switch (r->type) {
	case PF_REC_COMM:
		if (record_comm(r, &c) < 0)
			break;
		th = thread_get(t, c.pid, c.tid, time);
		comm_add(t, th, time, strtab_intern(&t->strs, c.comm,
		    bounded_strlen((const uint8_t *)c.comm, c.comm_max)), c.exec);
		break;
	case PF_REC_FORK:
		on_fork(t, r, time);
		break;
	case PF_REC_EXIT:
		if (record_task(r, &x) < 0)
			break;
		th = tid_get(t, x.tid);
		if (th != THREAD_NONE) {
			t->v[th].exited = true;
			t->v[th].end = time;
		}
		break;
	default:
		add_map(t, r, time);
		break;
	}
}

void
thread_table_add_sample(struct thread_table *t, int32_t pid, int32_t tid, uint64_t time)
{
	if (tid < 0 && pid < 0)
		return;
	/*
	 * Runs of samples of one thread are common: remember the last one.  A
	 * sample after its thread's EXIT stays with that thread, as in perf,
	 * which keeps a dead thread (and its comm) until a FORK reuses the tid.
	 */
	if (!t->cached || tid != t->last_tid) {
		uint32_t id = tid_get(t, tid);

		if (id == THREAD_NONE)
			id = thread_new(t, pid, tid, time);
		else if (t->v[id].pid == -1 && pid != -1)
			t->v[id].pid = pid;
		t->last_th = id;
		t->last_tid = tid;
		t->cached = true;
	}
	t->v[t->last_th].samples++;
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
