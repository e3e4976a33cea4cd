/* Criterion tests of the field describer and summaries (core/fields.c and the record table). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "core/fields_fmt.h"	/* the sb_ writers, checked against sb_printf */
#include "tests/rec_helpers.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#endif

/* ---- every record type described ---- */

#define TRAILER_ST	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)

/* kind 0: cpus list, 1: 64-bit mask, 2: range, 3: 32-bit mask. */
static void
cpu_map_data(struct pdbuf *b, int kind)
{
	pd_u16(b, (uint16_t)(kind == 3 ? 1 : kind));
	if (kind == 0) {
		pd_u16(b, 3);
		pd_u16(b, 0);
		pd_u16(b, 1);
		pd_u16(b, 3);
	} else if (kind == 1) {
		pd_u16(b, 1);
		pd_u16(b, 8);
		pd_zero(b, 4);
		pd_u64(b, 0x2d);
	} else if (kind == 2) {
		pd_u8(b, 0);
		pd_u8(b, 0);
		pd_u16(b, 0);
		pd_u16(b, 7);
	} else {
		pd_u16(b, 2);
		pd_u16(b, 4);
		pd_u32(b, 0x3);
		pd_u32(b, 0x1);
	}
}

static void
pad8(struct pdbuf *b, size_t start)
{
	while ((b->len - start) % 8)
		pd_u8(b, 0);
}

static void kernel_body_more(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a,
    size_t r);
static void tool_body_more(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a,
    size_t r);

/* The body of a kernel record of type t (variant v), record started at r. */
static void
kernel_body(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a, size_t r)
{
	switch (t) {
	case PF_REC_MMAP:
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_u64(b, 0x400000);
		pd_u64(b, 0x1000);
		pd_u64(b, 0);
		pd_str8(b, "/usr/bin/foo");
		break;
	case PF_REC_MMAP2:
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_u64(b, 0x400000);
		pd_u64(b, 0x1000);
		pd_u64(b, 0);
		if (v == 0) {
			pd_u32(b, 8);
			pd_u32(b, 1);
			pd_u64(b, 1234);
			pd_u64(b, 5);
		} else {
			pd_u8(b, 20);
			pd_u8(b, 0);
			pd_u16(b, 0);
			for (int i = 0; i < 20; i++)
				pd_u8(b, (uint8_t)i);
		}
		pd_u32(b, 5);
		pd_u32(b, 2);
		pd_str8(b, "/usr/lib/libc.so.6");
		break;
	case PF_REC_LOST:
		pd_u64(b, 100);
		pd_u64(b, 7);
		break;
	case PF_REC_COMM:
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_str8(b, "comm");
		break;
	case PF_REC_EXIT:
	case PF_REC_FORK:
		pd_u32(b, 3);
		pd_u32(b, 1);
		pd_u32(b, 3);
		pd_u32(b, 1);
		pd_u64(b, 99);
		break;
	case PF_REC_THROTTLE:
	case PF_REC_UNTHROTTLE:
		pd_u64(b, 99);
		pd_u64(b, 100);
		pd_u64(b, 0);
		break;
	case PF_REC_READ:
		pd_u32(b, 1);
		pd_u32(b, 2);
		/* read_format GROUP|ID of the test attr: nr, then {value, id} */
		pd_u64(b, 2);
		pd_u64(b, 10);
		pd_u64(b, 100);
		pd_u64(b, 20);
		pd_u64(b, 101);
		break;
	case PF_REC_SAMPLE:
		/* IDENTIFIER IP TID TIME ID CPU PERIOD */
		pd_u64(b, 100);
		pd_u64(b, 0x1234);
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_u64(b, 5);
		pd_u64(b, 100);
		pd_u32(b, 1);
		pd_u32(b, 0);
		pd_u64(b, 1000);
		break;
	default:
		kernel_body_more(b, t, v, a, r);
		break;
	}
}

