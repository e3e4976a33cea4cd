/*
 * bytes.h: bounds-aware readers of on-disk integers in either byte order.
 *
 * Every multi-byte value of a recording is read through these helpers with
 * the session's "swap" flag, so a big-endian file reads the same as a
 * little-endian one.  They never touch memory outside [p, p + n).
 */
#ifndef PERFNAV_CORE_BYTES_H
#define PERFNAV_CORE_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t
rd16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof v);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t
rd32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t
rd64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return swap ? __builtin_bswap64(v) : v;
}

/*
 * A cursor over a byte range: reads advance it; reading past the end sets
 * "bad" and returns zeros, so decoders check once at the end.
 */
struct cursor {
	const uint8_t	*base;
	size_t		 len;
	size_t		 pos;
	bool		 swap;
	bool		 bad;
};

static inline void
cursor_init(struct cursor *c, const void *base, size_t len, bool swap)
{
	c->base = base;
	c->len = len;
	c->pos = 0;
	c->swap = swap;
	c->bad = false;
}

static inline bool
cursor_has(const struct cursor *c, size_t n)
{
	return !c->bad && n <= c->len - c->pos;
}

static inline const uint8_t *
cursor_take(struct cursor *c, size_t n)
{
	const uint8_t *p;

	if (!cursor_has(c, n)) {
		c->bad = true;
		c->pos = c->len;
		return NULL;
	}
	p = c->base + c->pos;
	c->pos += n;
	return p;
}

static inline uint64_t
cursor_u64(struct cursor *c)
{
	const uint8_t *p = cursor_take(c, 8);

	return p ? rd64(p, c->swap) : 0;
}

static inline uint32_t
cursor_u32(struct cursor *c)
{
	const uint8_t *p = cursor_take(c, 4);

	return p ? rd32(p, c->swap) : 0;
}

static inline size_t
cursor_left(const struct cursor *c)
{
	return c->bad ? 0 : c->len - c->pos;
}

/* A 64-bit finalizer (murmur3's fmix64): spreads every input bit over the
 * result, for open-addressing tables keyed by integers. */
static inline uint64_t
hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return x;
}

#endif
