/*
 * err.h: errors and diagnostics of core/ and symbolize/.
 *
 * Fallible calls fill a struct perf_err owned by the caller.  Damage that
 * does not stop loading (a bad record, an undecodable feature section) is
 * kept as a diagnostic in a struct diag_list owned by the session; the text
 * subcommands print them to stderr, the TUI lists them in the header pane.
 */
#ifndef PERFNAV_CORE_ERR_H
#define PERFNAV_CORE_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_ERRS(X) \
	X(OK, "ok") \
	X(IO, "i/o error") \
	X(EMPTY, "empty file") \
	X(NOT_PERF, "not a perf.data file") \
	X(TRUNCATED, "truncated") \
	X(BAD_HEADER, "bad header") \
	X(BAD_RECORD, "bad record") \
	X(ZSTD, "decompression failed") \
	X(NOMEM, "out of memory") \
	X(UNSUPPORTED, "unsupported") \
	X(STOPPED, "stopped on request")

enum perf_err_code {
#define X(n, s) PERF_E_##n,
	PERF_ERRS(X)
#undef X
};

#define PERF_ERR_OFF_NONE UINT64_MAX

struct perf_err {
	enum perf_err_code	code;
	uint64_t		offset;		/* file offset or PERF_ERR_OFF_NONE */
	char			msg[512];
};

/* Fill err (if non-NULL) and return -1. */
int perf_err_set(struct perf_err *err, enum perf_err_code code, uint64_t offset,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A diagnostic: something damaged at a file offset, loading went on. */
struct diag {
	uint64_t	 offset;	/* file offset, PERF_ERR_OFF_NONE if none */
	uint32_t	 file;		/* index of the file (directory mode), 0;
					   UINT32_MAX: the recording as a whole */
	uint32_t	 severity;	/* 0 note, 1 warning, 2 error */
	char		*msg;
};

struct diag_list {
	struct diag	*v;
	size_t		 n, cap;
	size_t		 dropped;	/* diagnostics beyond the cap, counted */
};

enum { DIAG_NOTE, DIAG_WARN, DIAG_ERROR };

/* Append a diagnostic (at most DIAG_MAX kept, the rest counted). */
void diag_add(struct diag_list *l, uint32_t severity, uint32_t file, uint64_t offset,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_free(struct diag_list *l);

#define DIAG_MAX 10000

/*
 * Fatal path (out of memory): runs the hook registered by the program
 * (the TUI's endwin), prints and aborts.  The only exit in core/.
 */
typedef void (*fatal_hook_fn)(void);
void fatal_set_hook(fatal_hook_fn fn);
void fatal_oom(size_t size) __attribute__((noreturn));

/* Allocation that never returns NULL (goes through fatal_oom). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t m);
/* Ask for huge pages under the 2 MiB-aligned interior of p's n bytes
 * (advice only; nothing below 4 MiB): a table filled once, in a pass. */
void huge_advise(void *p, size_t n);
/* The monotonic clock, in seconds: progress, time budgets, figures. */
double mono_seconds(void);
/* n elements of m bytes for a table filled once and never grown: huge pages asked for (err.c). */
void *xmalloc_table(size_t n, size_t m);
void *xcalloc_table(size_t n, size_t m);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Grow *v (of *cap elements of size sz) to hold at least need elements. */
void grow_array(void **v, size_t *cap, size_t need, size_t sz);
#define GROW(vec, capv, need)                                                          \
	do {                                                                           \
		size_t grow_need_ = (need);	/* the room is there most often: no call */ \
		if (grow_need_ > (capv))                                               \
			grow_array((void **)&(vec), &(capv), grow_need_, sizeof(*(vec))); \
	} while (0)

#endif