/* kernel_body()'s later types, AUX on, and unknown ones. */
static void
kernel_body_more(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a, size_t r)
{
	switch (t) {
	case PF_REC_AUX:
		pd_u64(b, 0);
		pd_u64(b, 0x3370);
		pd_u64(b, 1);
		break;
	case PF_REC_ITRACE_START:
		pd_u32(b, 1);
		pd_u32(b, 2);
		break;
	case PF_REC_LOST_SAMPLES:
		pd_u64(b, 3);
		break;
	case PF_REC_SWITCH:
		break;
	case PF_REC_SWITCH_CPU_WIDE:
		pd_u32(b, 5);
		pd_u32(b, 6);
		break;
	case PF_REC_NAMESPACES:
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_u64(b, 7);
		for (int i = 0; i < 7; i++) {
			pd_u64(b, 4);
			pd_u64(b, 0xeffffff0u + i);
		}
		break;
	case PF_REC_KSYMBOL:
		pd_u64(b, 0xffffffffc0248588ull);
		pd_u32(b, 72);
		pd_u16(b, 1);
		pd_u16(b, 0);
		pd_str8(b, "bpf_prog_x");
		break;
	case PF_REC_BPF_EVENT:
		pd_u16(b, 1);
		pd_u16(b, 0);
		pd_u32(b, 5);
		for (int i = 0; i < 8; i++)
			pd_u8(b, (uint8_t)(0xa0 + i));
		break;
	case PF_REC_CGROUP:
		pd_u64(b, 1);
		pd_str8(b, "/");
		break;
	case PF_REC_TEXT_POKE:
		pd_u64(b, 0xffffffff81000000ull);
		pd_u16(b, 5);
		pd_u16(b, 5);
		for (int i = 0; i < 10; i++)
			pd_u8(b, 0x90);
		pad8(b, r);
		break;
	case 21:
		pd_u64(b, 0x42);
		break;
	case 22:	/* CALLCHAIN_DEFERRED: cookie, nr, ips */
		pd_u64(b, 0xc0c0);
		pd_u64(b, 3);
		pd_u64(b, (uint64_t)PERF_CONTEXT_USER);
		pd_u64(b, 0x401000);
		pd_u64(b, 0x401100);
		break;
	default:	/* unknown types */
		pd_u64(b, 1);
		pd_u64(b, 2);
		break;
	}
}

/* BPF_METADATA (prog name, one entry), SCHEDSTAT_CPU and SCHEDSTAT_DOMAIN
 * (variant 0: /proc/schedstat version 15, 1: 16, 2: 17) as perf writes them. */
static void
newest_body(struct pdbuf *b, uint32_t t, int v)
{
	char name[256] = "bpf_prog_1e0a2e366e56f1a2_filter", key[64] = "test_value",
	     val[256] = "42";
	uint16_t ver = (uint16_t)(15 + v);

	if (t == PF_REC_BPF_METADATA) {
		pd_bytes(b, name, sizeof name);
		pd_u64(b, 1);
		pd_bytes(b, key, sizeof key);
		pd_bytes(b, val, sizeof val);
		return;
	}
	pd_u64(b, 123456789);	/* timestamp */
	pd_u32(b, 3);		/* cpu */
	pd_u16(b, ver);
	if (t == PF_REC_SCHEDSTAT_CPU) {
		pd_u16(b, 0);	/* pad */
		for (uint32_t i = 0; i < 6; i++)
			pd_u32(b, 10 + i);
		for (uint32_t i = 0; i < 3; i++)
			pd_u64(b, 1000 + i);
		return;
	}
	pd_u16(b, 1);		/* domain */
	for (uint32_t i = 0; i < (ver == 17 ? 45u : 36u); i++)
		pd_u32(b, i);
	if (ver == 17)
		pd_u32(b, 0);	/* perf rounds the record up to 8 bytes */
}

/* The body of a perf-tool record of type t (variant v), record started at r. */
static void
tool_body(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a, size_t r)
{
	switch (t) {
	case PF_REC_ATTR:
		pd_attr(b,
		    v == 0     ? 128 :
			v == 1 ? PF_ATTR_SIZE_VER0 :
				 136,
		    PERF_TYPE_SOFTWARE, 0, 4000, TRAILER_ST, 0,
		    (1ull << 10) | (1ull << 18) | (3ull << 15));
		pd_u64(b, 100);
		pd_u64(b, 101);
		break;
	case PF_REC_EVENT_TYPE:
		pd_u64(b, 12);
		pd_str8(b, "cycles");
		break;
	case PF_REC_TRACING_DATA:
		pd_u32(b, 4096);
		break;
	case PF_REC_BUILD_ID:
		pd_u32(b, (uint32_t)-1);
		for (int i = 0; i < 20; i++)
			pd_u8(b, (uint8_t)i);
		pd_u8(b, 20);
		pd_zero(b, 3);
		pd_str8(b, "/usr/bin/foo");
		break;
	case PF_REC_FINISHED_ROUND:
	case PF_REC_FINISHED_INIT:
		break;
	case PF_REC_ID_INDEX:
		pd_u64(b, 2);
		for (int i = 0; i < 2; i++) {
			pd_u64(b, 100 + i);
			pd_u64(b, 0);
			pd_u64(b, i);
			pd_u64(b, 1234);
		}
		break;
	case PF_REC_AUXTRACE_INFO:
		pd_u32(b, 1);
		pd_u32(b, 0);
		for (int i = 0; i < 4; i++)
			pd_u64(b, i);
		break;
	case PF_REC_AUXTRACE:
		pd_u64(b, 0x12a70);
		pd_u64(b, 0);
		pd_u64(b, 0x3a717781f00ull);
		pd_u32(b, 0);
		pd_u32(b, 3587);
		pd_u32(b, 0);
		pd_u32(b, 0);
		break;
	default:
		tool_body_more(b, t, v, a, r);
		break;
	}
}

