#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/fields_fmt.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"
#include "core/session_int.h"

/*
 * The kernel's record types: their half of the record table (at the end),
 * each type's describer and summary, and the typed decoders of the bodies
 * others read.
 */

static const char *const ns_names[] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup", "time",
};

/* ---- describers ---- */
static void
f_prot_flags(struct fctx *d)
{
	char note[64];
	uint64_t v;

	if (!room(d, 8, "mmap2 prot/flags"))
		return;
	v = peek(d, 4);
	snprintf(note, sizeof note, "%c%c%c", v & 1 ? 'r' : '-', v & 2 ? 'w' : '-',
	    v & 4 ? 'x' : '-');
	fint_note(d, 4, I_HEX, "prot", NULL, note);
	v = peek(d, 4);
	fint_note(d, 4, I_HEX, "flags", NULL, (v & 1) ? "shared" : (v & 2) ? "private" : NULL);
}

static void
desc_mmap(struct fctx *d)
{
	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
	X64(d, "addr", NULL);
	X64(d, "len", NULL);
	X64(d, "pgoff", NULL);
	fstr(d, "filename", 0);
}

static void
desc_mmap2(struct fctx *d)
{
	const struct rec *r = d->r;

	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
	X64(d, "addr", NULL);
	X64(d, "len", NULL);
	X64(d, "pgoff", NULL);
	if (!room(d, 24, "mmap2 too short"))
		return;
	if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		struct sbuf b;
		unsigned bl = d->p[d->pos] <= 20 ? d->p[d->pos] : 20;

		U8(d, "build_id_size", NULL);
		fbytes(d, "__reserved_1", 1, FIELD_PAD, NULL);
		fbytes(d, "__reserved_2", 2, FIELD_PAD, NULL);
		sb_init(&b, d->val, sizeof d->val);
		sb_hex(&b, d->p + d->pos, bl, 20);
		emit(d, 20, FIELD_BYTES, 0, "build_id", d->val);
	} else {
		fint(d, 4, I_HEX, "maj", NULL);
		fint(d, 4, I_HEX, "min", NULL);
		U64(d, "ino", NULL);
		U64(d, "ino_generation", NULL);
	}
	f_prot_flags(d);
	fstr(d, "filename", 0);
}

static void
desc_lost(struct fctx *d)
{
	U64(d, "id", NULL);
	U64(d, "lost", NULL);
}

static void
desc_comm(struct fctx *d)
{
	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
	fstr(d, "comm", 0);
}

static void
desc_task(struct fctx *d)
{
	S32(d, "pid", NULL);
	S32(d, "ppid", NULL);
	S32(d, "tid", NULL);
	S32(d, "ptid", NULL);
	U64(d, "time", NULL);
}

static void
desc_throttle(struct fctx *d)
{
	U64(d, "time", NULL);
	U64(d, "id", NULL);
	U64(d, "stream_id", NULL);
}

static void
desc_read(struct fctx *d)
{
	const struct rec *r = d->r;
	const struct pn_attr *pa = fields_layout(d->s, r);

	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
	if (pa)
		fields_read_describe(d, pa->attr.read_format, "values");
}

static void
desc_aux(struct fctx *d)
{
	uint64_t v;
	char note[96];

	X64(d, "aux_offset", NULL);
	X64(d, "aux_size", NULL);
	if (room(d, 8, "aux flags")) {
		v = peek(d, 8);
		snprintf(note, sizeof note, "%s%s%s%spmu_format %u",
		    v & 1 ? "truncated " : "", v & 2 ? "overwrite " : "",
		    v & 4 ? "partial " : "", v & 8 ? "collision " : "",
		    (unsigned)((v >> 8) & 0xff));
		fint_note(d, 8, I_HEX, "flags", NULL, note);
	}
}

static void
desc_itrace_start(struct fctx *d)
{
	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
}

static void
desc_lost_samples(struct fctx *d)
{
	U64(d, "lost", NULL);
}

static void
desc_switch_cpu_wide(struct fctx *d)
{
	S32(d, "next_prev_pid", NULL);
	S32(d, "next_prev_tid", NULL);
}

