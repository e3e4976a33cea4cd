/*
 * src_kallsyms.c: the symbol source of the kernel and its modules:
 * kallsyms ("ADDR TYPE NAME [MODULE]" lines), from --kallsyms, the
 * recording's kcore directory, the build-id cache's copy for the kernel's
 * build id, or /proc/kallsyms if the running kernel is the recorded one.
 */
#include "config.h"

#include <ctype.h>
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "core/session.h"
#include "symbolize/symsrc.h"

/* Lines of kallsyms are at most so long. */
#define KALLSYMS_LINE_MAX	4096

static const struct safefile_rule kallsyms_rule = {
	.what = "kallsyms",
	.cap = SAFEFILE_CAP_KALLSYMS,
};

static const struct safefile_rule notes_rule = {
	.what = "kernel notes",
	.cap = SAFEFILE_CAP_NOTES,
};

/* A kallsyms line kept: where its text is, and the module it tags. */
struct ks_line {
	uint64_t	addr;
	uint32_t	off;		/* in text: "T name" */
	uint32_t	mod;		/* 0: the kernel's own; else mods[mod - 1] */
};

struct kallsyms_file {
	struct safefile_note	 note;		/* how reading went */
	bool			 ok;		/* it could be read */
	char			*text;		/* the lines kept, each NUL-terminated */
	size_t			 len, cap;
	struct ks_line		*lines;
	size_t			 nlines, caplines;
	char			**mods;		/* module tags ("[ext4]") in the order met */
	size_t			 nmods, capmods;
};

/* The id of a module tag of len bytes (added when new). */
static uint32_t
ks_mod_id(struct kallsyms_file *kf, const char *tag, size_t len)
{
	for (size_t i = kf->nmods; i-- > 0;)
		if (strncmp(kf->mods[i], tag, len) == 0 && kf->mods[i][len] == '\0')
			return (uint32_t)i + 1;
	GROW(kf->mods, kf->capmods, kf->nmods + 1);
	kf->mods[kf->nmods++] = xstrndup(tag, len);
	return (uint32_t)kf->nmods;
}

/*
 * The hexadecimal address a kallsyms line starts with, at most 16 digits
 * (strtoull's locale and overflow rules are not needed, and it was a
 * third of reading the file); *end past it, p when none.
 */