/* tool_body()'s later types, AUXTRACE_ERROR on, and unknown ones. */
static void
tool_body_more(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a, size_t r)
{
	switch (t) {
	case PF_REC_AUXTRACE_ERROR:
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_u32(b, 0);
		pd_u32(b, 1);
		pd_u32(b, 2);
		pd_u32(b, 2);
		pd_u64(b, 0x1234);
		pd_u64(b, 99);
		{
			char msg[64] = "overflow";

			pd_bytes(b, msg, sizeof msg);
		}
		pd_u32(b, 0);
		pd_u32(b, 0);
		break;
	case PF_REC_THREAD_MAP:
		pd_u64(b, 2);
		for (int i = 0; i < 2; i++) {
			char comm[16] = "worker";

			pd_u64(b, 1000 + i);
			pd_bytes(b, comm, 16);
		}
		break;
	case PF_REC_CPU_MAP:
		cpu_map_data(b, v);
		pad8(b, r);
		break;
	case PF_REC_STAT_CONFIG:
		pd_u64(b, 3);
		for (int i = 0; i < 3; i++) {
			pd_u64(b, i);
			pd_u64(b, i + 1);
		}
		break;
	case PF_REC_STAT:
		pd_u64(b, 11999);
		pd_u32(b, (uint32_t)-1);
		pd_u32(b, 0);
		pd_u64(b, 1);
		pd_u64(b, 2);
		pd_u64(b, 3);
		break;
	case PF_REC_STAT_ROUND:
		pd_u64(b, 1);
		pd_u64(b, 202457576);
		break;
	case PF_REC_EVENT_UPDATE:
		pd_u64(b, (uint64_t)v);
		pd_u64(b, 11680);
		if (v == 0) {
			pd_str8(b, "msec");
		} else if (v == 1) {
			double d = 0.000001;
			uint64_t u;

			memcpy(&u, &d, 8);
			pd_u64(b, u);
			pd_zero(b, 16);
		} else if (v == 2) {
			pd_str8(b, "cpu-clock:ppp");
		} else {
			cpu_map_data(b, 0);
			pad8(b, r);
		}
		break;
	case PF_REC_TIME_CONV:
		pd_u64(b, 31);
		pd_u64(b, 123);
		pd_u64(b, 456);
		pd_u64(b, 0);
		pd_u64(b, ~0ull);
		pd_u8(b, 1);
		pd_u8(b, 1);
		pd_zero(b, 6);
		break;
	case PF_REC_FEATURE:
		pd_u64(b, 3);
		pd_u32(b, 5);
		pd_bytes(b, "host", 5);
		pd_zero(b, 7);
		break;
	case PF_REC_COMPRESSED:
		pd_bytes(b, "\x28\xb5\x2f\xfd\x00\x00\x00\x00", 8);
		break;
	case PF_REC_COMPRESSED2:
		pd_u64(b, 5);
		pd_bytes(b, "\x28\xb5\x2f\xfd\x00", 5);
		pd_zero(b, 3);
		break;
	case PF_REC_BPF_METADATA:
	case PF_REC_SCHEDSTAT_CPU:
	case PF_REC_SCHEDSTAT_DOMAIN:
		newest_body(b, t, v);
		break;
	default:	/* unknown types */
		pd_u64(b, 1);
		pd_u64(b, 2);
		break;
	}
}

/* Write one record of type t (variant v) with plausible content; returns
 * its start, or SIZE_MAX if there is no such variant. */
static size_t
write_type(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a)
{
	size_t r;
	uint16_t misc = 0;

	if (t == PF_REC_MMAP2 && v == 1)
		misc = PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (t == PF_REC_SWITCH || t == PF_REC_SWITCH_CPU_WIDE)
		misc = PERF_RECORD_MISC_SWITCH_OUT;
	if (t == PF_REC_BUILD_ID)
		misc = 1u << 15;
	if ((t == PF_REC_CPU_MAP && v > 3) || (t == PF_REC_EVENT_UPDATE && v > 3) ||
	    (t != PF_REC_CPU_MAP && t != PF_REC_EVENT_UPDATE && t != PF_REC_MMAP2 &&
	    t != PF_REC_ATTR && t != PF_REC_SCHEDSTAT_CPU && t != PF_REC_SCHEDSTAT_DOMAIN &&
	    v > 0) || (t == PF_REC_MMAP2 && v > 1) || (t >= PF_REC_SCHEDSTAT_CPU && v > 2) ||
	    (t == PF_REC_ATTR && v > 2))
		return SIZE_MAX;
	r = pd_rec_begin(b, t, misc | PERF_RECORD_MISC_USER);
	if (t < PF_REC_USER_TYPE_START)
		kernel_body(b, t, v, a, r);
	else
		tool_body(b, t, v, a, r);
	if (t < PF_REC_USER_TYPE_START && t != PF_REC_SAMPLE)
		write_trailer(b, a->sample_type, 100);
	pd_rec_end(b, r);
	return r;
}

