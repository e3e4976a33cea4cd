/*
 * dso.c: the DSO registry (DSOs by name, their build ids, global symbol
 * ids), the files refused while loading, the build-id cache, loading a DSO
 * through the symbol sources of symsrc_table, and each DSO's memo of source
 * lines and inline chains.
 */
#include "config.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "symbolize/symsrc.h"

void
dso_table_init(struct dso_table *t)
{
	memset(t, 0, sizeof *t);
	t->kernel = DSO_NONE;
}

void
dso_table_free(struct dso_table *t)
{
	for (size_t i = 0; i < t->nksyms; i++) {
		free(t->ksyms[i].path);
		kallsyms_file_free(t->ksyms[i].kf);
	}
	for (size_t i = 0; i < t->n; i++) {
		struct dso_ent *d = &t->v[i];

		symtab_free(&d->syms);
		strtab_free(&d->names);
		free(d->symfile);
		free(d->runfile);
		free(d->linefile);
		if (d->src)
			srcline_close(d->src);
		for (size_t k = 0; k < d->src_n; k++)
			free(d->src_strs[k]);
		free(d->src_strs);
		hmap_free(&d->src_memo);
		free(d->inl_runs);
		hmap_free(&d->inl_memo);
	}
	free(t->v);
	hmap_free(&t->by_name);
	free(t->refs);
	free(t->inl);
	hmap_free(&t->isym_of);
	for (size_t i = 0; i < t->nrefusals; i++) {
		free(t->refusals[i].path);
		free(t->refusals[i].why);
	}
	free(t->refusals);
	memset(t, 0, sizeof *t);
}

void
dso_path(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, n, fmt, ap);
	va_end(ap);
}

/* ---- registry ---- */

static uint32_t
dso_new(struct dso_table *t, struct strtab *strs, uint32_t name, enum dso_kind kind,
    const char *short_name)
{
	struct dso_ent *d;
	uint32_t id;

	GROW(t->v, t->cap, t->n + 1);
	id = (uint32_t)t->n++;
	d = &t->v[id];
	memset(d, 0, sizeof *d);
	d->name = name;
	d->kind = kind;
	d->short_name = strtab_intern(strs, short_name, strlen(short_name));
	hmap_set(&t->by_name, name, id);
	return id;
}

static uint32_t
dso_lookup_name(struct dso_table *t, uint32_t name)
{
	uint32_t id = hmap_get(&t->by_name, name);

	return id != HMAP_NONE ? id : DSO_NONE;
}

uint32_t
dso_get(struct dso_table *t, struct strtab *strs, const char *name, size_t len)
{
	uint32_t nid = strtab_intern(strs, name, len), d;
	const char *n, *base;
	char *copy;

	d = dso_lookup_name(t, nid);
	if (d != DSO_NONE)
		return d;
	n = strtab_get(strs, nid);
	if (strcmp(n, "[vdso]") == 0)
		return dso_new(t, strs, nid, DSO_VDSO, "[vdso]");
	copy = xstrdup(n);
	base = strrchr(copy, '/');
	base = base ? base + 1 : copy;
	d = dso_new(t, strs, nid, DSO_USER, base);
	free(copy);
	return d;
}

