#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/feature.h"
#include "core/fields_fmt.h"
#include "core/names.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"
#include "core/session_int.h"

/*
 * The perf tool's record types (64 and up): their half of the record
 * table (at the end), each type's describer and summary, and the typed
 * decoders of the bodies others read.
 */

#define MISC_BUILD_ID_SIZE	(1u << 15)	/* perf's, on HEADER_BUILD_ID records */

/* attr flag bits in the order of struct perf_event_attr's bitfield word;
 * precise_ip takes two bits (15 and 16). */
static const char *const attr_flag_names[64] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", NULL, "mmap_data",
	"sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch",
	"write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
	"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap", "defer_callchain",
	"defer_output",
};

/* CPU list of a perf_record_cpu_map_data at p (len bytes) as "0-3,5". */
static bool
sb_cpu_map(struct sbuf *b, const uint8_t *p, size_t len, bool swap)
{
	uint16_t type, nr;
	int64_t run_start = -2, prev = -2;
	bool first = true;

	if (len < 2)
		return false;
	type = rd16(p, swap);
#define ADD_CPU(cpu) do { \
		int64_t c_ = (cpu); \
		if (c_ == prev + 1 && prev >= 0) { \
			prev = c_; \
			break; \
		} \
		if (run_start >= 0 || run_start == -1) { \
			sb_printf(b, "%s%" PRId64, first ? "" : ",", run_start); \
			if (prev != run_start) sb_printf(b, "-%" PRId64, prev); \
			first = false; \
		} \
		run_start = prev = c_; \
	} while (0)
	switch (type) {
	case 0:	/* PERF_CPU_MAP__CPUS */
		if (len < 4)
			return false;
		nr = rd16(p + 2, swap);
		if ((size_t)nr * 2 > len - 4)
			return false;
		for (unsigned i = 0; i < nr; i++) {
			uint16_t c = rd16(p + 4 + 2 * i, swap);

			ADD_CPU(c == 0xffff ? -1 : (int64_t)c);
		}
		break;
	case 1: {	/* PERF_CPU_MAP__MASK */
		uint16_t ls;
		size_t off;

		if (len < 6)
			return false;
		nr = rd16(p + 2, swap);
		ls = rd16(p + 4, swap);
		if (ls != 4 && ls != 8)
			return false;
		off = ls == 4 ? 6 : 10;
		if (len < off || (size_t)nr * ls > len - off)
			return false;
		for (unsigned i = 0; i < nr; i++) {
			uint64_t m = ls == 4 ? rd32(p + off + 4 * i, swap) : rd64(p + off + 8 * i, swap);

			for (unsigned bit = 0; bit < 8u * ls; bit++)
				if (m & (UINT64_C(1) << bit))
					ADD_CPU((int64_t)i * 8 * ls + bit);
		}
		break;
	}
	case 2: {	/* PERF_CPU_MAP__RANGE_CPUS */
		uint16_t start, end;

		if (len < 8)
			return false;
		start = rd16(p + 4, swap);
		end = rd16(p + 6, swap);
		if (p[2])
			ADD_CPU(-1);
		for (uint32_t c = start; c <= end; c++)
			ADD_CPU(c);
		break;
	}
	default:
		return false;
	}
	if (run_start >= 0 || run_start == -1) {
		sb_printf(b, "%s%" PRId64, first ? "" : ",", run_start);
		if (prev != run_start)
			sb_printf(b, "-%" PRId64, prev);
	} else if (first) {
		sb_printf(b, "(empty)");
	}
#undef ADD_CPU
	return true;
}

/* ---- describers ---- */

/* perf_record_cpu_map_data at the current position, up to the body end. */
static void
f_cpu_map(struct fctx *d, const char *pfx)
{
	static const char *const kinds[] = { "cpus", "mask", "range" };
	uint64_t type, nr, ls;

	if (!room(d, 2, "cpu map type"))
		return;
	type = peek(d, 2);
	fint_note(d, 2, I_DEC, nm(d, "%s.type", pfx), NULL, type < 3 ? kinds[type] : "unknown");
	switch (type) {
	case 0:
		if (!U16(d, nm(d, "%s.nr", pfx), &nr))
			return;
		if (!room_n(d, nr, 2, "cpu list runs past the record"))
			return;
		for (uint64_t i = 0; i < nr; i++)
			fint_note(d, 2, I_DEC, nm(d, "%s.cpu[%" PRIu64 "]", pfx, i), NULL,
			    peek(d, 2) == 0xffff ? "any (-1)" : NULL);
		break;
	case 1:
		if (!U16(d, nm(d, "%s.nr", pfx), &nr) || !U16(d, nm(d, "%s.long_size", pfx), &ls))
			return;
		if (ls != 4 && ls != 8) {
			bad(d, "cpu mask long_size is neither 4 nor 8");
			return;
		}
		if (ls == 8)
			fbytes(d, nm(d, "%s.pad", pfx), 4, FIELD_PAD, NULL);
		if (!room_n(d, nr, ls, "cpu mask runs past the record"))
			return;
		for (uint64_t i = 0; i < nr; i++)
			fint(d, (unsigned)ls, I_HEX, nm(d, "%s.mask[%" PRIu64 "]", pfx, i), NULL);
		break;
	case 2:
		U8(d, nm(d, "%s.any_cpu", pfx), NULL);
		fbytes(d, nm(d, "%s.pad", pfx), 1, FIELD_PAD, NULL);
		U16(d, nm(d, "%s.start_cpu", pfx), NULL);
		U16(d, nm(d, "%s.end_cpu", pfx), NULL);
		break;
	default:
		bad(d, "unknown cpu map type");
		return;
	}
	/* Trailing padding to 8 bytes. */
	fbytes(d, nm(d, "%s.pad", pfx), left(d), FIELD_PAD, NULL);
}

