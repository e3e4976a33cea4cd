#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/cpath_diff.h"
#include "symbolize/flame.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/export_svg.h"

/*
 * export_svg.c: a flame graph as a standalone SVG, laid out as the
 * browser's (symbolize/flame.h) on 1200 units: a frame per function in a
 * calling context, as wide as its period, coloured by the kind of code (as
 * the browser's theme: program, kernel, system libraries, JIT, unresolved;
 * off-CPU time in its blues), its name where it fits (cut with an
 * ellipsis), a <title> tooltip with its samples and share; the root at the
 * bottom, or at the top with inverted (an icicle).  A small script
 * searches: a click on "Search" asks for a pattern and marks the frames
 * whose names hold it, saying their share; "Reset" clears it.  A
 * differential graph has NEW's shape, each frame coloured by the change of
 * its share of the event from OLD to NEW (red grew, blue shrank, by 0.1, 1
 * and 5 points, grey the same; as the browser's diff mode), both shares
 * in its tooltip.
 */

#define SVG_WIDTH	1200u
#define SVG_ROW		16u
#define SVG_TOP		40u	/* the title's room */
#define SVG_CHAR	7.2	/* a 12-unit monospace character's width */

static const char *const kind_fill[FLAME_NKINDS] = {
	[FLAME_USER] = "#ffd75f", [FLAME_KERNEL] = "#ff8f6f", [FLAME_SYSTEM] = "#ffb86c",
	[FLAME_JIT] = "#87d787", [FLAME_UNRESOLVED] = "#c6c6c6", [FLAME_ROOT] = "#dadada",
};

/*
 * s as XML text, its first max characters (an ellipsis for the rest):
 * markup escaped, control characters left out, bad UTF-8 as U+FFFD.
 */
static void
xml_text(FILE *fp, const char *s, size_t max)
{
	size_t n = strlen(s), shown = 0, i = 0;

	while (i < n && shown < max) {
		unsigned char c = (unsigned char)s[i];
		size_t k = text_unit(s + i, n - i, 0);

		if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') {
			fprintf(fp, "&#%u;", c);
			i++;
		} else if (k > 0) {
			fwrite(s + i, 1, k, fp);
			i += k;
		} else {
			if (c >= 0x80)
				fputs("\xef\xbf\xbd", fp);
			i++;
		}
		shown++;
	}
	if (i < n)
		fputs("\xe2\x80\xa6", fp);	/* cut: an ellipsis */
}

/* The number of characters of s (UTF-8 sequences count once). */
static size_t
chars_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void
header(FILE *fp, unsigned height, const char *title)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" onload=\"init(evt)\">\n"
	    "<style>text { font-family: monospace; font-size: 12px; } .f:hover rect { stroke: #000; "
	    "stroke-width: 0.5; } .m rect { fill: #ff5fd7; }</style>\n"
	    "<script type=\"text/ecmascript\"><![CDATA[\n"
	    "var total, info;\n"
	    "function init(e) { total = document.getElementById('root').getAttribute('data-period'); "
	    "info = document.getElementById('info'); }\n"
	    "function search() { var p = prompt('Search for (a regular expression):', ''); if (p == null) return; "
	    "var re = new RegExp(p), sum = 0, seen = [], g = document.getElementsByClassName('f');\n"
	    "  for (var i = 0; i < g.length; i++) { var n = g[i].getAttribute('data-name'); "
	    "g[i].classList.remove('m'); if (!re.test(n)) continue; g[i].classList.add('m'); "
	    "var x = +g[i].getAttribute('data-x'), w = +g[i].getAttribute('data-w'), in_ = false;\n"
	    "    for (var k = 0; k < seen.length; k++) if (x >= seen[k][0] && x + w <= seen[k][1]) in_ = true;\n"
	    "    if (!in_) { seen.push([x, x + w]); sum += +g[i].getAttribute('data-period'); } }\n"
	    "  info.textContent = 'Matched: ' + (100 * sum / total).toFixed(2) + '%%'; }\n"
	    "function reset() { var g = document.getElementsByClassName('f'); "
	    "for (var i = 0; i < g.length; i++) g[i].classList.remove('m'); info.textContent = ''; }\n"
	    "]]></script>\n"
	    "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#f8f8f8\"/>\n"
	    "<text x=\"%u\" y=\"22\" text-anchor=\"middle\" style=\"font-size: 16px\">",
	    SVG_WIDTH, height, SVG_WIDTH, height, SVG_WIDTH, height, SVG_WIDTH / 2);
	xml_text(fp, title, 200);
	fprintf(fp, "</text>\n<text x=\"%u\" y=\"22\" text-anchor=\"end\" onclick=\"search()\" "
	    "style=\"cursor: pointer\">Search</text>\n<text x=\"10\" y=\"22\" onclick=\"reset()\" "
	    "style=\"cursor: pointer\">Reset</text>\n<text id=\"info\" x=\"10\" y=\"%u\"></text>\n",
	    SVG_WIDTH - 10, height - 4);
}

