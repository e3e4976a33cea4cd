/*
 * fuzz_cache.c: a cache entry (core/session_cache.h) as hostile input.
 * The input is a recording, FUZZ_SEP, a flag byte and a cache image.
 * The image is checked against the recording loaded from memory
 * (session_cache_check), with its checksums, or sealed first (flag bit 0)
 * so the checks behind them are reached too.  With flag bit 1 the whole
 * open is taken: the recording written to a file, the image given the
 * key of that file's own entry and sealed, put in its place in a
 * temporary cache directory, and the recording opened again: an entry
 * that passes is adopted, and every index entry, who it is about and the
 * threads are read back.
 *
 * With flag bit 2 the image is a kept hist's payload instead
 * (symbolize/hist_cache.h), unpacked over the recording and a symbolizer
 * of the fixtures' build-id cache with the options of bits 4 and 5
 * (children; keys comm,tid,dso,sym,cpu); with bit 3 it is first xored
 * onto the payload of the recording's own fresh hist, so the checks past
 * the head are reached (with bit 7, onto its end: the rows part).  With
 * bit 6 the hist is the browser's (keys comm,tid,dso,sym, call paths and
 * each sample's row: the payload's rows part).  A hist made is finished
 * and every row's keys read, with bit 6 its call paths, each sample's
 * entry and period and a recount too; a refusal must say where and what.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist_cache.h"
#include "tests/fuzz/fuzz.h"

/* struct chdr (core/session_cache.c): the key (device...content hash, version) is [32, 112). */
#define KEY_OFF	32
#define KEY_END	112

static char dir[64];

/* At exit: the temporary cache directory and what is in it. */
static void
remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(dir);
}

static void
write_file(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || (n > 0 && write(fd, p, n) != (ssize_t)n))
		abort();
	close(fd);
}

static uint8_t *
read_all(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *p;
	long len;

	if (fp == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	p = malloc(len > 0 ? (size_t)len : 1);
	if (p == NULL || fread(p, 1, (size_t)len, fp) != (size_t)len)
		abort();
	fclose(fp);
	*n = (size_t)len;
	return p;
}

static void
use_session(const struct session *s)
{
	const struct rec_index *ix = session_index(s);

	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		struct ent_who w = session_ent_who(s, i);
		struct rec r;

		if (session_rec(s, ent_loc(e), &r) == 0)
			fuzz_use(r.type + r.size);
		fuzz_use(e->time + (uint64_t)w.cpu + (uint64_t)w.pid + (uint64_t)w.tid);
	}
	fuzz_use(session_threads(s)->n + session_counts(s)->total);
}

/* The whole open, the image in the entry's place with the file's key. */
static void
open_with(const struct session_mem *rec, const uint8_t *img, size_t len)
{
	struct session_opts so = { .keep_going = true, .keep_who = len % 2 == 0,
		.cache_dir = dir, .cache_version = "fuzz" };
	char path[128];
	struct perf_err err;
	struct session *s;
	uint8_t *own, *mine;
	size_t nown;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof dir, "/tmp/pn-fuzz-cache-XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
		atexit(remove_dir);
	}
	snprintf(path, sizeof path, "%s/rec.data", dir);
	write_file(path, rec->base, rec->size);
	if ((s = session_open(path, &so, &err)) == NULL)
		return;
	if (session_cache_status(s).state == SESSION_CACHE_OFF) {
		session_close(s);
		return;
	}
	if (session_cache_status(s).savable && session_cache_save(s, &err) < 0)
		abort();
	own = read_all(session_cache_status(s).path, &nown);
	mine = malloc(len ? len : 1);
	memcpy(mine, img, len);
	if (own != NULL && nown >= KEY_END && len >= KEY_END)
		memcpy(mine + KEY_OFF, own + KEY_OFF, KEY_END - KEY_OFF);
	session_cache_seal(mine, len);
	write_file(session_cache_status(s).path, mine, len);
	session_close(s);
	free(own);
	free(mine);
	if ((s = session_open(path, &so, &err)) == NULL)
		abort();	/* an entry refused or not, the recording loads as before */
	use_session(s);
	session_close(s);
}

static struct hist_opts
hist_opts_of(uint8_t flags)
{
	struct hist_opts o = { .event = -1, .max_stack = HIST_DEFAULT_MAX_STACK };

	o.children = (flags & 16) != 0;
	o.chain_root_first = o.children;
	if (flags & 32) {
		const enum hist_key k[] = { HIST_KEY_COMM, HIST_KEY_TID, HIST_KEY_DSO, HIST_KEY_SYM,
			HIST_KEY_CPU };

		memcpy(o.keys, k, sizeof k);
		o.nkeys = 5;
	}
	if (flags & 64) {	/* the browser's (tui/symbols.c) */
		const enum hist_key k[] = { HIST_KEY_COMM, HIST_KEY_TID, HIST_KEY_DSO, HIST_KEY_SYM };

		memcpy(o.keys, k, sizeof k);
		o.nkeys = 4;
		o.paths = o.record_self = true;
	}
	return o;
}

/* The browser's reads: each event's call paths, each sample's row, a recount. */
static void
use_paths(struct hist *h, size_t npos)
{
	struct filter_range r = { 0, UINT64_MAX / 2 };
	struct hist_filter f = { .time = &r, .ntime = 1 };

	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		struct cpath_query q = { .ev = ev, .entry = CPATH_NONE };
		struct cpath *t = cpath_build(h, &q);

		for (size_t i = 0; t != NULL && i < cpath_count(t); i++)
			fuzz_use(cpath_node(t, (uint32_t)i)->total_period);
		cpath_free(t);
	}
	for (size_t p = 0; p < npos; p++) {
		uint32_t e = hist_sample_entry(h, p);

		fuzz_use(hist_sample_period(h, p) + (e != UINT32_MAX ? hist_entry_get(h, e)->period : 0));
	}
	if (hist_rescope(h, &f) == 0)
		hist_rescope(h, NULL);
}

static void
use_hist(struct hist *h, const struct session *s)
{
	char buf[512];

	hist_finish(h);
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const uint32_t *rows;
		size_t n = hist_rows(h, ev, 0.0, &rows);

		for (size_t i = 0; i < n; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);

			for (unsigned k = 0; k < hist_opts(h)->nkeys; k++)
				fuzz_use(strlen(hist_key_text(h, e, hist_opts(h)->keys[k], buf,
				    sizeof buf)));
			fuzz_use(e->acc_period + e->period);
		}
	}
	if (hist_opts(h)->paths)
		use_paths(h, session_index(s)->n);
}

/* The image as a hist payload over the recording (flag bits 2-5). */
static void
unpack_hist(const struct session_mem *rec, uint8_t flags, const uint8_t *img, size_t len)
{
	struct hist_opts o = hist_opts_of(flags);
	struct session *s = session_open_mem("fuzz", rec, 1, NULL, NULL);
	struct symbolizer *z;
	struct sym_opts so;
	struct perf_err err;
	struct hist *h;
	uint8_t *p = NULL;
	size_t n = len;

	if (s == NULL)
		return;
	fuzz_sym_opts(&so);
	z = symbolizer_new(s, &so);
	if (flags & 8) {
		h = hist_new(s, z, &o);
		hist_add_session(h, NULL);
		p = hist_cache_pack(h, &n);
		hist_free(h);
		for (size_t i = 0; p != NULL && i < len && i < n; i++)
			p[flags & 128 ? n - 1 - i : i] ^= img[i];
	}
	if (!(flags & 8) || p != NULL) {
		switch (hist_cache_unpack(s, z, &o, p != NULL ? p : img, n, &h, &err)) {
		case HIST_CACHE_OK:
			use_hist(h, s);
			hist_free(h);
			break;
		case HIST_CACHE_REFUSED:
			if (err.msg[0] == '\0' || err.offset == PERF_ERR_OFF_NONE)
				abort();	/* a refusal says where and what */
			break;
		case HIST_CACHE_STALE:
			break;
		}
	}
	free(p);
	symbolizer_free(z);
	session_close(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_mem parts[2];
	struct perf_err err;
	struct session *s;
	uint8_t *img, flags;
	size_t len;

	if (fuzz_split(data, size, parts, 2) != 2 || parts[1].size < 1)
		return 0;
	flags = *(const uint8_t *)parts[1].base;
	len = parts[1].size - 1;
	if (flags & 4) {
		unpack_hist(&parts[0], flags, (const uint8_t *)parts[1].base + 1, len);
		return 0;
	}
	img = malloc(len ? len : 1);
	memcpy(img, (const uint8_t *)parts[1].base + 1, len);
	if ((s = session_open_mem("fuzz", parts, 1, NULL, &err)) != NULL) {
		if (flags & 1)
			session_cache_seal(img, len);
		if (session_cache_check(s, img, len, true, &err) < 0 &&
		    (err.msg[0] == '\0' || err.offset == PERF_ERR_OFF_NONE))
			abort();	/* a refusal says where and what */
		session_close(s);
	}
	if (flags & 2)
		open_with(&parts[0], (const uint8_t *)parts[1].base + 1, len);
	free(img);
	return 0;
}
