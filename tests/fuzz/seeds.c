/*
 * seeds.c: the harnesses' seed inputs, made from the recordings in
 * tests/data (nothing of them is committed twice), for every harness:
 *  - load, record, symbolize, script: each NAME.data as it is, a
 *    directory recording as its files joined with FUZZ_SEP ('data', then
 *    data.N in numeric order);
 *  - feature: each feature section of each recording, as fuzz_feature
 *    reads it (bit and byte order, attr table, the section's bytes);
 *  - zstd: the payloads of zstd.data's COMPRESSED records, and the records
 *    of the other file-mode recordings compressed here, as fuzz_zstd reads
 *    them (a flag byte, payloads joined with FUZZ_SEP);
 *  - load, record, symbolize, script also: the byte-built recordings of
 *    tests/offcpu_synth.c (off-CPU time from SWITCH records and from
 *    perf record --off-cpu's two forms, damage included), which perf 6.1
 *    cannot record.
 *  - bundle: manifests ('m' first), and tars of a bundle byte-built here
 *    (a ustar header per entry: the manifest, plain.data, a directory, a
 *    build-id link) after another first byte.
 * seeds_main.c writes them to files (make fuzz), replay.c runs them.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "symbolize/hist_cache.h"
#include "tests/fuzz/fuzz.h"
#include "tests/helpers.h"
#include "tests/offcpu_synth.h"

const char *const fuzz_harnesses[FUZZ_NHARNESS] = {
	"load", "record", "feature", "zstd", "symbolize", "script", "export", "cache", "carve", "bundle",
};

/* Harnesses whose input is a whole recording (the others have seeds of their own form). */
static bool
whole_recording(const char *harness)
{
	return strcmp(harness, "feature") != 0 && strcmp(harness, "zstd") != 0 &&
	    strcmp(harness, "cache") != 0 && strcmp(harness, "bundle") != 0;
}

static seeds_fn emit;
static void *emit_arg;
static int status;

static void
fail(const char *what, const char *path)
{
	fprintf(stderr, "seeds: %s: %s: %s\n", path, what, strerror(errno));
	status = 1;
}

static void
write_seed(const char *harness, const char *name, const void *p, size_t n)
{
	emit(emit_arg, harness, name, p, n);
}

static bool
read_file(const char *path, struct pdbuf *b)
{
	FILE *fp = fopen(path, "rb");
	uint8_t chunk[65536];
	size_t n;

	if (fp == NULL) {
		fail("cannot open", path);
		return false;
	}
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		pd_bytes(b, chunk, n);
	fclose(fp);
	return true;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
data_n_cmp(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a + 5, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b + 5, NULL, 10);

	return x < y ? -1 : x > y;
}

/* A directory recording as one input: data, data.0, data.1, ... */
static bool
read_dir(const char *path, struct pdbuf *b)
{
	char *p, *names[256];
	size_t n = 0;
	DIR *d = opendir(path);
	struct dirent *de;
	bool ok;

	if (d == NULL) {
		fail("cannot open", path);
		return false;
	}
	while ((de = readdir(d)) != NULL && n < 256)
		if (strncmp(de->d_name, "data.", 5) == 0)
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof *names, data_n_cmp);
	if (asprintf(&p, "%s/data", path) < 0)
		abort();
	ok = read_file(p, b);
	free(p);
	for (size_t i = 0; i < n; i++) {
		if (asprintf(&p, "%s/%s", path, names[i]) < 0)
			abort();
		pd_bytes(b, FUZZ_SEP, FUZZ_SEP_LEN);
		ok = ok && read_file(p, b);
		free(p);
		free(names[i]);
	}
	return ok;
}

/* feature: every section present, as [bit, swap][attr table][bytes]. */
static void
feature_seeds(const char *name, const struct pdbuf *rec)
{
	struct session_mem parts[FUZZ_MAX_PARTS];
	size_t n = fuzz_split(rec->p, rec->len, parts, FUZZ_MAX_PARTS);
	struct perf_err err;
	struct session *s = session_open_mem(name, parts, n, NULL, &err);
	struct session_info si = session_info(s);

	if (s == NULL) {
		fprintf(stderr, "seeds: %s\n", err.msg);
		status = 1;
		return;
	}
	for (unsigned bit = 1; bit <= PF_FEAT_LAST_KNOWN; bit++) {
		const struct feat_sec *fs = &session_features(s)->sec[bit];
		const uint8_t *p;
		struct pdbuf b = { NULL, 0, 0, false };
		uint8_t head[2];
		char sname[256];

		if (!fs->present || fs->size == 0 || fs->size > (1u << 20))
			continue;
		p = session_bytes(s, fs->offset, fs->size);
		if (p == NULL)
			continue;
		head[0] = (uint8_t)(bit | (si.swap ? 0x40 : 0));
		head[1] = si.mode == SESSION_PIPE ? 0 : 2;
		pd_bytes(&b, head, 2);
		pd_bytes(&b, p, fs->size);
		snprintf(sname, sizeof sname, "%s-%s", name, feat_name(bit));
		write_seed("feature", sname, b.p, b.len);
		free(b.p);
	}
	session_close(s);
}

