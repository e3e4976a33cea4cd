#include "config.h"

#include <string.h>

#include "core/bytes.h"
#include "core/feature.h"
#include "core/fields_fmt.h"
#include "core/perf_file.h"
#include "core/record.h"

/*
 * Typed decoders of the records loading and the readers of tool and trace
 * records read (core/record.h): the perf tool's ATTR, EVENT_UPDATE,
 * ID_INDEX, BUILD_ID, FEATURE and STAT_CONFIG, and the kernel's SWITCH,
 * ITRACE_START and AUX.  Each names the fields by their layout, checks the
 * record holds them, and gives pointers into the record for its arrays.
 */

int
record_header_attr(const struct rec *r, struct rec_header_attr *h)
{
	const uint8_t *b = rec_body(r, PF_REC_ATTR, PF_ATTR_SIZE_VER0_MIN);
	uint32_t n, disk;

	if (b == NULL)
		return -1;
	n = r->size - 8;
	disk = rd32(b + 4, r->swap);
	if (disk == 0)
		disk = PF_ATTR_SIZE_VER0;
	if (disk > n)
		disk = n;
	h->attr = b;
	h->attr_size = disk;
	h->attr_loc = r->loc + 8;
	h->nids = (n - disk) / 8;
	h->ids = b + disk;
	h->swap = r->swap;
	return 0;
}

uint64_t
record_header_attr_id(const struct rec_header_attr *h, uint64_t i)
{
	return rd64(h->ids + 8 * i, h->swap);
}

int
record_event_update(const struct rec *r, struct rec_event_update *u)
{
	const uint8_t *b = rec_body(r, PF_REC_EVENT_UPDATE, 16);

	if (b == NULL)
		return -1;
	u->type = rd64(b, r->swap);
	u->id = rd64(b + 8, r->swap);
	u->data = b + 16;
	u->data_len = r->size - 8 - 16;
	return 0;
}

int
record_id_index(const struct rec *r, struct rec_id_index *x)
{
	const uint8_t *b = rec_body(r, PF_REC_ID_INDEX, 8);

	if (b == NULL)
		return -1;
	x->nr = rd64(b, r->swap);
	x->fits = x->nr <= (uint64_t)(r->size - 8 - 8) / REC_ID_INDEX_ENTRY;
	x->entries = b + 8;
	x->swap = r->swap;
	return 0;
}

void
record_id_index_entry(const struct rec_id_index *x, uint64_t i, uint64_t *id, uint64_t *idx)
{
	const uint8_t *e = x->entries + i * REC_ID_INDEX_ENTRY;

	*id = rd64(e, x->swap);
	*idx = rd64(e + 8, x->swap);
}

int
record_build_id(const struct rec *r, struct rec_build_id *bi)
{
	const uint8_t *b = rec_body(r, PF_REC_BUILD_ID, 4 + 24);

	if (b == NULL)
		return -1;
	bi->pid = (int32_t)rd32(b, r->swap);
	bi->id = b + 4;
	bi->id_len = 20;
	if ((r->misc & PF_MISC_BUILD_ID_SIZE) && b[4 + 20] <= 20)
		bi->id_len = b[4 + 20];
	bi->filename = (const char *)b + 28;
	bi->filename_max = r->size - 8 - 28;
	return 0;
}

int
record_feature(const struct rec *r, struct rec_feature *f)
{
	const uint8_t *b = rec_body(r, PF_REC_FEATURE, 8);

	if (b == NULL)
		return -1;
	f->bit = rd64(b, r->swap);
	f->data = b + 8;
	f->len = r->size - 16;
	f->data_loc = r->loc + 16;
	return 0;
}

int
record_stat_config(const struct rec *r, struct rec_stat_config *c)
{
	const uint8_t *b = rec_body(r, PF_REC_STAT_CONFIG, 8);
	uint64_t room;

	if (b == NULL)
		return -1;
	room = (r->size - 16) / 16;
	c->nr = rd64(b, r->swap);
	if (c->nr > room)
		c->nr = room;	/* the terms the record holds */
	c->terms = b + 8;
	c->swap = r->swap;
	return 0;
}

void
record_stat_config_term(const struct rec_stat_config *c, uint64_t i, uint64_t *tag, uint64_t *val)
{
	*tag = rd64(c->terms + 16 * i, c->swap);
	*val = rd64(c->terms + 16 * i + 8, c->swap);
}

int
record_switch(const struct rec *r, struct rec_switch *sw)
{
	if (r->type != PF_REC_SWITCH && r->type != PF_REC_SWITCH_CPU_WIDE)
		return -1;
	memset(sw, 0, sizeof *sw);
	sw->out = (r->misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
	sw->preempt = (r->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
	if (r->type == PF_REC_SWITCH_CPU_WIDE) {
		if (r->size < 16)
			return -1;
		sw->cpu_wide = true;
		sw->other_pid = (int32_t)rd32(r->p + 8, r->swap);
		sw->other_tid = (int32_t)rd32(r->p + 12, r->swap);
	}
	return 0;
}

int
record_itrace_start(const struct rec *r, struct rec_itrace_start *it)
{
	const uint8_t *b = rec_body(r, PF_REC_ITRACE_START, 8);

	if (b == NULL)
		return -1;
	it->pid = (int32_t)rd32(b, r->swap);
	it->tid = (int32_t)rd32(b + 4, r->swap);
	return 0;
}

int
record_aux(const struct rec *r, struct rec_aux *a)
{
	const uint8_t *b = rec_body(r, PF_REC_AUX, 24);

	if (b == NULL)
		return -1;
	a->offset = rd64(b, r->swap);
	a->size = rd64(b + 8, r->swap);
	a->flags = rd64(b + 16, r->swap);
	return 0;
}