static void
f_attr(struct fctx *d, const char *pfx, uint32_t asz)
{
	static const char *const attr_types[6] = {
		"hardware", "software", "tracepoint", "hw_cache", "raw", "breakpoint",
	};
	struct perf_event_attr a;
	const uint8_t *base = d->p + d->pos;
	uint32_t start = d->pos;
	uint64_t v, fw;
	struct sbuf b;
	char note[FIELD_VALUE_MAX];
	bool bp;

	memset(&a, 0, sizeof a);
	if (asz < PF_ATTR_SIZE_VER0 || asz > left(d) ||
	    attr_decode(&a, base, asz, d->swap) < 0) {
		bad(d, "attr size smaller than version 0 or beyond the record");
		return;
	}
	bp = a.type == PERF_TYPE_BREAKPOINT;
	fint_note(d, 4, I_DEC, nm(d, "%s.type", pfx), NULL, a.type < 6 ? attr_types[a.type] : NULL);
	U32(d, nm(d, "%s.size", pfx), NULL);
	X64(d, nm(d, "%s.config", pfx), NULL);
	U64(d, nm(d, a.freq ? "%s.sample_freq" : "%s.sample_period", pfx), NULL);
	names_sample_type(a.sample_type, NAMES_BITS_ALL, note, sizeof note);
	fint_note(d, 8, I_HEX, nm(d, "%s.sample_type", pfx), NULL, note);
	names_read_format(a.read_format, NAMES_BITS_ALL, note, sizeof note);
	fint_note(d, 8, I_HEX, nm(d, "%s.read_format", pfx), NULL, note);
	/* The flags word, from the decoded (native) attr. */
	memcpy(&fw, (const uint8_t *)&a + 40, 8);
	sb_init(&b, note, sizeof note);
	for (unsigned i = 0; i < 64; i++) {
		if (i == 15 || i == 16) {
			if (i == 15 && a.precise_ip)
				sb_printf(&b, "%sprecise_ip=%u", b.len ? " " : "", (unsigned)a.precise_ip);
			continue;
		}
		if (fw & (UINT64_C(1) << i)) {
			if (attr_flag_names[i])
				sb_printf(&b, "%s%s", b.len ? " " : "", attr_flag_names[i]);
			else
				sb_printf(&b, "%sbit%u", b.len ? " " : "", i);
		}
	}
	if (room(d, 8, "attr flags")) {
		sb_init(&b, d->val, sizeof d->val);
		sb_printf(&b, "%#" PRIx64, fw);
		if (note[0])
			sb_printf(&b, " (%s)", note);
		emit(d, 8, FIELD_HEX, fw, nm(d, "%s.flags", pfx), d->val);
	}
	U32(d, nm(d, a.watermark ? "%s.wakeup_watermark" : "%s.wakeup_events", pfx), NULL);
	U32(d, nm(d, "%s.bp_type", pfx), NULL);
	X64(d, nm(d, bp ? "%s.bp_addr" : "%s.config1", pfx), NULL);
	X64(d, nm(d, bp ? "%s.bp_len" : "%s.config2", pfx), NULL);
#define UPTO(off) (d->pos - start < (off) && asz >= (off))
	if (UPTO(72))
		X64(d, nm(d, "%s.branch_sample_type", pfx), NULL);
	if (UPTO(80))
		X64(d, nm(d, "%s.sample_regs_user", pfx), NULL);
	if (UPTO(96)) {
		U32(d, nm(d, "%s.sample_stack_user", pfx), NULL);
		S32(d, nm(d, "%s.clockid", pfx), NULL);
		X64(d, nm(d, "%s.sample_regs_intr", pfx), NULL);
	}
	if (UPTO(104)) {
		U32(d, nm(d, "%s.aux_watermark", pfx), NULL);
		U16(d, nm(d, "%s.sample_max_stack", pfx), NULL);
		fbytes(d, nm(d, "%s.__reserved_2", pfx), 2, FIELD_PAD, NULL);
	}
	if (UPTO(112)) {
		U32(d, nm(d, "%s.aux_sample_size", pfx), NULL);
		fbytes(d, nm(d, "%s.__reserved_3", pfx), 4, FIELD_PAD, NULL);
	}
	if (UPTO(120))
		X64(d, nm(d, "%s.sig_data", pfx), NULL);
	if (UPTO(128))
		X64(d, nm(d, "%s.config3", pfx), NULL);
#undef UPTO
	v = d->pos - start;
	if (!d->damaged && v < asz)
		fbytes(d, nm(d, "%s.unknown", pfx), asz - v, FIELD_BYTES, "fields newer than perfnav");
}

