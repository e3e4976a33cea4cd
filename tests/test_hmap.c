/*
 * Criterion tests of core/hmap.c: the hash map (exact keys, hashed keys
 * with the owner's comparison, growth, replacement) and the string
 * interner built on it.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "core/hmap.h"

Test(hmap, empty_map_finds_nothing)
{
	struct hmap m = { 0 };

	cr_assert_eq(hmap_get(&m, 0), HMAP_NONE);
	cr_assert_eq(hmap_get(&m, 42), HMAP_NONE);
	hmap_free(&m);
	cr_assert_eq(m.cap, 0);
}

Test(hmap, exact_keys_through_growth)
{
	struct hmap m = { 0 };
	const uint32_t n = 100000;

	/* keys with the same low bits and keys 0 and UINT64_MAX among them */
	for (uint32_t i = 0; i < n; i++)
		hmap_set(&m, (uint64_t)i << 32, i);
	hmap_set(&m, UINT64_MAX, 7);
	cr_assert_eq(m.n, n + 1);
	cr_assert_leq(m.n * 2, m.cap, "at most half full: %zu of %zu", m.n, m.cap);
	for (uint32_t i = 0; i < n; i++)
		cr_assert_eq(hmap_get(&m, (uint64_t)i << 32), i, "key %u", i);
	cr_assert_eq(hmap_get(&m, UINT64_MAX), 7);
	cr_assert_eq(hmap_get(&m, 1), HMAP_NONE);
	cr_assert_eq(hmap_get(&m, (uint64_t)n << 32), HMAP_NONE);
	hmap_free(&m);
}

/* The mean and the longest distance of the stored keys from their first slots. */
static void
probe_lengths(const struct hmap *m, double *mean, size_t *max)
{
	size_t sum = 0;

	*max = 0;
	for (size_t i = 0; i < m->cap; i++) {
		size_t d;

		if (m->slots[i].val == HMAP_NONE)
			continue;
		d = (i - hmap_slot(m, m->slots[i].key)) & (m->cap - 1);
		sum += d;
		if (d > *max)
			*max = d;
	}
	*mean = m->n ? (double)sum / (double)m->n : 0;
}

Test(hmap, regular_keys_spread)
{
	/* ids, aligned addresses, keys differing in high bits only */
	const unsigned shifts[] = { 0, 4, 12, 32, 44 };
	const uint32_t n = 50000;

	for (size_t k = 0; k < sizeof shifts / sizeof *shifts; k++) {
		struct hmap m = { 0 };
		double mean;
		size_t max;

		for (uint32_t i = 0; i < n; i++)
			hmap_set(&m, (uint64_t)i << shifts[k], i);
		probe_lengths(&m, &mean, &max);
		cr_assert_lt(mean, 2.0, "keys i << %u: mean probe %.2f", shifts[k], mean);
		cr_assert_lt(max, 64, "keys i << %u: longest probe %zu", shifts[k], max);
		for (uint32_t i = 0; i < n; i++)
			cr_assert_eq(hmap_get(&m, (uint64_t)i << shifts[k]), i);
		hmap_free(&m);
	}
}

Test(hmap, set_replaces_the_value)
{
	struct hmap m = { 0 };

	hmap_set(&m, 5, 1);
	hmap_set(&m, 5, 2);
	cr_assert_eq(m.n, 1);
	cr_assert_eq(hmap_get(&m, 5), 2);
	hmap_free(&m);
}

/* Hashed keys: values are indexes into `words`; every word hashes alike. */
static const char *words[] = { "alpha", "beta", "gamma", "delta" };

static bool
word_eq(const void *ctx, uint32_t val)
{
	return strcmp(words[val], ctx) == 0;
}

Test(hmap, hashed_keys_share_a_hash)
{
	struct hmap m = { 0 };

	for (uint32_t i = 0; i < 4; i++) {
		cr_assert_eq(hmap_find(&m, 99, word_eq, words[i]), HMAP_NONE);
		hmap_add(&m, 99, i);
	}
	for (uint32_t i = 0; i < 4; i++)
		cr_assert_eq(hmap_find(&m, 99, word_eq, words[i]), i);
	cr_assert_eq(hmap_find(&m, 99, word_eq, "epsilon"), HMAP_NONE);
	/* the right word under another hash is not found */
	cr_assert_eq(hmap_find(&m, 98, word_eq, "beta"), HMAP_NONE);
	hmap_free(&m);
}

Test(strtab, equal_strings_one_id)
{
	struct strtab t = { 0 };
	char name[32];
	uint32_t ids[2000];

	for (int i = 0; i < 2000; i++) {
		snprintf(name, sizeof name, "sym_%d", i);
		ids[i] = strtab_intern(&t, name, sizeof name);
	}
	for (int i = 0; i < 2000; i++) {
		snprintf(name, sizeof name, "sym_%d", i);
		cr_assert_eq(strtab_intern(&t, name, strlen(name)), ids[i]);
		cr_assert_str_eq(strtab_get(&t, ids[i]), name);
	}
	cr_assert_eq(t.map.n, 2000);
	strtab_free(&t);
}

Test(strtab, length_bounds_the_string)
{
	struct strtab t = { 0 };
	uint32_t ab = strtab_intern(&t, "abc", 2);
	uint32_t abc = strtab_intern(&t, "abc", 3);
	uint32_t empty = strtab_intern(&t, "", 0);

	cr_assert_str_eq(strtab_get(&t, ab), "ab");
	cr_assert_str_eq(strtab_get(&t, abc), "abc");
	cr_assert_neq(ab, abc);
	cr_assert_str_eq(strtab_get(&t, empty), "");
	/* a NUL inside the n bytes ends the string */
	cr_assert_eq(strtab_intern(&t, "ab\0zz", 5), ab);
	strtab_free(&t);
}
