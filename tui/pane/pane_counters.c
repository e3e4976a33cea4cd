#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/statrep.h"
#include "tui/pane.h"

/*
 * The counters pane: the counts of a `perf stat record` file
 * (symbolize/statrep.h), one row per event (per cpu when recorded with -A,
 * per thread, per socket, die, core or node: "S0-D0-C1 (2 cpus)", per
 * interval with -I), as `perfnav stat` prints them: the count (msec
 * for clocks), perf's metric, and the share of the time the counter ran
 * when it was multiplexed.  The browser opens on it when a recording has
 * counts and no samples.  A recording of samples has no counts: one row
 * says so.
 */

enum { C_TIME, C_CPU, C_COUNT, C_UNIT, C_EVENT, C_METRIC, C_RUN, C_N };

static const struct column ct_cols[C_N] = {
	[C_TIME] = { "Time", 12, COL_RIGHT | COL_NUM },
	[C_CPU] = { "CPU/thread", 16, COL_RIGHT },
	[C_COUNT] = { "Count", 16, COL_RIGHT | COL_NUM },
	[C_UNIT] = { "Unit", 4, 0 },
	[C_EVENT] = { "Event", 20, COL_FLEX },
	[C_METRIC] = { "Metric", 24, COL_RIGHT | COL_NUM },
	[C_RUN] = { "Ran", 8, COL_RIGHT | COL_NUM },
};

/* A row: one count of one printed round. */
struct crow {
	uint32_t	round, ev, col;
};

struct ct {
	struct stat_report	 rep;
	bool			 have;
	struct crow		*rows;
	size_t			 nrows;
};

static bool
printed(const struct stat_report *r, const struct stat_round *rd)
{
	/* as perf stat report: the intervals of a -I recording, else the final round */
	return r->interval_ms != 0 ? !rd->final : true;
}

static int
ct_init(struct pane *p)
{
	struct ct *ct = xcalloc(1, sizeof *ct);
	const struct type_counts *cnt = session_counts(p->s);
	size_t n = 0;

	p->priv = ct;
	p->cols = ct_cols;
	p->ncols = C_N;
	p->is_list = true;
	/* only a recording with STAT records is walked for them */
	if (cnt->by_type[PF_REC_STAT] > 0)
		ct->have = stat_report_build(p->s, &ct->rep);
	if (ct->have) {
		const struct stat_report *r = &ct->rep;

		for (size_t i = 0; i < r->nrounds; i++)
			n += printed(r, &r->rounds[i]) ? r->nev * r->ncols : 0;
		ct->rows = xcalloc(n ? n : 1, sizeof *ct->rows);
		for (size_t i = 0; i < r->nrounds; i++) {
			if (!printed(r, &r->rounds[i]))
				continue;
			/* per aggregate as perf prints them: an aggregate's events together */
			for (size_t k = 0; k < r->nev * r->ncols; k++) {
				size_t ev = r->per_aggr ? k % r->nev : k / r->ncols;
				size_t col = r->per_aggr ? k / r->nev : k % r->ncols;

				ct->rows[ct->nrows++] = (struct crow){ (uint32_t)i, (uint32_t)ev,
					(uint32_t)col };
			}
		}
	}
	widget_init(&p->w, p, false);
	return 0;
}

static void
ct_free(struct pane *p)
{
	struct ct *ct = p->priv;

	if (ct == NULL)
		return;
	if (ct->have)
		stat_report_free(&ct->rep);
	free(ct->rows);
	free(ct);
}

static size_t
ct_nrows(struct pane *p)
{
	struct ct *ct = p->priv;

	return ct->have ? ct->nrows : 1;
}