struct zseed {
	const struct session	*s;
	struct pdbuf		 out;
	int			 n;
};

static int
compressed_payload(void *arg, const struct rec *r, int depth)
{
	struct zseed *z = arg;

	if (depth > 0 || r->type != PF_REC_COMPRESSED || r->size <= 8)
		return 0;
	if (z->n++ > 0)
		pd_bytes(&z->out, FUZZ_SEP, FUZZ_SEP_LEN);
	pd_bytes(&z->out, r->p + 8, r->size - 8);
	return 0;
}

/* zstd: a recording's records compressed in frames of about 16 KiB (as
 * perf -z makes them), or its own COMPRESSED payloads if it has some. */
static void
zstd_seeds(const char *name, const struct pdbuf *rec, uint8_t flags)
{
	struct perf_err err;
	struct session_mem mem = { rec->p, rec->len };
	struct session *s;
	struct zseed z = { NULL, { NULL, 0, 0, false }, 0 };
	const struct sfile *f;
	char sname[256];

	if (memmem(rec->p, rec->len, FUZZ_SEP, FUZZ_SEP_LEN) != NULL)
		return;	/* a directory */
	s = session_open_mem(name, &mem, 1, NULL, &err);
	if (s == NULL || session_info(s).mode != SESSION_FILE) {
		session_close(s);
		return;
	}
	z.s = s;
	pd_bytes(&z.out, &flags, 1);
	if (session_info(s).nzchunks > 0) {
		session_walk(s, compressed_payload, &z);
	} else {
		uint8_t dst[65536];

		f = session_file(s, 0);
		for (uint64_t off = f->data_off; off < f->data_end; off += 16384) {
			size_t n = f->data_end - off < 16384 ? f->data_end - off : 16384;
			size_t c = ZSTD_compress(dst, sizeof dst, f->base + off, n, 1);

			if (ZSTD_isError(c)) {
				fprintf(stderr, "seeds: %s: zstd: %s\n", name, ZSTD_getErrorName(c));
				status = 1;
				break;
			}
			if (z.n++ > 0)
				pd_bytes(&z.out, FUZZ_SEP, FUZZ_SEP_LEN);
			pd_bytes(&z.out, dst, c);
		}
	}
	snprintf(sname, sizeof sname, "%s%s", name, flags & 1 ? "-v2" : "");
	if (z.n > 0)
		write_seed("zstd", sname, z.out.p, z.out.len);
	free(z.out.p);
	session_close(s);
}

/*
 * cache, a kept hist (flag bit 2): the recording, FUZZ_SEP, a flag byte
 * and the payload of its own hist (symbolize/hist_cache.h) for the flag's
 * options: as it is, and (bit 3) as zeros to xor onto it.
 */
static void
hist_cache_seeds(const char *name, const struct pdbuf *rec, const struct session *s)
{
	static const uint8_t flag_set[] = { 4, 4 | 16, 4 | 32, 4 | 8 | 16, 4 | 16 | 64,
		4 | 8 | 16 | 64 | 128 };
	struct sym_opts so;

	fuzz_sym_opts(&so);
	for (size_t i = 0; i < sizeof flag_set; i++) {
		uint8_t flags = flag_set[i];
		struct hist_opts o = { .event = -1, .max_stack = HIST_DEFAULT_MAX_STACK,
			.children = (flags & 16) != 0, .chain_root_first = (flags & 16) != 0 };
		struct symbolizer *z = symbolizer_new(s, &so);
		struct hist *h = hist_new(s, z, &o);
		struct pdbuf b = { NULL, 0, 0, false };
		char sname[256];
		size_t len;
		uint8_t *p;

		if (flags & 32) {
			o.keys[0] = HIST_KEY_COMM;
			o.keys[1] = HIST_KEY_TID;
			o.keys[2] = HIST_KEY_DSO;
			o.keys[3] = HIST_KEY_SYM;
			o.keys[4] = HIST_KEY_CPU;
			o.nkeys = 5;
			hist_free(h);
			h = hist_new(s, z, &o);
		}
		if (flags & 64) {	/* the browser's hist: its rows part */
			o.keys[0] = HIST_KEY_COMM;
			o.keys[1] = HIST_KEY_TID;
			o.keys[2] = HIST_KEY_DSO;
			o.keys[3] = HIST_KEY_SYM;
			o.nkeys = 4;
			o.paths = o.record_self = true;
			hist_free(h);
			h = hist_new(s, z, &o);
		}
		hist_add_session(h, NULL);
		p = hist_cache_pack(h, &len);
		if (p != NULL && !(flags & 8)) {
			pd_bytes(&b, rec->p, rec->len);
			pd_bytes(&b, FUZZ_SEP, FUZZ_SEP_LEN);
			pd_bytes(&b, &flags, 1);
			pd_bytes(&b, p, len);
		} else if (p != NULL) {
			pd_bytes(&b, rec->p, rec->len);
			pd_bytes(&b, FUZZ_SEP, FUZZ_SEP_LEN);
			pd_bytes(&b, &flags, 1);
			memset(p, 0, len);
			pd_bytes(&b, p, len < 256 ? len : 256);
		}
		if (p != NULL) {
			snprintf(sname, sizeof sname, "%s-h%u", name, flags);
			write_seed("cache", sname, b.p, b.len);
		}
		pd_free(&b);
		free(p);
		hist_free(h);
		symbolizer_free(z);
	}
}

