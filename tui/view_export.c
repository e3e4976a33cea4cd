#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/carve.h"
#include "core/core.h"
#include "core/text.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/export_svg.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/view_export.h"
#include "tui/widget.h"

/*
 * view_export.c: the browser's export action, curses-free.  A list pane's
 * rows are written as the widget shows them (its order, filter and tree
 * expansion) with every text whole; the other formats are perfnav
 * export's writers over the scope.
 */

static const struct {
	const char		*end;
	enum view_export_kind	 kind;
} endings[] = {
	{ ".txt", VX_TEXT },
	{ ".svg", VX_SVG },
	{ ".pb.gz", VX_PPROF },
	{ ".pprof", VX_PPROF },
	{ ".json", VX_SPEEDSCOPE },
	{ ".folded", VX_FOLDED },
	{ ".data", VX_PERF },
};

const char view_export_endings[] = ".txt (the rows as shown), .svg (the flame graph), .pb.gz or "
    ".pprof (pprof), .json (speedscope), .folded, .data (a carved perf.data)";

enum view_export_kind
view_export_kind_of(const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
		size_t k = strlen(endings[i].end);

		if (n > k && strcmp(path + n - k, endings[i].end) == 0)
			return endings[i].kind;
	}
	return VX_NONE;
}

/* Columns of UTF-8 text s (a character a column; escapes are ASCII). */
static size_t
text_cols(const char *s)
{
	size_t c = 0;

	for (; *s; s++)
		c += ((unsigned char)*s & 0xc0) != 0x80;
	return c;
}

/* Row src's text of column c into out (escaped; a tree column indented and marked). */
static const char *
cell_text(struct pane *p, size_t src, const struct row *r, int c, struct text_buf *tb, char *tree,
    size_t n)
{
	const char *t = text_esc(tb, r->col[c] ? r->col[c] : "", 0);
	int depth;

	if (!(p->cols[c].flags & COL_TREE) || !p->w.tree)
		return t;
	depth = p->w.depth != NULL ? p->w.depth[src] : r->depth;
	snprintf(tree, n, "%*s%s%s", 2 * depth, "", !widget_has_children(&p->w, src) ? "  " :
	    widget_is_expanded(&p->w, src) ? "- " : "+ ", t);
	return tree;
}

/* One line: the texts of row r (NULL: the titles) padded to w, the last column unpadded. */
static void
put_line(struct pane *p, size_t src, const struct row *r, const size_t *w, struct text_buf *tb,
    char *tree, size_t tn, FILE *fp)
{
	int last = p->ncols - 1;

	while (last > 0 && w[last] == 0)
		last--;
	for (int c = 0; c <= last; c++) {
		const char *t = r == NULL ? p->cols[c].title : cell_text(p, src, r, c, tb, tree, tn);
		size_t pad = w[c] > text_cols(t) ? w[c] - text_cols(t) : 0;

		if (w[c] == 0)
			continue;
		if (c > 0)
			fputs("  ", fp);
		if ((p->cols[c].flags & COL_RIGHT) && r != NULL)
			fprintf(fp, "%*s%s", (int)pad, "", t);
		else
			fprintf(fp, "%s%*s", t, c == last ? 0 : (int)pad, "");
	}
	fputc('\n', fp);
}

long
view_export_text(struct pane *p, const char *title, FILE *fp)
{
	size_t w[ROW_MAXCOLS] = { 0 }, n = widget_count(&p->w), tn = ROW_BUF + 1024;
	struct row *r = malloc(sizeof *r);
	struct text_buf tb = { 0 };
	char *tree = malloc(tn);

	if (!p->is_list || p->ops->row == NULL || r == NULL || tree == NULL || p->ncols > ROW_MAXCOLS) {
		free(r);
		free(tree);
		return -1;
	}
	/* a column is as wide as its widest text; one no row fills is left out */
	for (size_t i = 0; i < n; i++) {
		size_t src = widget_source(&p->w, i);

		row_reset(r);
		p->ops->row(p, src, r);
		for (int c = 0; c < p->ncols; c++) {
			size_t k = text_cols(cell_text(p, src, r, c, &tb, tree, tn));

			w[c] = k > w[c] ? k : w[c];
		}
	}
	for (int c = 0; c < p->ncols; c++)
		if (w[c] > 0 && text_cols(p->cols[c].title) > w[c])
			w[c] = text_cols(p->cols[c].title);
	if (title != NULL)
		fprintf(fp, "# %s\n", text_esc(&tb, title, 0));
	put_line(p, 0, NULL, w, &tb, tree, tn, fp);
	for (size_t i = 0; i < n; i++) {
		size_t src = widget_source(&p->w, i);

		row_reset(r);
		p->ops->row(p, src, r);
		put_line(p, src, r, w, &tb, tree, tn, fp);
	}
	text_buf_free(&tb);
	free(tree);
	free(r);
	return ferror(fp) ? -1 : (long)n;
}

/* The scope's flame graph (its transforms too) as SVG. */
static int
scope_svg(struct symbols *sy, const char *name, FILE *fp)
{
	struct cpath_query q;
	struct cpath *t;
	char title[1024];
	const char *ev = hist_str(sy->h, hist_event(sy->h, sy->scope.ev)->name);
	int rc;

	scope_query(&sy->scope, false, &q);
	t = cpath_build(sy->h, &q);
	snprintf(title, sizeof title, "Flame graph of %s in %s", ev, name);
	rc = export_svg_tree(sy->h, sy->z, t, false, symbols_event_offcpu(sy, sy->scope.ev), title, fp);
	cpath_free(t);
	return rc;
}

int
view_export_scope(struct session *s, struct symbols *sy, const char *name, enum view_export_kind kind,
    FILE *fp)
{
	static const enum export_format fmt[] = { [VX_PPROF] = EXPORT_PPROF,
		[VX_SPEEDSCOPE] = EXPORT_SPEEDSCOPE, [VX_FOLDED] = EXPORT_FOLDED, [VX_PERF] = EXPORT_PERF };
	struct export_spec_args e = { 0 };
	struct hist_filter f;
	bool off;
	int rc;

	if (sy->scope.ev >= hist_nevents(sy->h))
		return -1;
	if (kind == VX_SVG)
		return scope_svg(sy, name, fp);
	if (kind != VX_PPROF && kind != VX_SPEEDSCOPE && kind != VX_FOLDED && kind != VX_PERF)
		return -1;
	off = symbols_event_offcpu(sy, sy->scope.ev);
	e.format = fmt[kind];
	e.event = off ? NULL : hist_str(sy->h, hist_event(sy->h, sy->scope.ev)->name);
	e.offcpu = off && kind != VX_PERF ? symbols_offcpu(sy) : NULL;
	/* the options scope-command writes: the zoom's command, DSO and symbol by name */
	scope_filter_named(&sy->scope, sy->start, sy->h, sy->z, &f);
	e.filter = &f;
	e.name = name;
	if (kind == VX_PERF) {	/* written by offsets: through the file's descriptor */
		struct carve_result res;
		struct perf_err err;

		rc = fflush(fp) == 0 ? export_carve(s, sy->z, &e, fileno(fp), &res, &err) : -1;
	} else {
		rc = export_print(s, sy->z, &e, fp);
	}
	filter_free(&f);
	return rc < 0 || ferror(fp) ? -1 : 0;
}
