#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "symbolize/cpath.h"
#include "tui/cmd/textout.h"
#include "tui/cmd/top_graph.h"

/*
 * perf report's call graphs from a call-path tree.  perf keeps an entry's
 * chains in a radix tree whose nodes hold runs of frames: a run goes on
 * while a frame has one callee and no sample ends in it.  Here a run is
 * read off the cpath tree the same way (run_end), and each layout prints
 * runs as perf prints its nodes.
 */

void
cg_defaults(struct cg_opts *o)
{
	memset(o, 0, sizeof *o);
	o->mode = CG_GRAPH;
	o->min_pct = 0.5;
	o->value = CG_PERCENT;
}

/* One word of -g's argument; 0, or -1 if it is none perf knows. */
static int
cg_word(const char *w, struct cg_opts *o, int *nums)
{
	static const struct {
		const char	*name;
		int		 what;	/* 0 mode, 1 order, 2 key, 3 value, 4 ignored */
		int		 v;
	} words[] = {
		{ "graph", 0, CG_GRAPH }, { "fractal", 0, CG_FRACTAL }, { "flat", 0, CG_FLAT },
		{ "folded", 0, CG_FOLDED }, { "none", 0, CG_NONE }, { "caller", 1, 1 },
		{ "callee", 1, 0 }, { "function", 2, 0 }, { "address", 2, 1 },
		{ "percent", 3, CG_PERCENT }, { "period", 3, CG_PERIOD }, { "count", 3, CG_COUNT },
		{ "fp", 4, 0 }, { "dwarf", 4, 0 }, { "lbr", 4, 0 }, { "branch", 4, 0 },
	};
	char *end;

	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		if (strcmp(w, words[i].name) != 0)
			continue;
		if (words[i].what == 0)
			o->mode = (enum cg_mode)words[i].v;
		else if (words[i].what == 1) {
			o->caller = words[i].v != 0;
			o->order_set = true;
		} else if (words[i].what == 2)
			o->address = words[i].v != 0;
		else if (words[i].what == 3)
			o->value = (enum cg_value)words[i].v;
		return 0;
	}
	if (*nums == 0) {
		double d = strtod(w, &end);

		if (end == w || *end || d < 0 || d > 100)
			return -1;
		o->min_pct = d;
	} else if (*nums == 1) {
		unsigned long l = strtoul(w, &end, 10);

		if (end == w || *end || w[0] == '-')
			return -1;
		o->print_limit = l;
	} else
		return -1;
	(*nums)++;
	return 0;
}

