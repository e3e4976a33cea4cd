#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "tui/app_priv.h"
#include "tui/cmd/cmd.h"
#include "tui/scope.h"
#include "tui/scope_edit.h"
#include "tui/symbols.h"

/*
 * app_scope.c: the scope typed on the status line (scope-edit) and the
 * command line that prints what the current view shows (scope-command).
 */

void
app_scope_edit_start(struct app *a)
{
	if (a->sym == NULL || !a->sym->done) {
		app_msg(a, EL_MESSAGE, "the scope can be typed once symbols are resolved (%.0f%% now)",
		    a->sym ? 100 * symbols_progress(a->sym) : 0.0);
		return;
	}
	a->in = IN_SCOPE;
	a->in_buf[0] = '\0';
	app_msg(a, EL_MESSAGE, "--time 10%%-20%% --tid N --pid N --comms C --cpu L --dsos D --files F "
	    "--symbols S -e EV --sort K -g ORDER; Enter applies");
}

/* Enter on the typed scope: one step, or the error said with the line kept open. */
bool
app_scope_edit_enter(struct app *a)
{
	struct scope_edit_ctx cx = { a->s, a->sym->h, a->sym->z, a->diff };
	struct nav_view v;
	char msg[300], z[400];
	int rc;

	app_view_save(a);
	v = *nav_top(&a->nav);
	rc = scope_edit(&a->sym->scope, &cx, a->in_buf, msg, sizeof msg);
	if (rc < 0) {
		app_msg(a, EL_ERROR, "%s", msg);
		return false;
	}
	if (rc == 0) {
		snprintf(v.label, sizeof v.label, "scope %s", TEXT_CLIP(a->in_buf, 40));
		app_view_push_step(a, &v);
		app_scope_apply(a);
		scope_text(&a->sym->scope, a->sym->h, a->start_scope, z, sizeof z);
		app_msg(a, EL_MESSAGE, "scope: %s%s%s (Esc: back)", z, msg[0] ? "; " : "", msg);
	} else {
		app_msg(a, EL_MESSAGE, "%s", msg);
	}
	return true;
}

/* The symbol options given at start, as words ("--buildid-dir DIR"). */
static void
common_words(const struct common_opts *co, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
#define W(opt, v) \
	if ((v) != NULL && o + 1 < n) \
		o += (size_t)snprintf(buf + o, n - o, "%s" opt " %s", o ? " " : "", (v));
	W("--buildid-dir", co->buildid_dir)
	W("--kallsyms", co->kallsyms)
	W("--perfmap-dir", co->perfmap_dir)
	W("--symfs", co->symfs)
#undef W
	if (co->no_debuginfod && o + 1 < n)
		snprintf(buf + o, n - o, "%s--no-debuginfod", o ? " " : "");
}

/*
 * cmd into out as shell lines of at most width columns, broken between
 * words (never inside a quoted one) with a backslash: a copy of the box
 * pastes as one command.
 */
static void
wrap_command(const char *cmd, char *out, size_t n, int width)
{
	size_t o = 0, col = 0, i = 0, len = strlen(cmd);

	while (i < len && o + 4 < n) {
		size_t j = i;
		bool q = false;

		while (j < len && (q || cmd[j] != ' ')) {	/* one word, quotes kept whole */
			q = cmd[j] == '\'' ? !q : q;
			j++;
		}
		if (col > 0 && col + 1 + (j - i) + 2 > (size_t)width) {
			o += (size_t)snprintf(out + o, n - o, " \\\n    ");
			col = 4;
		} else if (col > 0) {
			out[o++] = ' ';
			col++;
		}
		o += (size_t)snprintf(out + o, n - o, "%.*s", (int)(j - i), cmd + i);
		col += j - i;
		i = j + 1;
	}
	if (o >= n)
		o = n - 1;
	out[o] = '\0';
}

/* Append s to buf (n bytes), cut to fit. */
static void
text_append(char *buf, size_t n, const char *s)
{
	size_t k = strlen(buf);

	if (k + 1 < n)
		snprintf(buf + k, n - k, "%s", s);
}

/* Is pane id a view whose rows no subcommand prints (the command is then the scope's top)? */
static bool
own_view(enum pane_id id)
{
	return id != PANE_HOT && id != PANE_PROCS && id != PANE_TIMELINE && id != PANE_TOPDOWN &&
	    id != PANE_BOTTOMUP && id != PANE_FLAME && id != PANE_FSCOPE;
}