static void
ct_row(struct pane *p, size_t idx, struct row *r)
{
	struct ct *ct = p->priv;
	const struct stat_report *rep = &ct->rep;
	const struct crow *cr;
	const struct stat_round *rd;
	const struct stat_event *e;
	const struct stat_count *c;
	double v;

	row_reset(r);
	if (!ct->have) {
		row_set(r, C_EVENT, EL_DIM, "no counts");
		return;
	}
	cr = &ct->rows[idx];
	rd = &rep->rounds[cr->round];
	e = &rep->ev[cr->ev];
	c = &rd->c[(size_t)cr->ev * rep->ncols + cr->col];
	if (rep->interval_ms != 0)
		row_set(r, C_TIME, EL_TIME, "%" PRIu64 ".%06" PRIu64, rd->time / 1000000000u,
		    rd->time % 1000000000u / 1000u);
	else
		row_set(r, C_TIME, EL_DIM, "total");
	if (rep->per_aggr) {	/* the aggregate's id as perf names it, and its cpus summed */
		char id[48];

		stat_aggr_text(rep, cr->col, id, sizeof id);
		row_set(r, C_CPU, 0, "%s (%" PRIu32 " cpu%s)", id, c->nr, c->nr == 1 ? "" : "s");
	} else if (rep->per_cpu) {
		row_set(r, C_CPU, 0, "%" PRId32, rep->cols[cr->col]);
	} else if (rep->per_thread) {	/* as perf prints it: comm-pid */
		row_set(r, C_CPU, EL_COMM, "%s-%" PRId32, rep->col_comm[cr->col], rep->col_pid[cr->col]);
	} else {
		row_set(r, C_CPU, EL_DIM, "all");
	}
	row_set(r, C_EVENT, 0, "%s", e->name);
	if (!stat_count_scaled(c, &v)) {
		row_set(r, C_COUNT, EL_DIM, "%s",
		    cr->round < e->supported_from ? "<not supported>" : "<not counted>");
		return;
	}
	if (e->clock) {
		row_set(r, C_COUNT, 0, "%.2f", v / 1e6);
		row_set(r, C_UNIT, 0, "msec");
	} else {
		row_set(r, C_COUNT, 0, "%.0f", v);
	}
	if (c->munit != NULL)
		row_set(r, C_METRIC, 0, "%.3f %s", c->metric, c->munit);
	if (c->run != c->ena)
		row_set(r, C_RUN, EL_WARNING, "%.2f%%", 100.0 * (double)c->run / (double)c->ena);
}

/* Numbers sort as numbers: the count scaled, the metric's value. */
static int
ct_cmp(struct pane *p, int col, size_t a, size_t b)
{
	struct ct *ct = p->priv;
	const struct stat_report *rep = &ct->rep;
	const struct crow *x, *y;
	const struct stat_count *cx, *cy;
	double vx = -1, vy = -1;

	if (!ct->have)
		return 0;
	x = &ct->rows[a];
	y = &ct->rows[b];
	cx = &rep->rounds[x->round].c[(size_t)x->ev * rep->ncols + x->col];
	cy = &rep->rounds[y->round].c[(size_t)y->ev * rep->ncols + y->col];
	switch (col) {
	case C_TIME:
		return (x->round > y->round) - (x->round < y->round);
	case C_CPU:
		return (x->col > y->col) - (x->col < y->col);
	case C_COUNT:
		(void)stat_count_scaled(cx, &vx);
		(void)stat_count_scaled(cy, &vy);
		break;
	case C_METRIC:
		vx = cx->munit ? cx->metric : -1;
		vy = cy->munit ? cy->metric : -1;
		break;
	case C_RUN:
		vx = cx->ena ? (double)cx->run / (double)cx->ena : 0;
		vy = cy->ena ? (double)cy->run / (double)cy->ena : 0;
		break;
	default:
		return strcmp(rep->ev[x->ev].name, rep->ev[y->ev].name);
	}
	return (vx > vy) - (vx < vy);
}

static const char *
ct_hint(struct pane *p)
{
	struct ct *ct = p->priv;

	return ct->have ? "counts of perf stat record  > <: sort  /: search  f: filter" :
	    "no counts: not a perf stat record recording";
}

const struct pane_ops pane_counters_ops = {
	.name = "counters",
	.description = "the counts of a perf stat record file (S)",
	.title = "Counters",
	.init = ct_init,
	.free = ct_free,
	.nrows = ct_nrows,
	.row = ct_row,
	.cmp = ct_cmp,
	.enter = pane_list_enter,
	.save = pane_list_save,
	.help = ct_hint,
};