uint32_t
dso_for_kernel_map(struct dso_table *t, struct strtab *strs, const char *filename)
{
	char buf[PATH_MAX];
	const char *base;
	uint32_t nid, d;
	size_t len;

	if (filename[0] != '/') {
		if (t->kernel == DSO_NONE || strncmp(filename, "[kernel.kallsyms]", 17) == 0 ||
		    strncmp(filename, "[guest.kernel.kallsyms", 22) == 0) {
			if (t->kernel == DSO_NONE) {
				nid = strtab_intern(strs, "[kernel.kallsyms]", 17);
				t->kernel = dso_lookup_name(t, nid);
				if (t->kernel == DSO_NONE)
					t->kernel = dso_new(t, strs, nid, DSO_KERNEL, "[kernel.kallsyms]");
			}
			if (strncmp(filename, "[kernel.kallsyms]", 17) == 0 ||
			    strncmp(filename, "[guest.kernel.kallsyms", 22) == 0)
				return t->kernel;
		}
		len = strlen(filename);
		nid = strtab_intern(strs, filename, len);
		d = dso_lookup_name(t, nid);
		return d != DSO_NONE ? d : dso_new(t, strs, nid, DSO_MODULE, filename);
	}
	/* A module: "[name]" from the file name, dashes as underscores. */
	base = strrchr(filename, '/') + 1;
	len = strcspn(base, ".");
	if (len + 3 > sizeof buf)
		len = sizeof buf - 3;
	buf[0] = '[';
	for (size_t i = 0; i < len; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[len + 1] = ']';
	buf[len + 2] = '\0';
	nid = strtab_intern(strs, buf, len + 2);
	d = dso_lookup_name(t, nid);
	return d != DSO_NONE ? d : dso_new(t, strs, nid, DSO_MODULE, buf);
}

uint32_t
dso_for_jit(struct dso_table *t, struct strtab *strs, int32_t pid)
{
	char name[64], sname[64];
	uint32_t nid, d;

	dso_path(name, sizeof name, "/tmp/perf-%d.map", (int)pid);
	dso_path(sname, sizeof sname, "[JIT] tid %d", (int)pid);
	nid = strtab_intern(strs, name, strlen(name));
	d = dso_lookup_name(t, nid);
	if (d == DSO_NONE) {
		d = dso_new(t, strs, nid, DSO_JIT, sname);
		t->v[d].pid = pid;
	}
	return d;
}

void
dso_set_build_id(struct dso_table *t, uint32_t d, const uint8_t *id, size_t len)
{
	struct dso_ent *e = &t->v[d];

	if (e->bid_len > 0 || len == 0)
		return;
	if (len > 20)
		len = 20;
	/* perf keeps 20 bytes and compares them all: an all-zero id is none. */
	for (size_t i = 0; i < len; i++)
		if (id[i] != 0) {
			memcpy(e->bid, id, len);
			e->bid_len = (uint8_t)len;
			return;
		}
}

const char *
dso_long_name(const struct dso_table *t, const struct strtab *strs, uint32_t d)
{
	return d < t->n ? strtab_get(strs, t->v[d].name) : "[unknown]";
}

const char *
dso_short_name(const struct dso_table *t, const struct strtab *strs, uint32_t d)
{
	return d < t->n ? strtab_get(strs, t->v[d].short_name) : "[unknown]";
}

const char *
dso_sym_name(const struct dso_table *t, const struct strtab *strs, uint32_t sym)
{
	(void)strs;
	if (sym >= t->nrefs)
		return "[unknown]";
	if (t->refs[sym].base != SYM_NONE)
		return strtab_get(strs, t->refs[sym].name);
	return strtab_get(&t->v[t->refs[sym].dso].names, t->refs[sym].name);
}

/* ---- refused files ---- */

void
dso_add_refusal(struct dso_table *t, uint32_t d, const char *path, const char *why, bool cut)
{
	struct dso_refusal *r;

	for (size_t i = 0; i < t->nrefusals; i++)
		if (t->refusals[i].dso == d && strcmp(t->refusals[i].path, path) == 0)
			return;
	if (t->nrefusals >= DSO_REFUSALS_MAX) {
		t->refusals_dropped++;
		return;
	}
	GROW(t->refusals, t->caprefusals, t->nrefusals + 1);
	r = &t->refusals[t->nrefusals++];
	r->path = xstrdup(path);
	r->why = xstrdup(why);
	r->dso = d;
	r->cut = cut;
}

const struct dso_refusal *
dso_refusal(const struct dso_table *t, uint32_t d)
{
	for (size_t i = 0; i < t->nrefusals; i++)
		if (t->refusals[i].dso == d && !t->refusals[i].cut)
			return &t->refusals[i];
	return NULL;
}

void
dso_note_file(struct dso_table *t, const char *path, const struct safefile_note *n)
{
	if (n->status == SAFEFILE_REFUSED || n->status == SAFEFILE_CUT)
		dso_add_refusal(t, t->loading, path, n->why, n->status == SAFEFILE_CUT);
}

/* Has the DSO being loaded had a file refused (not cut) since refusal i? */
static bool
refused_since(const struct dso_table *t, size_t i)
{
	for (; i < t->nrefusals; i++)
		if (t->refusals[i].dso == t->loading && !t->refusals[i].cut)
			return true;
	return false;
}

/* ---- finding files ---- */

static const struct safefile_rule link_rule = {
	.what = "a build-id cache link",
	.cap = SAFEFILE_CAP_LINK,
};

bool
dso_probe(struct dso_table *t, const char *p, const struct safefile_rule *rule)
{
	struct safefile_note n;

	if (safefile_check(p, rule ? rule : &elfsym_rule, NULL, &n) == 0)
		return true;
	dso_note_file(t, p, &n);
	return false;
}

void
dso_bid_hex(const struct dso_ent *d, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < d->bid_len; i++) {
		hex[2 * i] = digits[d->bid[i] >> 4];
		hex[2 * i + 1] = digits[d->bid[i] & 15];
	}
	hex[2 * d->bid_len] = '\0';
}

