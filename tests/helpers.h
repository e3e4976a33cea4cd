/*
 * helpers.h: test helpers.  A byte writer that builds perf.data files on
 * purpose, in either byte order, and small file utilities.
 */
#ifndef PERFNAV_TESTS_HELPERS_H
#define PERFNAV_TESTS_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pdbuf {
	uint8_t	*p;
	size_t	 len, cap;
	bool	 swap;		/* write big-endian (on a little-endian host) */
};

void pd_bytes(struct pdbuf *b, const void *p, size_t n);
void pd_zero(struct pdbuf *b, size_t n);
void pd_u8(struct pdbuf *b, uint8_t v);
void pd_u16(struct pdbuf *b, uint16_t v);
void pd_u32(struct pdbuf *b, uint32_t v);
void pd_u64(struct pdbuf *b, uint64_t v);
/* Overwrite a u64/u32/u16 at an offset already written. */
void pd_put64(struct pdbuf *b, size_t at, uint64_t v);
void pd_put32(struct pdbuf *b, size_t at, uint32_t v);
void pd_put16(struct pdbuf *b, size_t at, uint16_t v);
/* A feature section string: u32 length (NUL included, padded to 8), then
 * the bytes and NULs. */
void pd_feat_str(struct pdbuf *b, const char *s);
/* A string padded with NULs to a multiple of 8 (at least one NUL). */
void pd_str8(struct pdbuf *b, const char *s);
/* Start a record; pd_rec_end patches its size. */
size_t pd_rec_begin(struct pdbuf *b, uint32_t type, uint16_t misc);
void pd_rec_end(struct pdbuf *b, size_t start);
/* Write an attr of 'size' bytes (>= 64) with the given fields, bitfield
 * word in the target byte order's layout. */
void pd_attr(struct pdbuf *b, uint32_t size, uint32_t type, uint64_t config, uint64_t period,
    uint64_t sample_type, uint64_t read_format, uint64_t flags /* native bit order */);
void pd_free(struct pdbuf *b);

/*
 * A small synthetic file-mode recording: one cpu-clock attr with ids
 * {100, 101}, sample_type IP|TID|TIME|ID|CPU|PERIOD, sample_id_all; data:
 * COMM, MMAP2, nsamples samples (times 1000 + 10*i, out of order inside
 * each round of 4), a FINISHED_ROUND after every 4 samples, EXIT;
 * feature sections HOSTNAME and OSRELEASE.  Returns the bytes in *b.
 */
void synth_file(struct pdbuf *b, bool swap, int nsamples);
/* Offsets of parts of the last synth_file() output. */
struct synth_layout {
	size_t	data_off, data_size;
	size_t	first_sample;	/* offset of the first SAMPLE record */
	size_t	nrecords;	/* records in the data section */
	size_t	feat_table;
};
extern struct synth_layout synth_layout;

/*
 * A recording whose names are the given strings, as a hostile recording
 * may make them: the comm of pid 42 (COMM), the file of its MMAP2 at
 * 0x400000, the event's name (EVENT_DESC), the hostname and perf's second
 * argument (CMDLINE).  Pid 42 also maps anonymous memory (a JIT's) at
 * SYNTH_JIT_ADDR, whose symbols a perf-42.map may give.  nsamples samples
 * of pid 42 alternate between 0x400100 and SYNTH_JIT_ADDR + 0x10 (or go
 * through ips, when given).
 */
struct synth_names {
	const char	*comm, *dso, *event, *hostname, *cmdline_arg;
	const uint64_t	*ips;		/* when set: the samples' IPs, cycled through */
	int		 nips;
};
#define SYNTH_JIT_ADDR	0x7f0000000000ull
void synth_names_file(struct pdbuf *b, const struct synth_names *nm, int nsamples);

/*
 * A C++-like name of at least len bytes (malloc'd): "ns::T0000<T0001<...
 * int>...>::operator()_end", its template lists nested, its end unique.
 */
