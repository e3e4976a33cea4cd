#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curses.h>

#include "core/core.h"
#include "tui/app.h"
#include "tui/app_priv.h"

/*
 * app_term.c: the terminal's state, restored on every way out: quitting,
 * a signal (INT, TERM, HUP, QUIT) or the fatal path of core/err.h.  While
 * curses is active, standard error goes to a temporary file shown after
 * endwin().  The annotate view's editor runs here too, curses suspended
 * around it.
 */

extern char **environ;

static SCREEN *app_screen;
static FILE *tty_in, *tty_out;
static bool curses_on;
static int saved_stderr = -1;
static FILE *err_tmp;

static void
stderr_restore(void)
{
	if (saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
}

/* What libraries wrote while curses was active. */
static void
stderr_replay(void)
{
	char buf[4096];
	size_t n;

	if (err_tmp == NULL)
		return;
	fflush(err_tmp);
	rewind(err_tmp);
	while ((n = fread(buf, 1, sizeof buf, err_tmp)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(err_tmp);
	err_tmp = NULL;
}

static void
terminal_restore(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
	stderr_restore();
}

static void
fatal_hook(void)
{
	terminal_restore();
}

static void
on_signal(int sig)
{
	terminal_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
stderr_capture(void)
{
	int fd;

	fflush(stderr);
	err_tmp = tmpfile();
	if (err_tmp == NULL)
		return;
	saved_stderr = dup(2);
	if (saved_stderr < 0) {
		fclose(err_tmp);
		err_tmp = NULL;
		return;
	}
	fd = fileno(err_tmp);
	dup2(fd, 2);
}

int
app_term_start(struct app *a)
{
	FILE *in = stdin, *out = stdout;

	/* the recording may be on stdin, and stdout may be a pipe: use the tty */
	if (a->term_up || a->term_failed)
		return a->term_up ? 0 : -1;
	a->term_failed = true;	/* until it is up */
	if (strcmp(a->co->input, "-") == 0 || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		tty_in = fopen("/dev/tty", "r");
		tty_out = fopen("/dev/tty", "w");
		if (tty_in == NULL || tty_out == NULL) {
			fprintf(stderr, "perfnav: no terminal (/dev/tty: %s); the text subcommands "
			    "(perfnav header|stats|dump) work without one\n", strerror(errno));
			if (tty_in)
				fclose(tty_in);
			if (tty_out)
				fclose(tty_out);
			tty_in = tty_out = NULL;
			return -1;
		}
		in = tty_in;
		out = tty_out;
	}
	app_screen = newterm(NULL, out, in);
	if (app_screen == NULL) {
		fprintf(stderr, "perfnav: cannot use the terminal (TERM=%s)\n",
		    getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	set_term(app_screen);
	curses_on = true;
	fatal_set_hook(fatal_hook);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGQUIT, on_signal);
	stderr_capture();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(ALL_MOUSE_EVENTS, NULL);
	mouseinterval(0);
	app_theme_apply(&a->theme, &a->ta, a->mono);
	a->term_up = true;
	a->term_failed = false;
	return 0;
}

void
app_term_stop(void)
{
	terminal_restore();
	if (app_screen) {
		delscreen(app_screen);
		app_screen = NULL;
	}
	if (tty_in)
		fclose(tty_in);
	if (tty_out)
		fclose(tty_out);
	tty_in = tty_out = NULL;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	fatal_set_hook(NULL);
	stderr_replay();
}

/* Does an editor command need a shell (arguments, quotes, variables)? */
static bool
needs_shell(const char *cmd)
{
	return strpbrk(cmd, " \t\n'\"\\$`;&|<>()*?[]#~=%{}") != NULL;
}

/* Run argv on the terminal (stdin, stdout, the real stderr) and wait; the
 * exit status, or -1 with errno's reason in *why. */
static int
run_on_terminal(char *const argv[], int *why)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct sigaction ign, old_int, old_quit;
	sigset_t def;
	pid_t pid;
	int rc, status = 0;

	posix_spawn_file_actions_init(&fa);
	if (tty_in != NULL)
		posix_spawn_file_actions_adddup2(&fa, fileno(tty_in), STDIN_FILENO);
	if (tty_out != NULL)
		posix_spawn_file_actions_adddup2(&fa, fileno(tty_out), STDOUT_FILENO);
	if (saved_stderr >= 0)
		posix_spawn_file_actions_adddup2(&fa, saved_stderr, STDERR_FILENO);
	/* the editor has the signals perfnav catches as they were */
	posix_spawnattr_init(&at);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGQUIT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	/* as system(): a C-c in the editor is the editor's, not ours */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	if (rc == 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		*why = rc;
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void
app_term_edit(struct app *a, const char *path, int line)
{
	const char *ed = getenv("EDITOR");
	struct stat st;
	char lbuf[32], *cmd = NULL;
	char *argv[7];
	int rc, why = 0;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		app_msg(a, EL_WARNING, "source file not found: %s", path);
		return;
	}
	if (ed == NULL || ed[0] == '\0')
		ed = "vi";
	snprintf(lbuf, sizeof lbuf, "+%d", line);
	if (needs_shell(ed)) {
		/* "emacs -nw": the shell splits the command, the file goes as "$@" */
		cmd = xmalloc(strlen(ed) + 8);
		snprintf(cmd, strlen(ed) + 8, "%s \"$@\"", ed);
		argv[0] = "/bin/sh";
		argv[1] = "-c";
		argv[2] = cmd;
		argv[3] = "perfnav-editor";
		argv[4] = lbuf;
		argv[5] = (char *)path;
		argv[6] = NULL;
	} else {
		argv[0] = (char *)ed;
		argv[1] = lbuf;
		argv[2] = (char *)path;
		argv[3] = NULL;
	}
	def_prog_mode();
	endwin();
	rc = run_on_terminal(argv, &why);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	free(cmd);
	if (rc < 0)
		app_msg(a, EL_WARNING, "cannot run the editor %s: %s", ed, strerror(why));
	else if (rc != 0)
		app_msg(a, EL_WARNING, "the editor %s exited with %d", ed, rc);
}
