/*
 * keytab.h: a hot-function table by any sort keys, built off the UI thread.
 *
 * The browser's own hist (tui/symbols.h) is keyed comm,tid,dso,sym, which
 * gives every table of those keys by merging rows.  A table by other keys
 * (cpu, srcline, the branch and memory keys, weights, trace; or without
 * sym, whose children sums do not merge) needs a hist of its own, made
 * as perfnav top makes it: those keys, over the scope's samples (a filter
 * as top's options give it, scope_filter_named), in perf's branch or
 * memory mode when its keys ask for one.
 *
 * A struct keytab builds that hist on a thread of its own, with a
 * symbolizer of its own (kept for its life, so a second table resolves
 * nothing twice): keytab_want() names the table wanted; keytab_hist()
 * gives it once built (NULL meanwhile; the caller polls, as the browser
 * polls symbols).  Asking for another table stops the build under way
 * (within one slice) and starts the new one.  Curses-free.
 */
#ifndef PERFNAV_TUI_KEYTAB_H
#define PERFNAV_TUI_KEYTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"

struct session;
struct keytab;

/* The table: its keys in column order, and the hist options they need. */
struct keytab_spec {
	enum hist_key	 keys[HIST_MAX_KEYS];
	unsigned	 nkeys;
	bool		 children;
	enum hist_branch branch;	/* ON for branch keys, else AUTO (as perfnav top) */
	bool		 mem_mode;	/* memory keys: periods are the samples' weights */
	bool		 parallel;	/* the recording has switch events (not in branch or
					 * memory mode): latency and the key parallelism from
					 * perf 6.15's model (symbolize/parallel.h), made once
					 * on the table's thread */
	const struct offcpu *offcpu;	/* off-CPU spans beside the samples (hist_opts.offcpu_beside:
					 * the keys state and waker), borrowed; NULL: none */
};

struct keytab *keytab_new(const struct session *s, const struct sym_opts *so);
void keytab_free(struct keytab *kt);

/*
 * Want the table of sp over the samples f chooses (NULL: all; copied).
 * Nothing happens when it is the table built or being built; else the
 * build under way stops and this one starts.
 */
void keytab_want(struct keytab *kt, const struct keytab_spec *sp, const struct hist_filter *f);

/*
 * The finished hist of the last keytab_want (its symbolizer names its ids:
 * keytab_symbolizer), or NULL while it is being built.  Only the thread
 * that calls keytab_want may call it; the hist stays valid until the next
 * keytab_want or keytab_free.
 */
struct hist *keytab_hist(struct keytab *kt);
const struct symbolizer *keytab_symbolizer(const struct keytab *kt);

/* Is a build under way, and how far (0..1)? */
bool keytab_busy(const struct keytab *kt);
/* Builds started plus tables taken up (keytab_hist) so far: 0 for NULL. */
unsigned keytab_changes(const struct keytab *kt);
double keytab_progress(const struct keytab *kt);

/* Wait for the build under way (tests, text tools). */
void keytab_wait(struct keytab *kt);

/* The spec of a --sort list against the recording: 0, or -1 with a message. */
int keytab_spec_of(const struct session *s, const enum hist_key *keys, unsigned nkeys,
    bool children, struct keytab_spec *sp, char *msg, size_t n);

#endif
