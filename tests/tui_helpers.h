/*
 * tui_helpers.h: helpers of the pane tests (tests/tui_helpers.c).  Each
 * fails the running Criterion test on error.
 */
#ifndef PERFNAV_TESTS_TUI_HELPERS_H
#define PERFNAV_TESTS_TUI_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

#include "tests/helpers.h"	/* open_fixture */

struct nav_view;
struct pane;
struct row;
struct session;
struct symbols;

/* Whether the pane's row of source index src shows text. */
bool row_has(struct pane *p, size_t src, const char *text);
/* A TUI symbolizer over s with the fixtures' build-id cache and no kallsyms. */
struct symbols *fixture_symbols(struct session *s);
/* Visible position of the first row containing text, or WIDGET_NONE. */
size_t find_text(struct pane *p, const char *text);
/* Create p as the hot-functions pane over s and sy, entered at its root. */
void hot_pane(struct pane *p, struct session *s, struct symbols *sy);
/* Let p's table settle: a key of none, the sort-key table's thread waited for, 40 rows high. */
void pane_settle(struct pane *p, struct symbols *sy);
/* Step p's long work (pane_ops.work, budget 0) to its end: the steps it took (fails unless done). */
int pane_work_out(struct pane *p);
/* The cell of column named header in row i ("" when the pane has no such column). */
const char *pane_cell(struct pane *p, struct row *r, size_t i, const char *header);
/* Apply a pushed view to a pane of its kind (what the app's history does). */
void go(struct pane *p, const struct nav_view *v);
/*
 * Draw p (its draw op, else its widget) as the app would into an h x w
 * curses pad (a terminal on /dev/null, the C.UTF-8 locale); screen_line(y)
 * is then row y's text (UTF-8, trailing blanks off, valid until the next
 * call), screen_col the column where text starts in such a line (-1).
 */
void screen_draw(struct pane *p, int h, int w);
const char *screen_line(int y);
int screen_col(const char *line, const char *text);

#endif
