/*
 * session.h: an open recording.  session_open() maps the file(s), reads the
 * header, attrs and feature sections, walks every record (decompressing
 * PERF_RECORD_COMPRESSED), and builds the time-ordered index, the thread
 * table and the address-space history.  Everything it returns is owned by
 * the session and valid until session_close().
 *
 * Locations.  Every record has a 48-bit virtual location "loc":
 *  - below SESSION_ZLOC, loc is a byte position in the concatenation of
 *    the recording's files (file 0 is perf.data or perf.data/data, then
 *    data.0, data.1, ...); for a plain file, loc is the file offset;
 *  - from SESSION_ZLOC on, loc - SESSION_ZLOC is a position in the
 *    session's buffer of decompressed bytes; session_zorigin() tells the
 *    COMPRESSED record (container) it came from.
 */
#ifndef PERFNAV_CORE_SESSION_H
#define PERFNAV_CORE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/attr.h"
#include "core/err.h"
#include "core/feature.h"
#include "core/index.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/thread.h"

#define SESSION_ZLOC	(UINT64_C(1) << 46)

enum session_mode {
	SESSION_FILE,
	SESSION_PIPE,
	SESSION_DIR,
};

/* One mapped (or read) file of the recording. */
struct sfile {
	char		*path;
	const uint8_t	*base;		/* whole file, mapped read-only or read */
	uint64_t	 size;
	uint64_t	 vbase;		/* loc of byte 0 */
	bool		 mapped;	/* munmap (else free) */
	bool		 borrowed;	/* the caller's memory: neither */
	/* Where records are: [data_off, data_end). */
	uint64_t	 data_off, data_end;
	uint64_t	 nrecords;	/* top-level records walked */
	bool		 damaged;	/* walk stopped early */
};

/* A chunk of decompressed bytes and the COMPRESSED record it came from. */
struct zchunk {
	uint64_t	zoff;		/* start in zbuf */
	uint64_t	zend;		/* end in zbuf */
	uint64_t	container;	/* loc of the COMPRESSED record */
	uint64_t	first_rec;	/* zbuf offset of the first record starting in it,
					   or zend if none */
};

/* Counts of records per type, whole recording and per attr (--stats). */
#define SESSION_NTYPES	256
struct type_counts {
	uint64_t	total;
	uint64_t	by_type[SESSION_NTYPES];	/* types >= 256 go to by_type[255] */
};

/*
 * Called while loading, about every 16 MiB of records walked and once per
 * phase change, with bytes done and the total to walk.  A non-zero return
 * stops loading there: what was read so far is kept (session_info().cancelled
 * set).
 */
typedef int (*session_progress_fn)(void *arg, uint64_t done, uint64_t total);

struct session_opts {
	bool			 no_index;	/* walk and count only (stats) */
	bool			 keep_going;	/* default true: salvage what can be read */
	session_progress_fn	 progress;	/* NULL: none */
	void			*progress_arg;
	/* Memory budget in bytes for decompressed data and the index
	 * (0: session_default_budget of the recording's size). */
	uint64_t		 mem_budget;
	/* Keep who each record is about (cpu, pid, tid) in the index, 8 bytes
	 * a record, for callers that ask session_ent_who() of many records
	 * again and again (the browser); without it each answer reads the record. */
	bool			 keep_who;
	/* A cache directory to take the index from and keep it in
	 * (core/session_cache.h), or NULL; and the version string its
	 * entries are keyed by (an entry of another is stale). */
	const char		*cache_dir;
	const char		*cache_version;
	/* A stop the progress callback asks for gives no session:
	 * session_open returns NULL (PERF_E_STOPPED) as soon as the walk has
	 * stopped, the index left unsorted (a browser quit while loading). */
	bool			 stop_abandons;
};

/* An open recording: opaque outside core/ (core/session_int.h). */
struct session;

/*
 * What a session knows of itself besides its tables, as session_info()
 * returns it: a copy (its strings stay the session's, valid until
 * session_close()).
 */
struct session_info {
	const char		*path;		/* as given */
	enum session_mode	 mode;
	bool			 swap;		/* file is of the other byte order */
	bool			 from_stdin;
	/* File mode header, native byte order. */
	uint64_t		 header_size, attr_size;
	struct pf_section	 attrs_sec, data_sec, event_types_sec;
	uint64_t		 feat_off;	/* start of feature section table */
	size_t			 zlen;		/* bytes decompressed */
	size_t			 nzchunks;	/* COMPRESSED records they came from */
	uint64_t		 nr_containers_records;	/* records found inside COMPRESSED */
	/* Seconds spent loading, by phase (for benchmarks). */
	double			 t_open, t_walk, t_sort, t_threads;
	unsigned		 load_split;	/* data sections indexed in two parts (two cores) */
	bool			 damaged;	/* anything could not be read */
	bool			 cancelled;	/* the progress callback stopped loading */
	uint64_t		 mem_budget;	/* the budget in effect (bytes) */
	bool			 over_budget;	/* loading stopped at the budget */
	uint64_t		 stop_loc;	/* loc of the first record not loaded
						   (budget or cancel), or UINT64_MAX */
	bool			 input_cut;	/* standard input read only in part */
	const char		*kcore_dir;	/* directory mode: kcore_dir/ path, or NULL */
};

