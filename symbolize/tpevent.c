#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "core/bytes.h"
#include "core/hmap.h"
#include "symbolize/tpevent.h"

/*
 * TRACING_DATA as perf writes it (perf's trace-event-read.c reads it the
 * same way): magic, version string, file big-endian byte, sizeof(long),
 * page size; "header_page" and its text (tep_parse_header_page);
 * "header_event" and its text (unused); the ftrace formats; per system its
 * name and event formats (tep_parse_event); kallsyms; the printk formats
 * (tep_parse_printk_formats); from version 0.6 the saved cmdlines
 * (tep_parse_saved_cmdlines).  Each part is libtraceevent's to parse: here
 * only the framing is walked.
 *
 * A payload is read from a copy in a zeroed buffer large enough for any
 * offset a payload can name (a dynamic field's 16-bit offset and length
 * past a record of at most 64 KiB), so a damaged payload makes
 * libtraceevent read zeros, never past the buffer.
 *
 * libtraceevent's parsers are not hardened: a garbled print fmt (an
 * unknown function in its argument list, say) or printk line makes them
 * dereference NULL or read outside their strings.  So the parse is a
 * sequence of numbered steps (the header page, each event format with a
 * trial print of it, the printk formats, the saved cmdlines) tried first
 * in a child process, which reports each step before taking it: a child
 * that dies or hangs names the step that did it, which is then skipped,
 * and the child tried again (at most TP_MAX_SKIP times).  The handle is
 * then built here by the same steps, minus the skipped ones: the parse is
 * deterministic, so what the child survived this process survives.  The
 * verdict for the last data seen is kept, so a handle per thread forks
 * once.
 */

#define TP_RAW_MAX	65536u
#define TP_PAD		(TP_RAW_MAX + 2 * 65536u + 64u)
#define TP_MAX_SKIP	16
#define TP_TRIAL_MS	5000	/* all children's time for their steps */
#define TP_DONE		UINT32_MAX

/* The steps of a parse: which to skip, where to report them (-1: none). */
struct tp_steps {
	uint32_t	skip[TP_MAX_SKIP];
	size_t		nskip;
	uint32_t	next;
	int		fd;
};

struct tpevent {
	struct tep_handle	*tep;
	size_t			 nformats;
	struct trace_seq	 seq;
	uint8_t			*pad;		/* TP_PAD bytes, zero past dirty */
	size_t			 dirty;
	size_t			 nskipped;	/* steps libtraceevent died on */
	bool			 big;		/* the file's byte order */
	char			 fallback[192];
};

static void trial_print(struct tpevent *t, struct tep_event *ev);

/* Takes the next step unless it is one to skip; reports it first. */
static bool
step_take(struct tp_steps *st)
{
	uint32_t k = st->next++;

	for (size_t i = 0; i < st->nskip; i++)
		if (st->skip[i] == k)
			return false;
	if (st->fd >= 0 && write(st->fd, &k, sizeof k) != (ssize_t)sizeof k)
		_exit(2);
	return true;
}

