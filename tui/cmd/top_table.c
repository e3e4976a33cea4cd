#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/textout.h"
#include "tui/cmd/top_table.h"

#define GROUP_MAX	16

/* A key's text, whole however long (a C++ name may run to thousands of bytes). */
struct keybuf {
	char	*p;
	size_t	 cap;
};

/* A row's text for key k, whole: kb grows until the text fits. */
static const char *
key_raw(const struct hist *h, const struct hist_entry *e, enum hist_key k, struct keybuf *kb)
{
	for (;;) {
		if (kb->cap == 0) {
			kb->cap = 4096;
			kb->p = xmalloc(kb->cap);
		}
		hist_key_text(h, e, k, kb->p, kb->cap);
		if (strlen(kb->p) + 1 < kb->cap)
			return kb->p;
		kb->cap *= 2;
		kb->p = xrealloc(kb->p, kb->cap);
	}
}

/* A row's text for key k, whole, escaped. */
static const char *
key_text(const struct hist *h, const struct hist_entry *e, enum hist_key k, struct keybuf *kb)
{
	return textout_esc(key_raw(h, e, k, kb));
}

/* The table of one event, or of a group (events ev[0..nev), the leader first). */
struct tbl {
	FILE			*fp;
	struct hist		*h;
	const struct hist_opts	*o;
	const struct top_table	*t;
	size_t			 ev[GROUP_MAX];
	size_t			 nev;
	uint32_t		(*row)[GROUP_MAX];	/* per row, per member: entry or NONE */
	size_t			 nrow;
	int			 w[HIST_MAX_KEYS], sw;
	struct keybuf		 kb;
};

#define NO_ENT	UINT32_MAX

/* The entry of a row to take its keys from: the first member's that has one. */
static const struct hist_entry *
row_keys(const struct tbl *b, size_t r)
{
	for (size_t m = 0; m < b->nev; m++)
		if (b->row[r][m] != NO_ENT)
			return hist_entry_get(b->h, b->row[r][m]);
	return NULL;
}

/* Rows: the leader's in order, then each member's rows the leader has not, matched by key text. */
static void
collect_rows(struct tbl *b)
{
	struct strtab keys;
	struct hmap at;
	struct fmt line = { 0 };
	size_t cap = 0;

	memset(&keys, 0, sizeof keys);
	memset(&at, 0, sizeof at);
	for (size_t m = 0; m < b->nev; m++) {
		const uint32_t *rows;
		size_t n = hist_rows(b->h, b->ev[m], b->nev > 1 ? 0 : b->t->pct, &rows);

		for (size_t i = 0; i < n; i++) {
			const struct hist_entry *e = hist_entry_get(b->h, rows[i]);
			uint32_t id, r;

			line.len = 0;
			for (unsigned k = 0; k < b->o->nkeys; k++) {
				fmt_str(&line, key_raw(b->h, e, b->o->keys[k], &b->kb));
				fmt_char(&line, '\t');
			}
			id = strtab_intern(&keys, line.len ? line.p : "", line.len);
			r = b->nev > 1 ? hmap_get(&at, id) : HMAP_NONE;
			if (r == HMAP_NONE) {
				GROW(b->row, cap, b->nrow + 1);
				for (size_t j = 0; j < GROUP_MAX; j++)
					b->row[b->nrow][j] = NO_ENT;
				r = (uint32_t)b->nrow++;
				if (b->nev > 1)
					hmap_set(&at, id, r);
			}
			b->row[r][m] = rows[i];
		}
	}
	hmap_free(&at);
	strtab_free(&keys);
	fmt_free(&line);
}

/* A member's self (or children) percent of row r. */
static double
row_pct(const struct tbl *b, size_t r, size_t m, bool children)
{
	const struct hist_entry *e;

	if (b->row[r][m] == NO_ENT)
		return 0;
	e = hist_entry_get(b->h, b->row[r][m]);
	return children ? hist_children_pct(b->h, e) : hist_self_pct(b->h, e);
}

