#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/err.h"
#include "symbolize/flame.h"
#include "symbolize/symbolizer.h"

/*
 * The flame graph's layout, kinds of code and search (symbolize/flame.h).
 * Columns are computed from periods scaled down by a shift that keeps
 * period * width within 64 bits; the shift is the same for every frame of
 * a layout, so columns grow with the period offset and children stay
 * inside their parent.
 */

/* ---- layout ---- */

struct lay {
	struct flame		*fl;
	const struct cpath	*t;
	const struct hist	*h;
	const struct symbolizer	*z;
	uint64_t		 total;		/* the top node's total period */
	uint64_t		 min;		/* the least period a column takes */
	unsigned		 shift;
};

static unsigned
column(const struct lay *l, uint64_t at)
{
	uint64_t a = at >> l->shift, r = l->total >> l->shift;

	return (unsigned)(a * l->fl->width / r);
}

static uint32_t
add_frame(struct lay *l, uint32_t node, uint32_t parent, uint32_t row, uint64_t start,
    unsigned x, unsigned w)
{
	struct flame *fl = l->fl;
	struct flame_frame *f;

	GROW(fl->f, fl->cap, fl->n + 1);
	f = &fl->f[fl->n];
	memset(f, 0, sizeof *f);
	f->node = node;
	f->parent = parent;
	f->child = FLAME_NONE;
	f->row = row;
	f->start = start;
	f->x = x;
	f->w = w;
	f->kind = (uint8_t)flame_kind(l->h, l->z, cpath_node(l->t, node)->func);
	return (uint32_t)fl->n++;
}

/* The children of frame i at least a column wide, on the next row. */
static void
lay_children(struct lay *l, uint32_t i)
{
	struct flame *fl = l->fl;
	uint64_t at = fl->f[i].start;
	uint32_t row = fl->f[i].row + 1, first = (uint32_t)fl->n, n = 0;
	const struct cpath_node *pn = cpath_node(l->t, fl->f[i].node);

	for (uint32_t c = pn->first_child; c != CPATH_NONE && l->total > 0;
	    c = cpath_node(l->t, c)->next_sibling) {
		uint64_t per = cpath_node(l->t, c)->total_period;
		unsigned x0, x1;

		/* children come widest first: the rest are narrower still */
		if (per < l->min)
			break;
		x0 = column(l, at);
		x1 = column(l, at + per);
		if (x1 > x0) {
			add_frame(l, c, i, row, at, x0, x1 - x0);
			n++;
		}
		at += per;
	}
	fl->f[i].child = n ? first : FLAME_NONE;
	fl->f[i].nchild = n;
}

void
flame_layout(struct flame *fl, const struct cpath *t, uint32_t top, unsigned width,
    const struct hist *h, const struct symbolizer *z)
{
	struct lay l = { fl, t, h, z, 0, 0, 0 };

	fl->n = 0;
	fl->nrows = 0;
	fl->width = width ? width : 1;
	if (top >= cpath_count(t))
		top = 0;
	fl->top = top;
	l.total = cpath_node(t, top)->total_period;
	/* total * width must fit in 64 bits: widths stay under 2^16 */
	while ((l.total >> l.shift) >= UINT64_C(1) << 47)
		l.shift++;
	/* a node takes a column when per * width >= total */
	l.min = l.total / fl->width + (l.total % fl->width != 0);
	add_frame(&l, top, FLAME_NONE, 0, 0, 0, fl->width);
	GROW(fl->row, fl->caprow, 2);
	fl->row[0] = 0;
	fl->row[1] = 1;
	fl->nrows = 1;
	for (size_t r = 0; r < fl->nrows; r++) {
		uint32_t a = fl->row[r], b = fl->row[r + 1];

		for (uint32_t i = a; i < b; i++)
			lay_children(&l, i);
		if (fl->n > b) {
			GROW(fl->row, fl->caprow, fl->nrows + 2);
			fl->row[fl->nrows + 1] = (uint32_t)fl->n;
			fl->nrows++;
		}
	}
}

void
flame_free(struct flame *fl)
{
	free(fl->f);
	free(fl->row);
	memset(fl, 0, sizeof *fl);
}

uint32_t
flame_at(const struct flame *fl, size_t row, unsigned col)
{
	uint32_t lo, hi;

	if (row >= fl->nrows)
		return FLAME_NONE;
	lo = fl->row[row];
	hi = fl->row[row + 1];
	/* the last frame starting at or before col */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (fl->f[mid].x <= col)
			lo = mid;
		else
			hi = mid;
	}
	if (fl->f[lo].x <= col && col < fl->f[lo].x + fl->f[lo].w)
		return lo;
	return FLAME_NONE;
}

uint32_t
flame_of_node(const struct flame *fl, uint32_t node)
{
	for (size_t i = 0; i < fl->n; i++)
		if (fl->f[i].node == node)
			return (uint32_t)i;
	return FLAME_NONE;
}

