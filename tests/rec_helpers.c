/* Helpers shared by the tests of core/record.c and core/fields.c. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tests/rec_helpers.h"

/* ---- a session with an attr table and nothing else ---- */

void
sess_init(struct session *s, const struct perf_event_attr *a, size_t n)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < n; i++) {
		uint32_t idx = attr_table_add(&s->attrs, &a[i], sizeof a[i], 0);

		attr_table_add_id(&s->attrs, idx, 100 + i);
		attr_table_add_id(&s->attrs, idx, 200 + i);
	}
	attr_table_finish(&s->attrs);
}

void
sess_free(struct session *s)
{
	attr_table_free(&s->attrs);
}

struct rec
mkrec(const struct pdbuf *b, size_t start)
{
	struct rec r;

	r.p = b->p + start;
	r.swap = b->swap;
	r.type = rd32(r.p, r.swap);
	r.misc = rd16(r.p + 4, r.swap);
	r.size = rd16(r.p + 6, r.swap);
	r.loc = start;
	return r;
}

/* ---- collecting fields ---- */

struct fcol col;

static void
collect(void *arg, const struct field *f)
{
	struct fcol *c = arg;

	cr_assert_lt(c->n, sizeof c->v / sizeof c->v[0]);
	c->v[c->n].off = f->off;
	c->v[c->n].len = f->len;
	c->v[c->n].kind = f->kind;
	snprintf(c->v[c->n].name, sizeof c->v[c->n].name, "%s", f->name);
	snprintf(c->v[c->n].value, sizeof c->v[c->n].value, "%s", f->value);
	c->v[c->n].num = f->num;
	c->n++;
}

/* Describe r; assert its fields cover every byte exactly once, in order.
 * Returns fields_describe's result. */
int
describe(const struct session *s, const struct rec *r)
{
	int rc;
	uint32_t next = 0;

	col.n = 0;
	rc = fields_describe(s, r, collect, &col);
	for (size_t i = 0; i < col.n; i++) {
		cr_assert_eq(col.v[i].off, next, "type %u: field %s at %u, expected %u", r->type,
		    col.v[i].name, col.v[i].off, next);
		cr_assert_gt(col.v[i].len, 0, "field %s is empty", col.v[i].name);
		cr_assert_not_null(col.v[i].value);
		next = col.v[i].off + col.v[i].len;
	}
	cr_assert_eq(next, r->size, "type %u: fields end at %u, record is %u bytes", r->type,
	    next, r->size);
	return rc;
}

int
field_idx(const char *name)
{
	for (size_t i = 0; i < col.n; i++)
		if (strcmp(col.v[i].name, name) == 0)
			return (int)i;
	return -1;
}

uint64_t
field_num(const char *name)
{
	int i = field_idx(name);

	cr_assert_geq(i, 0, "no field %s", name);
	return col.v[i].num;
}

bool
any_bad(void)
{
	for (size_t i = 0; i < col.n; i++)
		if (col.v[i].kind == FIELD_BAD)
			return true;
	return false;
}

void
base_attr(struct perf_event_attr *a, uint64_t st)
{
	memset(a, 0, sizeof *a);
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof *a;
	a->sample_type = st;
	a->sample_id_all = 1;
	a->sample_regs_user = 0x7;	/* AX BX CX */
	a->sample_regs_intr = 0x101;	/* AX IP */
}

void
write_trailer(struct pdbuf *b, uint64_t st, uint64_t id)
{
	if (st & PERF_SAMPLE_TID) {
		pd_u32(b, 11);
		pd_u32(b, 12);
	}
	if (st & PERF_SAMPLE_TIME)
		pd_u64(b, 13);
	if (st & PERF_SAMPLE_ID)
		pd_u64(b, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		pd_u64(b, 14);
	if (st & PERF_SAMPLE_CPU) {
		pd_u32(b, 3);
		pd_u32(b, 0);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		pd_u64(b, id);
}

size_t
write_comm(struct pdbuf *b, uint64_t st, uint64_t id, bool trailer)
{
	size_t r = pd_rec_begin(b, PF_REC_COMM, PERF_RECORD_MISC_COMM_EXEC);

	pd_u32(b, 1234);
	pd_u32(b, 1235);
	pd_str8(b, "d_matmul");
	if (trailer)
		write_trailer(b, st, id);
	pd_rec_end(b, r);
	return r;
}
