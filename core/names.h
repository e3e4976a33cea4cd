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

/* perf's clockid names ("monotonic"), or "(not found)". */
const char *names_clockid(int64_t clockid);

#endif