/*
 * cache: a small file-mode recording, FUZZ_SEP, a flag byte and its own
 * cache entry, as session_cache_save writes it (a temporary directory),
 * once for each flag (checked, sealed, the whole open).
 */
static void
cache_seeds(const char *name, const struct pdbuf *rec)
{
	char dir[] = "/tmp/pn-seed-cache-XXXXXX", path[128];
	struct session_opts so = { .keep_going = true, .cache_dir = dir, .cache_version = "fuzz" };
	struct perf_err err;
	struct session *s;
	struct pdbuf img = { NULL, 0, 0, false };
	FILE *fp;

	if (rec->len > (1u << 20) || memmem(rec->p, rec->len, FUZZ_SEP, FUZZ_SEP_LEN) != NULL ||
	    mkdtemp(dir) == NULL)
		return;
	snprintf(path, sizeof path, "%s/rec.data", dir);
	if ((fp = fopen(path, "wb")) == NULL || fwrite(rec->p, 1, rec->len, fp) != rec->len) {
		if (fp != NULL)
			fclose(fp);
		goto out;
	}
	fclose(fp);
	s = session_open(path, &so, &err);
	if (s != NULL && session_cache_status(s).savable && session_cache_save(s, &err) == 0 &&
	    read_file(session_cache_status(s).path, &img)) {
		for (uint8_t flags = 0; flags < 3; flags++) {
			struct pdbuf b = { NULL, 0, 0, false };
			char sname[256];

			pd_bytes(&b, rec->p, rec->len);
			pd_bytes(&b, FUZZ_SEP, FUZZ_SEP_LEN);
			pd_bytes(&b, &flags, 1);
			pd_bytes(&b, img.p, img.len);
			snprintf(sname, sizeof sname, "%s-%u", name, flags);
			write_seed("cache", sname, b.p, b.len);
			pd_free(&b);
		}
		unlink(session_cache_status(s).path);
	}
	if (s != NULL)
		hist_cache_seeds(name, rec, s);
	session_close(s);
	free(img.p);
out:
	unlink(path);
	rmdir(dir);
}

/* The recordings of tests/offcpu_synth.c, whole and hostile, for the harnesses of whole files. */
static void
synth_seeds(void)
{
	static const char *const kinds[] = { "switch", "bpf-old", "bpf-new" };
	char name[64];

	for (int k = OSYN_SWITCH; k <= OSYN_BPF_NEW; k++) {
		for (int hostile = 0; hostile < 2; hostile++) {
			struct pdbuf b;

			osyn_build(&b, (enum osyn_kind)k, false, hostile);
			snprintf(name, sizeof name, "offcpu-%s%s.data", kinds[k], hostile ? "-bad" : "");
			for (size_t h = 0; h < FUZZ_NHARNESS; h++)
				if (whole_recording(fuzz_harnesses[h]))
					write_seed(fuzz_harnesses[h], name, b.p, b.len);
			pd_free(&b);
		}
	}
}

