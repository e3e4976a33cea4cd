#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/hmap.h"

/* The slot a new key goes to: the first empty one of its probe run. */
static void
put_new(struct hmap *m, uint64_t key, uint32_t val)
{
	size_t mask = m->cap - 1, i = hmap_slot(m, key);

	while (m->vals[i] != HMAP_NONE)
		i = (i + 1) & mask;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

/* Room for one more entry, the map staying at most half full. */
static void
reserve_one(struct hmap *m)
{
	uint64_t *ok = m->keys;
	uint32_t *ov = m->vals;
	size_t ocap = m->cap;

	if ((m->n + 1) * 2 <= m->cap)
		return;
	m->cap = ocap ? ocap * 2 : 64;
	m->shift = ocap ? m->shift - 1 : 64 - 6;
	if (m->cap / 2 <= m->n || m->cap > SIZE_MAX / sizeof *m->keys)
		fatal_oom(SIZE_MAX);
	m->keys = xmalloc(m->cap * sizeof *m->keys);
	m->vals = xmalloc(m->cap * sizeof *m->vals);
	memset(m->vals, 0xff, m->cap * sizeof *m->vals);
	m->n = 0;
	for (size_t i = 0; i < ocap; i++)
		if (ov[i] != HMAP_NONE)
			put_new(m, ok[i], ov[i]);
	free(ok);
	free(ov);
}

void
hmap_set(struct hmap *m, uint64_t key, uint32_t val)
{
	size_t mask, i;

	reserve_one(m);
	mask = m->cap - 1;
	for (i = hmap_slot(m, key); m->vals[i] != HMAP_NONE; i = (i + 1) & mask) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

void
hmap_add(struct hmap *m, uint64_t hash, uint32_t val)
{
	reserve_one(m);
	put_new(m, hash, val);
}

void
hmap_free(struct hmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

uint64_t
hash_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = UINT64_C(1469598103934665603);

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* ---- interned strings ---- */

struct str_key {
	const struct strtab	*t;
	const char		*s;
	size_t			 len;
};

static bool
str_eq(const void *ctx, uint32_t off)
{
	const struct str_key *k = ctx;
	const char *c = k->t->buf + off;

	return strncmp(c, k->s, k->len) == 0 && c[k->len] == '\0';
}

uint32_t
strtab_intern(struct strtab *t, const char *s, size_t n)
{
	struct str_key k = { t, s, strnlen(s, n) };
	uint64_t h = hash_bytes(s, k.len);
	uint32_t off = hmap_find(&t->map, h, str_eq, &k);

	if (off != HMAP_NONE)
		return off;
	if (t->len + k.len + 1 >= UINT32_MAX - 1)
		fatal_oom(t->len + k.len + 1);
	GROW(t->buf, t->cap, t->len + k.len + 1);
	off = (uint32_t)t->len;
	memcpy(t->buf + off, s, k.len);
	t->buf[off + k.len] = '\0';
	t->len += k.len + 1;
	hmap_add(&t->map, h, off);
	return off;
}

void
strtab_free(struct strtab *t)
{
	free(t->buf);
	hmap_free(&t->map);
	memset(t, 0, sizeof *t);
}
