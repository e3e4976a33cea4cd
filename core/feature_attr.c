#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/err.h"
#include "core/feature_int.h"
#include "core/names.h"

/*
 * EVENT_DESC's rows: each event's perf_event_attr as perf 6.1 prints it
 * (perf_event_attr__fprintf(): the nonzero fields, in its order).
 */

struct bit_name {
	uint64_t	 bit;
	const char	*name;
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" }, { PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" }, { PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" }, { PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" }, { PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" }, { PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ 1u << 18, "PRIV_SAVE" },
	{ 0, NULL },
};

static void
print_bits(struct feat_str *s, const char *name, uint64_t v, const struct bit_name *b)
{
	bool first = true;

	if (v == 0)
		return;
	feat_str_addf(s, ", %s = ", name);
	for (; b->name != NULL; b++) {
		if (v & b->bit) {
			feat_str_addf(s, "%s%s", first ? "" : "|", b->name);
			first = false;
		}
	}
}

static void
print_u(struct feat_str *s, const char *name, uint64_t v)
{
	if (v != 0)
		feat_str_addf(s, ", %s = %" PRIu64, name, v);
}

static void
print_x(struct feat_str *s, const char *name, uint64_t v)
{
	if (v != 0)
		feat_str_addf(s, ", %s = %#" PRIx64, name, v);
}

/* The bitfield word of an attr (after read_format), as a u64. */
static uint64_t
attr_flags_word(const struct perf_event_attr *a)
{
	uint64_t w;

	memcpy(&w, (const char *)&a->read_format + sizeof a->read_format, sizeof w);
	return w;
}

/* perf_event_attr__fprintf() of perf 6.1 (and the flags perf added since):
 * nonzero fields, in its order. */
static void
print_attr(struct feat_str *s, const struct perf_event_attr *a)
{
	char bits[512];

	print_u(s, "type", a->type);
	print_u(s, "size", a->size);
	print_x(s, "config", a->config);
	print_u(s, "{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type)
		feat_str_addf(s, ", sample_type = %s",
		    names_sample_type(a->sample_type, NAMES_BITS_PERF, bits, sizeof bits));
	if (a->read_format)
		feat_str_addf(s, ", read_format = %s",
		    names_read_format(a->read_format, NAMES_BITS_PERF, bits, sizeof bits));
#define F(n) print_u(s, #n, a->n)
	F(disabled);
	F(inherit);
	F(pinned);
	F(exclusive);
	F(exclude_user);
	F(exclude_kernel);
	F(exclude_hv);
	F(exclude_idle);
	F(mmap);
	F(comm);
	F(freq);
	F(inherit_stat);
	F(enable_on_exec);
	F(task);
	F(watermark);
	F(precise_ip);
	F(mmap_data);
	F(sample_id_all);
	F(exclude_host);
	F(exclude_guest);
	F(exclude_callchain_kernel);
	F(exclude_callchain_user);
	F(mmap2);
	F(comm_exec);
	F(use_clockid);
	F(context_switch);
	F(write_backward);
	F(namespaces);
	F(ksymbol);
	F(bpf_event);
	F(aux_output);
	F(cgroup);
	F(text_poke);
	F(build_id);
	F(inherit_thread);
	F(remove_on_exec);
	F(sigtrap);
#undef F
	/* newer than the system's header: bits 38 and 39 of the flags word */
	print_u(s, "defer_callchain", attr_flags_word(a) >> 38 & 1);
	print_u(s, "defer_output", attr_flags_word(a) >> 39 & 1);
	print_u(s, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	print_u(s, "bp_type", a->bp_type);
	print_x(s, "{ bp_addr, config1 }", a->bp_addr);
	print_x(s, "{ bp_len, config2 }", a->bp_len);
	print_bits(s, "branch_sample_type", a->branch_sample_type, branch_bits);
	print_x(s, "sample_regs_user", a->sample_regs_user);
	print_u(s, "sample_stack_user", a->sample_stack_user);
	if (a->clockid != 0)
		feat_str_addf(s, ", clockid = %" PRId32, a->clockid);
	print_x(s, "sample_regs_intr", a->sample_regs_intr);
	print_u(s, "aux_watermark", a->aux_watermark);
	print_u(s, "sample_max_stack", a->sample_max_stack);
	print_u(s, "aux_sample_size", a->aux_sample_size);
	print_u(s, "sig_data", a->sig_data);
}

/* perf refuses the whole EVENT_DESC when an attr has bits it does not
 * know (perf_attr_check()): those of perf 6.1, and the deferred callchain
 * flags perf knows since (the two low bits of the system header's
 * __reserved_1). */
static bool
attr_known(const struct perf_event_attr *a)
{
	if ((a->__reserved_1 >> 2) || a->__reserved_2 || a->__reserved_3)
		return false;
	if (a->sample_type & ~((UINT64_C(1) << 25) - 1))
		return false;
	if (a->read_format & ~((UINT64_C(1) << 5) - 1))
		return false;
	if ((a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (a->branch_sample_type & ~((UINT64_C(1) << 19) - 1)))
		return false;
	return true;
}

/* EVENT_DESC: one row per event, or perf's word that it cannot read them. */
void
feature_desc_event_desc(struct feat_desc *d)
{
	const struct features *f = d->f;
	bool ok = f->events_ok;

	for (uint32_t i = 0; ok && i < f->nevents; i++)
		ok = attr_known(&f->events[i].attr);
	if (!ok) {
		feat_rowf(d, "", "event desc", ": ", "not available or unable to read");
		return;
	}
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct feat_event_desc *e = &f->events[i];
		struct feat_str s = { NULL, 0, 0 };

		/* perf's list ends at the first attr of size 0. */
		if (e->attr.size == 0)
			break;
		feat_str_addf(&s, "name = %s, ", feat_esc(d, e->name));
		if (e->nids > 0) {
			feat_str_addf(&s, ", id = {");
			for (uint32_t j = 0; j < e->nids; j++)
				feat_str_addf(&s, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			feat_str_addf(&s, " }");
		}
		print_attr(&s, &e->attr);
		feat_row_take(d, "", xstrdup("event"), " : ", feat_str_take(&s));
	}
}
