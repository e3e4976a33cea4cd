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
#include "core/sample_walk.h"
#include "core/session.h"
#include "core/session_int.h"

/*
 * The SAMPLE entry of the record table: its fields as the sample walk
 * (core/record.c) meets them, named here, and its one-line summary.
 */

static const char *
reg_name(const struct session *s, unsigned bit, char *tmp, size_t n)
{
	static const char *const x86[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const arm[] = {
		"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp",
		"ip", "sp", "lr", "pc",
	};
	const char *arch = s ? s->feat.arch : NULL;

	if (arch == NULL || strcmp(arch, "x86_64") == 0 || strcmp(arch, "x86") == 0 ||
	    (arch[0] == 'i' && strstr(arch, "86") != NULL)) {
		if (bit < 24)
			return x86[bit];
		if (bit >= 32 && bit < 64) {
			snprintf(tmp, n, "XMM%u%s", (bit - 32) / 2, bit & 1 ? ".hi" : "");
			return tmp;
		}
	} else if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm64") == 0) {
		if (bit < 29) {
			snprintf(tmp, n, "x%u", bit);
			return tmp;
		}
		if (bit <= 32)
			return (const char *[]){ "x29", "lr", "sp", "pc" }[bit - 29];
	} else if (strncmp(arch, "arm", 3) == 0) {
		if (bit < 16)
			return arm[bit];
	}
	snprintf(tmp, n, "r%u", bit);
	return tmp;
}

static const char *
callchain_context(uint64_t v)
{
	switch (v) {
	case (uint64_t)-32:
		return "PERF_CONTEXT_HV";
	case (uint64_t)-128:
		return "PERF_CONTEXT_KERNEL";
	case (uint64_t)-512:
		return "PERF_CONTEXT_USER";
	case (uint64_t)-2048:
		return "PERF_CONTEXT_GUEST";
	case (uint64_t)-2176:
		return "PERF_CONTEXT_GUEST_KERNEL";
	case (uint64_t)-2560:
		return "PERF_CONTEXT_GUEST_USER";
	case PF_CONTEXT_USER_DEFERRED:
		return "PERF_CONTEXT_USER_DEFERRED (the cookie follows)";
	default:
		return NULL;
	}
}

/* What a describing walk writes into. */
struct sdesc {
	struct fctx	*d;
	const char	*pfx;	/* of read_format values: "read", "values" */
};

/* Integer fields: how each is shown (the others are bytes or padding). */
static const uint8_t sf_fmt[SF_N] = {
	[SF_IP] = I_HEX, [SF_PID] = I_SDEC, [SF_TID] = I_SDEC, [SF_ADDR] = I_HEX,
	[SF_CALLCHAIN] = I_HEX, [SF_BRANCH_HW_IDX] = I_SDEC, [SF_BRANCH_FROM] = I_HEX,
	[SF_BRANCH_TO] = I_HEX, [SF_BRANCH_FLAGS] = I_HEX, [SF_BRANCH_COUNTERS] = I_HEX,
	[SF_UREGS] = I_HEX, [SF_IREGS] = I_HEX, [SF_DATA_SRC] = I_HEX,
	[SF_TRANSACTION] = I_HEX, [SF_PHYS_ADDR] = I_HEX,
};

