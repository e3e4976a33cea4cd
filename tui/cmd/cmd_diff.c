#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/diff.h"
#include "symbolize/hist.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"

/*
 * perfnav diff: perf diff's comparison of recordings (symbolize/diff.h),
 * laid out as 'perf diff --stdio' prints it, or as tab-separated rows.
 * The files load and resolve in parallel, one thread per file, two at a
 * time (a symbolizer each: they are not thread-safe).
 */

enum {
	OPT_TSV = 300,
	OPT_STDIO,
	OPT_PERCENTAGE,
	OPT_FILE_BUILDID_DIR,
	OPT_FILE_KALLSYMS,
	OPT_FILE_PERFMAP_DIR,
	OPT_FILE_SYMFS,
};

/* A scope option as given, replayed into each file's own filter_opts. */
struct scope_arg {
	int		 val;
	const char	*arg;
};

/* Per-file symbolization options (--file-buildid-dir N:DIR...). */
struct file_sym {
	const char	*buildid_dir, *kallsyms, *perfmap_dir, *symfs;
};

#define SCOPE_MAX	64
#define DIFF_THREADS	2

struct diff_args {
	const char		*sort;
	struct diff_opts	 d;
	bool			 tsv, period, formula;
	struct scope_arg	 scope[SCOPE_MAX];
	size_t			 nscope;
	struct file_sym		 fs[DIFF_MAX_FILES];
	const char		*dsos, *comms, *symbols;	/* the last values given */
};

static const struct cmd_opt diff_opts[] = {
	{ "sort", 1, 's', "KEYS: the keys entries pair by: comm,pid (also tid),process,dso,sym (also symbol),cpu,srcline (default dso,sym, as perf diff)" },
	{ "compute", 1, 'c', "delta|delta-abs|ratio|wdiff:W1,W2: the column against the baseline (default delta-abs, as perf 6.1)" },
	{ "period", 0, 'p', "the period columns (Base period, Period)" },
	{ "formula", 0, 'F', "the formula of each value" },
	{ "order", 1, 'o', "N: sort by file N's column first (default 1; 0: by the baseline)" },
	{ "baseline-only", 0, 'b', "only rows with an entry in the baseline and in another file" },
	{ "percentage", 1, OPT_PERCENTAGE, "relative|absolute: percents of the shown rows' periods, or of the event's total (default absolute, as perf)" },
	{ "tsv", 0, OPT_TSV, "tab-separated rows: EVENT BASELINE [BASE_PERIOD] then per other file VALUE [FORMULA] [PERIOD], then the keys" },
	{ "stdio", 0, OPT_STDIO, "text output (what 'diff' always writes; accepted for perf's --stdio)" },
	{ "file-buildid-dir", 1, OPT_FILE_BUILDID_DIR, "N:DIR: build-id cache of file N (0 the first) instead of --buildid-dir's" },
	{ "file-kallsyms", 1, OPT_FILE_KALLSYMS, "N:FILE: kernel symbols of file N instead of --kallsyms's" },
	{ "file-perfmap-dir", 1, OPT_FILE_PERFMAP_DIR, "N:DIR: JIT maps of file N instead of --perfmap-dir's" },
	{ "file-symfs", 1, OPT_FILE_SYMFS, "N:DIR: binaries of file N under DIR instead of --symfs's" },
	FILTER_OPTS_ROWS,
	{ NULL, 0, 0, NULL },
};

/* -c's value into a: 0, or -1 (message printed). */
static int
parse_compute(struct diff_args *a, const char *v)
{
	static const char *const names[] = { "delta", "delta-abs", "ratio", "wdiff" };
	const char *colon = strchr(v, ':');
	size_t l = colon ? (size_t)(colon - v) : strlen(v);

	for (int i = 0; i < 4; i++) {
		if (strlen(names[i]) != l || strncmp(v, names[i], l) != 0)
			continue;
		a->d.compute = (enum diff_compute)i;
		if (i != DIFF_WDIFF && colon == NULL)
			return 0;
		if (i == DIFF_WDIFF && colon != NULL) {
			char *end;
			long long w1 = strtoll(colon + 1, &end, 10), w2;

			if (end != colon + 1 && *end == ',') {
				const char *p = end + 1;

				w2 = strtoll(p, &end, 10);
				if (end != p && *end == '\0' && w1 != 0 && w2 != 0) {
					a->d.w1 = w1;
					a->d.w2 = w2;
					return 0;
				}
			}
		}
		fprintf(stderr, "perfnav diff: bad weights in '%s' (wdiff:W1,W2, both not 0)\n",
		    textout_esc(v));
		return -1;
	}
	fprintf(stderr, "perfnav diff: '%s' is not a computation (delta, delta-abs, ratio or wdiff:W1,W2)\n",
	    textout_esc(v));
	return -1;
}

