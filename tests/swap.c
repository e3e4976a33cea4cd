/*
 * swap.c: a test-side writer of a byte-swapped copy of a little-endian
 * perf.data file, written from the format's description independently of
 * core/, so that decoding the copy checks core/'s byte-order handling.
 *
 * Records and feature sections it does not know how to swap field by
 * field are swapped as u64 words (records) or dropped (features), which
 * keeps every record's size and type.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"
#include "tests/swap.h"

static uint8_t *o;	/* output buffer (same size as input) */
static const uint8_t *in;

static uint64_t
g64(size_t at)
{
	uint64_t v;

	memcpy(&v, in + at, 8);
	return v;
}

static uint32_t
g32(size_t at)
{
	uint32_t v;

	memcpy(&v, in + at, 4);
	return v;
}

static uint16_t
g16(size_t at)
{
	uint16_t v;

	memcpy(&v, in + at, 2);
	return v;
}

static void
s64(size_t at)
{
	uint64_t v = __builtin_bswap64(g64(at));

	memcpy(o + at, &v, 8);
}

static void
s32(size_t at)
{
	uint32_t v = __builtin_bswap32(g32(at));

	memcpy(o + at, &v, 4);
}

static void
s16(size_t at)
{
	uint16_t v = __builtin_bswap16(g16(at));

	memcpy(o + at, &v, 2);
}

/* Swap u64 words of [at, end). */
static void
s64s(size_t at, size_t end)
{
	for (; at + 8 <= end; at += 8)
		s64(at);
}

static uint8_t
mirror8(uint8_t v)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (v & (1u << i))
			r |= (uint8_t)(0x80u >> i);
	return r;
}

/* perf_event_attr of size bytes at at. */
static void
swap_attr(size_t at, size_t size)
{
	/* (offset, width) of each field after the bitfield word */
	static const uint8_t layout[][2] = {
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 },
		{ 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 },
		{ 116, 4 }, { 120, 8 }, { 128, 8 },
	};

	s32(at);
	s32(at + 4);
	s64s(at + 8, at + 40);
	for (int i = 0; i < 8; i++)
		o[at + 40 + i] = mirror8(in[at + 40 + i]);
	for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++) {
		size_t off = layout[i][0], w = layout[i][1];

		if (off + w > size)
			break;
		if (w == 8)
			s64(at + off);
		else if (w == 4)
			s32(at + off);
		else
			s16(at + off);
	}
}

struct sw_attr {
	uint64_t	sample_type, read_format, regs_user, regs_intr;
	bool		sample_id_all;
	uint64_t	branch_sample_type;
};

static struct sw_attr attrs[64];
static size_t nattrs;

static void
note_attr(size_t at, size_t size)
{
	struct sw_attr *a;

	if (nattrs >= 64)
		return;
	a = &attrs[nattrs++];
	a->sample_type = g64(at + 24);
	a->read_format = g64(at + 32);
	a->sample_id_all = (in[at + 40 + 2] >> 2) & 1;	/* bit 18 */
	a->branch_sample_type = size >= 80 ? g64(at + 72) : 0;
	a->regs_user = size >= 88 ? g64(at + 80) : 0;
	a->regs_intr = size >= 104 ? g64(at + 96) : 0;
}

/* The trailer of a non-sample record: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static size_t
swap_trailer(size_t end)
{
	uint64_t st = attrs[0].sample_type;
	size_t n = 0, at;

	if (!attrs[0].sample_id_all)
		return end;
	n += (st & (1u << 1)) ? 8 : 0;
	n += (st & (1u << 2)) ? 8 : 0;
	n += (st & (1u << 6)) ? 8 : 0;
	n += (st & (1u << 9)) ? 8 : 0;
	n += (st & (1u << 7)) ? 8 : 0;
	n += (st & (1u << 16)) ? 8 : 0;
	at = end - n;
	if (st & (1u << 1)) {
		s32(at);
		s32(at + 4);
		at += 8;
	}
	if (st & (1u << 2)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 6)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 9)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 7)) {
		s32(at);
		s32(at + 4);
		at += 8;
	}
	if (st & (1u << 16))
		s64(at);
	return end - n;
}

static void
swap_sample(size_t at, size_t end)
{
	uint64_t st = attrs[0].sample_type;	/* fixtures used here have one sample_type */

	if (st & (1u << 16)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 0)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 1)) {
		s32(at);
		s32(at + 4);
		at += 8;
	}
	if (st & (1u << 2)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 3)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 6)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 9)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 7)) {
		s32(at);
		s32(at + 4);
		at += 8;
	}
	if (st & (1u << 8)) {
		s64(at);
		at += 8;
	}
	if (st & (1u << 5)) {
		uint64_t nr = g64(at);

		s64(at);
		at += 8;
		s64s(at, at + 8 * nr);
		at += 8 * nr;
	}
	/* The rest is u64 words for the fixtures this is used on. */
	s64s(at, end);
}