/* The perfnav export line of the scope (pprof; the flame graph's SVG) below the command. */
static void
export_line(struct app *a, const struct scope *sc, const struct scope_edit_ctx *cx,
    const struct scope_cmd *c, bool svg)
{
	struct scope_cmd e = { .common = c->common, .start = c->start, .file = c->file };
	char cmd[1500], wrapped[1800];

	e.sub = svg ? "export --format svg -o perfnav-flame.svg" : "export --format pprof -o perfnav.pb.gz";
	scope_command(sc, cx, &e, cmd, sizeof cmd);
	wrap_command(cmd, wrapped, sizeof wrapped, COLS - 6);
	text_append(a->row_text, sizeof a->row_text, "\n\nIts samples for other tools (P in the browser "
	    "writes the view):\n");
	text_append(a->row_text, sizeof a->row_text, wrapped);
}

void
app_scope_command(struct app *a)
{
	struct pane *p = app_view_pane(a);
	struct scope_edit_ctx cx;
	struct scope_cmd c = { 0 };
	const struct nav_view *v = nav_top(&a->nav);
	const struct scope *sc;
	struct scope diffsc;
	char common[1024], cmd[1500], wrapped[1800], sort[200];

	if (a->sym == NULL || !a->sym->done) {
		app_msg(a, EL_MESSAGE, "the command line: once symbols are resolved");
		return;
	}
	sc = &a->sym->scope;
	cx = (struct scope_edit_ctx){ a->s, a->sym->h, a->sym->z, a->diff };
	common_words(a->co, common, sizeof common);
	c.common = common;
	c.start = a->sym->start;
	c.file = a->names[a->shown] ? a->names[a->shown] : a->co->input;
	switch (p->id) {
	case PANE_PROCS:
	case PANE_TIMELINE:
		c.sub = "tree";
		break;
	case PANE_TOPDOWN:
	case PANE_BOTTOMUP:
	case PANE_FLAME:
	case PANE_FSCOPE:
		c.sub = "folded";
		c.addresses = true;	/* its frames named as the trees name them */
		break;
	default:
		c.sub = "top";
		c.no_children = a->sym->callchains && !a->sym->children;
		if (p->id == PANE_HOT && v != NULL && v->target == NAV_T_HOT && (v->arg & NAV_HOT_DSOS))
			c.sort = "dso";
		else if (sc->hot_sort.n)
			c.sort = scope_sort_text(&sc->hot_sort, sort, sizeof sort);
		for (unsigned i = 0; c.sort != NULL && i < sc->hot_sort.n; i++)
			c.mem_mode |= hist_key_mem(sc->hot_sort.keys[i]);
		/* the hot functions by latency: top --latency's order and Latency column */
		c.latency = p->id == PANE_HOT && sc->hot_by_latency && symbols_parallel(a->sym) != NULL &&
		    !c.mem_mode && (c.sort == NULL || strcmp(c.sort, "dso") != 0);
		break;
	}
	if (a->diff) {
		/* perfnav diff of the two: what both take of the scope (no process, thread, time) */
		diffsc = *sc;
		diffsc.sel.by_pid = diffsc.sel.by_tid = false;
		diffsc.zoomed = diffsc.sel.by_dso || diffsc.sel.by_node || diffsc.sel.by_comm;
		diffsc.ntr = 0;
		c.sub = "diff";	/* delta-abs: the pane's order, by the size of the change */
		c.sort = sc->hot_sort.n && !(sc->hot_sort.keep & HIST_KEEP(HIST_KEY_DSO)) ? "sym" : NULL;
		c.no_children = false;
		c.no_event = true;
		c.start = NULL;
		c.file = a->names[0];
		c.file2 = a->names[1];
		sc = &diffsc;
	}
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	wrap_command(cmd, wrapped, sizeof wrapped, COLS - 6);
	a->row_title = "the scope as a command line (any key closes it)";
	snprintf(a->row_text, sizeof a->row_text, "The same numbers from the command line:\n%s",
	    wrapped);
	if (!a->diff)
		export_line(a, sc, &cx, &c, p->id == PANE_FLAME);
	if (sc->nxf)
		text_append(a->row_text, sizeof a->row_text,
		    "\n(the call-path transforms are the browser's own: not in the command)");
	if (a->diff && a->sym->diff_abs)
		text_append(a->row_text, sizeof a->row_text, "\n(A's periods and their order are the "
		    "browser's own: the command prints the percents, -p adds the baseline's periods)");
	if (strcmp(c.sub, "tree") == 0 && symbols_event_offcpu(a->sym, sc->ev))
		text_append(a->row_text, sizeof a->row_text,
		    "\n(tree counts samples; the On-CPU and Off-CPU columns are the browser's own)");
	if (own_view(p->id))
		text_append(a->row_text, sizeof a->row_text, "\n(this view's rows have no command of "
		    "their own: the line is the scope's hot functions)");
	app_msg(a, EL_MESSAGE, "%s", cmd);
}
