/*
 * fmt.h: a growable text buffer and the number and padding writers the text
 * subcommands use instead of printf per field (what each writes is what the
 * printf format named beside it writes; tests/test_fmt.c checks them against
 * snprintf).  Strings go in as given: escape names from a recording first.
 */
#ifndef PERFNAV_TUI_CMD_FMT_H
#define PERFNAV_TUI_CMD_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fmt {
	char	*p;
	size_t	 len, cap;
	bool	 failed;	/* an allocation failed: the text is dropped, nothing more goes in */
};

void fmt_free(struct fmt *b);
char *fmt_grow(struct fmt *b, size_t n);

/* Room for n more bytes at b->p + b->len, or NULL (b->failed set). */
static inline char *
fmt_room(struct fmt *b, size_t n)
{
	return n < b->cap - b->len ? b->p + b->len : fmt_grow(b, n);
}
/* Writes b to fp and empties it; -1 on a write error. */
int fmt_flush(struct fmt *b, FILE *fp);

void fmt_mem(struct fmt *b, const char *s, size_t n);
void fmt_str(struct fmt *b, const char *s);

static inline void
fmt_char(struct fmt *b, char c)
{
	char *d = fmt_room(b, 1);

	if (d != NULL) {
		*d = c;
		b->len++;
	}
}

/* "%*s" (right-aligned to width bytes) and "%-*s". */
void fmt_str_right(struct fmt *b, const char *s, unsigned width);
void fmt_str_left(struct fmt *b, const char *s, unsigned width);
/* "%*" PRIu64, "%0*" PRIu64, "%-*" PRIu64 */
void fmt_u64(struct fmt *b, uint64_t v, unsigned width);
void fmt_u64_zero(struct fmt *b, uint64_t v, unsigned width);
void fmt_u64_left(struct fmt *b, uint64_t v, unsigned width);
/* "%*d" and "%-*d" */
void fmt_int(struct fmt *b, int v, unsigned width);
void fmt_int_left(struct fmt *b, int v, unsigned width);
/* "%*" PRIx64 */
void fmt_hex(struct fmt *b, uint64_t v, unsigned width);
/* "%" PRIu64 ".%06" PRIu64 of ns / 1e9 and ns % 1e9 / 1000 (text_time_us),
 * right-aligned to width. */
void fmt_time_us(struct fmt *b, uint64_t ns, unsigned width);
/* printf into the buffer, for the rare lines. */
void fmt_printf(struct fmt *b, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif
