#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

#ifndef FUZZ_DATA	/* the fuzz programs have tests/fuzz/fuzz.c's */
/* LeakSanitizer, when linked: libtraceevent keeps what it allocated for a
 * format it gives up on (a few bytes per garbled format, once per handle,
 * found by the script harness); not ours to free. */
const char *__lsan_default_suppressions(void);

const char *
__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}
#endif

struct synth_layout synth_layout;

static void
need(struct pdbuf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	while (b->cap < b->len + n)
		b->cap = b->cap ? b->cap * 2 : 4096;
	b->p = realloc(b->p, b->cap);
	if (b->p == NULL)
		abort();
}

void
pd_bytes(struct pdbuf *b, const void *p, size_t n)
{
	need(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
pd_zero(struct pdbuf *b, size_t n)
{
	need(b, n);
	memset(b->p + b->len, 0, n);
	b->len += n;
}

void
pd_u8(struct pdbuf *b, uint8_t v)
{
	pd_bytes(b, &v, 1);
}

void
pd_u16(struct pdbuf *b, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	pd_bytes(b, &v, 2);
}

void
pd_u32(struct pdbuf *b, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	pd_bytes(b, &v, 4);
}

void
pd_u64(struct pdbuf *b, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	pd_bytes(b, &v, 8);
}

void
pd_put64(struct pdbuf *b, size_t at, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	memcpy(b->p + at, &v, 8);
}

void
pd_put32(struct pdbuf *b, size_t at, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	memcpy(b->p + at, &v, 4);
}

void
pd_put16(struct pdbuf *b, size_t at, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	memcpy(b->p + at, &v, 2);
}

void
pd_feat_str(struct pdbuf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 7) & ~(size_t)7;

	pd_u32(b, (uint32_t)padded);
	pd_bytes(b, s, n - 1);
	pd_zero(b, padded - (n - 1));
}

void
pd_str8(struct pdbuf *b, const char *s)
{
	size_t n = strlen(s) + 1, pad = (8 - n % 8) % 8;

	pd_bytes(b, s, n);
	pd_zero(b, pad);
}

size_t
pd_rec_begin(struct pdbuf *b, uint32_t type, uint16_t misc)
{
	size_t start = b->len;

	pd_u32(b, type);
	pd_u16(b, misc);
	pd_u16(b, 0);
	return start;
}

void
pd_rec_end(struct pdbuf *b, size_t start)
{
	pd_put16(b, start + 6, (uint16_t)(b->len - start));
}

static uint8_t
mirror(uint8_t v)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (v & (1u << i))
			r |= (uint8_t)(0x80u >> i);
	return r;
}

void
pd_attr(struct pdbuf *b, uint32_t size, uint32_t type, uint64_t config, uint64_t period,
    uint64_t sample_type, uint64_t read_format, uint64_t flags)
{
	size_t start = b->len;
	uint8_t fb[8];

	pd_u32(b, type);
	pd_u32(b, size);
	pd_u64(b, config);
	pd_u64(b, period);
	pd_u64(b, sample_type);
	pd_u64(b, read_format);
	/* Bitfield word: a big-endian compiler fills each byte from its top bit. */
	memcpy(fb, &flags, 8);	/* host (little-endian) layout */
	if (b->swap)
		for (int i = 0; i < 8; i++)
			fb[i] = mirror(fb[i]);
	pd_bytes(b, fb, 8);
	pd_zero(b, size - (b->len - start));
}

void
pd_free(struct pdbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* Bits of the attr bitfield word (host order). */
#define ATTR_DISABLED		(1ull << 0)
#define ATTR_INHERIT		(1ull << 1)
#define ATTR_MMAP		(1ull << 8)
#define ATTR_COMM		(1ull << 9)
#define ATTR_FREQ		(1ull << 10)
#define ATTR_SAMPLE_ID_ALL	(1ull << 18)
#define ATTR_MMAP2		(1ull << 23)

#define ST_SYNTH (1u << 0 | 1u << 1 | 1u << 2 | 1u << 6 | 1u << 7 | 1u << 8)
/* The attr flags of the synthetic recordings' one attr. */
#define SYNTH_ATTR_FLAGS (ATTR_DISABLED | ATTR_INHERIT | ATTR_MMAP | ATTR_COMM | ATTR_FREQ | \
	ATTR_SAMPLE_ID_ALL | ATTR_MMAP2)

