/*
 * feature_int.h: what the files of core/feature*.c share; not for use
 * outside them.
 *
 * Every feature section has one entry in feature_table[] (feature_table.c):
 * how it decodes, how its data is freed, the rows "perfnav header" prints
 * for it (perf's lines) and perfnav's own summary rows.  The decoders live
 * in feature.c (feature_bpf.c, feature_trace.c for the larger ones), the
 * describers in feature_desc.c (and feature_attr.c for EVENT_DESC).
 */
#ifndef PERFNAV_CORE_FEATURE_INT_H
#define PERFNAV_CORE_FEATURE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "core/feature.h"
#include "core/text.h"

struct feat_entry;

/* One decoding: the cursor over the section, and why it failed. */
struct feat_dec {
	struct cursor			 c;
	struct features			*f;
	const struct feat_entry		*e;
	char				 why[160];
};

/* One description: the rows go to out; strings are escaped with esc. */
struct feat_desc {
	const struct features		*f;
	const struct attr_table		*attrs;	/* may be NULL */
	const struct feat_entry		*e;
	unsigned			 bit;
	struct feat_rows		*out;
	struct text_buf			 esc[4];
	unsigned			 next;
};

enum {
	FEAT_F_EMPTY_OK = 1 << 0,	/* an empty section is complete (a flag) */
	FEAT_F_RAW = 1 << 1,		/* kept raw: decoding picks out what it can */
	FEAT_F_DESC_DAMAGED = 1 << 2,	/* perf describes it even when undecodable */
};

/* One feature section: what perfnav does with it. */
struct feat_entry {
	/* Decode the section at d->c into d->f; 0, or -1 with d->why set.
	 * NULL: nothing to decode (the section's presence says it all). */
	int		(*decode)(struct feat_dec *d);
	/* Free what decode put in f (a string section's string is freed by
	 * features_free() itself); NULL: nothing. */
	void		(*free)(struct features *f);
	/* Add the rows perf prints for the section (decoded, or damaged with
	 * FEAT_F_DESC_DAMAGED); NULL: perf prints nothing. */
	void		(*describe)(struct feat_desc *d);
	/* Add perfnav's own rows (printed after the section list, in the
	 * order of notes_rank, 1 first); NULL: none. */
	void		(*notes)(struct feat_desc *d);
	unsigned	 flags;
	unsigned	 notes_rank;
	/* For the string sections: the char * field (offsetof) and perf's label. */
	size_t		 str_off;
	const char	*label;
};

/* Indexed by bit; an entry with no decode, free nor describe is unknown. */
extern const struct feat_entry feature_table[PF_FEAT_LAST_KNOWN + 1];

/* ---- decoding (feature.c) ----
 * Each feature_*dec* reads d->c into d->f and returns 0, or -1 with d->why
 * set (what it read so far stays, to be freed); each free leaves its
 * fields empty. */