static void
f_stat_config(struct fctx *d)
{
	static const char *const tags[] = { "aggr_mode", "interval", "scale", "aggr_level" };
	uint64_t nr, tag;

	if (!U64(d, "nr", &nr) || !room_n(d, nr, 16, "stat config runs past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		tag = peek(d, 8);
		fint_note(d, 8, I_DEC, nm(d, "data[%" PRIu64 "].tag", i), NULL,
		    tag < 4 ? tags[tag] : "unknown");
		U64(d, nm(d, "data[%" PRIu64 "].val", i), NULL);
	}
}

static void
desc_attr(struct fctx *d)
{
	uint32_t asz;

	if (!room(d, 8, "attr too short"))
		return;
	asz = rd32(d->p + d->pos + 4, d->swap);
	if (asz == 0)
		asz = PF_ATTR_SIZE_VER0;
	f_attr(d, "attr", asz);
	if (d->damaged)
		return;
	for (uint64_t i = 0; left(d) >= 8; i++)
		U64(d, nm(d, "id[%" PRIu64 "]", i), NULL);
}

static void
desc_event_type(struct fctx *d)
{
	U64(d, "event_id", NULL);
	fstr(d, "name", 0);
}

static void
desc_tracing_data(struct fctx *d)
{
	uint64_t v;

	if (room(d, 4, "tracing data size")) {
		v = peek(d, 4);
		snprintf(d->val, sizeof d->val, "%" PRIu64 " (bytes of tracing data follow the record)", v);
		emit(d, 4, FIELD_INT, v, "size", d->val);
	}
	fbytes(d, "data", left(d), FIELD_BYTES, NULL);
}

static void
desc_build_id(struct fctx *d)
{
	const struct rec *r = d->r;
	struct sbuf b;
	unsigned bl = 20;

	S32(d, "pid", NULL);
	if (!room(d, 24, "build id too short"))
		return;
	if ((r->misc & MISC_BUILD_ID_SIZE) && d->p[d->pos + 20] <= 20)
		bl = d->p[d->pos + 20];
	sb_init(&b, d->val, sizeof d->val);
	sb_hex(&b, d->p + d->pos, bl, 20);
	emit(d, 20, FIELD_BYTES, 0, "build_id", d->val);
	U8(d, "build_id.size", NULL);
	fbytes(d, "build_id.reserved", 3, FIELD_PAD, NULL);
	fstr(d, "filename", 0);
}

static void
desc_id_index(struct fctx *d)
{
	uint64_t nr;

	if (!U64(d, "nr", &nr))
		return;
	if (!room_n(d, nr, 32, "id index runs past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		U64(d, nm(d, "entries[%" PRIu64 "].id", i), NULL);
		U64(d, nm(d, "entries[%" PRIu64 "].idx", i), NULL);
		fint(d, 8, I_SDEC, nm(d, "entries[%" PRIu64 "].cpu", i), NULL);
		fint(d, 8, I_SDEC, nm(d, "entries[%" PRIu64 "].tid", i), NULL);
	}
	/* perf >= 6.1 may append machine_pid/vcpu per entry. */
	if (nr && nr <= left(d) / 16) {
		for (uint64_t i = 0; i < nr; i++) {
			fint(d, 8, I_SDEC, nm(d, "entries2[%" PRIu64 "].machine_pid", i), NULL);
			fint(d, 8, I_SDEC, nm(d, "entries2[%" PRIu64 "].vcpu", i), NULL);
		}
	}
}

static void
desc_auxtrace_info(struct fctx *d)
{
	uint64_t v;

	if (room(d, 4, "auxtrace type")) {
		v = peek(d, 4);
		fint_note(d, 4, I_DEC, "type", NULL,
		    (const char *[]){ "unknown", "intel_pt", "intel_bts", "cs_etm", "arm_spe",
		    "s390_cpumsf", "hisi_ptt" }[v < 7 ? v : 0]);
	}
	fbytes(d, "reserved", 4, FIELD_PAD, NULL);
	for (uint64_t i = 0; left(d) >= 8; i++)
		X64(d, nm(d, "priv[%" PRIu64 "]", i), NULL);
}

static void
desc_auxtrace(struct fctx *d)
{
	uint64_t v;

	if (room(d, 8, "auxtrace size")) {
		v = peek(d, 8);
		snprintf(d->val, sizeof d->val, "%#" PRIx64 " (bytes of trace data follow the record)", v);
		emit(d, 8, FIELD_HEX, v, "size", d->val);
	}
	X64(d, "offset", NULL);
	X64(d, "reference", NULL);
	U32(d, "idx", NULL);
	S32(d, "tid", NULL);
	S32(d, "cpu", NULL);
	fbytes(d, "reserved", 4, FIELD_PAD, NULL);
	fbytes(d, "data", left(d), FIELD_BYTES, NULL);
}

static void
desc_auxtrace_error(struct fctx *d)
{
	uint64_t fmt = 0;

	U32(d, "type", NULL);
	U32(d, "code", NULL);
	S32(d, "cpu", NULL);
	S32(d, "pid", NULL);
	S32(d, "tid", NULL);
	U32(d, "fmt", &fmt);
	X64(d, "ip", NULL);
	if (fmt >= 1)
		U64(d, "time", NULL);
	if (!d->damaged)
		fstr(d, "msg", 64);
	if (fmt >= 2 && left(d) >= 8) {
		S32(d, "machine_pid", NULL);
		S32(d, "vcpu", NULL);
	}
}

static void
desc_thread_map(struct fctx *d)
{
	uint64_t nr;

	if (!U64(d, "nr", &nr) || !room_n(d, nr, 24, "thread map runs past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		fint(d, 8, I_SDEC, nm(d, "entries[%" PRIu64 "].pid", i), NULL);
		fstr(d, nm(d, "entries[%" PRIu64 "].comm", i), 16);
	}
}

static void
desc_cpu_map(struct fctx *d)
{
	f_cpu_map(d, "cpus");
}

static void
desc_stat_config(struct fctx *d)
{
	f_stat_config(d);
}

static void
desc_stat(struct fctx *d)
{
	U64(d, "id", NULL);
	S32(d, "cpu", NULL);
	S32(d, "thread", NULL);
	U64(d, "val", NULL);
	U64(d, "ena", NULL);
	U64(d, "run", NULL);
}

static void
desc_stat_round(struct fctx *d)
{
	uint64_t v;

	if (room(d, 8, "stat round type")) {
		v = peek(d, 8);
		fint_note(d, 8, I_DEC, "type", NULL, v == 0 ? "interval" : v == 1 ? "final" : NULL);
	}
	U64(d, "time", NULL);
}

static void
desc_event_update(struct fctx *d)
{
	uint64_t v;
	uint64_t t = 0;

	if (room(d, 8, "event update type")) {
		t = peek(d, 8);
		fint_note(d, 8, I_DEC, "type", NULL,
		    t < 4 ? (const char *[]){ "unit", "scale", "name", "cpus" }[t] : "unknown");
	}
	U64(d, "id", NULL);
	if (d->damaged)
		return;
	switch (t) {
	case 0:
		fstr(d, "unit", 0);
		break;
	case 1:
		if (room(d, 8, "event update scale")) {
			double dv;

			v = peek(d, 8);
			memcpy(&dv, &v, sizeof dv);
			snprintf(d->val, sizeof d->val, "%g", dv);
			emit(d, 8, FIELD_FLOAT, 0, "scale", d->val);
		}
		/* perf writes the whole union: the rest is padding. */
		fbytes(d, "pad", left(d), FIELD_PAD, NULL);
		break;
	case 2:
		fstr(d, "name", 0);
		break;
	case 3:
		f_cpu_map(d, "cpus");
		break;
	default:
		break;
	}
}

static void
desc_time_conv(struct fctx *d)
{
	U64(d, "time_shift", NULL);
	U64(d, "time_mult", NULL);
	U64(d, "time_zero", NULL);
	if (left(d) >= 24) {
		U64(d, "time_cycles", NULL);
		X64(d, "time_mask", NULL);
		U8(d, "cap_user_time_zero", NULL);
		U8(d, "cap_user_time_short", NULL);
		fbytes(d, "reserved", 6, FIELD_PAD, NULL);
	}
}

static void
desc_feature(struct fctx *d)
{
	uint64_t v;

	if (room(d, 8, "feature id")) {
		const char *fn;

		v = peek(d, 8);
		fn = v < 256 ? feat_name((unsigned)v) : NULL;
		fint_note(d, 8, I_DEC, "feat_id", NULL, fn ? fn : "unknown feature");
	}
	fbytes(d, "data", left(d), FIELD_BYTES, "feature section");
}

static void
desc_compressed(struct fctx *d)
{
	fbytes(d, "data", left(d), FIELD_BYTES, "zstd");
}

static void
desc_compressed2(struct fctx *d)
{
	uint64_t v;

	if (!U64(d, "data_size", &v))
		return;
	if (!room(d, v, "compressed data runs past the record"))
		return;
	fbytes(d, "data", v, FIELD_BYTES, "zstd");
	fbytes(d, "pad", left(d), FIELD_PAD, NULL);
}

/* ---- BPF_METADATA, SCHEDSTAT_CPU, SCHEDSTAT_DOMAIN ---- */

static void
desc_bpf_metadata(struct fctx *d)
{
	uint64_t nr;

	fstr(d, "prog_name", REC_BPF_META_NAME);
	if (!room(d, 8, "bpf metadata too short") || !U64(d, "nr_entries", &nr) ||
	    !room_n(d, nr, REC_BPF_META_ENTRY, "entries run past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		fstr(d, nm(d, "entries[%" PRIu64 "].key", i), REC_BPF_META_KEY);
		fstr(d, nm(d, "entries[%" PRIu64 "].value", i), REC_BPF_META_VALUE);
	}
}

/* The /proc/schedstat counters perf records, by version (perf's
 * schedstat-v15.h to -v17.h): a cpu's are the same in all three; a
 * domain's are three categories of load balancing counters (idle, busy,
 * newly idle; busy first from version 16; four kinds of imbalance from
 * version 17) and twelve more. */
static const char *const sched_cpu_names[] = {
	"yld_count", "array_exp", "sched_count", "sched_goidle", "ttwu_count", "ttwu_local",
	"rq_cpu_time", "run_delay", "pcount",
};
#define SCHED_CPU_U32	6	/* the first six are u32, the rest u64 */
static const char *const sched_lb8[] = {
	"lb_count", "lb_balanced", "lb_failed", "lb_imbalance", "lb_gained", "lb_hot_gained",
	"lb_nobusyq", "lb_nobusyg",
};
static const char *const sched_lb11[] = {
	"lb_count", "lb_balanced", "lb_failed", "lb_imbalance_load", "lb_imbalance_util",
	"lb_imbalance_task", "lb_imbalance_misfit", "lb_gained", "lb_hot_gained", "lb_nobusyq",
	"lb_nobusyg",
};
static const char *const sched_tail[] = {
	"alb_count", "alb_failed", "alb_pushed", "sbe_count", "sbe_balanced", "sbe_pushed",
	"sbf_count", "sbf_balanced", "sbf_pushed", "ttwu_wake_remote", "ttwu_move_affine",
	"ttwu_move_balance",
};

/* A domain's u32 counters in version ver, 0 for a version perf does not know. */
static uint32_t
sched_domain_n(uint16_t ver)
{
	return ver == 15 || ver == 16 ? 3 * 8 + 12 : ver == 17 ? 3 * 11 + 12 : 0;
}

/* Name of a domain's counter i (i < sched_domain_n(ver)). */
static const char *
sched_domain_name(struct fctx *d, uint16_t ver, uint32_t i)
{
	static const char *const cats15[] = { "idle", "busy", "newidle" };
	static const char *const cats16[] = { "busy", "idle", "newidle" };
	uint32_t per = ver == 17 ? 11 : 8;

	if (i >= 3 * per)
		return sched_tail[i - 3 * per];
	return nm(d, "%s_%s", (ver == 15 ? cats15 : cats16)[i / per],
	    (per == 11 ? sched_lb11 : sched_lb8)[i % per]);
}

uint32_t
record_schedstat_size(uint32_t type, uint16_t ver)
{
	if (type == PF_REC_SCHEDSTAT_CPU)
		return ver >= 15 && ver <= 17 ? 16 + SCHED_CPU_U32 * 4 + 3 * 8 : 16;
	return 16 + 4 * sched_domain_n(ver);
}

static void
desc_schedstat_cpu(struct fctx *d)
{
	uint64_t ver = 0;

	U64(d, "timestamp", NULL);
	U32(d, "cpu", NULL);
	U16(d, "version", &ver);
	fbytes(d, "__pad", 2, FIELD_PAD, NULL);
	if (ver < 15 || ver > 17)
		return;
	for (unsigned i = 0; i < sizeof sched_cpu_names / sizeof sched_cpu_names[0]; i++)
		fint(d, i < SCHED_CPU_U32 ? 4 : 8, I_DEC, sched_cpu_names[i], NULL);
}

static void
desc_schedstat_domain(struct fctx *d)
{
	uint64_t ver = 0;

	U64(d, "timestamp", NULL);
	U32(d, "cpu", NULL);
	U16(d, "version", &ver);
	U16(d, "domain", NULL);
	for (uint32_t i = 0; i < sched_domain_n((uint16_t)ver); i++)
		U32(d, sched_domain_name(d, (uint16_t)ver, i), NULL);
	/* perf rounds the record up to 8 bytes */
	if (sched_domain_n((uint16_t)ver) != 0 && left(d) < 8)
		fbytes(d, "pad", left(d), FIELD_PAD, NULL);
}

/* ---- summaries ---- */

static void
sum_attr(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	struct perf_event_attr a;
	uint32_t asz = b32(b, 12);
	uint64_t nids;

	if (asz == 0)
		asz = PF_ATTR_SIZE_VER0;
	if (b->bad || asz > b->n - 8 ||
	    attr_decode(&a, b->p + 8, asz, b->swap) < 0) {
		b->bad = true;
		return;
	}
	nids = (b->n - 8 - asz) / 8;
	sb_printf(sb, " type %u config %#" PRIx64 " sample_type ", a.type,
	    (uint64_t)a.config);
	{
		char st[512];

		sb_printf(sb, "%s ids %" PRIu64,
		    names_sample_type(a.sample_type, NAMES_BITS_ALL, st, sizeof st), nids);
	}
}

static void
sum_event_type(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " id %" PRIu64 " name ", b64(b, 8));
	bstr(sb, b, 16);
}

static void
sum_tracing_data(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " size %u", b32(b, 8));
}

static void
sum_build_id(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	unsigned bl = 20;

	sb_printf(sb, " pid %d ", (int32_t)b32(b, 8));
	if (b->n < 36) {
		b->bad = true;
		return;
	}
	if ((r->misc & MISC_BUILD_ID_SIZE) && b->p[32] <= 20)
		bl = b->p[32];
	sb_hex(sb, b->p + 12, bl, 20);
	sb_printf(sb, " ");
	bstr(sb, b, 36);
}

static void
sum_id_index(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " nr: %" PRIu64, b64(b, 8));
}

static void
sum_auxtrace_info(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " type: %u", b32(b, 8));
}

