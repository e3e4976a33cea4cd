#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/statrep.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/* perf's widths: the count, the event name, the metric column. */
#define COUNT_W		18
#define NAME_W		32
#define NAME_W_NC	25
#define METRIC_W	35

static size_t
unit_width(const struct stat_report *r)
{
	size_t w = 4;

	(void)r;	/* msec is the only unit perfnav knows: it fits */
	return w;
}

/* " # %8.3f UNIT" padded to the metric column, or the column blank. */
static void
print_metric(FILE *fp, const char *unit, double v)
{
	char num[64];
	int n;

	if (unit == NULL) {
		fprintf(fp, "%-*s", METRIC_W, "");
		return;
	}
	snprintf(num, sizeof num, "%8.3f", v);
	n = fprintf(fp, " # %s", num);
	fprintf(fp, " %-*s", METRIC_W - n - 1 > 0 ? METRIC_W - n - 1 : 0, unit);
}

/* perf's aggr_printout: the aggregate's id, then the cpus counted in it. */
static void
print_aggr_id(FILE *fp, const struct stat_report *r, size_t col, uint32_t nr)
{
	const struct stat_aggr_id *id = &r->aggr_ids[col];

	if (r->aggr == STAT_AGGR_CORE)
		fprintf(fp, "S%" PRId32 "-D%" PRId32 "-C%-8" PRId32, id->socket, id->die, id->core);
	else if (r->aggr == STAT_AGGR_DIE)
		fprintf(fp, "S%" PRId32 "-D%-8" PRId32, id->socket, id->die);
	else if (r->aggr == STAT_AGGR_NODE)
		fprintf(fp, "N%-5" PRId32, id->node);
	else
		fprintf(fp, "S%-5" PRId32, id->socket);
	fprintf(fp, " %4" PRIu32 " ", nr);
}

static void
print_prefix(FILE *fp, const struct stat_report *r, const struct stat_round *rd, size_t ev,
    size_t col)
{
	if (r->interval_ms != 0 && !rd->final)
		fprintf(fp, "%6" PRIu64 ".%09" PRIu64 " ", rd->time / 1000000000u,
		    rd->time % 1000000000u);
	if (r->per_aggr)
		print_aggr_id(fp, r, col, rd->c[ev * r->ncols + col].nr);
	if (r->per_cpu)
		fprintf(fp, "CPU%-7" PRId32 " ", r->cols[col]);
	if (r->per_thread)	/* perf's "comm-pid", the comm right-aligned in 16 */
		fprintf(fp, "%16s-%-8" PRId32 " ", textout_esc(r->col_comm[col]), r->col_pid[col]);
}

static void
print_line(FILE *fp, const struct stat_report *r, const struct stat_round *rd, size_t ev,
    size_t col)
{
	const struct stat_event *e = &r->ev[ev];
	const struct stat_count *c = &rd->c[ev * r->ncols + col];
	int uw = (int)unit_width(r);
	double v;

	print_prefix(fp, r, rd, ev, col);
	if (!stat_count_scaled(c, &v)) {
		fprintf(fp, "%*s %-*s %*s", COUNT_W,
		    (size_t)(rd - r->rounds) < e->supported_from ? "<not supported>" : "<not counted>",
		    uw, e->clock ? "msec" : "",
		    -NAME_W_NC, textout_esc(e->name));
		print_metric(fp, NULL, 0);
		fputc('\n', fp);
		return;
	}
	if (e->clock)
		fprintf(fp, "%*.2f %-*s ", COUNT_W, v / 1e6, uw, "msec");
	else
		fprintf(fp, "%*.0f %-*s ", COUNT_W, v, uw, "");
	fprintf(fp, "%-*s", NAME_W, textout_esc(e->name));
	print_metric(fp, c->munit, c->metric);
	if (c->run != c->ena)
		fprintf(fp, "  (%.2f%%)", 100.0 * (double)c->run / (double)c->ena);
	fputc('\n', fp);
}

/* Per thread, an event's threads are listed by count, the largest first. */
struct by_count {
	double	v;
	size_t	col;
};

static int
cmp_by_count(const void *a, const void *b)
{
	const struct by_count *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return (x->col > y->col) - (x->col < y->col);
}

static void
print_round(FILE *fp, const struct stat_report *r, const struct stat_round *rd)
{
	struct by_count *o = r->per_thread ? calloc(r->ncols ? r->ncols : 1, sizeof *o) : NULL;

	if (r->per_aggr) {	/* perf's print_aggr: per aggregate, its events */
		for (size_t col = 0; col < r->ncols; col++)
			for (size_t ev = 0; ev < r->nev; ev++)
				print_line(fp, r, rd, ev, col);
		return;
	}
	for (size_t ev = 0; ev < r->nev; ev++) {
		for (size_t col = 0; col < r->ncols && o != NULL; col++) {
			o[col].col = col;
			if (!stat_count_scaled(&rd->c[ev * r->ncols + col], &o[col].v))
				o[col].v = 0;
		}
		if (o != NULL)
			qsort(o, r->ncols, sizeof *o, cmp_by_count);
		for (size_t i = 0; i < r->ncols; i++)
			print_line(fp, r, rd, ev, o != NULL ? o[i].col : i);
	}
	free(o);
}