/* A per-file option's N:VALUE into a's file N: 0, or -1. */
static int
file_opt(struct diff_args *a, int val, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);
	struct file_sym *fs;

	if (end == v || *end != ':' || n < 0 || n >= DIFF_MAX_FILES || end[1] == '\0') {
		fprintf(stderr, "perfnav diff: '%s' is not N:VALUE (N the file's place, 0 the first)\n",
		    textout_esc(v));
		return -1;
	}
	fs = &a->fs[n];
	v = end + 1;
	if (val == OPT_FILE_BUILDID_DIR)
		fs->buildid_dir = v;
	else if (val == OPT_FILE_KALLSYMS)
		fs->kallsyms = v;
	else if (val == OPT_FILE_PERFMAP_DIR)
		fs->perfmap_dir = v;
	else
		fs->symfs = v;
	return 0;
}

/* A scope option: checked now (each file's part), kept to be replayed for each file. */
static int
scope_opt(struct diff_args *a, int val, const char *v)
{
	char msg[FILTER_OPTS_MSG], part[512];
	const char *p;

	for (size_t i = 0; i < DIFF_MAX_FILES && (p = filter_opts_part(val, v, i, part, sizeof part));
	    i++) {
		struct filter_opts fo;
		int rc;

		memset(&fo, 0, sizeof fo);
		rc = p[0] == '\0' ? -1 : filter_opts_take(&fo, val, p, msg, sizeof msg);
		filter_opts_free(&fo);
		if (rc < 0) {
			if (p[0] == '\0')
				snprintf(msg, sizeof msg, "an empty part in '%s' for --time", v);
			fprintf(stderr, "perfnav diff: %s\n", msg);
			return -1;
		}
		if (p == v)
			break;
	}
	if (a->nscope == SCOPE_MAX) {
		fprintf(stderr, "perfnav diff: at most %d scope options\n", SCOPE_MAX);
		return -1;
	}
	a->scope[a->nscope].val = val;
	a->scope[a->nscope++].arg = v;
	if (val == FILTER_OPT_DSOS)
		a->dsos = v;
	else if (val == FILTER_OPT_COMMS)
		a->comms = v;
	else if (val == FILTER_OPT_SYMBOLS)
		a->symbols = v;
	return 0;
}

static int
diff_opt(void *arg, int val, const char *v)
{
	struct diff_args *a = arg;
	long n;

	switch (val) {
	case 's':
		a->sort = v;
		return 0;
	case 'c':
		return parse_compute(a, v);
	case 'p':
		a->period = true;
		return 0;
	case 'F':
		a->formula = true;
		return 0;
	case 'b':
		a->d.baseline_only = true;
		return 0;
	case 'o':
		if (opts_count(v, DIFF_MAX_FILES - 1, &n) < 0)
			return -1;
		a->d.order = (unsigned)n;
		return 0;
	case OPT_PERCENTAGE:
		if (strcmp(v, "relative") != 0 && strcmp(v, "absolute") != 0)
			return -1;
		a->d.relative = strcmp(v, "relative") == 0;
		return 0;
	case OPT_TSV:
		a->tsv = true;
		return 0;
	case OPT_STDIO:
		return 0;
	case OPT_FILE_BUILDID_DIR:
	case OPT_FILE_KALLSYMS:
	case OPT_FILE_PERFMAP_DIR:
	case OPT_FILE_SYMFS:
		return file_opt(a, val, v);
	default:
		if (filter_opt_is(val))
			return scope_opt(a, val, v);
		return -1;
	}
}

/* One recording of the comparison and what its thread made of it. */
struct dfile {
	const char		*path;
	size_t			 idx;		/* its place: 0 the baseline */
	struct common_opts	 co;
	struct hist_opts	 ho;
	const struct diff_args	*a;
	struct filter_opts	 fo;
	struct session		*s;
	struct symbolizer	*z;
	struct hist		*h;
	char			 msg[FILTER_OPTS_MSG];	/* a scope setup's complaint */
	char			 time[512];	/* this file's --time value (fo.time points here) */
	int			 status;
};