/* In caches copied without symlinks, .build-id/xx/rest may be a file
 * holding the link's target. */
bool
dso_cache_file(struct dso_table *t, const char *dir, const char *hex, const char *name,
    const char *kind, char *out, size_t n)
{
	char link[PATH_MAX];
	struct stat st;

	if (dir == NULL || hex[0] == '\0')
		return false;
	dso_path(link, sizeof link, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	if (lstat(link, &st) == 0) {
		if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode)) {
			dso_path(out, n, "%s/%s", link, kind);
			if (dso_probe(t, out, NULL))
				return true;
		} else if (!S_ISREG(st.st_mode)) {
			struct safefile_note sn;

			/* A FIFO or a device where a link or file should be. */
			if (safefile_check(link, &link_rule, NULL, &sn) < 0)
				dso_note_file(t, link, &sn);
		} else if (st.st_size > 0 && st.st_size < PATH_MAX) {
			char target[PATH_MAX];
			struct safefile_note sn;
			int fd = safefile_open(link, &link_rule, NULL, &sn);
			ssize_t r = fd >= 0 ? read(fd, target, sizeof target - 1) : -1;

			if (fd >= 0)
				close(fd);
			else
				dso_note_file(t, link, &sn);
			if (r >= 4 && memcmp(target, "\177ELF", 4) == 0) {
				if (strcmp(kind, "elf") == 0) {
					dso_path(out, n, "%s", link);
					return true;
				}
			} else if (r > 0) {
				target[r] = '\0';
				target[strcspn(target, "\n")] = '\0';
				if (target[0] == '/')
					dso_path(out, n, "%s/%s", target, kind);
				else
					dso_path(out, n, "%s/.build-id/%.2s/%s/%s", dir, hex, target, kind);
				if (dso_probe(t, out, NULL))
					return true;
			}
		}
	}
	if (name != NULL) {
		dso_path(out, n, "%s/%s%s/%s/%s", dir, name[0] == '/' ? "" : "", name, hex, kind);
		if (name[0] != '/')
			dso_path(out, n, "%s/%s/%s/%s", dir, name, hex, kind);
		if (dso_probe(t, out, NULL))
			return true;
	}
	return false;
}

bool
dso_cache_sole_entry(const char *dir, const char *name, char *hex_out)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dp;
	int found = 0;

	if (dir == NULL)
		return false;
	dso_path(path, sizeof path, "%s/%s", dir, name);
	dp = opendir(path);
	if (dp == NULL)
		return false;
	while ((de = readdir(dp)) != NULL) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < 2 || len > 40 ||
		    strspn(de->d_name, "0123456789abcdef") != len)
			continue;
		if (found++ == 0)
			memcpy(hex_out, de->d_name, len + 1);
	}
	closedir(dp);
	return found == 1;
}

void
dso_bid_from_hex(struct dso_ent *d, const char *hex)
{
	size_t n = strlen(hex) / 2;

	for (size_t i = 0; i < n && i < 20; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		d->bid[i] = (uint8_t)v;
	}
	d->bid_len = (uint8_t)(n < 20 ? n : 20);
}

/*
 * Let source src load d.  When an earlier source left d without symbols,
 * src starts afresh and d keeps the earlier outcome (its reason, files
 * and source) unless src gives symbols.
 */
