#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/err.h"
#include "core/perf_file.h"

/* Every swappable scalar of struct perf_event_attr: (offset, size). */
static const struct {
	uint8_t off, size;
} attr_scalars[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
	/* 40: the bitfield word, handled apart */
	{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 },
	{ 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 },
	{ 112, 4 }, { 116, 4 }, { 120, 8 }, { 128, 8 },
};

#define ATTR_BITFIELD_OFF 40

static uint8_t
reverse_bits(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

int
attr_decode(struct perf_event_attr *out, const uint8_t *p, size_t disk_size, bool swap)
{
	uint8_t *o = (uint8_t *)out;
	size_t n = disk_size < sizeof *out ? disk_size : sizeof *out;

	memset(out, 0, sizeof *out);
	if (disk_size < PF_ATTR_SIZE_VER0_MIN)
		return -1;
	memcpy(out, p, n);
	if (!swap)
		return 0;
	for (size_t i = 0; i < sizeof attr_scalars / sizeof attr_scalars[0]; i++) {
		size_t off = attr_scalars[i].off, sz = attr_scalars[i].size;

		if (off + sz > n || off + sz > sizeof *out)
			continue;
		if (sz == 2) {
			uint16_t v = rd16(o + off, true);
			memcpy(o + off, &v, 2);
		} else if (sz == 4) {
			uint32_t v = rd32(o + off, true);
			memcpy(o + off, &v, 4);
		} else {
			uint64_t v = rd64(o + off, true);
			memcpy(o + off, &v, 8);
		}
	}
	/*
	 * A big-endian compiler allocates bitfields from the most significant
	 * bit of each byte; swapping the word's bytes is not enough, the bits
	 * within each byte are mirrored instead.
	 */
	if (n >= ATTR_BITFIELD_OFF + 8) {
		for (size_t i = 0; i < 8; i++)
			o[ATTR_BITFIELD_OFF + i] = reverse_bits(o[ATTR_BITFIELD_OFF + i]);
	}
	return 0;
}

uint32_t
attr_trailer_size(uint64_t st)
{
	uint32_t n = 0;

	if (st & PERF_SAMPLE_TID)
		n += 8;
	if (st & PERF_SAMPLE_TIME)
		n += 8;
	if (st & PERF_SAMPLE_ID)
		n += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (st & PERF_SAMPLE_CPU)
		n += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

static int
calc_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	if (st & PERF_SAMPLE_IP)
		idx++;
	if (st & PERF_SAMPLE_TID)
		idx++;
	if (st & PERF_SAMPLE_TIME)
		idx++;
	if (st & PERF_SAMPLE_ADDR)
		idx++;
	return idx;
}

static int
calc_is_pos(uint64_t st)
{
	int idx = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	if (st & PERF_SAMPLE_CPU)
		idx++;
	if (st & PERF_SAMPLE_STREAM_ID)
		idx++;
	return idx;
}

uint32_t
attr_table_add(struct attr_table *t, const struct perf_event_attr *a, uint32_t disk_size,
    uint64_t file_off)
{
	struct pn_attr *pa;

	GROW(t->v, t->cap, t->n + 1);
	pa = &t->v[t->n];
	memset(pa, 0, sizeof *pa);
	pa->attr = *a;
	pa->disk_size = disk_size;
	pa->file_off = file_off;
	pa->id_pos = calc_id_pos(a->sample_type);
	pa->is_pos = calc_is_pos(a->sample_type);
	pa->trailer_size = a->sample_id_all ? attr_trailer_size(a->sample_type) : 0;
	return (uint32_t)t->n++;
}

void
attr_table_add_id(struct attr_table *t, uint32_t idx, uint64_t id)
{
	struct pn_attr *pa;

	if (idx >= t->n)
		return;
	pa = &t->v[idx];
	for (size_t i = 0; i < pa->nids; i++)
		if (pa->ids[i] == id)
			goto map;
	GROW(pa->ids, pa->cap_ids, pa->nids + 1);
	pa->ids[pa->nids++] = id;
map:
	hmap_set(&t->ids, id, idx);	/* last one wins, as in perf */
}

int
attr_table_find_id(const struct attr_table *t, uint64_t id)
{
	uint32_t v = hmap_get(&t->ids, id);

	return v == HMAP_NONE ? -1 : (int)v;
}

void
attr_table_finish(struct attr_table *t)
{
	t->same_sample_type = true;
	t->id_pos = t->n ? t->v[0].id_pos : -1;
	t->is_pos = t->n ? t->v[0].is_pos : -1;
	t->sample_id_all = t->n ? t->v[0].attr.sample_id_all : false;
	for (size_t i = 1; i < t->n; i++) {
		if (t->v[i].attr.sample_type != t->v[0].attr.sample_type)
			t->same_sample_type = false;
		if (t->v[i].id_pos != t->id_pos)
			t->id_pos = -1;
		if (t->v[i].is_pos != t->is_pos)
			t->is_pos = -1;
	}
}

void
attr_table_free(struct attr_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].ids);
		free(t->v[i].name);
	}
	free(t->v);
	hmap_free(&t->ids);
	memset(t, 0, sizeof *t);
}

bool
attr_table_has_callchains(const struct attr_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}
