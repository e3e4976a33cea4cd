/*
 * hot_branch.h: the hot-functions pane's branch table (tui/pane/pane_hot.c),
 * perf report's branch mode: a row per (command, source DSO, source
 * symbol, target symbol, cycles), period 1 per branch entry, for a
 * recording with branch stacks, over the scope's samples: the symbols'
 * branch table (symbols_branch_table), built off the UI thread when first
 * asked for.
 */
#ifndef PERFNAV_TUI_PANE_HOT_BRANCH_H
#define PERFNAV_TUI_PANE_HOT_BRANCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "tui/widget.h"

struct hot_branch;

/* Columns of the table, as perf report's branch mode names them. */
enum { HB_PCT, HB_SAMPLES, HB_COMM, HB_DSO_FROM, HB_SYM_FROM, HB_SYM_TO, HB_CYCLES, HB_N };
extern const struct column hot_branch_cols[HB_N];

/* Does s have branch stacks (the BRANCH_STACK feature)? */
bool hot_branch_present(const struct session *s);
struct symbols;

/* Nothing is made yet: the table of sy (borrowed). */
struct hot_branch *hot_branch_new(struct symbols *sy);
void hot_branch_free(struct hot_branch *b);
/*
 * The rows of the event of attr index attr (perf's order), under pct
 * percent hidden; none while the table is built (the first call starts
 * it).  Returns the count.
 */
size_t hot_branch_load(struct hot_branch *b, int attr, double pct);
/* Is the table of the last load being built; is it in now (load again)? */
bool hot_branch_busy(const struct hot_branch *b);
bool hot_branch_ready(struct hot_branch *b);
/* The branch entries the table of the last hot_branch_load counts (0
 * before one). */
uint64_t hot_branch_entries(const struct hot_branch *b);
/* Row i's cells (names escaped by the widget, as every pane's). */
void hot_branch_row(struct hot_branch *b, size_t i, struct row *r);

#endif
