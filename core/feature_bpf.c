#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/err.h"
#include "core/feature_int.h"

/*
 * BPF_PROG_INFO and BPF_BTF: what perf shows of each program (native byte
 * order only, as perf), and perf's names of their sub-programs.
 */

void
feature_bpf_free_progs(struct features *f)
{
	for (uint32_t i = 0; i < f->bpf.nbpf_progs; i++)
		free(f->bpf.bpf_progs[i].subs);
	free(f->bpf.bpf_progs);
	f->bpf.bpf_progs = NULL;
	f->bpf.nbpf_progs = 0;
	f->bpf.bpf_prog_count = 0;
}

void
feature_bpf_free_btf(struct features *f)
{
	for (uint32_t i = 0; i < f->bpf.nbtfs; i++)
		free(f->bpf.btfs[i].data);
	free(f->bpf.btfs);
	f->bpf.btfs = NULL;
	f->bpf.nbtfs = 0;
	f->bpf.btf_count = 0;
}

/* Whether the array of nr elements of size each at offset off lies in
 * data[0, len). */
static bool
arr_ok(uint64_t off, uint64_t nr, uint64_t each, uint64_t len)
{
	return off <= len && nr <= (len - off) / each;
}

/* One struct perf_bpil: u32 info_len, u32 data_len, u64 arrays, info, data. */
static int
rd_bpf_prog(struct feat_dec *d, struct feat_bpf_prog *out)
{
	struct bpf_prog_info info;
	uint32_t info_len = cursor_u32(&d->c), data_len = cursor_u32(&d->c);
	const uint8_t *ip, *dp;
	uint32_t n;

	(void)cursor_u64(&d->c);	/* arrays */
	if (d->c.bad)
		return -1;
	ip = cursor_take(&d->c, info_len);
	dp = ip ? cursor_take(&d->c, data_len) : NULL;
	if (dp == NULL)
		return -1;
	memset(&info, 0, sizeof info);
	memcpy(&info, ip, info_len < sizeof info ? info_len : sizeof info);
	memset(out, 0, sizeof *out);
	out->id = info.id;
	out->btf_id = info.btf_id;
	memcpy(out->name, info.name, sizeof info.name);
	out->name[sizeof out->name - 1] = '\0';
	n = info.nr_jited_ksyms;
	if (n != info.nr_prog_tags || n != info.nr_jited_func_lens || n == 0)
		return 0;
	/* Array pointers were written as offsets into data. */
	if (!arr_ok(info.jited_ksyms, n, 8, data_len) ||
	    !arr_ok(info.jited_func_lens, n, 4, data_len) ||
	    !arr_ok(info.prog_tags, n, 8, data_len))
		return 0;
	out->subs = xcalloc(n, sizeof *out->subs);
	out->nsubs = n;
	for (uint32_t i = 0; i < n; i++) {
		struct feat_bpf_sub *s = &out->subs[i];

		memcpy(&s->addr, dp + info.jited_ksyms + 8 * i, 8);
		memcpy(&s->len, dp + info.jited_func_lens + 4 * i, 4);
		memcpy(s->tag, dp + info.prog_tags + 8 * i, 8);
	}
	if (info.func_info_rec_size >= 8 && info.nr_func_info >= n &&
	    arr_ok(info.func_info, n, info.func_info_rec_size, data_len)) {
		for (uint32_t i = 0; i < n; i++)
			memcpy(&out->subs[i].btf_type_id,
			    dp + info.func_info + (uint64_t)i * info.func_info_rec_size + 4, 4);
		out->has_func_info = true;
	}
	out->printable = true;
	return 0;
}

static int
cmp_prog(const void *a, const void *b)
{
	const struct feat_bpf_prog *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_btf(const void *a, const void *b)
{
	const struct feat_btf *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort by id and drop later duplicates, as perf's rb-tree insert does. */
static void
sort_progs(struct features *f)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < f->bpf.nbpf_progs; i++)
		f->bpf.bpf_progs[i].seq = i;
	if (f->bpf.nbpf_progs > 1)
		qsort(f->bpf.bpf_progs, f->bpf.nbpf_progs, sizeof *f->bpf.bpf_progs, cmp_prog);
	for (uint32_t i = 0; i < f->bpf.nbpf_progs; i++) {
		if (k > 0 && f->bpf.bpf_progs[k - 1].id == f->bpf.bpf_progs[i].id) {
			free(f->bpf.bpf_progs[i].subs);
			continue;
		}
		f->bpf.bpf_progs[k++] = f->bpf.bpf_progs[i];
	}
	f->bpf.nbpf_progs = k;
}

static void
sort_btfs(struct features *f)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < f->bpf.nbtfs; i++)
		f->bpf.btfs[i].seq = i;
	if (f->bpf.nbtfs > 1)
		qsort(f->bpf.btfs, f->bpf.nbtfs, sizeof *f->bpf.btfs, cmp_btf);
	for (uint32_t i = 0; i < f->bpf.nbtfs; i++) {
		if (k > 0 && f->bpf.btfs[k - 1].id == f->bpf.btfs[i].id) {
			free(f->bpf.btfs[i].data);
			continue;
		}
		f->bpf.btfs[k++] = f->bpf.btfs[i];
	}
	f->bpf.nbtfs = k;
}

