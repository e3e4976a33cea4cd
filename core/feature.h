/*
 * feature.h: the header feature sections (file mode) and HEADER_FEATURE
 * records (pipe mode), decoded into plain data.
 *
 * Every announced section keeps its file offset, size and decode status
 * even when its content cannot be decoded.  Decoded strings and arrays are
 * owned by struct features and freed by features_free().
 *
 * Each section has one entry in the feature table (core/feature_table.c,
 * core/feature_int.h): its decoder, its free, and its describer, which
 * gives the rows "perfnav header" prints and the header pane shows.
 */
#ifndef PERFNAV_CORE_FEATURE_H
#define PERFNAV_CORE_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "core/err.h"
#include "core/perf_file.h"

struct attr_table;

enum feat_status {
	FEAT_ABSENT = 0,	/* bit not set */
	FEAT_OK,		/* decoded */
	FEAT_MISSING,		/* announced, but the section lies beyond EOF or is empty */
	FEAT_SIZE_MISMATCH,	/* decoded content does not fill the section exactly */
	FEAT_UNDECODABLE,	/* content does not parse */
	FEAT_RAW,		/* kept raw on purpose (TRACING_DATA, unknown bits) */
};

const char *feat_status_name(enum feat_status st);
/* "HOSTNAME", or NULL for a bit perf does not define. */
const char *feat_name(unsigned bit);

struct feat_sec {
	bool			 present;
	uint64_t		 offset;	/* file offset of the section */
	uint64_t		 size;
	enum feat_status	 status;
	char			*why;		/* for non-OK statuses */
};

/* perf's PERF_RECORD_MISC_BUILD_ID_SIZE: byte 20 of build_id holds its size. */
#define PF_MISC_BUILD_ID_SIZE	(1 << 15)

struct feat_build_id {
	int32_t		 pid;
	uint16_t	 misc;
	uint8_t		 id[20];
	uint8_t		 id_len;	/* 20, or the size given by perf >= 5.x */
	char		*filename;
};

/* EVENT_DESC: one event as the section describes it. */
struct feat_event_desc {
	struct perf_event_attr	 attr;		/* native byte order */
	uint32_t		 attr_size;	/* on-disk stride */
	char			*name;
	uint64_t		*ids;
	uint32_t		 nids;
};

/* CPU_TOPOLOGY: per cpu ids (newer perf). */
struct feat_cpu_ids {
	uint32_t	core_id, socket_id, die_id;
};

/* NUMA_TOPOLOGY */
struct feat_numa_node {
	uint32_t	 node;
	uint64_t	 mem_total, mem_free;	/* kB */
	char		*cpus;			/* cpu list as written */
};

/* PMU_MAPPINGS */
struct feat_pmu_map {
	uint32_t	 type;
	char		*name;
};

/* GROUP_DESC */
struct feat_group {
	char		*name;		/* "{anon_group}" for unnamed groups */
	uint32_t	 leader_idx, nr_members;
};

/* CACHE */
struct feat_cache {
	uint32_t	 level, line_size, sets, ways;
	char		*type, *size, *map;
};

/* MEM_TOPOLOGY: one node and its memory blocks as a bitmap. */
struct feat_mem_node {
	uint64_t	 node, size;
	uint64_t	 nbits;		/* bits in the bitmap */
	uint64_t	*bits;		/* (nbits + 63) / 64 words */
};

/* CPU_PMU_CAPS / PMU_CAPS: capabilities of one PMU, each "name=value". */
struct feat_pmu_caps {
	char		*pmu_name;	/* NULL for CPU_PMU_CAPS ("cpu") */
	char		**caps;
	uint32_t	 nr_caps;
};

/* HYBRID_TOPOLOGY */
struct feat_hybrid_node {
	char		*pmu_name, *cpus;
};

/* CPU_DOMAIN_INFO: one scheduler domain of one cpu, from /proc/schedstat. */
struct feat_domain {
	uint32_t	 cpu, domain;
	char		*dname;		/* schedstat version 17 on; NULL before */
	char		*cpumask, *cpulist;
};

/* BPF_PROG_INFO: what perf shows of one program (native files only). */
struct feat_bpf_sub {
	uint64_t	addr;
	uint32_t	len;
	uint8_t		tag[8];
	uint32_t	btf_type_id;	/* from func_info, 0 if none */
};

struct feat_bpf_prog {
	uint32_t		 id;
	uint32_t		 btf_id;
	char			 name[17];
	bool			 printable;	/* sub-program arrays agree */
	bool			 has_func_info;
	struct feat_bpf_sub	*subs;
	uint32_t		 nsubs;
	uint32_t		 seq;		/* position in the section */
};