int
cg_parse(const char *arg, struct cg_opts *o, const char **bad)
{
	char word[64];
	int nums = 0;
	const char *p = arg;

	while (*p) {
		size_t l = strcspn(p, ",");

		*bad = p;
		if (l == 0 || l >= sizeof word)
			return -1;
		memcpy(word, p, l);
		word[l] = '\0';
		if (cg_word(word, o, &nums) < 0)
			return -1;
		p += l;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* ---- printing ---- */

struct cg_print {
	FILE			*fp;
	struct hist		*h;
	const struct cpath	*t;
	const struct cg_opts	*o;
	uint64_t		 min_hit;	/* graph, flat, folded: global threshold */
	unsigned		 printed;	/* lines of this entry so far */
	char			*name;		/* a function's name, whole: grown to fit */
	size_t			 name_cap;
	char			*text;		/* a node's name and its branch counts */
	size_t			 text_cap;
};

static const struct cpath_node *
N(const struct cg_print *p, uint32_t id)
{
	return cpath_node(p->t, id);
}

/* The last node of the run that starts at id. */
static uint32_t
run_end(const struct cg_print *p, uint32_t id)
{
	for (;;) {
		const struct cpath_node *n = N(p, id);

		if (n->self_samples || n->self_period || n->first_child == CPATH_NONE ||
		    N(p, n->first_child)->next_sibling != CPATH_NONE)
			return id;
		id = n->first_child;
	}
}

static const char *
fname(struct cg_print *p, uint32_t func)
{
	for (;;) {
		if (p->name_cap == 0) {
			p->name_cap = 1024;
			p->name = xmalloc(p->name_cap);
		}
		cpath_func_name(p->h, func, p->name, p->name_cap);
		if (strlen(p->name) + 1 < p->name_cap)
			return textout_esc(p->name);
		p->name_cap *= 2;	/* a long (C++) name is printed whole, as perf does */
		p->name = xrealloc(p->name, p->name_cap);
	}
}

/*
 * The text of graph node x: its function's name, and with branch counts
 * (perf's --branch-history) what its frames carried.
 */
static const char *
node_text(struct cg_print *p, uint32_t x)
{
	const struct brh_count *c = p->o->branch_counts ? cpath_node_branch(p->t, x) : NULL;
	const char *name = fname(p, N(p, x)->func);
	char br[256];
	size_t need;

	if (c == NULL)
		return name;
	brhist_text(c, br, sizeof br);
	need = strlen(name) + strlen(br) + 1;
	if (need > p->text_cap) {
		p->text_cap = need;
		p->text = xrealloc(p->text, need);
	}
	snprintf(p->text, p->text_cap, "%s%s", name, br);
	return p->text;
}

static void
value(struct cg_print *p, uint64_t period, uint64_t count, uint64_t total)
{
	switch (p->o->value) {
	case CG_PERIOD:
		fprintf(p->fp, "%" PRIu64, period);
		break;
	case CG_COUNT:
		fprintf(p->fp, "%" PRIu64, count);
		break;
	default:
		fprintf(p->fp, "%.2f%%", total ? (double)period * 100.0 / (double)total : 0.0);
	}
}

static void
margin(struct cg_print *p, int lm)
{
	fprintf(p->fp, "%*s", 12 + lm, "");
	p->printed++;
}

/* The separator line above a child: a '|' per level still open. */
static void
graph_line(struct cg_print *p, int depth, unsigned mask, int lm)
{
	margin(p, lm);
	for (int i = 0; i < depth; i++)
		fputs(mask & (1u << i) ? "|          " : "           ", p->fp);
	fputc('\n', p->fp);
}

/* One frame of a run; the first of the run carries its value. */
static void
graph_frame(struct cg_print *p, uint64_t period, uint64_t count, const char *name, int depth,
    unsigned mask, bool first, uint64_t total, int lm)
{
	margin(p, lm);
	for (int i = 0; i < depth; i++) {
		fputc(mask & (1u << i) ? '|' : ' ', p->fp);
		if (first && i == depth - 1) {
			fputs("--", p->fp);
			value(p, period, count, total);
			fputs("--", p->fp);
		} else
			fputs("          ", p->fp);
	}
	fprintf(p->fp, "%s\n", name);
}

/* Is child c of a parent with children_hit ch shown (perf's sort thresholds)? */
static bool
shown(const struct cg_print *p, uint32_t c, uint64_t ch)
{
	uint64_t cumul = N(p, c)->total_period;

	if (p->o->mode == CG_FRACTAL)
		return (double)cumul >= (double)ch * p->o->min_pct / 100.0;
	return cumul >= p->min_hit;
}

static void
graph_level(struct cg_print *p, uint32_t parent, uint64_t total, int depth, unsigned mask, int lm)
{
	const struct cpath_node *pn = N(p, parent);
	uint64_t ch = pn->total_period - pn->self_period, remaining = total, cumul_count = 0;
	unsigned new_mask = mask, nprinted = 0;
	bool fractal = p->o->mode == CG_FRACTAL;
	uint32_t c, next;

	for (c = pn->first_child; c != CPATH_NONE && !shown(p, c, ch); c = N(p, c)->next_sibling)
		;
	for (; c != CPATH_NONE; c = next) {
		const struct cpath_node *cn = N(p, c);
		uint32_t end = run_end(p, c);
		bool first = true;

		for (next = cn->next_sibling; next != CPATH_NONE && !shown(p, next, ch);
		    next = N(p, next)->next_sibling)
			;
		remaining -= cn->total_period;
		cumul_count += cn->total_samples;
		if (next == CPATH_NONE && (!fractal || remaining == 0))
			new_mask &= ~(1u << (depth - 1));
		graph_line(p, depth, mask, lm);
		for (uint32_t x = c;; x = N(p, x)->first_child) {
			graph_frame(p, cn->total_period, cn->total_samples, node_text(p, x),
			    depth, new_mask, first, total, lm);
			first = false;
			if (x == end)
				break;
		}
		graph_level(p, end, fractal ? N(p, end)->total_period - N(p, end)->self_period : total,
		    depth + 1, new_mask | (1u << depth), lm);
		if (++nprinted == p->o->print_limit)
			break;
	}
	if (fractal && remaining && remaining != total) {
		uint64_t cnt = (pn->total_samples - pn->self_samples) - cumul_count;

		if (p->o->value == CG_COUNT && (int64_t)cnt <= 0)
			return;
		new_mask &= ~(1u << (depth - 1));
		graph_frame(p, remaining, cnt, p->o->branch_counts ? "[...] (calltrace)" : "[...]",
		    depth, new_mask, true, total, lm);
	}
}

static void
print_graph(struct cg_print *p, uint64_t parent_samples, uint64_t ev_total, bool skip_first)
{
	const struct cpath_node *root = N(p, 0);
	uint32_t c, from = 0;
	int lm = 0;
	unsigned n = 0;
	bool printed = false;

	for (c = root->first_child; c != CPATH_NONE && !shown(p, c, root->total_period - root->self_period);
	    c = N(p, c)->next_sibling)
		;
	if (c != CPATH_NONE && N(p, c)->next_sibling == CPATH_NONE &&
	    N(p, c)->total_period == parent_samples) {
		uint32_t end = run_end(p, c);
		int i = 0;

		for (uint32_t x = c;; x = N(p, x)->first_child) {
			if (!(i++ == 0 && skip_first)) {
				if (!printed) {
					margin(p, lm);
					fputs("|\n", p->fp);
					margin(p, lm);
					fputs("---", p->fp);
					lm += 3;
					printed = true;
				} else
					margin(p, lm);
				fprintf(p->fp, "%s\n", node_text(p, x));
				if (++n == p->o->print_limit)
					break;
			}
			if (x == end)
				break;
		}
		from = end;
	}
	graph_level(p, from, p->o->mode == CG_FRACTAL ? parent_samples : ev_total, 1, 1, lm);
	if (p->printed)
		fputc('\n', p->fp);
}

/* perf leaves frames at context-marker addresses (an unwind's ~0) out of flat and folded paths. */
static bool
marker_frame(const struct hist *h, uint32_t func)
{
	const struct hist_node *nd = hist_node_get(h, cpath_func_node(h, func));

	return nd != NULL && nd->f.sym == SYM_NONE && nd->f.rel >= (uint64_t)-4095;
}

struct self_order {
	const struct cpath	*t;
	const uint32_t		*rank;	/* cpath_flat_ranks */
};

/* Order of flat and folded paths: self period, descending, then perf's order of equals. */
static int
cmp_self(const void *a, const void *b, void *arg)
{
	const struct self_order *o = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t px = cpath_node(o->t, x)->self_period, py = cpath_node(o->t, y)->self_period;

	if (px != py)
		return px > py ? -1 : 1;
	return o->rank[x] < o->rank[y] ? -1 : o->rank[x] > o->rank[y];
}

static void
print_paths(struct cg_print *p, uint64_t ev_total)
{
	size_t n = cpath_count(p->t), m = 0;
	uint32_t *ids = xreallocarray(NULL, n + 1, sizeof *ids);
	uint32_t *funcs = NULL;
	size_t capf = 0;

	for (size_t i = 1; i < n; i++) {
		const struct cpath_node *x = N(p, (uint32_t)i);

		if (x->self_period + x->self_samples > 0 && x->self_period >= p->min_hit)
			ids[m++] = (uint32_t)i;
	}
	struct self_order so = { p->t, cpath_flat_ranks(p->h, (struct cpath *)p->t) };

	qsort_r(ids, m, sizeof *ids, cmp_self, &so);
	if (p->o->print_limit && m > p->o->print_limit)
		m = p->o->print_limit;
	for (size_t i = 0; i < m; i++) {
		const struct cpath_node *x = N(p, ids[i]);
		size_t d = x->depth;

		GROW(funcs, capf, d + 1);
		cpath_path(p->t, ids[i], funcs, d);
		if (p->o->mode == CG_FOLDED) {
			value(p, x->self_period, x->self_samples, ev_total);
			fputc(' ', p->fp);
			for (size_t j = 0, k = 0; j < d; j++)
				if (!marker_frame(p->h, funcs[j]))
					fprintf(p->fp, "%s%s", k++ ? ";" : "", fname(p, funcs[j]));
			fputc('\n', p->fp);
			continue;
		}
		fputs("           ", p->fp);
		value(p, x->total_period, x->total_samples, ev_total);
		fputc('\n', p->fp);
		for (size_t j = 0; j < d; j++)
			if (!marker_frame(p->h, funcs[j]))
				fprintf(p->fp, "                %s\n", fname(p, funcs[j]));
		fputc('\n', p->fp);
	}
	free(funcs);
	free(ids);
}

void
cg_print_entry(FILE *fp, struct hist *h, size_t ev, uint32_t id, const struct cg_opts *o,
    bool children, bool skip_first)
{
	const struct hist_entry *e = hist_entry_get(h, id);
	uint64_t ev_total = hist_event(h, ev)->total_period;
	struct cpath_query q = {
		.ev = ev,
		.entry = id,
		.through = children,
		.chained_only = true,
		.bottom_up = !o->caller,
	};
	struct cg_print p = { .fp = fp, .h = h, .o = o };

	if (o->mode == CG_NONE || e == NULL)
		return;
	p.t = cpath_build(h, &q);
	p.min_hit = (uint64_t)((double)ev_total * o->min_pct / 100.0);
	if (o->mode == CG_GRAPH || o->mode == CG_FRACTAL)
		print_graph(&p, children ? e->acc_period : e->period, ev_total, skip_first);
	else
		print_paths(&p, ev_total);
	cpath_free((struct cpath *)p.t);
	free(p.name);
	free(p.text);
}
