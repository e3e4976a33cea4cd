#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/hmap.h"

void
hmap_grow(struct hmap *m)
{
	struct hmap_slot *old = m->slots;
	size_t ocap = m->cap;

	m->cap = ocap ? ocap * 2 : 64;
	m->shift = ocap ? m->shift - 1 : 64 - 6;
	if (m->cap / 2 <= m->n || m->cap > SIZE_MAX / sizeof *m->slots)
		fatal_oom(SIZE_MAX);
	m->slots = xmalloc_table(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < m->cap; i++)
		m->slots[i].val = HMAP_NONE;
	m->n = 0;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].val != HMAP_NONE)
			hmap_add(m, old[i].key, old[i].val);
	free(old);
}

void
hmap_reserve(struct hmap *m, size_t n)
{
	while ((m->n + n + 1) * 2 > m->cap)
		hmap_grow(m);
}

void
hmap_free(struct hmap *m)
{
	free(m->slots);
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
strtab_adopt(struct strtab *t, const char *buf, size_t n)
{
	if (n == 0 || buf[n - 1] != '\0' || n >= UINT32_MAX - 1)
		return;
	t->buf = xreallocarray(NULL, n, 1);
	memcpy(t->buf, buf, n);
	t->len = t->cap = n;
	hmap_reserve(&t->map, n / 8 + 1);
	for (size_t off = 0; off < n;) {
		size_t len = strlen(t->buf + off);

		hmap_add(&t->map, hash_bytes(t->buf + off, len), (uint32_t)off);
		off += len + 1;
	}
}

void
strtab_free(struct strtab *t)
{
	free(t->buf);
	hmap_free(&t->map);
	memset(t, 0, sizeof *t);
}