/* Group rows by the leader's values, then the next member's, as perf sorts them. */
static int
cmp_group_rows(const void *x, const void *y, void *arg)
{
	const struct tbl *b = arg;
	size_t rx = (size_t)((const uint32_t(*)[GROUP_MAX])x - b->row);
	size_t ry = (size_t)((const uint32_t(*)[GROUP_MAX])y - b->row);

	for (size_t m = 0; m < b->nev; m++) {
		double px = row_pct(b, rx, m, b->o->children), py = row_pct(b, ry, m, b->o->children);

		if (px != py)
			return px > py ? -1 : 1;
	}
	return rx < ry ? -1 : rx > ry;
}

static void
widths(struct tbl *b)
{
	char buf[4096];

	b->sw = b->nev > 1 ? 12 : 7;
	for (unsigned k = 0; k < b->o->nkeys; k++)
		b->w[k] = (int)strlen(hist_key_header(b->o->keys[k]));
	for (size_t r = 0; r < b->nrow; r++) {
		const struct hist_entry *e = row_keys(b, r);

		for (size_t m = 0; m < b->nev && b->nev == 1; m++) {
			int l = snprintf(buf, sizeof buf, "%" PRIu64,
			    hist_entry_get(b->h, b->row[r][m])->samples);

			if (l > b->sw)
				b->sw = l;
		}
		for (unsigned k = 0; k + 1 < b->o->nkeys; k++) {
			int l = (int)strlen(key_text(b->h, e, b->o->keys[k], &b->kb));

			if (l > b->w[k])
				b->w[k] = l;
		}
	}
}

/*
 * The percent columns of a table of one event, as perf 6.15 orders them:
 * with latency (perf's report --latency) each Latency column before its
 * Overhead one; perf names both latency columns "Latency".
 */
enum pct_col { COL_LAT_ACC, COL_ACC, COL_LAT, COL_SELF };

static size_t
pct_cols(const struct hist_opts *o, enum pct_col *c)
{
	size_t n = 0;
	bool lat = o->parallel != NULL && o->by_latency;

	if (o->children && lat)
		c[n++] = COL_LAT_ACC;
	if (o->children)
		c[n++] = COL_ACC;
	if (lat)
		c[n++] = COL_LAT;
	c[n++] = COL_SELF;
	return n;
}

static const char *
pct_col_name(const struct hist_opts *o, enum pct_col c)
{
	if (c == COL_LAT_ACC || c == COL_LAT)
		return "Latency";
	if (c == COL_ACC)
		return "Children";
	return o->children ? "Self" : "Overhead";
}

static double
pct_col_value(const struct hist *h, const struct hist_entry *e, enum pct_col c)
{
	switch (c) {
	case COL_LAT_ACC:
		return hist_children_lat_pct(h, e);
	case COL_ACC:
		return hist_children_pct(h, e);
	case COL_LAT:
		return hist_self_lat_pct(h, e);
	default:
		return hist_self_pct(h, e);
	}
}

static void
dots(FILE *fp, int n)
{
	for (int i = 0; i < n; i++)
		fputc('.', fp);
}

/* perf report --mem-mode's lines: the weight in place of the event count, the sort order. */
static void
mem_header(struct tbl *b, uint64_t total)
{
	bool sym = false;

	fprintf(b->fp, "# Total weight : %" PRIu64 "\n# Sort order   : ", total);
	if (b->t->default_sort) {
		/* perf names its whole default, the key x86 gives no column included */
		fputs("local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,"
		      "local_ins_lat,local_p_stage_cyc\n#\n",
		    b->fp);
		return;
	}
	for (unsigned k = 0; k < b->o->nkeys; k++) {
		fprintf(b->fp, "%s%s", k ? "," : "", hist_key_name(b->o->keys[k]));
		sym |= strstr(hist_key_name(b->o->keys[k]), "sym") != NULL;
	}
	fputs(sym ? ",ipc_null\n#\n" : "\n#\n", b->fp);
}