static void
load_from(struct dso_table *t, struct dso_ent *d, const char *name, const struct dso_ctx *c,
    const struct sym_source *src)
{
	char *symfile = d->symfile, *runfile = d->runfile;
	uint8_t why = d->why;

	if (d->source != NULL) {
		d->symfile = d->runfile = NULL;
		d->why = SYM_WHY_NOT_IN_SYMBOL;
	}
	src->load(t, d, name, c);
	if (d->source == NULL || d->syms.n > 0) {
		d->source = src;
		free(symfile);
		free(runfile);
		return;
	}
	free(d->symfile);
	free(d->runfile);
	d->symfile = symfile;
	d->runfile = runfile;
	d->why = why;
}

static void
dso_load(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t id)
{
	struct dso_ent *d = &t->v[id];
	char *name = xstrdup(strtab_get(strs, d->name));
	size_t refusals_before = t->nrefusals;

	d->loaded = true;
	d->why = SYM_WHY_NOT_IN_SYMBOL;
	t->loading = id;
	/* The sources that match d, in the table's order, until one gives symbols. */
	for (size_t i = 0; symsrc_table[i] != NULL && d->syms.n == 0; i++)
		if (symsrc_table[i]->match(d))
			load_from(t, d, name, c, symsrc_table[i]);
	free(name);
	/* Nothing found, and a file was refused: that is why. */
	if (d->syms.n == 0 && (d->why == SYM_WHY_NO_DSO_FILE || d->why == SYM_WHY_NO_KALLSYMS ||
	    d->why == SYM_WHY_JIT_NO_MAP || d->why == SYM_WHY_BUILDID_MISMATCH) &&
	    refused_since(t, refusals_before))
		d->why = SYM_WHY_REFUSED;
	if (d->syms.n > 0)
		d->why = SYM_WHY_NOT_IN_SYMBOL;
	/* Global ids for this DSO's symbols. */
	d->sym_base = (uint32_t)t->nrefs;
	GROW(t->refs, t->caprefs, t->nrefs + d->syms.n + 1);
	for (size_t i = 0; i < d->syms.n; i++) {
		t->refs[t->nrefs].dso = id;
		t->refs[t->nrefs].name = d->syms.v[i].name;
		t->refs[t->nrefs].base = SYM_NONE;
		t->nrefs++;
	}
	/* Names stay put from now on; drop the interning hash. */
	hmap_free(&d->names.map);
}

uint32_t
dso_find_sym(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t d,
    uint64_t rel, uint64_t *start)
{
	size_t i;

	if (d >= t->n)
		return SYM_NONE;
	if (!t->v[d].loaded)
		dso_load(t, strs, c, d);
	i = symtab_find(&t->v[d].syms, rel);
	if (i == SIZE_MAX)
		return SYM_NONE;
	*start = t->v[d].syms.v[i].start;
	return t->v[d].sym_base + (uint32_t)i;
}

const char *
dso_source_name(const struct dso_table *t, uint32_t d)
{
	return d < t->n && t->v[d].source != NULL ? t->v[d].source->name : NULL;
}

enum sym_why
dso_why(const struct dso_table *t, uint32_t d)
{
	return d < t->n ? (enum sym_why)t->v[d].why : SYM_WHY_NO_MAP;
}

/* srcline_open, keeping a refusal of a file the DWARF refers to. */
static struct srcline_h *
lines_open(struct dso_table *t, uint32_t id, const char *symfile, const char *runfile,
    const struct dso_ctx *c)
{
	struct safefile_note sn;
	char refused[PATH_MAX];
	struct srcline_h *h = srcline_open_in(symfile, runfile,
	    c->no_system ? (c->buildid_dir ? c->buildid_dir : "") : NULL, &sn, refused,
	    sizeof refused);

	if (h == NULL && sn.status == SAFEFILE_REFUSED)
		dso_add_refusal(t, id, refused, sn.why, false);
	return h;
}

