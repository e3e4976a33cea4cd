/* Helpers shared by the tests of core/record.c and core/fields.c. */
#ifndef PERFNAV_TESTS_REC_HELPERS_H
#define PERFNAV_TESTS_REC_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/session_int.h"	/* the tests of record.c and fields.c build sessions by hand */
#include "tests/helpers.h"

/* A session with attrs a[0..n) (ids 100 + i and 200 + i) and nothing else. */
void sess_init(struct session *s, const struct perf_event_attr *a, size_t n);
void sess_free(struct session *s);
/* The record of b at start. */
struct rec mkrec(const struct pdbuf *b, size_t start);

/* The fields of the last describe(). */
struct fcol {
	size_t	 n;
	struct {
		uint32_t	off, len;
		enum field_kind	kind;
		char		name[FIELD_NAME_MAX];
		char		value[FIELD_VALUE_MAX];
		uint64_t	num;
	} v[4096];
};
extern struct fcol col;

/* Describe r into col; assert its fields cover every byte exactly once, in
 * order.  Returns fields_describe's result. */
int describe(const struct session *s, const struct rec *r);
/* Index of the field named name in col, or -1. */
int field_idx(const char *name);
/* The num of field name (asserted present). */
uint64_t field_num(const char *name);
/* Is any field of col FIELD_BAD? */
bool any_bad(void);

/* A software attr of sample_type st with sample_id_all and a few regs. */
void base_attr(struct perf_event_attr *a, uint64_t st);
/* A sample_id_all trailer of st (pid 11, tid 12, time 13, id, stream 14, cpu 3). */
void write_trailer(struct pdbuf *b, uint64_t st, uint64_t id);
/* COMM 1234/1235 "d_matmul" (exec), with a trailer if asked. Returns its start. */
size_t write_comm(struct pdbuf *b, uint64_t st, uint64_t id, bool trailer);

#endif
