#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include "core/err.h"

static fatal_hook_fn fatal_hook;

int
perf_err_set(struct perf_err *err, enum perf_err_code code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	err->code = code;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void
diag_add(struct diag_list *l, uint32_t severity, uint32_t file, uint64_t offset, const char *fmt,
    ...)
{
	va_list ap;
	char buf[512];
	struct diag *d;

	if (l->n >= DIAG_MAX) {
		l->dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	GROW(l->v, l->cap, l->n + 1);
	d = &l->v[l->n++];
	d->offset = offset;
	d->file = file;
	d->severity = severity;
	d->msg = xstrdup(buf);
}

void
diag_free(struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].msg);
	free(l->v);
	memset(l, 0, sizeof *l);
}

void
fatal_set_hook(fatal_hook_fn fn)
{
	fatal_hook = fn;
}

void
fatal_oom(size_t size)
{
	if (fatal_hook != NULL)
		fatal_hook();
	fprintf(stderr, "perfnav: out of memory (allocating %zu bytes)\n", size);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		fatal_oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (p == NULL)
		fatal_oom(n * m);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		fatal_oom(n);
	return q;
}

double
mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
huge_advise(void *p, size_t n)
{
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + n) & ~(huge - 1);

#ifdef MADV_HUGEPAGE
	if (n >= 2 * huge && e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)a;
	(void)e;
#endif
}

/*
 * A table made once at its full size and filled in one pass (off-CPU
 * spans from a count of the index, a hist read back from the cache, each
 * sample position's row): its 2 MiB-aligned interior is asked to be
 * backed by huge pages where the kernel gives them on request
 * (transparent_hugepage=madvise, Debian's default), so that filling tens
 * of megabytes takes a fault per 2 MiB, not per 4 KiB (on this kind of VM
 * a fault costs microseconds: a reopen of a 356 MB recording spent a
 * third of its time in them).  Only advice, and only for a table that is
 * not grown afterwards (tables grown by grow_array's mremap measured worse
 * with huge pages).
 */
void *
xmalloc_table(size_t n, size_t m)
{
	void *p = xreallocarray(NULL, n, m);

	huge_advise(p, n * m);
	return p;
}

/*
 * xmalloc_table zeroed.  A large calloc is a fresh mapping, not touched
 * yet when the advice is given; a smaller one may be zeroed already.
 */
void *
xcalloc_table(size_t n, size_t m)
{
	void *p = xcalloc(n, m);

	huge_advise(p, n * m);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t m)
{
	if (m != 0 && n > SIZE_MAX / m)
		fatal_oom(SIZE_MAX);
	return xrealloc(p, n * m);
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		fatal_oom(strlen(s) + 1);
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		fatal_oom(n + 1);
	return p;
}

void
grow_array(void **v, size_t *cap, size_t need, size_t sz)
{
	size_t ncap;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			fatal_oom(SIZE_MAX);
		ncap *= 2;
	}
	*v = xreallocarray(*v, ncap, sz);
	*cap = ncap;
}
