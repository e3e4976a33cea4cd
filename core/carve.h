/*
 * carve.h: a smaller perf.data written from an open recording: the same
 * header, attrs and feature sections, every record but the samples a
 * caller's predicate leaves out (perfnav export --format perf).
 *
 * Whatever the input's mode (file, pipe, directory) and compression, the
 * output is one file-mode perf.data in the input's byte order:
 *  - the attrs section holds every attr the session knows (a pipe's ATTR
 *    records become it), each with its id list; the header's attr_size is
 *    the largest attr's, the smaller ones padded with zeros;
 *  - the data section holds the records in file order (directory mode: in
 *    time order, the index's, with a FINISHED_ROUND every 4096 records),
 *    records decompressed from COMPRESSED ones in place of their container;
 *    left out: the samples the predicate refuses, and the records whose
 *    content moves to the header (ATTR, FEATURE, TRACING_DATA); records are
 *    copied as they are, but for the READ values of kept samples, lowered
 *    by what the counters grew in the left-out samples before them (perf
 *    makes a sample's period the growth since the sample before it);
 *  - the feature sections are copied byte for byte, but for SAMPLE_TIME
 *    (the kept samples' first and last time), DIR_FORMAT and AUXTRACE
 *    (which name places in the input's data: dropped), COMPRESSED (dropped,
 *    or written anew with compress), PERFNAV_ORIGINS (a merged input's:
 *    written anew, each input's range where its records went; dropped with
 *    compress or when damaged) and sections that cannot be read.
 *
 * Nothing here prints.  The output is written with pwrite() (the header
 * last), so fd must be a regular file (or anything that seeks).
 */
#ifndef PERFNAV_CORE_CARVE_H
#define PERFNAV_CORE_CARVE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"

struct session;
struct rec;

/* Is this sample (a PF_REC_SAMPLE record of the session) kept? */
typedef bool (*carve_keep_fn)(void *arg, const struct rec *r);

struct carve_opts {
	/* The kernel's records in zstd COMPRESSED records, as perf record -z
	 * writes them (the HEADER_COMPRESSED feature says how). */
	bool	compress;
	int	level;		/* zstd level (0: 1, perf's default) */
};

/* What carve_write() wrote. */
struct carve_result {
	uint64_t	samples, kept;	/* samples seen, samples written */
	uint64_t	records;	/* records written (COMPRESSED ones not counted) */
	uint64_t	size;		/* bytes of the file */
	uint64_t	dropped_feats[4];	/* feature bits not carried over */
};

/*
 * Write the recording s with the samples keep(arg, r) takes (keep NULL:
 * every sample) to fd, from offset 0.  Returns 0, or -1 with err filled
 * (a write error, naming errno; an attr whose bytes cannot be read).  res
 * (may be NULL) gets the counts.
 */
int carve_write(const struct session *s, int fd, const struct carve_opts *o, carve_keep_fn keep,
    void *arg, struct carve_result *res, struct perf_err *err);

#endif