Test(fields, every_record_type_covered_once)
{
	static const uint32_t types[] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83,
		22, 84, 85, 86,
		0, 23, 63, 87, 200, 65535,
	};
	struct perf_event_attr a;

	base_attr(&a, TRAILER_ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	for (int swap = 0; swap < 2; swap++) {
		struct session s;
		struct pdbuf b = { .swap = swap };

		sess_init(&s, &a, 1);
		for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
			for (int v = 0; v < 5; v++) {
				size_t at = write_type(&b, types[k], v, &a);
				struct rec r;
				char sum[1024];
				const char *tn;
				char want[64];

				if (at == SIZE_MAX)
					continue;
				r = mkrec(&b, at);
				cr_assert_eq(describe(&s, &r), 0, "type %u/%d (swap %d) damaged",
				    types[k], v, swap);
				cr_assert(!any_bad(), "type %u/%d: bad field", types[k], v);
				cr_assert_eq(field_idx("extra"), -1, "type %u/%d: extra bytes",
				    types[k], v);
				cr_assert_eq(field_num("header.type"), types[k]);
				cr_assert_eq(field_num("header.size"), r.size);
				tn = record_type_name(types[k]);
				if (tn == NULL) {
					cr_assert_geq(field_idx("payload"), 0);
					snprintf(want, sizeof want, "PERF_RECORD_UNKNOWN%u", types[k]);
				} else {
					snprintf(want, sizeof want, "PERF_RECORD_%s", tn);
				}
				if (types[k] < PF_REC_USER_TYPE_START && types[k] != 9 && tn)
					cr_assert_eq(field_num("sample_id.identifier"), 100,
					    "type %u: no trailer", types[k]);
				fields_summary(&s, &r, sum, sizeof sum);
				cr_assert(strncmp(sum, want, strlen(want)) == 0, "%s", sum);
				cr_assert_null(strstr(sum, "damaged"), "%s", sum);
				/* Also without a session: still covered. */
				describe(NULL, &r);
			}
		}
		pd_free(&b);
		sess_free(&s);
	}
}

