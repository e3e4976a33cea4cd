/*
 * sample_walk.h: the one walk of a PERF_RECORD_SAMPLE's layout (its
 * attr's sample_type bits, in perf's order), private to core/.
 *
 * record_decode_sample() walks without a sink and fills a struct sample;
 * the field describer (fields_sample.c) walks with one and is told each
 * field, in order, before the walk reads it.
 */
#ifndef PERFNAV_CORE_SAMPLE_WALK_H
#define PERFNAV_CORE_SAMPLE_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bytes.h"
#include "core/record.h"

struct perf_event_attr;

/* The fields of a sample, as the walk meets them. */
enum sample_field_id {
	SF_IDENTIFIER, SF_IP, SF_PID, SF_TID, SF_TIME, SF_ADDR, SF_ID, SF_STREAM_ID, SF_CPU,
	SF_RES, SF_PERIOD,
	/* read_format values; GROUP_* are entry i of a group */
	SF_READ_NR, SF_READ_VALUE, SF_READ_TIME_ENABLED, SF_READ_TIME_RUNNING, SF_READ_ID,
	SF_READ_LOST, SF_READ_GROUP_VALUE, SF_READ_GROUP_ID, SF_READ_GROUP_LOST,
	SF_CALLCHAIN_NR, SF_CALLCHAIN,
	SF_RAW_SIZE, SF_RAW_DATA, SF_RAW_PAD,
	SF_BRANCH_NR, SF_BRANCH_HW_IDX, SF_BRANCH_FROM, SF_BRANCH_TO, SF_BRANCH_FLAGS,
	SF_BRANCH_COUNTERS,
	SF_UREGS_ABI, SF_UREGS,		/* SF_UREGS: i is the register's bit */
	SF_STACK_SIZE, SF_STACK_DATA, SF_STACK_DYN_SIZE,
	SF_WEIGHT, SF_WEIGHT_VAR1, SF_WEIGHT_VAR2, SF_WEIGHT_VAR3, SF_DATA_SRC, SF_TRANSACTION,
	SF_IREGS_ABI, SF_IREGS,
	SF_PHYS_ADDR, SF_CGROUP, SF_DATA_PAGE_SIZE, SF_CODE_PAGE_SIZE,
	SF_AUX_SIZE, SF_AUX_DATA,
	SF_N
};

/* What a describing walk is told. */
struct sample_sink {
	/* Field id (entry or register i) of len bytes at the walk's position:
	 * describe it.  False if it does not fit (the walk stops). */
	bool	(*field)(void *arg, enum sample_field_id id, uint64_t i, uint64_t len);
	/* The walk stops: why, in the description's words. */
	void	(*bad)(void *arg, const char *why);
	void	*arg;
};

/*
 * Walk a sample body (c over the bytes after the header) of the layout of
 * attr at, into *out (only the fields present are written), telling sink
 * (NULL: none) each field.  Returns 0, or -1 with why (a static string)
 * when the body is too short for its sample_type or holds an absurd count.
 */
int sample_walk(const struct perf_event_attr *at, struct cursor *c, struct sample *out,
    const struct sample_sink *sink, const char **why);

/* Walk read_format values of rf (SAMPLE_READ, PERF_RECORD_READ) the same
 * way: out->read, read_len and read_format are set. */
int sample_walk_read(uint64_t rf, struct cursor *c, struct sample *out,
    const struct sample_sink *sink, const char **why);

#endif
