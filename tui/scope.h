/*
 * scope.h: what part of the recording the analysis panes look at, shared
 * by them all (hot functions, the call-path trees, the flame graph): the
 * event, the zoom (a process, thread or DSO: a struct hist_select over the
 * samples' own entries) and the call-path transforms (symbolize/cpath.h)
 * in the order they were applied.  The app owns one, in struct symbols
 * (p->sym->scope); a pane that changes it bumps gen, and every pane that
 * shows it rebuilds when gen is not the one it built for.  Transforms are
 * steps of the view history: each is pushed as a view, Esc pops it.
 * Curses-free.
 */
#ifndef PERFNAV_TUI_SCOPE_H
#define PERFNAV_TUI_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/cpath.h"
#include "symbolize/hist.h"

#define SCOPE_XF_MAX	8

struct scope {
	size_t			 ev;		/* event index (hist_event) */
	bool			 zoomed;	/* sel applies */
	struct hist_select	 sel;
	char			 zoom_label[48];	/* "pid 123", "libc.so.6" */
	struct cpath_xform	 xf[SCOPE_XF_MAX];
	size_t			 nxf;
	unsigned		 gen;		/* bumped on every change */
};

#endif