/* Values of a few typical fields and the summaries perf users know. */
Test(fields, values_and_summaries)
{
	struct perf_event_attr a;
	struct session s;
	struct pdbuf b = { 0 };
	struct rec r;
	size_t at;
	char sum[1024];

	base_attr(&a, TRAILER_ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	sess_init(&s, &a, 1);

	at = write_comm(&b, a.sample_type, 100, true);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_COMM exec: d_matmul:1234/1235");
	describe(&s, &r);
	cr_assert_str_eq(col.v[field_idx("comm")].value, "\"d_matmul\"");
	cr_assert_eq(field_num("sample_id.tid"), 12);

	at = write_type(&b, PF_REC_MMAP2, 0, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_MMAP2 1/2: [0x400000(0x1000) @ 0 08:01 1234 5]: "
	    "r-xp /usr/lib/libc.so.6");
	describe(&s, &r);
	cr_assert_str_eq(col.v[field_idx("filename")].value, "\"/usr/lib/libc.so.6\"");

	at = write_type(&b, PF_REC_MMAP2, 1, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_MMAP2 1/2: [0x400000(0x1000) @ 0 "
	    "<000102030405060708090a0b0c0d0e0f10111213>]: r-xp /usr/lib/libc.so.6");

	at = write_type(&b, PF_REC_CPU_MAP, 1, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_CPU_MAP: 0,2-3,5");
	at = write_type(&b, PF_REC_CPU_MAP, 2, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_CPU_MAP: 0-7");
	at = write_type(&b, PF_REC_CPU_MAP, 3, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_CPU_MAP: 0-1,32");

	at = write_type(&b, PF_REC_SAMPLE, 0, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_SAMPLE(IP, 0x2): 1/2: 0x1234 period: 1000 addr: 0 "
	    "time: 5 cpu: 1", "%s", sum);

	at = write_type(&b, PF_REC_ATTR, 0, &a);
	r = mkrec(&b, at);
	describe(&s, &r);
	cr_assert_eq(field_idx("attr.sample_period"), -1);	/* freq is set */
	cr_assert_eq(field_num("attr.sample_freq"), 4000);
	cr_assert_not_null(strstr(col.v[field_idx("attr.flags")].value, "precise_ip=3"));
	cr_assert_not_null(strstr(col.v[field_idx("attr.sample_type")].value, "IDENTIFIER"));
	cr_assert_eq(field_num("id[1]"), 101);
	pd_free(&b);
	sess_free(&s);
}

/* ---- through a real session: the synthetic recording of helpers.c ---- */

struct walkst {
	const struct session	*s;
	size_t			 n, samples;
};

static int
walk_check(void *arg, const struct rec *r, int depth)
{
	struct walkst *w = arg;
	char sum[1024];

	(void)depth;
	cr_assert_eq(describe(w->s, r), 0, "record at %#llx (type %u) damaged",
	    (unsigned long long)r->loc, r->type);
	cr_assert(!any_bad());
	fields_summary(w->s, r, sum, sizeof sum);
	cr_assert_null(strstr(sum, "damaged"), "%s", sum);
	if (r->type == PF_REC_SAMPLE) {
		struct sample smp;
		const char *why = NULL;

		cr_assert_eq(record_decode_sample(session_attrs(w->s), r, &smp, &why), 0, "%s", why);
		cr_assert_eq(smp.attr, 0);
		cr_assert_eq(field_num("time"), smp.time);
		w->samples++;
	} else if (r->type < PF_REC_USER_TYPE_START) {
		struct sample_id sid;

		cr_assert_eq(record_decode_sample_id(session_attrs(w->s), r, &sid), 0);
		cr_assert_eq(field_num("sample_id.time"), sid.time);
	}
	w->n++;
	return 0;
}

Test(fields, synthetic_recording_both_orders)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf b;
		struct perf_err err;
		struct session *s;
		struct walkst w = { 0 };
		char *path;

		synth_file(&b, swap, 12);
		path = tmp_write("rec", b.p, b.len);
		s = session_open(path, NULL, &err);
		cr_assert_not_null(s, "%s", err.msg);
		cr_assert_eq(s->swap, (bool)swap);
		w.s = s;
		session_walk(s, walk_check, &w);
		cr_assert_eq(w.n, synth_layout.nrecords);
		cr_assert_eq(w.samples, 12);
		session_close(s);
		unlink(path);
		free(path);
		pd_free(&b);
	}
}

/* Counts whose byte size overflows 64 bits are damage, not a wrap-around. */
Test(fields, huge_counts_in_other_records)
{
	static const uint32_t types[] = {
		PF_REC_THREAD_MAP, PF_REC_ID_INDEX, PF_REC_STAT_CONFIG, PF_REC_NAMESPACES,
	};
	static const uint64_t nrs[] = { 1ull << 60, 1ull << 59, UINT64_MAX, 3 };
	struct perf_event_attr a;
	struct session s;

	base_attr(&a, PERF_SAMPLE_IP);
	a.sample_id_all = 0;
	sess_init(&s, &a, 1);
	for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
		for (size_t i = 0; i < sizeof nrs / sizeof nrs[0]; i++) {
			struct pdbuf b = { 0 };
			size_t at = pd_rec_begin(&b, types[k], 0);
			struct rec r;
			char sum[256];

			if (types[k] == PF_REC_NAMESPACES) {
				pd_u32(&b, 1);
				pd_u32(&b, 1);
			}
			pd_u64(&b, nrs[i]);
			pd_u64(&b, 1);
			pd_u64(&b, 2);
			pd_rec_end(&b, at);
			r = mkrec(&b, at);
			cr_assert_eq(describe(&s, &r), -1, "type %u nr %#llx", types[k],
			    (unsigned long long)nrs[i]);
			cr_assert(any_bad());
			fields_summary(&s, &r, sum, sizeof sum);
			pd_free(&b);
		}
	}
	sess_free(&s);
}

/* ---- the summaries' number writers ---- */

/* Each sb_ writer leaves the buffer as sb_printf with its format does,
 * cut short ("...") in buffers of every small size too. */
Test(fields, sb_writers_as_printf)
{
	static const uint64_t vals[] = {
		0, 1, 9, 10, 15, 16, 99, 100, 255, 4096, 20000, 0x7fffffff, 0x80000000,
		0xffffffff, 723581897923ull, 0xffffffff814bba70ull, INT64_MAX, (uint64_t)INT64_MIN,
		UINT64_MAX - 1, UINT64_MAX,
	};

	for (size_t n = 0; n < 48; n++) {
		for (size_t pre = 0; pre < 4; pre++) {
			for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
				for (int k = 0; k < 5; k++) {
					char a[48], b[48];
					struct sbuf x, y;
					uint64_t v = vals[i];

					memset(a, 'z', sizeof a);
					memset(b, 'z', sizeof b);
					sb_init(&x, a, n);
					sb_init(&y, b, n);
					for (size_t j = 0; j < pre; j++) {
						sb_printf(&x, "ab");
						sb_lit(&y, "ab");
					}
					switch (k) {
					case 0:
						sb_printf(&x, "%" PRIu64, v);
						sb_u64(&y, v);
						break;
					case 1:
						sb_printf(&x, "%" PRId64, (int64_t)v);
						sb_i64(&y, (int64_t)v);
						break;
					case 2:
						sb_printf(&x, "%" PRIx64, v);
						sb_x64(&y, v, false);
						break;
					case 3:
						sb_printf(&x, "%#" PRIx64, v);
						sb_x64(&y, v, true);
						break;
					default:
						sb_printf(&x, "%s", "PERF_RECORD_SAMPLE");
						sb_cstr(&y, "PERF_RECORD_SAMPLE");
						break;
					}
					cr_assert_eq(x.len, y.len, "n %zu pre %zu v %#llx k %d", n, pre,
					    (unsigned long long)v, k);
					cr_assert(memcmp(a, b, sizeof a) == 0, "n %zu pre %zu v %#llx k %d: "
					    "'%.*s' '%.*s'", n, pre, (unsigned long long)v, k, (int)x.len, a,
					    (int)y.len, b);
				}
			}
		}
	}
}

/* ---- dump: every record once, in order, over many batches ---- */

/* What dump prints for each record, written here one record at a time. */
struct dump_want {
	const struct session	*s;
	char			*p;
	size_t			 len, cap;
	size_t			 n;
};

static int
dump_want_rec(void *arg, const struct rec *r, int depth)
{
	struct dump_want *w = arg;
	char line[8192], off[32];
	int k;

	cr_assert_eq(depth, 0);
	fields_summary(w->s, r, line, sizeof line);
	if (w->cap - w->len < sizeof line + 64) {
		w->cap = w->cap ? 2 * w->cap : 1 << 20;
		w->p = realloc(w->p, w->cap);
		cr_assert_not_null(w->p);
	}
	k = snprintf(w->p + w->len, w->cap - w->len, "%s [0x%x]: %s\n",
	    text_fmt_offset(off, sizeof off, session_rec_offset(w->s, r->loc, NULL)), r->size,
	    line);
	w->len += (size_t)k;
	w->n++;
	return 0;
}

/* perfnav dump of a recording of some 50,000 records (its batches are
 * formatted on two threads) prints each record's line once, in file order. */
Test(fields, dump_many_records_in_order)
{
	char path[] = "/tmp/perfnav-dump-XXXXXX", cmd[512];
	struct pdbuf b = { 0 };
	struct dump_want w = { 0 };
	struct perf_err err;
	struct session *s;
	char *out;
	size_t n = 0, cap = w.len;
	FILE *fp;
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	synth_file(&b, false, 40000);
	cr_assert_eq(write(fd, b.p, b.len), (ssize_t)b.len);
	close(fd);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s);
	w.s = s;
	session_walk(s, dump_want_rec, &w);
	cr_assert_eq(w.n, synth_layout.nrecords);
	cr_assert_gt(w.n, 40000);
	snprintf(cmd, sizeof cmd, "%s/perfnav dump %s", TEST_BUILDDIR, path);
	fp = popen(cmd, "r");
	cr_assert_not_null(fp);
	cap = w.len + (1 << 16);
	out = malloc(cap);
	cr_assert_not_null(out);
	for (size_t k; n < cap && (k = fread(out + n, 1, cap - n, fp)) > 0;)
		n += k;
	cr_assert_eq(pclose(fp), 0);
	/* after the "# PATH: file mode, little-endian" line, the records */
	cr_assert(n > 0 && out[0] == '#');
	{
		const char *nl = memchr(out, '\n', n);
		size_t head = nl ? (size_t)(nl - out) + 1 : n;

		cr_assert_eq(n - head, w.len);
		cr_assert(memcmp(out + head, w.p, w.len) == 0);
	}
	free(out);
	free(w.p);
	session_close(s);
	pd_free(&b);
	unlink(path);
}

