/*
 * record.h: one record of a recording, and the decoding of samples and of
 * the sample_id_all trailers of other records.
 *
 * A struct rec points into the mapped file or into the session's
 * decompression buffer; it is valid until the session closes.  Decoded
 * samples point into the record too (callchains, raw data, stacks are not
 * copied): read their u64s with rd64(p, swap).
 */
#ifndef PERFNAV_CORE_RECORD_H
#define PERFNAV_CORE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct session;
struct attr_table;

struct rec {
	const uint8_t	*p;		/* the whole record, header included */
	uint32_t	 size;		/* header.size */
	uint32_t	 type;
	uint16_t	 misc;
	bool		 swap;
	uint64_t	 loc;		/* virtual location (see session.h) */
};

/* The sample_id_all fields that any record may carry. */
struct sample_id {
	uint32_t	pid, tid;
	uint64_t	time;
	uint64_t	id;
	uint64_t	stream_id;
	uint32_t	cpu, res;
	uint64_t	identifier;
	uint32_t	have;		/* SAMPLE_* bits present */
};

struct sample {
	int		 attr;		/* index into the attr table, -1 unknown */
	uint64_t	 sample_type;	/* of that attr */
	uint64_t	 identifier;
	uint64_t	 ip;
	uint32_t	 pid, tid;
	uint64_t	 time;
	uint64_t	 addr;
	uint64_t	 id;
	uint64_t	 stream_id;
	uint32_t	 cpu, res;
	uint64_t	 period;
	/* READ: read_format tells the layout of [read, read + read_len). */
	const uint8_t	*read;
	size_t		 read_len;
	uint64_t	 read_format;
	/* CALLCHAIN: nr u64 ips. */
	const uint8_t	*callchain;
	uint64_t	 callchain_nr;
	/* RAW */
	const uint8_t	*raw;
	uint32_t	 raw_size;
	/* BRANCH_STACK: nr entries of 3 u64 (from, to, flags). */
	const uint8_t	*branch;
	uint64_t	 branch_nr;
	uint64_t	 branch_hw_idx;
	bool		 branch_has_hw_idx;
	/* REGS_USER / REGS_INTR: abi + popcount(mask) u64s. */
	uint64_t	 uregs_abi, uregs_mask;
	const uint8_t	*uregs;
	uint64_t	 iregs_abi, iregs_mask;
	const uint8_t	*iregs;
	/* STACK_USER: size bytes, of which dyn_size are valid. */
	const uint8_t	*stack;
	uint64_t	 stack_size, stack_dyn_size;
	uint64_t	 weight;	/* WEIGHT, or WEIGHT_STRUCT's var1_dw */
	uint16_t	 weight_var2, weight_var3;
	uint64_t	 data_src;
	uint64_t	 transaction;
	uint64_t	 phys_addr;
	const uint8_t	*aux;
	uint64_t	 aux_size;
	uint64_t	 cgroup;
	uint64_t	 data_page_size;
	uint64_t	 code_page_size;
	bool		 swap;
};

/* Callchain entry i of a decoded sample. */
static inline uint64_t
sample_callchain_ip(const struct sample *s, uint64_t i)
{
	uint64_t v;

	__builtin_memcpy(&v, s->callchain + 8 * i, 8);
	return s->swap ? __builtin_bswap64(v) : v;
}

/*
 * Branch entry i of a decoded sample (i < branch_nr): its source, target
 * and flags, the flags word in the host's layout.  A writer of the other
 * byte order lays the bit fields out from the word's top bit: each field
 * is moved whole, as perf 6.1 moves them (evsel__bitfield_swap_branch_flags:
 * the four flags, cycles, type, and the 40 bits after them as one field,
 * which is perf's reading of a swapped file).  The fields of the word, as
 * <linux/perf_event.h> lays them out:
 */
#define BRF_MISPRED(f)	((unsigned)((f)&1))
#define BRF_PREDICTED(f)	((unsigned)(((f) >> 1) & 1))
#define BRF_IN_TX(f)	((unsigned)(((f) >> 2) & 1))
#define BRF_ABORT(f)	((unsigned)(((f) >> 3) & 1))
#define BRF_CYCLES(f)	((unsigned)(((f) >> 4) & 0xffff))
#define BRF_TYPE(f)	((unsigned)(((f) >> 20) & 0xf))
#define BRF_NEW_TYPE(f)	((unsigned)(((f) >> 26) & 0xf))

struct branch_ent {
	uint64_t	from, to, flags;
};