static void
sum_auxtrace(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " size: %#" PRIx64 " offset: %#" PRIx64 " ref: %#" PRIx64
	    " idx: %u tid: %d cpu: %d", b64(b, 8), b64(b, 16), b64(b, 24), b32(b, 32),
	    (int32_t)b32(b, 36), (int32_t)b32(b, 40));
}

static void
sum_auxtrace_error(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint32_t fmt = b32(b, 28);

	sb_printf(sb, " type: %u code: %u cpu: %d pid: %d tid: %d ip: %#" PRIx64 " msg: ",
	    b32(b, 8), b32(b, 12), (int32_t)b32(b, 16), (int32_t)b32(b, 20),
	    (int32_t)b32(b, 24), b64(b, 32));
	if (!b->bad && b->n > (fmt ? 48u : 40u))
		sb_str(sb, b->p + (fmt ? 48 : 40), b->n - (fmt ? 48 : 40) < 64 ?
		    b->n - (fmt ? 48 : 40) : 64, false);
}

static void
sum_thread_map(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t nr = b64(b, 8);

	sb_printf(sb, " nr: %" PRIu64, nr);
	if (b->bad || nr > (b->n - 16) / 24)
		return;
	sb_printf(sb, " thread%s:", nr == 1 ? "" : "s");
	for (uint64_t i = 0; i < nr && i < 16; i++)
		sb_printf(sb, " %" PRId64, (int64_t)b64(b, 16 + 24 * (uint32_t)i));
	if (nr > 16)
		sb_printf(sb, " ...");
}

