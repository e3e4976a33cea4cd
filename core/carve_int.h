/*
 * carve_int.h: what carve.c shares with merge.c (core only): the buffered
 * output and one input's walk of records into it.
 */
#ifndef PERFNAV_CORE_CARVE_INT_H
#define PERFNAV_CORE_CARVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "core/carve.h"
#include "core/hmap.h"
#include "core/origin.h"
#include "core/record.h"
#include "core/session.h"

#define OUT_BUF		(1u << 16)
#define ZCHUNK		(128u * 1024)	/* decompressed bytes per COMPRESSED run (mmap_len) */
#define ZREC_MAX	(65535u - 8)	/* compressed bytes in one record */
#define DIR_ROUND	4096		/* records between FINISHED_ROUNDs (directory mode) */
#define ATTR_MAX	(4096u - 16)	/* the largest attr a reader takes */

/* The output: bytes at off, buffered, written with pwrite. */
struct out {
	int		 fd;
	bool		 swap;
	uint64_t	 off;		/* file offset of buf[0] */
	uint8_t		*buf;
	size_t		 n;
	int		 err;		/* errno of the first failed write, else 0 */
	uint64_t	 err_off;
};

struct carver {
	const struct session	*s;
	struct session_info	 si;
	struct out		 o;
	carve_keep_fn		 keep;
	void			*arg;
	struct carve_result	 res;
	uint64_t		 t_first, t_last;
	bool			 timed;
	uint64_t		 since_round;
	/* a merged input's origins (core/origin.h): each one's bytes in the output */
	struct origins		 org;		/* n 0: none kept */
	uint64_t		*ostart, *oend;
	bool			*oseen;
	/* READ values: per id (slot), its last value and what left-out samples grew it */
	bool			 has_read;
	struct hmap		 ids;
	uint64_t		*last, *gone;
	size_t			 nids, capids;
	uint8_t			*rbuf;		/* a kept sample with its values lowered */
	/* compression */
	bool			 z;
	int			 level;
	ZSTD_CCtx		*cc;
	uint8_t			*chunk, *zrec;
	size_t			 nchunk;
	uint64_t		 zin, zout;
	const char		*zerr;
};

void put16(uint8_t *p, uint16_t v, bool swap);
void put32(uint8_t *p, uint32_t v, bool swap);
void put64(uint8_t *p, uint64_t v, bool swap);
void pwrite_all(struct out *o, const uint8_t *p, size_t n, uint64_t off);
void out_flush(struct out *o);
void out_put(struct out *o, const void *p, uint64_t n);
uint64_t out_pos(const struct out *o);
void out_u64(struct out *o, uint64_t v);
void out_pad8(struct out *o);
/* The file header at offset 0 (written last). */
void write_header(struct carver *c, uint32_t abytes, const struct pf_section *attrs,
    const struct pf_section *data, const struct pf_section *types, const uint64_t bits[4]);
/* The origins section of o (core/origin.h): its size, its bytes into out. */
uint64_t origins_sec_size(const struct origins *o);
void origins_sec_write(struct out *out, const struct origins *o);
/* One record of c->s into c->o (left out, or copied); non-zero: a write error. */
int carve_rec(struct carver *c, const struct rec *r);
/* session_walk's callback: carve_rec. */
int walk_fn(void *arg, const struct rec *r, int depth);
/* Directory mode: every record in time order (the index's), through carve_rec. */
void walk_index(struct carver *c);

#endif