static bool
host_is_big(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* A NUL-terminated copy of len bytes at p (libtraceevent's text parsers
 * want C strings); NULL on failure. */
static char *
text_copy(const uint8_t *p, size_t len)
{
	char *s = malloc(len + 1);

	if (s == NULL)
		return NULL;
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

/* A "name" tag (with its NUL) and the 8-byte-sized text after it. */
static const uint8_t *
tagged_text(struct cursor *c, const char *tag, uint64_t *len)
{
	const uint8_t *t = cursor_take(c, strlen(tag) + 1);

	if (t == NULL || memcmp(t, tag, strlen(tag) + 1) != 0) {
		c->bad = true;
		return NULL;
	}
	*len = cursor_u64(c);
	return cursor_take(c, *len);
}

static int
parse_formats(struct tpevent *t, struct cursor *c, const char *sys, struct tp_steps *st)
{
	uint32_t n = cursor_u32(c);

	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint64_t len = cursor_u64(c);
		const uint8_t *f = cursor_take(c, len);
		struct tep_event *ev = NULL;

		if (f == NULL || !step_take(st))
			continue;
		if (tep_parse_format(t->tep, &ev, (const char *)f, len, sys) == 0 && ev != NULL) {
			t->nformats++;
			trial_print(t, ev);
		}
	}
	return c->bad ? -1 : 0;
}

/*
 * The printk formats, only the lines libtraceevent 1.7 reads within its
 * copy: "ADDR: FORMAT" with ADDR not empty and FORMAT (after one skipped
 * character and an opening quote) at least 3 bytes.  A line without its
 * colon or with a short format makes tep_parse_printk_formats read past
 * the end of its strdup (it skips one byte after the colon unchecked) and
 * tep_register_print_string before the start of its own (it looks 3 bytes
 * back from the end): found by the script fuzz harness.  Edits s in place.
 */
static void
printk_keep_readable(char *s)
{
	char *out = s;

	for (char *line = s; *line != '\0';) {
		char *eol = strchr(line, '\n');
		size_t n = eol != NULL ? (size_t)(eol - line) : strlen(line);
		const char *colon = memchr(line, ':', n);
		bool keep = false;

		if (colon != NULL && colon > line && (size_t)(colon - line) + 2 <= n) {
			const char *f = colon + 2;

			if (*f == '"')
				f++;
			keep = (size_t)(line + n - f) >= 3;
		}
		if (keep) {
			if (out != s)
				*out++ = '\n';
			memmove(out, line, n);
			out += n;
		}
		line += n + (eol != NULL);
	}
	*out = '\0';
}

static int
parse_printk(struct tep_handle *tep, char *text)
{
	printk_keep_readable(text);
	return tep_parse_printk_formats(tep, text);
}

static int
parse_cmdlines(struct tep_handle *tep, char *text)
{
	return tep_parse_saved_cmdlines(tep, text);
}

/* A 4-byte-sized (8 with wide) text handed to parse, if not empty. */
static void
parse_sized(struct tpevent *t, struct cursor *c, bool wide,
    int (*parse)(struct tep_handle *, char *), struct tp_steps *st)
{
	uint64_t len = wide ? cursor_u64(c) : cursor_u32(c);
	const uint8_t *p = cursor_take(c, len);
	char *s;

	if (p == NULL || len == 0 || !step_take(st) || (s = text_copy(p, len)) == NULL)
		return;
	(void)parse(t->tep, s);
	free(s);
}

static int
parse_tracing(struct tpevent *t, const uint8_t *p, size_t len, struct tp_steps *st)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor c;
	const uint8_t *b, *z;
	uint64_t hlen;
	char *hp, ver[16];
	int long_size;
	bool big;

	cursor_init(&c, p, len, false);
	b = cursor_take(&c, sizeof magic);
	if (b == NULL || memcmp(b, magic, sizeof magic) != 0)
		return -1;
	z = memchr(p + c.pos, '\0', len - c.pos);
	if (z == NULL)
		return -1;
	snprintf(ver, sizeof ver, "%.*s", (int)(z - (p + c.pos)), (const char *)(p + c.pos));
	c.pos += (size_t)(z - (p + c.pos)) + 1;
	if ((b = cursor_take(&c, 2)) == NULL)
		return -1;
	big = b[0] != 0;
	t->big = big;
	c.swap = big != host_is_big();
	tep_set_file_bigendian(t->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, host_is_big() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	long_size = b[1];
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)cursor_u32(&c));
	b = tagged_text(&c, "header_page", &hlen);
	if (b != NULL && step_take(st) && (hp = text_copy(b, hlen)) != NULL) {
		(void)tep_parse_header_page(t->tep, hp, hlen, long_size);
		free(hp);
	}
	(void)tagged_text(&c, "header_event", &hlen);
	if (c.bad || parse_formats(t, &c, "ftrace", st) < 0)
		return -1;
	for (uint32_t s = 0, nsys = cursor_u32(&c); s < nsys && !c.bad; s++) {
		const uint8_t *name = p + c.pos;

		z = memchr(name, '\0', len - c.pos);
		if (z == NULL)
			return -1;
		c.pos += (size_t)(z - name) + 1;
		if (parse_formats(t, &c, (const char *)name, st) < 0)
			return -1;
	}
	/* Optional tails: a recording cut here still has its formats. */
	if (cursor_has(&c, 4)) {
		uint32_t klen = rd32(p + c.pos, c.swap);

		c.pos += 4;
		(void)cursor_take(&c, klen);	/* kallsyms: perf resolves from its own */
	}
	if (cursor_has(&c, 4))
		parse_sized(t, &c, false, parse_printk, st);
	if (strcmp(ver, "0.6") >= 0 && cursor_has(&c, 8))
		parse_sized(t, &c, true, parse_cmdlines, st);
	return 0;
}

/* A handle parsed by st's steps (reported on st->fd if any); NULL if
 * nothing parses up to an event format. */
