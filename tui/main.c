#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

struct subcmd {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*help;
};

static const struct subcmd subcmds[] = {
	{ "header", cmd_header, "the header and every feature section, as perf report --header-only -I" },
	{ "stats", cmd_stats, "record counts by type and samples per event, as perf report --stats" },
	{ "stat", cmd_stat, "the counts of a perf stat record file, as perf stat report" },
	{ "dump", cmd_dump, "one line per record in file order (-x: with hex)" },
	{ "hex", cmd_hex, "the record at an offset as annotated hex" },
	{ "script", cmd_script, "one line per sample, as perf script (-F fields, -G: no callchains)" },
	{ "top", cmd_top, "hot functions (self and children), as perf report --stdio" },
	{ "tree", cmd_tree, "the process tree with samples per process and thread, as perf report --tasks" },
	{ "folded", cmd_folded, "folded stacks for flamegraph.pl and speedscope" },
	{ "annotate", cmd_annotate, "a function's instructions with their samples, as perf annotate --stdio" },
	{ "diff", cmd_diff, "compare recordings: the baseline's percents and each other's delta, ratio or weighted diff, as perf diff" },
	{ NULL, NULL, NULL },
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: perfnav [OPTIONS] [FILE]        browse a recording (default ./perf.data)\n"
	    "       perfnav COMMAND [OPTIONS] [FILE]\n\nCommands:\n");
	for (const struct subcmd *c = subcmds; c->name; c++)
		fprintf(fp, "  %-8s %s\n", c->name, c->help);
	fprintf(fp, "\nFILE may be a perf.data file, a perf.data/ directory, or - for standard input.\n"
	    "'perfnav COMMAND --help' lists the options of a command.\n");
}

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc >= 2) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
		    strcmp(argv[1], "help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[1], "--version") == 0) {
			printf("perfnav %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		}
		for (const struct subcmd *c = subcmds; c->name; c++)
			if (strcmp(argv[1], c->name) == 0) {
				/* names are escaped where printed; this catches the rest */
				textout_filter(true);
				return c->fn(argc - 1, argv + 1);
			}
	}
	/* curses draws on stdout: only stderr is filtered */
	textout_filter(false);
	return tui_main(argc, argv);
}
