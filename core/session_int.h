/*
 * session_int.h: struct session, and what core/session.c (loading and
 * indexing), core/session_file.c (the recording's files and file header)
 * and core/session_read.c (reading a loaded session) share.  Private to
 * core/: everything else uses session.h's accessors.
 */
#ifndef PERFNAV_CORE_SESSION_INT_H
#define PERFNAV_CORE_SESSION_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/perf_file.h"
#include "core/session.h"

/* Pages of the mapped file behind the walk are given back every so often:
 * the walk reads each once, and the resident set stays small. */
#define DROP_STEP	(UINT64_C(128) << 20)

struct perf_err;

struct session {
	char			*path;		/* as given */
	enum session_mode	 mode;
	bool			 swap;		/* file is of the other byte order */
	bool			 from_stdin;

	struct sfile		*files;
	size_t			 nfiles;

	/* File mode header, native byte order. */
	uint64_t		 header_size, attr_size;
	struct pf_section	 attrs_sec, data_sec, event_types_sec;
	uint64_t		 feat_bits[4];
	uint64_t		 feat_off;	/* start of feature section table */

	struct attr_table	 attrs;
	struct features		 feat;

	/* Decompression: all decompressed bytes, and where they came from. */
	uint8_t			*zbuf;
	size_t			 zlen, zcap;
	struct zchunk		*zchunks;
	size_t			 nzchunks, capzchunks;
	void			*zctx;		/* ZSTD_DCtx */

	struct rec_index	 index;
	struct type_counts	 counts;
	struct type_counts	*attr_counts;	/* per attr, attrs.n entries */
	size_t			 nattr_counts;
	uint64_t		 nr_containers_records;	/* records found inside COMPRESSED */

	struct thread_table	 threads;

	/* Seconds spent loading, by phase (for benchmarks). */
	double			 t_open, t_walk, t_sort, t_threads;
	unsigned		 load_split;

	struct diag_list	 diags;
	bool			 damaged;	/* anything could not be read */
	bool			 cancelled;	/* the progress callback stopped loading */
	uint64_t		 mem_budget;	/* the budget in effect (bytes) */
	bool			 over_budget;	/* loading stopped at the budget */
	uint64_t		 stop_loc;	/* loc of the first record not loaded
						   (budget or cancel), or UINT64_MAX */
	size_t			 stop_zchunk;	/* the chunk stop_loc lies in, when it
						   is decompressed; else SIZE_MAX */
	bool			 input_cut;	/* standard input read only in part */
	char			*kcore_dir;	/* directory mode: kcore_dir/ path, or NULL */

	/* The file's identity when opened (file mode, a regular file). */
	bool			 id_ok;
	uint64_t		 id_dev, id_ino, id_mtime_s, id_mtime_ns;
	/* Records that changed attrs or features while walking (ATTR,
	 * EVENT_UPDATE, ID_INDEX, BUILD_ID, FEATURE): their locs, in walk
	 * order, kept for a cache entry (session_cache.c). */
	uint64_t		*replay;
	size_t			 nreplay, capreplay;
	struct session_cache	*cache;		/* NULL: no cache asked for */
};

/*
 * session_cache.c: the cache entry of a session.  begin: after the file
 * header (the key, the entry's path); try: before the walk, adopt the
 * entry (true: the index, counts and replay list are set); done: after a
 * walk, whether the load is one the cache can keep (ndiag: diagnostics
 * before the walk).  session_cache_free: session_close's part.
 */
void session_cache_begin(struct session *s, const struct session_opts *opts);
bool session_cache_try(struct session *s);
void session_cache_done(struct session *s, size_t ndiag);
void session_cache_free(struct session *s);
/* A record the cache must replay on a hit (process_rec saw it). */
static inline bool
session_cache_replays(uint32_t type)
{
	return type == PF_REC_ATTR || type == PF_REC_EVENT_UPDATE || type == PF_REC_ID_INDEX ||
	    type == PF_REC_BUILD_ID || type == PF_REC_FEATURE;
}

/*
 * Open one file of the recording into s->files (mapped, or read when it
 * cannot be mapped).  in_dir: a data.N file of a directory, opened only if
 * it is a regular file.  0, or an error in *err.
 */
