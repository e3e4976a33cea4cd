/*
 * tui_helpers.h: helpers of the pane tests (tests/tui_helpers.c).  Each
 * fails the running Criterion test on error.
 */
#ifndef PERFNAV_TESTS_TUI_HELPERS_H
#define PERFNAV_TESTS_TUI_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

struct nav_view;
struct pane;
struct session;
struct symbols;

/* Open tests/data/NAME (the test fails if it cannot). */
struct session *open_fixture(const char *name);
/* Whether the pane's row of source index src shows text. */
bool row_has(struct pane *p, size_t src, const char *text);
/* A TUI symbolizer over s with the fixtures' build-id cache and no kallsyms. */
struct symbols *fixture_symbols(struct session *s);
/* Visible position of the first row containing text, or WIDGET_NONE. */
size_t find_text(struct pane *p, const char *text);
/* Create p as the hot-functions pane over s and sy, entered at its root. */
void hot_pane(struct pane *p, struct session *s, struct symbols *sy);
/* Apply a pushed view to a pane of its kind (what the app's history does). */
void go(struct pane *p, const struct nav_view *v);

#endif
