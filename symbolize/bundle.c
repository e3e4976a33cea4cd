/*
 * bundle.c: writing a bundle (bundle.h): every sample walked once to find
 * the DSOs and symbols it hits (its own ip, its chain unwound and expanded
 * as perfnav's views take it, its data address, its branch stack), then
 * the files those DSOs' symbols came from copied into perf's build-id cache
 * layout, trimmed (elftrim.c), and the hit lines of kallsyms and of the
 * perf-PID.map files.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/safefile.h"
#include "symbolize/bundle.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symsrc.h"
#include "symbolize/symtab.h"

#define BUNDLE_FRAMES	4096

/* What the samples hit. */
struct hits {
	struct symbolizer	*z;
	size_t			 ndsos;
	bool			*dso;		/* per DSO: a frame in it */
	struct hmap		*starts;	/* per DSO: the start addresses of the symbols hit */
	struct hmap		 kstarts;	/* of the kernel's and the modules' symbols hit */
};

static void
hit(struct hits *h, const struct frame *f)
{
	uint32_t d;
	uint64_t start, end;

	if (f->dso == DSO_NONE || f->dso >= h->ndsos)
		return;
	h->dso[f->dso] = true;
	if (f->sym == SYM_NONE || symbolizer_sym_range(h->z, f->sym, &d, &start, &end) < 0 ||
	    d >= h->ndsos)
		return;
	hmap_set(&h->starts[d], start, 1);
	if (f->kernel)
		hmap_set(&h->kstarts, start, 1);
}

/* One address of a sample (a data address, a branch's ends). */
static void
hit_addr(struct hits *h, const struct sample *smp, uint8_t cpumode, uint64_t addr)
{
	struct frame f;
	bool tid = (smp->sample_type & PERF_SAMPLE_TID) != 0;

	symbolizer_resolve(h->z, tid ? (int32_t)smp->pid : -1, tid ? (int32_t)smp->tid : -1,
	    smp->time, cpumode, addr, &f);
	hit(h, &f);
}

static void
hits_walk(struct hits *h, const struct session *s, struct frame *buf)
{
	const struct rec_index *ix = session_index(s);

	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *ent = index_ent(ix, i);
		struct sample smp;
		struct frame self;
		struct rec r;
		uint8_t cpumode;
		size_t n;

		if (ent_type(ent) != PF_REC_SAMPLE || session_rec(s, ent_loc(ent), &r) < 0)
			continue;
		if (symbolizer_resolve_self(h->z, &r, &smp, &self) == 0)
			hit(h, &self);
		if (record_decode_sample(session_attrs(s), &r, &smp, NULL) < 0)
			continue;
		cpumode = r.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		n = symbolizer_callchain(h->z, &smp, r.misc, buf, BUNDLE_FRAMES, 0);
		for (size_t k = 0; k < n; k++) {
			hit(h, &buf[k]);
			/* the frames' source lines open each DSO's DWARF */
			(void)symbolizer_srcline(h->z, &buf[k]);
		}
		if (smp.sample_type & PERF_SAMPLE_ADDR)
			hit_addr(h, &smp, cpumode, smp.addr);
		for (uint64_t k = 0; k < smp.branch_nr; k++) {
			struct branch_ent b = sample_branch(&smp, k);

			hit_addr(h, &smp, cpumode, b.from);
			hit_addr(h, &smp, cpumode, b.to);
		}
	}
}

/* ---- files ---- */

/* mkdir -p of path (below an existing root). */
static int
mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* Is a DSO's name one to make directories of: absolute, no "", "." or
 * ".." component, printable, not too long? */
static bool
name_ok(const char *name)
{
	size_t len = strlen(name);

	if (strcmp(name, "[vdso]") == 0)
		return true;
	if (name[0] != '/' || len > 1024 || strstr(name, "//") != NULL ||
	    strstr(name, "/./") != NULL || strstr(name, "/../") != NULL || name[len - 1] == '/' ||
	    (len >= 2 && strcmp(name + len - 2, "/.") == 0) ||
	    (len >= 3 && strcmp(name + len - 3, "/..") == 0))
		return false;
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

static void
hex_of(const uint8_t *id, size_t n, char *hex)
{
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * n] = '\0';
}

/* Copy from into to (trimmed unless whole) unless to is there; sizes into st. */
static int
put_elf(const char *from, const char *to, bool whole, struct bundle_stats *st,
    struct perf_err *err)
{
	struct stat sb;
	uint64_t kept = 0;

	if (lstat(to, &sb) == 0)
		return 0;
	if (elftrim_copy(from, to, whole, &kept, err) < 0)
		return -1;
	if (stat(from, &sb) == 0)
		st->src_bytes += (uint64_t)sb.st_size;
	st->kept_bytes += kept;
	st->trimmed += !whole && kept < (uint64_t)sb.st_size;
	return 0;
}