static void
sum_cpu_map(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, ": ");
	if (!sb_cpu_map(sb, b->p + 8, b->n - 8, b->swap))
		b->bad = true;
}

static void
sum_stat_config(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	static const char *const tags[] = { "aggr_mode", "interval", "scale", "aggr_level" };
	uint64_t nr = b64(b, 8);

	if (b->bad || nr > (b->n - 16) / 16) {
		b->bad = true;
		return;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t tag = b64(b, 16 + 16 * (uint32_t)i);

		if (tag < 4)
			sb_printf(sb, " %s %" PRIu64, tags[tag], b64(b, 24 + 16 * (uint32_t)i));
		else
			sb_printf(sb, " tag%" PRIu64 " %" PRIu64, tag, b64(b, 24 + 16 * (uint32_t)i));
	}
}

static void
sum_stat(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " id %" PRIu64 ", cpu %d, thread %d, value %" PRIu64 ", enabled %"
	    PRIu64 ", running %" PRIu64, b64(b, 8), (int32_t)b32(b, 16), (int32_t)b32(b, 20),
	    b64(b, 24), b64(b, 32), b64(b, 40));
}

static void
sum_stat_round(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t t = b64(b, 8);

	sb_printf(sb, " time %" PRIu64 ", type %s", b64(b, 16),
	    t == 0 ? "INTERVAL" : t == 1 ? "FINAL" : "?");
}

