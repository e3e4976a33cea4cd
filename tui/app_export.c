#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curses.h>

#include "core/core.h"
#include "core/text.h"
#include "symbolize/hist.h"
#include "tui/app_priv.h"
#include "tui/cmd/cmd.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/view_export.h"

/*
 * app_export.c: the export action.  It asks for a file name (a default by
 * the view), and a child process (fork: a snapshot of the view as it is
 * at Enter) writes the file while the input loop goes on; the status line
 * says where it wrote, or why not.  The file is written beside its name
 * and renamed into place only when whole.
 */

/* The default file name for the view: perfnav-PANE.txt, the flame graph's .svg. */
static void
default_name(struct app *a, char *buf, size_t n)
{
	struct pane *p = app_view_pane(a);
	const char *ext = p->id == PANE_FLAME ? ".svg" : p->is_list ? ".txt" : ".pb.gz";
	struct stat st;

	snprintf(buf, n, "perfnav-%s%s", p->ops->name, ext);
	for (int i = 2; i < 100 && stat(buf, &st) == 0; i++)
		snprintf(buf, n, "perfnav-%s-%d%s", p->ops->name, i, ext);
}

void
app_export_start(struct app *a)
{
	if (a->export_pid > 0) {
		app_msg(a, EL_MESSAGE, "an export is being written: %s", a->export_path);
		return;
	}
	if (a->sym != NULL && (!a->sym->done || symbols_tables_busy(a->sym))) {
		app_msg(a, EL_MESSAGE, "export: once symbols and tables are in (%.0f%% now)",
		    100 * symbols_progress(a->sym));
		return;
	}
	a->in = IN_EXPORT;
	default_name(a, a->in_buf, sizeof a->in_buf);
	app_msg(a, EL_MESSAGE, "the ending says what: %s; Enter writes, Esc does not",
	    view_export_endings);
}

/* Diff mode: does pane id show the two recordings' diff (else the shown one's rows)? */
static bool
diff_pane(enum pane_id id)
{
	return id == PANE_HOT || id == PANE_TOPDOWN || id == PANE_BOTTOMUP || id == PANE_FLAME;
}

/* The child: write path's kind of the view, say how on fd, exit 0 or 1. */
static void __attribute__((noreturn))
child(struct app *a, enum view_export_kind kind, const char *path, int fd)
{
	struct pane *p = app_view_pane(a);
	char tmp[NAV_FILTER_MAX + 32], title[600], z[400];
	FILE *fp, *msg = fdopen(fd, "w");
	long rows = 0;
	int rc;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	snprintf(tmp, sizeof tmp, "%s.%ld.part", path, (long)getpid());
	if (msg == NULL)
		_exit(1);
	if ((fp = fopen(tmp, "w")) == NULL) {
		fprintf(msg, "%s: %s", path, strerror(errno));
		fclose(msg);
		_exit(1);
	}
	if (kind == VX_TEXT) {
		z[0] = '\0';
		if (a->sym != NULL && a->sym->done)
			scope_text(&a->sym->scope, a->sym->h, a->start_scope, z, sizeof z);
		if (a->diff && a->sym != NULL && a->sym->pair != NULL && diff_pane(p->id))
			snprintf(title, sizeof title, "perfnav %s of %s vs %s%s%s", p->ops->title, a->names[0],
			    a->names[1], z[0] ? ", scope: " : "", z);	/* the rows are the diff's */
		else
			snprintf(title, sizeof title, "perfnav %s of %s%s%s", p->ops->title, a->names[a->shown] ?
			    a->names[a->shown] : a->co->input, z[0] ? ", scope: " : "", z);
		rc = (rows = view_export_text(p, title, fp)) < 0 ? -1 : 0;
	} else if (kind == VX_SVG && p->ops->write_svg != NULL)
		rc = p->ops->write_svg(p, fp);
	else
		rc = view_export_scope(a->s, a->sym, a->names[a->shown] ? a->names[a->shown] :
		    a->co->input, kind, fp);
	if (fclose(fp) != 0 || rc < 0 || rename(tmp, path) != 0) {
		fprintf(msg, "%s: %s", path, errno ? strerror(errno) : "not written");
		unlink(tmp);
		fclose(msg);
		_exit(1);
	}
	if (kind == VX_TEXT)
		fprintf(msg, "wrote %s: %ld row%s", path, rows, plural((unsigned long long)rows));
	else
		fprintf(msg, "wrote %s", path);
	if (kind != VX_TEXT && a->sym != NULL && a->sym->scope.nxf && !(kind == VX_SVG && p->ops->write_svg))
		fprintf(msg, " (the call-path transforms are the browser's own: not in it)");
	fclose(msg);
	_exit(0);
}

/* Enter on the file name: start the child, or say why not (the line stays open). */
bool
app_export_enter(struct app *a)
{
	enum view_export_kind kind = view_export_kind_of(a->in_buf);
	struct pane *p = app_view_pane(a);
	int fds[2];
	pid_t pid;

	if (kind == VX_NONE) {
		app_msg(a, EL_ERROR, "export: end the name with %s", view_export_endings);
		return false;
	}
	if (kind == VX_TEXT && !p->is_list) {
		app_msg(a, EL_ERROR, "export: this view has no rows to write: .svg, .pb.gz, .json, .folded or "
		    ".data write its scope");
		return false;
	}
	if (kind != VX_TEXT && (a->sym == NULL || hist_nevents(a->sym->h) == 0)) {
		app_msg(a, EL_ERROR, "export: the recording has no samples to write in that form");
		return false;
	}
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		app_msg(a, EL_ERROR, "export: %s", strerror(errno));
		return true;
	}
	if (pid == 0) {
		close(fds[0]);
		child(a, kind, a->in_buf, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	a->export_pid = pid;
	a->export_fd = fds[0];
	snprintf(a->export_path, sizeof a->export_path, "%s", a->in_buf);
	app_msg(a, EL_MESSAGE, "writing %s", a->export_path);
	return true;
}

bool
app_export_poll(struct app *a)
{
	char buf[400];
	ssize_t k;
	int st;

	if (a->export_pid <= 0 || waitpid(a->export_pid, &st, WNOHANG) != a->export_pid)
		return false;
	k = read(a->export_fd, buf, sizeof buf - 1);
	buf[k > 0 ? k : 0] = '\0';
	close(a->export_fd);
	a->export_pid = 0;
	a->export_fd = -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		app_msg(a, EL_MESSAGE, "%s", TEXT_CLIP(buf, 250));
	else
		app_msg(a, EL_ERROR, "export: %s", buf[0] ? TEXT_CLIP(buf, 240) : "the writer stopped");
	return true;
}

void
app_export_finish(struct app *a)
{
	if (a->export_pid <= 0)
		return;
	fprintf(stderr, "perfnav: finishing %s\n", a->export_path);
	waitpid(a->export_pid, NULL, 0);
	close(a->export_fd);
	a->export_pid = 0;
}