/* sample_id_all trailer of the synthetic attr: TID, TIME, ID, CPU. */
static void
trailer(struct pdbuf *b, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	pd_u32(b, pid);
	pd_u32(b, tid);
	pd_u64(b, time);
	pd_u64(b, 100);
	pd_u32(b, cpu);
	pd_u32(b, 0);
}

size_t
synth_head_with(struct pdbuf *b, bool swap, uint64_t sample_type, uint64_t flags)
{
	const uint32_t attr_size = 128;
	size_t attrs_off, ids_off;

	memset(b, 0, sizeof *b);
	b->swap = swap;
	/* Header: the magic is the u64 "PERFILE2" in the file's byte order. */
	pd_u64(b, 0x32454c4946524550ULL);
	pd_u64(b, 104);
	pd_u64(b, attr_size + 16);
	pd_zero(b, 104 - 24);
	ids_off = b->len;
	pd_u64(b, 100);
	pd_u64(b, 101);
	attrs_off = b->len;
	pd_attr(b, attr_size, 1 /* SOFTWARE */, 0 /* cpu-clock */, 4000, sample_type, 0, flags);
	pd_u64(b, ids_off);
	pd_u64(b, 16);
	pd_put64(b, 24, attrs_off);
	pd_put64(b, 32, attr_size + 16);
	return b->len;
}

/* synth_head_with the synthetic recordings' own attr (ST_SYNTH, sample_id_all). */
static size_t
synth_head(struct pdbuf *b, bool swap)
{
	return synth_head_with(b, swap, ST_SYNTH, SYNTH_ATTR_FLAGS);
}

char *
cmd_output(const char *cmd, size_t *len, int *status)
{
	FILE *fp = popen(cmd, "r");
	char *out = NULL;
	size_t n = 0, cap = 0, k;

	if (fp == NULL)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			out = realloc(out, cap + 1);
			if (out == NULL)
				abort();
		}
		k = fread(out + n, 1, cap - n, fp);
		if (k == 0)
			break;
		n += k;
	}
	out[n] = '\0';
	*status = pclose(fp);
	if (len != NULL)
		*len = n;
	return out;
}

