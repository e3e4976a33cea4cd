/*
 * export_svg.h: perfnav export's SVG flame graph (tui/cmd/export_svg.c).
 */
#ifndef PERFNAV_TUI_CMD_EXPORT_SVG_H
#define PERFNAV_TUI_CMD_EXPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cpath;
struct hist;
struct symbolizer;

/*
 * Event ev of h (built with paths) as a standalone SVG flame graph on fp,
 * the root at the bottom (inverted: at the top, an icicle), off-CPU
 * colours with offcpu, title above it.  0, or -1 (ev out of range, a write
 * error).
 */
int export_svg(const struct hist *h, const struct symbolizer *z, size_t ev, bool inverted, bool offcpu,
    const char *title, FILE *fp);
/* The same of call-path tree t of h (the browser's, its scope and transforms in it). */
int export_svg_tree(const struct hist *h, const struct symbolizer *z, const struct cpath *t, bool inverted,
    bool offcpu, const char *title, FILE *fp);

#endif