static void
swap_record(size_t at)
{
	uint32_t type = g32(at);
	uint16_t size = g16(at + 6);
	size_t b = at + 8, end = at + size;

	s32(at);
	s16(at + 4);
	s16(at + 6);
	switch (type) {
	case 1:	/* MMAP */
		end = swap_trailer(end);
		s32(b);
		s32(b + 4);
		s64s(b + 8, b + 32);
		break;
	case 10: /* MMAP2 */
		end = swap_trailer(end);
		s32(b);
		s32(b + 4);
		s64s(b + 8, b + 32);
		if (!(g16(at + 4) & (1 << 14))) {
			s32(b + 32);
			s32(b + 36);
			s64s(b + 40, b + 56);
		}
		s32(b + 56);
		s32(b + 60);
		break;
	case 3:	/* COMM */
		end = swap_trailer(end);
		s32(b);
		s32(b + 4);
		break;
	case 4:	/* EXIT */
	case 7:	/* FORK */
		end = swap_trailer(end);
		s32(b);
		s32(b + 4);
		s32(b + 8);
		s32(b + 12);
		s64(b + 16);
		break;
	case 9:
		swap_sample(b, end);
		break;
	case 78: /* EVENT_UPDATE: type, id, then a name or u64s */
		s64(b);
		s64(b + 8);
		if (g64(b) != 2)
			s64s(b + 16, end);
		break;
	case 73: /* THREAD_MAP: nr, then { u64 pid; char comm[16] } */
		s64(b);
		for (size_t e = b + 8; e + 24 <= end; e += 24)
			s64(e);
		break;
	case 74: /* CPU_MAP: u16 fields */
		for (size_t e = b; e + 2 <= end; e += 2)
			s16(e);
		break;
	default:
		s64s(b, end);
		break;
	}
}

static void
swap_string(size_t at)
{
	s32(at);
}

/* Swap the features this writer knows; returns false to drop the section. */
static bool
swap_feature(unsigned bit, size_t at, size_t size)
{
	size_t end = at + size;

	switch (bit) {
	case 3:
	case 4:
	case 5:
	case 6:
	case 8:
	case 9: /* strings */
		swap_string(at);
		return true;
	case 7:	/* NRCPUS */
		s32(at);
		s32(at + 4);
		return true;
	case 10: /* TOTAL_MEM */
		s64(at);
		return true;
	case 11: { /* CMDLINE */
		uint32_t n = g32(at);

		s32(at);
		at += 4;
		for (uint32_t i = 0; i < n && at + 4 <= end; i++) {
			uint32_t len = g32(at);

			s32(at);
			at += 4 + len;
		}
		return true;
	}
	case 12: { /* EVENT_DESC */
		uint32_t nr = g32(at), asz = g32(at + 4);

		s32(at);
		s32(at + 4);
		at += 8;
		for (uint32_t i = 0; i < nr && at < end; i++) {
			uint32_t nids, len;

			swap_attr(at, asz);
			at += asz;
			nids = g32(at);
			s32(at);
			at += 4;
			len = g32(at);
			s32(at);
			at += 4 + len;
			s64s(at, at + 8 * (size_t)nids);
			at += 8 * (size_t)nids;
		}
		return true;
	}
	case 21: /* SAMPLE_TIME */
		s64s(at, end);
		return true;
	default:
		return false;
	}
}

int
swap_perf_file(const uint8_t *src, size_t len, struct pdbuf *out)
{
	uint64_t attr_size, attrs_off, attrs_size, data_off, data_size, feat[4];
	size_t tab, k = 0, kout = 0;

	in = src;
	if (len < 104 || memcmp(src, "PERFILE2", 8) != 0 || g64(8) != 104)
		return -1;
	memset(out, 0, sizeof *out);
	pd_bytes(out, src, len);
	o = out->p;
	nattrs = 0;
	attr_size = g64(16);
	attrs_off = g64(24);
	attrs_size = g64(32);
	data_off = g64(40);
	data_size = g64(48);
	for (int i = 0; i < 4; i++)
		feat[i] = g64(72 + 8 * i);
	s64s(0, 104);
	/* attrs + their id lists */
	for (size_t a = attrs_off; a + attr_size <= attrs_off + attrs_size; a += attr_size) {
		size_t asz = attr_size - 16;
		uint64_t ids = g64(a + asz), nids = g64(a + asz + 8);

		note_attr(a, asz);
		swap_attr(a, asz);
		s64(a + asz);
		s64(a + asz + 8);
		s64s(ids, ids + nids);
	}
	/* records */
	for (size_t at = data_off; at + 8 <= data_off + data_size;) {
		uint16_t sz = g16(at + 6);

		if (sz < 8)
			return -1;
		swap_record(at);
		at += sz;
	}
	/* features: rewrite the table keeping only what was swapped */
	tab = data_off + data_size;
	for (unsigned bit = 0; bit < 256; bit++) {
		size_t e;
		uint64_t off, size;

		if (!(feat[bit / 64] >> (bit % 64) & 1))
			continue;
		e = tab + 16 * k++;
		off = g64(e);
		size = g64(e + 8);
		if (swap_feature(bit, off, size)) {
			uint64_t so = __builtin_bswap64(off), ss = __builtin_bswap64(size);

			memcpy(o + tab + 16 * kout, &so, 8);
			memcpy(o + tab + 16 * kout + 8, &ss, 8);
			kout++;
		} else {
			feat[bit / 64] &= ~(UINT64_C(1) << (bit % 64));
		}
	}
	for (int i = 0; i < 4; i++) {
		uint64_t v = __builtin_bswap64(feat[i]);

		memcpy(o + 72 + 8 * i, &v, 8);
	}
	return 0;
}
