#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/fields.h"
#include "core/fields_fmt.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"
#include "core/session_int.h"

/*
 * The entry points of the field describer and the one-line summaries: the
 * header and the sample_id_all trailer here, each record type's body by
 * its entry in the record table (core/record.h, struct rec_type).
 */

static const char *const kind_names[] = {
#define X(n, s) s,
	FIELD_KINDS(X)
#undef X
};

const char *
field_kind_name(enum field_kind k)
{
	if ((unsigned)k >= sizeof kind_names / sizeof kind_names[0])
		return "?";
	return kind_names[k];
}

const struct pn_attr *
fields_layout(const struct session *s, const struct rec *r)
{
	int a;

	if (s == NULL)
		return NULL;
	return record_layout(session_attrs(s), r, &a);
}

static void
f_header(struct fctx *d)
{
	const struct rec *r = d->r;
	const char *tn = record_type_name(r->type);
	struct sbuf b;
	char note[160];
	unsigned cm = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	static const char *const modes[8] = {
		"unknown mode", "kernel", "user", "hypervisor", "guest kernel", "guest user",
		"mode 6", "mode 7",
	};

	snprintf(d->val, sizeof d->val, "%u (%s)", r->type, tn ? tn : "unknown type");
	emit(d, 4, FIELD_HEADER, r->type, "header.type", d->val);
	sb_init(&b, note, sizeof note);
	if (r->type == PF_REC_SAMPLE || (r->type < PF_REC_USER_TYPE_START && cm))
		sb_printf(&b, "%s", modes[cm]);
	if (r->misc & (1u << 12))
		sb_printf(&b, "%sproc_map_parse_timeout", b.len ? ", " : "");
	if (r->misc & (1u << 13)) {
		const char *s13 = r->type == PF_REC_COMM ? "comm_exec" :
		    r->type == PF_REC_FORK ? "fork_exec" :
		    r->type == PF_REC_SWITCH || r->type == PF_REC_SWITCH_CPU_WIDE ?
		    "switch_out" : r->type == PF_REC_MMAP || r->type == PF_REC_MMAP2 ?
		    "mmap_data" : "bit13";
		sb_printf(&b, "%s%s", b.len ? ", " : "", s13);
	}
	if (r->misc & (1u << 14)) {
		const char *s14 = r->type == PF_REC_SAMPLE ? "exact_ip" :
		    r->type == PF_REC_SWITCH || r->type == PF_REC_SWITCH_CPU_WIDE ?
		    "switch_out_preempt" : r->type == PF_REC_MMAP2 ? "mmap_build_id" : "bit14";
		sb_printf(&b, "%s%s", b.len ? ", " : "", s14);
	}
	if (r->misc & (1u << 15))
		sb_printf(&b, "%s%s", b.len ? ", " : "",
		    r->type == PF_REC_BUILD_ID ? "build_id_size" : "ext_reserved");
	if (room(d, 2, "header")) {
		sb_init(&b, d->val, sizeof d->val);
		sb_printf(&b, "%#x", r->misc);
		if (note[0])
			sb_printf(&b, " (%s)", note);
		emit(d, 2, FIELD_HEADER, r->misc, "header.misc", d->val);
	}
	if (room(d, 2, "header")) {
		snprintf(d->val, sizeof d->val, "%u", (unsigned)peek(d, 2));
		emit(d, 2, FIELD_HEADER, peek(d, 2), "header.size", d->val);
	}
}

static void
f_trailer(struct fctx *d, const struct sample_id *sid)
{
	uint32_t h = sid->have;

	if (h & PERF_SAMPLE_TID) {
		S32(d, "sample_id.pid", NULL);
		S32(d, "sample_id.tid", NULL);
	}
	if (h & PERF_SAMPLE_TIME)
		U64(d, "sample_id.time", NULL);
	if (h & PERF_SAMPLE_ID)
		U64(d, "sample_id.id", NULL);
	if (h & PERF_SAMPLE_STREAM_ID)
		U64(d, "sample_id.stream_id", NULL);
	if (h & PERF_SAMPLE_CPU) {
		U32(d, "sample_id.cpu", NULL);
		U32(d, "sample_id.res", NULL);
	}
	if (h & PERF_SAMPLE_IDENTIFIER)
		U64(d, "sample_id.identifier", NULL);
}

int
fields_describe(const struct session *s, const struct rec *r, field_fn fn, void *arg)
{
	const struct rec_type *t = record_type(r->type);
	struct fctx d;
	struct sample_id sid;
	bool trailer = false;
	uint32_t size = r->size;

	memset(&d, 0, sizeof d);
	d.s = s;
	d.r = r;
	d.fn = fn;
	d.arg = arg;
	d.p = r->p;
	d.swap = r->swap;
	d.end = size;
	if (size < 8) {
		/* Not even a header: one bad field. */
		d.end = size;
		fbytes(&d, "header", size, FIELD_BAD, "record smaller than its header");
		return -1;
	}
	if (s != NULL && r->type != PF_REC_SAMPLE && r->type < PF_REC_USER_TYPE_START &&
	    record_decode_sample_id(session_attrs(s), r, &sid) == 0) {
		trailer = true;
		d.end = size - attr_trailer_size(sid.have);
	}
	f_header(&d);
	if (t != NULL && t->fields != NULL)
		t->fields(&d);
	if (d.pos < d.end) {
		if (t == NULL)
			fbytes(&d, "payload", left(&d), FIELD_BYTES, NULL);
		else if (d.damaged)
			fbytes(&d, "unparsed", left(&d), FIELD_BAD, d.why);
		else
			fbytes(&d, "extra", left(&d), FIELD_BYTES, "not in the known layout");
	}
	if (trailer) {
		/* The trailer was checked apart: decode it even after body damage. */
		bool body_damaged = d.damaged;

		d.damaged = false;
		d.end = size;
		f_trailer(&d, &sid);
		d.damaged = d.damaged || body_damaged;
	}
	return d.damaged ? -1 : 0;
}

size_t
fields_summary(const struct session *s, const struct rec *r, char *buf, size_t n)
{
	const struct rec_type *t = record_type(r->type);
	struct sample_id sid;
	struct sbuf sb;
	struct body b;
	char name[64], *at, *e;

	sb_init(&sb, buf, n);
	if (t == NULL) {
		sb_printf(&sb, "PERF_RECORD_UNKNOWN%u misc %#x, %u payload bytes", r->type, r->misc,
		    r->size >= 8 ? r->size - 8 : 0);
		return sb.len;
	}
	/* "PERF_RECORD_%s" as one piece, without a format (dump: every record) */
	if (strlen(t->name) < sizeof name - 12) {
		at = piece_at(&sb, name, sizeof name - 1);
		e = put_lit(at, "PERF_RECORD_");
		for (size_t i = 0; t->name[i] != '\0'; i++)
			*e++ = t->name[i];
		piece_end(&sb, name, at, e);
	} else {
		sb_printf(&sb, "PERF_RECORD_%s", t->name);
	}
	b.p = r->p;
	b.n = r->size;
	b.swap = r->swap;
	b.bad = false;
	if (s != NULL && r->type < PF_REC_USER_TYPE_START &&
	    record_decode_sample_id(session_attrs(s), r, &sid) == 0)
		b.n = r->size - attr_trailer_size(sid.have);	/* keep string reads in the body */
	if (t->summary != NULL)
		t->summary(s, r, &b, &sb);
	if (b.bad)
		sb_printf(&sb, " (damaged: record too short)");
	return sb.len;
}
