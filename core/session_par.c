#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/record.h"
#include "core/session_int.h"

/*
 * session_par.c: indexing the second half of a large data section on a
 * thread of its own while the loader walks the first (session.c); for a
 * load without an index (perfnav stats), counting it.  Where
 * the second half starts is a guess (session_par_split: a record boundary
 * found by the shape of the headers after it), checked when the first
 * walk arrives there: it must end exactly on it, else the part is thrown
 * away and the first walk goes on alone.  The part takes only what needs
 * no state of the walk before it: kernel records and FINISHED_ROUND, each
 * whole; anything else (a damaged record, COMPRESSED, a feature or attr
 * record, data after a record) ends it, failed, and the first walk does
 * that half too.  So either way the session is what one walk makes it.
 */

/* Headers in a row that must look like records for a guess to be taken
 * (or all those to the end, where it ends exactly). */
#define PAR_CHAIN	256
/* How far past the split point (three fifths in when the part first counts
 * the headers before it, so that the first half is the longer; else half
 * way) a boundary is looked for. */
#define PAR_SEEK	(UINT64_C(4) << 20)

/* Could a record the part takes start at base + pos (of len)? Its size, or 0. */
static uint32_t
plausible(const struct session *s, const uint8_t *base, uint64_t len, uint64_t pos)
{
	uint32_t type, size;

	if (len - pos < 8)
		return 0;
	type = rd32(base + pos, s->swap);
	size = rd16(base + pos + 6, s->swap);
	if (size < 8 || size % 8 != 0 || size > len - pos || type == 0 ||
	    (type >= PF_REC_USER_TYPE_START && type != PF_REC_FINISHED_ROUND))
		return 0;
	return size;
}

bool
session_par_split(const struct session *s, const uint8_t *base, uint64_t len, bool counts,
    uint64_t *at)
{
	uint64_t from = (counts ? len / 5 * 3 : len / 2) & ~(uint64_t)7;

	for (uint64_t c = from; c < len && c < from + PAR_SEEK; c += 8) {
		uint64_t p = c;
		int k;

		for (k = 0; k < PAR_CHAIN && p < len; k++) {
			uint32_t size = plausible(s, base, len, p);

			if (size == 0)
				break;
			p += size;
		}
		if (k == PAR_CHAIN || p == len) {
			*at = c;
			return true;
		}
	}
	return false;
}

bool
session_par_count(const struct session *s, const uint8_t *base, uint64_t at, uint64_t *n,
    atomic_bool *stop)
{
	uint64_t pos = 0, k = 0;

	while (pos < at) {
		struct rec r;
		uint64_t extra;

		if (at - pos < 8 ||
		    ((k & 0xffff) == 0 && atomic_load_explicit(stop, memory_order_relaxed)))
			return false;
		r.p = base + pos;
		r.size = rd16(r.p + 6, s->swap);
		r.type = rd32(r.p, s->swap);
		r.misc = rd16(r.p + 4, s->swap);
		r.swap = s->swap;
		r.loc = pos;
		if (r.size < 8 || r.size > at - pos || r.type == PF_REC_COMPRESSED ||
		    r.type == PF_REC_COMPRESSED2)
			return false;
		extra = session_rec_trailing(&r);
		if (extra > at - pos - r.size)
			return false;
		pos += r.size + extra;
		k++;
	}
	*n = k;
	return true;
}

/* How often the part says how far it got (bytes, a power of two). */
#define PART_TELL	(UINT64_C(1) << 22)

static void *
part_walk(void *arg)
{
	struct par_part *p = arg;
	const struct session *s = p->s;
	uint64_t pos = 0, dropped = 0;

	p->last_time = 0;
	/* where the first half's entries end: the part's go from there */
	if (!p->no_index) {
		if (!session_par_count(s, p->whole, p->at, &p->na, &p->stop))
			goto fail;
		p->ix.lv = s->index.lv + p->n0 + p->na;
		p->ix.cap = s->index.cap - p->n0 - p->na;
	}
	while (pos < p->len) {
		struct rec r;
		struct sample smp;
		const char *why;
		uint64_t untimed;
		int attr = -1;

		if (atomic_load_explicit(&p->stop, memory_order_relaxed) ||
		    plausible(s, p->base, p->len, pos) == 0)
			goto fail;
		session_drop_behind(s, p->vstart, &dropped, pos);
		r.p = p->base + pos;
		r.size = rd16(r.p + 6, s->swap);
		r.type = rd32(r.p, s->swap);
		r.misc = rd16(r.p + 4, s->swap);
		r.swap = s->swap;
		r.loc = p->vstart + pos;
		if (session_rec_trailing(&r) != 0 ||
		    record_check(session_attrs(s), &r, p->no_index ? NULL : &smp, &why) != 0 ||
		    (!p->no_index && p->ix.n >= p->ix.cap))
			goto fail;
		if (r.type != PF_REC_FINISHED_ROUND)
			attr = record_attr(session_attrs(s), &r);
		session_count_into(&p->counts, &p->attr_counts, &p->nattr, 0, r.type, attr);
		p->nrecords++;
		p->charged += SESSION_REC_CHARGE;	/* with an index or not, as the walk charges */
		if ((pos & ~(PART_TELL - 1)) != ((pos + r.size) & ~(PART_TELL - 1)))
			atomic_store_explicit(&p->walked, pos + r.size, memory_order_relaxed);
		if (p->no_index) {
			pos += r.size;
			continue;
		}
		if (r.type == PF_REC_FINISHED_ROUND) {
			GROW(p->rounds, p->caprounds, p->nrounds + 1);
			p->rounds[p->nrounds++] = p->ix.n;
		}
		untimed = p->ix.n_untimed;
		session_index_rec(s, &p->ix, &p->last_time, &r, attr,
		    r.type == PF_REC_SAMPLE ? &smp : NULL);
		if (p->ix.n_untimed == untimed)
			p->timed_seen = true;
		else if (!p->timed_seen)
			p->lead_untimed++;
		pos += r.size;
	}
	return NULL;
fail:
	p->failed = true;
	return NULL;
}

int
session_par_start(struct par_part *p)
{
	atomic_init(&p->stop, false);
	atomic_init(&p->walked, 0);
	p->started = pthread_create(&p->th, NULL, part_walk, p) == 0;
	return p->started ? 0 : -1;
}

void
session_par_join(struct par_part *p, bool stop)
{
	if (!p->started)
		return;
	if (stop)
		atomic_store(&p->stop, true);
	pthread_join(p->th, NULL);
	p->started = false;
}

void
session_par_free(struct par_part *p)
{
	session_par_join(p, true);
	/* p->ix is a view into the session's index: nothing of its own */
	free(p->rounds);
	free(p->attr_counts);
	memset(p, 0, sizeof *p);
}