int session_file_open(struct session *s, const char *path, bool in_dir, struct perf_err *err);
/* Directory mode: open data, then data.N in numeric order.  0, or an error in *err. */
int session_file_open_dir(struct session *s, const char *path, struct perf_err *err);
/* Check the first file's magic and set s->swap from it.  0, or an error in *err. */
int session_file_check_magic(struct session *s, struct perf_err *err);
/* Read and check the file header of s->files[0].  0, or an error in *err. */
int session_file_read_header(struct session *s, struct perf_err *err);
/* The attrs section and each attr's ids (damage goes to s->diags). */
void session_file_read_attrs(struct session *s);
/* Old perf's event_types section: tracepoint ids and names. */
void session_file_read_event_types(struct session *s);
/* The feature sections named by the header's bitmap (damage goes to s->diags). */
void session_file_read_features(struct session *s);
/* Where each file's records are, with salvage of a bad data section. */
void session_file_data_ranges(struct session *s);
/* What a record costs in the index: its entry, and a round mark at most. */
#define SESSION_REC_CHARGE	(sizeof(struct load_ent) + sizeof(size_t))

/* Count a record of type (attr: its attr, or -1) into c and, per attr, into
 * *ac (*nac of them, grown to hint at least when it grows).  session.c. */
void session_count_into(struct type_counts *c, struct type_counts **ac, size_t *nac, size_t hint,
    uint32_t type, int attr);
/*
 * Index record r (attr: its attr, or -1) into ix: its time, else
 * *last_time's (counted in ix->n_untimed); smp is the sample decoded
 * whole, or NULL (its head is read).  session.c.
 */
struct rec;
struct sample;
/* Samples with READ values counted per value delivered, as perf counts them (sample_read.c). */
void session_read_recount(struct session *s);
/* Who the record of entry e is about, read from the record (session_who.c). */
struct ent_who session_load_who(const struct session *s, const struct rec_ent *e);
void session_index_rec(const struct session *s, struct rec_index *ix, uint64_t *last_time,
    const struct rec *r, int attr, const struct sample *smp);

/*
 * session_par.c: the second half of a large data section indexed by a
 * thread of its own.  session_par_split guesses a record boundary near
 * the middle of [base, base + len); a part walks from there to the end
 * into its own index, rounds and counts, and fails (leaving the rest to
 * the first walk) on any record that needs the walk before it.
 */
struct par_part {
	struct session		*s;
	const uint8_t		*whole;		/* the data section's first byte */
	uint64_t		 at;		/* where the part starts in it */
	size_t			 n0;		/* the session's entries before the section */
	uint64_t		 na;		/* records before the part (session_par_count) */
	const uint8_t		*base;		/* the part's first byte */
	uint64_t		 vstart, len;	/* its location and length */
	struct rec_index	 ix;		/* a view into the session's index: it never grows */
	size_t			*rounds;	/* positions in ix closing a round */
	size_t			 nrounds, caprounds;
	struct type_counts	 counts;
	struct type_counts	*attr_counts;
	size_t			 nattr;
	uint64_t		 nrecords, charged;
	uint64_t		 last_time;
	size_t			 lead_untimed;	/* untimed entries before its first timed one */
	bool			 timed_seen;
	bool			 no_index;	/* a load without an index: the part counts only */
	bool			 failed;
	bool			 started;
	atomic_bool		 stop;
	pthread_t		 th;
	_Atomic uint64_t	 walked;	/* bytes walked so far, for the progress (relaxed) */
};
bool session_par_split(const struct session *s, const uint8_t *base, uint64_t len, bool counts,
    uint64_t *at);
/* Do the headers of [base, base + at) lead exactly to at, with nothing
 * decompressed among them?  Their count into *n.  False too once *stop
 * is set (the part's stop flag). */
bool session_par_count(const struct session *s, const uint8_t *base, uint64_t at, uint64_t *n,
    atomic_bool *stop);
int session_par_start(struct par_part *p);
/* Wait for the part (stop: ask it to leave off first). */
void session_par_join(struct par_part *p, bool stop);
void session_par_free(struct par_part *p);

/* A sequential pass at base + pos: give back the pages DROP_STEP or more
 * behind *dropped (inline: it is asked once per record). */
static inline void
session_drop_behind(const struct session *s, uint64_t base, uint64_t *dropped, uint64_t pos)
{
	if (pos - *dropped >= DROP_STEP) {
		session_drop_pages(s, base + *dropped, base + pos);
		*dropped = pos;
	}
}

#endif