static inline struct branch_ent
sample_branch(const struct sample *s, uint64_t i)
{
	struct branch_ent e;

	__builtin_memcpy(&e, s->branch + 24 * i, sizeof e);
	if (s->swap) {
		/* (position in the other layout, width): to 0, 1, 2, 3, 4, 20, 24 */
		static const unsigned char pos[7] = { 63, 62, 61, 60, 44, 40, 0 };
		static const unsigned char len[7] = { 1, 1, 1, 1, 16, 4, 40 };
		uint64_t v, r = 0;

		e.from = __builtin_bswap64(e.from);
		e.to = __builtin_bswap64(e.to);
		v = __builtin_bswap64(e.flags);
		for (int k = 0; k < 7; k++)
			r |= ((v >> pos[k]) & ((UINT64_C(1) << len[k]) - 1)) << (63 - (pos[k] + len[k] - 1));
		e.flags = r;
	}
	return e;
}

/* Largest plausible count in a sample array (callchain, branch stack,
 * read group); anything larger is rejected as damage. */
#define SAMPLE_MAX_NR	(1u << 20)

/*
 * Decode a PERF_RECORD_SAMPLE.  Finds the attr from the sample's id.
 * Returns 0, or -1 with why (a static string) if the record is too short
 * for its sample_type or holds an absurd count.
 */
int record_decode_sample(const struct attr_table *at, const struct rec *r, struct sample *out,
    const char **why);

/*
 * Decode only the fixed-position fields of a sample of attr (IDENTIFIER
 * to PERIOD: ip, pid/tid, time, addr, id, stream id, cpu, period): what an
 * index needs, without walking the variable-length rest.  Only those
 * fields, attr, sample_type and swap of *out are written.  Returns 0, or
 * -1 if the record is too short for them.
 */
int record_sample_head(const struct attr_table *at, const struct rec *r, int attr,
    struct sample *out);

/*
 * Decode the sample_id_all trailer of a non-sample record (its attr found
 * from the trailer's identifier or id when attrs differ).  Returns 0, or -1
 * if there is none or it does not fit.
 */
int record_decode_sample_id(const struct attr_table *at, const struct rec *r, struct sample_id *out);

/*
 * Is a record whole, as every view that reads it needs it to be?  A
 * SAMPLE must be decodable (record_decode_sample() succeeds): its
 * fixed-position fields are decoded into *smp (NULL: not asked) as
 * record_sample_head() writes them (attr -1 for the first attr's layout
 * taken for an unknown id); a kernel record must hold its fixed fields, and so must the perf
 * tool's records that loading reads.
 * Returns 0, or -1 with why (a static string) for a damaged record, which
 * the views built from samples leave out (dump and hex list it, marked).
 */
int record_check(const struct attr_table *at, const struct rec *r, struct sample *smp,
    const char **why);

struct perf_event_attr;

/*
 * Would record_decode_sample() decode a sample body p[0..n) of the layout
 * of at?  The same verdict from only the lengths and counts, nothing
 * written: what checking a sample whole costs.
 */
bool sample_fits(const struct perf_event_attr *at, const uint8_t *p, size_t n, bool swap);

/* The attr index a record belongs to, or -1. */
int record_attr(const struct attr_table *at, const struct rec *r);

struct pn_attr;

/*
 * The attr whose layout decodes a record: its own (*attr its index), else
 * (unknown id, as in the zeroed trailers of records perf synthesizes) the
 * first one, which perf requires to agree with the others on the trailer
 * layout; *attr is then -1.  NULL if there is none, or for a sample of an
 * unknown id when the events' sample layouts differ.
 */
const struct pn_attr *record_layout(const struct attr_table *at, const struct rec *r, int *attr);

/* ---- the record table ---- */

struct fctx;
struct body;
struct sbuf;

/*
 * One record type: an entry of the record table (core/rec_kernel.c for the
 * kernel's types, core/rec_tool.c for the perf tool's).  A new record type
 * is one entry there, plus its describer and summary beside it (and a
 * typed decoder below if others read its fields).
 */
struct rec_type {
	const char	*name;		/* as perf prints it: "MMAP2" */
	uint8_t		 body_min;	/* smallest body (bytes after the header, before
					 * the sample_id_all trailer) that is whole */
	int8_t		 pid, tid, time;	/* body offsets of who and when, -1: none */
	uint8_t		 who_min;	/* body bytes needed to read them */
	/* The body as named fields (core/fields_fmt.h), NULL: none. */
	void		(*fields)(struct fctx *d);
	/* The one-line summary after "PERF_RECORD_<name>", NULL: none. */
	void		(*summary)(const struct session *s, const struct rec *r, struct body *b,
			    struct sbuf *sb);
};