/* A differential graph: the tree's nodes paired with OLD's, each recording's event total. */
struct svg_diff {
	const struct cpath_diff	*d;
	uint64_t		 tot_new, tot_old;
	bool			 t_old;		/* the tree drawn is OLD's (the pair NEW's) */
};

/* Differential: the frame's fill by its change, and the change said after its tooltip. */
static const char *
diff_fill(const struct svg_diff *dd, uint32_t node, char *say, size_t n)
{
	static const char *const grew[] = { "#ffafaf", "#ff8787", "#ff5f5f" };
	static const char *const shrank[] = { "#afd7ff", "#87afff", "#5f87ff" };
	struct cpath_dnode d;
	double a, b, pts, m;

	say[0] = '\0';
	if (cpath_diff_node(dd->d, node, &d) < 0)
		return "#dadada";
	b = dd->tot_new ? 100.0 * (double)d.total[dd->t_old ? 1 : 0] / (double)dd->tot_new : 0;
	a = dd->tot_old ? 100.0 * (double)d.total[dd->t_old ? 0 : 1] / (double)dd->tot_old : 0;
	pts = b - a;
	m = pts < 0 ? -pts : pts;
	if (d.pair == CPATH_NONE && dd->t_old)
		snprintf(say, n, "; OLD only: %.2f%%", a);
	else if (d.pair == CPATH_NONE)
		snprintf(say, n, "; NEW only: %.2f%%", b);
	else
		snprintf(say, n, "; OLD %.2f%%, NEW %.2f%%, %+.2f points", a, b, pts);
	if (m < 0.1)
		return "#dadada";
	return (pts > 0 ? grew : shrank)[m >= 5 ? 2 : m >= 1 ? 1 : 0];
}

/* One frame: a group with its tooltip, rectangle and name. */
static void
frame(FILE *fp, const struct hist *h, const struct cpath *t, const struct flame_frame *fr, unsigned y,
    uint64_t total, bool offcpu, const struct svg_diff *dd)
{
	const struct cpath_node *nd = cpath_node(t, fr->node);
	char name[1024], say[128] = "";
	double pct = total ? 100.0 * (double)nd->total_period / (double)total : 0;
	size_t room = (size_t)((fr->w - 4) / SVG_CHAR), len;
	const char *fill = kind_fill[fr->kind < FLAME_NKINDS ? fr->kind : FLAME_USER];

	if (fr->node == 0)
		snprintf(name, sizeof name, "all");
	else
		cpath_func_name(h, nd->func, name, sizeof name);
	if (offcpu && fr->node != 0)
		fill = fr->kind == FLAME_KERNEL ? "#5f87d7" : "#87afff";
	if (dd != NULL && fr->node != 0)
		fill = diff_fill(dd, fr->node, say, sizeof say);
	fprintf(fp, "<g class=\"f\"%s data-name=\"", fr->node == 0 ? " id=\"root\"" : "");
	xml_text(fp, name, 1000);
	fprintf(fp, "\" data-x=\"%u\" data-w=\"%u\" data-period=\"%" PRIu64 "\"><title>", fr->x, fr->w,
	    nd->total_period);
	xml_text(fp, name, 1000);
	fprintf(fp, " (%" PRIu64 " sample%s, %.2f%%%s)</title><rect x=\"%u\" y=\"%u\" width=\"%u\" "
	    "height=\"%u\" fill=\"%s\" rx=\"2\"/>", nd->total_samples, nd->total_samples == 1 ? "" : "s",
	    pct, say, fr->x, y, fr->w, SVG_ROW - 1, fill);
	len = chars_of(name);
	if (room >= 3) {
		fprintf(fp, "<text x=\"%u\" y=\"%u\">", fr->x + 3, y + SVG_ROW - 4);
		xml_text(fp, name, len <= room ? len : room - 1);
		fputs("</text>", fp);
	}
	fputs("</g>\n", fp);
}

