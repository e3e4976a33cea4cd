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

/* Largest plausible count in a sample array (callchain, branch stack,
 * read group); anything larger is rejected as damage. */
#define SAMPLE_MAX_NR	(1u << 20)

/*
 * Decode a PERF_RECORD_SAMPLE.  Finds the attr from the sample's id.
 * Returns 0, or -1 with why (a static string) if the record is too short
 * for its sample_type or holds an absurd count.
 */
int record_decode_sample(const struct session *s, const struct rec *r, struct sample *out,
    const char **why);

/*
 * Decode only the fixed-position fields of a sample of attr (IDENTIFIER
 * to PERIOD: ip, pid/tid, time, addr, id, stream id, cpu, period): what an
 * index needs, without walking the variable-length rest.  Only those
 * fields, attr, sample_type and swap of *out are written.  Returns 0, or
 * -1 if the record is too short for them.
 */
int record_sample_head(const struct session *s, const struct rec *r, int attr,
    struct sample *out);

/*
 * Decode the sample_id_all trailer of a non-sample record (its attr found
 * from the trailer's identifier or id when attrs differ).  Returns 0, or -1
 * if there is none or it does not fit.
 */
int record_decode_sample_id(const struct session *s, const struct rec *r, struct sample_id *out);

/*
 * Is a record whole, as every view that reads it needs it to be?  A
 * SAMPLE is decoded in full into *smp; a kernel record must hold its fixed
 * fields, and so must the perf tool's records that loading reads.
 * Returns 0, or -1 with why (a static string) for a damaged record, which
 * the views built from samples leave out (dump and hex list it, marked).
 */
int record_check(const struct session *s, const struct rec *r, struct sample *smp,
    const char **why);

/* The attr index a record belongs to, or -1. */
int record_attr(const struct session *s, const struct rec *r);

/* Name of a record type as perf prints it ("MMAP2"), or NULL if unknown. */
const char *record_type_name(uint32_t type);

#endif
