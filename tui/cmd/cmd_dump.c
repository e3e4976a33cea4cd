#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/textout.h"

/*
 * perfnav dump [-x] FILE: one line per record in file order,
 *
 *	0xOFFSET [0xSIZE]: PERF_RECORD_NAME decoded fields
 *
 * OFFSET is the record's offset as perf report -D prints it: in its file
 * (directory mode: its data.N file), after the 16-byte header in pipe
 * mode, and in perf's "%#llx" form (offset 0 prints as "0").  Records decompressed from a PERF_RECORD_COMPRESSED
 * follow their container and print the container's offset, with their own
 * identity "@0xCONTAINER+0xINNER" (offset in the container's decompressed
 * bytes) right after the type name; `perfnav hex FILE 0xCONTAINER+0xINNER`
 * shows them.  In directory mode a "# file" line names each file.
 *
 * The records are taken in batches: the main thread walks them and writes
 * the formatted batches in order; a second thread formats batches, the
 * oldest first, and the main thread formats the newest when all the
 * batches are in use.
 */

/* A summary's buffer: a longer summary is cut and ends in "...". */
#define LINE_MAX_LEN	8192
/* Records a batch holds, and batches at most in use. */
#define BATCH		2048
#define NSLOTS		8

struct item {
	struct rec	 r;
	uint64_t	 off;		/* as perf report -D prints it */
	int		 depth;
	char		*pre;		/* a "# file" line before it, or NULL */
};

enum slot_state { S_FREE, S_READY, S_BUSY, S_DONE };

struct batch {
	struct item	 v[BATCH];
	size_t		 n;
	struct fmt	 out;
	enum slot_state	 state;		/* under mu */
};

struct dump {
	/* read by both threads, written before the worker starts */
	const struct session	*s;
	bool			 hex;
	bool			 dir;		/* directory mode: "# file" lines */
	/* batch i is slot[i % NSLOTS]; [wr, cur) are in use, cur is being filled */
	struct batch		*slot[NSLOTS];
	/* the main thread's: the batch it fills, the file of the last record */
	struct batch		*fill;
	long			 file;		/* -1 none yet */
	/* shared, under mu: on a cache line of their own (no false sharing
	 * with what the main thread reads for every record) */
	_Alignas(64) pthread_mutex_t mu;
	pthread_cond_t		 cv;
	uint64_t		 wr, cur;
	bool			 writing;	/* a thread writes batch wr */
	bool			 stop;		/* a write error: the walk stops */
	bool			 quit;
	pthread_t		 th;
	bool			 started;
};

/* "%x" of v at d; returns the end. */
static char *
put_hex(char *d, uint64_t v)
{
	size_t n = v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	char *e = d + n;

	do {
		*--e = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (e > d);
	return d + n;
}

/* "%#llx" of v (perf's offsets: "0" for 0), "0x%x" when always is set. */
static void
fmt_0x(struct fmt *b, uint64_t v, bool always)
{
	char t[24], *e = t;

	if (always || v != 0) {
		*e++ = '0';
		*e++ = 'x';
	}
	fmt_mem(b, t, (size_t)(put_hex(e, v) - t));
}

/* perf report -D style hex + ASCII, 16 bytes a line. */
static void
hexdump(struct fmt *b, const uint8_t *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i += 16) {
		size_t k = n - i < 16 ? n - i : 16;
		char *d = fmt_room(b, 8 + 20 + 2 + 16 * 3 + 2 + 16 + 1);
		size_t at = 0;
		char num[20];
		int nd = 0;

		if (d == NULL)
			return;
		memcpy(d, "        ", 8);
		at = 8;
		/* "%04zx" */
		for (size_t v = i; v != 0 || nd < 4; v >>= 4)
			num[nd++] = hx[v & 15];
		while (nd > 0)
			d[at++] = num[--nd];
		d[at++] = ':';
		d[at++] = ' ';
		for (size_t j = 0; j < 16; j++) {
			d[at++] = ' ';
			d[at++] = j < k ? hx[p[i + j] >> 4] : ' ';
			d[at++] = j < k ? hx[p[i + j] & 15] : ' ';
		}
		d[at++] = ' ';
		d[at++] = ' ';
		for (size_t j = 0; j < k; j++)
			d[at++] = isprint(p[i + j]) && p[i + j] < 0x7f ? (char)p[i + j] : '.';
		d[at++] = '\n';
		b->len += at;
	}
}

/* Length of "PERF_RECORD_NAME" at the start of a summary. */
static size_t
name_len(const char *line)
{
	size_t i = strlen("PERF_RECORD_");

	if (strncmp(line, "PERF_RECORD_", i) != 0)
		return 0;
	while (line[i] == '_' || isalnum((unsigned char)line[i]))
		i++;
	return i;
}