/* The sample summary as sb_printf wrote it before its put_ writers (the
 * same pieces, each one sb_printf): the oracle of a cut line. */
static void
printf_summary(const struct session *s, const struct rec *r, char *buf, size_t n)
{
	struct sample smp;
	struct sbuf sb;
	const char *why = NULL;

	sb_init(&sb, buf, n);
	sb_printf(&sb, "PERF_RECORD_%s", "SAMPLE");
	sb_printf(&sb, "(IP, 0x%x): ", r->misc);
	if (record_decode_sample(session_attrs(s), r, &smp, &why) < 0) {
		sb_printf(&sb, "damaged: %s", why);
		return;
	}
	sb_printf(&sb, "%d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64,
	    (int32_t)smp.pid, (int32_t)smp.tid, smp.ip, smp.period, smp.addr);
	if (smp.sample_type & PERF_SAMPLE_TIME)
		sb_printf(&sb, " time: %" PRIu64, smp.time);
	if (smp.sample_type & PERF_SAMPLE_CPU)
		sb_printf(&sb, " cpu: %u", smp.cpu);
	if (s->attrs.n > 1 && smp.attr >= 0) {
		sb_printf(&sb, " event: ");
		sb_name(&sb, session_attr_name(s, smp.attr));
	}
	if (smp.sample_type & PERF_SAMPLE_CALLCHAIN)
		sb_printf(&sb, " callchain: %" PRIu64, smp.callchain_nr);
	if (smp.sample_type & PERF_SAMPLE_BRANCH_STACK)
		sb_printf(&sb, " branches: %" PRIu64, smp.branch_nr);
	if (smp.sample_type & PERF_SAMPLE_RAW)
		sb_printf(&sb, " raw: %u", smp.raw_size);
	if (smp.sample_type & PERF_SAMPLE_STACK_USER)
		sb_printf(&sb, " ustack: %" PRIu64 "/%" PRIu64, smp.stack_dyn_size, smp.stack_size);
}