/* BPF_BTF: one BTF blob, copied. */
struct feat_btf {
	uint32_t	 id;
	uint32_t	 size;
	uint8_t		*data;
	uint32_t	 seq;		/* position in the section */
};

/* Tracepoint id -> "sys:name", from TRACING_DATA's event formats. */
struct feat_tracepoint {
	uint64_t	 id;
	char		*name;
};

/*
 * The decoded content of every section.  Fields of absent or undecodable
 * sections stay zero/NULL.
 */
/* Of struct features: the machine's topology sections. */
struct feat_topo {
	/* CPU_TOPOLOGY: NUL-separated lists, as perf keeps them. */
	char			**sibling_cores, **sibling_dies, **sibling_threads;
	uint32_t		 nr_sibling_cores, nr_sibling_dies, nr_sibling_threads;
	struct feat_cpu_ids	*cpu_ids;	/* nr_cpus_avail entries, or NULL */
	uint32_t		 ncpu_ids;
	/* NUMA_TOPOLOGY */
	struct feat_numa_node	*numa;
	uint32_t		 nnuma;
	/* HYBRID_TOPOLOGY */
	struct feat_hybrid_node	*hybrid;
	uint32_t		 nhybrid;
	/* CPU_DOMAIN_INFO: the domains in section order, cpu after cpu */
	uint32_t		 schedstat_version, max_sched_domains;
	struct feat_domain	*domains;
	uint32_t		 ndomains;
	uint32_t		 ndomain_cpus;	/* cpus listed (one with no domain too) */
	/* MEM_TOPOLOGY */
	uint64_t		 mem_version, mem_block_size;
	struct feat_mem_node	*mem_nodes;
	uint64_t		 nmem_nodes;
};

/* Of struct features: what the BPF sections list. */
struct feat_bpf {
	uint32_t		 bpf_prog_count;	/* as announced */
	struct feat_bpf_prog	*bpf_progs;
	uint32_t		 nbpf_progs;
	uint32_t		 btf_count;
	struct feat_btf		*btfs;
	uint32_t		 nbtfs;
};

/* Of struct features: COMPRESSED (zstd) and CLOCK_DATA. */
struct feat_comp {
	uint32_t		 comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
};

struct feat_clock {
	uint32_t		 clock_data_ver, clock_data_clockid;
	uint64_t		 clock_data_tod_ns, clock_data_clockid_ns;
};

struct features {
	struct feat_sec		 sec[PF_FEAT_BITS];

	char			*hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t		 nr_cpus_online, nr_cpus_avail;
	uint64_t		 total_mem;	/* kB */
	char			**cmdline;
	uint32_t		 cmdline_n;

	struct feat_build_id	*build_ids;
	size_t			 n_build_ids, cap_build_ids;

	uint64_t		 sample_time_first, sample_time_last;
	uint64_t		 clockid_res_ns;
	/* DIR_FORMAT */
	uint64_t		 dir_format_version;

	/* Order in which sections were decoded (pipe mode: record order). */
	uint16_t		 order[PF_FEAT_BITS];
	uint32_t		 norder;

	/* EVENT_DESC */
	struct feat_event_desc	*events;
	uint32_t		 nevents;
	bool			 events_ok;	/* the whole section parsed */
	/* PMU_MAPPINGS */
	struct feat_pmu_map	*pmus;
	uint32_t		 npmus;
	/* GROUP_DESC */
	struct feat_group	*groups;
	uint32_t		 ngroups;
	/* CACHE */
	uint32_t		 cache_version;
	struct feat_cache	*caches;
	uint32_t		 ncaches;
	/* CPU_PMU_CAPS, PMU_CAPS */
	struct feat_pmu_caps	 cpu_pmu_caps;
	struct feat_pmu_caps	*pmu_caps;
	uint32_t		 npmu_caps;
	/* E_MACHINE: the recorded ELF machine and flags; CLN_SIZE: the cache
	 * line size */
	uint32_t		 e_machine, e_flags;
	uint64_t		 cln_size;
	/* AUXTRACE: the index of AUXTRACE records (file offset, size). */
	uint64_t		 nauxtrace;
	uint64_t		*auxtrace_off, *auxtrace_size;
	/* TRACING_DATA: version string and tracepoint names */
	char			*tracing_version;
	struct feat_tracepoint	*tracepoints;
	uint32_t		 ntracepoints;

