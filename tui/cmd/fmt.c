#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/fmt.h"

void
fmt_free(struct fmt *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* fmt_room's slow path: grows the buffer (doubling), or on failure drops
 * it and marks b failed, so that no later write goes in out of order. */
char *
fmt_grow(struct fmt *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->failed)
		return NULL;
	while (cap - b->len <= n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	if (cap != b->cap) {
		p = realloc(b->p, cap);
		if (p == NULL)
			goto fail;
		b->p = p;
		b->cap = cap;
	}
	return b->p + b->len;
fail:
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->failed = true;
	return NULL;
}

int
fmt_flush(struct fmt *b, FILE *fp)
{
	int rc = 0;

	if (b->len > 0 && fwrite(b->p, 1, b->len, fp) != b->len)
		rc = -1;
	b->len = 0;
	return rc;
}

void
fmt_mem(struct fmt *b, const char *s, size_t n)
{
	char *d = fmt_room(b, n);

	if (d == NULL)
		return;
	memcpy(d, s, n);
	b->len += n;
}

void
fmt_str(struct fmt *b, const char *s)
{
	fmt_mem(b, s, strlen(s));
}

static void
fmt_pad(struct fmt *b, char c, size_t n)
{
	char *d = fmt_room(b, n);

	if (d == NULL)
		return;
	memset(d, c, n);
	b->len += n;
}

void
fmt_str_right(struct fmt *b, const char *s, unsigned width)
{
	size_t n = strlen(s);

	if (n < width)
		fmt_pad(b, ' ', width - n);
	fmt_mem(b, s, n);
}

void
fmt_str_left(struct fmt *b, const char *s, unsigned width)
{
	size_t n = strlen(s);

	fmt_mem(b, s, n);
	if (n < width)
		fmt_pad(b, ' ', width - n);
}

/* v's decimal digits at the end of d[0..24); returns where they start. */
static char *
dec(char *end, uint64_t v)
{
	char *p = end;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	return p;
}

/* sign (or 0), then digits, padded to width with pad on the left or
 * spaces on the right; zero padding goes between the sign and digits. */
static void
put_num(struct fmt *b, char sign, const char *digits, size_t nd, unsigned width, char pad,
    bool left)
{
	size_t n = nd + (sign != 0), fill = n < width ? width - n : 0;

	if (!left && pad == ' ')
		fmt_pad(b, ' ', fill);
	if (sign)
		fmt_char(b, sign);
	if (!left && pad == '0')
		fmt_pad(b, '0', fill);
	fmt_mem(b, digits, nd);
	if (left)
		fmt_pad(b, ' ', fill);
}

void
fmt_u64(struct fmt *b, uint64_t v, unsigned width)
{
	char d[24], *p = dec(d + sizeof d, v);

	put_num(b, 0, p, (size_t)(d + sizeof d - p), width, ' ', false);
}

void
fmt_u64_zero(struct fmt *b, uint64_t v, unsigned width)
{
	char d[24], *p = dec(d + sizeof d, v);

	put_num(b, 0, p, (size_t)(d + sizeof d - p), width, '0', false);
}

void
fmt_u64_left(struct fmt *b, uint64_t v, unsigned width)
{
	char d[24], *p = dec(d + sizeof d, v);

	put_num(b, 0, p, (size_t)(d + sizeof d - p), width, ' ', true);
}

static void
put_int(struct fmt *b, int v, unsigned width, bool left)
{
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)(int64_t)v : (uint64_t)v;
	char d[24], *p = dec(d + sizeof d, m);

	put_num(b, v < 0 ? '-' : 0, p, (size_t)(d + sizeof d - p), width, ' ', left);
}

void
fmt_int(struct fmt *b, int v, unsigned width)
{
	put_int(b, v, width, false);
}

void
fmt_int_left(struct fmt *b, int v, unsigned width)
{
	put_int(b, v, width, true);
}

void
fmt_hex(struct fmt *b, uint64_t v, unsigned width)
{
	static const char hex[] = "0123456789abcdef";
	char d[24], *end = d + sizeof d, *p = end;

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v != 0);
	put_num(b, 0, p, (size_t)(end - p), width, ' ', false);
}

void
fmt_time_us(struct fmt *b, uint64_t ns, unsigned width)
{
	char d[32], *end = d + sizeof d, *p = end;
	uint64_t us = ns % 1000000000u / 1000u;

	for (int i = 0; i < 6; i++) {
		*--p = (char)('0' + us % 10);
		us /= 10;
	}
	*--p = '.';
	p = dec(p, ns / 1000000000u);
	put_num(b, 0, p, (size_t)(end - p), width, ' ', false);
}

void
fmt_printf(struct fmt *b, const char *format, ...)
{
	va_list ap;
	char *d;
	int n;

	va_start(ap, format);
	n = vsnprintf(NULL, 0, format, ap);
	va_end(ap);
	if (n < 0 || (d = fmt_room(b, (size_t)n + 1)) == NULL)
		return;
	va_start(ap, format);
	vsnprintf(d, (size_t)n + 1, format, ap);
	va_end(ap);
	b->len += (size_t)n;
}