static void
desc_namespaces(struct fctx *d)
{
	uint64_t nr;

	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
	if (!U64(d, "nr_namespaces", &nr))
		return;
	if (!room_n(d, nr, 16, "namespaces run past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		const char *ns = i < sizeof ns_names / sizeof ns_names[0] ? ns_names[i] : "?";

		X64(d, nm(d, "link_info[%" PRIu64 "/%s].dev", i, ns), NULL);
		X64(d, nm(d, "link_info[%" PRIu64 "/%s].ino", i, ns), NULL);
	}
}

static void
desc_ksymbol(struct fctx *d)
{
	uint64_t v;

	X64(d, "addr", NULL);
	U32(d, "len", NULL);
	if (room(d, 2, "ksym_type")) {
		v = peek(d, 2);
		fint_note(d, 2, I_DEC, "ksym_type", NULL,
		    v == 1 ? "bpf" : v == 2 ? "ool" : v == 0 ? "unknown" : NULL);
	}
	fint(d, 2, I_HEX, "flags", NULL);
	fstr(d, "name", 0);
}

static void
desc_bpf_event(struct fctx *d)
{
	uint64_t v;

	if (room(d, 2, "bpf type")) {
		v = peek(d, 2);
		fint_note(d, 2, I_DEC, "type", NULL,
		    v == 1 ? "prog_load" : v == 2 ? "prog_unload" : NULL);
	}
	fint(d, 2, I_HEX, "flags", NULL);
	U32(d, "id", NULL);
	if (room(d, 8, "bpf tag")) {
		struct sbuf b;

		sb_init(&b, d->val, sizeof d->val);
		sb_hex(&b, d->p + d->pos, 8, 8);
		emit(d, 8, FIELD_BYTES, 0, "tag", d->val);
	}
}

static void
desc_cgroup(struct fctx *d)
{
	U64(d, "id", NULL);
	fstr(d, "path", 0);
}

static void
desc_text_poke(struct fctx *d)
{
	uint64_t ol, nl;

	X64(d, "addr", NULL);
	if (!U16(d, "old_len", &ol) || !U16(d, "new_len", &nl))
		return;
	if (!room(d, ol + nl, "text_poke bytes run past the record"))
		return;
	fbytes(d, "old_bytes", ol, FIELD_BYTES, NULL);
	fbytes(d, "new_bytes", nl, FIELD_BYTES, NULL);
	fbytes(d, "pad", left(d), FIELD_PAD, NULL);
}

static void
desc_aux_output_hw_id(struct fctx *d)
{
	X64(d, "hw_id", NULL);
}

static void
desc_callchain_deferred(struct fctx *d)
{
	uint64_t nr;

	X64(d, "cookie", NULL);
	if (!U64(d, "nr", &nr) || !room_n(d, nr, 8, "callchain runs past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++)
		X64(d, nm(d, "ips[%" PRIu64 "]", i), NULL);
}

/* ---- summaries ---- */

static void
sum_read_value(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	int a = s ? record_attr(session_attrs(s), r) : -1;
	uint64_t rf = 0;

	if (s != NULL && a < 0 && s->attrs.n)
		rf = s->attrs.v[0].attr.read_format;
	else if (a >= 0)
		rf = s->attrs.v[a].attr.read_format;
	sb_printf(sb, ": %d %d ", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
	sb_name(sb, s ? session_attr_name(s, a) : "?");
	if (rf & PERF_FORMAT_GROUP)
		sb_printf(sb, " group of %" PRIu64, b64(b, 16));
	else
		sb_printf(sb, " %" PRIu64, b64(b, 16));
}

static void
sum_mmap(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t m = r->misc;

	sb_printf(sb, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c ",
	    (int32_t)b32(b, 8), (int32_t)b32(b, 12), b64(b, 16), b64(b, 24), b64(b, 32),
	    (m & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x');
	bstr(sb, b, 40);
}

static void
sum_mmap2(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t m = r->misc;
	uint32_t prot = b32(b, 64), flags = b32(b, 68);

	sb_printf(sb, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ",
	    (int32_t)b32(b, 8), (int32_t)b32(b, 12), b64(b, 16), b64(b, 24), b64(b, 32));
	if (m & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		unsigned bl = b->n > 40 ? b->p[40] : 0;

		if (bl > 20)
			bl = 20;
		sb_printf(sb, "<");
		if (b->n >= 64)
			sb_hex(sb, b->p + 44, bl, 20);
		sb_printf(sb, ">");
	} else {
		uint32_t maj = b32(b, 40), min = b32(b, 44);

		sb_printf(sb, "%02x:%02x %" PRIu64 " %" PRIu64, maj, min, b64(b, 48),
		    b64(b, 56));
	}
	sb_printf(sb, "]: %c%c%c%c ", prot & 1 ? 'r' : '-', prot & 2 ? 'w' : '-',
	    prot & 4 ? 'x' : '-', flags & 1 ? 's' : 'p');
	bstr(sb, b, 72);
}

static void
sum_lost(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, ": id:%" PRIu64 ": lost:%" PRIu64, b64(b, 8), b64(b, 16));
}

static void
sum_comm(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t m = r->misc;

	sb_printf(sb, "%s: ", (m & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "");
	bstr(sb, b, 16);
	sb_printf(sb, ":%d/%d", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
}

static void
sum_task(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, "(%d:%d):(%d:%d)", (int32_t)b32(b, 8), (int32_t)b32(b, 16),
	    (int32_t)b32(b, 12), (int32_t)b32(b, 20));
}

static void
sum_throttle(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, ": time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64, b64(b, 8),
	    b64(b, 16), b64(b, 24));
}

static void
sum_read(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sum_read_value(s, r, b, sb);
}

static void
sum_aux(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t fl = b64(b, 24);

	sb_printf(sb, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s%s]",
	    b64(b, 8), b64(b, 16), fl, fl & 1 ? "T" : "", fl & 2 ? "O" : "",
	    fl & 4 ? "P" : "", fl & 8 ? "C" : "");
}

static void
sum_itrace_start(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " pid: %d tid: %d", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
}

static void
sum_lost_samples(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, ": lost samples: %" PRIu64, b64(b, 8));
}

static void
sum_switch(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t m = r->misc;

	sb_printf(sb, " %s", (m & PERF_RECORD_MISC_SWITCH_OUT) ?
	    ((m & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" : "OUT") : "IN");
}

static void
sum_switch_cpu_wide(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t m = r->misc;
	bool out = m & PERF_RECORD_MISC_SWITCH_OUT;

	sb_printf(sb, " %s%s %s pid/tid: %d/%d", out ? "OUT" : "IN",
	    out && (m & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? " preempt" : "",
	    out ? "next" : "prev", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
}

static void
sum_namespaces(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t nr = b64(b, 16);

	sb_printf(sb, " %d/%d - nr_namespaces: %" PRIu64, (int32_t)b32(b, 8),
	    (int32_t)b32(b, 12), nr);
	if (b->bad || nr > (b->n - 24) / 16)
		return;
	sb_printf(sb, " [");
	for (uint64_t i = 0; i < nr; i++)
		sb_printf(sb, "%s%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64, i ? ", " : "", i,
		    i < 8 ? ns_names[i] : "?", b64(b, 24 + 16 * (uint32_t)i),
		    b64(b, 32 + 16 * (uint32_t)i));
	sb_printf(sb, "]");
}

static void
sum_ksymbol(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " addr %" PRIx64 " len %u type %u flags %#x name ", b64(b, 8),
	    b32(b, 16), b16(b, 20), b16(b, 22));
	bstr(sb, b, 24);
}

static void
sum_bpf_event(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " type %u, flags %u, id %u", b16(b, 8), b16(b, 10), b32(b, 12));
}

static void
sum_cgroup(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " cgroup: %" PRIu64 " ", b64(b, 8));
	bstr(sb, b, 16);
}

static void
sum_text_poke(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " %#" PRIx64 " old len %u new len %u", b64(b, 8), b16(b, 16),
	    b16(b, 18));
}

static void
sum_aux_output_hw_id(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " hw_id: %#" PRIx64, b64(b, 8));
}

static void
sum_callchain_deferred(const struct session *s, const struct rec *r, struct body *b,
    struct sbuf *sb)
{
	struct sample_id sid;
	int32_t pid = -1, tid = -1;

	/* perf's sample line: who from the sample_id trailer, then the cookie */
	if (s != NULL && record_decode_sample_id(session_attrs(s), r, &sid) == 0 && (sid.have & PERF_SAMPLE_TID)) {
		pid = (int32_t)sid.pid;
		tid = (int32_t)sid.tid;
	}
	sb_printf(sb, "(IP, %#x): %d/%d: %#" PRIx64 " nr: %" PRIu64, r->misc, pid, tid, b64(b, 8),
	    b64(b, 16));
}

/* ---- typed decoders ---- */

int
record_callchain_deferred(const struct rec *r, struct rec_deferred *d)
{
	const uint8_t *b = rec_body(r, PF_REC_CALLCHAIN_DEFERRED, 16);

	if (b == NULL)
		return -1;
	d->cookie = rd64(b, r->swap);
	d->nr = rd64(b + 8, r->swap);
	d->ips = b + 16;
	d->swap = r->swap;
	return d->nr <= (r->size - 24) / 8 ? 0 : -1;
}

int
record_mmap(const struct rec *r, struct rec_mmap *m)
{
	bool two = r->type == PF_REC_MMAP2;
	const uint8_t *b = rec_body(r, two ? PF_REC_MMAP2 : PF_REC_MMAP, two ? 64 : 32);
	size_t fo = two ? 64 : 32;

	if (b == NULL)
		return -1;
	memset(m, 0, sizeof *m);
	m->pid = (int32_t)rd32(b, r->swap);
	m->tid = (int32_t)rd32(b + 4, r->swap);
	m->addr = rd64(b + 8, r->swap);
	m->len = rd64(b + 16, r->swap);
	m->pgoff = rd64(b + 24, r->swap);
	m->mmap2 = two;
	if (two && (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m->has_build_id = true;
		m->build_id_size = b[32];
		m->build_id = b + 36;
	} else if (two) {
		m->maj = rd32(b + 32, r->swap);
		m->min = rd32(b + 36, r->swap);
		m->ino = rd64(b + 40, r->swap);
		m->ino_generation = rd64(b + 48, r->swap);
	}
	if (two) {
		m->prot = rd32(b + 56, r->swap);
		m->flags = rd32(b + 60, r->swap);
	}
	m->filename = (const char *)b + fo;
	m->filename_max = r->size - 8 - fo;
	return 0;
}

int
record_comm(const struct rec *r, struct rec_comm *c)
{
	const uint8_t *b = rec_body(r, PF_REC_COMM, 8);

	if (b == NULL)
		return -1;
	c->pid = (int32_t)rd32(b, r->swap);
	c->tid = (int32_t)rd32(b + 4, r->swap);
	c->exec = (r->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
	c->comm = (const char *)b + 8;
	c->comm_max = r->size - 16;
	return 0;
}

int
record_task(const struct rec *r, struct rec_task *t)
{
	const uint8_t *b = rec_body(r, r->type == PF_REC_EXIT ? PF_REC_EXIT :
	    PF_REC_FORK, 24);

	if (b == NULL)
		return -1;
	t->pid = (int32_t)rd32(b, r->swap);
	t->ppid = (int32_t)rd32(b + 4, r->swap);
	t->tid = (int32_t)rd32(b + 8, r->swap);
	t->ptid = (int32_t)rd32(b + 12, r->swap);
	t->time = rd64(b + 16, r->swap);
	return 0;
}

int
record_lost(const struct rec *r, struct rec_lost *l)
{
	const uint8_t *b;

	if ((b = rec_body(r, PF_REC_LOST, 16)) != NULL) {
		l->id = rd64(b, r->swap);
		l->lost = rd64(b + 8, r->swap);
		return 0;
	}
	if ((b = rec_body(r, PF_REC_LOST_SAMPLES, 8)) != NULL) {
		l->id = 0;
		l->lost = rd64(b, r->swap);
		return 0;
	}
	return -1;
}

/* ---- the kernel's half of the record table ---- */

#define WHO(T, min, tid, time, who_min, f, s) REC_TYPE_WHO(T, min, 0, tid, time, who_min, f, s)

const struct rec_type rec_kernel_types[PF_REC_USER_TYPE_START] = {
	WHO(MMAP, 32, 4, -1, 8, desc_mmap, sum_mmap),
	REC_TYPE(LOST, 16, desc_lost, sum_lost),
	WHO(COMM, 8, 4, -1, 8, desc_comm, sum_comm),
	WHO(EXIT, 24, 8, 16, 24, desc_task, sum_task),
	REC_TYPE(THROTTLE, 24, desc_throttle, sum_throttle),
	REC_TYPE(UNTHROTTLE, 24, desc_throttle, sum_throttle),
	WHO(FORK, 24, 8, 16, 24, desc_task, sum_task),
	WHO(READ, 16, 4, -1, 8, desc_read, sum_read),
	REC_TYPE(SAMPLE, 0, fields_sample_describe, fields_sample_summary),
	WHO(MMAP2, 64, 4, -1, 8, desc_mmap2, sum_mmap2),
	REC_TYPE(AUX, 24, desc_aux, sum_aux),
	REC_TYPE(ITRACE_START, 8, desc_itrace_start, sum_itrace_start),
	REC_TYPE(LOST_SAMPLES, 8, desc_lost_samples, sum_lost_samples),
	REC_TYPE(SWITCH, 0, NULL, sum_switch),
	REC_TYPE(SWITCH_CPU_WIDE, 8, desc_switch_cpu_wide, sum_switch_cpu_wide),
	WHO(NAMESPACES, 16, 4, -1, 8, desc_namespaces, sum_namespaces),
	REC_TYPE(KSYMBOL, 16, desc_ksymbol, sum_ksymbol),
	REC_TYPE(BPF_EVENT, 16, desc_bpf_event, sum_bpf_event),
	REC_TYPE(CGROUP, 8, desc_cgroup, sum_cgroup),
	REC_TYPE(TEXT_POKE, 12, desc_text_poke, sum_text_poke),
	REC_TYPE(AUX_OUTPUT_HW_ID, 8, desc_aux_output_hw_id, sum_aux_output_hw_id),
	REC_TYPE(CALLCHAIN_DEFERRED, 16, desc_callchain_deferred, sum_callchain_deferred),
};