	/* CPU_TOPOLOGY, NUMA_TOPOLOGY, HYBRID_TOPOLOGY, CPU_DOMAIN_INFO, MEM_TOPOLOGY */
	struct feat_topo	 topo;
	/* BPF_PROG_INFO, BPF_BTF (sorted by id, duplicates dropped) */
	struct feat_bpf		 bpf;
	struct feat_comp	 comp;		/* COMPRESSED */
	struct feat_clock	 clock;		/* CLOCK_DATA */

	/* Decoders for the rest keep their own private data here. */
	void			*priv;
};

/*
 * Decode one feature section of len bytes at p (file offset off) into f.
 * Sets f->sec[bit] (status, why).  Damage is reported to diags too.
 * attrs: EVENT_DESC gives names (and, for files without an attrs section,
 * the attrs themselves) to the attr table.
 * p == NULL means the section lies beyond the end of the file (FEAT_MISSING);
 * TRACING_DATA and unknown bits get FEAT_RAW; a bit from
 * PF_FEAT_FIRST_END_MARKER up with no content is pipe mode's
 * end-of-features marker (FEAT_RAW, see feature_end_marker()).
 */
/*
 * The event group (GROUP_DESC) of at most max members that attr index
 * attr is in, leader or member, or NULL: groups of one are none.
 */
const struct feat_group *features_group_of(const struct features *f, int attr, uint32_t max);

void feature_decode(struct features *f, unsigned bit, const uint8_t *p, size_t len, bool swap,
    uint64_t off, struct attr_table *attrs, struct diag_list *diags);

/* Is an empty section of bit the end marker perf writes after a pipe's
 * HEADER_FEATURE records (its HEADER_LAST_FEATURE)? */
bool feature_end_marker(unsigned bit, uint64_t size);

/* Add one build id (from the BUILD_ID section or a HEADER_BUILD_ID record). */
void features_add_build_id(struct features *f, int32_t pid, uint16_t misc, const uint8_t *id,
    size_t id_len, const char *filename, size_t filename_max);

/*
 * Give EVENT_DESC's names to the attrs that have none, matched like perf by
 * position (attr i gets event i; an event beyond the table by its ids).
 * With add_if_empty and an empty table, add EVENT_DESC's attrs (and ids)
 * instead.  feature_decode() calls this (without adding) when it decodes
 * EVENT_DESC; in pipe mode, call it again once all HEADER_ATTRs are in.
 */
void features_apply_event_desc(struct features *f, struct attr_table *t, bool add_if_empty);

/* "sys:name" of a tracepoint config from TRACING_DATA, or NULL. */
const char *features_tracepoint_name(const struct features *f, uint64_t config);

/*
 * perf's name of sub-program i of a BPF program:
 * "bpf_prog_<tag>_<name>" (name from BTF when the section has it).
 */
void features_bpf_prog_name(const struct features *f, const struct feat_bpf_prog *p, uint32_t i,
    char *buf, size_t n);

/*
 * One line "perfnav header" prints for a feature section, and a row of the
 * header pane: "# " lead label [sep value] and a newline.  label and value
 * are escaped as core/text.h says (flags 0) and owned by the row.
 */
struct feat_row {
	const char	*lead;	/* perf's indent after "# ": "", " ", "\t", "  " */
	char		*label;
	const char	*sep;	/* between label and value, as perf writes it */
	char		*value;	/* NULL: the label is the whole line */
	bool		 open;	/* no newline: perf leaves the line unfinished */
};

/* Rows, appended to; zero-initialize, free with feature_rows_free(). */
struct feat_rows {
	struct feat_row	*v;
	size_t		 n, cap;
};

/*
 * Append the rows perf's "report --header-only -I" prints for section bit
 * (none when it prints nothing for it, or the section did not decode).
 * attrs (may be NULL) names GROUP_DESC's events EVENT_DESC does not name.
 * Never fails.
 */
void feature_describe(const struct features *f, const struct attr_table *attrs, unsigned bit,
    struct feat_rows *out);

/* Append perfnav's own summary rows of section bit (counts perf does not
 * print), if it has any.  Never fails. */
void feature_describe_notes(const struct features *f, unsigned bit, struct feat_rows *out);

/* Append every section's summary rows, in the order "perfnav header" prints them. */
void feature_notes(const struct features *f, struct feat_rows *out);

/* Free the rows' strings and array; r is empty again. */
void feature_rows_free(struct feat_rows *r);

void features_free(struct features *f);

#endif
