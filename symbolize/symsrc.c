#include "config.h"

#include <stdio.h>

#include "symbolize/symsrc.h"

/*
 * The symbol sources, in the order they are tried.  Each matches its own
 * kinds of DSO today (user ELF files, the kernel and its modules, JIT
 * code, the vdso); a source that can stand in for another (a debuginfod
 * client for user DSOs) goes after it.
 */
const struct sym_source *const symsrc_table[] = {
	&symsrc_elf,
	&symsrc_kallsyms,
	&symsrc_perfmap,
	&symsrc_vdso,
	NULL,
};

void
symsrc_lines_end(const struct safefile_lines *lr, const struct safefile_rule *rule, long nr,
    struct safefile_note *note)
{
	if (note == NULL)
		return;
	if (safefile_lines_note(lr, rule, note))
		return;
	if ((unsigned long)nr >= SYMSRC_MAX_SYMS) {
		note->status = SAFEFILE_CUT;
		snprintf(note->why, sizeof note->why, "read only the first %u symbols, the cap for %s",
		    SYMSRC_MAX_SYMS, rule->what);
	}
}
