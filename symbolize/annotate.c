#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/annotate.h"
#include "symbolize/filter.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symtab.h"

extern char **environ;

#define ANNOT_MAX_CODE_DEFAULT	(UINT64_C(1) << 20)
/* objdump prints well under 200 bytes per instruction */
#define ANNOT_OUT_PER_BYTE	256

struct annotation *
annotate_new(struct symbolizer *z, uint32_t sym, const char **why)
{
	struct annotation *a;
	uint32_t dso;
	uint64_t start, end;

	if (symbolizer_sym_range(z, sym, &dso, &start, &end) < 0) {
		if (why != NULL)
			*why = "not a symbol: an unresolved address has no code to show";
		return NULL;
	}
	a = xcalloc(1, sizeof *a);
	a->z = z;
	a->sym = sym;
	a->dso = dso;
	a->start = start;
	a->end = end > start ? end : start + 1;
	a->hottest = SIZE_MAX;
	return a;
}

void
annotate_free(struct annotation *a)
{
	if (a == NULL)
		return;
	free(a->rows);
	free(a->text);
	free(a->hits);
	hmap_free(&a->hit_of);
	free(a);
}

void
annotate_add(struct annotation *a, uint64_t rel, uint64_t period)
{
	uint32_t j = hmap_get(&a->hit_of, rel);

	if (j == HMAP_NONE) {
		GROW(a->hits, a->caphits, a->nhits + 1);
		j = (uint32_t)a->nhits++;
		a->hits[j].rel = rel;
		a->hits[j].samples = 0;
		a->hits[j].period = 0;
		hmap_set(&a->hit_of, rel, j);
	}
	a->hits[j].samples++;
	a->hits[j].period += period;
	a->samples++;
	a->period += period;
}

/* Does filter f take the decoded sample smp, its own address resolved to fr? */
static bool
filter_takes(const struct hist_filter *f, const struct annotation *a, const struct session *s,
    const struct sample *smp, const struct frame *fr)
{
	const struct thread_table *tt;
	bool has_tid = (smp->sample_type & PERF_SAMPLE_TID) != 0;
	int32_t pid = has_tid ? (int32_t)smp->pid : -1, tid = has_tid ? (int32_t)smp->tid : -1;
	uint32_t th;

	if (f == NULL)
		return true;
	if (!filter_sample_ok(f, smp->time, (smp->sample_type & PERF_SAMPLE_CPU) != 0, smp->cpu))
		return false;
	tt = session_threads(s);
	th = f->ncomms ? thread_table_find(tt, tid, smp->time) : THREAD_NONE;
	return filter_entry_ok(f, pid, tid,
	    th != THREAD_NONE ? thread_comm_at(tt, th, smp->time) : NULL) &&
	    filter_frame_ok(f, a->z, fr);
}

uint64_t
annotate_collect_filter(struct annotation *a, const struct session *s, int attr, size_t from,
    size_t to, const struct hist_filter *flt, annot_want_fn want, void *arg)
{
	const struct rec_index *ix = session_index(s);
	uint64_t fed = 0;

	if (to > ix->n)
		to = ix->n;
	for (size_t i = from; i < to; i++) {
		const struct rec_ent *ent = index_ent(ix, i);
		struct sample smp;
		struct frame f;
		struct rec r;
		uint64_t period;

		if (ent_type(ent) != PF_REC_SAMPLE)
			continue;
		if (attr >= 0 && ent_attr(ent) != ENT_ATTR_NONE && (int)ent_attr(ent) != attr)
			continue;
		if ((want != NULL && !want(arg, i)) || !filter_loc_ok(flt, ent_loc(ent)))
			continue;
		if (session_rec(s, ent_loc(ent), &r) < 0 ||
		    symbolizer_resolve_self(a->z, &r, &smp, &f) < 0)
			continue;
		if ((attr >= 0 && smp.attr != attr) || f.sym != a->sym ||
		    !filter_takes(flt, a, s, &smp, &f))
			continue;
		period = (smp.sample_type & PERF_SAMPLE_PERIOD) ? smp.period :
		    session_attrs(s)->v[smp.attr].attr.sample_period;
		annotate_add(a, f.rel, period);
		fed++;
	}
	return fed;
}

