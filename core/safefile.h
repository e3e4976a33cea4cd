/*
 * safefile.h: opening files that a recording names (a perf-PID.map, a DSO's
 * path, build-id cache entries, kallsyms, source files, directory-mode
 * data.N files), which may be anything an attacker or an accident put there.
 *
 * Only regular files are read, and never with a blocking open: the path is
 * stat'ed first, opened O_RDONLY|O_CLOEXEC|O_NONBLOCK|O_NOCTTY, and the
 * descriptor fstat'ed again (still a regular file, the same device and
 * inode), so a FIFO, a terminal, /dev/zero or a socket is refused, never
 * waited on or read.  A size cap given by the caller, proportionate to the
 * kind of file (SAFEFILE_CAP_*), refuses a 10 GB sparse file.  In a
 * world-writable directory (/tmp) a file may have to be owned by the
 * effective user or root (SAFEFILE_OWNER), as perf wants of /tmp/perf-*.map.
 *
 * A refusal comes back as a short human reason the caller keeps ("is a
 * FIFO, not a regular file").  The line reader bounds both the length of a
 * line and the bytes read in all, for line-based files.  Nothing here
 * prints; no state is global.
 */
#ifndef PERFNAV_CORE_SAFEFILE_H
#define PERFNAV_CORE_SAFEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* Caps per kind of file: generous for real files, far below a hostile one. */
#define SAFEFILE_MiB		(UINT64_C(1) << 20)
#define SAFEFILE_CAP_JIT_MAP	(256 * SAFEFILE_MiB)	/* perf-PID.map */
#define SAFEFILE_CAP_KALLSYMS	(128 * SAFEFILE_MiB)	/* /proc/kallsyms: ~10 MiB */
#define SAFEFILE_CAP_ELF	(8192 * SAFEFILE_MiB)	/* ELF and DWARF: mapped, not read */
#define SAFEFILE_CAP_LINK	UINT64_C(4096)		/* a build-id cache entry holding a path */
#define SAFEFILE_CAP_NOTES	(64 * UINT64_C(1024))	/* /sys/kernel/notes */
#define SAFEFILE_CAP_SOURCE	(8 * SAFEFILE_MiB)	/* a source file for annotate */

/* Flags of struct safefile_rule. */
#define SAFEFILE_OWNER	0x1	/* in a world-writable directory: owned by euid or root */

/* What a file must be to be read. */
struct safefile_rule {
	const char	*what;		/* the kind, named in reasons: "a JIT map" */
	uint64_t	 cap;		/* largest st_size accepted; 0: no cap */
	unsigned	 flags;		/* SAFEFILE_* */
};

/* How an attempt went. */
enum safefile_status {
	SAFEFILE_OK,
	SAFEFILE_MISSING,	/* not there or not ours to read (ENOENT, EACCES...) */
	SAFEFILE_REFUSED,	/* there, but not a file we read: why says so */
	SAFEFILE_CUT,		/* read, but only up to a cap: why says so */
};

#define SAFEFILE_WHY_MAX	200

struct safefile_note {
	enum safefile_status	status;
	char			why[SAFEFILE_WHY_MAX];	/* "" when OK */
};

/*
 * Check path against rule without opening it (stat, type, size, owner).
 * Returns 0 if it may be opened, -1 otherwise with note (may be NULL)
 * saying MISSING or REFUSED and why; st (may be NULL) gets the stat.
 */
int safefile_check(const char *path, const struct safefile_rule *rule, struct stat *st,
    struct safefile_note *note);

/*
 * Open path for reading under rule, without blocking: a descriptor
 * (O_CLOEXEC, blocking mode restored) of a regular file within the cap,
 * with its fstat in *st (may be NULL); or -1 with note (may be NULL)
 * saying MISSING or REFUSED and why.  The caller closes the descriptor.
 */
int safefile_open(const char *path, const struct safefile_rule *rule, struct stat *st,
    struct safefile_note *note);

/* "10.0 GiB", "256 MiB", "12 bytes" into buf; returns buf. */
const char *safefile_size_text(uint64_t n, char *buf, size_t len);

/*
 * A bounded line reader over a descriptor: lines at most max_line bytes
 * (longer ones are skipped and counted), max_total bytes read in all (then
 * it stops, and says so).  No allocation grows with the input beyond
 * max_line.
 */
struct safefile_lines {
	int		 fd;
	char		*buf;
	size_t		 cap;		/* max_line + 2 */
	size_t		 start, end;	/* unread bytes in buf */
	uint64_t	 total, max_total;
	uint64_t	 long_lines;	/* skipped for their length */
	bool		 skipping;	/* inside a line too long to keep */
	bool		 eof;
	bool		 cut;		/* stopped at max_total */
	bool		 error;		/* a read failed */
};

/* Set up lr over fd (not closed by it). */
void safefile_lines_init(struct safefile_lines *lr, int fd, size_t max_line, uint64_t max_total);
/*
 * The next line, without its '\n' (a last line without one counts), in
 * *line (valid until the next call, NUL-terminated) and *len.  Returns 1,
 * or 0 at the end (of the file, the byte budget, or a read error).
 */
int safefile_lines_next(struct safefile_lines *lr, const char **line, size_t *len);
/* Frees lr's buffer. */
void safefile_lines_free(struct safefile_lines *lr);
/*
 * If lr stopped early (cut at max_total or a read error), fill note with
 * CUT and why ("read only the first 256 MiB, the cap for a JIT map"),
 * naming rule's kind; returns true then.
 */
bool safefile_lines_note(const struct safefile_lines *lr, const struct safefile_rule *rule,
    struct safefile_note *note);

#endif