/* Load, scope, resolve and count one file (a thread's work). */
static void
load_file(struct dfile *f)
{
	const struct diff_args *a = f->a;
	struct sym_opts so;

	f->s = cmd_bundle_input(&f->co) < 0 ? NULL : cmd_open(&f->co, true);
	if (f->s == NULL) {
		f->status = EXIT_FAIL;
		return;
	}
	for (size_t i = 0; i < a->nscope; i++) {
		char buf[512];
		bool t = a->scope[i].val == FILTER_OPT_TIME;	/* kept as given, until setup */
		const char *v = filter_opts_part(a->scope[i].val, a->scope[i].arg, f->idx,
		    t ? f->time : buf, t ? sizeof f->time : sizeof buf);

		if (v != NULL)
			filter_opts_take(&f->fo, a->scope[i].val, v, f->msg, sizeof f->msg);
	}
	if (filter_opts_setup(&f->fo, f->s, f->path, f->msg, sizeof f->msg) < 0) {
		f->status = EXIT_USAGE;
		return;
	}
	f->msg[0] = '\0';
	f->ho.filter = filter_opts_filter(&f->fo);
	cmd_sym_opts(&f->co, &so);
	so.no_path_cache = true;	/* the cache's entry of a path may be another file's build */
	f->z = symbolizer_new(f->s, &so);
	f->h = hist_new(f->s, f->z, &f->ho);
	hist_add_session(f->h, NULL);
	if (pt_present(f->s))
		pt_hist_add(f->h, f->s, f->z);
	hist_finish(f->h);
}

/* The threads take the files in turn. */
struct loader {
	struct dfile	*files;
	size_t		 n;
	size_t		 next;	/* atomic */
};