/* A decompressed record's line: its identity after the type name. */
static void
format_inner(const struct session *s, const struct item *it, struct fmt *b)
{
	const struct zchunk *z = session_zorigin(s, it->r.loc);
	uint64_t inner = z ? it->r.loc - SESSION_ZLOC - z->zoff : 0;
	char line[LINE_MAX_LEN];
	size_t nl, k = fields_summary(s, &it->r, line, sizeof line);
	const char *rest;

	nl = name_len(line);
	rest = line + nl;
	fmt_mem(b, line, nl);
	fmt_mem(b, " @", 2);
	fmt_0x(b, it->off, false);
	fmt_mem(b, "+0x", 3);
	fmt_hex(b, inner, 0);
	if (rest[0] == '(')
		fmt_char(b, ' ');
	fmt_mem(b, rest, k - nl);
}

/* One record's line (and its hex dump): what may run on either thread. */
static void
format_item(const struct session *s, bool hex, const struct item *it, struct fmt *b)
{
	char *d, *e;

	if (it->pre != NULL)
		fmt_str(b, it->pre);
	/* "%#llx [0x%x]: ", then the summary straight into the buffer */
	d = fmt_room(b, 64 + LINE_MAX_LEN);
	if (d == NULL)
		return;
	e = d;
	if (it->off != 0) {
		*e++ = '0';
		*e++ = 'x';
	}
	e = put_hex(e, it->off);
	memcpy(e, " [0x", 4);
	e = put_hex(e + 4, it->r.size);
	memcpy(e, "]: ", 3);
	e += 3;
	if (it->depth == 0) {
		e += fields_summary(s, &it->r, e, LINE_MAX_LEN);
		*e++ = '\n';
		b->len += (size_t)(e - d);
	} else {
		b->len += (size_t)(e - d);
		format_inner(s, it, b);
		fmt_char(b, '\n');
	}
	if (hex)
		hexdump(b, it->r.p, it->r.size);
}

static void
format_batch(const struct dump *d, struct batch *bt)
{
	for (size_t i = 0; i < bt->n; i++)
		format_item(d->s, d->hex, &bt->v[i], &bt->out);
}

/* The batch in [wr, cur) in state READY, the oldest or the newest; NULL: none. */
static struct batch *
find_ready(struct dump *d, bool newest)
{
	for (uint64_t k = 0; k < d->cur - d->wr; k++) {
		uint64_t i = newest ? d->cur - 1 - k : d->wr + k;

		if (d->slot[i % NSLOTS]->state == S_READY)
			return d->slot[i % NSLOTS];
	}
	return NULL;
}

/* Format bt, taken in state READY (mu held, and held again on return). */
static void
format_locked(struct dump *d, struct batch *bt)
{
	bt->state = S_BUSY;
	pthread_mutex_unlock(&d->mu);
	format_batch(d, bt);
	pthread_mutex_lock(&d->mu);
	bt->state = S_DONE;
	pthread_cond_broadcast(&d->cv);
}

/* Write a formatted batch and empty it; false on a write error. */
static bool
write_batch(struct batch *bt)
{
	bool ok = !bt->out.failed && fmt_flush(&bt->out, stdout) == 0 && !ferror(stdout);

	for (size_t i = 0; i < bt->n; i++)
		free(bt->v[i].pre);
	bt->n = 0;
	return ok;
}

/*
 * Write the batches done, in order, while no other thread writes (mu held,
 * and held again on return): whichever thread is free writes, one at a time.
 */
static void
write_done(struct dump *d)
{
	while (!d->writing && d->wr < d->cur && d->slot[d->wr % NSLOTS]->state == S_DONE) {
		struct batch *bt = d->slot[d->wr % NSLOTS];
		bool ok;

		d->writing = true;
		pthread_mutex_unlock(&d->mu);
		ok = write_batch(bt);
		pthread_mutex_lock(&d->mu);
		d->stop = d->stop || !ok;
		bt->state = S_FREE;
		d->wr++;
		d->writing = false;
		pthread_cond_broadcast(&d->cv);
	}
}

static void *
worker(void *arg)
{
	struct dump *d = arg;

	pthread_mutex_lock(&d->mu);
	for (;;) {
		struct batch *bt;

		write_done(d);
		bt = find_ready(d, false);
		if (bt != NULL)
			format_locked(d, bt);
		else if (d->quit)
			break;
		else
			pthread_cond_wait(&d->cv, &d->mu);
	}
	pthread_mutex_unlock(&d->mu);
	return NULL;
}

/*
 * Until a slot is free for the next batch (all: until every batch is
 * written): write the batches done, else format the newest batch waiting,
 * else wait for the worker.  Returns true to stop (a write error).
 */
