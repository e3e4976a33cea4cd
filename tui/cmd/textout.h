/*
 * textout.h: what the text subcommands write, made safe for a terminal.
 *
 * Names from a recording are escaped where they are printed, with
 * textout_esc() (core/text.h says how they look).  As a backstop, so that
 * nothing from a recording reaches the terminal raw even from a place that
 * forgot to escape, textout_filter() puts a filter in front of standard
 * output and standard error: any control byte but tab and newline, any C1
 * control and any byte of invalid UTF-8 that gets there is written as
 * "\xHH".  Clean text goes through in one write, uncopied.  The few
 * deliberate terminal controls (the load progress bar) go to
 * textout_tty_err() instead.  The curses screen never goes through it.
 */
#ifndef PERFNAV_TUI_CMD_TEXTOUT_H
#define PERFNAV_TUI_CMD_TEXTOUT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * s escaped for printing (every control byte, tab and newline too): s
 * itself when clean, else a copy in one of the calling thread's 8 scratch
 * buffers, reused in turn, so up to 8 results of one thread can be used
 * together (in one printf); other threads' calls never touch them.  NULL
 * reads as "".
 */
const char *textout_esc(const char *s);

struct fmt;

/* Appends textout_esc(s) to b (tui/cmd/fmt.h), copying clean text in the
 * same pass that checks it.  Safe on any thread (no scratch slot). */
void textout_fmt(struct fmt *b, const char *s);
/* textout_fmt, right-aligned to width bytes ("%*s" of textout_esc(s)). */
void textout_fmt_right(struct fmt *b, const char *s, unsigned width);

/*
 * Writes p[0..n) to fp.  The text must be clean already: every name from a
 * recording in it went through textout_esc() or textout_fmt(), and the rest
 * is numbers and fixed ASCII with tabs and newlines, which the filter would
 * pass unchanged.  So on the filtered standard output it goes straight to
 * the file descriptor (after what the stream holds), skipping the filter's
 * scan; any other stream gets it through fwrite.  Returns 0, or -1 when the
 * write failed (the stream's error flag set).  Not for text of unknown
 * origin: that goes through the stream.
 */
int textout_write_clean(FILE *fp, const char *p, size_t n);

/*
 * Replace stderr, and stdout when out is true, by filtering streams (call
 * once, before anything is written; the TUI passes false: curses draws on
 * stdout).  Returns 0, or -1 (the streams are left as they were) if a
 * stream cannot be made.  An exit handler flushes what is pending.
 */
int textout_filter(bool out);

/* The unfiltered standard error, for deliberate terminal controls. */
FILE *textout_tty_err(void);

#endif