static struct tpevent *
build(const uint8_t *p, size_t len, struct tp_steps *st)
{
	struct tpevent *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	tep_set_loglevel(TEP_LOG_NONE);
	t->tep = tep_alloc();
	t->pad = calloc(1, TP_PAD);
	trace_seq_init(&t->seq);
	if (t->tep == NULL || t->pad == NULL || t->seq.buffer == NULL ||
	    parse_tracing(t, p, len, st) < 0 || t->nformats == 0) {
		tpevent_free(t);
		return NULL;
	}
	t->nskipped = st->nskip;
	return t;
}

/* Sanitizer runtimes, when linked: their report on a child's death is
 * turned off there (libFuzzer's would keep the input as a crash). */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void
child_steps(const uint8_t *p, size_t len, struct tp_steps *st)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	int null = open("/dev/null", O_WRONLY);
	uint32_t done = TP_DONE;

	if (null >= 0)
		(void)dup2(null, STDERR_FILENO);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		(void)signal(sigs[i], SIG_DFL);
	if (__sanitizer_set_death_callback != NULL)
		__sanitizer_set_death_callback(NULL);
	(void)build(p, len, st);
	if (write(st->fd, &done, sizeof done) != (ssize_t)sizeof done)
		_exit(2);
	_exit(0);
}

static long
ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)(t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * One child through st's steps: 0 when it got through them all, 1 when it
 * died or hung on a step (now in st->skip), -1 when it could not be run
 * (no fork) or died before any step.  All children together have
 * TP_TRIAL_MS from t0.
 */
static int
child_try(const uint8_t *p, size_t len, struct tp_steps *st, const struct timespec *t0)
{
	uint32_t last = TP_DONE, k;
	bool started = false, done = false;
	int fds[2], status = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		st->fd = fds[1];
		child_steps(p, len, st);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pf = { .fd = fds[0], .events = POLLIN };
		long left = TP_TRIAL_MS - ms_since(t0);
		ssize_t n;
		int ready = left > 0 ? poll(&pf, 1, (int)left) : 0;

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			break;	/* hung: the step it is on is the culprit */
		n = read(fds[0], &k, sizeof k);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n != (ssize_t)sizeof k)
			break;
		if (k == TP_DONE) {
			done = true;
			break;
		}
		last = k;
		started = true;
	}
	close(fds[0]);
	if (!done)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!started || st->nskip == TP_MAX_SKIP)
		return -1;
	st->skip[st->nskip++] = last;
	return 1;
}

/* The verdict on the last data seen (by length and hash: a buffer may be
 * reused for other bytes): the steps to skip, or failed. */
static struct {
	pthread_mutex_t	 lock;
	uint64_t	 hash;
	size_t		 len;
	struct tp_steps	 st;
	bool		 failed;
} verdict = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The steps a child got through, into *st; false if none will do. */
static bool
steps_verified(const uint8_t *p, size_t len, struct tp_steps *st)
{
	uint64_t h = hash_bytes(p, len);
	struct timespec t0;
	bool ok;
	int r;

	pthread_mutex_lock(&verdict.lock);
	if (verdict.len == len && verdict.hash == h) {
		*st = verdict.st;
		ok = !verdict.failed;
		pthread_mutex_unlock(&verdict.lock);
		return ok;
	}
	memset(st, 0, sizeof *st);
	st->fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((r = child_try(p, len, st, &t0)) == 1)
		st->next = 0;
	/* no fork here (or the child died before its first step, which
	 * libtraceevent had no part in): parsed in this process; but not
	 * after too many culprits or the time spent on them */
	ok = !(r < 0 && st->nskip == TP_MAX_SKIP) && ms_since(&t0) < TP_TRIAL_MS;
	st->next = 0;
	st->fd = -1;
	verdict.hash = h;
	verdict.len = len;
	verdict.st = *st;
	verdict.failed = !ok;
	pthread_mutex_unlock(&verdict.lock);
	return ok;
}

struct tpevent *
tpevent_from_data(const uint8_t *p, size_t len)
{
	struct tp_steps st;

	if (p == NULL || len == 0 || !steps_verified(p, len, &st))
		return NULL;
	return build(p, len, &st);
}

struct tpevent *
tpevent_new(const struct session *s)
{
	const struct feat_sec *fs = &session_features(s)->sec[PF_FEAT_TRACING_DATA];
	const uint8_t *p;

	if (!fs->present || fs->size == 0 || fs->size > SIZE_MAX)
		return NULL;
	p = session_bytes(s, fs->offset, fs->size);
	return p != NULL ? tpevent_from_data(p, (size_t)fs->size) : NULL;
}

void
tpevent_free(struct tpevent *t)
{
	if (t == NULL)
		return;
	if (t->seq.buffer != NULL)
		trace_seq_destroy(&t->seq);
	if (t->tep != NULL)
		tep_free(t->tep);
	free(t->pad);
	free(t);
}

