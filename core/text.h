/*
 * text.h: names from a recording, made safe to show.
 *
 * A comm, a path, a symbol or a header string comes from the recording (or
 * from files it names) and may hold anything: terminal escape sequences,
 * line breaks, bytes that are not UTF-8.  Every place that prints or draws
 * one escapes it with these functions, so that it shows visibly and can
 * neither drive the terminal nor break a line or a column.
 *
 * Each byte that must not reach the terminal as is becomes "\xHH" (two
 * lowercase hex digits): C0 controls (tab and newline too, unless the flags
 * keep them), DEL, each byte of a C1 control (U+0080..U+009F, "\xc2\x9b"),
 * and each byte of invalid UTF-8 (stray continuation bytes, overlong forms,
 * surrogates, code points above U+10FFFF, a sequence cut short).  Printable
 * ASCII and valid UTF-8 from U+00A0 up pass unchanged, so clean names print
 * byte for byte as perf prints them.
 *
 * Nothing here prints or allocates, except text_esc(), which grows the
 * caller's struct text_buf (owned and freed by the caller).
 */
#ifndef PERFNAV_CORE_TEXT_H
#define PERFNAV_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum text_flags {
	TEXT_KEEP_TAB = 1 << 0,	/* '\t' passes (whole lines of a tab-separated output) */
	TEXT_KEEP_NL = 1 << 1,	/* '\n' passes (whole output streams) */
	TEXT_QUOTE = 1 << 2,	/* '"' and '\\' become \" and \\ (dump's quoted strings) */
};

/* Longest escape of one byte: "\xHH". */
#define TEXT_ESC_LEN	4

/* Write the escape of byte c, "\xHH" (lowercase hex, no NUL), to e. */
void text_esc_byte(char e[TEXT_ESC_LEN], unsigned char c);

/*
 * Bytes of the unit at s[0..n) that may be shown as is: 1 for printable
 * ASCII (and tab, newline as flags keep them), 2 to 4 for a valid UTF-8
 * sequence of a code point from U+00A0 up.  0 when s[0] must be escaped
 * (then only s[0] is, and the next unit starts at s[1]).  TEXT_QUOTE is not
 * looked at here.
 */
size_t text_unit(const char *s, size_t n, unsigned flags);

/*
 * Bytes a UTF-8 sequence led by byte c takes (2 to 4), or 0 if c leads
 * none.  For a writer that gets its text in pieces: a unit cut at a
 * piece's end waits for the next piece.
 */
size_t text_seq_len(unsigned char c);

/* Length of the longest prefix of s[0..n) that needs no escape. */
size_t text_clean_prefix(const char *s, size_t n, unsigned flags);

/* Whether the NUL-terminated s holds anything to escape (one scan, no copy). */
bool text_needs_escape(const char *s, unsigned flags);

/*
 * Escape s[0..n) into dst (size bytes, NUL-terminated when size > 0), never
 * cutting an escape or a UTF-8 sequence.  Returns the length of the whole
 * escaped text (as snprintf: a result >= size means dst holds a cut copy).
 * dst may be NULL when size is 0.
 */
size_t text_escape(char *dst, size_t size, const char *s, size_t n, unsigned flags);

/* A growable buffer for text_esc(); zero-initialize, free with text_buf_free(). */
struct text_buf {
	char	*p;
	size_t	 cap;
};

/*
 * The NUL-terminated s ready to show: s itself when it needs no escape (the
 * common case costs one scan), else its escaped copy in b, valid until b is
 * used again or freed.  NULL s reads as "".  Never fails (out of memory is
 * fatal, as everywhere).
 */
const char *text_esc(struct text_buf *b, const char *s, unsigned flags);
void text_buf_free(struct text_buf *b);

/* Format a file offset as perf does ("%#llx": 0 prints as "0") into buf (n
 * bytes, cut short if too small); returns buf. */
const char *text_fmt_offset(char *buf, size_t n, uint64_t off);
/*
 * Numbers and names as perfnav prints them, the same in the text
 * subcommands and the panes.  Each writes into buf (n bytes, cut as
 * snprintf cuts) and returns buf; none fails.
 */

/* A time in nanoseconds as perf prints a sample's: seconds and
 * microseconds, "12.345678" (the nanoseconds below a microsecond dropped). */
const char *text_time_us(char *buf, size_t n, uint64_t ns);

/* A length of time in nanoseconds, to read: "812.0 us", "3.25 ms", "1.675 s", "12.5 min". */
const char *text_duration(char *buf, size_t n, uint64_t ns);

/* A record type's name as perf prints it without "PERF_RECORD_": "MMAP2",
 * or "UNKNOWN42" for a type perf does not know. */
const char *text_record_type(char *buf, size_t n, uint32_t type);

#endif
