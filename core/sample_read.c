#include "config.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/err.h"
#include "core/record.h"
#include "core/sample_read.h"
#include "core/session.h"
#include "core/session_int.h"

size_t
sample_read_values(const struct sample *smp, struct read_value *out, size_t max)
{
	uint64_t rf = smp->read_format, nr, k = 0;
	size_t each = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST), n = 0;
	size_t words = smp->read_len / 8;
	const uint8_t *p = smp->read;

	if (!(smp->sample_type & PERF_SAMPLE_READ) || p == NULL)
		return 0;
	if (rf & PERF_FORMAT_GROUP) {
		if (words < 1)
			return 0;
		nr = rd64(p, smp->swap);
		k = 1;
	} else {
		nr = 1;
		if (words < each + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING))
			return 0;
		/* value, [enabled], [running], [id], [lost] */
		out[0].value = rd64(p, smp->swap);
		k = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		out[0].id = (rf & PERF_FORMAT_ID) ? rd64(p + 8 * k, smp->swap) : 0;
		return max > 0;
	}
	k += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	for (uint64_t i = 0; i < nr && n < max && k + each <= words; i++, k += each) {
		out[n].value = rd64(p + 8 * k, smp->swap);
		out[n].id = (rf & PERF_FORMAT_ID) ? rd64(p + 8 * (k + 1), smp->swap) : 0;
		n++;
	}
	return n;
}

int
read_skip(const struct session *s, struct read_state *st, const struct sample *smp)
{
	struct read_delivery d[64];

	read_deliver(s, st, smp, d, 64);
	return 0;
}

bool
session_has_read_samples(const struct session *s)
{
	const struct attr_table *t = session_attrs(s);

	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].attr.sample_type & PERF_SAMPLE_READ)
			return true;
	return false;
}

size_t
read_deliver(const struct session *s, struct read_state *st, const struct sample *smp,
    struct read_delivery *out, size_t max)
{
	struct read_value v[64];
	size_t nv = sample_read_values(smp, v, max < 64 ? max : 64), n = 0;

	for (size_t i = 0; i < nv; i++) {
		int attr = v[i].id ? attr_table_find_id(session_attrs(s), v[i].id) : -1;
		uint32_t slot;
		uint64_t grew;

		if (attr < 0)
			continue;	/* perf: an unknown id, no sample */
		slot = hmap_get(&st->ids, v[i].id);
		if (slot == HMAP_NONE) {
			GROW(st->last, st->cap, st->n + 1);
			slot = (uint32_t)st->n++;
			st->last[slot] = 0;
			hmap_set(&st->ids, v[i].id, slot);
		}
		grew = v[i].value - st->last[slot];
		st->last[slot] = v[i].value;
		if (grew == 0)
			continue;	/* perf: nothing to deliver */
		out[n++] = (struct read_delivery){ attr, grew, v[i].id };
	}
	return n;
}

void
read_state_free(struct read_state *st)
{
	hmap_free(&st->ids);
	free(st->last);
	memset(st, 0, sizeof *st);
}

struct recount {
	struct session		*s;
	struct read_state	 st;
};

/* Count what perf counts: a sample per value delivered, of the value's event. */
static int
recount_rec(void *arg, const struct rec *r, int depth)
{
	struct recount *rc = arg;
	struct session *s = rc->s;
	struct read_delivery d[64];
	struct sample smp;
	const char *why;
	size_t n;

	(void)depth;
	if (r->type != PF_REC_SAMPLE || record_decode_sample(session_attrs(s), r, &smp, &why) < 0 ||
	    !(smp.sample_type & PERF_SAMPLE_READ) || smp.attr < 0 ||
	    (size_t)smp.attr >= s->nattr_counts)
		return 0;
	s->attr_counts[smp.attr].by_type[PF_REC_SAMPLE]--;
	s->attr_counts[smp.attr].total--;
	n = read_deliver(s, &rc->st, &smp, d, 64);
	for (size_t i = 0; i < n; i++) {
		s->attr_counts[d[i].attr].by_type[PF_REC_SAMPLE]++;
		s->attr_counts[d[i].attr].total++;
	}
	return 0;
}

void
session_read_recount(struct session *s)
{
	struct recount rc;

	rc.s = s;
	memset(&rc.st, 0, sizeof rc.st);

	if (!session_has_read_samples(s))
		return;
	/* every event gets counts: a member has samples and no records of its own */
	if (s->nattr_counts < s->attrs.n) {
		s->attr_counts = xreallocarray(s->attr_counts, s->attrs.n, sizeof *s->attr_counts);
		memset(s->attr_counts + s->nattr_counts, 0,
		    (s->attrs.n - s->nattr_counts) * sizeof *s->attr_counts);
		s->nattr_counts = s->attrs.n;
	}
	session_walk(s, recount_rec, &rc);
	read_state_free(&rc.st);
}