/* A sample's summary cut at every buffer size is the printf-built one cut
 * alike: with an event name (escaped) and every counted part, and damaged. */
Test(fields, sample_summary_cut_as_printf)
{
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
	    PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_STACK_USER;
	struct perf_event_attr a[2];
	struct session s;
	struct pdbuf b = { 0 };
	size_t at;

	base_attr(&a[0], st);
	base_attr(&a[1], st);
	sess_init(&s, a, 2);
	s.attrs.v[1].name = strdup("cycles:\x1b[31mu-with-a-long-name\xff");
	at = pd_rec_begin(&b, PF_REC_SAMPLE, 0x4002);
	pd_u64(&b, 201);			/* IDENTIFIER: attr 1 */
	pd_u64(&b, 0xffffffff814bba70ull);	/* IP */
	pd_u32(&b, (uint32_t)-1);		/* pid -1 */
	pd_u32(&b, 30328);
	pd_u64(&b, 723581897923ull);		/* TIME */
	pd_u32(&b, 1);				/* CPU */
	pd_u32(&b, 0);
	pd_u64(&b, 20000);			/* PERIOD */
	pd_u64(&b, 2);				/* CALLCHAIN */
	pd_u64(&b, (uint64_t)-512);
	pd_u64(&b, 0x401000);
	pd_u32(&b, 4);				/* RAW: 4 bytes, then no padding */
	pd_u32(&b, 0xdeadbeef);
	pd_u64(&b, 1);				/* BRANCH_STACK */
	pd_u64(&b, 1);
	pd_u64(&b, 2);
	pd_u64(&b, 3);
	pd_u64(&b, 16);				/* STACK_USER */
	pd_zero(&b, 16);
	pd_u64(&b, 8);
	pd_rec_end(&b, at);
	for (int damaged = 0; damaged < 2; damaged++) {
		struct rec r = mkrec(&b, at);

		if (damaged)
			r.size -= 8;
		for (size_t n = 0; n < 300; n++) {
			char x[300], y[300];
			size_t k;

			memset(x, 'z', sizeof x);
			memset(y, 'z', sizeof y);
			printf_summary(&s, &r, x, n);
			k = fields_summary(&s, &r, y, n);
			cr_assert(memcmp(x, y, sizeof x) == 0, "n %zu: '%s' '%s'", n, n ? x : "",
			    n ? y : "");
			cr_assert_eq(k, n ? strlen(y) : 0);
		}
	}
	pd_free(&b);
	sess_free(&s);
}

/* A record of type t (variant v) as every_record_type_covered_once writes
 * it, its summary into sum; the record. */
static struct rec
newest(struct pdbuf *b, const struct session *s, const struct perf_event_attr *a, uint32_t t,
    int v, char *sum, size_t n)
{
	size_t at = write_type(b, t, v, a);
	struct rec r = mkrec(b, at);

	cr_assert_eq(describe(s, &r), 0, "type %u/%d damaged", t, v);
	fields_summary(s, &r, sum, n);
	return r;
}

/* The newest records (perf 6.13 to 6.18 and after): perf's dump text on one
 * line, their fields by name, in both byte orders. */
