/*
 * names.h: event names made from an attr, the way perf names an event
 * when the recording gives none ("cycles", "cpu-clock:ppp",
 * "L1-dcache-load-misses", "raw 0x1c4", "mem:0x1000:w"), and the
 * modifier suffixes perf appends (":u", ":k", ":ppp", ":H", ...).
 *
 * The functions write into a buffer the caller owns; they never fail
 * (an unknown type gives perf's "unknown attr type: N").
 */
#ifndef PERFNAV_CORE_NAMES_H
#define PERFNAV_CORE_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/*
 * The full name perf shows for an attr that has no name in the file:
 * base name plus modifiers.  A tracepoint gets "unknown tracepoint", as in
 * perf without tracing data; see names_tracepoint() for the real name.
 */
void names_event_name(const struct perf_event_attr *a, char *buf, size_t n);

/*
 * The modifier suffix perf appends to a made-up name (":u", ":ppp", ":HG",
 * or "" for none), including the colon.  Returns its length.
 */
size_t names_modifiers(const struct perf_event_attr *a, char *buf, size_t n);

/* Name of a PERF_TYPE_HARDWARE / PERF_TYPE_SOFTWARE config without
 * modifiers, or NULL if perf has none. */
const char *names_hw(uint64_t config);
const char *names_sw(uint64_t config);

/* "L1-dcache-load-misses" for a PERF_TYPE_HW_CACHE config (or perf's
 * "unknown-ext-hardware-cache-..."/"invalid-cache"), no modifiers. */
void names_hw_cache(uint64_t config, char *buf, size_t n);

/*
 * sample_type bits, in the order perf prints them: X(bit, NAME, PERF)
 * where PERF says whether perf 6.1's header printer knows the bit.
 */
#define NAMES_SAMPLE_BITS(X) \
	X(0, IP, 1) X(1, TID, 1) X(2, TIME, 1) X(3, ADDR, 1) X(4, READ, 1) \
	X(5, CALLCHAIN, 1) X(6, ID, 1) X(7, CPU, 1) X(8, PERIOD, 1) X(9, STREAM_ID, 1) \
	X(10, RAW, 1) X(11, BRANCH_STACK, 1) X(12, REGS_USER, 1) X(13, STACK_USER, 1) \
	X(16, IDENTIFIER, 1) X(18, REGS_INTR, 1) X(15, DATA_SRC, 1) X(14, WEIGHT, 1) \
	X(19, PHYS_ADDR, 1) X(20, AUX, 1) X(21, CGROUP, 1) X(22, DATA_PAGE_SIZE, 1) \
	X(23, CODE_PAGE_SIZE, 1) X(24, WEIGHT_STRUCT, 1) X(17, TRANSACTION, 0)

/* read_format bits: X(bit, NAME) */
#define NAMES_READ_FORMAT_BITS(X) \
	X(0, TOTAL_TIME_ENABLED) X(1, TOTAL_TIME_RUNNING) X(2, ID) X(3, GROUP) X(4, LOST)

enum names_bits_style {
	NAMES_BITS_ALL,		/* every set bit; unknown ones as "bitN" */
	NAMES_BITS_PERF,	/* only what perf's header prints, in its order */
};

/*
 * "IP|TID|TIME" for a sample_type / read_format value (never NULL;
 * "" for 0).  Writes into buf; returns buf.
 */
const char *names_sample_type(uint64_t v, enum names_bits_style style, char *buf, size_t n);
const char *names_read_format(uint64_t v, enum names_bits_style style, char *buf, size_t n);

/* perf's clockid names ("monotonic"), or "(not found)". */
const char *names_clockid(int64_t clockid);

#endif