static void
sum_event_update(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t t = b64(b, 8);

	sb_printf(sb, " id: %" PRIu64, b64(b, 16));
	if (b->bad)
		return;
	switch (t) {
	case 0:
		sb_printf(sb, " unit: ");
		bstr(sb, b, 24);
		break;
	case 1: {
		uint64_t v = b64(b, 24);
		double dv;

		memcpy(&dv, &v, sizeof dv);
		sb_printf(sb, " scale: %f", dv);
		break;
	}
	case 2:
		sb_printf(sb, " name: ");
		bstr(sb, b, 24);
		break;
	case 3:
		sb_printf(sb, " cpus: ");
		if (b->n <= 24 || !sb_cpu_map(sb, b->p + 24, b->n - 24, b->swap))
			b->bad = true;
		break;
	default:
		sb_printf(sb, " type %" PRIu64, t);
		break;
	}
}

static void
sum_time_conv(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " time_shift %" PRIu64 " time_mult %" PRIu64 " time_zero %" PRIu64,
	    b64(b, 8), b64(b, 16), b64(b, 24));
}

static void
sum_feature(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t bit = b64(b, 8);
	const char *fn = bit < 256 ? feat_name((unsigned)bit) : NULL;

	if (!b->bad)
		sb_printf(sb, " %s (bit %" PRIu64 "), %u bytes", fn ? fn : "unknown", bit,
		    b->n - 16);
}