static void
header(struct tbl *b, const char *name, uint64_t nsamples, uint64_t total, bool first)
{
	FILE *fp = b->fp;
	int pw = 8 * (int)b->nev + (b->nev > 1 ? 0 : 0), sw = b->sw * (int)b->nev;

	fprintf(fp, "%s# Samples: %" PRIu64 "  of event%s '%s'\n", first ? "" : "\n\n", nsamples,
	    b->nev > 1 ? "s" : "", name);
	if (b->o->mem_mode)
		mem_header(b, total);
	else
		fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n", total);
	if (b->nev == 1) {
		enum pct_col c[4];
		size_t nc = pct_cols(b->o, c);

		fputc('#', fp);
		for (size_t i = 0; i < nc; i++)
			fprintf(fp, "%s%8s", i ? "  " : " ", pct_col_name(b->o, c[i]));
		fprintf(fp, "  %*s  ", sw, "Samples");
	} else if (b->o->children)
		fprintf(fp, "# %*s  %*s  %*s  ", pw, "Children", pw, "Self", sw, "Samples");
	else
		fprintf(fp, "# %*s  %*s  ", pw, "Overhead", sw, "Samples");
	for (unsigned k = 0; k < b->o->nkeys; k++)
		fprintf(fp, "%-*s%s", k + 1 < b->o->nkeys ? b->w[k] : 0,
		    hist_key_header(b->o->keys[k]), k + 1 < b->o->nkeys ? "  " : "");
	fputs("\n# ", fp);
	if (b->nev == 1) {
		enum pct_col c[4];
		size_t nc = pct_cols(b->o, c);

		for (size_t i = 0; i < nc; i++)
			fputs(i ? "  ........" : "........", fp);
	} else {
		dots(fp, pw);
		if (b->o->children) {
			fputs("  ", fp);
			dots(fp, pw);
		}
	}
	fputs("  ", fp);
	dots(fp, sw);
	fputs("  ", fp);
	for (unsigned k = 0; k < b->o->nkeys; k++) {
		dots(fp, k + 1 < b->o->nkeys ? b->w[k] : (int)strlen(hist_key_header(b->o->keys[k])));
		if (k + 1 < b->o->nkeys)
			fputs("  ", fp);
	}
	fputs("\n#\n", fp);
}

static void
print_row(struct tbl *b, size_t r)
{
	FILE *fp = b->fp;
	const struct hist_entry *e = row_keys(b, r);

	fputs("  ", fp);
	if (b->nev == 1) {
		enum pct_col c[4];
		size_t nc = pct_cols(b->o, c);
		const struct hist_entry *e1 = b->row[r][0] == NO_ENT ? NULL :
		    hist_entry_get(b->h, b->row[r][0]);

		for (size_t i = 0; i < nc; i++)
			fprintf(fp, "%s%7.2f%%", i ? "  " : "",
			    e1 != NULL ? pct_col_value(b->h, e1, c[i]) : 0.0);
	}
	for (int pass = b->o->children ? 0 : 1; pass < 2 && b->nev > 1; pass++) {
		for (size_t m = 0; m < b->nev; m++)
			fprintf(fp, "%7.2f%%", row_pct(b, r, m, pass == 0));
		if (pass == 0)
			fputs("  ", fp);
	}
	fputs("  ", fp);
	for (size_t m = 0; m < b->nev; m++)
		fprintf(fp, "%*" PRIu64, b->sw, b->row[r][m] == NO_ENT ? 0 :
		    hist_entry_get(b->h, b->row[r][m])->samples);
	fputs("  ", fp);
	for (unsigned k = 0; k < b->o->nkeys; k++) {
		const char *s = key_text(b->h, e, b->o->keys[k], &b->kb);

		if (k + 1 < b->o->nkeys)
			fprintf(fp, "%-*s  ", b->w[k], s);
		else
			fputs(s, fp);
	}
	fputc('\n', fp);
	if (b->t->cg != NULL && b->row[r][0] != NO_ENT)
		cg_print_entry(fp, b->h, b->ev[0], b->row[r][0], b->t->cg, b->o->children,
		    b->t->skip_first);
}

/* A group row passes the percent limit when one member's value does. */
static bool
row_shown(const struct tbl *b, size_t r)
{
	for (size_t m = 0; m < b->nev; m++)
		if (row_pct(b, r, m, b->o->children) >= b->t->pct)
			return true;
	return b->nev == 1;
}