static bool
make_room(struct dump *d, bool all)
{
	bool stop;

	pthread_mutex_lock(&d->mu);
	for (;;) {
		struct batch *bt;

		write_done(d);
		if (all ? d->wr == d->cur : d->cur - d->wr < NSLOTS)
			break;
		bt = find_ready(d, true);
		if (bt != NULL)
			format_locked(d, bt);
		else
			pthread_cond_wait(&d->cv, &d->mu);
	}
	stop = d->stop;
	pthread_mutex_unlock(&d->mu);
	return stop;
}

/* The batch being filled is ready to format: hand it over, take the next.
 * Returns true to stop. */
static bool
batch_done(struct dump *d)
{
	bool stop;

	pthread_mutex_lock(&d->mu);
	d->slot[d->cur % NSLOTS]->state = S_READY;
	d->cur++;
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
	stop = make_room(d, false);
	pthread_mutex_lock(&d->mu);
	d->fill = d->slot[d->cur % NSLOTS];
	pthread_mutex_unlock(&d->mu);
	return stop;
}

static int
dump_rec(void *arg, const struct rec *r, int depth)
{
	struct dump *d = arg;
	const struct session *s = d->s;
	struct batch *bt = d->fill;
	struct item *it = &bt->v[bt->n++];
	uint32_t fi;

	/* the walk goes in file order: ask for the bytes a page ahead */
	__builtin_prefetch(r->p + 4096);
	it->r = *r;
	it->depth = depth;
	it->off = session_rec_offset(s, r->loc, &fi);
	it->pre = NULL;
	if (d->dir && (long)fi != d->file) {
		const char *path = fi < session_nfiles(s) ? textout_esc(session_file(s, fi)->path) : "?";
		size_t n = strlen(path) + 32;

		it->pre = malloc(n);
		if (it->pre == NULL)
			return 1;
		snprintf(it->pre, n, "# file %u: %s\n", fi, path);
	}
	d->file = fi;
	return bt->n == BATCH && batch_done(d) ? 1 : 0;
}

static int
dump_opt(void *arg, int val, const char *optarg)
{
	struct dump *d = arg;

	(void)optarg;
	if (val != 'x')
		return -1;
	d->hex = true;
	return 0;
}

static const struct cmd_opt dump_opts[] = {
	{ "hex", 0, 'x', "add a hex + ASCII dump of each record" },
	{ NULL, 0, 0, NULL },
};

const struct cmd_spec dump_spec = {
	.name = "dump",
	.summary = "one line per record in file order (-x: with hex)",
	.run = cmd_dump,
	.usage = "dump [-x] [FILE]",
	.opts = dump_opts,
	.fn = dump_opt,
	.maxpos = 0,
};

/* Walk the records into batches, formatted on two threads, written in order. */
static void
dump_all(struct dump *d)
{
	for (int i = 0; i < NSLOTS; i++)
		d->slot[i] = xcalloc(1, sizeof *d->slot[i]);
	pthread_mutex_init(&d->mu, NULL);
	pthread_cond_init(&d->cv, NULL);
	d->started = pthread_create(&d->th, NULL, worker, d) == 0;
	d->fill = d->slot[0];
	session_walk(d->s, dump_rec, d);
	if (d->fill->n > 0)
		batch_done(d);
	make_room(d, true);
	if (d->started) {
		pthread_mutex_lock(&d->mu);
		d->quit = true;
		pthread_cond_broadcast(&d->cv);
		pthread_mutex_unlock(&d->mu);
		pthread_join(d->th, NULL);
	}
	pthread_cond_destroy(&d->cv);
	pthread_mutex_destroy(&d->mu);
	for (int i = 0; i < NSLOTS; i++) {
		for (size_t k = 0; k < d->slot[i]->n; k++)
			free(d->slot[i]->v[k].pre);
		fmt_free(&d->slot[i]->out);
		free(d->slot[i]);
	}
}

int
cmd_dump(int argc, char **argv)
{
	static struct dump d;
	struct cmd_run r;
	struct session *s;
	static char obuf[1 << 16];

	memset(&d, 0, sizeof d);
	if (cmd_begin(&r, argc, argv, &dump_spec, &d) < 0 || cmd_load(&r, false) < 0)
		return r.status;
	s = r.s;
	r.check_write = true;
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	d.s = s;
	d.dir = session_info(s).mode == SESSION_DIR;
	d.file = -1;
	fprintf(stdout, "# %s: %s mode, %s-endian\n", session_info(s).path,
	    session_info(s).mode == SESSION_PIPE ? "pipe" : session_info(s).mode == SESSION_DIR ? "directory" : "file",
	    (session_info(s).swap != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) ? "big" : "little");
	/* it stops at a write error, which cmd_end() tells */
	dump_all(&d);
	return cmd_end(&r);
}
