#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/origin.h"
#include "symbolize/filter.h"
#include "symbolize/symbolizer.h"

/*
 * The sample filter: perf report's --time (perf's time-utils rules, written
 * anew), --cpu, --comms, --pid, --tid, --dsos and --symbols.
 */

#define NSEC_PER_SEC	UINT64_C(1000000000)

/* Seconds "123.456" (up to 9 decimals) into ns; [s, e) is the text.  0, or -1. */
static int
parse_secs(const char *s, const char *e, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int nd = 0;

	if (s == e)
		return -1;
	for (; s < e && *s != '.'; s++) {
		if (!isdigit((unsigned char)*s) || sec > UINT64_MAX / NSEC_PER_SEC / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (s < e)
		s++;	/* the '.' */
	for (; s < e; s++, nd++) {
		if (!isdigit((unsigned char)*s) || nd == 9)
			return -1;
		frac = frac * 10 + (uint64_t)(*s - '0');
	}
	for (; nd < 9; nd++)
		frac *= 10;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

/* One "START,END" in [s, e) (either side empty: open).  0, or -1. */
static int
parse_abs_range(const char *s, const char *e, struct filter_range *r)
{
	const char *c = memchr(s, ',', (size_t)(e - s));

	if (c == NULL)
		return -1;
	r->start = r->end = 0;
	if (c > s && parse_secs(s, c, &r->start) < 0)
		return -1;
	if (e > c + 1 && parse_secs(c + 1, e, &r->end) < 0)
		return -1;
	if (r->end != 0 && r->end < r->start)
		return -1;
	return 0;
}

/*
 * Absolute ranges: "a,b c,d" (perf's form) or "a,b,c,d" (pairs).  Returns
 * the count in *out (allocated), or -1.
 */
static int
parse_abs(const char *s, struct filter_range **out, size_t *n)
{
	size_t cap = strlen(s) / 2 + 2, k = 0;
	struct filter_range *v = xreallocarray(NULL, cap, sizeof *v);
	const char *p = s;

	while (*p != '\0') {
		const char *e, *c1;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		for (e = p; *e != '\0' && !isspace((unsigned char)*e); e++)
			;
		/* "a,b,c,d" without spaces: cut after every second comma */
		c1 = memchr(p, ',', (size_t)(e - p));
		if (c1 != NULL) {
			const char *c2 = memchr(c1 + 1, ',', (size_t)(e - c1 - 1));

			if (c2 != NULL)
				e = c2;
		}
		if (k == cap || parse_abs_range(p, e, &v[k]) < 0)
			goto bad;
		k++;
		p = *e == ',' ? e + 1 : e;
		if (*e == ',' && *p == '\0')
			goto bad;
	}
	if (k == 0)
		goto bad;
	/* each range after the one before (perf's overlap check) */
	for (size_t i = 0; i + 1 < k; i++)
		if (v[i].end >= v[i + 1].start)
			goto bad;
	*out = v;
	*n = k;
	return 0;
bad:
	free(v);
	return -1;
}

/* "12.5%" exactly in [s, e) into a fraction.  0, or -1. */
static int
parse_pct(const char *s, const char *e, double *frac)
{
	char buf[64], *end;

	if (e - s < 2 || e[-1] != '%' || (size_t)(e - s) >= sizeof buf)
		return -1;
	memcpy(buf, s, (size_t)(e - s - 1));
	buf[e - s - 1] = '\0';
	errno = 0;
	*frac = strtod(buf, &end) / 100.0;
	if (end == buf || *end != '\0' || errno != 0 || isspace((unsigned char)buf[0]))
		return -1;
	return 0;
}

/* perf's set_percent_time: fractions of [first, last] into r.  0, or -1. */
static int
pct_range(double a, double b, uint64_t first, uint64_t last, struct filter_range *r)
{
	double span = (double)(last - first);

	if (!(a >= 0.0 && a <= 1.0 && b >= 0.0 && b <= 1.0))
		return -1;
	r->start = first + (uint64_t)(a * span + 0.5);	/* round(), as perf */
	r->end = first + (uint64_t)(b * span + 0.5);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* One percent piece [s, e): "P%/N" (slash), "A%-B%" (dash) or "P%" (single). */
static int
parse_pct_piece(const char *s, const char *e, char form, uint64_t first, uint64_t last,
    struct filter_range *r)
{
	const char *m;
	double a, b;

	if (form == '%')
		return parse_pct(s, e, &a) < 0 || a <= 0.0 ? -1 : pct_range(0.0, a, first, last, r);
	m = memchr(s, form, (size_t)(e - s));
	if (m == NULL || parse_pct(s, m, &a) < 0)
		return -1;
	if (form == '-') {
		if (parse_pct(m + 1, e, &b) < 0)
			return -1;
		return pct_range(a, b, first, last, r);
	}
	{
		char buf[24], *end;
		long i;

		if (e - m - 1 < 1 || (size_t)(e - m - 1) >= sizeof buf)
			return -1;
		memcpy(buf, m + 1, (size_t)(e - m - 1));
		buf[e - m - 1] = '\0';
		i = strtol(buf, &end, 10);
		if (*end != '\0' || a <= 0.0)
			return -1;
		return pct_range(a * (double)(i - 1), a * (double)i, first, last, r);
	}
}

/* Percent forms, comma-separated, all of one form (as perf decides it).  0, or -1. */
static int
parse_percent(const char *s, uint64_t first, uint64_t last, struct filter_range **out,
    size_t *n)
{
	char form = strchr(s, '/') ? '/' : strchr(s, '-') ? '-' : '%';
	size_t cap = 1, k = 0;
	struct filter_range *v;
	const char *p = s;

	for (const char *c = s; *c; c++)
		cap += *c == ',';
	if (form == '%' && cap != 1)
		return -1;
	v = xreallocarray(NULL, cap, sizeof *v);
	for (;;) {
		const char *e = strchr(p, ',');

		if (e == NULL)
			e = p + strlen(p);
		if (parse_pct_piece(p, e, form, first, last, &v[k]) < 0) {
			free(v);
			return -1;
		}
		k++;
		if (*e == '\0')
			break;
		p = e + 1;
	}
	*out = v;
	*n = k;
	return 0;
}

int
filter_parse_time(struct hist_filter *f, const char *s, uint64_t first, uint64_t last)
{
	struct filter_range *v;
	size_t n;
	int rc;

	if (strchr(s, '%') != NULL)
		rc = last < first ? -1 : parse_percent(s, first, last, &v, &n);
	else
		rc = parse_abs(s, &v, &n);
	if (rc < 0)
		return -1;
	free(f->time);
	f->time = v;
	f->ntime = n;
	return 0;
}

static void
free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Comma-separated numbers in [0, max], "a-b" ranges if ranges.  0, or -1. */
static int
parse_list(const char *s, bool ranges, long max, long **out, size_t *n)
{
	size_t k = 0, cap = 8;
	long *v = xreallocarray(NULL, cap, sizeof *v);
	const char *p = s;

	for (;;) {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			goto bad;
		a = b = strtol(p, &end, 10);
		if (ranges && *end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			b = strtol(end + 1, &end, 10);
		}
		if ((*end != ',' && *end != '\0') || a > max || b > max || b < a)
			goto bad;
		for (long x = a; x <= b; x++) {
			if (k == cap)
				v = xreallocarray(v, cap *= 2, sizeof *v);
			v[k++] = x;
		}
		if (*end == '\0')
			break;
		p = end + 1;
	}
	*out = v;
	*n = k;
	return 0;
bad:
	free(v);
	return -1;
}

static int
parse_ids(const char *s, int32_t **out, size_t *nout)
{
	long *v;
	size_t n;

	if (parse_list(s, false, INT32_MAX, &v, &n) < 0)
		return -1;
	free(*out);
	*out = xreallocarray(NULL, n, sizeof **out);
	for (size_t i = 0; i < n; i++)
		(*out)[i] = (int32_t)v[i];
	*nout = n;
	free(v);
	return 0;
}

int
filter_parse_pids(struct hist_filter *f, const char *s)
{
	return parse_ids(s, &f->pids, &f->npids);
}

int
filter_parse_tids(struct hist_filter *f, const char *s)
{
	return parse_ids(s, &f->tids, &f->ntids);
}

int
filter_parse_cpus(struct hist_filter *f, const char *s)
{
	long *v;
	size_t n;

	if (parse_list(s, true, FILTER_MAX_CPU, &v, &n) < 0)
		return -1;
	free(f->cpus);
	f->cpus = xreallocarray(NULL, n, sizeof *f->cpus);
	for (size_t i = 0; i < n; i++)
		f->cpus[i] = (uint32_t)v[i];
	f->ncpus = n;
	free(v);
	return 0;
}

int
filter_parse_parallelism(struct hist_filter *f, const char *s)
{
	long *v;
	size_t n;

	if (parse_list(s, true, FILTER_MAX_PAR, &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == 0) {
			free(v);
			return -1;	/* as perf: "parallelism level 0 is invalid" */
		}
	}
	free(f->pars);
	f->pars = xcalloc(FILTER_PAR_WORDS, sizeof *f->pars);
	f->npars = FILTER_PAR_WORDS;
	for (size_t i = 0; i < n; i++)
		f->pars[v[i] / 64] |= UINT64_C(1) << (v[i] % 64);
	free(v);
	return 0;
}

bool
filter_par_ok(const struct hist_filter *f, uint32_t level)
{
	if (f == NULL || f->npars == 0 || level == 0)
		return true;
	return level / 64 < f->npars && ((f->pars[level / 64] >> (level % 64)) & 1);
}

/* Comma-separated names into *v, *n (replacing them).  0, or -1 for an empty name. */
static int
parse_names(const char *s, char ***out, size_t *nout)
{
	size_t n = 1, k = 0;
	char **v;

	for (const char *c = s; *c; c++)
		n += *c == ',';
	v = xreallocarray(NULL, n, sizeof *v);
	for (const char *p = s;; p++) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == 0) {
			while (k > 0)
				free(v[--k]);
			free(v);
			return -1;
		}
		v[k] = xreallocarray(NULL, len + 1, 1);
		memcpy(v[k], p, len);
		v[k++][len] = '\0';
		if (e == NULL)
			break;
		p = e;
	}
	free_names(*out, *nout);
	*out = v;
	*nout = k;
	return 0;
}

int
filter_parse_comms(struct hist_filter *f, const char *s)
{
	return parse_names(s, &f->comms, &f->ncomms);
}

int
filter_parse_dsos(struct hist_filter *f, const char *s)
{
	return parse_names(s, &f->dsos, &f->ndsos);
}

int
filter_parse_files(struct hist_filter *f, const char *s)
{
	if (parse_names(s, &f->files, &f->nfiles) < 0)
		return -1;
	free(f->flocs);
	f->flocs = NULL;
	f->nflocs = 0;
	return 0;
}

bool
filter_file_named(const char *name, const char *want)
{
	const char *base = strrchr(name, '/');

	return strcmp(name, want) == 0 || (base != NULL && strcmp(base + 1, want) == 0);
}

int
filter_place_files(struct hist_filter *f, const struct origins *o, const char **bad)
{
	size_t k = 0;

	free(f->flocs);
	f->flocs = NULL;
	f->nflocs = 0;
	if (f->nfiles == 0)
		return 0;
	for (size_t i = 0; i < f->nfiles; i++) {
		size_t j = 0;

		while (j < o->n && !filter_file_named(o->v[j].name, f->files[i]))
			j++;
		if (j == o->n) {
			*bad = f->files[i];
			return -1;
		}
	}
	f->flocs = xreallocarray(NULL, o->n, sizeof *f->flocs);
	for (size_t j = 0; j < o->n; j++)
		for (size_t i = 0; i < f->nfiles; i++)
			if (filter_file_named(o->v[j].name, f->files[i])) {
				f->flocs[k].start = o->v[j].start;
				f->flocs[k++].end = o->v[j].end;
				break;
			}
	f->nflocs = k;
	return 0;
}

bool
filter_loc_ok(const struct hist_filter *f, uint64_t loc)
{
	if (f == NULL || f->nflocs == 0)
		return true;
	for (size_t i = 0; i < f->nflocs; i++)
		if (loc >= f->flocs[i].start && loc < f->flocs[i].end)
			return true;
	return false;
}

/* Does name read whole as a hex number (perf's strtoul(.., 16), trailing blanks)? */
static bool
hex_addr(const char *name, uint64_t *ip)
{
	char *end;
	unsigned long long v;

	if (!isxdigit((unsigned char)name[0]))
		return false;
	errno = 0;
	v = strtoull(name, &end, 16);
	if (errno != 0 || end == name)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	*ip = v;
	return *end == '\0';
}

int
filter_parse_symbols(struct hist_filter *f, const char *s)
{
	char **v = NULL;
	size_t n = 0, k = 0, nips = 0;
	uint64_t *ips;

	if (parse_names(s, &v, &n) < 0)
		return -1;
	ips = xreallocarray(NULL, n, sizeof *ips);
	for (size_t i = 0; i < n; i++) {
		if (hex_addr(v[i], &ips[nips])) {
			nips++;
			free(v[i]);
		} else {
			v[k++] = v[i];
		}
	}
	free_names(f->syms, f->nsyms);
	free(f->sym_ips);
	f->syms = v;
	f->nsyms = k;
	f->sym_ips = ips;
	f->nsym_ips = nips;
	return 0;
}

bool
filter_active(const struct hist_filter *f)
{
	return f != NULL &&
	    (f->ntime || f->npids || f->ntids || f->ncomms || f->ncpus || f->ndsos || f->nsyms ||
	    f->nsym_ips || f->npars || f->nfiles || f->nflocs);
}

bool
filter_time_ok(const struct hist_filter *f, uint64_t time)
{
	if (f == NULL || f->ntime == 0 || time == 0)
		return true;
	if (f->ntime == 1)
		return !((f->time[0].start && time < f->time[0].start) ||
		    (f->time[0].end && time > f->time[0].end));
	for (size_t i = 0; i < f->ntime; i++)
		if (time >= f->time[i].start && (time <= f->time[i].end || f->time[i].end == 0))
			return true;
	return false;
}

static bool
has_id(const int32_t *v, size_t n, int32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool
filter_sample_ok(const struct hist_filter *f, uint64_t time, bool has_cpu, uint32_t cpu)
{
	if (f == NULL)
		return true;
	if (!filter_time_ok(f, time))
		return false;
	if (f->ncpus == 0)
		return true;
	if (!has_cpu)
		return false;	/* on no cpu of the list (perf's cpu would be -1) */
	for (size_t i = 0; i < f->ncpus; i++)
		if (f->cpus[i] == cpu)
			return true;
	return false;
}

bool
filter_entry_ok(const struct hist_filter *f, int32_t pid, int32_t tid, const char *comm)
{
	if (f == NULL)
		return true;
	if (f->npids && !has_id(f->pids, f->npids, pid))
		return false;
	if (f->ntids && !has_id(f->tids, f->ntids, tid))
		return false;
	if (f->ncomms) {
		for (size_t i = 0; i < f->ncomms; i++)
			if (comm != NULL && strcmp(f->comms[i], comm) == 0)
				return true;
		return false;
	}
	return true;
}

static bool
has_name(char *const *v, size_t n, const char *x)
{
	for (size_t i = 0; x != NULL && i < n; i++)
		if (strcmp(v[i], x) == 0)
			return true;
	return false;
}

bool
filter_has_frame(const struct hist_filter *f)
{
	return f != NULL && (f->ndsos || f->nsyms || f->nsym_ips);
}

bool
filter_frame_ok(const struct hist_filter *f, const struct symbolizer *z, const struct frame *fr)
{
	if (!filter_has_frame(f))
		return true;
	if (f->ndsos && (z == NULL || fr->dso == DSO_NONE ||
	    !(has_name(f->dsos, f->ndsos, symbolizer_dso_short(z, fr->dso)) ||
	    has_name(f->dsos, f->ndsos, symbolizer_dso_long(z, fr->dso)))))
		return false;
	if (f->nsyms || f->nsym_ips) {
		for (size_t i = 0; i < f->nsym_ips; i++)
			if (f->sym_ips[i] == fr->ip)
				return true;
		return z != NULL && fr->sym != SYM_NONE &&
		    has_name(f->syms, f->nsyms, symbolizer_sym_name(z, fr->sym));
	}
	return true;
}

static bool
names_equal(char *const *a, char *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

bool
filter_equal(const struct hist_filter *a, const struct hist_filter *b)
{
	if (!filter_active(a) || !filter_active(b))
		return filter_active(a) == filter_active(b);
	if (a->ntime != b->ntime || a->npids != b->npids || a->ntids != b->ntids ||
	    a->ncomms != b->ncomms || a->ncpus != b->ncpus || a->ndsos != b->ndsos ||
	    a->nsyms != b->nsyms || a->nsym_ips != b->nsym_ips || a->npars != b->npars ||
	    a->nfiles != b->nfiles || a->nflocs != b->nflocs)
		return false;
	if (a->nflocs && memcmp(a->flocs, b->flocs, a->nflocs * sizeof *a->flocs))
		return false;
	if ((a->ntime && memcmp(a->time, b->time, a->ntime * sizeof *a->time)) ||
	    (a->npids && memcmp(a->pids, b->pids, a->npids * sizeof *a->pids)) ||
	    (a->ntids && memcmp(a->tids, b->tids, a->ntids * sizeof *a->tids)) ||
	    (a->ncpus && memcmp(a->cpus, b->cpus, a->ncpus * sizeof *a->cpus)) ||
	    (a->nsym_ips && memcmp(a->sym_ips, b->sym_ips, a->nsym_ips * sizeof *a->sym_ips)) ||
	    (a->npars && memcmp(a->pars, b->pars, a->npars * sizeof *a->pars)))
		return false;
	return names_equal(a->comms, b->comms, a->ncomms) &&
	    names_equal(a->dsos, b->dsos, a->ndsos) && names_equal(a->syms, b->syms, a->nsyms) &&
	    names_equal(a->files, b->files, a->nfiles);
}

static void *
dup_array(const void *v, size_t n, size_t size)
{
	void *d;

	if (v == NULL || n == 0)
		return NULL;
	d = xreallocarray(NULL, n, size);
	memcpy(d, v, n * size);
	return d;
}

static char **
dup_names(char *const *v, size_t n)
{
	char **d;

	if (v == NULL || n == 0)
		return NULL;
	d = xreallocarray(NULL, n, sizeof *d);
	for (size_t i = 0; i < n; i++)
		d[i] = xstrdup(v[i]);
	return d;
}

void
filter_copy(struct hist_filter *dst, const struct hist_filter *src)
{
	memset(dst, 0, sizeof *dst);
	if (src == NULL)
		return;
	*dst = *src;
	dst->time = dup_array(src->time, src->ntime, sizeof *src->time);
	dst->pids = dup_array(src->pids, src->npids, sizeof *src->pids);
	dst->tids = dup_array(src->tids, src->ntids, sizeof *src->tids);
	dst->cpus = dup_array(src->cpus, src->ncpus, sizeof *src->cpus);
	dst->sym_ips = dup_array(src->sym_ips, src->nsym_ips, sizeof *src->sym_ips);
	dst->pars = dup_array(src->pars, src->npars, sizeof *src->pars);
	dst->comms = dup_names(src->comms, src->ncomms);
	dst->dsos = dup_names(src->dsos, src->ndsos);
	dst->syms = dup_names(src->syms, src->nsyms);
	dst->files = dup_names(src->files, src->nfiles);
	dst->flocs = dup_array(src->flocs, src->nflocs, sizeof *src->flocs);
}

void
filter_set_name(char ***list, size_t *n, const char *name)
{
	free_names(*list, *n);
	*list = xreallocarray(NULL, 1, sizeof **list);
	(*list)[0] = xstrdup(name);
	*n = 1;
}

void
filter_free(struct hist_filter *f)
{
	free_names(f->comms, f->ncomms);
	free_names(f->dsos, f->ndsos);
	free_names(f->syms, f->nsyms);
	free_names(f->files, f->nfiles);
	free(f->flocs);
	free(f->time);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->sym_ips);
	free(f->pars);
	memset(f, 0, sizeof *f);
}
