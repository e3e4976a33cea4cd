#include "config.h"

#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "symbolize/symtab.h"

/*
 * Kallsyms and perf-PID.map files are read through the bounded line
 * reader: regular files only, at most their cap in bytes, lines at most
 * so long, and at most MAX_SYMS symbols kept (a file of 6-byte lines
 * would otherwise make 40 M symbols of its 256 MiB).
 */
#define KALLSYMS_LINE_MAX	4096
#define PERFMAP_LINE_MAX	(64 * 1024)
#define MAX_SYMS		(4u << 20)

static const struct safefile_rule kallsyms_rule = {
	.what = "kallsyms",
	.cap = SAFEFILE_CAP_KALLSYMS,
};

static const struct safefile_rule perfmap_rule = {
	.what = "a JIT map",
	.cap = SAFEFILE_CAP_JIT_MAP,
	.flags = SAFEFILE_OWNER,
};

/* After reading: say if the reader or the symbol cap stopped it early. */
static void
read_end(const struct safefile_lines *lr, const struct safefile_rule *rule, long nr,
    struct safefile_note *note)
{
	if (note == NULL)
		return;
	if (safefile_lines_note(lr, rule, note))
		return;
	if ((unsigned long)nr >= MAX_SYMS) {
		note->status = SAFEFILE_CUT;
		snprintf(note->why, sizeof note->why, "read only the first %u symbols, the cap for %s",
		    MAX_SYMS, rule->what);
	}
}

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
	while (kf->nlines < MAX_SYMS && safefile_lines_next(&lr, &line, &linelen) > 0) {
		const char *p = line, *name, *tag;
		unsigned long long addr;
		char *end;
		size_t len;

		addr = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		switch (*p) {	/* only the types symbols are made of */
		case 'T': case 't': case 'W': case 'w': case 'D': case 'd': case 'B': case 'b':
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
	read_end(&lr, &kallsyms_rule, (long)kf->nlines, &kf->note);
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
		symtab_fixup(t, strs, true);
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

long
perfmap_load(const char *path, struct symtab *t, struct strtab *strs, struct safefile_note *note)
{
	struct safefile_lines lr;
	const char *line;
	size_t linelen;
	long nr = 0;
	int fd = safefile_open(path, &perfmap_rule, NULL, note);

	if (fd < 0)
		return -1;
	safefile_lines_init(&lr, fd, PERFMAP_LINE_MAX, perfmap_rule.cap);
	while ((unsigned long)nr < MAX_SYMS && safefile_lines_next(&lr, &line, &linelen) > 0) {
		const char *p = line;
		char *end;
		unsigned long long start, size;
		size_t len;

		start = strtoull(p, &end, 16);
		if (end == p || (*end != ' ' && *end != '\t'))
			continue;
		p = end;
		size = strtoull(p, &end, 16);
		if (end == p || (*end != ' ' && *end != '\t'))
			continue;
		p = end + 1;
		len = strcspn(p, "\n");
		if (len > 0 && p[len - 1] == '\r')
			len--;
		symtab_add(t, start, size, STB_GLOBAL, STT_FUNC, strtab_intern(strs, p, len));
		nr++;
	}
	read_end(&lr, &perfmap_rule, nr, note);
	safefile_lines_free(&lr);
	close(fd);
	if (nr > 0)
		symtab_fixup(t, strs, false);
	return nr;
}
