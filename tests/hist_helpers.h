/* Helpers of the hist tests: frames, samples and hists without a session. */
#ifndef PERFNAV_TESTS_HIST_HELPERS_H
#define PERFNAV_TESTS_HIST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"

/* A resolved frame: symbol sym of DSO dso (labelled "[.] s<sym>" without a symbolizer). */
struct frame hh_frame(uint32_t dso, uint32_t sym, uint64_t ip);
/* Add a sample of thread tid (pid tid, cpu tid % 2) with chain[0] as its ip. */
void hh_add(struct hist *h, int attr, const char *comm, int32_t tid, uint64_t period,
    const struct frame *chain, size_t n);
/* A hist without session or symbolizer keyed by keys ("comm,dso,sym"). */
struct hist *hh_new(const char *keys, bool children, bool callgraph);
/* The row of event ev whose key k reads text, or NULL. */
const struct hist_entry *hh_row(struct hist *h, size_t ev, enum hist_key k, const char *text);

/* Event ev of a finished h as text into fp: its totals, then every row's counts and key texts. */
void hh_dump_event(FILE *fp, struct hist *h, size_t ev);

#endif
