/*
 * export_svg.h: perfnav export's SVG flame graph (tui/cmd/export_svg.c).
 */
#ifndef PERFNAV_TUI_CMD_EXPORT_SVG_H
#define PERFNAV_TUI_CMD_EXPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cpath;
struct cpath_diff;
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
/*
 * A differential flame graph: NEW's (event evn of hn) shape, each frame
 * coloured by the change of its share of the event's total from OLD's
 * (event evo of ho), both in its tooltip.  0, or -1 (an event out of
 * range, a write error).
 */
int export_svg_diff(const struct hist *ho, size_t evo, const struct hist *hn, const struct symbolizer *zn,
    size_t evn, bool inverted, const char *title, FILE *fp);
/* The same of call-path tree t of h (the browser's, its scope and transforms in it). */
int export_svg_tree(const struct hist *h, const struct symbolizer *z, const struct cpath *t, bool inverted,
    bool offcpu, const char *title, FILE *fp);
/*
 * The differential graph of the browser's tree t (of h), its nodes paired
 * with the other recording's by d; tot_t and tot_other the two event
 * totals, t_old when t is OLD's (the browser's O), so the colours and
 * tooltips still say NEW's change from OLD.
 */
int export_svg_tree_diff(const struct hist *h, const struct symbolizer *z, const struct cpath *t,
    const struct cpath_diff *d, uint64_t tot_t, uint64_t tot_other, bool t_old, bool inverted,
    const char *title, FILE *fp);

#endif