/* The table's entry for a record type, or NULL if unknown. */
const struct rec_type *record_type(uint32_t type);

/* Name of a record type as perf prints it ("MMAP2"), or NULL if unknown. */
const char *record_type_name(uint32_t type);

/* Who and when a non-sample record's body says it is about. */
struct rec_who {
	int64_t		pid, tid;	/* -1 unknown */
	uint64_t	time;
	bool		has_time;
};

/*
 * Read who and when from a record's body (MMAP, MMAP2, COMM, NAMESPACES,
 * READ: pid/tid; FORK, EXIT: pid/tid/time), not from its sample_id_all
 * trailer.  Fields the type has not, or a body too short for, are left as
 * they are in *w.  Returns 0, or -1 if none was read.
 */
int record_who(const struct rec *r, struct rec_who *w);

/* ---- typed decoders of the bodies others read ---- */

/*
 * Each decodes a record of its type(s) whose body holds the fields it
 * reads; strings point into the record (at most *_max bytes, up to the
 * record's end, NUL-padded).  Each returns 0, or -1 if the record is of
 * another type or too short.
 */

/* MMAP and MMAP2. */
struct rec_mmap {
	int32_t		 pid, tid;
	uint64_t	 addr, len, pgoff;
	bool		 mmap2;
	/* MMAP2 only: build id (MISC_MMAP_BUILD_ID) or device and inode. */
	bool		 has_build_id;
	uint8_t		 build_id_size;	/* as recorded, may exceed 20 */
	const uint8_t	*build_id;	/* 20 bytes */
	uint32_t	 maj, min;
	uint64_t	 ino, ino_generation;
	uint32_t	 prot, flags;
	const char	*filename;
	size_t		 filename_max;
};
int record_mmap(const struct rec *r, struct rec_mmap *m);

/* COMM. */
struct rec_comm {
	int32_t		 pid, tid;
	bool		 exec;		/* PERF_RECORD_MISC_COMM_EXEC */
	const char	*comm;
	size_t		 comm_max;
};
int record_comm(const struct rec *r, struct rec_comm *c);

/* FORK and EXIT. */
struct rec_task {
	int32_t		pid, ppid, tid, ptid;
	uint64_t	time;
};
int record_task(const struct rec *r, struct rec_task *t);

/* LOST (id and lost) and LOST_SAMPLES (lost only, id 0). */
struct rec_lost {
	uint64_t	id, lost;
};
int record_lost(const struct rec *r, struct rec_lost *l);

/* THREAD_MAP: nr entries of (u64 pid, char comm[16]). */
struct rec_thread_map {
	uint64_t	 nr;
	uint64_t	 have;		/* entries whose pid the record holds (may be < nr) */
	uint64_t	 whole;		/* entries it holds whole, comm too (<= have) */
	const uint8_t	*entries;
	bool		 swap;
};
int record_thread_map(const struct rec *r, struct rec_thread_map *m);
/* The pid of entry i (< have). */
int32_t record_thread_map_pid(const struct rec_thread_map *m, uint64_t i);

/* CPU_MAP: its type (0: a list of u16 cpus), and for a list its count and
 * how many of them the record holds. */
struct rec_cpu_map {
	uint16_t	 type;
	uint16_t	 nr, have;	/* type 0 only */
	const uint8_t	*cpus;
	bool		 swap;
};
int record_cpu_map(const struct rec *r, struct rec_cpu_map *m);
/* CPU i (< have) of a type 0 map; -1 for "any" (0xffff). */
int32_t record_cpu_map_cpu(const struct rec_cpu_map *m, uint16_t i);

/* STAT: one counter value. */
struct rec_stat {
	uint64_t	id;
	uint32_t	cpu, thread;	/* indexes into the CPU_MAP and THREAD_MAP */
	uint64_t	val, ena, run;
};
int record_stat(const struct rec *r, struct rec_stat *st);

/* STAT_ROUND: type (0 interval, 1 final) and time. */
struct rec_stat_round {
	uint64_t	type, time;
};
int record_stat_round(const struct rec *r, struct rec_stat_round *sr);

/* BPF_METADATA: prog_name[256], u64 nr_entries, entries of key[64] and
 * value[256]. */
