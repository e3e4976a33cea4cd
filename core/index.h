/*
 * index.h: the record index, one 24-byte entry per record, sorted by time.
 *
 * Entries refer to records by their virtual location (session.h); the
 * record bytes themselves stay in the mapped file.  The table is owned by
 * the session.
 */
#ifndef PERFNAV_CORE_INDEX_H
#define PERFNAV_CORE_INDEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * loc packs the record's virtual location (48 bits), its type (8 bits:
 * 255 means "a larger type, read the record"), and its attr index (8 bits:
 * 255 means none or unknown).  who packs cpu (16 bits, 0xffff none),
 * pid (24 bits) and tid (24 bits); 0xffffff means -1/unknown and
 * 0xfffffe "too large, read the record".
 */
struct rec_ent {
	uint64_t	time;
	uint64_t	loc;
	uint64_t	who;
};
_Static_assert(sizeof(struct rec_ent) == 24, "index entry is 24 bytes");

#define ENT_LOC_BITS	48
#define ENT_LOC_MASK	((UINT64_C(1) << ENT_LOC_BITS) - 1)
#define ENT_TYPE_BIG	255u
#define ENT_ATTR_NONE	255u
#define ENT_CPU_NONE	0xffffu
#define ENT_ID_NONE	0xffffffu
#define ENT_ID_BIG	0xfffffeu

static inline uint64_t
ent_loc(const struct rec_ent *e)
{
	return e->loc & ENT_LOC_MASK;
}
static inline unsigned
ent_type(const struct rec_ent *e)
{
	return (unsigned)(e->loc >> 48) & 0xff;
}
static inline unsigned
ent_attr(const struct rec_ent *e)
{
	return (unsigned)(e->loc >> 56);
}
static inline unsigned
ent_cpu(const struct rec_ent *e)
{
	return (unsigned)(e->who >> 48);
}
static inline int32_t
ent_id_decode(uint32_t v)
{
	return v == ENT_ID_NONE ? -1 : (int32_t)v;
}
static inline int32_t
ent_pid(const struct rec_ent *e)
{
	return ent_id_decode((uint32_t)(e->who >> 24) & 0xffffff);
}
static inline int32_t
ent_tid(const struct rec_ent *e)
{
	return ent_id_decode((uint32_t)e->who & 0xffffff);
}

void ent_set(struct rec_ent *e, uint64_t time, uint64_t loc, uint32_t type, int attr, int64_t cpu,
    int64_t pid, int64_t tid);

struct rec_index {
	struct rec_ent	*v;
	size_t		 n, cap;
	/* Records with no timestamp get the time of the record before them
	 * (so they keep their place); flagged here by count only. */
	size_t		 n_untimed;
	/* Called once (then cleared) before the table is grown, and so moved:
	 * whoever writes into it from another thread must have stopped. */
	void		(*before_grow)(void *arg);
	void		*grow_arg;
};

void index_push(struct rec_index *ix, const struct rec_ent *e);
/*
 * Sort stably by time.  rounds[] holds the entry positions (in push order)
 * where a FINISHED_ROUND closed a round; sorting uses them to sort rounds
 * separately and merge only their overlap, which is what makes the nearly
 * sorted data of perf cheap to sort.
 */
void index_sort(struct rec_index *ix, const size_t *rounds, size_t nrounds);
void index_free(struct rec_index *ix);
/* Room for n entries (pages are taken as they are written); false if the
 * address space for it cannot be had (nothing changed). */
bool index_reserve(struct rec_index *ix, size_t n);
/* First position of a sorted index whose time is t or later (ix->n if none). */
size_t index_first_at(const struct rec_index *ix, uint64_t t);

#endif