uint64_t
annotate_collect(struct annotation *a, const struct session *s, int attr, size_t from, size_t to,
    annot_want_fn want, void *arg)
{
	return annotate_collect_filter(a, s, attr, from, to, NULL, want, arg);
}

/* ---- rows ---- */

static uint32_t
add_text(struct annotation *a, const char *t, size_t len)
{
	uint32_t off = (uint32_t)a->ntext;

	GROW(a->text, a->captext, a->ntext + len + 1);
	memcpy(a->text + a->ntext, t, len);
	a->text[a->ntext + len] = '\0';
	a->ntext += len + 1;
	return off;
}

static struct annot_row *
add_row(struct annotation *a, uint8_t kind, uint64_t rel, const char *t, size_t len)
{
	struct annot_row *r;

	GROW(a->rows, a->caprows, a->nrows + 1);
	r = &a->rows[a->nrows++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->rel = rel;
	r->vaddr = rel + a->bias;
	r->target_row = ANNOT_ROW_NONE;
	r->src_row = ANNOT_ROW_NONE;
	r->line_first = ANNOT_ROW_NONE;
	r->path = ANNOT_ROW_NONE;
	r->text = add_text(a, t, len);
	return r;
}

const char *
annotate_row_text(const struct annotation *a, const struct annot_row *r)
{
	return a->text != NULL ? a->text + r->text : "";
}

/*
 * Run objdump over [vstart, vend) of path; its standard output (at most
 * max bytes, *cut set when there was more: then up to its last whole
 * line) into a malloc'd buffer.  Returns the length, or -1 with the
 * reason in a->note.
 */
static ssize_t
run_objdump(struct annotation *a, const char *prog, const char *path, uint64_t vstart,
    uint64_t vend, size_t max, char **out, bool *cutp)
{
	char sa[64], so[64];
	char *argv[] = { (char *)prog, "-d", "-C", "-w", "--no-show-raw-insn", sa, so,
	    (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], status = 0, rc;
	pid_t pid;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	bool cut = false;

	snprintf(sa, sizeof sa, "--start-address=0x%" PRIx64, vstart);
	snprintf(so, sizeof so, "--stop-address=0x%" PRIx64, vend);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(a->note, sizeof a->note, "cannot run %s: %s", prog, strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		snprintf(a->note, sizeof a->note, "cannot run %s (%s): install binutils for "
		    "disassembly", prog, strerror(rc));
		return -1;
	}
	for (;;) {
		ssize_t k;

		GROW(buf, cap, n + 65536);
		k = read(fds[0], buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
		if (n >= max) {
			/* no more wanted: SIGKILL, as SIGTERM and SIGPIPE may be
			 * ignored (inherited from where perfnav was started) */
			cut = true;
			kill(pid, SIGKILL);
			break;
		}
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!cut && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		free(buf);
		snprintf(a->note, sizeof a->note, "%s failed on %s", prog, path);
		return -1;
	}
	if (cut) {
		/* the last line read may be partial */
		while (n > 0 && buf[n - 1] != '\n')
			n--;
	}
	*out = buf;
	*cutp = cut;
	return (ssize_t)n;
}

/* "  401a29:\tmov    %rdi,%rax" -> address and the text after the tab. */
static bool
parse_insn(const char *line, size_t len, uint64_t *addr, const char **text, size_t *tlen)
{
	size_t i = 0;
	uint64_t v = 0;
	int digits = 0;

	while (i < len && line[i] == ' ')
		i++;
	for (; i < len; i++, digits++) {
		char c = line[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			break;
		if (digits >= 16)
			return false;
		v = v << 4 | d;
	}
	if (digits == 0 || i + 1 >= len || line[i] != ':' || line[i + 1] != '\t')
		return false;
	i += 2;
	*addr = v;
	*text = line + i;
	*tlen = len - i;
	return true;
}

/* Instruction text with tabs as single spaces, trailing blanks cut. */
static size_t
clean_insn(const char *t, size_t len, char *out, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 1 < cap; i++)
		out[k++] = t[i] == '\t' ? ' ' : t[i];
	while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '\r'))
		k--;
	out[k] = '\0';
	return k;
}

static int
cmp_hit(const void *x, const void *y)
{
	const struct annot_hit *a = x, *b = y;

	return a->rel < b->rel ? -1 : a->rel > b->rel;
}

/* The fed hits, sorted by address (in place). */
static size_t
sorted_hits(struct annotation *a)
{
	size_t k = a->nhits;

	if (k > 1)
		qsort(a->hits, k, sizeof *a->hits, cmp_hit);
	hmap_free(&a->hit_of);	/* the indices moved: feeding again starts afresh */
	return k;
}

/*
 * Source files read for their text, a few at a time (a function's lines
 * come from one or two files).
 */
#define SRC_FILES	16
#define SRC_MAX_BYTES	SAFEFILE_CAP_SOURCE

struct src_file {
	char		*path;
	char		*data;		/* NULL: unreadable */
	size_t		 len;
	uint32_t	*line;		/* offsets of line starts */
	uint64_t	 used;		/* clock of the last use (LRU) */
	size_t		 nline;
};

struct src_cache {
	struct src_file	 f[SRC_FILES];
	uint64_t	 clock;
};

static void
src_load(struct src_file *sf, const char *path)
{
	static const struct safefile_rule rule = { .what = "a source file", .cap = SRC_MAX_BYTES };
	struct stat st;
	int fd;
	size_t cap = 0;

	memset(sf, 0, sizeof *sf);
	sf->path = xstrdup(path);
	/*
	 * The path comes from the binary: it may name a FIFO (open would wait
	 * for a writer) or a device (a terminal must not become ours): regular
	 * files of sane size only, opened without blocking (core/safefile.h).
	 */
	fd = safefile_open(path, &rule, &st, NULL);
	if (fd < 0)
		return;
	sf->data = xmalloc((size_t)st.st_size + 1);
	while (sf->len < (size_t)st.st_size) {
		ssize_t k = read(fd, sf->data + sf->len, (size_t)st.st_size - sf->len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		sf->len += (size_t)k;
	}
	sf->data[sf->len] = '\0';
	GROW(sf->line, cap, 1);
	sf->line[sf->nline++] = 0;
	for (size_t i = 0; i < sf->len; i++)
		if (sf->data[i] == '\n' && i + 1 < sf->len) {
			GROW(sf->line, cap, sf->nline + 1);
			sf->line[sf->nline++] = (uint32_t)(i + 1);
		}
	close(fd);
}

static void
src_cache_free(struct src_cache *c)
{
	for (size_t i = 0; i < SRC_FILES; i++) {
		free(c->f[i].path);
		free(c->f[i].data);
		free(c->f[i].line);
	}
}

/* Line lineno (1-based) of path with tabs expanded, into out; false if
 * the file or line is not there. */
static bool
src_text(struct src_cache *c, const char *path, int lineno, char *out, size_t cap)
{
	struct src_file *sf = NULL;
	const char *p, *e;
	size_t k = 0;

	for (size_t i = 0; i < SRC_FILES && sf == NULL; i++)
		if (c->f[i].path != NULL && strcmp(c->f[i].path, path) == 0)
			sf = &c->f[i];
	if (sf == NULL) {
		/* the least recently used slot (inlined code alternates files) */
		sf = &c->f[0];
		for (size_t i = 1; i < SRC_FILES; i++)
			if (c->f[i].used < sf->used)
				sf = &c->f[i];
		free(sf->path);
		free(sf->data);
		free(sf->line);
		src_load(sf, path);
	}
	sf->used = ++c->clock;
	if (sf->data == NULL || lineno < 1 || (size_t)lineno > sf->nline)
		return false;
	p = sf->data + sf->line[lineno - 1];
	e = memchr(p, '\n', sf->len - (size_t)(p - sf->data));
	if (e == NULL)
		e = sf->data + sf->len;
	for (; p < e && k + 9 < cap; p++) {
		if (*p == '\t') {
			do
				out[k++] = ' ';
			while (k % 8 != 0);
		} else if (*p != '\r') {
			out[k++] = *p;
		}
	}
	out[k] = '\0';
	return true;
}

bool
annotate_source_line(const char *path, int lineno, char *out, size_t cap)
{
	struct src_cache sc;
	bool ok;

	if (cap == 0)
		return false;
	memset(&sc, 0, sizeof sc);
	ok = src_text(&sc, path, lineno, out, cap);
	src_cache_free(&sc);
	return ok;
}

static void
add_source_rows_and_insns(struct annotation *a, char *buf, size_t n, bool no_source)
{
	const char *prev_src = NULL;
	char prev_copy[512] = "";
	char ibuf[1024], sbuf[1024];
	struct src_cache sc;
	uint32_t src_row = ANNOT_ROW_NONE;

	memset(&sc, 0, sizeof sc);

	for (size_t i = 0; i < n;) {
		const char *line = buf + i, *t;
		const char *nl = memchr(line, '\n', n - i);
		size_t len = nl ? (size_t)(nl - line) : n - i, tlen;
		uint64_t v;

		i += len + 1;
		/* (wrapping arithmetic: a segment may have p_vaddr < p_offset) */
		if (!parse_insn(line, len, &v, &t, &tlen))
			continue;
		if (v - a->bias < a->start || v - a->bias >= a->end)
			continue;
		if (!no_source) {
			struct frame f;
			const char *src;

			memset(&f, 0, sizeof f);
			f.dso = a->dso;
			f.sym = a->sym;
			f.rel = v - a->bias;
			f.ip = f.rel;
			src = symbolizer_srcline(a->z, &f);
			if (src != NULL && (prev_src == NULL || strcmp(src, prev_copy) != 0)) {
				const char *path = NULL;
				char text[900];
				int lineno = 0;
				int k = snprintf(sbuf, sizeof sbuf, "%s", src);

				if (symbolizer_source(a->z, &f, &path, &lineno) == 0) {
					if (src_text(&sc, path, lineno, text, sizeof text))
						k = snprintf(sbuf, sizeof sbuf, "%-14s %s", src, text);
				} else {
					path = NULL;
				}
				if (k < 0)
					k = 0;
				add_row(a, ANNOT_SRC, f.rel, sbuf, strlen(sbuf));
				src_row = (uint32_t)(a->nrows - 1);
				if (path != NULL) {
					uint32_t po = add_text(a, path, strlen(path));

					a->rows[src_row].path = po;
					a->rows[src_row].lineno = lineno;
				}
				snprintf(prev_copy, sizeof prev_copy, "%s", src);
				prev_src = prev_copy;
			}
		}
		tlen = clean_insn(t, tlen, ibuf, sizeof ibuf);
		add_row(a, ANNOT_INSN, v - a->bias, ibuf, tlen)->src_row = src_row;
	}
	src_cache_free(&sc);
}

/*
 * Credit sorted hits to the instruction rows: an instruction gets those
 * from its address up to the next instruction's (perf annotate's ranges),
 * the last one those before limit, the end of the code shown.  Returns
 * the samples left out (outside the instructions shown).
 */
static uint64_t
credit(struct annotation *a, size_t nh, uint64_t limit)
{
	size_t r = 0, last = SIZE_MAX;
	uint64_t out = 0;

	for (size_t h = 0; h < nh; h++) {
		bool later = false;

		while (r < a->nrows && (a->rows[r].kind == ANNOT_SRC || a->rows[r].rel <= a->hits[h].rel)) {
			if (a->rows[r].kind != ANNOT_SRC)
				last = r;
			r++;
		}
		for (size_t k = r; k < a->nrows && !later; k++)
			later = a->rows[k].kind != ANNOT_SRC;
		if (last == SIZE_MAX || (!later && a->hits[h].rel >= limit)) {
			out += a->hits[h].samples;	/* before the first, past the last */
			continue;
		}
		a->rows[last].samples += a->hits[h].samples;
		a->rows[last].period += a->hits[h].period;
	}
	return out;
}

int
annotate_build(struct annotation *a, const struct annot_opts *o)
{
	struct annot_opts def;
	struct safefile_note sn;
	const char *prog, *image;
	uint64_t len, max_code, limit, left;
	size_t nh;
	char *buf = NULL;
	ssize_t n = -1;
	bool cut = false;

	if (o == NULL) {
		memset(&def, 0, sizeof def);
		o = &def;
	}
	prog = o->objdump;
	if (prog == NULL)
		prog = getenv("PERFNAV_OBJDUMP");
	if (prog == NULL || prog[0] == '\0')
		prog = "objdump";
	max_code = o->max_code ? o->max_code : ANNOT_MAX_CODE_DEFAULT;
	nh = sorted_hits(a);
	a->nrows = 0;
	a->ntext = 0;
	a->note[0] = '\0';

	image = symbolizer_dso_image(a->z, a->dso);
	len = a->end - a->start;
	if (image != NULL && safefile_check(image, &elfsym_rule, NULL, &sn) < 0) {
		/* objdump would open it as it is: a FIFO would hang it */
		snprintf(a->note, sizeof a->note, "%s: %s: sampled addresses only", image,
		    sn.status == SAFEFILE_REFUSED ? sn.why : "cannot be read");
		image = NULL;
	} else if (image == NULL) {
		snprintf(a->note, sizeof a->note, "no object file with the code of %s: sampled "
		    "addresses only", symbolizer_dso_short(a->z, a->dso));
	} else if (elfsym_off_bias(image, a->start, &a->bias) < 0) {
		snprintf(a->note, sizeof a->note, "%s: no loadable segment holds the symbol",
		    image);
	} else {
		if (len > max_code) {
			len = max_code;
			if (max_code % 1024 == 0)
				snprintf(a->note, sizeof a->note, "the first %" PRIu64 " KiB of the "
				    "function only", max_code >> 10);
			else
				snprintf(a->note, sizeof a->note, "the first %" PRIu64 " bytes of the "
				    "function only", max_code);
		}
		n = run_objdump(a, prog, image, a->start + a->bias, a->start + a->bias + len,
		    (size_t)len * ANNOT_OUT_PER_BYTE + 65536, &buf, &cut);
	}
	if (n > 0)
		add_source_rows_and_insns(a, buf, (size_t)n, o->no_source);
	free(buf);
	a->have_code = false;
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].kind == ANNOT_INSN)
			a->have_code = true;
	if (!a->have_code) {
		if (n >= 0 && a->note[0] == '\0')
			snprintf(a->note, sizeof a->note, "objdump printed no instructions for %s",
			    image);
		a->nrows = 0;
		a->ntext = 0;
		a->bias = image != NULL ? a->bias : 0;
		for (size_t h = 0; h < nh; h++) {
			struct annot_row *r = add_row(a, ANNOT_ADDR, a->hits[h].rel, "", 0);

			r->samples = a->hits[h].samples;
			r->period = a->hits[h].period;
		}
	} else {
		/* the end of the code shown; objdump's output cut: the last
		 * instruction's length is not known, its own address only */
		limit = a->start + len;
		if (cut) {
			for (size_t i = a->nrows; i-- > 0;)
				if (a->rows[i].kind == ANNOT_INSN) {
					limit = a->rows[i].rel + 1;
					break;
				}
		}
		left = credit(a, nh, limit);
		if (cut || left > 0) {
			size_t k = strlen(a->note);

			snprintf(a->note + k, sizeof a->note - k, "%s%s", k ? "; " : "",
			    cut ? "objdump's output cut short" : "");
			k = strlen(a->note);
			if (left > 0)
				snprintf(a->note + k, sizeof a->note - k, "%s%" PRIu64 " samples not "
				    "shown (past the instructions shown)", cut ? ": " : "", left);
		}
	}
	a->max_period = 0;
	a->hottest = SIZE_MAX;
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].samples > 0 && (a->hottest == SIZE_MAX ||
		    a->rows[i].period > a->max_period)) {
			a->max_period = a->rows[i].period;
			a->hottest = i;
		}
	a->nhits = 0;
	annotate_link(a);
	return a->have_code ? 0 : 1;
}