static void
sum_compressed(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " %u bytes of zstd data", b->n - 8);
}

static void
sum_compressed2(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	sb_printf(sb, " %" PRIu64 " bytes of zstd data", b64(b, 8));
}

/* perf's dump of the record: the program, then "entry N: key = value"
 * (one line here). */
static void
sum_bpf_metadata(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint64_t nr = b64(b, 8 + REC_BPF_META_NAME);

	if (b->bad)
		return;
	sb_printf(sb, " prog ");
	sb_str(sb, b->p + 8, REC_BPF_META_NAME, false);
	if (nr > (b->n - 8 - REC_BPF_META_HEAD) / REC_BPF_META_ENTRY) {
		b->bad = true;
		return;
	}
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *e = b->p + 8 + REC_BPF_META_HEAD + i * REC_BPF_META_ENTRY;
		char key[REC_BPF_META_KEY * 4 + 1];
		struct sbuf kb;

		sb_init(&kb, key, sizeof key);
		sb_str(&kb, e, REC_BPF_META_KEY, false);
		sb_printf(sb, "  entry %" PRIu64 ": %20s = ", i, key);
		sb_str(sb, e + REC_BPF_META_KEY, REC_BPF_META_VALUE, false);
	}
}

/* perf's dump: "cpuN" and the counters as /proc/schedstat lists them. */
static void
sum_schedstat_cpu(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t ver = b16(b, 20);

	sb_printf(sb, " cpu%u", b32(b, 16));
	if (ver < 15 || ver > 17) {
		sb_printf(sb, " Unsupported /proc/schedstat version %u.", ver);
		return;
	}
	for (uint32_t i = 0, off = 24; i < sizeof sched_cpu_names / sizeof sched_cpu_names[0]; i++) {
		sb_printf(sb, " %" PRIu64, i < SCHED_CPU_U32 ? b32(b, off) : b64(b, off));
		off += i < SCHED_CPU_U32 ? 4 : 8;
	}
}