void
synth_file(struct pdbuf *b, bool swap, int nsamples)
{
	size_t data_off, r, feat_tab;
	size_t nrec = 0;

	data_off = synth_head(b, swap);
	r = pd_rec_begin(b, 3 /* COMM */, 0);
	pd_u32(b, 42);
	pd_u32(b, 42);
	pd_str8(b, "synth");
	trailer(b, 42, 42, 900, 0);
	pd_rec_end(b, r);
	nrec++;
	r = pd_rec_begin(b, 10 /* MMAP2 */, 2 /* USER */);
	pd_u32(b, 42);
	pd_u32(b, 42);
	pd_u64(b, 0x400000);
	pd_u64(b, 0x1000);
	pd_u64(b, 0);
	pd_u32(b, 8);
	pd_u32(b, 1);
	pd_u64(b, 1234);
	pd_u64(b, 0);
	pd_u32(b, 5);
	pd_u32(b, 2);
	pd_str8(b, "/usr/bin/synth");
	trailer(b, 42, 42, 950, 0);
	pd_rec_end(b, r);
	nrec++;
	synth_layout.first_sample = b->len;
	for (int i = 0; i < nsamples; i++) {
		/* Inside a round of 4, times go 2,1,4,3 steps: out of order. */
		static const int perm[4] = { 1, 0, 3, 2 };
		int k = (i / 4) * 4 + perm[i % 4];
		uint64_t t = 1000 + 10 * (uint64_t)(k < nsamples ? k : i);

		r = pd_rec_begin(b, 9 /* SAMPLE */, 2);
		pd_u64(b, 0x400100 + (uint64_t)i);	/* IP */
		pd_u32(b, 42);				/* TID */
		pd_u32(b, 42);
		pd_u64(b, t);				/* TIME */
		pd_u64(b, i % 2 ? 101 : 100);		/* ID */
		pd_u32(b, (uint32_t)(i % 2));		/* CPU */
		pd_u32(b, 0);
		pd_u64(b, 4000);			/* PERIOD */
		pd_rec_end(b, r);
		nrec++;
		if (i % 4 == 3) {
			r = pd_rec_begin(b, 68 /* FINISHED_ROUND */, 0);
			pd_rec_end(b, r);
			nrec++;
		}
	}
	r = pd_rec_begin(b, 4 /* EXIT */, 0);
	pd_u32(b, 42);
	pd_u32(b, 1);
	pd_u32(b, 42);
	pd_u32(b, 1);
	pd_u64(b, 1000 + 10 * (uint64_t)nsamples);
	trailer(b, 42, 42, 1000 + 10 * (uint64_t)nsamples, 0);
	pd_rec_end(b, r);
	nrec++;
	/* feature table: HOSTNAME (bit 3), OSRELEASE (bit 4) */
	feat_tab = b->len;
	pd_zero(b, 32);
	{
		size_t h = b->len;

		pd_u32(b, 8);
		pd_bytes(b, "synthhh", 8);
		pd_put64(b, feat_tab, h);
		pd_put64(b, feat_tab + 8, b->len - h);
		h = b->len;
		pd_u32(b, 8);
		pd_bytes(b, "6.1.0\0\0", 8);
		pd_put64(b, feat_tab + 16, h);
		pd_put64(b, feat_tab + 24, b->len - h);
	}
	/* patch header */
	pd_put64(b, 40, data_off);
	pd_put64(b, 48, feat_tab - data_off);
	pd_put64(b, 72, (1ull << 3) | (1ull << 4));
	synth_layout.data_off = data_off;
	synth_layout.data_size = feat_tab - data_off;
	synth_layout.nrecords = nrec;
	synth_layout.feat_table = feat_tab;
}

char *
synth_long_name(size_t len)
{
	size_t levels = len / 7 + 1, cap = levels * 7 + 64, n = 0;
	char *s = malloc(cap);

	if (s == NULL)
		abort();
	n += (size_t)snprintf(s + n, cap - n, "ns::");
	for (size_t i = 0; i < levels; i++)
		n += (size_t)snprintf(s + n, cap - n, "T%04zu<", i % 10000);
	n += (size_t)snprintf(s + n, cap - n, "int");
	for (size_t i = 0; i < levels; i++)
		s[n++] = '>';
	snprintf(s + n, cap - n, "::operator()_end");
	return s;
}

char *
synth_jit_file(const char *sym, char *mapdir, int nsamples)
{
	static const struct synth_names nm = {
		.comm = "longjit", .dso = "/nonexistent/d.so", .event = "cpu-clock",
		.hostname = "h", .cmdline_arg = "a",
	};
	struct pdbuf b;
	char map[128];
	char *path;
	FILE *fp;

	synth_names_file(&b, &nm, nsamples);
	path = tmp_write("jit", b.p, b.len);
	pd_free(&b);
	if (mkdtemp(mapdir) == NULL)
		abort();
	snprintf(map, sizeof map, "%s/perf-42.map", mapdir);
	fp = fopen(map, "w");
	if (fp == NULL)
		abort();
	fprintf(fp, "%llx 100 %s\n", SYNTH_JIT_ADDR, sym);
	fclose(fp);
	return path;
}

void
synth_jit_remove(char *path, const char *mapdir)
{
	char map[128];

	snprintf(map, sizeof map, "%s/perf-42.map", mapdir);
	unlink(map);
	rmdir(mapdir);
	unlink(path);
	free(path);
}

