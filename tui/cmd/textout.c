#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/text.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/textout.h"

/* ---- names ---- */

#define ESC_SLOTS	8

/*
 * Each thread's scratch buffers (a thread's results stay its own), freed
 * when it ends; every ring is on a list too, so none is ever unreachable.
 */
struct esc_ring {
	struct text_buf	 slot[ESC_SLOTS];
	unsigned	 next;
	struct esc_ring	*prev_ring, *next_ring;
};

static pthread_key_t esc_key;
static pthread_once_t esc_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t esc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct esc_ring *esc_rings;
static bool esc_key_ok;
static struct esc_ring esc_fallback;	/* no key could be made: one ring, as one thread's */

static void
esc_ring_free(void *arg)
{
	struct esc_ring *r = arg;

	pthread_mutex_lock(&esc_lock);
	if (r->prev_ring != NULL)
		r->prev_ring->next_ring = r->next_ring;
	else
		esc_rings = r->next_ring;
	if (r->next_ring != NULL)
		r->next_ring->prev_ring = r->prev_ring;
	pthread_mutex_unlock(&esc_lock);
	for (size_t i = 0; i < ESC_SLOTS; i++)
		free(r->slot[i].p);
	free(r);
}

static void
esc_key_make(void)
{
	esc_key_ok = pthread_key_create(&esc_key, esc_ring_free) == 0;
}

/* The calling thread's ring, made on its first use. */
static struct esc_ring *
esc_ring(void)
{
	struct esc_ring *r;

	pthread_once(&esc_once, esc_key_make);
	if (!esc_key_ok)
		return &esc_fallback;
	r = pthread_getspecific(esc_key);
	if (r != NULL)
		return r;
	r = xcalloc(1, sizeof *r);
	pthread_mutex_lock(&esc_lock);
	r->next_ring = esc_rings;
	if (esc_rings != NULL)
		esc_rings->prev_ring = r;
	esc_rings = r;
	pthread_mutex_unlock(&esc_lock);
	if (pthread_setspecific(esc_key, r) != 0) {
		esc_ring_free(r);
		return &esc_fallback;
	}
	return r;
}

const char *
textout_esc(const char *s)
{
	struct esc_ring *r;

	if (s == NULL)
		return "";
	if (!text_needs_escape(s, 0))
		return s;
	r = esc_ring();
	return text_esc(&r->slot[r->next++ % ESC_SLOTS], s, 0);
}

void
textout_fmt(struct fmt *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
	size_t mark = b->len, n, need;
	char *d;

	/* printable ASCII up to the NUL copied as it is checked, 64 bytes a round */
	for (;;) {
		size_t k = 0;

		d = fmt_room(b, 64);
		if (d == NULL)
			return;
		while (k < 64 && p[k] >= 0x20 && p[k] < 0x7f) {
			d[k] = (char)p[k];
			k++;
		}
		b->len += k;
		p += k;
		if (k < 64)
			break;
	}
	if (*p == '\0')
		return;
	/* anything else: the text as textout_esc gives it, escaped in place
	 * (no scratch slot: safe on any thread) */
	b->len = mark;
	n = strlen(s);
	need = text_escape(NULL, 0, s, n, 0);
	d = fmt_room(b, need + 1);
	if (d == NULL)
		return;
	text_escape(d, need + 1, s, n, 0);
	b->len += need;
}

void
textout_fmt_right(struct fmt *b, const char *s, unsigned width)
{
	size_t mark = b->len, n;
	char *d;

	textout_fmt(b, s);
	n = b->len - mark;
	if (b->failed || n >= width)
		return;
	d = fmt_room(b, width - n);
	if (d == NULL)
		return;
	memmove(b->p + mark + (width - n), b->p + mark, n);
	memset(b->p + mark, ' ', width - n);
	b->len += width - n;
}

/* ---- the filter ---- */

#define FILTER_FLAGS	(TEXT_KEEP_TAB | TEXT_KEEP_NL)
#define FILTER_OUT	(1 << 16)	/* escaped output gathered before a write */
#define FILTER_BUF	(1 << 16)	/* the stream's own buffer */

struct filter {
	int	 fd;
	size_t	 npend;			/* a UTF-8 sequence cut at a write's end */
	char	 pend[4];
	size_t	 nout;
	char	 out[FILTER_OUT];
};

static struct filter *f_out, *f_err;
static FILE *raw_err;

/* p[0..n) to fd; returns the bytes written before an error, n when all were. */
static size_t
write_some(int fd, const char *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t k = write(fd, p + done, n - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		done += (size_t)k;
	}
	return done;
}

static int
write_all(int fd, const char *p, size_t n)
{
	return write_some(fd, p, n) == n ? 0 : -1;
}

static int
f_flush(struct filter *f)
{
	int rc = write_all(f->fd, f->out, f->nout);

	f->nout = 0;
	return rc;
}

static int
f_put(struct filter *f, const char *p, size_t n)
{
	if (f->nout + n > sizeof f->out) {
		if (f_flush(f) < 0)
			return -1;
		if (n > sizeof f->out / 2)
			return write_all(f->fd, p, n);
	}
	memcpy(f->out + f->nout, p, n);
	f->nout += n;
	return 0;
}

static int
f_esc(struct filter *f, unsigned char c)
{
	char e[TEXT_ESC_LEN];

	text_esc_byte(e, c);
	return f_put(f, e, sizeof e);
}