uint32_t
flame_child(const struct flame *fl, uint32_t i, unsigned col)
{
	uint32_t best = FLAME_NONE;

	if (i >= fl->n || fl->f[i].nchild == 0)
		return FLAME_NONE;
	for (uint32_t c = fl->f[i].child; c < fl->f[i].child + fl->f[i].nchild; c++) {
		if (fl->f[c].x <= col && col < fl->f[c].x + fl->f[c].w)
			return c;
		if (best == FLAME_NONE || fl->f[c].w > fl->f[best].w)
			best = c;
	}
	return best;
}

uint32_t
flame_beside(const struct flame *fl, uint32_t i, int dir)
{
	uint32_t r;

	if (i >= fl->n)
		return FLAME_NONE;
	r = fl->f[i].row;
	if (dir < 0)
		return i > fl->row[r] ? i - 1 : FLAME_NONE;
	return i + 1 < fl->row[r + 1] ? i + 1 : FLAME_NONE;
}

/* ---- kinds of code ---- */

static bool
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool
ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* JIT code: a perf-PID.map, a [JIT] DSO, a jitted-*.so of perf inject --jit. */
static bool
jit_dso(const char *path, const char *base, const char *source)
{
	return (source && strcmp(source, "perf-map") == 0) || starts(path, "[JIT]") ||
	    (starts(base, "perf-") && ends(base, ".map")) || starts(base, "jitted-");
}

/* libc, the dynamic loader, the vdso and what the system keeps in its library folders. */
static bool
system_dso(const char *path, const char *base)
{
	static const char *const dirs[] = {
		"/lib/", "/lib32/", "/lib64/", "/usr/lib/", "/usr/lib32/", "/usr/lib64/",
		"/usr/libexec/",
	};
	static const char *const names[] = {
		"[vdso]", "[vsyscall]", "linux-vdso", "libc.so", "libc-", "libc.musl", "ld-linux",
		"ld-musl", "ld-2.", "ld.so", "libm.so", "libm-", "libpthread", "libdl", "librt",
		"libstdc++", "libgcc_s", "libc++",
	};

	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (starts(path, dirs[i]))
			return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (starts(base, names[i]))
			return true;
	return false;
}

enum flame_kind
flame_kind_of(bool kernel, bool resolved, const char *path, const char *source)
{
	const char *base;

	if (kernel)
		return FLAME_KERNEL;
	if (!resolved)
		return FLAME_UNRESOLVED;
	if (path == NULL)
		return FLAME_USER;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (jit_dso(path, base, source))
		return FLAME_JIT;
	if (system_dso(path, base))
		return FLAME_SYSTEM;
	return FLAME_USER;
}

enum flame_kind
flame_kind(const struct hist *h, const struct symbolizer *z, uint32_t func)
{
	const struct hist_node *nd;
	bool known;

	if (func == CPATH_NONE)
		return FLAME_ROOT;
	nd = hist_node_get(h, func);
	if (nd == NULL)
		return FLAME_UNRESOLVED;
	known = z != NULL && nd->f.dso != DSO_NONE;
	return flame_kind_of(nd->f.kernel, nd->f.sym != SYM_NONE && nd->f.dso != DSO_NONE,
	    known ? symbolizer_dso_long(z, nd->f.dso) : NULL,
	    known ? symbolizer_dso_source(z, nd->f.dso) : NULL);
}

const char *
flame_kind_name(enum flame_kind k)
{
	static const char *const names[FLAME_NKINDS] = {
		[FLAME_USER] = "user", [FLAME_KERNEL] = "kernel", [FLAME_SYSTEM] = "system",
		[FLAME_JIT] = "JIT", [FLAME_UNRESOLVED] = "unresolved", [FLAME_ROOT] = "root",
	};

	return (unsigned)k < FLAME_NKINDS ? names[k] : "?";
}

/* ---- search ---- */

static bool
contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

size_t
flame_search(struct flame_search *s, const struct cpath *t, const struct hist *h,
    const char *pat)
{
	size_t n = cpath_count(t), nf = hist_nnodes(h);
	uint8_t *memo, *covered;
	char name[512];

	free(s->on);
	memset(s, 0, sizeof *s);
	s->on = xcalloc(n, 1);
	s->n = n;
	if (pat == NULL || pat[0] == '\0')
		return 0;
	memo = xcalloc(nf + 1, 1);	/* per function: 0 not asked yet, 1 no, 2 yes */
	covered = xcalloc(n, 1);	/* the node or an ancestor matches */
	for (uint32_t i = 1; i < n; i++) {
		const struct cpath_node *nd = cpath_node(t, i);
		uint8_t m = nd->func < nf ? memo[nd->func] : 0;

		if (m == 0) {
			cpath_func_name(h, nd->func, name, sizeof name);
			m = contains_ci(name, pat) ? 2 : 1;
			if (nd->func < nf)
				memo[nd->func] = m;
		}
		covered[i] = covered[nd->parent];
		if (m != 2)
			continue;
		s->on[i] = 1;
		s->nodes++;
		if (!covered[i]) {
			s->period += nd->total_period;
			s->samples += nd->total_samples;
		}
		covered[i] = 1;
	}
	free(memo);
	free(covered);
	return s->nodes;
}

void
flame_search_free(struct flame_search *s)
{
	free(s->on);
	memset(s, 0, sizeof *s);
}
