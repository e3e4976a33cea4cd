/*
 * index.h: the record index, one 16-byte entry per record, sorted by time.
 *
 * Entries refer to records by their virtual location (session.h); the
 * record bytes themselves stay in the mapped file.  The table is owned by
 * the session.
 */
#ifndef PERFNAV_CORE_INDEX_H
#define PERFNAV_CORE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * An entry of the finished index: 16 bytes.  loc packs the record's
 * virtual location (48 bits), its type (8 bits: 255 means "a larger type,
 * read the record"), and its attr index (8 bits: 255 means none or
 * unknown).  Who a record is about (cpu, pid, tid) is not kept here:
 * session_ent_who() gives it, from rec_index.who when the session kept it
 * (session_opts.keep_who), else from the record itself.
 */
struct rec_ent {
	uint64_t	time;
	uint64_t	loc;
};
_Static_assert(sizeof(struct rec_ent) == 16, "index entry is 16 bytes");

/*
 * An entry while the index is built (core only): the entry and who packs
 * cpu (16 bits, 0xffff none), pid (24 bits) and tid (24 bits); 0xffffff
 * means -1/unknown and 0xfffffe "too large, read the record".
 */
struct load_ent {
	struct rec_ent	e;
	uint64_t	who;
};
_Static_assert(sizeof(struct load_ent) == 24, "loading entry is 24 bytes");

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

void ent_set(struct load_ent *e, uint64_t time, uint64_t loc, uint32_t type, int attr, int64_t cpu,
    int64_t pid, int64_t tid);

/* Who a record is about: -1 for what it does not say. */
struct ent_who {
	int32_t	cpu, pid, tid;
};

/* Unpack a loading entry's who; false if a field was too large to pack. */
bool who_unpack(uint64_t who, struct ent_who *w);

struct rec_index {
	/* The finished index (index_finish): n entries sorted by time, and
	 * who per entry unless it was let go (NULL). */
	struct rec_ent	*v;
	uint64_t	*who;
	size_t		 n;
	/* Records with no timestamp get the time of the record before them
	 * (so they keep their place); flagged here by count only. */
	size_t		 n_untimed;
	/* While loading: the entries as they are pushed, room for cap. */
	struct load_ent	*lv;
	size_t		 cap;
	/* Called once (then cleared) before the table is grown, and so moved:
	 * whoever writes into it from another thread must have stopped. */
	void		(*before_grow)(void *arg);
	void		*grow_arg;
	size_t		 map_bytes;	/* of the mapping lv, then v, live in */
	size_t		 who_bytes;	/* of who's own mapping (0: none) */
	/* v and who live in memory of another owner (a cache entry mapped
	 * by the session, core/session_cache.h): index_free leaves them. */
	bool		 borrowed;
};

/*
 * Entry i (< n) of the finished index: how code outside core/ reads it
 * (it never walks the array itself).
 */
static inline const struct rec_ent *
index_ent(const struct rec_index *ix, size_t i)
{
	return &ix->v[i];
}

/* The position of e, an entry index_ent gave. */
static inline size_t
index_ent_pos(const struct rec_index *ix, const struct rec_ent *e)
{
	return (size_t)(e - ix->v);
}

/* Does the index keep who per entry (it was not let go)? */
static inline bool
index_has_who(const struct rec_index *ix)
{
	return ix->who != NULL;
}

void index_push(struct rec_index *ix, const struct load_ent *e);
/*
 * Sort the loading entries stably by time.  rounds[] holds the entry
 * positions (in push order) where a FINISHED_ROUND closed a round; sorting
 * uses them to sort rounds separately and merge only their overlap, which
 * is what makes the nearly sorted data of perf cheap to sort.
 */
void index_sort(struct rec_index *ix, const size_t *rounds, size_t nrounds);
/* Room for n loading entries (pages are taken as they are written); false
 * if the address space for it cannot be had (nothing changed). */
bool index_reserve(struct rec_index *ix, size_t n);
/*
 * Turn the loading entries into the finished index in place (16 bytes an
 * entry, the rest of the mapping given back), keeping who per entry in
 * ix->who if keep_who.  No more pushes after it.
 */
void index_finish(struct rec_index *ix, bool keep_who);
/*
 * The same in steps, for a caller that reads every loading entry once in
 * order anyway (the thread table's pass): begin, then for each i in order
 * a copy of lv[i] handed to index_finish_step (which may overwrite lv[i]'s
 * bytes: entry i's 16 end before entry i+1's 24 begin), then end.
 */
void index_finish_begin(struct rec_index *ix, bool keep_who);
static inline void
index_finish_step(struct rec_index *ix, size_t i, const struct load_ent *le)
{
	((struct rec_ent *)(void *)ix->lv)[i] = le->e;
	if (ix->who != NULL)
		ix->who[i] = le->who;
}
void index_finish_end(struct rec_index *ix);
void index_free(struct rec_index *ix);
/* First position of a sorted index whose time is t or later (ix->n if none). */
size_t index_first_at(const struct rec_index *ix, uint64_t t);

#endif