static uint64_t
ks_addr(const char *p, const char **end)
{
	/* each byte's digit value + 1, 0 for a byte not a hexadecimal digit */
	static const uint8_t digit[256] = {
		['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7,
		['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
		['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
		['F'] = 16,
	};
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 17 && digit[(unsigned char)p[i]] != 0; i++)
		v = v << 4 | (uint64_t)(digit[(unsigned char)p[i]] - 1);
	*end = i <= 16 ? p + i : p;	/* 17 digits: not an address */
	return v;
}

struct kallsyms_file *
kallsyms_file_read(const char *path)
{
	struct kallsyms_file *kf = xcalloc(1, sizeof *kf);
	struct safefile_lines lr;
	const char *line;
	size_t linelen;
	int fd = safefile_open(path, &kallsyms_rule, NULL, &kf->note);

	if (fd < 0)
		return kf;
	kf->ok = true;
	safefile_lines_init(&lr, fd, KALLSYMS_LINE_MAX, kallsyms_rule.cap);
	while (kf->nlines < SYMSRC_MAX_SYMS && safefile_lines_next(&lr, &line, &linelen) > 0) {
		const char *p = line, *name, *tag, *end;
		uint64_t addr;
		size_t len;

		addr = ks_addr(p, &end);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		switch (*p) {	/* only the types symbols are made of */
		case 'T':
		case 't':
		case 'W':
		case 'w':
		case 'D':
		case 'd':
		case 'B':
		case 'b':
			break;
		default:
			continue;
		}
		if (p[1] != ' ')
			continue;
		name = p + 2;
		len = strcspn(name, "\t\n");
		GROW(kf->lines, kf->caplines, kf->nlines + 1);
		kf->lines[kf->nlines].addr = addr;
		kf->lines[kf->nlines].off = (uint32_t)kf->len;
		kf->lines[kf->nlines].mod = 0;
		/* Module symbols ("name\t[mod]") belong to module maps. */
		if (name[len] == '\t') {
			tag = name + len + 1;
			kf->lines[kf->nlines].mod = ks_mod_id(kf, tag, strcspn(tag, "\t\n "));
		}
		kf->nlines++;
		/* kept from the type on: "T name" */
		GROW(kf->text, kf->cap, kf->len + (size_t)(name + len - p) + 1);
		memcpy(kf->text + kf->len, p, (size_t)(name + len - p));
		kf->len += (size_t)(name + len - p);
		kf->text[kf->len++] = '\0';
	}
	symsrc_lines_end(&lr, &kallsyms_rule, (long)kf->nlines, &kf->note);
	safefile_lines_free(&lr);
	close(fd);
	return kf;
}

const struct safefile_note *
kallsyms_file_note(const struct kallsyms_file *kf)
{
	return &kf->note;
}

long
kallsyms_file_load(const struct kallsyms_file *kf, const char *module, struct symtab *t,
    struct strtab *strs)
{
	uint32_t want = 0;
	long nr = 0;

	if (!kf->ok)
		return -1;
	if (module != NULL) {
		for (size_t i = 0; i < kf->nmods && want == 0; i++)
			if (strcmp(kf->mods[i], module) == 0)
				want = (uint32_t)i + 1;
		if (want == 0)
			return 0;
	}
	for (size_t i = 0; i < kf->nlines; i++) {
		const char *p, *name;
		uint64_t addr;
		char type;
		uint8_t bind;

		if (kf->lines[i].mod != want)
			continue;
		p = kf->text + kf->lines[i].off;
		addr = kf->lines[i].addr;
		type = p[0];
		name = p + 2;
		if (type == 'W' || type == 'w')
			bind = STB_WEAK;
		else if (isupper((unsigned char)type))
			bind = STB_GLOBAL;
		else
			bind = STB_LOCAL;
		symtab_add(t, addr, 0, bind,
		    toupper((unsigned char)type) == 'T' || toupper((unsigned char)type) == 'W' ?
		    STT_FUNC : STT_OBJECT, strtab_intern(strs, name, strlen(name)));
		nr++;
	}
	if (nr > 0)
		symtab_fixup(t, strs);
	return nr;
}

void
kallsyms_file_free(struct kallsyms_file *kf)
{
	if (kf == NULL)
		return;
	for (size_t i = 0; i < kf->nmods; i++)
		free(kf->mods[i]);
	free(kf->mods);
	free(kf->lines);
	free(kf->text);
	free(kf);
}

long
kallsyms_load(const char *path, struct symtab *t, struct strtab *strs, struct safefile_note *note)
{
	return kallsyms_load_module(path, NULL, t, strs, note);
}

long
kallsyms_load_module(const char *path, const char *module, struct symtab *t, struct strtab *strs,
    struct safefile_note *note)
{
	struct kallsyms_file *kf = kallsyms_file_read(path);
	long nr = kallsyms_file_load(kf, module, t, strs);

	if (note != NULL)
		*note = kf->note;
	kallsyms_file_free(kf);
	return nr;
}

/* ---- the source ---- */

/* The running kernel's build id, from /sys/kernel/notes. */
static bool
read_sysfs_bid(struct dso_table *t, uint8_t *id, size_t *len)
{
	static const char path[] = "/sys/kernel/notes";
	uint8_t buf[4096];
	struct safefile_note sn;
	int fd = safefile_open(path, &notes_rule, NULL, &sn);
	ssize_t n;
	size_t off = 0;

	if (fd < 0) {
		dso_note_file(t, path, &sn);
		return false;
	}
	n = read(fd, buf, sizeof buf);
	close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t nsz, dsz, type;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		if (type == 3 && nsz == 4 && off + 4 + dsz <= (size_t)n &&
		    memcmp(buf + off, "GNU", 4) == 0) {
			*len = dsz < 20 ? dsz : 20;
			memcpy(id, buf + off + 4, *len);
			return true;
		}
		off += ((nsz + 3) & ~3u) + ((dsz + 3) & ~3u);
	}
	return false;
}

/*
 * The symbols of module ("[name]") or of the kernel (NULL) from the
 * kallsyms file at path into d, reading each file once for the kernel and
 * every module (kept in t).  Their number, -1 if unreadable.
 */
static long
kallsyms_from(struct dso_table *t, struct dso_ent *d, const char *path, const char *module)
{
	struct kallsyms_file *kf = NULL;
	struct safefile_note sn;
	long nr;

	/* Each file is read once: a module map more does not read it again. */
	for (size_t i = 0; i < t->nksyms && kf == NULL; i++)
		if (strcmp(t->ksyms[i].path, path) == 0)
			kf = t->ksyms[i].kf;
	if (kf == NULL) {
		size_t slot = t->nksyms;

		if (slot == sizeof t->ksyms / sizeof t->ksyms[0]) {
			/* all taken (one path of each kind at most): give back the last */
			slot--;
			free(t->ksyms[slot].path);
			kallsyms_file_free(t->ksyms[slot].kf);
		} else {
			t->nksyms++;
		}
		kf = kallsyms_file_read(path);
		t->ksyms[slot].path = xstrdup(path);
		t->ksyms[slot].kf = kf;
	}
	nr = kallsyms_file_load(kf, module, &d->syms, &d->names);
	sn = *kallsyms_file_note(kf);
	dso_note_file(t, path, &sn);
	return nr;
}

static bool
kallsyms_match(const struct dso_ent *d)
{
	return d->kind == DSO_KERNEL || d->kind == DSO_MODULE;
}

/*
 * Kernel symbols into d from the first kallsyms that has them: --kallsyms,
 * kcore_dir/kallsyms, the build-id cache's copy for the kernel's build id,
 * /proc/kallsyms if the running kernel is the recorded one.  A module's
 * symbols are its tagged lines: perf reads them from its .ko when it has
 * it, from kallsyms otherwise.
 */
static void
kallsyms_dso_load(struct dso_table *t, struct dso_ent *d, const char *name,
    const struct dso_ctx *c)
{
	struct session_info si = session_info(c->s);
	const struct dso_ent *kd = d->kind == DSO_KERNEL ? d :
	    t->kernel != DSO_NONE ? &t->v[t->kernel] : NULL;
	const char *module = d->kind == DSO_KERNEL ? NULL : name;
	char hex[41], p[PATH_MAX];
	const char *from = NULL;
	long nr = -1;

	if (c->o->kallsyms != NULL) {
		/* --kallsyms /dev/null: no kernel symbols, as asked. */
		if (strcmp(c->o->kallsyms, "/dev/null") != 0)
			nr = kallsyms_from(t, d, from = c->o->kallsyms, module);
	} else {
		if (si.kcore_dir != NULL && !c->no_system) {
			dso_path(p, sizeof p, "%s/kallsyms", si.kcore_dir);
			nr = kallsyms_from(t, d, p, module);
			from = p;
		}
		if (kd != NULL)
			dso_bid_hex(kd, hex);
		if (nr <= 0 && kd != NULL && kd->bid_len > 0 &&
		    dso_cache_file(t, c->buildid_dir, hex, "[kernel.kallsyms]", "kallsyms", p, sizeof p)) {
			nr = kallsyms_from(t, d, p, module);
			from = p;
		}
		if (nr <= 0 && kd != NULL && !c->no_system) {
			uint8_t id[20];
			size_t len = 0;

			if (kd->bid_len > 0 && read_sysfs_bid(t, id, &len) && len == kd->bid_len &&
			    memcmp(id, kd->bid, len) == 0)
				nr = kallsyms_from(t, d, from = "/proc/kallsyms", module);
		}
	}
	if (nr > 0) {
		d->symfile = xstrdup("kallsyms");
		d->linefile = xstrdup(from);
	}
	d->why = SYM_WHY_NO_KALLSYMS;
}

const struct sym_source symsrc_kallsyms = {
	.name = "kallsyms",
	.match = kallsyms_match,
	.load = kallsyms_dso_load,
};