/* Is p[0..n) the start of a UTF-8 sequence that more bytes may complete? */
static bool
cut_short(const char *p, size_t n)
{
	size_t need = text_seq_len((unsigned char)p[0]);

	if (need == 0 || n >= need)
		return false;
	for (size_t i = 1; i < n; i++)
		if (((unsigned char)p[i] & 0xc0) != 0x80)
			return false;
	return true;
}

/* p[0..n): clean runs as they are, the rest escaped; a sequence cut at
 * the end waits in f->pend for the next write. */
static int
f_feed(struct filter *f, const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t u = text_clean_prefix(p + i, n - i, FILTER_FLAGS);

		if (u > 0) {
			if (f_put(f, p + i, u) < 0)
				return -1;
			i += u;
			continue;
		}
		if (cut_short(p + i, n - i)) {
			memcpy(f->pend, p + i, n - i);
			f->npend = n - i;
			return 0;
		}
		if (f_esc(f, (unsigned char)p[i++]) < 0)
			return -1;
	}
	return 0;
}

/* Complete the pending sequence with the first bytes of buf; returns the
 * bytes of buf used, or -1 on a write error. */
static ssize_t
f_pending(struct filter *f, const char *buf, size_t size)
{
	char tmp[8];
	size_t t = f->npend, k = 4 - t < size ? 4 - t : size, u;

	memcpy(tmp, f->pend, t);
	memcpy(tmp + t, buf, k);
	if (cut_short(tmp, t + k)) {
		memcpy(f->pend, tmp, t + k);
		f->npend = t + k;
		return (ssize_t)k;
	}
	f->npend = 0;
	u = text_unit(tmp, t + k, FILTER_FLAGS);
	if (u > 0)
		return f_put(f, tmp, u) < 0 ? -1 : (ssize_t)(u - t);
	/* the lead byte and the continuation bytes that followed it */
	for (size_t i = 0; i < t; i++)
		if (f_esc(f, (unsigned char)tmp[i]) < 0)
			return -1;
	return 0;
}

static ssize_t
f_write(void *cookie, const char *buf, size_t size)
{
	struct filter *f = cookie;
	size_t i = 0;

	if (f->npend) {
		ssize_t used = f_pending(f, buf, size);

		if (used < 0)
			return -1;
		i = (size_t)used;
	}
	if (f->nout == 0 && f->npend == 0 &&
	    text_clean_prefix(buf + i, size - i, FILTER_FLAGS) == size - i)
		return write_all(f->fd, buf + i, size - i) < 0 ? -1 : (ssize_t)size;
	if (f_feed(f, buf + i, size - i) < 0 || f_flush(f) < 0)
		return -1;
	return (ssize_t)size;
}

/* A sequence still cut short at the end is invalid: escaped. */
static void
f_finish(struct filter *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->npend; i++)
		f_esc(f, (unsigned char)f->pend[i]);
	f->npend = 0;
	f_flush(f);
}

static int
f_close(void *cookie)
{
	f_finish(cookie);
	return 0;
}

static void
at_exit(void)
{
	if (f_out != NULL) {
		fflush(stdout);
		f_finish(f_out);
	}
	if (f_err != NULL) {
		fflush(stderr);
		f_finish(f_err);
	}
}

static FILE *
f_open(int fd, struct filter **fp, int mode)
{
	static const cookie_io_functions_t io = { .write = f_write, .close = f_close };
	struct filter *f = calloc(1, sizeof *f);
	FILE *s;

	if (f == NULL)
		return NULL;
	f->fd = fd;
	s = fopencookie(f, "w", io);
	if (s == NULL) {
		free(f);
		return NULL;
	}
	if (mode != _IONBF)
		setvbuf(s, NULL, mode, FILTER_BUF);
	else
		setvbuf(s, NULL, _IONBF, 0);
	*fp = f;
	return s;
}

int
textout_filter(bool out)
{
	FILE *so = NULL, *se;

	raw_err = stderr;
	if (out) {
		fflush(stdout);
		so = f_open(STDOUT_FILENO, &f_out, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
		if (so == NULL)
			return -1;
	}
	fflush(stderr);
	se = f_open(STDERR_FILENO, &f_err, _IONBF);
	if (se == NULL) {
		if (so != NULL) {
			fclose(so);
			free(f_out);
			f_out = NULL;
		}
		return -1;
	}
	if (so != NULL)
		stdout = so;
	stderr = se;
	atexit(at_exit);
	return 0;
}

int
textout_write_clean(FILE *fp, const char *p, size_t n)
{
	size_t done;

	if (fp != stdout || f_out == NULL)
		return fwrite(p, 1, n, fp) == n ? 0 : -1;
	if (fflush(stdout) != 0 || f_out->npend != 0 || f_out->nout != 0)
		return fwrite(p, 1, n, fp) == n ? 0 : -1;	/* the filter's way */
	done = write_some(f_out->fd, p, n);
	if (done == n)
		return 0;
	/* the rest through the stream, so that its error flag says what failed */
	if (fwrite(p + done, 1, n - done, fp) != n - done || fflush(fp) != 0)
		return -1;
	return 0;
}

FILE *
textout_tty_err(void)
{
	return raw_err != NULL ? raw_err : stderr;
}