/* The running vdso's image into path (the symbols came from it). */
static int
put_vdso_mem(const char *path, struct bundle_stats *st, struct perf_err *err)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	size_t size;
	int fd;

	if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 :
		    perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", path,
		    strerror(errno));
	if (write(fd, eh, size) != (ssize_t)size) {
		close(fd);
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot write: %s", path,
		    strerror(errno));
	}
	close(fd);
	st->src_bytes += size;
	st->kept_bytes += size;
	return 0;
}

/* dir/.build-id/xx/rest -> ../../NAME/HEX, as perf's cache links it. */
static void
put_link(const char *dir, const char *hex, const char *name)
{
	char link[PATH_MAX], target[PATH_MAX];

	dso_path(link, sizeof link, "%s/.build-id/%.2s", dir, hex);
	if (mkdirs(link) < 0)
		return;
	dso_path(link, sizeof link, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	dso_path(target, sizeof target, "../..%s%s/%s", name[0] == '/' ? "" : "/", name, hex);
	if (symlink(target, link) < 0 && errno != EEXIST)
		return;
}

/* The DWARF's .gnu_debugaltlink file, at dir/.build-id/xx/rest.debug. */
static int
put_alt(const char *dir, const char *alt, bool whole, struct bundle_stats *st,
    struct perf_err *err)
{
	uint8_t id[20];
	char hex[41], p[PATH_MAX];
	int n = elfsym_build_id(alt, id);

	if (n <= 0)
		return 0;
	hex_of(id, (size_t)n, hex);
	dso_path(p, sizeof p, "%s/.build-id/%.2s", dir, hex);
	if (mkdirs(p) < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", p,
		    strerror(errno));
	dso_path(p, sizeof p, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
	return put_elf(alt, p, whole, st, err);
}

/* The files of user DSO or vdso d. */
static int
put_dso(struct symbolizer *z, uint32_t d, const char *dir, bool whole, struct bundle_stats *st,
    struct perf_err *err)
{
	struct sym_dso_files f;
	const char *name = symbolizer_dso_long(z, d);
	char hex[41], p[PATH_MAX], ent[PATH_MAX];
	uint8_t id[20];
	size_t n;

	symbolizer_dso_files(z, d, &f);
	n = symbolizer_dso_build_id(z, d, id);
	if (n == 0 && (f.runfile != NULL || f.symfile != NULL)) {
		int k = elfsym_build_id(f.runfile ? f.runfile : f.symfile, id);

		n = k > 0 ? (size_t)k : 0;
	}
	if (n == 0 || (f.symfile == NULL && f.runfile == NULL && !f.vdso)) {
		if (st->missing < sizeof st->missing_names / sizeof st->missing_names[0])
			st->missing_names[st->missing] = name;
		st->missing++;
		return 0;
	}
	hex_of(id, n, hex);
	if (name_ok(name)) {
		dso_path(ent, sizeof ent, "%s%s%s/%s", dir, name[0] == '/' ? "" : "/", name, hex);
		put_link(dir, hex, name);
	} else {
		/* a name not to make directories of: the entry is the link's place */
		dso_path(ent, sizeof ent, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	}
	if (mkdirs(ent) < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", ent,
		    strerror(errno));
	st->dsos++;
	if (f.vdso) {
		dso_path(p, sizeof p, "%s/vdso", ent);
		return f.runfile ? put_elf(f.runfile, p, true, st, err) :
		    put_vdso_mem(p, st, err);
	}
	if (f.runfile != NULL) {
		dso_path(p, sizeof p, "%s/elf", ent);
		if (put_elf(f.runfile, p, whole, st, err) < 0)
			return -1;
	}
	if (f.symfile != NULL && (f.runfile == NULL || strcmp(f.symfile, f.runfile) != 0)) {
		dso_path(p, sizeof p, "%s/%s", ent, f.runfile ? "debug" : "elf");
		if (put_elf(f.symfile, p, whole, st, err) < 0)
			return -1;
	}
	return f.altfile ? put_alt(dir, f.altfile, whole, st, err) : 0;
}

/* ---- line files ---- */

static const struct safefile_rule lines_rule = {
	.what = "a symbol file",
	.cap = SAFEFILE_CAP_JIT_MAP,
};

/*
 * Copy the lines of from whose hex address (the first word) is in starts,
 * and after each the next line of the same module tag at another address
 * (it ends the symbol, as symtab_fixup takes ends) into the new file to.
 * kallsyms: only its symbol types end a symbol.  The lines kept; -1.
 */
static long
put_lines(const char *from, const char *to, const struct hmap *starts, bool kallsyms,
    struct perf_err *err)
{
	struct safefile_lines lr;
	struct safefile_note sn;
	const char *line;
	size_t len;
	char tag[256] = "";
	uint64_t last = 0;
	bool pending = false;
	long kept = 0;
	int in = safefile_open(from, &lines_rule, NULL, &sn);
	FILE *out;

	if (in < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: %s", from,
		    sn.why[0] ? sn.why : "cannot open");
	out = fopen(to, "wx");
	if (out == NULL) {
		close(in);
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", to,
		    strerror(errno));
	}
	safefile_lines_init(&lr, in, 64 * 1024, lines_rule.cap);
	while (safefile_lines_next(&lr, &line, &len) > 0) {
		char *end;
		uint64_t addr = strtoull(line, &end, 16);
		const char *t = strchr(line, '\t');
		char ltag[256];
		bool sym = end != line && (*end == ' ' || *end == '\t');

		if (!sym)
			continue;
		if (kallsyms && (end[1] == '\0' || strchr("TtWwDdBb", end[1]) == NULL))
			continue;
		snprintf(ltag, sizeof ltag, "%s", t ? t : "");
		if (hmap_get(starts, addr) != HMAP_NONE) {
			fprintf(out, "%s\n", line);
			kept++;
			pending = true;
			last = addr;
			snprintf(tag, sizeof tag, "%s", ltag);
		} else if (pending && addr != last && strcmp(ltag, tag) == 0) {
			fprintf(out, "%s\n", line);
			kept++;
			pending = false;
		}
	}
	safefile_lines_free(&lr);
	close(in);
	if (fclose(out) != 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot write", to);
	return kept;
}

/* kallsyms and the perf-PID.map files of the DSOs hit. */
static int
put_line_files(struct hits *h, const char *dir, struct bundle_stats *st, struct perf_err *err)
{
	const char *kfrom = NULL;
	char p[PATH_MAX];
	long n;

	for (uint32_t d = 0; d < h->ndsos; d++) {
		struct sym_dso_files f;
		const char *base;

		if (!h->dso[d])
			continue;
		symbolizer_dso_files(h->z, d, &f);
		if (f.kernel && f.symfile != NULL && kfrom == NULL)
			kfrom = f.symfile;
		if (!f.jit || f.symfile == NULL)
			continue;
		base = strrchr(f.symfile, '/');
		dso_path(p, sizeof p, "%s/%s", dir, base ? base + 1 : f.symfile);
		n = put_lines(f.symfile, p, &h->starts[d], false, err);
		if (n < 0)
			return -1;
		st->jit_lines += (uint64_t)n;
	}
	if (kfrom == NULL)
		return 0;
	dso_path(p, sizeof p, "%s/kallsyms", dir);
	n = put_lines(kfrom, p, &h->kstarts, true, err);
	if (n < 0)
		return -1;
	st->ksym_lines = (uint64_t)n;
	return 0;
}

/* ---- the recording and the manifest ---- */

static int
copy_file(const char *from, const char *to, struct perf_err *err)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t r = 0;

	if (in < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot open: %s", from,
		    strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", to,
		    strerror(errno));
	}
	while ((r = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)r) != r) {
			r = -1;
			break;
		}
	close(in);
	if (close(out) < 0 || r < 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot write: %s", to,
		    strerror(errno));
	return 0;
}

