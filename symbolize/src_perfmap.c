/*
 * src_perfmap.c: the symbol source of JIT code: the process's
 * perf-PID.map ("START SIZE NAME" in hex), as a JIT runtime writes it.
 */
#include "config.h"

#include <elf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/safefile.h"
#include "symbolize/symsrc.h"

/* Lines of a perf-PID.map are at most so long. */
#define PERFMAP_LINE_MAX	(64 * 1024)

static const struct safefile_rule perfmap_rule = {
	.what = "a JIT map",
	.cap = SAFEFILE_CAP_JIT_MAP,
	.flags = SAFEFILE_OWNER,
};

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
	while ((unsigned long)nr < SYMSRC_MAX_SYMS && safefile_lines_next(&lr, &line, &linelen) > 0) {
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
	symsrc_lines_end(&lr, &perfmap_rule, nr, note);
	safefile_lines_free(&lr);
	close(fd);
	if (nr > 0)
		symtab_fixup(t, strs);
	return nr;
}

static bool
perfmap_match(const struct dso_ent *d)
{
	return d->kind == DSO_JIT;
}

/* PERFMAP_DIR/perf-PID.map of the DSO's process. */
static void
perfmap_dso_load(struct dso_table *t, struct dso_ent *d, const char *name,
    const struct dso_ctx *c)
{
	struct safefile_note sn;
	char p[PATH_MAX];

	(void)name;
	dso_path(p, sizeof p, "%s/perf-%d.map", c->perfmap_dir, (int)d->pid);
	if (perfmap_load(p, &d->syms, &d->names, &sn) < 0)
		d->why = SYM_WHY_JIT_NO_MAP;
	else {
		d->symfile = xstrdup(p);
		d->linefile = xstrdup(p);
	}
	dso_note_file(t, p, &sn);
}

const struct sym_source symsrc_perfmap = {
	.name = "perf-map",
	.match = perfmap_match,
	.load = perfmap_dso_load,
};