/* The name of field id (entry or register i). */
static const char *
sf_name(struct sdesc *sd, enum sample_field_id id, uint64_t i)
{
	static const char *const fixed[SF_N] = {
		[SF_IDENTIFIER] = "identifier", [SF_IP] = "ip", [SF_PID] = "pid", [SF_TID] = "tid",
		[SF_TIME] = "time", [SF_ADDR] = "addr", [SF_ID] = "id", [SF_STREAM_ID] = "stream_id",
		[SF_CPU] = "cpu", [SF_RES] = "res", [SF_PERIOD] = "period",
		[SF_CALLCHAIN_NR] = "callchain.nr", [SF_RAW_SIZE] = "raw.size",
		[SF_RAW_DATA] = "raw.data", [SF_RAW_PAD] = "raw.pad", [SF_BRANCH_NR] = "branch.nr",
		[SF_BRANCH_HW_IDX] = "branch.hw_idx", [SF_UREGS_ABI] = "regs_user.abi",
		[SF_STACK_SIZE] = "stack_user.size", [SF_STACK_DATA] = "stack_user.data",
		[SF_STACK_DYN_SIZE] = "stack_user.dyn_size", [SF_WEIGHT] = "weight",
		[SF_WEIGHT_VAR1] = "weight.var1_dw", [SF_WEIGHT_VAR2] = "weight.var2_w",
		[SF_WEIGHT_VAR3] = "weight.var3_w", [SF_DATA_SRC] = "data_src",
		[SF_TRANSACTION] = "transaction", [SF_IREGS_ABI] = "regs_intr.abi",
		[SF_PHYS_ADDR] = "phys_addr", [SF_CGROUP] = "cgroup",
		[SF_DATA_PAGE_SIZE] = "data_page_size", [SF_CODE_PAGE_SIZE] = "code_page_size",
		[SF_AUX_SIZE] = "aux.size", [SF_AUX_DATA] = "aux.data",
	};
	struct fctx *d = sd->d;
	char tmp[16];

	switch (id) {
	case SF_READ_NR:
		return nm(d, "%s.nr", sd->pfx);
	case SF_READ_VALUE:
		return nm(d, "%s.value", sd->pfx);
	case SF_READ_TIME_ENABLED:
		return nm(d, "%s.time_enabled", sd->pfx);
	case SF_READ_TIME_RUNNING:
		return nm(d, "%s.time_running", sd->pfx);
	case SF_READ_ID:
		return nm(d, "%s.id", sd->pfx);
	case SF_READ_LOST:
		return nm(d, "%s.lost", sd->pfx);
	case SF_READ_GROUP_VALUE:
		return nm(d, "%s.values[%" PRIu64 "].value", sd->pfx, i);
	case SF_READ_GROUP_ID:
		return nm(d, "%s.values[%" PRIu64 "].id", sd->pfx, i);
	case SF_READ_GROUP_LOST:
		return nm(d, "%s.values[%" PRIu64 "].lost", sd->pfx, i);
	case SF_CALLCHAIN:
		return nm(d, "callchain[%" PRIu64 "]", i);
	case SF_BRANCH_FROM:
		return nm(d, "branch[%" PRIu64 "].from", i);
	case SF_BRANCH_TO:
		return nm(d, "branch[%" PRIu64 "].to", i);
	case SF_BRANCH_FLAGS:
		return nm(d, "branch[%" PRIu64 "].flags", i);
	case SF_BRANCH_COUNTERS:
		return nm(d, "branch.counters[%" PRIu64 "]", i);
	case SF_UREGS:
		return nm(d, "regs_user[%s]", reg_name(d->s, (unsigned)i, tmp, sizeof tmp));
	case SF_IREGS:
		return nm(d, "regs_intr[%s]", reg_name(d->s, (unsigned)i, tmp, sizeof tmp));
	default:
		return fixed[id];
	}
}

/* The note after an integer field's value, or NULL. */
static const char *
sf_note(enum sample_field_id id, uint64_t v, char *buf, size_t n)
{
	switch (id) {
	case SF_CALLCHAIN:
		return callchain_context(v);
	case SF_BRANCH_FLAGS:
		snprintf(buf, n, "%s%s%s%scycles %u", v & 1 ? "mispred " : "", v & 2 ? "pred " : "",
		    v & 4 ? "in_tx " : "", v & 8 ? "abort " : "", (unsigned)((v >> 4) & 0xffff));
		return buf;
	case SF_UREGS_ABI:
	case SF_IREGS_ABI:
		return v == 0 ? "none" : v == 1 ? "32-bit" : v == 2 ? "64-bit" : "unknown";
	default:
		return NULL;
	}
}

static bool
sample_field(void *arg, enum sample_field_id id, uint64_t i, uint64_t len)
{
	struct sdesc *sd = arg;
	struct fctx *d = sd->d;
	const char *name;
	char note[64];

	switch (id) {
	case SF_RAW_DATA:
	case SF_STACK_DATA:
	case SF_AUX_DATA:
		fbytes(d, sf_name(sd, id, i), len, FIELD_BYTES, NULL);
		return true;
	case SF_RAW_PAD:
		fbytes(d, sf_name(sd, id, i), len, FIELD_PAD, NULL);
		return true;
	case SF_UREGS_ABI:
	case SF_IREGS_ABI:
		if (d->damaged || !room(d, 8, "regs abi"))
			return false;
		break;
	default:
		if (!room(d, len, sf_name(sd, id, i)))
			return false;
		break;
	}
	name = sf_name(sd, id, i);
	return fint_note(d, (unsigned)len, (enum ifmt)sf_fmt[id], name, NULL,
	    sf_note(id, peek(d, (unsigned)len), note, sizeof note));
}