static void
print_header(FILE *fp, const struct session *s)
{
	const struct features *f = session_features(s);

	fputs("\n Performance counter stats for '", fp);
	if (f->cmdline_n == 0)
		fputs("pipe", fp);
	for (uint32_t i = 0; i < f->cmdline_n; i++)
		fprintf(fp, "%s%s", i ? " " : "", textout_esc(f->cmdline[i]));
	fputs("':\n\n", fp);
}

/* perf's interval header's columns before the counts, per aggregation. */
static const char *
aggr_head(enum stat_aggr a)
{
	switch (a) {
	case STAT_AGGR_NODE:
		return "node   cpus";
	case STAT_AGGR_DIE:
		return "die          cpus";
	case STAT_AGGR_CORE:
		return "core            cpus";
	default:
		return "socket cpus";
	}
}

static void
print_report(FILE *fp, const struct session *s, const struct stat_report *r)
{
	unsigned nint = 0;

	for (size_t i = 0; i < r->nrounds; i++) {
		const struct stat_round *rd = &r->rounds[i];

		if (r->interval_ms != 0 && !rd->final) {
			if (nint++ % 25 == 0) {
				if (r->per_aggr)
					fprintf(fp, "#           time %s             counts %*s events\n",
					    aggr_head(r->aggr), (int)unit_width(r), "unit");
				else if (r->per_cpu)
					fprintf(fp, "#           time CPU                    counts %*s events\n",
					    (int)unit_width(r), "unit");
				else if (r->per_thread)
					fprintf(fp, "#           time             comm-pid                  counts "
					    "%*s events\n", (int)unit_width(r), "unit");
				else
					fprintf(fp, "#           time             counts %*s events\n",
					    (int)unit_width(r), "unit");
			}
			print_round(fp, r, rd);
			continue;
		}
		if (r->interval_ms != 0)
			continue;
		print_header(fp, s);
		print_round(fp, r, rd);
		fprintf(fp, "\n %17.9f seconds time elapsed\n\n", (double)rd->time / 1e9);
	}
}

static const struct cmd_opt stat_opts[] = {
	{ NULL, 0, 0, NULL },
};

const struct cmd_spec stat_spec = {
	.name = "stat",
	.summary = "the counts of a perf stat record file, as perf stat report",
	.run = cmd_stat,
	.usage = "stat [OPTIONS] [FILE]\n\n"
	    "The counts of a 'perf stat record' file, as 'perf stat report' prints them:\n"
	    "per event (per cpu if recorded with -A, per thread with --per-thread, per socket,\n"
	    "die, core or node with --per-socket, --per-die, --per-core, --per-node), per\n"
	    "interval if recorded with -I.",
	.opts = stat_opts,
	.fn = NULL,
	.maxpos = 0,
};

int
cmd_stat(int argc, char **argv)
{
	struct cmd_run r;
	struct stat_report rep;

	if (cmd_begin(&r, argc, argv, &stat_spec, NULL) < 0 || cmd_load(&r, false) < 0)
		return r.status;
	if (!stat_report_build(r.s, &rep)) {
		fprintf(stderr, "perfnav: %s: no counts (not a 'perf stat record' file)\n",
		    textout_esc(r.co.input));
		r.status = EXIT_FAIL;
		return cmd_end(&r);
	}
	if (rep.aggr != STAT_AGGR_GLOBAL && rep.aggr != STAT_AGGR_NONE && rep.aggr != STAT_AGGR_THREAD &&
	    !rep.per_aggr)
		fprintf(stderr, "perfnav: %s: counts recorded per %s are shown summed (no CPU topology "
		    "in the recording to place them)\n",
		    textout_esc(r.co.input), rep.aggr == STAT_AGGR_CORE ? "core" : rep.aggr == STAT_AGGR_DIE ? "die" :
		    rep.aggr == STAT_AGGR_NODE ? "node" : "socket");
	if (rep.nbad)
		fprintf(stderr, "perfnav: %s: %zu counts of no event of the recording, or past "
		    "perfnav's bounds (first at offset %#" PRIx64 "), left out\n",
		    textout_esc(r.co.input), rep.nbad, rep.first_bad);
	print_report(stdout, r.s, &rep);
	stat_report_free(&rep);
	return cmd_end(&r);
}
