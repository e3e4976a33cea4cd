#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbolize/hist.h"
#include "tui/pane/hot_branch.h"
#include "tui/symbols.h"
#include "tui/theme.h"

const struct column hot_branch_cols[HB_N] = {
	{ "Overhead", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 7, COL_RIGHT | COL_NUM },
	{ "Command", 10, 0 },
	{ "Source Shared Object", 14, 0 },
	{ "Source Symbol", 22, 0 },
	{ "Target Symbol", 22, COL_FLEX },
	{ "Cycles", 6, COL_RIGHT },
};

struct hot_branch {
	struct symbols		*sy;
	struct hist		*h;		/* the table of the last load, or NULL */
	bool			 busy;		/* it is being built */
	const uint32_t		*rows;
	size_t			 nrows;
	size_t			 ev;
};

bool
hot_branch_present(const struct session *s)
{
	return s != NULL && session_features(s)->sec[PF_FEAT_BRANCH_STACK].present;
}

struct hot_branch *
hot_branch_new(struct symbols *sy)
{
	struct hot_branch *b = xcalloc(1, sizeof *b);

	b->sy = sy;
	return b;
}

void
hot_branch_free(struct hot_branch *b)
{
	free(b);
}

uint64_t
hot_branch_entries(const struct hot_branch *b)
{
	if (b == NULL || b->h == NULL || b->ev >= hist_nevents(b->h))
		return 0;
	return hist_event(b->h, b->ev)->nsamples;
}

bool
hot_branch_busy(const struct hot_branch *b)
{
	return b != NULL && b->busy;
}

bool
hot_branch_ready(struct hot_branch *b)
{
	return b != NULL && b->busy && symbols_branch_table(b->sy, NULL) != NULL;
}

size_t
hot_branch_load(struct hot_branch *b, int attr, double pct)
{
	b->h = symbols_branch_table(b->sy, &b->busy);
	b->nrows = 0;
	for (size_t ev = 0; b->h != NULL && ev < hist_nevents(b->h); ev++) {
		if (hist_event(b->h, ev)->attr != attr)
			continue;
		b->ev = ev;
		b->nrows = hist_rows(b->h, ev, pct, &b->rows);
	}
	return b->nrows;
}

void
hot_branch_row(struct hot_branch *b, size_t i, struct row *r)
{
	static const enum hist_key key_of[HB_N] = { [HB_COMM] = HIST_KEY_COMM,
		[HB_DSO_FROM] = HIST_KEY_DSO_FROM, [HB_SYM_FROM] = HIST_KEY_SYM_FROM,
		[HB_SYM_TO] = HIST_KEY_SYM_TO, [HB_CYCLES] = HIST_KEY_CYCLES };
	const struct hist_entry *e;
	char buf[1024];
	double pc;

	if (i >= b->nrows)
		return;
	e = hist_entry_get(b->h, b->rows[i]);
	pc = hist_self_pct(b->h, e);
	row_set(r, HB_PCT, pc >= 5 ? EL_HOT_HIGH : pc >= 0.5 ? EL_HOT_MID : EL_HOT_LOW, "%.2f%%",
	    pc);
	row_set(r, HB_SAMPLES, 0, "%" PRIu64, e->samples);
	for (int c = HB_COMM; c < HB_N; c++)
		row_set(r, c, c == HB_COMM ? EL_COMM : 0, "%s",
		    hist_key_text(b->h, e, key_of[c], buf, sizeof buf));
}