void
synth_names_file(struct pdbuf *b, const struct synth_names *nm, int nsamples)
{
	static const unsigned bits[] = { 3 /* HOSTNAME */, 4 /* OSRELEASE */, 11 /* CMDLINE */,
	    12 /* EVENT_DESC */ };
	const size_t nbits = sizeof bits / sizeof bits[0];
	const uint32_t attr_size = 128;	/* as synth_head writes it */
	size_t data_off, r, feat_tab;
	uint64_t featmask = 0;

	data_off = synth_head(b, false);
	r = pd_rec_begin(b, 3 /* COMM */, 0);
	pd_u32(b, 42);
	pd_u32(b, 42);
	pd_str8(b, nm->comm);
	trailer(b, 42, 42, 900, 0);
	pd_rec_end(b, r);
	/* the DSO, then an anonymous (JIT) mapping */
	for (int m = 0; m < 2; m++) {
		r = pd_rec_begin(b, 10 /* MMAP2 */, 2 /* USER */);
		pd_u32(b, 42);
		pd_u32(b, 42);
		pd_u64(b, m ? SYNTH_JIT_ADDR : 0x400000);
		pd_u64(b, 0x1000);
		pd_u64(b, 0);
		pd_u32(b, m ? 0 : 8);
		pd_u32(b, m ? 0 : 1);
		pd_u64(b, m ? 0 : 1234);
		pd_u64(b, 0);
		pd_u32(b, 7);	/* PROT_READ | PROT_WRITE | PROT_EXEC */
		pd_u32(b, 2);	/* MAP_PRIVATE */
		pd_str8(b, m ? "//anon" : nm->dso);
		trailer(b, 42, 42, 950, 0);
		pd_rec_end(b, r);
	}
	for (int i = 0; i < nsamples; i++) {
		r = pd_rec_begin(b, 9 /* SAMPLE */, 2);
		pd_u64(b, nm->nips > 0 ? nm->ips[i % nm->nips] :
		    i % 2 ? SYNTH_JIT_ADDR + 0x10 : 0x400100);		/* IP */
		pd_u32(b, 42);						/* TID */
		pd_u32(b, 42);
		pd_u64(b, 1000 + 10 * (uint64_t)i);			/* TIME */
		pd_u64(b, 100);						/* ID */
		pd_u32(b, 0);						/* CPU */
		pd_u32(b, 0);
		pd_u64(b, 4000);					/* PERIOD */
		pd_rec_end(b, r);
	}
	/* features: a table of (offset, size) per bit, then the sections */
	feat_tab = b->len;
	pd_zero(b, 16 * nbits);
	for (size_t k = 0; k < nbits; k++) {
		size_t h = b->len;

		switch (bits[k]) {
		case 3:
			pd_feat_str(b, nm->hostname);
			break;
		case 4:
			pd_feat_str(b, "6.1.0");
			break;
		case 11:
			pd_u32(b, 2);
			pd_feat_str(b, "perf");
			pd_feat_str(b, nm->cmdline_arg);
			break;
		case 12:
			pd_u32(b, 1);
			pd_u32(b, attr_size);
			pd_attr(b, attr_size, 1, 0, 4000, ST_SYNTH, 0, SYNTH_ATTR_FLAGS);
			pd_u32(b, 2);
			pd_feat_str(b, nm->event);
			pd_u64(b, 100);
			pd_u64(b, 101);
			break;
		}
		pd_put64(b, feat_tab + 16 * k, h);
		pd_put64(b, feat_tab + 16 * k + 8, b->len - h);
		featmask |= 1ull << bits[k];
	}
	pd_put64(b, 40, data_off);
	pd_put64(b, 48, feat_tab - data_off);
	pd_put64(b, 72, featmask);
}

char *
tmp_write(const char *tag, const void *p, size_t n)
{
	char *path;
	int fd;
	FILE *fp;

	if (asprintf(&path, "/tmp/perfnav-test-%s-XXXXXX", tag) < 0)
		abort();
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	fp = fdopen(fd, "wb");
	if (fp == NULL)
		abort();
	if (n > 0 && fwrite(p, 1, n, fp) != n)
		abort();
	fclose(fp);
	return path;
}

char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (fp == NULL)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
			if (buf == NULL)
				abort();
		}
		r = fread(buf + n, 1, cap - n, fp);
		if (r == 0)
			break;
		n += r;
	}
	fclose(fp);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

