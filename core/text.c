#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/record.h"
#include "core/text.h"

#define ONES	UINT64_C(0x0101010101010101)
#define HIGHS	UINT64_C(0x8080808080808080)

/* Is every byte of w printable ASCII (0x20..0x7e)?  Exact: a byte below
 * 0x20 sets its high bit in (w - 0x20..) & ~w, one from 0x7f up in
 * (w + 0x01..) | w; carries only ever add to a word already refused. */
static inline bool
word_printable(uint64_t w)
{
	return (((w - 0x20 * ONES) & ~w) | ((w + ONES) | w)) & HIGHS ? false : true;
}

static inline bool
is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t
text_seq_len(unsigned char c)
{
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

size_t
text_unit(const char *s, size_t n, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char c;
	size_t k;

	if (n == 0)
		return 0;
	c = p[0];
	if (c < 0x80) {
		if (c >= 0x20 && c != 0x7f)
			return 1;
		if ((c == '\t' && (flags & TEXT_KEEP_TAB)) || (c == '\n' && (flags & TEXT_KEEP_NL)))
			return 1;
		return 0;
	}
	k = text_seq_len(c);
	if (k == 0 || n < k)
		return 0;
	for (size_t i = 1; i < k; i++)
		if (!is_cont(p[i]))
			return 0;
	switch (c) {
	case 0xc2:	/* U+0080..U+009F: C1 controls */
		return p[1] >= 0xa0 ? 2 : 0;
	case 0xe0:	/* overlong */
		return p[1] >= 0xa0 ? 3 : 0;
	case 0xed:	/* U+D800..U+DFFF: surrogates */
		return p[1] < 0xa0 ? 3 : 0;
	case 0xf0:	/* overlong */
		return p[1] >= 0x90 ? 4 : 0;
	case 0xf4:	/* above U+10FFFF */
		return p[1] < 0x90 ? 4 : 0;
	default:
		return k;
	}
}

static inline bool
quoted(unsigned char c, unsigned flags)
{
	return (flags & TEXT_QUOTE) && (c == '"' || c == '\\');
}

size_t
text_clean_prefix(const char *s, size_t n, unsigned flags)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c;
		size_t u;

		/* runs of printable ASCII, a word at a time */
		if (!(flags & TEXT_QUOTE)) {
			while (n - i >= 8) {
				uint64_t w;

				memcpy(&w, s + i, 8);
				if (!word_printable(w))
					break;
				i += 8;
			}
			if (i >= n)
				break;
		}
		if (quoted((unsigned char)s[i], flags))
			return i;
		/* ASCII inline: a tab or newline ends every word scan of output */
		c = (unsigned char)s[i];
		if (c < 0x80) {
			if ((c >= 0x20 && c != 0x7f) || (c == '\t' && (flags & TEXT_KEEP_TAB)) ||
			    (c == '\n' && (flags & TEXT_KEEP_NL))) {
				i++;
				continue;
			}
			return i;
		}
		u = text_unit(s + i, n - i, flags);
		if (u == 0)
			return i;
		i += u;
	}
	return n;
}

bool
text_needs_escape(const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (s == NULL)
		return false;
	/* Names are short: one pass over printable ASCII to the NUL, no strlen. */
	if (!(flags & TEXT_QUOTE)) {
		while (*p >= 0x20 && *p < 0x7f)
			p++;
		if (*p == '\0')
			return false;
	}
	n = strlen((const char *)p);
	return text_clean_prefix((const char *)p, n, flags) != n;
}

void
text_esc_byte(char e[TEXT_ESC_LEN], unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	e[0] = '\\';
	e[1] = 'x';
	e[2] = hex[c >> 4];
	e[3] = hex[c & 15];
}

size_t
text_escape(char *dst, size_t size, const char *s, size_t n, unsigned flags)
{
	size_t i = 0, o = 0;
	bool full = size == 0;

	while (i < n) {
		size_t u = text_clean_prefix(s + i, n - i, flags);
		char e[TEXT_ESC_LEN];
		size_t el;

		if (u > 0) {
			/* copy whole units only */
			if (!full && o + u >= size) {
				size_t k = 0, room = size - 1 - o;

				while (k < u) {
					size_t l = text_unit(s + i + k, u - k, flags);

					if (l == 0 || k + l > room)
						break;
					k += l;
				}
				memcpy(dst + o, s + i, k);
				dst[o + k] = '\0';
				full = true;
			} else if (!full) {
				memcpy(dst + o, s + i, u);
			}
			o += u;
			i += u;
			continue;
		}
		unsigned char c = (unsigned char)s[i++];

		if (quoted(c, flags)) {
			e[0] = '\\';
			e[1] = (char)c;
			el = 2;
		} else {
			text_esc_byte(e, c);
			el = TEXT_ESC_LEN;
		}
		if (!full && o + el >= size) {
			dst[o] = '\0';
			full = true;
		} else if (!full) {
			memcpy(dst + o, e, el);
		}
		o += el;
	}
	if (!full)
		dst[o] = '\0';
	return o;
}

const char *
text_esc(struct text_buf *b, const char *s, unsigned flags)
{
	size_t n, need;

	if (s == NULL)
		return "";
	n = strlen(s);
	if (text_clean_prefix(s, n, flags) == n)
		return s;
	need = text_escape(NULL, 0, s, n, flags) + 1;
	if (need > b->cap) {
		b->p = xrealloc(b->p, need);
		b->cap = need;
	}
	text_escape(b->p, b->cap, s, n, flags);
	return b->p;
}

void
text_buf_free(struct text_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->cap = 0;
}

const char *
text_fmt_offset(char *buf, size_t n, uint64_t off)
{
	snprintf(buf, n, "%#llx", (unsigned long long)off);
	return buf;
}

const char *
text_time_us(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns % 1000000000u / 1000u);
	return buf;
}

const char *
text_duration(char *buf, size_t n, uint64_t ns)
{
	double v = (double)ns;

	if (ns < 1000000u)
		snprintf(buf, n, "%.1f us", v / 1e3);
	else if (ns < 1000000000u)
		snprintf(buf, n, "%.2f ms", v / 1e6);
	else if (ns < UINT64_C(600000000000))
		snprintf(buf, n, "%.3f s", v / 1e9);
	else
		snprintf(buf, n, "%.1f min", v / 6e10);
	return buf;
}

const char *
text_record_type(char *buf, size_t n, uint32_t type)
{
	const char *name = record_type_name(type);

	if (name != NULL)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "UNKNOWN%" PRIu32, type);
	return buf;
}