/* The DSO's line tables (opened once), or NULL. */
struct srcline_h *
dso_lines(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t id)
{
	struct dso_ent *d;

	if (id >= t->n)
		return NULL;
	d = &t->v[id];
	if (!d->loaded)
		dso_load(t, strs, c, id);
	if (d->source == NULL || !d->source->lines)
		return NULL;
	if (!d->src_tried) {
		d->src_tried = true;
		if (d->symfile != NULL)
			d->src = lines_open(t, id, d->symfile, d->runfile, c);
		if (d->src == NULL && d->runfile != NULL && d->symfile != NULL &&
		    strcmp(d->runfile, d->symfile) != 0)
			d->src = lines_open(t, id, d->runfile, d->runfile, c);
	}
	return d->src;
}

int
dso_source(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t id,
    uint64_t rel, const char **path, int *line)
{
	struct srcline_h *h = dso_lines(t, strs, c, id);

	return h != NULL ? srcline_lookup_file(h, rel, path, line) : -1;
}

const char *
dso_srcline(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t id,
    uint64_t rel)
{
	struct dso_ent *d;
	char buf[PATH_MAX + 32];
	uint32_t i;

	if (dso_lines(t, strs, c, id) == NULL)
		return NULL;
	d = &t->v[id];
	i = hmap_get(&d->src_memo, rel);
	if (i == HMAP_NONE) {
		if (srcline_lookup(d->src, rel, buf, sizeof buf) < 0)
			buf[0] = '\0';
		GROW(d->src_strs, d->src_cap, d->src_n + 1);
		i = (uint32_t)d->src_n++;
		d->src_strs[i] = xstrdup(buf);
		hmap_set(&d->src_memo, rel, i);
	}
	return d->src_strs[i][0] ? d->src_strs[i] : NULL;
}

/* ---- inline chains ---- */

int
dso_sym_range(const struct dso_table *t, uint32_t sym, uint32_t *dso, uint64_t *start,
    uint64_t *end)
{
	const struct dso_symref *r;
	const struct dso_ent *d;
	uint32_t real;

	if (sym >= t->nrefs)
		return -1;
	r = &t->refs[sym];
	real = r->base != SYM_NONE ? r->base : sym;
	d = &t->v[r->dso];
	if (real < d->sym_base || real - d->sym_base >= d->syms.n)
		return -1;
	*dso = r->dso;
	*start = d->syms.v[real - d->sym_base].start;
	*end = d->syms.v[real - d->sym_base].end;
	return 0;
}

const char *
dso_image(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t d)
{
	if (d >= t->n)
		return NULL;
	if (!t->v[d].loaded)
		dso_load(t, strs, c, d);
	return t->v[d].runfile;
}

bool
dso_sym_inlined(const struct dso_table *t, uint32_t sym)
{
	return sym < t->nrefs && t->refs[sym].base != SYM_NONE;
}

bool
dso_sym_object(const struct dso_table *t, uint32_t sym)
{
	const struct dso_ent *d;

	if (sym >= t->nrefs || t->refs[sym].base != SYM_NONE)
		return false;
	d = &t->v[t->refs[sym].dso];
	if (sym < d->sym_base || sym - d->sym_base >= d->syms.n)
		return false;
	return d->syms.v[sym - d->sym_base].type == STT_OBJECT;
}

/* The inlined symbol named name (strs id) inside real symbol base. */
static uint32_t
inline_sym(struct dso_table *t, uint32_t base, uint32_t name)
{
	uint64_t key = (uint64_t)base << 32 | name;
	uint32_t id = hmap_get(&t->isym_of, key);

	if (id != HMAP_NONE)
		return id;
	GROW(t->refs, t->caprefs, t->nrefs + 1);
	t->refs[t->nrefs].dso = t->refs[base].dso;
	t->refs[t->nrefs].name = name;
	t->refs[t->nrefs].base = base;
	hmap_set(&t->isym_of, key, (uint32_t)t->nrefs);
	return (uint32_t)t->nrefs++;
}

int
dso_sym_ident(const struct dso_table *t, const struct strtab *strs, uint32_t sym, uint32_t *dso,
    uint32_t *index, const char **inl_name)
{
	const struct dso_symref *r;

	if (sym >= t->nrefs)
		return -1;
	r = &t->refs[sym];
	*dso = r->dso;
	if (r->base != SYM_NONE) {
		*index = r->base - t->v[r->dso].sym_base;
		*inl_name = strtab_get(strs, r->name);
	} else {
		*index = sym - t->v[r->dso].sym_base;
		*inl_name = NULL;
	}
	return 0;
}