static void
sample_bad(void *arg, const char *why)
{
	struct sdesc *sd = arg;

	bad(sd->d, why);
}

void
fields_sample_describe(struct fctx *d)
{
	const struct pn_attr *pa = fields_layout(d->s, d->r);
	struct sdesc sd = { d, "read" };
	struct sample_sink sink = { sample_field, sample_bad, &sd };
	struct sample smp;
	struct cursor c;
	const char *why;

	if (pa == NULL) {
		bad(d, "sample of an unknown event: layout unknown");
		return;
	}
	cursor_init(&c, d->p + d->pos, left(d), d->swap);
	sample_walk(&pa->attr, &c, &smp, &sink, &why);
}

void
fields_read_describe(struct fctx *d, uint64_t rf, const char *pfx)
{
	struct sdesc sd = { d, pfx };
	struct sample_sink sink = { sample_field, sample_bad, &sd };
	struct sample smp;
	struct cursor c;
	const char *why;

	cursor_init(&c, d->p + d->pos, left(d), d->swap);
	sample_walk_read(rf, &c, &smp, &sink, &why);
}

void
fields_sample_summary(const struct session *s, const struct rec *r, struct body *b,
    struct sbuf *sb)
{
	struct sample smp;
	const char *why = NULL;

	char t[160], *at, *e;

	/*
	 * Each piece built with put_ writers (dump prints this for every sample),
	 * not with sb_printf: the pieces are those of the printf calls they
	 * replaced, so a cut line is cut alike.
	 */
	at = piece_at(sb, t, 32);
	e = put_x64(put_lit(at, "(IP, 0x"), r->misc, false);
	piece_end(sb, t, at, put_lit(e, "): "));
	if (s == NULL || record_decode_sample(session_attrs(s), r, &smp, &why) < 0) {
		sb_printf(sb, "damaged: %s", why ? why : "no attributes");
		return;
	}
	at = piece_at(sb, t, 128);
	e = put_lit(put_i64(at, (int32_t)smp.pid), "/");
	e = put_lit(put_i64(e, (int32_t)smp.tid), ": ");
	e = put_lit(put_x64(e, smp.ip, true), " period: ");
	e = put_lit(put_u64(e, smp.period), " addr: ");
	piece_end(sb, t, at, put_x64(e, smp.addr, true));
	if (smp.sample_type & PERF_SAMPLE_TIME) {
		at = piece_at(sb, t, 32);
		piece_end(sb, t, at, put_u64(put_lit(at, " time: "), smp.time));
	}
	if (smp.sample_type & PERF_SAMPLE_CPU) {
		at = piece_at(sb, t, 32);
		piece_end(sb, t, at, put_u64(put_lit(at, " cpu: "), smp.cpu));
	}
	if (s->attrs.n > 1 && smp.attr >= 0) {
		sb_lit(sb, " event: ");
		sb_name(sb, session_attr_name(s, smp.attr));
	}
	if (smp.sample_type & PERF_SAMPLE_CALLCHAIN) {
		at = piece_at(sb, t, 40);
		piece_end(sb, t, at, put_u64(put_lit(at, " callchain: "), smp.callchain_nr));
	}
	if (smp.sample_type & PERF_SAMPLE_BRANCH_STACK) {
		at = piece_at(sb, t, 40);
		piece_end(sb, t, at, put_u64(put_lit(at, " branches: "), smp.branch_nr));
	}
	if (smp.sample_type & PERF_SAMPLE_RAW) {
		at = piece_at(sb, t, 32);
		piece_end(sb, t, at, put_u64(put_lit(at, " raw: "), smp.raw_size));
	}
	if (smp.sample_type & PERF_SAMPLE_STACK_USER) {
		at = piece_at(sb, t, 64);
		e = put_lit(put_u64(put_lit(at, " ustack: "), smp.stack_dyn_size), "/");
		piece_end(sb, t, at, put_u64(e, smp.stack_size));
	}
}
