#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbolize/hist.h"
#include "tui/pane/hot_branch.h"
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
	const struct session	*s;
	struct sym_opts		 so;
	bool			 have_so;
	struct symbolizer	*z;
	struct hist		*h;
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
hot_branch_new(const struct session *s, const struct sym_opts *so)
{
	struct hot_branch *b = xcalloc(1, sizeof *b);

	b->s = s;
	if (so != NULL) {
		b->so = *so;
		b->have_so = true;
	}
	return b;
}

void
hot_branch_free(struct hot_branch *b)
{
	if (b == NULL)
		return;
	hist_free(b->h);
	symbolizer_free(b->z);
	free(b);
}

/* The table: perf report's default branch keys over every sample. */
static void
make(struct hot_branch *b)
{
	static const enum hist_key keys[] = { HIST_KEY_COMM, HIST_KEY_DSO_FROM, HIST_KEY_SYM_FROM,
		HIST_KEY_SYM_TO, HIST_KEY_CYCLES };
	struct hist_opts o = { .nkeys = 5, .event = -1, .branch = HIST_BRANCH_ON };

	for (size_t i = 0; i < 5; i++)
		o.keys[i] = keys[i];
	b->z = symbolizer_new(b->s, b->have_so ? &b->so : NULL);
	b->h = hist_new(b->s, b->z, &o);
	hist_add_session(b->h, NULL);
	hist_finish(b->h);
}

uint64_t
hot_branch_entries(const struct hot_branch *b)
{
	if (b == NULL || b->h == NULL || b->ev >= hist_nevents(b->h))
		return 0;
	return hist_event(b->h, b->ev)->nsamples;
}

size_t
hot_branch_load(struct hot_branch *b, int attr, double pct)
{
	if (b->h == NULL)
		make(b);
	b->nrows = 0;
	for (size_t ev = 0; ev < hist_nevents(b->h); ev++) {
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
