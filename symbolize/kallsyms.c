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

long
kallsyms_load(const char *path, struct symtab *t, struct strtab *strs, struct safefile_note *note)
{
	return kallsyms_load_module(path, NULL, t, strs, note);
}

long
kallsyms_load_module(const char *path, const char *module, struct symtab *t, struct strtab *strs,
    struct safefile_note *note)
{
	size_t modlen = module ? strlen(module) : 0;
	struct safefile_lines lr;
	const char *line;
	size_t linelen;
	long nr = 0;
	int fd = safefile_open(path, &kallsyms_rule, NULL, note);

	if (fd < 0)
		return -1;
	safefile_lines_init(&lr, fd, KALLSYMS_LINE_MAX, kallsyms_rule.cap);
	while ((unsigned long)nr < MAX_SYMS && safefile_lines_next(&lr, &line, &linelen) > 0) {
		const char *p = line, *name;
		char *end;
		unsigned long long addr;
		char type;
		uint8_t bind;
		size_t len;

		addr = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		type = *p;
		if (type == '\0' || p[1] != ' ')
			continue;
		name = p + 2;
		len = strcspn(name, "\t\n");
		/* Module symbols ("name\t[mod]") belong to module maps. */
		if (module == NULL ? name[len] == '\t' :
		    name[len] != '\t' || strncmp(name + len + 1, module, modlen) != 0 ||
		    (name[len + 1 + modlen] != '\0' && name[len + 1 + modlen] != '\n' &&
		    name[len + 1 + modlen] != '\t' && name[len + 1 + modlen] != ' '))
			continue;
		switch (toupper((unsigned char)type)) {
		case 'T': case 'W': case 'D': case 'B':
			break;
		default:
			continue;
		}
		if (type == 'W' || type == 'w')
			bind = STB_WEAK;
		else if (isupper((unsigned char)type))
			bind = STB_GLOBAL;
		else
			bind = STB_LOCAL;
		symtab_add(t, addr, 0, bind,
		    toupper((unsigned char)type) == 'T' || toupper((unsigned char)type) == 'W' ?
		    STT_FUNC : STT_OBJECT, strtab_intern(strs, name, len));
		nr++;
	}
	read_end(&lr, &kallsyms_rule, nr, note);
	safefile_lines_free(&lr);
	close(fd);
	if (nr > 0)
		symtab_fixup(t, strs, true);
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
