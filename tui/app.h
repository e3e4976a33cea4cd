/*
 * app.h: the curses application, what `perfnav [FILE]` runs.
 *
 * tui_main() parses the command line (the common options) and calls
 * tui_run(), which opens the recording, sets up the terminal (on /dev/tty
 * when the recording comes from standard input), runs the input loop over
 * the panes and restores the terminal on every way out: quitting, a
 * signal, or the fatal path of core/err.h.  While curses is active,
 * standard error goes to a temporary file that is shown after endwin().
 * Its files are tui/app*.c, one concern each (tui/app_priv.h lists them).
 */
#ifndef PERFNAV_TUI_APP_H
#define PERFNAV_TUI_APP_H

#include <stdbool.h>

#include "tui/theme.h"

#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/scope.h"

/* What perfnav [OPTIONS] [FILE] was asked for, beyond the common options. */
struct tui_opts {
	struct common_opts	 co;
	int			 children;	/* --children 1, --no-children 0, -1: as the recording */
	struct scope_sort	 hot_sort;	/* --sort (n 0: comm,dso,sym) */
	int			 hot_callers;	/* -g ORDER: callee 1, caller 0, -1: the pane's */
	struct filter_opts	 fo;		/* --time, --pid, --comms... (as perf report) */
	char			 scope_text[160];	/* those options as the title shows them */
	/*
	 * The scope options as given, taken into fo (and in diff mode fo2,
	 * NEW's) once the files are known: --time A,B:C,D gives each file its
	 * part (filter_opts_part), kept in time_part.
	 */
	struct {
		int		 val;
		const char	*arg;
	}			 scope[64];
	size_t			 nscope;
	struct filter_opts	 fo2;
	char			 time_part[2][512];
	const char		*input2;	/* perfnav OLD NEW: NEW (diff mode), else NULL */
	struct common_opts	 co2;		/* diff mode: NEW's options (its own bundle's) */
};

/* perfnav [OPTIONS] [FILE]: returns the exit status. */
int tui_main(int argc, char **argv);

/* The browser's usage text and options (besides the common ones): its
 * --help, the man page and the completion are made of them. */
struct cmd_opt;
extern const char tui_usage[];
extern const struct cmd_opt tui_options[];
/* Browse o->co.input (with o->input2, a diff of the two); returns the exit status. */
int tui_run(struct tui_opts *o);

/*
 * Apply a theme to the current curses screen: one colour pair per element,
 * colours reduced to what the terminal has; mono (NO_COLOR, or a terminal
 * without colours) uses the mono theme's attributes.
 */
void app_theme_apply(const struct theme *t, struct theme_attrs *ta, bool mono);

#endif