int feat_fail(struct feat_dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether nr entries of at least each bytes can still follow. */
bool feat_fits(const struct cursor *c, uint64_t nr, size_t each);

int feature_dec_string(struct feat_dec *d);
int feature_dec_build_id(struct feat_dec *d);
void feature_free_build_ids(struct features *f);
int feature_dec_nrcpus(struct feat_dec *d);
int feature_dec_total_mem(struct feat_dec *d);
int feature_dec_cmdline(struct feat_dec *d);
void feature_free_cmdline(struct features *f);
int feature_dec_event_desc(struct feat_dec *d);
void feature_free_events(struct features *f);
int feature_dec_cpu_topology(struct feat_dec *d);
void feature_free_topology(struct features *f);
int feature_dec_numa(struct feat_dec *d);
void feature_free_numa(struct features *f);
int feature_dec_pmu_mappings(struct feat_dec *d);
void feature_free_pmus(struct features *f);
int feature_dec_group_desc(struct feat_dec *d);
void feature_free_groups(struct features *f);
int feature_dec_auxtrace(struct feat_dec *d);
void feature_free_auxtrace(struct features *f);
int feature_dec_cache(struct feat_dec *d);
void feature_free_caches(struct features *f);
int feature_dec_sample_time(struct feat_dec *d);
int feature_dec_mem_topology(struct feat_dec *d);
void feature_free_mem(struct features *f);
int feature_dec_clockid(struct feat_dec *d);
int feature_dec_dir_format(struct feat_dec *d);
int feature_dec_compressed(struct feat_dec *d);
int feature_dec_cpu_pmu_caps(struct feat_dec *d);
void feature_free_cpu_pmu_caps(struct features *f);
int feature_dec_clock_data(struct feat_dec *d);
int feature_dec_hybrid(struct feat_dec *d);
void feature_free_hybrid(struct features *f);
int feature_dec_pmu_caps(struct feat_dec *d);
int feature_dec_cpu_domain(struct feat_dec *d);
void feature_free_cpu_domain(struct features *f);
int feature_dec_e_machine(struct feat_dec *d);
int feature_dec_cln_size(struct feat_dec *d);
void feature_free_pmu_caps(struct features *f);

/* feature_bpf.c */
int feature_bpf_dec_progs(struct feat_dec *d);
void feature_bpf_free_progs(struct features *f);
int feature_bpf_dec_btf(struct feat_dec *d);
void feature_bpf_free_btf(struct features *f);

/* feature_trace.c */
int feature_trace_dec(struct feat_dec *d);
void feature_trace_free(struct features *f);

/* ---- describing (feature_desc.c, feature_attr.c) ----
 * Each feature_desc_* adds the rows perf prints for d->f's section,
 * feature_notes_* perfnav's own; none fails. */

/* A growable string; zero-initialize. */
struct feat_str {
	char	*p;
	size_t	 len, cap;
};

void feat_str_addf(struct feat_str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string built (owned by the caller; "" when nothing was added); s is empty again. */
char *feat_str_take(struct feat_str *s);

/* s escaped (core/text.h, flags 0); one of 4 buffers reused in turn. NULL reads as "". */
const char *feat_esc(struct feat_desc *d, const char *s);
/* Add a row owning label and value (value NULL: the label is the line). */
struct feat_row *feat_row_take(struct feat_desc *d, const char *lead, char *label, const char *sep,
    char *value);
/* Add a row: label copied, value formatted (fmt NULL: no value). */
struct feat_row *feat_rowf(struct feat_desc *d, const char *lead, const char *label,
    const char *sep, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

void feature_desc_string(struct feat_desc *d);
void feature_desc_nrcpus(struct feat_desc *d);
void feature_desc_total_mem(struct feat_desc *d);
void feature_desc_cmdline(struct feat_desc *d);
void feature_desc_cpu_topology(struct feat_desc *d);
void feature_desc_numa(struct feat_desc *d);
void feature_desc_branch_stack(struct feat_desc *d);
void feature_desc_pmu_mappings(struct feat_desc *d);
void feature_desc_group_desc(struct feat_desc *d);
void feature_desc_auxtrace(struct feat_desc *d);
void feature_desc_stat(struct feat_desc *d);
void feature_desc_cache(struct feat_desc *d);
void feature_desc_sample_time(struct feat_desc *d);
void feature_desc_mem_topology(struct feat_desc *d);
void feature_desc_clockid(struct feat_desc *d);
void feature_desc_dir_format(struct feat_desc *d);
void feature_desc_bpf_progs(struct feat_desc *d);
void feature_desc_btf(struct feat_desc *d);
void feature_desc_compressed(struct feat_desc *d);
void feature_desc_cpu_pmu_caps(struct feat_desc *d);
void feature_desc_clock_data(struct feat_desc *d);
void feature_desc_hybrid(struct feat_desc *d);
void feature_desc_pmu_caps(struct feat_desc *d);
void feature_desc_cpu_domain(struct feat_desc *d);
void feature_desc_e_machine(struct feat_desc *d);
void feature_desc_cln_size(struct feat_desc *d);
void feature_notes_build_ids(struct feat_desc *d);
void feature_notes_tracing(struct feat_desc *d);
void feature_notes_bpf_progs(struct feat_desc *d);
void feature_notes_btf(struct feat_desc *d);
void feature_notes_auxtrace(struct feat_desc *d);

/* feature_attr.c: EVENT_DESC as perf prints it. */
void feature_desc_event_desc(struct feat_desc *d);

#endif
