#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"

static void note_set(struct safefile_note *note, enum safefile_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
note_set(struct safefile_note *note, enum safefile_status status, const char *fmt, ...)
{
	va_list ap;

	if (note == NULL)
		return;
	note->status = status;
	va_start(ap, fmt);
	vsnprintf(note->why, sizeof note->why, fmt, ap);
	va_end(ap);
}

const char *
safefile_size_text(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	uint64_t div = 1024;
	int u = 0;

	if (n < 1024) {
		snprintf(buf, len, "%llu byte%s", (unsigned long long)n, n == 1 ? "" : "s");
		return buf;
	}
	while (u < 5 && n / div >= 1024) {
		div *= 1024;
		u++;
	}
	if (n % div == 0)
		snprintf(buf, len, "%llu %s", (unsigned long long)(n / div), unit[u]);
	else
		snprintf(buf, len, "%.1f %s", (double)n / (double)div, unit[u]);
	return buf;
}

/* What a non-regular file is, as a reason. */
static const char *
type_text(mode_t m)
{
	if (S_ISFIFO(m))
		return "is a FIFO, not a regular file";
	if (S_ISCHR(m))
		return "is a character device, not a regular file";
	if (S_ISBLK(m))
		return "is a block device, not a regular file";
	if (S_ISDIR(m))
		return "is a directory, not a regular file";
	if (S_ISSOCK(m))
		return "is a socket, not a regular file";
	return "is not a regular file";
}

/* Type and size of a stat against rule: 0, or -1 with note REFUSED. */
static int
check_stat(const struct stat *st, const struct safefile_rule *rule, struct safefile_note *note)
{
	char a[32], b[32];

	if (!S_ISREG(st->st_mode)) {
		note_set(note, SAFEFILE_REFUSED, "%s", type_text(st->st_mode));
		return -1;
	}
	if (rule->cap != 0 && st->st_size > 0 && (uint64_t)st->st_size > rule->cap) {
		note_set(note, SAFEFILE_REFUSED, "%s is larger than the %s cap for %s",
		    safefile_size_text((uint64_t)st->st_size, a, sizeof a),
		    safefile_size_text(rule->cap, b, sizeof b), rule->what ? rule->what : "it");
		return -1;
	}
	return 0;
}

static bool
owned_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * SAFEFILE_OWNER: when path's directory is world-writable, the entry
 * there (lstat: a symlink planted by another user counts as theirs) and
 * the file it names (st) must be the effective user's or root's, the rule
 * perf applies to /tmp/perf-*.map.  0, or -1 with note REFUSED.
 */
static int
check_owner(const char *path, const struct stat *st, struct safefile_note *note)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat ds, ls;
	size_t n;

	if (slash == NULL) {
		snprintf(dir, sizeof dir, ".");
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= sizeof dir)
			n = sizeof dir - 1;
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	if (stat(dir, &ds) != 0 || !(ds.st_mode & S_IWOTH))
		return 0;
	if (lstat(path, &ls) != 0 || !owned_ok(ls.st_uid) || !owned_ok(st->st_uid)) {
		note_set(note, SAFEFILE_REFUSED, "not owned by you or root in world-writable %s",
		    dir);
		return -1;
	}
	return 0;
}

int
safefile_check(const char *path, const struct safefile_rule *rule, struct stat *st,
    struct safefile_note *note)
{
	struct stat sb;

	if (st == NULL)
		st = &sb;
	if (note != NULL) {
		note->status = SAFEFILE_OK;
		note->why[0] = '\0';
	}
	if (stat(path, st) != 0) {
		note_set(note, SAFEFILE_MISSING, "%s", strerror(errno));
		return -1;
	}
	if (check_stat(st, rule, note) < 0)
		return -1;
	if ((rule->flags & SAFEFILE_OWNER) && check_owner(path, st, note) < 0)
		return -1;
	return 0;
}

int
safefile_open(const char *path, const struct safefile_rule *rule, struct stat *st,
    struct safefile_note *note)
{
	struct stat before, after;
	int fd, fl;

