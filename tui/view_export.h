/*
 * view_export.h: what the browser's export action writes (tui/view_export.c),
 * curses-free: a list or tree pane's rows as they are shown, and the scope
 * in the formats perfnav export writes.  The app (tui/app_export.c) runs
 * these in a child process, so that the input loop never waits for them.
 */
#ifndef PERFNAV_TUI_VIEW_EXPORT_H
#define PERFNAV_TUI_VIEW_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pane;
struct session;
struct symbols;

/* What a file name's ending asks for. */
enum view_export_kind {
	VX_TEXT,	/* .txt: the rows as shown */
	VX_SVG,		/* .svg: the flame graph */
	VX_PPROF,	/* .pb.gz, .pprof: pprof */
	VX_SPEEDSCOPE,	/* .json, .speedscope.json: speedscope */
	VX_FOLDED,	/* .folded: folded stacks */
	VX_PERF,	/* .data: a carved perf.data of the scope */
	VX_NONE
};

/* The kind a file name's ending asks for (VX_NONE: none of them). */
enum view_export_kind view_export_kind_of(const char *path);
/* The endings, for the prompt and perfnav(1): ".txt .svg .pb.gz ...". */
extern const char view_export_endings[];

/*
 * The visible rows of list or tree pane p, in the order shown, on fp: a
 * first line "# TITLE" (when title is not NULL), the column titles, then a
 * line per row, each column as wide as its widest text (never cut), a
 * tree's names indented two spaces a level with "+ " before a collapsed
 * row with children and "- " before an expanded one.  Names from the
 * recording go out escaped as the text subcommands escape them.  Returns
 * the rows written, or -1 (a write error, p not a list).
 */
long view_export_text(struct pane *p, const char *title, FILE *fp);

/*
 * The scope of sy (its event, zoom, time steps, the start options; not
 * the call-path transforms) of recording s, named name, in kind (VX_SVG,
 * VX_PPROF, VX_SPEEDSCOPE, VX_FOLDED, or VX_PERF: its samples carved, of
 * every event when the scope's is off-CPU time) on fp, as perfnav export
 * writes it with the options scope-command shows.  0, or -1 (a write
 * error, another kind).
 */
int view_export_scope(struct session *s, struct symbols *sy, const char *name,
    enum view_export_kind kind, FILE *fp);

#endif