/*
 * Open and load a recording: a file, a perf.data/ directory, or "-" for
 * standard input (pipe mode).  Returns NULL with err filled if nothing at
 * all can be read (empty, not a perf file, unreadable).  Damage after a
 * valid start does not fail: it is recorded in session_diags() and
 * session_info().damaged.
 */
struct session *session_open(const char *path, const struct session_opts *opts,
    struct perf_err *err);

/* One recording file in memory, for session_open_mem(). */
struct session_mem {
	const void	*base;
	size_t		 size;
};

/*
 * Open and load a recording held in memory, as session_open() loads a
 * file: one buffer is a file or pipe-mode recording, several are a
 * perf.data/ directory's files ('data', then data.0, data.1, ...).  name
 * stands for the path in messages and session_info().path.  The buffers are not
 * copied: they must stay unchanged until session_close().  Returns NULL
 * with err filled as session_open() does (nmem 0 is PERF_E_EMPTY).
 */
struct session *session_open_mem(const char *name, const struct session_mem *mem, size_t nmem,
    const struct session_opts *opts, struct perf_err *err);
void session_close(struct session *s);

/*
 * The default memory budget for a recording of 'size' bytes (0: unknown,
 * standard input): 64 times its size, at least 64 MiB, at most a quarter
 * of the machine's memory.  What is read from a pipe counts against it
 * (half of it at most is read).  Loading stops where decompressed bytes plus the
 * index (32 bytes a record, whether it is indexed or not, so that every
 * subcommand stops at the same record) would go past it, with a
 * diagnostic; what was loaded stays.
 */
uint64_t session_default_budget(uint64_t size);

/* The record at loc, or -1 if loc is not a valid record start. */
int session_rec(const struct session *s, uint64_t loc, struct rec *out);
/* Who the record at index position pos is about (-1: not said, or pos out of range). */
struct ent_who session_ent_who(const struct session *s, size_t pos);

/* For a loc, the file index and file offset it lies at (for decompressed
 * bytes: of the container record).  Returns the file index. */
uint32_t session_file_of(const struct session *s, uint64_t loc, uint64_t *file_off);
/*
 * A record's offset as perf report -D shows it, and as dump prints and hex
 * takes it: the offset in its file (directory mode: in its data.N file),
 * less the 16-byte header in pipe mode; decompressed records give their
 * container's.  *file (if not NULL) gets the file index.  Never fails.
 */
uint64_t session_rec_offset(const struct session *s, uint64_t loc, uint32_t *file);

/* For a decompressed loc, its chunk (NULL if loc is in a file). */
const struct zchunk *session_zorigin(const struct session *s, uint64_t loc);

/*
 * Walk every record in file order: top-level records of each file, and
 * after each COMPRESSED record the records decompressed from it.  Calls
 * fn(arg, rec, depth) (depth 1 for decompressed records); stops if fn
 * returns non-zero.  Works from the already loaded data.
 */
typedef int (*session_walk_fn)(void *arg, const struct rec *r, int depth);
int session_walk(const struct session *s, session_walk_fn fn, void *arg);

/* Bytes that follow a record outside its header.size (the payload of
 * TRACING_DATA and AUXTRACE records); 0 for other records. */
uint64_t session_rec_trailing(const struct rec *r);

/* Bytes at loc (len must lie within one file or the zbuf), or NULL. */
const uint8_t *session_bytes(const struct session *s, uint64_t loc, uint64_t len);

/*
 * Give back the resident pages of the mapped file(s) in [from, to) (locs):
 * a hint after reading them, for large recordings read once.  Records
 * there stay readable (they fault back in from the page cache).
 */
void session_drop_pages(const struct session *s, uint64_t from, uint64_t to);

/*
 * The session's tables, owned by it and valid until session_close(); each
 * returns a pointer to hoist out of loops (never NULL; empty tables when
 * nothing was loaded or the session was opened with no_index).
 */
/* The time-ordered index of every record. */
const struct rec_index *session_index(const struct session *s);
/* Threads, processes and address-space history. */
const struct thread_table *session_threads(const struct session *s);
/* The attrs (events) of the recording. */
const struct attr_table *session_attrs(const struct session *s);
/* Counts of records per type over the whole recording. */
const struct type_counts *session_counts(const struct session *s);
/* Counts of records per type of attr i, or NULL if i has none (i out of range). */
const struct type_counts *session_attr_counts(const struct session *s, size_t i);
/* The decoded feature sections. */
const struct features *session_features(const struct session *s);
/* What could not be read while loading (in order found). */
const struct diag_list *session_diags(const struct session *s);
/* Number of files of the recording (1 but for directory mode). */
size_t session_nfiles(const struct session *s);
/* File i of the recording (i < session_nfiles()). */
const struct sfile *session_file(const struct session *s, size_t i);
/* The session's scalars (mode, path, damage, timings...), copied; never fails. */
struct session_info session_info(const struct session *s);

/* Name of attr i ("cycles", "cpu-clock:ppp"), never NULL. */
const char *session_attr_name(const struct session *s, int i);

#endif
