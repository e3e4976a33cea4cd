#include "config.h"

#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symtab.h"

long
kallsyms_load(const char *path, struct symtab *t, struct strtab *strs)
{
	return kallsyms_load_module(path, NULL, t, strs);
}

long
kallsyms_load_module(const char *path, const char *module, struct symtab *t, struct strtab *strs)
{
	size_t modlen = module ? strlen(module) : 0;
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	long nr = 0;

	if (fp == NULL)
		return -1;
	while (getline(&line, &cap, fp) > 0) {
		char *p = line, *end, *name;
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
	free(line);
	fclose(fp);
	if (nr > 0)
		symtab_fixup(t, strs, true);
	return nr;
}

long
perfmap_load(const char *path, struct symtab *t, struct strtab *strs)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	long nr = 0;

	if (fp == NULL)
		return -1;
	while (getline(&line, &cap, fp) > 0) {
		char *p = line, *end;
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
	free(line);
	fclose(fp);
	if (nr > 0)
		symtab_fixup(t, strs, false);
	return nr;
}
