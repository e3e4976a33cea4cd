/*
 * fuzz_record.c: record and sample decoding with field descriptions (what
 * `perfnav dump` and `hex` show) over every record of a recording loaded
 * from memory (file, pipe or directory mode), decompressed records
 * included.  Checks what the decoders promise: the fields of a record
 * cover its bytes once each, in order; a decoded sample's arrays lie
 * inside the record.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

struct cover {
	const struct rec	*r;
	uint64_t		 next;		/* offset the next field must start at */
};

static void
field(void *arg, const struct field *f)
{
	struct cover *c = arg;

	if (f->off != c->next || f->len == 0 || f->name == NULL || f->value == NULL ||
	    strlen(f->name) >= FIELD_NAME_MAX || strlen(f->value) >= FIELD_VALUE_MAX ||
	    field_kind_name(f->kind) == NULL)
		abort();
	c->next = (uint64_t)f->off + f->len;
}

/* [p, p + len) lies inside the record (p NULL: nothing decoded there). */
static void
inside(const struct rec *r, const uint8_t *p, uint64_t len)
{
	if (p == NULL)
		return;
	if (p < r->p || p > r->p + r->size || len > (uint64_t)(r->p + r->size - p))
		abort();
}

static void
sample(const struct session *s, const struct rec *r)
{
	struct sample smp;
	const char *why;
	uint64_t sum = 0;

	if (record_decode_sample(session_attrs(s), r, &smp, &why) < 0) {
		if (why == NULL)
			abort();
		fuzz_use(strlen(why));
		return;
	}
	inside(r, smp.read, smp.read_len);
	inside(r, smp.callchain, 8 * smp.callchain_nr);
	inside(r, smp.raw, smp.raw_size);
	inside(r, smp.branch, 24 * smp.branch_nr);
	inside(r, smp.uregs, 8 * (uint64_t)__builtin_popcountll(smp.uregs_mask));
	inside(r, smp.iregs, 8 * (uint64_t)__builtin_popcountll(smp.iregs_mask));
	inside(r, smp.stack, smp.stack_size);
	inside(r, smp.aux, smp.aux_size);
	for (uint64_t i = 0; i < smp.callchain_nr; i++)
		sum += sample_callchain_ip(&smp, i);
	fuzz_use(sum);
}

static int
rec(void *arg, const struct rec *r, int depth)
{
	const struct session *s = arg;
	struct cover c = { r, 0 };
	char line[8192];
	struct sample_id sid;
	size_t n;

	(void)depth;
	fields_describe(s, r, field, &c);
	if (c.next != r->size)
		abort();	/* the fields do not cover the record */
	/* Without a session, samples stay undecoded but covered. */
	c.next = 0;
	fields_describe(NULL, r, field, &c);
	if (c.next != r->size)
		abort();
	n = fields_summary(s, r, line, sizeof line);
	if (n >= sizeof line || strlen(line) != n)
		abort();
	if (r->type == PF_REC_SAMPLE)
		sample(s, r);
	else if (record_decode_sample_id(session_attrs(s), r, &sid) == 0)
		fuzz_use(sid.time + sid.tid);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_opts o = { .no_index = true, .keep_going = true };
	struct session *s = fuzz_open(data, size, &o);

	if (s == NULL)
		return 0;
	session_walk(s, rec, s);
	session_close(s);
	return 0;
}
