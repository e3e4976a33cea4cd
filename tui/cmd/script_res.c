#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/cmd/script_res.h"

#define RES_SLOTS	8192u	/* a power of two */

int
script_res_init(struct script_res *r, struct symbolizer *z)
{
	memset(r, 0, sizeof *r);
	r->z = z;
	r->last_pid = INT32_MIN;
	r->slot = aligned_alloc(64, RES_SLOTS * sizeof *r->slot);
	r->frame = calloc(RES_SLOTS, sizeof *r->frame);
	if (r->slot == NULL || r->frame == NULL) {
		script_res_free(r);
		return -1;
	}
	memset(r->slot, 0, RES_SLOTS * sizeof *r->slot);
	return 0;
}

void
script_res_free(struct script_res *r)
{
	free(r->slot);
	free(r->frame);
	hmap_free(&r->epochs);
	memset(r, 0, sizeof *r);
}

static uint32_t
pid_epoch(struct script_res *r, int32_t pid)
{
	uint32_t e;

	if (pid == r->last_pid)
		return r->last_epoch;
	e = hmap_get(&r->epochs, (uint32_t)pid);
	r->last_pid = pid;
	r->last_epoch = e == HMAP_NONE ? 0 : e;
	return r->last_epoch;
}

/* Every kept answer dropped (an epoch wraps: none may match it). */
static void
forget(struct script_res *r)
{
	for (size_t i = 0; i < RES_SLOTS; i++)
		r->slot[i].used = false;
}

static bool
changes_maps(unsigned type)
{
	return type == PF_REC_MMAP || type == PF_REC_MMAP2 ||
	    type == PF_REC_COMM || type == PF_REC_FORK;
}

/* Record rec may change what addresses of its pid (or the kernel's) resolve to. */
static void
epoch_bump(struct script_res *r, const struct rec *rec)
{
	struct rec_who w = { -1, -1, 0, false };
	int32_t pid;
	uint32_t e;

	if (record_who(rec, &w) < 0)
		return;
	pid = (int32_t)w.pid;
	if (rec->type == PF_REC_COMM && !(rec->misc & PERF_RECORD_MISC_COMM_EXEC))
		return;
	if (pid == -1 && (rec->type == PF_REC_MMAP || rec->type == PF_REC_MMAP2)) {
		if (++r->kepoch == 0)
			forget(r);
		return;
	}
	e = pid_epoch(r, pid) + 1;
	if (e == HMAP_NONE)
		forget(r);
	hmap_set(&r->epochs, (uint32_t)pid, e != HMAP_NONE ? e : 0);
	r->last_pid = INT32_MIN;
}

/* Entry i's record, when it may change maps: its epoch bumped. */
static void
bump_entry(struct script_res *r, const struct session *s, size_t i)
{
	const struct rec_ent *e = index_ent(session_index(s), i);
	struct rec rec;

	if (changes_maps(ent_type(e)) && session_rec(s, ent_loc(e), &rec) == 0)
		epoch_bump(r, &rec);
}

/*
 * A sample resolves with the maps at its time, those of records with the
 * same time included, wherever they lie among them: the records that
 * change maps in a run of equal times bump their epochs when the run
 * starts (at i), and again as they come.
 */
void
script_res_track(struct script_res *r, const struct session *s, size_t i, bool start)
{
	const struct rec_index *ix = session_index(s);
	uint64_t time = index_ent(ix, i)->time;

	if (start || time != index_ent(ix, i - 1)->time)
		for (size_t j = i + 1; j < ix->n && index_ent(ix, j)->time == time; j++)
			bump_entry(r, s, j);
	bump_entry(r, s, i);
}

/* No address is asked for there: no run of equal times to mind (the one
 * who asks next tracks its first entry with start set). */
void
script_res_skip(struct script_res *r, const struct session *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		bump_entry(r, s, i);
}

struct res_slot *
script_res_get(struct script_res *r, int32_t pid, int32_t tid, uint64_t time, uint8_t cpumode,
    uint64_t ip, const struct frame **f)
{
	int32_t kpid = cpumode == PERF_RECORD_MISC_KERNEL ? -1 : pid;
	uint32_t epoch = kpid == -1 ? r->kepoch : pid_epoch(r, kpid);
	uint64_t space = (uint64_t)(uint32_t)kpid << 32 | epoch;
	uint64_t h = (ip ^ space * 31 ^ (uint64_t)cpumode << 61) * UINT64_C(0x9e3779b97f4a7c15);
	size_t k = (h >> 40) & (RES_SLOTS - 1);
	struct res_slot *e = &r->slot[k];
	struct frame *fr = &r->frame[k];

	*f = fr;
	if (e->used && e->ip == ip && e->pid == kpid && e->epoch == epoch &&
	    e->cpumode == cpumode)
		return e;
	symbolizer_resolve(r->z, pid, tid, time, cpumode, ip, fr);
	e->ip = ip;
	e->pid = kpid;
	e->epoch = epoch;
	e->cpumode = cpumode;
	e->used = true;
	e->len = 0;
	e->inl = fr->sym != SYM_NONE && symbolizer_sym_inlined(r->z, fr->sym);
	return e;
}

#define DROP_STEP	(UINT64_C(64) << 20)
#define DROP_SLACK	(UINT64_C(16) << 20)

void
script_drop_behind(const struct session *s, struct script_drop *d, uint64_t loc)
{
	if (session_nfiles(s) != 1 || loc >= SESSION_ZLOC)
		return;
	if (loc > d->hi)
		d->hi = loc;
	if (d->hi - d->lo >= DROP_STEP + DROP_SLACK) {
		session_drop_pages(s, d->lo, d->hi - DROP_SLACK);
		d->lo = d->hi - DROP_SLACK;
	}
}
