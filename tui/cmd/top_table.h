/*
 * top_table.h: what 'perfnav top' prints: its --tsv rows, or the table as
 * 'perf report --stdio' lays it out: per event a '#' header and one
 * aligned line per row, each followed by its call graph when asked
 * (top_graph.h); an event group of the recording (HEADER_GROUP_DESC) as
 * one table with a column per member, as perf shows groups.
 */
#ifndef PERFNAV_TUI_CMD_TOP_TABLE_H
#define PERFNAV_TUI_CMD_TOP_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "tui/cmd/top_graph.h"

struct top_table {
	const struct session	*s;
	double			 pct;		/* hide rows under this percent */
	const struct cg_opts	*cg;		/* call graphs; NULL: none */
	bool			 skip_first;	/* perf's --sort sym call-graph layout */
	bool			 default_sort;	/* no --sort: --mem-mode's header names perf's default */
};

/*
 * top --tsv: one tab-separated row per entry, EVENT [CHILDREN_PCT] SELF_PCT
 * SAMPLES KEY..., rows under pct percent left out.
 */
void top_print_tsv(FILE *fp, struct hist *h, const struct hist_opts *o, double pct);

/* Print every event's table (o: the hist's options, keys filled in). */
void top_print_table(FILE *fp, struct hist *h, const struct hist_opts *o, const struct top_table *t);

#endif
