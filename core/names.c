#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "core/names.h"

static const char *const hw_names[] = {
	"cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branches",
	"branch-misses",
	"bus-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock",
	"task-clock",
	"page-faults",
	"context-switches",
	"cpu-migrations",
	"minor-faults",
	"major-faults",
	"alignment-faults",
	"emulation-faults",
	"dummy",
	"bpf-output",
	"cgroup-switches",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* First spelling of each cache, op and result, as perf prints them. */
static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
static const char *const cache_op_names[] = { "load", "store", "prefetch" };
static const char *const cache_op_plural[] = { "loads", "stores", "prefetches" };
static const char *const cache_result_names[] = { "refs", "misses" };

/* Which ops perf considers valid for each cache (bit = op). */
static const uint8_t cache_ops_valid[] = {
	7,	/* L1D: read, write, prefetch */
	5,	/* L1I: read, prefetch */
	7,	/* LL */
	7,	/* DTLB */
	1,	/* ITLB: read */
	1,	/* BPU: read */
	7,	/* NODE */
};

const char *
names_hw(uint64_t config)
{
	return config < NELEM(hw_names) ? hw_names[config] : NULL;
}

const char *
names_sw(uint64_t config)
{
	return config < NELEM(sw_names) ? sw_names[config] : NULL;
}

void
names_hw_cache(uint64_t config, char *buf, size_t n)
{
	unsigned type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= NELEM(cache_names))
		snprintf(buf, n, "unknown-ext-hardware-cache-type");
	else if (op >= NELEM(cache_op_names))
		snprintf(buf, n, "unknown-ext-hardware-cache-op");
	else if (res >= NELEM(cache_result_names))
		snprintf(buf, n, "unknown-ext-hardware-cache-result");
	else if (!(cache_ops_valid[type] & (1u << op)))
		snprintf(buf, n, "invalid-cache");
	else if (res != 0)
		snprintf(buf, n, "%s-%s-%s", cache_names[type], cache_op_names[op],
		    cache_result_names[res]);
	else
		snprintf(buf, n, "%s-%s", cache_names[type], cache_op_plural[op]);
}

/* Append c to buf (of n bytes) at *len, keeping it NUL-terminated. */
static void
put_char(char *buf, size_t n, size_t *len, char c)
{
	if (n == 0)
		return;
	if (*len + 1 < n) {
		buf[*len] = c;
		buf[*len + 1] = '\0';
	}
	(*len)++;
}

size_t
names_modifiers(const struct perf_event_attr *a, char *buf, size_t n)
{
	size_t len = 0;
	bool guest_default = false;

	if (n > 0)
		buf[0] = '\0';
	/* The colon is written first and dropped again if nothing follows. */
	put_char(buf, n, &len, ':');
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			put_char(buf, n, &len, 'k');
		if (!a->exclude_user)
			put_char(buf, n, &len, 'u');
		if (!a->exclude_hv)
			put_char(buf, n, &len, 'h');
		guest_default = true;
	}
	if (a->precise_ip) {
		for (unsigned i = 0; i < a->precise_ip && i < 3; i++)
			put_char(buf, n, &len, 'p');
		guest_default = true;
	}
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			put_char(buf, n, &len, 'H');
		if (!a->exclude_guest)
			put_char(buf, n, &len, 'G');
	}
	if (len == 1) {
		if (n > 0)
			buf[0] = '\0';
		return 0;
	}
	return len;
}

void
names_event_name(const struct perf_event_attr *a, char *buf, size_t n)
{
	char base[128];
	char mods[16];
	const char *s;
	bool add_mods = true;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		s = names_hw(a->config);
		snprintf(base, sizeof base, "%s", s ? s : "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		s = names_sw(a->config);
		snprintf(base, sizeof base, "%s", s ? s : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		names_hw_cache(a->config, base, sizeof base);
		break;
	case PERF_TYPE_RAW:
		snprintf(base, sizeof base, "raw 0x%" PRIx64, (uint64_t)a->config);
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf(base, sizeof base, "unknown tracepoint");
		add_mods = false;
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf(base, sizeof base, "mem:0x%" PRIx64 ":%s%s%s", (uint64_t)a->bp_addr,
		    (a->bp_type & HW_BREAKPOINT_R) ? "r" : "",
		    (a->bp_type & HW_BREAKPOINT_W) ? "w" : "",
		    (a->bp_type & HW_BREAKPOINT_X) ? "x" : "");
		break;
	default:
		snprintf(base, sizeof base, "unknown attr type: %d", (int)a->type);
		add_mods = false;
		break;
	}
	if (add_mods)
		names_modifiers(a, mods, sizeof mods);
	else
		mods[0] = '\0';
	snprintf(buf, n, "%s%s", base, mods);
}

const char *
names_clockid(int64_t clockid)
{
	switch (clockid) {
	case 1:
		return "monotonic";
	case 4:
		return "monotonic_raw";
	case 0:
		return "realtime";
	case 7:
		return "boottime";
	case 11:
		return "tai";
	default:
		return "(not found)";
	}
}

struct bit_name {
	uint8_t		 bit;
	bool		 perf;
	const char	*name;
};

static const struct bit_name sample_bit_table[] = {
#define X(b, n, perf) { b, perf, #n },
	NAMES_SAMPLE_BITS(X)
#undef X
};

static const struct bit_name read_bit_table[] = {
#define X(b, n) { b, true, #n },
	NAMES_READ_FORMAT_BITS(X)
#undef X
};

static const char *
format_bits(uint64_t v, const struct bit_name *t, size_t nt, enum names_bits_style style,
    char *buf, size_t n)
{
	size_t o = 0;
	uint64_t known = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < nt; i++) {
		uint64_t m = UINT64_C(1) << t[i].bit;

		known |= m;
		if (!(v & m) || (style == NAMES_BITS_PERF && !t[i].perf) || o >= n)
			continue;
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "|" : "", t[i].name);
	}
	for (unsigned b = 0; style == NAMES_BITS_ALL && b < 64 && o < n; b++)
		if ((v & ~known) >> b & 1)
			o += (size_t)snprintf(buf + o, n - o, "%sbit%u", o ? "|" : "", b);
	return buf;
}

const char *
names_sample_type(uint64_t v, enum names_bits_style style, char *buf, size_t n)
{
	return format_bits(v, sample_bit_table, sizeof sample_bit_table / sizeof sample_bit_table[0],
	    style, buf, n);
}

const char *
names_read_format(uint64_t v, enum names_bits_style style, char *buf, size_t n)
{
	return format_bits(v, read_bit_table, sizeof read_bit_table / sizeof read_bit_table[0],
	    style, buf, n);
}