size_t
tpevent_nformats(const struct tpevent *t)
{
	return t != NULL ? t->nformats : 0;
}

size_t
tpevent_skipped(const struct tpevent *t)
{
	return t != NULL ? t->nskipped : 0;
}

static struct tep_event *
find_event(struct tpevent *t, uint64_t config)
{
	if (t == NULL || config > INT32_MAX)
		return NULL;
	return tep_find_event(t->tep, (int)config);
}

bool
tpevent_known(struct tpevent *t, uint64_t config)
{
	return find_event(t, config) != NULL;
}

/* End of the furthest fixed field of ev's format (a dynamic field's own
 * 4-byte location counted, its data not). */
static uint32_t
format_end(const struct tep_event *ev)
{
	uint32_t end = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct tep_format_field *f =
		    pass == 0 ? ev->format.common_fields : ev->format.fields;

		for (; f != NULL; f = f->next) {
			uint32_t e = (uint32_t)f->offset + (uint32_t)f->size;

			if (f->offset >= 0 && f->size >= 0 && e > end)
				end = e;
		}
	}
	return end;
}

/* The payload into t's zeroed buffer; the record libtraceevent reads. */
static void
load_payload(struct tpevent *t, const uint8_t *raw, uint32_t raw_size, uint32_t cpu,
    struct tep_record *rec)
{
	if (t->dirty > 0)
		memset(t->pad, 0, t->dirty);
	memcpy(t->pad, raw, raw_size);
	t->dirty = raw_size;
	memset(rec, 0, sizeof *rec);
	rec->cpu = (int)cpu;
	rec->size = (int)raw_size;
	rec->record_size = (int)raw_size;
	rec->data = t->pad;
}

const char *
tpevent_text(struct tpevent *t, uint64_t config, const uint8_t *raw, uint32_t raw_size,
    uint32_t cpu, bool *decoded)
{
	struct tep_event *ev = find_event(t, config);
	struct tep_record rec;
	uint32_t need;

	if (decoded != NULL)
		*decoded = false;
	if (ev == NULL) {
		snprintf(t->fallback, sizeof t->fallback,
		    "[no format for tracepoint %" PRIu64 ": %" PRIu32 " bytes of payload]", config,
		    raw_size);
		return t->fallback;
	}
	need = format_end(ev);
	if (raw == NULL || raw_size < need || raw_size > TP_RAW_MAX) {
		snprintf(t->fallback, sizeof t->fallback,
		    "[damaged payload: %" PRIu32 " bytes, %s:%s needs %" PRIu32 "]",
		    raw != NULL ? raw_size : 0, ev->system, ev->name, need);
		return t->fallback;
	}
	load_payload(t, raw, raw_size, cpu, &rec);
	if (tep_data_type(t->tep, &rec) != ev->id) {
		snprintf(t->fallback, sizeof t->fallback,
		    "[damaged payload: type %d, not %s:%s's %d]", tep_data_type(t->tep, &rec),
		    ev->system, ev->name, ev->id);
		return t->fallback;
	}
	trace_seq_reset(&t->seq);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	if (t->seq.buffer == NULL || t->seq.state != TRACE_SEQ__GOOD) {
		snprintf(t->fallback, sizeof t->fallback, "[no text: out of memory]");
		return t->fallback;
	}
	if (decoded != NULL)
		*decoded = true;
	return t->seq.buffer;
}

static void
field_value(struct tpevent *t, struct tep_format_field *f, struct tep_record *rec,
    struct tp_field *o)
{
	trace_seq_reset(&t->seq);
	tep_print_field_content(&t->seq, rec->data, rec->size, f);
	trace_seq_terminate(&t->seq);
	snprintf(o->value, sizeof o->value, "%s", t->seq.buffer != NULL ? t->seq.buffer : "");
}

struct saved_flags {
	struct tep_format_field	*f;
	unsigned long		 flags;
};

/* ev's text and fields printed from payloads of all zeros and all ones
 * (its type in place): a format libtraceevent parsed but cannot print
 * from fails its step here, not on the recording's first sample. */