/* A merged recording (perfnav merge of fp.data and fork.data: an origins section to mutate). */
static void
merge_seeds(const char *datadir)
{
	const char *names[2] = { "fp.data", "fork.data" };
	struct merge_input in[2];
	struct session *s[2] = { NULL, NULL };
	struct merge_result res;
	struct perf_err err;
	char path[4096];
	int fd = memfd_create("seed-merge", 0);
	bool done = false;
	uint8_t *p;

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", datadir, names[i]);
		if ((s[i] = session_open(path, NULL, &err)) == NULL)
			goto out;
		in[i].s = s[i];
		in[i].name = names[i];
	}
	if (fd < 0 || merge_write(in, 2, fd, &res, &err) < 0)
		goto out;
	p = xmalloc(res.size);
	if (pread(fd, p, res.size, 0) == (ssize_t)res.size)
		for (size_t h = 0; h < FUZZ_NHARNESS; h++)
			if (whole_recording(fuzz_harnesses[h]))
				write_seed(fuzz_harnesses[h], "merged.data", p, res.size);
	free(p);
	done = true;
out:
	if (!done)
		fail("cannot merge fp.data and fork.data of", datadir);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < 2; i++)
		session_close(s[i]);
}

/* One ustar entry (type '0' file, '5' directory, '2' link) into b. */
static void
tar_entry(struct pdbuf *b, const char *name, char type, const char *link, const void *p,
    size_t n)
{
	uint8_t h[512];
	static const uint8_t zero[512];

	tar_header(h, name, type, type == '5' ? 0755 : 0644, n, link);
	pd_bytes(b, h, sizeof h);
	if (n > 0) {
		pd_bytes(b, p, n);
		pd_bytes(b, zero, (512 - n % 512) % 512);
	}
}

/* bundle: manifests and a tar of a small bundle. */
static void
bundle_seeds(const char *datadir)
{
	static const char man[] = "perfnav-bundle 1\ndata perf.data\nkallsyms kallsyms\n"
	    "created-by perfnav seeds\n";
	static const char ks[] = "ffffffff81000000 T _stext\nffffffff81000100 t next\n";
	static const uint8_t zero[1024];
	struct pdbuf m = { NULL, 0, 0, false }, t = { NULL, 0, 0, false }, rec = { NULL, 0, 0, false };
	char path[4096];

	pd_bytes(&m, "m", 1);
	pd_bytes(&m, man, sizeof man - 1);
	write_seed("bundle", "manifest", m.p, m.len);
	snprintf(path, sizeof path, "%s/plain.data", datadir);
	if (read_file(path, &rec)) {
		pd_bytes(&t, "t", 1);
		tar_entry(&t, "perfnav-bundle", '0', NULL, man, sizeof man - 1);
		tar_entry(&t, "perf.data", '0', NULL, rec.p, rec.len);
		tar_entry(&t, "kallsyms", '0', NULL, ks, sizeof ks - 1);
		tar_entry(&t, "tmp/x/d4aec36f57664181c7762a6851ef1dd35510a091/", '5', NULL, NULL, 0);
		tar_entry(&t, "tmp/x/d4aec36f57664181c7762a6851ef1dd35510a091/elf", '0', NULL, "\177ELF", 4);
		tar_entry(&t, ".build-id/d4/", '5', NULL, NULL, 0);
		tar_entry(&t, ".build-id/d4/aec36f57664181c7762a6851ef1dd35510a091", '2',
		    "../../tmp/x/d4aec36f57664181c7762a6851ef1dd35510a091", NULL, 0);
		pd_bytes(&t, zero, sizeof zero);
		write_seed("bundle", "plain.tar", t.p, t.len);
	}
	free(m.p);
	free(t.p);
	free(rec.p);
}

int
seeds_make(const char *datadir, seeds_fn fn, void *arg)
{
	DIR *d;
	struct dirent *de;
	char path[4096], **names = NULL;
	size_t n = 0;

	emit = fn;
	emit_arg = arg;
	status = 0;
	d = opendir(datadir);
	if (d == NULL) {
		fail("cannot open", datadir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len < 6 || strcmp(de->d_name + len - 5, ".data") != 0)
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		if (names == NULL)
			abort();
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct pdbuf b = { NULL, 0, 0, false };
		struct stat st;
		bool ok;

		snprintf(path, sizeof path, "%s/%s", datadir, names[i]);
		if (stat(path, &st) == 0) {
			ok = S_ISDIR(st.st_mode) ? read_dir(path, &b) : read_file(path, &b);
			if (ok && b.len > 0) {
				for (size_t k = 0; k < FUZZ_NHARNESS; k++)
					if (whole_recording(fuzz_harnesses[k]))
						write_seed(fuzz_harnesses[k], names[i], b.p, b.len);
				feature_seeds(names[i], &b);
				zstd_seeds(names[i], &b, 0);
				zstd_seeds(names[i], &b, 1);
				cache_seeds(names[i], &b);
			}
		}
		free(b.p);
		free(names[i]);
	}
	free(names);
	synth_seeds();
	merge_seeds(datadir);
	bundle_seeds(datadir);
	return status ? -1 : 0;
}
