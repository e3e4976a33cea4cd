#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/index.h"
#include "symbolize/by_pos.h"
#include "symbolize/parallel.h"

/*
 * parallel.c: one walk of the index.  The count changes at switch and exit
 * records; a step is kept for each, and each sample on the way is checked
 * against the clamp (the damage counts).
 */

bool
parallel_recorded(const struct session *s)
{
	const struct attr_table *at = session_attrs(s);

	for (size_t i = 0; i < at->n; i++)
		if (at->v[i].attr.context_switch)
			return true;
	return false;
}

bool
parallel_serial(const struct parallel *p)
{
	uint64_t q = p->nsamples / 100, r = p->nsamples % 100;

	/* nserial >= nsamples * 99 / 100 rounded up, without overflowing */
	return p->nserial >= 99 * q + (99 * r + 99) / 100;
}

uint32_t
parallel_clamp(const struct parallel *p, int64_t count)
{
	int64_t max = p->max ? p->max : PARALLEL_MAX;

	if (count < 1)
		return 1;
	return (uint32_t)(count > max ? max : count);
}

static void
step(struct parallel *p, uint64_t pos, uint64_t time, int64_t count)
{
	GROW(p->v, p->cap, p->n + 1);
	p->v[p->n++] = (struct parallel_step){ pos, time, count };
}

void
parallel_build(const struct session *s, struct parallel *p)
{
	const struct rec_index *ix = session_index(s);
	uint32_t avail = session_features(s)->nr_cpus_avail;
	int64_t count = 1;	/* perf: "there is no initial context switch in" */

	memset(p, 0, sizeof *p);
	p->max = avail >= 1 && avail <= PARALLEL_MAX ? avail : PARALLEL_MAX;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *ent = index_ent(ix, i);
		unsigned type = ent_type(ent);
		struct rec r;
		struct rec_switch sw;

		if (type == PF_REC_SAMPLE) {
			p->nsamples++;
			p->nlow += count < 1;
			p->nhigh += count > (int64_t)p->max;
			p->nserial += count <= 1;
			continue;
		}
		if (type == PF_REC_EXIT) {
			p->nexit++;
			step(p, i, ent->time, --count);
			continue;
		}
		if (type != PF_REC_SWITCH && type != PF_REC_SWITCH_CPU_WIDE)
			continue;
		if (session_rec(s, ent_loc(ent), &r) < 0 || record_switch(&r, &sw) < 0) {
			p->nbad++;
			continue;
		}
		if (sw.out)
			p->nout++;
		else
			p->nin++;
		count += sw.out ? -1 : 1;
		step(p, i, ent->time, count);
	}
}

void
parallel_free(struct parallel *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}

size_t
parallel_lower(const struct parallel *p, uint64_t pos)
{
	return by_pos_lower(p->v, p->n, sizeof *p->v, offsetof(struct parallel_step, pos), pos);
}

uint32_t
parallel_at(const struct parallel *p, uint64_t pos)
{
	size_t k = parallel_lower(p, pos);

	return parallel_clamp(p, k > 0 ? p->v[k - 1].count : 1);
}

uint32_t
parallel_at_time(const struct parallel *p, uint64_t t)
{
	size_t lo = 0, hi = p->n;

	/* the first step later than t: the count is the one before it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->v[mid].time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return parallel_clamp(p, lo > 0 ? p->v[lo - 1].count : 1);
}

uint64_t
parallel_latency(uint64_t period, uint32_t level)
{
	uint64_t q, r;

	if (level == 0)
		level = 1;
	q = period / level;
	r = period % level;
	if (q > (UINT64_MAX - 1000) / 1000)
		return UINT64_MAX;
	/* floor(period * 1000 / level) = q * 1000 + floor(r * 1000 / level) */
	return q * 1000 + r * 1000 / level;
}
