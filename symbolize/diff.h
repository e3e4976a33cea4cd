/*
 * diff.h: perf diff's comparison of recordings, over finished hists
 * (symbolize/hist.h), one per recording, each over its own session and
 * symbolizer, all built with the same sort keys and without children.
 *
 * Semantics (perf diff 6.1):
 *  - file 0 is the baseline; events pair by name (perf pairs evsels by
 *    type and config; names are what two recordings from different
 *    machines share); entries pair by the text of their keys (DSO short
 *    name, symbol name...: never by address, which ASLR moves); as perf
 *    diff compares symbols by name, the unresolved addresses of a DSO
 *    (with the other keys equal) are one row, named by the lowest;
 *  - a row is one key text of an event: the baseline's entry when it has
 *    one, else a "dummy" (perf's word: no baseline entry, its baseline
 *    period 0) made for an entry of another file;
 *  - per other file i with an entry in the row: Delta = pct_i - pct_0
 *    (percents of each file's event total; with relative, of the total
 *    of its rows, as perf's --percentage relative), Ratio = period_i /
 *    (period_0, or 1 when 0), Weighted diff = period_i * W2 - period_0 *
 *    W1;
 *  - rows sort as perf's output does: by file order's column first
 *    (rows with an entry in that file first; for ratio and wdiff dummies
 *    last; then the value, descending, delta-abs by its absolute value),
 *    then the baseline period, then each file's column the same way
 *    (rows with any pair first), then the keys (DSO names ascending,
 *    [unknown] last; symbol names ascending, unresolved last; other keys
 *    by text), then the key text.
 * Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_DIFF_H
#define PERFNAV_SYMBOLIZE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/hist.h"

#define DIFF_MAX_FILES	16

/* perf diff's -c. */
enum diff_compute {
	DIFF_DELTA,
	DIFF_DELTA_ABS,
	DIFF_RATIO,
	DIFF_WDIFF,
};

struct diff_opts {
	enum diff_compute compute;
	int64_t		 w1, w2;	/* wdiff's weights (perf's wdiff:W1,W2) */
	unsigned	 order;		/* perf's -o: the file whose column sorts first, 0: none */
	bool		 relative;	/* --percentage relative: percents of the rows' periods */
	bool		 baseline_only;	/* perf's -b: only rows with a baseline entry and a
					 * pair; the baseline's percents (and total) are then
					 * of those rows, as perf's, its deltas of the whole */
};

/* One file's part of a row. */
struct diff_cell {
	bool		 present;	/* the file has an entry with the row's keys */
	uint64_t	 period;	/* its self period (summed over entries of equal text) */
	double		 pct;		/* of the file's total */
	/* Against the baseline (files 1.. when present): */
	double		 delta;		/* pct - the baseline's pct (0 for a dummy) */
	double		 ratio;		/* period / (baseline period, 1 if 0) */
	int64_t		 wdiff;		/* period * W2 - baseline period * W1 */
};

struct diff_row {
	const char	*key[HIST_MAX_KEYS];	/* each key's text, as hist_key_text */
	bool		 dummy;		/* no baseline entry */
	bool		 dso_none;	/* the DSO is [unknown] (dso key) */
	bool		 sym_none;	/* the symbol is an unresolved address (sym key) */
	unsigned	 src;		/* the file whose entries name the row */
	struct diff_cell *cell;		/* one per file */
};

struct diff_event {
	const char	*name;
	bool		 in[DIFF_MAX_FILES];	/* the file has the event with samples */
	uint64_t	 total[DIFF_MAX_FILES];	/* the totals percents are of */
	struct diff_row	*rows;		/* sorted as perf */
	size_t		 nrows;
};

struct diff;

/*
 * Compare hists h[0] (the baseline) .. h[n-1] (2 <= n <= DIFF_MAX_FILES;
 * finished, same keys, children off; borrowed only while diff_new runs).
 * Events: the baseline's in its order, then those of other files the
 * baseline lacks (in[0] false: their rows are all dummies).  NULL when n
 * is out of range, o->order >= n, or the hists' keys differ.
 */
struct diff *diff_new(struct hist *const *h, size_t n, const struct diff_opts *o);
void diff_free(struct diff *d);

size_t diff_nfiles(const struct diff *d);
const struct hist_opts *diff_hist_opts(const struct diff *d);
size_t diff_nevents(const struct diff *d);
/*
 * The event of h that pairs with an event called name, as perf diff pairs
 * them: the same name, else the same but for perf's modifiers (cpu-clock
 * with cpu-clock:u); events whose taken[i] is set (taken may be NULL) are
 * passed over.  Its index (hist_event), or -1.
 */
long diff_event_for(const struct hist *h, const bool *taken, const char *name);
const struct diff_event *diff_event(const struct diff *d, size_t i);

#endif