const char *
test_data(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s/%s", TEST_DATA, name);
	return buf;
}

bool
file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

struct session *
open_fixture(const char *name)
{
	char path[4096];
	struct perf_err err;
	struct session *s;

	snprintf(path, sizeof path, "%s/%s", TEST_DATA, name);
	s = session_open(path, NULL, &err);
	if (s == NULL) {
		/* helpers.c is linked without Criterion too (the fuzz replays): a crash fails the test */
		fprintf(stderr, "%s: %s\n", path, err.msg);
		abort();
	}
	return s;
}

void
cache_fixture(char *dir, char *bid, size_t n, char **rec, struct sym_opts *so,
    const char *fixture, const char *tag)
{
	char cmd[1024], *buf;
	size_t len;

	snprintf(dir, n, "/tmp/pn-%s-XXXXXX", tag);
	snprintf(bid, n, "/tmp/pn-%s-bid-XXXXXX", tag);
	if (mkdtemp(dir) == NULL || mkdtemp(bid) == NULL)
		abort();
	snprintf(cmd, sizeof cmd, "cp -a %s/buildid/. %s/", TEST_DATA, bid);
	if (system(cmd) != 0)
		abort();
	buf = slurp(test_data(fixture), &len);
	if (buf == NULL)
		abort();
	*rec = tmp_write(tag, buf, len);
	free(buf);
	memset(so, 0, sizeof *so);
	so->buildid_dir = bid;
	so->kallsyms = "/dev/null";
	so->no_debuginfod = true;
}

void
cache_fixture_free(const char *dir, const char *bid, char *rec)
{
	char cmd[256];

	unlink(rec);
	free(rec);
	snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s %s", dir, dir, bid);
	if (system(cmd) != 0)
		abort();
}

struct session *
session_of_buf(const char *name, const void *p, size_t n)
{
	struct session_mem m = { p, n };
	struct session_opts so = { .keep_going = true };
	struct perf_err err;
	struct session *s = session_open_mem(name, &m, 1, &so, &err);

	if (s == NULL) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		abort();
	}
	return s;
}

struct session *
merged_fixtures(const char *const *names, size_t n, void **bytes)
{
	struct merge_input in[8];
	char paths[8][4096];
	struct merge_result res;
	struct perf_err err;
	int fd = memfd_create("merged", 0);
	uint8_t *p;

	if (fd < 0 || n > 8)
		abort();
	for (size_t i = 0; i < n; i++) {
		snprintf(paths[i], sizeof paths[i], "%s", test_data(names[i]));
		in[i].s = session_of_path(paths[i]);
		in[i].name = paths[i];
	}
	if (merge_write(in, n, fd, &res, &err) < 0) {
		fprintf(stderr, "merge: %s\n", err.msg);
		abort();
	}
	for (size_t i = 0; i < n; i++)
		session_close((struct session *)in[i].s);
	p = malloc(res.size ? res.size : 1);
	if (p == NULL || pread(fd, p, res.size, 0) != (ssize_t)res.size)
		abort();
	close(fd);
	*bytes = p;
	return session_of_buf("merged", p, res.size);
}

struct session *
session_of_path(const char *path)
{
	struct session_opts so = { .keep_going = true };
	struct perf_err err;
	struct session *s = session_open(path, &so, &err);

	if (s == NULL) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		abort();
	}
	return s;
}

void
tar_header(uint8_t h[512], const char *name, char type, unsigned mode, uint64_t size,
    const char *link)
{
	unsigned sum = 0;

	memset(h, 0, 512);
	snprintf((char *)h, 100, "%s", name);
	snprintf((char *)h + 100, 8, "%07o", mode);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	if (size < (UINT64_C(1) << 33)) {
		snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)size);
	} else {
		h[124] = 0x80;
		for (int i = 0; i < 8; i++)
			h[135 - i] = (uint8_t)(size >> (8 * i));
	}
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (uint8_t)type;
	if (link != NULL)
		snprintf((char *)h + 157, 100, "%s", link);
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

int
dir_files_with(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += part != NULL ? strstr(e->d_name, part) != NULL :
		    strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}