Test(fields, newest_records_dump_text)
{
	struct perf_event_attr a;
	char sum[2048];
	const char *why;

	base_attr(&a, TRAILER_ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	for (int swap = 0; swap < 2; swap++) {
		struct session s;
		struct pdbuf b = { .swap = swap };
		struct rec r;

		sess_init(&s, &a, 1);
		r = newest(&b, &s, &a, 22, 0, sum, sizeof sum);
		cr_expect_str_eq(sum, "PERF_RECORD_CALLCHAIN_DEFERRED(IP, 0x2): 11/12: 0xc0c0 nr: 3");
		cr_expect_eq(field_num("cookie"), 0xc0c0);
		cr_expect_eq(field_num("ips[2]"), 0x401100);
		cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), 0);
		r = newest(&b, &s, &a, PF_REC_BPF_METADATA, 0, sum, sizeof sum);
		cr_expect_str_eq(sum, "PERF_RECORD_BPF_METADATA prog bpf_prog_1e0a2e366e56f1a2_filter"
		    "  entry 0:           test_value = 42");
		cr_expect_eq(field_num("nr_entries"), 1);
		cr_expect_geq(field_idx("entries[0].value"), 0);
		r = newest(&b, &s, &a, PF_REC_SCHEDSTAT_CPU, 0, sum, sizeof sum);
		cr_expect_str_eq(sum, "PERF_RECORD_SCHEDSTAT_CPU cpu3 10 11 12 13 14 15 1000 1001 1002");
		cr_expect_eq(field_num("version"), 15);
		cr_expect_eq(field_num("run_delay"), 1001);
		cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), 0);
		r = newest(&b, &s, &a, PF_REC_SCHEDSTAT_DOMAIN, 0, sum, sizeof sum);
		cr_expect_eq(strncmp(sum, "PERF_RECORD_SCHEDSTAT_DOMAIN domain1 0 1 2 3 ", 45), 0, "%s", sum);
		cr_expect_str_eq(sum + strlen(sum) - 6, " 34 35");
		cr_expect_eq(field_num("idle_lb_count"), 0);	/* version 15: idle first */
		cr_expect_eq(field_num("busy_lb_count"), 8);
		r = newest(&b, &s, &a, PF_REC_SCHEDSTAT_DOMAIN, 1, sum, sizeof sum);
		cr_expect_eq(field_num("busy_lb_count"), 0);	/* version 16: busy first */
		cr_expect_eq(field_num("ttwu_move_balance"), 35);
		r = newest(&b, &s, &a, PF_REC_SCHEDSTAT_DOMAIN, 2, sum, sizeof sum);
		cr_expect_str_eq(sum + strlen(sum) - 6, " 43 44");
		cr_expect_eq(field_num("busy_lb_imbalance_misfit"), 6);
		cr_expect_eq(field_num("idle_lb_count"), 11);
		cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), 0);
		pd_free(&b);
		sess_free(&s);
	}
}

/* Damaged instances: a deferred chain, BPF metadata entries and schedstat
 * counters running past their record are named, and a schedstat version
 * perf does not know is said as perf says it. */
Test(fields, newest_records_damaged)
{
	struct perf_event_attr a;
	struct session s;
	struct pdbuf b = { .swap = 1 };
	const char *why;
	char sum[1024];
	struct rec r;
	size_t at;

	base_attr(&a, TRAILER_ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	sess_init(&s, &a, 1);
	at = pd_rec_begin(&b, 22, PERF_RECORD_MISC_USER);
	pd_u64(&b, 7);
	pd_u64(&b, 9);		/* 9 ips, 1 there */
	pd_u64(&b, 0x401000);
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), -1);
	cr_expect_str_eq(why, "callchain runs past the record");
	cr_expect_eq(describe(&s, &r), -1);
	at = pd_rec_begin(&b, PF_REC_BPF_METADATA, 0);
	pd_zero(&b, 256);
	pd_u64(&b, 2);		/* 2 entries, 1 there */
	pd_zero(&b, 320);
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), -1);
	cr_expect_str_eq(why, "nr_entries runs past the record");
	cr_expect_eq(describe(&s, &r), -1);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_expect_not_null(strstr(sum, "damaged"), "%s", sum);
	at = pd_rec_begin(&b, PF_REC_BPF_METADATA, 0);
	pd_zero(&b, 200);	/* not even its name */
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), -1);
	cr_expect_eq(describe(&s, &r), -1);
	at = pd_rec_begin(&b, PF_REC_SCHEDSTAT_DOMAIN, 0);
	pd_u64(&b, 1);
	pd_u32(&b, 0);
	pd_u16(&b, 17);
	pd_u16(&b, 0);
	pd_zero(&b, 40 * 4);	/* 45 counters in version 17 */
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), -1);
	cr_expect_str_eq(why, "shorter than its schedstat version's fields");
	cr_expect_eq(describe(&s, &r), -1);
	at = pd_rec_begin(&b, PF_REC_SCHEDSTAT_CPU, 0);
	pd_u64(&b, 1);
	pd_u32(&b, 2);
	pd_u16(&b, 18);
	pd_u16(&b, 0);
	pd_zero(&b, 8);
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_expect_eq(record_check(session_attrs(&s), &r, NULL, &why), 0);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_expect_str_eq(sum, "PERF_RECORD_SCHEDSTAT_CPU cpu2 Unsupported /proc/schedstat version 18.");
	pd_free(&b);
	sess_free(&s);
}