uint32_t
dso_sym_by_ident(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t d,
    uint32_t index, const char *inl_name)
{
	uint32_t base;

	if (d >= t->n)
		return SYM_NONE;
	if (!t->v[d].loaded)
		dso_load(t, strs, c, d);
	if (index >= t->v[d].syms.n)
		return SYM_NONE;
	base = t->v[d].sym_base + index;
	if (inl_name == NULL)
		return base;
	return inline_sym(t, base, strtab_intern(strs, inl_name, strlen(inl_name)));
}

/* Ask the DWARF for rel's records and turn them into levels (perf's
 * new_inline_sym()); appended to t->inl, returns the count. */
static size_t
inlines_compute(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c,
    struct dso_ent *d, uint64_t rel, uint32_t base)
{
	struct srcline_rec rec[128];
	size_t n = srcline_inlines(d->src, rel, rec, sizeof rec / sizeof *rec);
	const char *bname = dso_sym_name(t, strs, base);
	char buf[PATH_MAX + 32];

	GROW(t->inl, t->capinl, t->ninl + n + 1);
	for (size_t k = 0; k < n; k++) {
		const char *nm = rec[k].name ? rec[k].name : "??";
		char *dm = c->o->no_demangle ? NULL : demangle_cxx(nm);
		struct dso_inl *l = &t->inl[t->ninl + k];

		if (dm != NULL)
			nm = dm;
		if (strcmp(nm, bname) == 0)
			l->sym = base;
		else
			l->sym = inline_sym(t, base, strtab_intern(strs, nm, strlen(nm)));
		if (rec[k].file != NULL)
			snprintf(buf, sizeof buf, "%s:%u", rec[k].file, rec[k].line);
		else
			snprintf(buf, sizeof buf, "??:0");
		l->src = strtab_intern(strs, buf, strlen(buf));
		free(dm);
		bname = dso_sym_name(t, strs, base);	/* strs may have moved */
	}
	t->ninl += n;
	return n;
}

size_t
dso_inlines(struct dso_table *t, struct strtab *strs, const struct dso_ctx *c, uint32_t id,
    uint64_t rel, uint32_t base, const struct dso_inl **out)
{
	struct dso_ent *d;
	uint32_t i, first;
	size_t n;

	*out = NULL;
	if (id >= t->n || base == SYM_NONE || base >= t->nrefs || t->refs[base].base != SYM_NONE)
		return 0;
	if (dso_lines(t, strs, c, id) == NULL)
		return 0;
	d = &t->v[id];
	i = hmap_get(&d->inl_memo, rel);
	if (i == HMAP_NONE) {
		first = (uint32_t)t->ninl;
		n = inlines_compute(t, strs, c, d, rel, base);
		d = &t->v[id];
		GROW(d->inl_runs, d->inl_cap, d->inl_n + 1);
		i = (uint32_t)d->inl_n++;
		d->inl_runs[i].first = first;
		d->inl_runs[i].n = (uint32_t)n;
		hmap_set(&d->inl_memo, rel, i);
	}
	*out = t->inl + d->inl_runs[i].first;
	return d->inl_runs[i].n;
}

void
dso_state(const struct dso_table *t, uint32_t dso, struct sym_dso_state *out)
{
	const struct dso_ent *d = &t->v[dso];
	uint64_t h = UINT64_C(0x84222325cbf29ce4);

	out->source = dso_source_name(t, dso);
	out->symfile = d->symfile;
	out->runfile = d->runfile;
	out->why = d->why;
	out->nsyms = d->syms.n;
	for (size_t i = 0; i < d->syms.n; i++) {
		const struct sym *y = &d->syms.v[i];
		const char *name = strtab_get(&d->names, y->name);
		uint64_t w[2] = { y->start, y->end };

		h = (h ^ hash_bytes(w, sizeof w)) * UINT64_C(0x100000001b3);
		h = (h ^ hash_bytes(name, strlen(name))) * UINT64_C(0x100000001b3);
	}
	out->digest = h;
}