static void
sum_schedstat_domain(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t ver = b16(b, 20);
	uint32_t n = sched_domain_n(ver);

	sb_printf(sb, " domain%u", b16(b, 22));
	if (n == 0) {
		sb_printf(sb, " Unsupported /proc/schedstat version %u.", ver);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		sb_printf(sb, " %u", b32(b, 24 + 4 * i));
}

/* ---- typed decoders ---- */

int
record_thread_map(const struct rec *r, struct rec_thread_map *m)
{
	const uint8_t *b = rec_body(r, PF_REC_THREAD_MAP, 8);
	uint32_t n;

	if (b == NULL)
		return -1;
	n = r->size - 8;
	m->nr = rd64(b, r->swap);
	/* entry i's pid lies at 8 + 24 * i */
	m->have = n >= 16 ? (n - 16) / 24 + 1 : 0;
	m->whole = n >= 32 ? (n - 32) / 24 + 1 : 0;
	m->entries = b + 8;
	m->swap = r->swap;
	return 0;
}

int32_t
record_thread_map_pid(const struct rec_thread_map *m, uint64_t i)
{
	return (int32_t)rd64(m->entries + 24 * i, m->swap);
}

int
record_cpu_map(const struct rec *r, struct rec_cpu_map *m)
{
	const uint8_t *b = rec_body(r, PF_REC_CPU_MAP, 4);

	if (b == NULL)
		return -1;
	memset(m, 0, sizeof *m);
	m->type = rd16(b, r->swap);
	m->swap = r->swap;
	if (m->type == 0) {
		uint32_t room = (r->size - 12) / 2;

		m->nr = rd16(b + 2, r->swap);
		m->have = m->nr < room ? m->nr : (uint16_t)room;
		m->cpus = b + 4;
	}
	return 0;
}

int32_t
record_cpu_map_cpu(const struct rec_cpu_map *m, uint16_t i)
{
	uint16_t c = rd16(m->cpus + 2 * i, m->swap);

	return c == 0xffff ? -1 : c;
}

int
record_stat(const struct rec *r, struct rec_stat *st)
{
	const uint8_t *b = rec_body(r, PF_REC_STAT, 40);

	if (b == NULL)
		return -1;
	st->id = rd64(b, r->swap);
	st->cpu = rd32(b + 8, r->swap);
	st->thread = rd32(b + 12, r->swap);
	st->val = rd64(b + 16, r->swap);
	st->ena = rd64(b + 24, r->swap);
	st->run = rd64(b + 32, r->swap);
	return 0;
}

int
record_stat_round(const struct rec *r, struct rec_stat_round *sr)
{
	const uint8_t *b = rec_body(r, PF_REC_STAT_ROUND, 16);

	if (b == NULL)
		return -1;
	sr->type = rd64(b, r->swap);
	sr->time = rd64(b + 8, r->swap);
	return 0;
}

/* ---- the perf tool's half of the record table ---- */

#define U(T) [PF_REC_##T - PF_REC_USER_TYPE_START]
#define TOOL(T, min, f, s) \
	U(T) = { #T, min, -1, -1, -1, 0, f, s }

const struct rec_type rec_tool_types[PF_REC_MAX_KNOWN - PF_REC_USER_TYPE_START] = {
	TOOL(ATTR, PF_ATTR_SIZE_VER0_MIN, desc_attr, sum_attr),
	TOOL(EVENT_TYPE, 0, desc_event_type, sum_event_type),
	TOOL(TRACING_DATA, 4, desc_tracing_data, sum_tracing_data),	/* u32 size */
	TOOL(BUILD_ID, 28, desc_build_id, sum_build_id),		/* pid, build_id[24] */
	TOOL(FINISHED_ROUND, 0, NULL, NULL),
	TOOL(ID_INDEX, 8, desc_id_index, sum_id_index),			/* nr */
	TOOL(AUXTRACE_INFO, 0, desc_auxtrace_info, sum_auxtrace_info),
	TOOL(AUXTRACE, 40, desc_auxtrace, sum_auxtrace),		/* size .. reserved */
	TOOL(AUXTRACE_ERROR, 0, desc_auxtrace_error, sum_auxtrace_error),
	TOOL(THREAD_MAP, 0, desc_thread_map, sum_thread_map),
	TOOL(CPU_MAP, 0, desc_cpu_map, sum_cpu_map),
	TOOL(STAT_CONFIG, 0, desc_stat_config, sum_stat_config),
	TOOL(STAT, 0, desc_stat, sum_stat),
	TOOL(STAT_ROUND, 0, desc_stat_round, sum_stat_round),
	TOOL(EVENT_UPDATE, 16, desc_event_update, sum_event_update),	/* type, id */
	TOOL(TIME_CONV, 0, desc_time_conv, sum_time_conv),
	TOOL(FEATURE, 8, desc_feature, sum_feature),			/* feat_id */
	TOOL(COMPRESSED, 0, desc_compressed, sum_compressed),
	TOOL(FINISHED_INIT, 0, NULL, NULL),
	TOOL(COMPRESSED2, 8, desc_compressed2, sum_compressed2),	/* data_size */
	TOOL(BPF_METADATA, 0, desc_bpf_metadata, sum_bpf_metadata),	/* record_check */
	TOOL(SCHEDSTAT_CPU, 16, desc_schedstat_cpu, sum_schedstat_cpu),
	TOOL(SCHEDSTAT_DOMAIN, 16, desc_schedstat_domain, sum_schedstat_domain),
};