int
feature_bpf_dec_progs(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;
	uint32_t k = 0;

	feature_bpf_free_progs(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	f->bpf.bpf_prog_count = nr;
	if (d->c.swap) {
		/* perf does not interpret BPF info of the other byte order. */
		d->c.pos = d->c.len;
		return 0;
	}
	if (!feat_fits(&d->c, nr, 16))
		return feat_fail(d, "%" PRIu32 " programs cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->bpf.bpf_progs = xcalloc(nr ? nr : 1, sizeof *f->bpf.bpf_progs);
	for (uint32_t i = 0; i < nr; i++) {
		if (rd_bpf_prog(d, &f->bpf.bpf_progs[k]) < 0) {
			f->bpf.nbpf_progs = k;
			return feat_fail(d, "program %" PRIu32 " of %" PRIu32 " truncated", i, nr);
		}
		k++;
	}
	f->bpf.nbpf_progs = k;
	sort_progs(f);
	return 0;
}

int
feature_bpf_dec_btf(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	feature_bpf_free_btf(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	f->bpf.btf_count = nr;
	if (d->c.swap) {
		d->c.pos = d->c.len;
		return 0;
	}
	if (!feat_fits(&d->c, nr, 8))
		return feat_fail(d, "%" PRIu32 " BTF entries cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->bpf.btfs = xcalloc(nr ? nr : 1, sizeof *f->bpf.btfs);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_btf *b = &f->bpf.btfs[i];
		uint32_t id = cursor_u32(&d->c), size = cursor_u32(&d->c);
		const uint8_t *p = cursor_take(&d->c, size);

		if (p == NULL) {
			sort_btfs(f);
			return feat_fail(d, "BTF entry %" PRIu32 " of %" PRIu32 " truncated", i, nr);
		}
		b->id = id;
		b->size = size;
		b->data = xmalloc(size ? size : 1);
		memcpy(b->data, p, size);
		f->bpf.nbtfs = i + 1;
	}
	sort_btfs(f);
	return 0;
}

/* Extra bytes after a struct btf_type of a kind, or -1 if unknown. */
static int64_t
btf_extra(uint32_t info)
{
	uint32_t kind = (info >> 24) & 0x1f, vlen = info & 0xffff;

	switch (kind) {
	case 1:	/* INT */
	case 14:	/* VAR */
	case 17:	/* DECL_TAG */
		return 4;
	case 3:	/* ARRAY */
		return 12;
	case 4:	/* STRUCT */
	case 5:	/* UNION */
	case 15:	/* DATASEC */
	case 19:	/* ENUM64 */
		return 12 * (int64_t)vlen;
	case 6:	/* ENUM */
	case 13:	/* FUNC_PROTO */
		return 8 * (int64_t)vlen;
	case 2:
	case 7:
	case 8:
	case 9:
	case 10:
	case 11:
	case 12:
	case 16:
	case 18:
		return 0;
	default:
		return -1;
	}
}

/* Name of BTF type id in blob b, or NULL if the blob does not parse. */
static const char *
btf_type_name(const struct feat_btf *b, uint32_t type_id)
{
	const uint8_t *p = b->data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, name_off = 0;
	const uint8_t *types, *strs;
	uint64_t pos = 0;
	uint32_t id = 1;

	if (b->size < 24 || rd16(p, false) != 0xeb9f)
		return NULL;
	hdr_len = rd32(p + 4, false);
	type_off = rd32(p + 8, false);
	type_len = rd32(p + 12, false);
	str_off = rd32(p + 16, false);
	str_len = rd32(p + 20, false);
	if (hdr_len > b->size || (uint64_t)type_off + type_len > b->size - hdr_len ||
	    (uint64_t)str_off + str_len > b->size - hdr_len || str_len == 0)
		return NULL;
	types = p + hdr_len + type_off;
	strs = p + hdr_len + str_off;
	if (type_id == 0)
		return NULL;
	for (;;) {
		uint32_t info;
		int64_t extra;

		if (pos + 12 > type_len)
			return NULL;
		info = rd32(types + pos + 4, false);
		extra = btf_extra(info);
		if (extra < 0)
			return NULL;
		if (id == type_id) {
			name_off = rd32(types + pos, false);
			break;
		}
		pos += 12 + (uint64_t)extra;
		id++;
	}
	if (name_off >= str_len || memchr(strs + name_off, '\0', str_len - name_off) == NULL)
		return NULL;
	return (const char *)strs + name_off;
}

static const struct feat_btf *
find_btf(const struct features *f, uint32_t id)
{
	size_t lo = 0, hi = f->bpf.nbtfs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->bpf.btfs[mid].id == id)
			return &f->bpf.btfs[mid];
		if (f->bpf.btfs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void
features_bpf_prog_name(const struct features *f, const struct feat_bpf_prog *p, uint32_t i,
    char *buf, size_t n)
{
	const struct feat_btf *b = p->btf_id ? find_btf(f, p->btf_id) : NULL;
	const char *shortname = NULL;
	size_t len;

	if (n == 0)
		return;
	if (i >= p->nsubs) {
		buf[0] = '\0';
		return;
	}
	len = (size_t)snprintf(buf, n, "bpf_prog_");
	for (int k = 0; k < 8 && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%02x", p->subs[i].tag[k]);
	if (b != NULL && btf_type_name(b, 1) != NULL) {
		/* perf names sub-programs from BTF when it can read the blob. */
		if (p->has_func_info)
			shortname = btf_type_name(b, p->subs[i].btf_type_id);
		if (shortname == NULL)
			shortname = "F";
	} else if (i == 0 && p->nsubs == 1) {
		if (p->name[0] != '\0')
			shortname = p->name;
	} else {
		shortname = "F";
	}
	if (shortname != NULL && len < n)
		snprintf(buf + len, n - len, "_%s", shortname);
}