char *synth_long_name(size_t len);
/*
 * synth_names_file's recording (comm "longjit", DSO d.so, event cpu-clock,
 * nsamples samples) with a perf-42.map in a new directory naming the JIT
 * symbol sym: the recording's path (malloc'd) and the map's directory in
 * mapdir (a template of mkdtemp's, "/tmp/...XXXXXX", filled in).
 * synth_jit_remove() deletes both and frees the path.
 */
char *synth_jit_file(const char *sym, char *mapdir, int nsamples);
void synth_jit_remove(char *path, const char *mapdir);

/*
 * The start of a synthetic file-mode recording: the header (its data and
 * feature fields patched by the caller), ids {100, 101}, one cpu-clock attr
 * of 128 bytes (sample_type, attr flags) and its attrs section.  Returns
 * where the data section starts.
 */
size_t synth_head_with(struct pdbuf *b, bool swap, uint64_t sample_type, uint64_t flags);
/* A shell command's whole standard output (malloc'd, NUL-terminated; its
 * length into *len, may be NULL) and pclose's status into *status; NULL if
 * it cannot start. */
char *cmd_output(const char *cmd, size_t *len, int *status);

/* Write bytes to a new temporary file; returns its malloc'd path. */
char *tmp_write(const char *tag, const void *p, size_t n);
/* Read a whole file (malloc'd, NUL-terminated); NULL if unreadable. */
char *slurp(const char *path, size_t *len);
/* Path under tests/data (static buffer). */
const char *test_data(const char *name);
/* Open tests/data/NAME (aborts, failing the running test, if it cannot). */
struct session *open_fixture(const char *name);
/*
 * A cache test's fixture: a cache directory dir and a copy of the
 * fixtures' build-id cache bid (each of n bytes, made under /tmp with
 * tag), a copy of tests/data/FIXTURE (*rec, to free), and symbol options
 * so that read that build-id cache, no kallsyms and no server.
 * cache_fixture_free removes them.  Both abort on failure.
 */
/*
 * A recording in memory (p, n bytes, named name) or at path, opened as far
 * as it reads (keep_going); aborts, failing the test, if it cannot be.
 */
struct session *session_of_buf(const char *name, const void *p, size_t n);
struct session *session_of_path(const char *path);
/*
 * The perf-made fixtures names[0..n) (under tests/data) merged as perfnav
 * merge merges them, each input named by its path (as test_data gives
 * it), the merge opened from memory; *bytes holds the merged file (free
 * it after session_close).  Aborts, failing the test, if they cannot be.
 */
struct session *merged_fixtures(const char *const *names, size_t n, void **bytes);
/*
 * A ustar header for name of type ('0' file, '5' directory, '2' link...),
 * mode, size bytes (over 8 GiB in base 256) and link, its checksum set.
 */
void tar_header(uint8_t h[512], const char *name, char type, unsigned mode, uint64_t size,
    const char *link);
struct sym_opts;
void cache_fixture(char *dir, char *bid, size_t n, char **rec, struct sym_opts *so,
    const char *fixture, const char *tag);
void cache_fixture_free(const char *dir, const char *bid, char *rec);
bool file_exists(const char *path);
/* Files of dir whose name holds part (NULL: every one but . and ..); -1 if dir cannot be read. */
int dir_files_with(const char *dir, const char *part);

/*
 * One test at a time, for a suite whose tests have timeouts (a regression
 * must fail, not hang): Criterion 2.4.1's timeout thread (BoxFort's
 * timeout-posix.c) leaks a request when timeouts of tests running side by
 * side are cancelled, which LeakSanitizer reports in the sanitizer build.
 * Criterion reads CRITERION_JOBS in its main, after this constructor runs;
 * a value given outside wins.  Write it once at file scope.
 */
#define TESTS_ONE_AT_A_TIME \
	__attribute__((constructor)) static void \
	tests_one_job_at_a_time(void) \
	{ \
		setenv("CRITERION_JOBS", "1", 0); \
	}

#endif