static int
put_manifest(const char *dir, bool kallsyms, struct perf_err *err)
{
	char p[PATH_MAX];
	FILE *fp;

	dso_path(p, sizeof p, "%s/%s", dir, BUNDLE_MANIFEST);
	fp = fopen(p, "wx");
	if (fp == NULL)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot create: %s", p,
		    strerror(errno));
	fprintf(fp, "%s %d\ndata perf.data\n%screated-by perfnav %s\n", BUNDLE_MANIFEST,
	    BUNDLE_VERSION, kallsyms ? "kallsyms kallsyms\n" : "", PACKAGE_VERSION);
	if (fclose(fp) != 0)
		return perf_err_set(err, PERF_E_IO, PERF_ERR_OFF_NONE, "%s: cannot write", p);
	return 0;
}

int
bundle_write(const struct session *s, struct symbolizer *z, const char *data, const char *dir,
    bool whole, struct bundle_stats *st, struct perf_err *err)
{
	struct hits h;
	struct frame *buf = xcalloc(BUNDLE_FRAMES, sizeof *buf);
	char p[PATH_MAX];
	struct stat sb;
	int rc = -1;

	memset(st, 0, sizeof *st);
	memset(&h, 0, sizeof h);
	h.z = z;
	h.ndsos = symbolizer_ndsos(z);
	h.dso = xcalloc(h.ndsos + 1, sizeof *h.dso);
	h.starts = xcalloc(h.ndsos + 1, sizeof *h.starts);
	hits_walk(&h, s, buf);
	for (uint32_t d = 0; d < h.ndsos; d++) {
		struct sym_dso_files f;

		if (!h.dso[d])
			continue;
		symbolizer_dso_files(z, d, &f);
		if (!f.kernel && !f.jit && put_dso(z, d, dir, whole, st, err) < 0)
			goto out;
	}
	if (put_line_files(&h, dir, st, err) < 0)
		goto out;
	dso_path(p, sizeof p, "%s/perf.data", dir);
	if (copy_file(data, p, err) < 0)
		goto out;
	dso_path(p, sizeof p, "%s/kallsyms", dir);
	if (put_manifest(dir, lstat(p, &sb) == 0, err) < 0)
		goto out;
	rc = 0;
out:
	for (size_t d = 0; d < h.ndsos; d++)
		hmap_free(&h.starts[d]);
	hmap_free(&h.kstarts);
	free(h.starts);
	free(h.dso);
	free(buf);
	return rc;
}