static void *
loader_run(void *arg)
{
	struct loader *l = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED)) < l->n) {
		load_file(&l->files[i]);
		if (l->files[i].status != EXIT_OK)	/* no comparison: load no more */
			__atomic_store_n(&l->next, l->n, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void
load_all(struct dfile *files, size_t n)
{
	struct loader l = { files, n, 0 };
	pthread_t th[DIFF_THREADS - 1];
	size_t nth = 0;

	/* DIFF_THREADS at a time: this one and the others started */
	while (nth + 1 < DIFF_THREADS && nth + 1 < n &&
	    pthread_create(&th[nth], NULL, loader_run, &l) == 0)
		nth++;
	loader_run(&l);
	for (size_t i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
}

/* ---- output ---- */

enum col_kind { COL_BASELINE, COL_BASE_PERIOD, COL_VALUE, COL_FORMULA, COL_PERIOD };

struct col {
	enum col_kind	 kind;
	size_t		 file;
	char		 header[64];
	int		 width;
};

#define MAX_COLS	(3 * DIFF_MAX_FILES)

struct out {
	FILE			*fp;
	const struct diff_args	*a;
	const struct diff	*d;
	struct dfile		*files;
	struct col		 col[MAX_COLS];
	size_t			 ncol;
	int			 kw[HIST_MAX_KEYS];
	bool			 elide[HIST_MAX_KEYS];	/* a key column not shown */
	unsigned		 last;			/* the last key shown */
};

static void
add_col(struct out *o, enum col_kind kind, size_t file)
{
	static const char *const value_name[] = { "Delta", "Delta Abs", "Ratio", "Weighted diff" };
	static const int value_width[] = { 7, 7, 14, 14 };
	struct col *c = &o->col[o->ncol++];
	const char *name = "Baseline";
	int l;

	c->kind = kind;
	c->file = file;
	c->width = 0;
	switch (kind) {
	case COL_BASELINE:
		break;
	case COL_BASE_PERIOD:
		name = "Base period";
		c->width = 14;
		break;
	case COL_VALUE:
		name = value_name[o->a->d.compute];
		c->width = value_width[o->a->d.compute];
		break;
	case COL_FORMULA:
		name = "Formula";
		c->width = 70;
		break;
	case COL_PERIOD:
		name = "Period";
		c->width = 14;
		break;
	}
	if (diff_nfiles(o->d) > 2)
		l = snprintf(c->header, sizeof c->header, "%s/%zu", name, file);
	else
		l = snprintf(c->header, sizeof c->header, "%s", name);
	if (l > c->width)
		c->width = l;
}

/* perf diff's columns: per file its value, formula and period. */
static void
make_cols(struct out *o)
{
	o->ncol = 0;
	for (size_t f = 0; f < diff_nfiles(o->d); f++) {
		add_col(o, f ? COL_VALUE : COL_BASELINE, f);
		if (o->a->formula && f)
			add_col(o, COL_FORMULA, f);
		if (o->a->period)
			add_col(o, f ? COL_PERIOD : COL_BASE_PERIOD, f);
	}
}

/* The text of a value column, as perf prints it (tsv: plain). */
static void
value_text(const struct out *o, const struct diff_row *r, const struct diff_cell *c, char *buf,
    size_t n)
{
	bool tsv = o->a->tsv;

	switch (o->a->d.compute) {
	case DIFF_DELTA:
	case DIFF_DELTA_ABS:
		snprintf(buf, n, tsv ? "%+.2f" : "%+4.2f%%", c->delta);
		break;
	case DIFF_RATIO:
		if (r->dummy)
			snprintf(buf, n, "N/A");
		else
			snprintf(buf, n, tsv ? "%.6f" : "%14.6f", c->ratio);
		break;
	case DIFF_WDIFF:
		if (r->dummy)
			snprintf(buf, n, "N/A");
		else
			snprintf(buf, n, tsv ? "%" PRId64 : "%14" PRId64, c->wdiff);
		break;
	}
}

static void
formula_text(const struct out *o, const struct diff_event *de, const struct diff_row *r,
    const struct diff_cell *c, size_t f, char *buf, size_t n)
{
	uint64_t base = r->cell[0].period;

	switch (o->a->d.compute) {
	case DIFF_DELTA:
	case DIFF_DELTA_ABS:
		snprintf(buf, n, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
		    c->period, de->total[f], base, de->total[0]);
		break;
	case DIFF_RATIO:
		snprintf(buf, n, "%" PRIu64 " / %" PRIu64, c->period, base);
		break;
	case DIFF_WDIFF:
		snprintf(buf, n, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
		    c->period, o->a->d.w2, base, o->a->d.w1);
		break;
	}
}

/* Column c's text of row r ("" where perf prints none). */
static void
cell_text(const struct out *o, const struct diff_event *de, const struct diff_row *r,
    const struct col *c, char *buf, size_t n)
{
	const struct diff_cell *cell = &r->cell[c->file];

	buf[0] = '\0';
	switch (c->kind) {
	case COL_BASELINE:
		if (!r->dummy)
			snprintf(buf, n, o->a->tsv ? "%.2f" : "%6.2f%%", cell->pct);
		break;
	case COL_BASE_PERIOD:
		snprintf(buf, n, "%" PRIu64, cell->period);
		break;
	case COL_VALUE:
		if (cell->present)
			value_text(o, r, cell, buf, n);
		break;
	case COL_FORMULA:
		if (cell->present)
			formula_text(o, de, r, cell, c->file, buf, n);
		break;
	case COL_PERIOD:
		if (cell->present)
			snprintf(buf, n, "%" PRIu64, cell->period);
		break;
	}
}

/* A key column's header: perf's thread column's is "    Pid:Command". */
static const char *
key_header(enum hist_key k)
{
	return k == HIST_KEY_TID ? "    Pid:Command" : hist_key_header(k);
}

/* The keys' widths over the rows, as perf sizes them. */
static void
key_widths(struct out *o, const struct diff_event *de)
{
	const struct hist_opts *ho = diff_hist_opts(o->d);
	bool unresolved = false;

	for (unsigned k = 0; k < ho->nkeys; k++)
		o->kw[k] = (int)strlen(key_header(ho->keys[k]));
	for (size_t i = 0; i < de->nrows; i++) {
		const struct diff_row *r = &de->rows[i];

		unresolved |= r->sym_none;
		for (unsigned k = 0; k < ho->nkeys; k++) {
			int l = (int)strlen(textout_esc(r->key[k]));

			if (l > o->kw[k])
				o->kw[k] = l;
		}
	}
	/* perf: an unresolved symbol widens the DSO column to an address's */
	for (unsigned k = 0; k < ho->nkeys && unresolved; k++)
		if (ho->keys[k] == HIST_KEY_DSO && o->kw[k] < 16)
			o->kw[k] = 16;
}

static void
dots(FILE *fp, int n)
{
	for (int i = 0; i < n; i++)
		fputc('.', fp);
}

static void
print_header(struct out *o, const struct diff_event *de, bool first)
{
	const struct hist_opts *ho = diff_hist_opts(o->d);
	size_t nf = diff_nfiles(o->d);
	FILE *fp = o->fp;

	fprintf(fp, "%s# Event '%s'\n", first ? "" : "\n", textout_esc(de->name));
	for (size_t f = 0; f < nf; f++)
		if (!de->in[f])
			fprintf(fp, "# No samples of this event in [%zu] %s\n", f,
			    textout_esc(o->files[f].path));
	fputs("#\n", fp);
	if (nf > 2) {
		fprintf(fp, "# Data files:\n");
		for (size_t f = 0; f < nf; f++)
			fprintf(fp, "#  [%zu] %s %s\n", f, textout_esc(o->files[f].path),
			    f ? "" : "(Baseline)");
		fprintf(fp, "#\n");
	}
	fputs("# ", fp);
	for (size_t c = 0; c < o->ncol; c++)
		fprintf(fp, "%*s  ", o->col[c].width, o->col[c].header);
	for (unsigned k = 0; k <= o->last; k++)
		if (!o->elide[k])
			fprintf(fp, "%-*s%s", o->kw[k], key_header(ho->keys[k]),
			    k < o->last ? "  " : "");
	fputs("\n# ", fp);
	for (size_t c = 0; c < o->ncol; c++) {
		dots(fp, o->col[c].width);
		fputs("  ", fp);
	}
	for (unsigned k = 0; k <= o->last; k++) {
		if (o->elide[k])
			continue;
		dots(fp, o->kw[k]);
		if (k < o->last)
			fputs("  ", fp);
	}
	fputs("\n#\n", fp);
}

static void
print_row(const struct out *o, const struct diff_event *de, const struct diff_row *r)
{
	const struct hist_opts *ho = diff_hist_opts(o->d);
	FILE *fp = o->fp;
	char buf[256];

	if (o->a->tsv)
		fputs(textout_esc(de->name), fp);
	else
		fputs("  ", fp);
	for (size_t c = 0; c < o->ncol; c++) {
		const struct col *col = &o->col[c];

		cell_text(o, de, r, col, buf, sizeof buf);
		if (o->a->tsv)
			fprintf(fp, "\t%s", buf);
		else if (col->kind == COL_VALUE && o->a->d.compute == DIFF_WDIFF && !r->dummy)
			fprintf(fp, "%-*s  ", col->width, buf);	/* perf: "%14ld", then padded */
		else
			fprintf(fp, "%*s  ", col->width, buf);
	}
	for (unsigned k = 0; k < ho->nkeys; k++) {
		const char *t = textout_esc(r->key[k]);

		if (o->a->tsv)
			fprintf(fp, "\t%s", t);
		else if (o->elide[k])
			continue;
		else if (k < o->last)
			fprintf(fp, "%-*s  ", o->kw[k], t);
		else if (ho->keys[k] == HIST_KEY_SYM || ho->keys[k] == HIST_KEY_SRCLINE)
			fputs(t, fp);
		else
			fprintf(fp, "%-*s", o->kw[k], t);	/* perf pads all but these */
	}
	fputc('\n', fp);
}

static void
print_tsv_header(const struct out *o)
{
	const struct hist_opts *ho = diff_hist_opts(o->d);
	static const char *const kind_name[] = { "baseline", "base_period", "", "formula",
		"period" };
	static const char *const value_name[] = { "delta", "delta", "ratio", "wdiff" };

	fputs("# event", o->fp);
	for (size_t c = 0; c < o->ncol; c++) {
		const struct col *col = &o->col[c];

		fprintf(o->fp, "\t%s", col->kind == COL_VALUE ? value_name[o->a->d.compute] :
		    kind_name[col->kind]);
		if (col->file > 0)
			fprintf(o->fp, "/%zu", col->file);
	}
	for (unsigned k = 0; k < ho->nkeys; k++)
		fprintf(o->fp, "\t%s", hist_key_name(ho->keys[k]));
	fputc('\n', o->fp);
}

/* How many different names a list option gave ("a,b,a": 2). */
static size_t
list_len(const char *v)
{
	size_t n = 0;

	for (const char *p = v; p != NULL && *p != '\0';) {
		size_t l = strcspn(p, ",");
		bool seen = false;

		for (const char *q = v; q < p && !seen;) {
			size_t ql = strcspn(q, ",");

			seen = ql == l && l > 0 && strncmp(p, q, l) == 0;
			q += ql + (q[ql] == ',');
		}
		n += l > 0 && !seen;
		p += l + (p[l] == ',');
	}
	return n;
}

/*
 * As perf: a key column that a scope option limits to one value (--dsos,
 * --comms or --symbols with one name) is not shown, unless every one is.
 */
static void
elide_keys(struct out *o)
{
	const struct hist_opts *ho = diff_hist_opts(o->d);
	unsigned shown = 0;

	for (unsigned k = 0; k < ho->nkeys; k++) {
		const char *v = ho->keys[k] == HIST_KEY_DSO ? o->a->dsos :
		    ho->keys[k] == HIST_KEY_COMM ? o->a->comms :
		    ho->keys[k] == HIST_KEY_SYM ? o->a->symbols : NULL;

		o->elide[k] = list_len(v) == 1;
		shown += !o->elide[k];
	}
	o->last = 0;
	for (unsigned k = 0; k < ho->nkeys; k++) {
		if (shown == 0)
			o->elide[k] = false;
		if (!o->elide[k])
			o->last = k;
	}
}

static void
print_diff(struct out *o)
{
	bool first = true;

	make_cols(o);
	elide_keys(o);
	if (o->a->tsv)
		print_tsv_header(o);
	for (size_t e = 0; e < diff_nevents(o->d); e++) {
		const struct diff_event *de = diff_event(o->d, e);

		if (!de->in[0]) {
			/* perf compares the baseline's events only: said, not shown */
			fprintf(o->fp, "# No samples of event '%s' in the baseline [0] %s: not compared\n",
			    textout_esc(de->name),
			    textout_esc(o->files[0].path));
			continue;
		}
		if (o->a->tsv) {
			for (size_t f = 1; f < diff_nfiles(o->d); f++)
				if (!de->in[f])
					fprintf(o->fp, "# No samples of event '%s' in [%zu] %s\n",
					    textout_esc(de->name), f, textout_esc(o->files[f].path));
		} else {
			key_widths(o, de);
			print_header(o, de, first);
		}
		first = false;
		for (size_t i = 0; i < de->nrows; i++)
			print_row(o, de, &de->rows[i]);
	}
}

/* ---- the command ---- */

const struct cmd_spec diff_spec = {
	.name = "diff",
	.summary = "compare recordings: the baseline's percents and each other's delta, ratio or weighted diff, as perf diff",
	.run = cmd_diff,
	.usage = "diff [OPTIONS] OLD NEW [NEW...]\n\n"
	    "Compare recordings as 'perf diff --stdio' does: the entries of OLD (the\n"
	    "baseline) and of each NEW paired by their keys' text (DSO and symbol\n"
	    "names by default, never addresses), per event paired by name, with the\n"
	    "baseline's percent and each NEW's delta, ratio or weighted diff.  With one\n"
	    "file, OLD is perf.data.old; with none, perf.data.old and perf.data.",
	.opts = diff_opts,
	.fn = diff_opt,
	.maxpos = -1,
};

/* --sort into ho (default dso,sym): 0, or -1 (message printed). */
static int
diff_keys(const char *sort, struct hist_opts *ho)
{
	const char *bad;
	char keys[256];
	size_t badlen, l = 0;
	int nk;

	memset(ho, 0, sizeof *ho);
	keys[0] = '\0';
	ho->event = -1;
	if (sort == NULL) {
		ho->keys[0] = HIST_KEY_DSO;
		ho->keys[1] = HIST_KEY_SYM;
		ho->nkeys = 2;
		return 0;
	}
	/* perf's name of the sym key, "symbol", read as "sym" */
	for (const char *p = sort; *p != '\0' && l < sizeof keys - 8;) {
		size_t w = strcspn(p, ",");
		bool sym = w == 6 && strncmp(p, "symbol", 6) == 0;

		l += (size_t)snprintf(keys + l, sizeof keys - l, "%.*s%s", sym ? 3 : (int)w, p,
		    p[w] == ',' ? "," : "");
		p += w + (p[w] == ',');
	}
	nk = hist_parse_keys(keys, ho->keys, &bad, &badlen);
	if (nk > 0) {
		ho->nkeys = (unsigned)nk;
		return 0;
	}
	if (nk < 0)
		fprintf(stderr, "perfnav diff: unknown sort key '%.*s' or more than %d keys (keys: "
		    "comm, pid, tid, process, dso, sym, cpu, srcline)\n", (int)badlen,
		    textout_esc(bad), HIST_MAX_KEYS);
	else
		fprintf(stderr, "perfnav diff: no sort keys\n");
	return -1;
}

/* The files' paths and options from the command line: their count, or 0 (message printed). */
static size_t
diff_files(struct cmd_run *r, const struct diff_args *a, const struct hist_opts *ho,
    struct dfile *files)
{
	const char *paths[DIFF_MAX_FILES];
	size_t n = 0;

	if (r->npos == 0) {
		paths[n++] = "perf.data.old";
		paths[n++] = r->co.input;
	} else {
		if ((size_t)r->npos + 1 > DIFF_MAX_FILES) {
			fprintf(stderr, "perfnav diff: at most %d files\n", DIFF_MAX_FILES);
			return 0;
		}
		paths[n++] = r->co.input;
		for (int i = 0; i < r->npos; i++)
			paths[n++] = r->pos[i];
	}
	if (a->d.order >= n) {
		fprintf(stderr, "perfnav diff: -o %u: there are files 0 to %zu\n", a->d.order, n - 1);
		return 0;
	}
	for (size_t f = 0; f < n; f++) {
		struct dfile *df = &files[f];
		const struct file_sym *fs = &a->fs[f];

		memset(df, 0, sizeof *df);
		df->path = paths[f];
		df->idx = f;
		df->co = r->co;
		df->co.input = paths[f];
		df->co.buildid_dir = fs->buildid_dir ? fs->buildid_dir : r->co.buildid_dir;
		df->co.kallsyms = fs->kallsyms ? fs->kallsyms : r->co.kallsyms;
		df->co.perfmap_dir = fs->perfmap_dir ? fs->perfmap_dir : r->co.perfmap_dir;
		df->co.symfs = fs->symfs ? fs->symfs : r->co.symfs;
		df->ho = *ho;
		df->a = a;
	}
	return n;
}

/* Report each file's problems, free everything; the exit status. */
static int
diff_end(struct dfile *files, size_t n, int status, bool strict)
{
	fflush(stdout);
	if (status == EXIT_OK && ferror(stdout)) {
		fprintf(stderr, "perfnav diff: write error\n");
		status = EXIT_FAIL;
	}
	for (size_t f = 0; f < n; f++) {
		struct dfile *df = &files[f];

		if (df->msg[0] != '\0')
			fprintf(stderr, "perfnav diff: %s\n", df->msg);
		if (df->z != NULL)
			cmd_report_refusals(stderr, df->z);
		if (df->s != NULL) {
			int rc = cmd_report_diags(df->s, strict);

			if (status == EXIT_OK)
				status = rc;
		}
		if (status == EXIT_OK)
			status = df->status;
		hist_free(df->h);
		symbolizer_free(df->z);
		session_close(df->s);
		filter_opts_free(&df->fo);
	}
	return status;
}

int
cmd_diff(int argc, char **argv)
{
	struct diff_args a;
	struct dfile files[DIFF_MAX_FILES];
	struct hist *h[DIFF_MAX_FILES];
	struct hist_opts ho;
	struct cmd_run r;
	struct out o;
	struct diff *d;
	size_t n;
	int status = EXIT_OK;

	memset(&a, 0, sizeof a);
	a.d.compute = DIFF_DELTA_ABS;
	a.d.order = 1;
	if (cmd_begin(&r, argc, argv, &diff_spec, &a) < 0)
		return r.status;
	if (diff_keys(a.sort, &ho) < 0 || (n = diff_files(&r, &a, &ho, files)) == 0)
		return EXIT_USAGE;
	load_all(files, n);
	for (size_t f = 0; f < n; f++) {
		if (files[f].status != EXIT_OK && status == EXIT_OK)
			status = files[f].status;
		h[f] = files[f].h;
	}
	if (status == EXIT_OK) {
		d = diff_new(h, n, &a.d);
		memset(&o, 0, sizeof o);
		o.fp = stdout;
		o.a = &a;
		o.d = d;
		o.files = files;
		if (d != NULL)
			print_diff(&o);
		else {
			fprintf(stderr, "perfnav diff: the files cannot be compared\n");
			status = EXIT_FAIL;
		}
		diff_free(d);
	}
	return diff_end(files, n, status, r.co.strict);
}
