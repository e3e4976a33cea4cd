#include "config.h"

/*
 * session_who.c: who a record is about (cpu, pid, tid) and when, as the
 * index is built, and later for the finished index, which keeps it only if
 * asked (session_opts.keep_who), else reads it from the record.
 */
#include <stdbool.h>
#include <stdint.h>

#include "core/index.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"
#include "core/session_int.h"

/* Who a record is about and when (has_time false: it does not say). */
static void
rec_who_when(const struct session *s, const struct rec *r, int attr, const struct sample *smp,
    struct ent_who *w, uint64_t *time, bool *has_time)
{
	w->cpu = w->pid = w->tid = -1;
	*time = 0;
	*has_time = false;
	if (r->type == PF_REC_SAMPLE) {
		struct sample head;

		if (smp == NULL && record_sample_head(session_attrs(s), r, attr, &head) == 0)
			smp = &head;
		if (smp != NULL) {
			uint64_t st = smp->sample_type;

			if (st & PERF_SAMPLE_TID) {
				w->pid = (int32_t)smp->pid;
				w->tid = (int32_t)smp->tid;
			}
			if (st & PERF_SAMPLE_TIME) {
				*time = smp->time;
				*has_time = true;
			}
			if (st & PERF_SAMPLE_CPU)
				w->cpu = smp->cpu < ENT_CPU_NONE ? (int32_t)smp->cpu : -1;
		}
	} else if (r->type < PF_REC_USER_TYPE_START) {
		struct sample_id sid;
		struct rec_who rw = { -1, -1, 0, false };

		record_who(r, &rw);	/* who the body says, the trailer overrides */
		w->pid = rw.pid;
		w->tid = rw.tid;
		*time = rw.time;
		*has_time = rw.has_time;
		if (record_decode_sample_id(session_attrs(s), r, &sid) == 0) {
			if (sid.have & PERF_SAMPLE_TID) {
				w->pid = (int32_t)sid.pid;
				w->tid = (int32_t)sid.tid;
			}
			if (sid.have & PERF_SAMPLE_TIME) {
				*time = sid.time;
				*has_time = true;
			}
			if (sid.have & PERF_SAMPLE_CPU)
				w->cpu = sid.cpu < ENT_CPU_NONE ? (int32_t)sid.cpu : -1;
		}
	}
}

void
session_index_rec(const struct session *s, struct rec_index *ix, uint64_t *last_time,
    const struct rec *r, int attr, const struct sample *smp)
{
	struct load_ent e;
	struct ent_who w;
	uint64_t time;
	bool has_time;

	rec_who_when(s, r, attr, smp, &w, &time, &has_time);
	if (!has_time) {
		time = *last_time;
		ix->n_untimed++;
	} else {
		*last_time = time;
	}
	ent_set(&e, time, r->loc, r->type, attr, w.cpu, w.pid, w.tid);
	index_push(ix, &e);
}

struct ent_who
session_load_who(const struct session *s, const struct rec_ent *e)
{
	struct ent_who w = { -1, -1, -1 };
	struct rec r;
	uint64_t time;
	bool has_time;
	int attr;

	if (session_rec(s, ent_loc(e), &r) < 0)
		return w;
	attr = ent_attr(e) == ENT_ATTR_NONE ? -1 : (int)ent_attr(e);
	if (attr < 0 && r.type == PF_REC_SAMPLE)
		attr = record_attr(session_attrs(s), &r);
	rec_who_when(s, &r, attr, NULL, &w, &time, &has_time);
	return w;
}

struct ent_who
session_ent_who(const struct session *s, size_t pos)
{
	const struct rec_index *ix = &s->index;
	struct ent_who w = { -1, -1, -1 };

	if (pos >= ix->n || (ix->who != NULL && who_unpack(ix->who[pos], &w)))
		return w;
	return session_load_who(s, &ix->v[pos]);
}
