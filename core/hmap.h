/*
 * hmap.h: the one hash map of perfnav, and its string interner.
 *
 * A struct hmap maps 64-bit keys to 32-bit values (in practice an index
 * into the owner's own array) by open addressing with linear probing, at
 * most half full.  Keys are kept beside the values, so growing never calls
 * back into the owner.  Two ways to use it:
 *   - the key is the thing itself (an id, a tid, an address): hmap_get()
 *     and hmap_set();
 *   - the key is a 64-bit hash of something larger (a string, a composite
 *     key): hmap_find() asks the owner's eq callback about each candidate
 *     value whose hash matches, hmap_add() adds one the owner checked is new.
 * Lookups and inserts are inline (they sit on hot paths: one call per
 * sample and per callchain frame); a key and its value share a slot.
 * A zeroed struct hmap is an empty map; hmap_free() gives its memory back.
 *
 * struct strtab interns strings into one arena: equal strings get the same
 * id (their offset in the arena), for the life of the table.
 */
#ifndef PERFNAV_CORE_HMAP_H
#define PERFNAV_CORE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"

/* The value no entry has: what the lookups return for a missing key. */
#define HMAP_NONE	UINT32_MAX

/* One slot: a key and its value side by side, one cache line for both. */
struct hmap_slot {
	uint64_t	key;
	uint32_t	val;		/* HMAP_NONE: empty slot */
};

struct hmap {
	struct hmap_slot *slots;
	size_t		 cap, n;	/* cap: 0 or a power of two */
	unsigned	 shift;		/* 64 - log2(cap) */
};

/*
 * The first slot a key probes (cap > 0): the top bits of key times 2^64
 * over the golden ratio (Fibonacci hashing; every bit of the key counts).
 */
static inline size_t
hmap_slot(const struct hmap *m, uint64_t key)
{
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> m->shift);
}

/* Is the value the caller's (for hmap_find): its key, its hash's owner, equal to what ctx holds? */
typedef bool (*hmap_eq_fn)(const void *ctx, uint32_t val);

/* The value of key, or HMAP_NONE. */
static inline uint32_t
hmap_get(const struct hmap *m, uint64_t key)
{
	size_t mask, i;

	if (m->cap == 0)
		return HMAP_NONE;
	mask = m->cap - 1;
	for (i = hmap_slot(m, key); m->slots[i].val != HMAP_NONE; i = (i + 1) & mask)
		if (m->slots[i].key == key)
			return m->slots[i].val;
	return HMAP_NONE;
}

/*
 * The first value stored under hash for which eq(ctx, value) is true, or
 * HMAP_NONE.
 */
static inline uint32_t
hmap_find(const struct hmap *m, uint64_t hash, hmap_eq_fn eq, const void *ctx)
{
	size_t mask, i;

	if (m->cap == 0)
		return HMAP_NONE;
	mask = m->cap - 1;
	for (i = hmap_slot(m, hash); m->slots[i].val != HMAP_NONE; i = (i + 1) & mask)
		if (m->slots[i].key == hash && eq(ctx, m->slots[i].val))
			return m->slots[i].val;
	return HMAP_NONE;
}

/* Double the map's room (hmap_add() and hmap_set() call it when it is half full). */
void hmap_grow(struct hmap *m);
/* Room for n more values without growing (a table made whole at once). */
void hmap_reserve(struct hmap *m, size_t n);

/* Map key to val (val != HMAP_NONE), replacing the value key had.  Never fails (xmalloc). */
static inline void
hmap_set(struct hmap *m, uint64_t key, uint32_t val)
{
	size_t mask, i;

	if ((m->n + 1) * 2 > m->cap)
		hmap_grow(m);
	mask = m->cap - 1;
	for (i = hmap_slot(m, key); m->slots[i].val != HMAP_NONE; i = (i + 1) & mask) {
		if (m->slots[i].key == key) {
			m->slots[i].val = val;
			return;
		}
	}
	m->slots[i].key = key;
	m->slots[i].val = val;
	m->n++;
}

/* Add val (!= HMAP_NONE) under hash, beside any value already there.  Never fails. */
static inline void
hmap_add(struct hmap *m, uint64_t hash, uint32_t val)
{
	size_t mask, i;

	if ((m->n + 1) * 2 > m->cap)
		hmap_grow(m);
	mask = m->cap - 1;
	for (i = hmap_slot(m, hash); m->slots[i].val != HMAP_NONE; i = (i + 1) & mask)
		;
	m->slots[i].key = hash;
	m->slots[i].val = val;
	m->n++;
}
/* Give the map's memory back; it is empty (and usable) again. */
void hmap_free(struct hmap *m);

/* A 64-bit hash of n bytes (FNV-1a), for hmap_find()/hmap_add() keys. */
uint64_t hash_bytes(const void *p, size_t n);

/* Interned strings: ids are offsets into one arena. */
struct strtab {
	char		*buf;
	size_t		 len, cap;
	struct hmap	 map;		/* hash of a string -> its offset */
};

/*
 * The id of the string s (its first n bytes, or up to a NUL before them),
 * added if new.  Ids stay valid until strtab_free(); never fails.
 */
uint32_t strtab_intern(struct strtab *t, const char *s, size_t n);
/* The string of an id strtab_intern() gave (valid until the next intern). */
static inline const char *
strtab_get(const struct strtab *t, uint32_t id)
{
	return t->buf + id;
}
/*
 * Make t (empty) a copy of a table's arena, buf (n bytes, the last a NUL):
 * each string's id its offset, as strtab_intern gave them (a string seen
 * twice keeps both ids; interning it again gives one of them).
 */
void strtab_adopt(struct strtab *t, const char *buf, size_t n);
/* Give the table's memory back. */
void strtab_free(struct strtab *t);

#endif