static void
trial_print(struct tpevent *t, struct tep_event *ev)
{
	static const uint8_t fills[] = { 0x00, 0xff };
	struct tep_format_field *type = tep_find_common_field(ev, "common_type");
	uint32_t need = format_end(ev);
	struct tep_record rec;
	struct tp_field o;

	struct saved_flags *fl;
	size_t nflags = 0;

	if (need == 0 || need > TP_RAW_MAX)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (struct tep_format_field *f = pass == 0 ? ev->format.common_fields : ev->format.fields;
		     f != NULL; f = f->next)
			nflags++;
	if ((fl = calloc(nflags + 1, sizeof *fl)) == NULL)
		return;
	nflags = 0;
	for (int pass = 0; pass < 2; pass++)
		for (struct tep_format_field *f = pass == 0 ? ev->format.common_fields : ev->format.fields;
		     f != NULL; f = f->next) {
			fl[nflags].f = f;
			fl[nflags++].flags = f->flags;
		}
	for (size_t i = 0; i < sizeof fills; i++) {
		memset(t->pad, fills[i], need);
		t->dirty = need;
		if (type != NULL && type->offset >= 0 && type->size > 0 && type->size <= 8 &&
		    (uint32_t)type->offset + (uint32_t)type->size <= need) {
			for (int b = 0; b < type->size; b++) {
				int sh = 8 * (t->big ? type->size - 1 - b : b);

				t->pad[type->offset + b] = sh < 32 ? (uint8_t)((uint32_t)ev->id >> sh) : 0;
			}
		}
		memset(&rec, 0, sizeof rec);
		rec.size = rec.record_size = (int)need;
		rec.data = t->pad;
		trace_seq_reset(&t->seq);
		tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
		for (int pass = 0; pass < 2; pass++) {
			struct tep_format_field *f =
			    pass == 0 ? ev->format.common_fields : ev->format.fields;

			for (; f != NULL; f = f->next)
				if (f->offset >= 0 && f->size >= 0 &&
				    (uint64_t)f->offset + (uint64_t)f->size <= need)
					field_value(t, f, &rec, &o);
		}
	}
	memset(t->pad, 0, t->dirty);
	t->dirty = 0;
	/* printing a char array that is no string clears its string flag for
	 * good: the flags as the format gave them */
	for (size_t i = 0; i < nflags; i++)
		fl[i].f->flags = fl[i].flags;
	free(fl);
}

size_t
tpevent_fields(struct tpevent *t, uint64_t config, const uint8_t *raw, uint32_t raw_size,
    struct tp_field *out, size_t max)
{
	struct tep_event *ev = find_event(t, config);
	struct tep_record rec;
	size_t k = 0;

	if (ev == NULL)
		return 0;
	if (raw_size > TP_RAW_MAX)
		raw_size = TP_RAW_MAX;
	load_payload(t, raw != NULL ? raw : t->pad, raw != NULL ? raw_size : 0, 0, &rec);
	for (int pass = 0; pass < 2; pass++) {
		struct tep_format_field *f = pass == 0 ? ev->format.common_fields : ev->format.fields;

		for (; f != NULL && k < max; f = f->next) {
			struct tp_field *o = &out[k++];

			memset(o, 0, sizeof *o);
			o->name = f->name;
			o->type = f->type;
			o->offset = f->offset > 0 ? (uint32_t)f->offset : 0;
			o->size = f->size > 0 ? (uint32_t)f->size : 0;
			o->common = pass == 0;
			o->outside = (uint64_t)o->offset + o->size > (uint64_t)rec.size;
			if (!o->outside)
				field_value(t, f, &rec, o);
		}
	}
	return k;
}

bool
tpevent_field_loc(struct tpevent *t, uint64_t config, const char *name, struct tp_loc *loc)
{
	struct tep_event *ev = find_event(t, config);
	struct tep_format_field *f = ev != NULL ? tep_find_field(ev, name) : NULL;

	memset(loc, 0, sizeof *loc);
	if (f == NULL || f->offset < 0 || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return false;
	loc->offset = (uint32_t)f->offset;
	loc->size = (uint32_t)f->size;
	loc->is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	loc->swap = t->big != host_is_big();
	return true;
}

bool
tp_loc_read(const struct tp_loc *loc, const uint8_t *raw, uint32_t raw_size, int64_t *v)
{
	const uint8_t *p;
	uint64_t u;

	*v = 0;
	if (raw == NULL || loc->size == 0 || loc->offset > raw_size ||
	    raw_size - loc->offset < loc->size)
		return false;
	p = raw + loc->offset;
	switch (loc->size) {
	case 1:
		u = p[0];
		break;
	case 2:
		u = rd16(p, loc->swap);
		break;
	case 4:
		u = rd32(p, loc->swap);
		break;
	default:
		if (loc->size < 8)
			return false;	/* 3, 5, 6, 7 bytes: no number a format names */
		u = rd64(p, loc->swap);
		break;
	}
	if (loc->is_signed && loc->size < 8 && (u >> (8 * loc->size - 1)) != 0)
		u |= ~UINT64_C(0) << (8 * loc->size);
	*v = (int64_t)u;
	return true;
}