static int
svg_tree(const struct hist *h, const struct symbolizer *z, const struct cpath *t, bool inverted,
    bool offcpu, const struct svg_diff *dd, const char *title, FILE *fp)
{
	struct flame fl = { 0 };
	unsigned height;
	uint64_t total;

	flame_layout(&fl, t, 0, SVG_WIDTH, h, z);
	total = cpath_node(t, 0)->total_period;
	height = SVG_TOP + (unsigned)fl.nrows * SVG_ROW + 24;
	header(fp, height, title);
	for (size_t i = 0; i < fl.n; i++) {
		const struct flame_frame *fr = &fl.f[i];
		unsigned y = inverted ? SVG_TOP + fr->row * SVG_ROW : height - 24 - (fr->row + 1) * SVG_ROW;

		frame(fp, h, t, fr, y, total, offcpu, dd);
	}
	fputs("</svg>\n", fp);
	flame_free(&fl);
	return ferror(fp) ? -1 : 0;
}

int
export_svg_tree(const struct hist *h, const struct symbolizer *z, const struct cpath *t, bool inverted,
    bool offcpu, const char *title, FILE *fp)
{
	return svg_tree(h, z, t, inverted, offcpu, NULL, title, fp);
}

int
export_svg_tree_diff(const struct hist *h, const struct symbolizer *z, const struct cpath *t,
    const struct cpath_diff *d, uint64_t tot_t, uint64_t tot_other, bool t_old, bool inverted,
    const char *title, FILE *fp)
{
	struct svg_diff dd = { .d = d, .tot_new = t_old ? tot_other : tot_t, .tot_old = t_old ? tot_t : tot_other,
			       .t_old = t_old };

	return svg_tree(h, z, t, inverted, false, &dd, title, fp);
}

int
export_svg_diff(const struct hist *ho, size_t evo, const struct hist *hn, const struct symbolizer *zn,
    size_t evn, bool inverted, const char *title, FILE *fp)
{
	struct cpath_query qo = { .ev = evo, .entry = CPATH_NONE }, qn = { .ev = evn, .entry = CPATH_NONE };
	struct cpath *to, *tn;
	struct svg_diff dd = { 0 };
	int rc;

	if (evo >= hist_nevents(ho) || evn >= hist_nevents(hn))
		return -1;
	to = cpath_build((struct hist *)ho, &qo);
	tn = cpath_build((struct hist *)hn, &qn);
	dd.d = cpath_diff_new(hn, tn, ho, to);
	dd.tot_new = hist_event(hn, evn)->total_period;
	dd.tot_old = hist_event(ho, evo)->total_period;
	rc = svg_tree(hn, zn, tn, inverted, false, &dd, title, fp);
	cpath_diff_free((struct cpath_diff *)dd.d);
	cpath_free(to);
	cpath_free(tn);
	return rc;
}

int
export_svg(const struct hist *h, const struct symbolizer *z, size_t ev, bool inverted, bool offcpu,
    const char *title, FILE *fp)
{
	struct cpath_query q = { .ev = ev, .entry = CPATH_NONE };
	struct cpath *t;
	int rc;

	if (ev >= hist_nevents(h))
		return -1;
	t = cpath_build((struct hist *)h, &q);
	rc = export_svg_tree(h, z, t, inverted, offcpu, title, fp);
	cpath_free(t);
	return rc;
}