	if (safefile_check(path, rule, &before, note) < 0)
		return -1;
	/*
	 * Between the stat and the open the file may have been swapped for a
	 * FIFO or a device: the open must not block, nor take a terminal.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		note_set(note, SAFEFILE_MISSING, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &after) != 0) {
		note_set(note, SAFEFILE_MISSING, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	if (check_stat(&after, rule, note) < 0) {
		close(fd);
		return -1;
	}
	if (after.st_dev != before.st_dev || after.st_ino != before.st_ino) {
		note_set(note, SAFEFILE_REFUSED, "was replaced while being opened");
		close(fd);
		return -1;
	}
	if ((rule->flags & SAFEFILE_OWNER) && check_owner(path, &after, note) < 0) {
		close(fd);
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (st != NULL)
		*st = after;
	return fd;
}

/* ---- bounded lines ---- */

void
safefile_lines_init(struct safefile_lines *lr, int fd, size_t max_line, uint64_t max_total)
{
	memset(lr, 0, sizeof *lr);
	lr->fd = fd;
	if (max_line < 16)
		max_line = 16;
	lr->cap = max_line + 2;	/* the line, its '\n', a NUL */
	lr->buf = xmalloc(lr->cap);
	lr->max_total = max_total;
}

void
safefile_lines_free(struct safefile_lines *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

/* Read more into buf[end, cap - 1); sets eof, cut or error when none comes. */
static void
fill(struct safefile_lines *lr)
{
	size_t room = lr->cap - 1 - lr->end;
	ssize_t r;

	if (lr->total >= lr->max_total) {
		char c;

		/* At the budget: one more byte says whether the file goes on. */
		do
			r = read(lr->fd, &c, 1);
		while (r < 0 && errno == EINTR);
		lr->cut = r > 0;
		lr->error = r < 0;
		lr->eof = true;
		return;
	}
	if (room > lr->max_total - lr->total)
		room = (size_t)(lr->max_total - lr->total);
	do
		r = read(lr->fd, lr->buf + lr->end, room);
	while (r < 0 && errno == EINTR);
	if (r <= 0) {
		lr->error = r < 0;
		lr->eof = true;
		return;
	}
	lr->end += (size_t)r;
	lr->total += (uint64_t)r;
}

int
safefile_lines_next(struct safefile_lines *lr, const char **line, size_t *len)
{
	for (;;) {
		char *s = lr->buf + lr->start;
		char *nl = memchr(s, '\n', lr->end - lr->start);

		if (nl != NULL) {
			size_t n = (size_t)(nl - s);

			*nl = '\0';
			lr->start += n + 1;
			if (lr->skipping) {
				lr->skipping = false;
				continue;
			}
			*line = s;
			*len = n;
			return 1;
		}
		if (lr->end - lr->start >= lr->cap - 1) {
			/* A line longer than max_line: drop what there is of it. */
			if (!lr->skipping)
				lr->long_lines++;
			lr->skipping = true;
			lr->start = lr->end = 0;
		}
		if (lr->eof) {
			/* A last line without '\n' (not one cut by the budget). */
			if (lr->start < lr->end && !lr->skipping && !lr->cut && !lr->error) {
				*len = lr->end - lr->start;
				lr->buf[lr->end] = '\0';
				*line = lr->buf + lr->start;
				lr->start = lr->end;
				return 1;
			}
			return 0;
		}
		if (lr->start > 0) {
			memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
			lr->end -= lr->start;
			lr->start = 0;
		}
		fill(lr);
	}
}

bool
safefile_lines_note(const struct safefile_lines *lr, const struct safefile_rule *rule,
    struct safefile_note *note)
{
	char a[32];

	if (lr->cut) {
		note_set(note, SAFEFILE_CUT, "read only the first %s, the cap for %s",
		    safefile_size_text(lr->max_total, a, sizeof a),
		    rule && rule->what ? rule->what : "it");
		return true;
	}
	if (lr->error) {
		note_set(note, SAFEFILE_CUT, "a read failed after %s",
		    safefile_size_text(lr->total, a, sizeof a));
		return true;
	}
	return false;
}