#define REC_BPF_META_NAME	256
#define REC_BPF_META_HEAD	(REC_BPF_META_NAME + 8)
#define REC_BPF_META_KEY	64
#define REC_BPF_META_VALUE	256
#define REC_BPF_META_ENTRY	(REC_BPF_META_KEY + REC_BPF_META_VALUE)

/* SCHEDSTAT_CPU / SCHEDSTAT_DOMAIN: the body bytes a record of /proc/schedstat
 * version ver needs (its 16 bytes of timestamp, cpu, version and padding or
 * domain, then the version's counters); 16 for a version perf does not
 * know. */
uint32_t record_schedstat_size(uint32_t type, uint16_t ver);

/* CALLCHAIN_DEFERRED: the user callchain the kernel deferred for the
 * samples of the record's thread whose callchain ends in
 * PF_CONTEXT_USER_DEFERRED and cookie.  Fails (-1) when the ips run past
 * the record too.  Read ip i with record_deferred_ip(). */
struct rec_deferred {
	uint64_t	 cookie, nr;
	const uint8_t	*ips;
	bool		 swap;
};
int record_callchain_deferred(const struct rec *r, struct rec_deferred *d);

static inline uint64_t
record_deferred_ip(const struct rec_deferred *d, uint64_t i)
{
	uint64_t v;

	__builtin_memcpy(&v, d->ips + 8 * i, 8);
	return d->swap ? __builtin_bswap64(v) : v;
}

/* ATTR (pipe mode): an attr as the file holds it (attr_size bytes, at
 * file position attr_loc) and the ids of its events (nids u64s). */
struct rec_header_attr {
	const uint8_t	*attr;
	uint32_t	 attr_size;
	uint64_t	 attr_loc;
	uint64_t	 nids;
	const uint8_t	*ids;
	bool		 swap;
};
int record_header_attr(const struct rec *r, struct rec_header_attr *h);
uint64_t record_header_attr_id(const struct rec_header_attr *h, uint64_t i);

/* EVENT_UPDATE: its type (2: a name), the event's id and the data after. */
#define REC_EVENT_UPDATE_NAME	2
struct rec_event_update {
	uint64_t	 type, id;
	const uint8_t	*data;
	size_t		 data_len;
};
int record_event_update(const struct rec *r, struct rec_event_update *u);

/* ID_INDEX: nr entries of (id, idx, cpu, tid); fits: the record holds them all. */
#define REC_ID_INDEX_ENTRY	32
struct rec_id_index {
	uint64_t	 nr;
	bool		 fits;
	const uint8_t	*entries;
	bool		 swap;
};
int record_id_index(const struct rec *r, struct rec_id_index *x);
void record_id_index_entry(const struct rec_id_index *x, uint64_t i, uint64_t *id, uint64_t *idx);

/* BUILD_ID: pid, the build id (id_len bytes: its size byte when the misc
 * bit says, else 20) and the file name. */
struct rec_build_id {
	int32_t		 pid;
	const uint8_t	*id;
	uint8_t		 id_len;
	const char	*filename;
	size_t		 filename_max;
};
int record_build_id(const struct rec *r, struct rec_build_id *bi);

/* FEATURE (pipe mode): a feature section, its bit and bytes. */
struct rec_feature {
	uint64_t	 bit;
	const uint8_t	*data;
	size_t		 len;
	uint64_t	 data_loc;
};
int record_feature(const struct rec *r, struct rec_feature *f);

/* STAT_CONFIG: nr (tag, value) terms, those the record holds. */
struct rec_stat_config {
	uint64_t	 nr;
	const uint8_t	*terms;
	bool		 swap;
};
int record_stat_config(const struct rec *r, struct rec_stat_config *c);
void record_stat_config_term(const struct rec_stat_config *c, uint64_t i, uint64_t *tag,
    uint64_t *val);

/* SWITCH and SWITCH_CPU_WIDE: out or in (preempted), and for a cpu-wide
 * one the thread switched to (out) or from (in). */
struct rec_switch {
	bool		 out, preempt, cpu_wide;
	int32_t		 other_pid, other_tid;
};
int record_switch(const struct rec *r, struct rec_switch *sw);

/* ITRACE_START: the thread whose trace starts. */
struct rec_itrace_start {
	int32_t		 pid, tid;
};
int record_itrace_start(const struct rec *r, struct rec_itrace_start *it);

/* AUX: the area's offset and size, and its flags (bit 0: truncated). */
struct rec_aux {
	uint64_t	 offset, size, flags;
};
int record_aux(const struct rec *r, struct rec_aux *a);

#endif