static void
print_one(struct tbl *b, const char *name, bool first)
{
	uint64_t nsamples = 0, total = 0;

	for (size_t m = 0; m < b->nev; m++) {
		nsamples += hist_event(b->h, b->ev[m])->nsamples;
		total += hist_event(b->h, b->ev[m])->total_period;
	}
	collect_rows(b);
	if (b->nev > 1)
		qsort_r(b->row, b->nrow, sizeof *b->row, cmp_group_rows, b);
	widths(b);
	header(b, name, nsamples, total, first);
	for (size_t r = 0; r < b->nrow; r++)
		if (row_shown(b, r))
			print_row(b, r);
	free(b->row);
	b->row = NULL;
	b->nrow = 0;
	free(b->kb.p);
	b->kb = (struct keybuf){ 0 };
}

/* The hist event of attr a, or -1. */
static long
event_of_attr(const struct hist *h, int a)
{
	for (size_t i = 0; i < hist_nevents(h); i++)
		if (hist_event(h, i)->attr == a)
			return (long)i;
	return -1;
}

/* The group attr a belongs to (leader or member), or NULL. */
static const struct feat_group *
group_of(const struct session *s, int a)
{
	return s ? features_group_of(session_features(s), a, GROUP_MAX) : NULL;
}

/* perf's name of a group: "anon group { a, b }" or "NAME { a, b }". */
static void
group_name(const struct session *s, const struct feat_group *gr, char *buf, size_t n)
{
	size_t l;
	bool anon = gr->name == NULL || strcmp(gr->name, "{anon_group}") == 0;

	l = (size_t)snprintf(buf, n, "%s { ", anon ? "anon group" : textout_esc(gr->name));
	for (uint32_t m = 0; m < gr->nr_members && l < n; m++)
		l += (size_t)snprintf(buf + l, n - l, "%s%s", m ? ", " : "",
		    textout_esc(session_attr_name(s, (int)(gr->leader_idx + m))));
	if (l < n)
		snprintf(buf + l, n - l, " }");
}

void
top_print_table(FILE *fp, struct hist *h, const struct hist_opts *o, const struct top_table *t)
{
	struct tbl b = { .fp = fp, .h = h, .o = o, .t = t };
	char name[1024];
	bool first = true;

	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		int attr = hist_event(h, ev)->attr;
		const struct feat_group *gr = group_of(t->s, attr);

		b.nev = 0;
		if (gr != NULL && attr != (int)gr->leader_idx && event_of_attr(h, (int)gr->leader_idx) >= 0)
			continue;	/* shown in its leader's table */
		if (gr != NULL && attr == (int)gr->leader_idx) {
			for (uint32_t m = 0; m < gr->nr_members; m++) {
				long e = event_of_attr(h, (int)(gr->leader_idx + m));

				if (e >= 0)
					b.ev[b.nev++] = (size_t)e;
			}
			group_name(t->s, gr, name, sizeof name);
		} else {
			b.ev[b.nev++] = ev;
			snprintf(name, sizeof name, "%s", textout_esc(hist_str(h, hist_event(h, ev)->name)));
		}
		print_one(&b, name, first);
		first = false;
	}
}

void
top_print_tsv(FILE *fp, struct hist *h, const struct hist_opts *o, double pct)
{
	struct keybuf kb = { 0 };
	enum pct_col c[4];
	size_t nc = pct_cols(o, c);
	static const char *const tsv_name[] = { "latency_children", "children", "latency", "self" };

	fputs("# event", fp);
	for (size_t i = 0; i < nc; i++)
		fprintf(fp, "\t%s", tsv_name[c[i]]);
	fputs("\tsamples", fp);
	for (unsigned k = 0; k < o->nkeys; k++)
		fprintf(fp, "\t%s", hist_key_name(o->keys[k]));
	fputc('\n', fp);
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		/* a copy: key_text() escapes too, and the scratch slots turn over */
		char *name = xstrdup(textout_esc(hist_str(h, hist_event(h, ev)->name)));
		const uint32_t *rows;
		size_t n = hist_rows(h, ev, pct, &rows);

		for (size_t i = 0; i < n; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);

			fprintf(fp, "%s", name);
			for (size_t j = 0; j < nc; j++)
				fprintf(fp, "\t%.2f", pct_col_value(h, e, c[j]));
			fprintf(fp, "\t%" PRIu64, e->samples);
			for (unsigned k = 0; k < o->nkeys; k++)
				fprintf(fp, "\t%s", key_text(h, e, o->keys[k], &kb));
			fputc('\n', fp);
		}
		free(name);
	}
	free(kb.p);
}
