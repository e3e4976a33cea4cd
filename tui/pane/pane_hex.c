#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/tpevent.h"
#include "tui/pane.h"

/*
 * The hex pane: the bytes of one record (or of a feature section, an attr,
 * the file header) as offset | hex | ASCII, with the record's decoded
 * fields beside them (fields_describe).  The cursor moves through the
 * fields and the selected field's bytes are highlighted.  A record that
 * came out of a PERF_RECORD_COMPRESSED shows its decompressed bytes and
 * says which container it came from.  A tracepoint sample's payload
 * (raw.data) is named field by field as its format in the recording's
 * tracing data says (libtraceevent: tpevent.h), "raw.prev_pid" and so on,
 * the bytes after the fixed fields (dynamic arrays' data, padding) as
 * raw.rest.  x or
 * Enter goes back to the record in the events list.
 */

struct hfield {
	uint32_t	 off, len;
	enum field_kind	 kind;
	char		*name, *value;
};

struct hx {
	enum nav_target	 t;
	uint64_t	 loc, len;
	const uint8_t	*p;
	bool		 have_rec;
	struct rec	 rec;
	struct hfield	*f;
	size_t		 nf, capf;
	bool		 damaged;
	size_t		 cur;		/* field, or line in byte mode */
	size_t		 htop;		/* first display line on screen (struct hline) */
	char		 what[600];	/* first line: what this is */
	char		 where[256];	/* second: where it came from */
	uint64_t	 base;		/* offset shown for byte 0 */
	bool		 rel;		/* offsets relative to the record */
	int		 last_h, last_bpl;
	struct tpevent	*tp;		/* tracepoint payloads (made once) */
	bool		 tp_tried;
};

static void
hx_clear(struct hx *h)
{
	struct tpevent *tp = h->tp;
	bool tried = h->tp_tried;

	for (size_t i = 0; i < h->nf; i++) {
		free(h->f[i].name);
		free(h->f[i].value);
	}
	free(h->f);
	memset(h, 0, sizeof *h);
	h->tp = tp;
	h->tp_tried = tried;
}

static void
collect(void *arg, const struct field *f)
{
	struct hx *h = arg;
	struct hfield *d;

	GROW(h->f, h->capf, h->nf + 1);
	d = &h->f[h->nf++];
	d->off = f->off;
	d->len = f->len;
	d->kind = f->kind;
	d->name = xstrdup(f->name);
	d->value = xstrdup(f->value);
}

static int
hfield_cmp(const void *a, const void *b)
{
	const struct hfield *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* One payload field as an hfield at record offset base + f->offset. */
static void
add_tp_field(struct hx *h, uint32_t base, uint32_t len, const struct tp_field *f)
{
	char name[FIELD_NAME_MAX], value[TP_VALUE_MAX * 4 + 1];
	struct hfield *d;

	if (f->size == 0 || f->offset >= len)
		return;
	snprintf(name, sizeof name, "raw.%s", f->name);
	text_escape(value, sizeof value, f->value, strlen(f->value), 0);
	GROW(h->f, h->capf, h->nf + 1);
	d = &h->f[h->nf++];
	d->off = base + f->offset;
	d->len = f->size < len - f->offset ? f->size : len - f->offset;
	d->kind = f->outside ? FIELD_BAD : FIELD_BYTES;
	d->name = xstrdup(name);
	d->value = xstrdup(f->outside ? "(past the payload)" : value);
}

/*
 * A tracepoint sample's raw.data field replaced by the payload's fields
 * (its format from the tracing data), then raw.rest for the bytes after
 * the last fixed field.  Other records keep their fields.
 */
static void
name_payload(struct pane *p, struct hx *h)
{
	const struct attr_table *at = session_attrs(p->s);
	struct tp_field tf[64];
	struct sample smp;
	const char *why;
	size_t k, n, nf0;
	uint32_t base, len, end = 0;

	if (h->rec.type != PF_REC_SAMPLE ||
	    record_decode_sample(session_attrs(p->s), &h->rec, &smp, &why) < 0 || smp.attr < 0 ||
	    (size_t)smp.attr >= at->n || at->v[smp.attr].attr.type != PERF_TYPE_TRACEPOINT ||
	    smp.raw == NULL)
		return;
	for (k = 0; k < h->nf && strcmp(h->f[k].name, "raw.data") != 0; k++)
		;
	if (!h->tp_tried) {
		h->tp = tpevent_new(p->s);
		h->tp_tried = true;
	}
	if (k == h->nf || h->tp == NULL)
		return;
	base = h->f[k].off;
	len = h->f[k].len;
	n = tpevent_fields(h->tp, at->v[smp.attr].attr.config, smp.raw, smp.raw_size, tf, 64);
	if (n == 0)
		return;
	free(h->f[k].name);
	free(h->f[k].value);
	h->f[k] = h->f[--h->nf];
	nf0 = h->nf;
	for (size_t i = 0; i < n; i++) {
		add_tp_field(h, base, len, &tf[i]);
		if (!tf[i].outside && tf[i].offset + tf[i].size > end)
			end = tf[i].offset + tf[i].size;
	}
	if (end < len && h->nf > nf0) {
		struct hfield *d;

		GROW(h->f, h->capf, h->nf + 1);
		d = &h->f[h->nf++];
		d->off = base + end;
		d->len = len - end;
		d->kind = FIELD_BYTES;
		d->name = xstrdup("raw.rest");
		d->value = xstrdup("(after the fixed fields: dynamic fields' data, padding)");
	}
	qsort(h->f, h->nf, sizeof *h->f, hfield_cmp);
}

static void
load(struct pane *p, const struct nav_view *v)
{
	struct hx *h = p->priv;
	const struct session *s = p->s;
	struct session_info si = session_info(s);
	char tn[48], off[96];
	const char *in;

	hx_clear(h);
	h->t = v->target;
	h->loc = v->arg;
	h->len = v->arg3;
	if (v->target == NAV_T_RECORD) {
		if (session_rec(s, v->arg, &h->rec) < 0) {
			snprintf(h->what, sizeof h->what, "no record at loc 0x%" PRIx64, v->arg);
			h->t = NAV_T_NONE;
			return;
		}
		h->have_rec = true;
		h->p = h->rec.p;
		h->len = h->rec.size;
		h->damaged = fields_describe(s, &h->rec, collect, h) < 0;
		name_payload(p, h);
		text_record_type(tn, sizeof tn, h->rec.type);
		pane_rec_at(s, v->arg, off, sizeof off);
		/* "at 0x108", or "in data.1 at 0x48" in directory mode */
		in = si.mode == SESSION_DIR ? "in" : "at";
		if (v->arg >= SESSION_ZLOC) {
			const struct zchunk *z = session_zorigin(s, v->arg);
			char coff[32], cat[96];

			h->rel = true;
			h->base = 0;
			snprintf(h->what, sizeof h->what, "PERF_RECORD_%s, %" PRIu32 " bytes%s", tn,
			    h->rec.size, h->damaged ? " (damaged)" : "");
			if (z) {
				text_fmt_offset(coff, sizeof coff, session_rec_offset(s, z->container, NULL));
				pane_rec_at(s, z->container, cat, sizeof cat);
				snprintf(h->where, sizeof h->where,
				    "decompressed from PERF_RECORD_COMPRESSED %s %s, +0x%" PRIx64
				    " in its decompressed bytes (dump: @%s+0x%" PRIx64 ")", in, cat,
				    v->arg - SESSION_ZLOC - z->zoff, coff, v->arg - SESSION_ZLOC - z->zoff);
				snprintf(h->what, sizeof h->what, "PERF_RECORD_%s, %" PRIu32 " bytes%s, %s",
				    tn, h->rec.size, h->damaged ? " (damaged)" : "", h->where);
			} else {
				snprintf(h->where, sizeof h->where, "decompressed bytes");
			}
		} else {
			uint64_t foff;
			uint32_t fi = session_file_of(s, v->arg, &foff);

			h->base = foff;
			snprintf(h->what, sizeof h->what, "PERF_RECORD_%s %s %s, %" PRIu32 " bytes%s", tn,
			    in, off, h->rec.size, h->damaged ? " (damaged)" : "");
			snprintf(h->where, sizeof h->where, "file %s, offset %#" PRIx64,
			    fi < session_nfiles(s) ? session_file(s, fi)->path : si.path, foff);
		}
		return;
	}
	if (v->target == NAV_T_BYTES) {
		uint64_t len = v->arg3;
		uint64_t foff;
		uint32_t fi = session_file_of(s, v->arg, &foff);

		/* clamp to the file */
		if (fi < session_nfiles(s) && foff < session_file(s, fi)->size && len > session_file(s, fi)->size - foff)
			len = session_file(s, fi)->size - foff;
		h->p = session_bytes(s, v->arg, len);
		if (h->p == NULL) {
			snprintf(h->what, sizeof h->what, "%s: bytes at %#" PRIx64 " are not in the file",
			    v->label, v->arg);
			h->t = NAV_T_NONE;
			return;
		}
		h->len = len;
		h->base = foff;
		snprintf(h->what, sizeof h->what, "%s: %" PRIu64 " bytes at file offset %#" PRIx64,
		    v->label[0] ? v->label + (strncmp(v->label, "hex ", 4) == 0 ? 4 : 0) : "bytes",
		    len, foff);
		snprintf(h->where, sizeof h->where, "file %s",
		    fi < session_nfiles(s) ? session_file(s, fi)->path : si.path);
		return;
	}
	h->t = NAV_T_NONE;
	snprintf(h->what, sizeof h->what, "no record selected: pick one in the events pane (3) "
	    "and press x");
}

/* ---- model helpers (curses-free) ---- */

static size_t
ncursor(const struct hx *h)
{
	if (h->t == NAV_T_NONE)
		return 0;
	return h->nf ? h->nf : (size_t)((h->len + 15) / 16);
}

static void
hx_enter(struct pane *p, const struct nav_view *v)
{
	struct hx *h = p->priv;

	load(p, v);
	if (v->cursor != NAV_NONE && v->cursor < ncursor(h))
		h->cur = (size_t)v->cursor;
}

static void
hx_save(struct pane *p, struct nav_view *v)
{
	struct hx *h = p->priv;

	v->target = h->t;
	v->arg = h->loc;
	v->arg3 = h->len;
	v->cursor = h->cur;
}

/* Index position of the record at loc (linear; once per key press). */
static size_t
index_pos(const struct session *s, uint64_t loc)
{
	const struct rec_index *ix = session_index(s);

	for (size_t i = 0; i < ix->n; i++)
		if (ent_loc(index_ent(ix, i)) == loc)
			return i;
	return SIZE_MAX;
}

static int
hx_key(struct pane *p, enum action a)
{
	struct hx *h = p->priv;
	size_t n = ncursor(h);
	long page = h->last_h > 4 ? h->last_h - 4 : 10;

	switch (a) {
	case ACT_UP:
		if (h->cur > 0)
			h->cur--;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_DOWN:
		if (h->cur + 1 < n)
			h->cur++;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_PAGE_UP:
		h->cur = h->cur > (size_t)page ? h->cur - (size_t)page : 0;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_PAGE_DOWN:
		h->cur = n && h->cur + (size_t)page < n ? h->cur + (size_t)page : n ? n - 1 : 0;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TOP:
		h->cur = 0;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_BOTTOM:
		h->cur = n ? n - 1 : 0;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_RECORD:
	case ACT_ENTER:
	case ACT_HEX: {
		size_t pos;

		if (h->t != NAV_T_RECORD)
			return PANE_HANDLED | PANE_BACK;
		pos = index_pos(p->s, h->loc);
		if (pos == SIZE_MAX) {
			snprintf(p->msg, sizeof p->msg, "this record is not in the index");
			return PANE_HANDLED | PANE_MSG;
		}
		nav_view_init(&p->push, PANE_EVENTS);
		p->push.cursor = pos;
		snprintf(p->push.label, sizeof p->push.label, "events");
		return PANE_HANDLED | PANE_PUSH;
	}
	default:
		return PANE_IGNORED;
	}
}

/* ---- drawing ---- */

static void
put(WINDOW *win, int y, int x, int w, const char *s, unsigned long attr)
{
	wchar_t buf[512];

	if (w <= 0)
		return;
	wattrset(win, (attr_t)attr);
	text_decode(s, buf, sizeof buf / sizeof buf[0], w, false);
	mvwaddnwstr(win, y, x, buf, -1);
}

/* Field containing byte i (fields are in offset order). */
static const struct hfield *
field_at(const struct hx *h, uint64_t i, size_t *idx)
{
	size_t lo = 0, hi = h->nf;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (h->f[mid].off + h->f[mid].len <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < h->nf && h->f[lo].off <= i) {
		if (idx)
			*idx = lo;
		return &h->f[lo];
	}
	return NULL;
}

/*
 * A display line: a line of bytes (line, or UINT64_MAX below one whose
 * fields need more lines) and the field listed beside it (SIZE_MAX: none).
 * Each field is listed level with the line of bytes it starts in.
 */
struct hline {
	uint64_t	line;
	size_t		field;
};

static struct hline *
hex_lines(const struct hx *h, int bpl, size_t *n)
{
	uint64_t nlines = (h->len + (uint64_t)bpl - 1) / (uint64_t)bpl;
	struct hline *v = xcalloc((size_t)nlines + h->nf + 1, sizeof *v);
	size_t k = 0, f = 0;

	for (uint64_t l = 0; l < nlines; l++) {
		bool first = true;

		do {
			bool here = f < h->nf && h->f[f].off / (uint64_t)bpl <= l;

			v[k].line = first ? l : UINT64_MAX;
			v[k++].field = here ? f++ : SIZE_MAX;
			first = false;
		} while (f < h->nf && h->f[f].off / (uint64_t)bpl <= l);
	}
	while (f < h->nf) {	/* past the bytes: should not be, but listed */
		v[k].line = UINT64_MAX;
		v[k++].field = f++;
	}
	*n = k;
	return v;
}

/* The line of bytes from offset o: offset, hex, ASCII, the selection highlighted. */
static void
draw_bytes(WINDOW *win, const struct theme_attrs *ta, const struct hx *h, int y, int x, uint64_t o,
    int bpl, uint64_t sel_lo, uint64_t sel_hi)
{
	char line[32];

	if (h->rel)
		snprintf(line, sizeof line, "+%07" PRIx64, o);
	else
		snprintf(line, sizeof line, "%08" PRIx64, h->base + o);
	put(win, y, x, 10, line, ta->a[EL_HEX_OFFSET]);
	x += 10;
	for (int k = 0; k < bpl; k++) {
		uint64_t i = o + (uint64_t)k;
		unsigned long at = ta->a[EL_HEX_BYTES];
		const struct hfield *f;
		char b[4];

		if (i >= h->len)
			break;
		f = h->nf ? field_at(h, i, NULL) : NULL;
		if (i >= sel_lo && i < sel_hi)
			at = ta->a[EL_HEX_FIELD];
		else if (f && f->kind == FIELD_BAD)
			at = ta->a[EL_DAMAGED];
		else if (f && f->kind == FIELD_PAD)
			at = ta->a[EL_DIM];
		snprintf(b, sizeof b, "%02x", h->p[i]);
		put(win, y, x + 3 * k, 2, b, at);
		/* the space between two selected bytes is selected too */
		if (i + 1 < sel_hi && i >= sel_lo && k + 1 < bpl)
			put(win, y, x + 3 * k + 2, 1, " ", at);
		b[0] = h->p[i] >= 0x20 && h->p[i] < 0x7f ? (char)h->p[i] : '.';
		b[1] = '\0';
		put(win, y, x + 3 * bpl + 1 + k, 1, b,
		    i >= sel_lo && i < sel_hi ? ta->a[EL_HEX_FIELD] : ta->a[EL_HEX_ASCII]);
	}
}

/* A field's line beside the bytes: its offset and name, its value. */
static void
draw_field(WINDOW *win, const struct theme_attrs *ta, const struct hfield *f, bool cur, int y, int fx,
    int fw)
{
	char line[1024];
	int nw;

	snprintf(line, sizeof line, "%04x %s", f->off, f->name);
	nw = (int)strlen(line);
	if (nw > fw / 2)
		nw = fw / 2;
	if (cur) {
		wattrset(win, (attr_t)ta->a[EL_CURSOR]);
		mvwhline(win, y, fx, ' ', fw);
	}
	put(win, y, fx, nw, line, ta->a[cur ? EL_CURSOR : EL_FIELD_NAME]);
	snprintf(line, sizeof line, " %s", f->value);
	put(win, y, fx + nw, fw - nw, line,
	    ta->a[cur ? EL_CURSOR : f->kind == FIELD_BAD ? EL_DAMAGED : EL_FIELD_VALUE]);
}

static void
hx_draw(struct pane *p, const struct pane_canvas *c)
{
	struct hx *h = p->priv;
	WINDOW *win = c->win;
	const struct theme_attrs *ta = c->ta;
	int bpl = c->w >= 130 ? 16 : 8;
	int hexw = 10 + 3 * bpl + 1 + bpl, body = c->h - 2;
	int fx = c->x + hexw + 2, fw = c->x + c->w - fx;
	uint64_t sel_lo = 0, sel_hi = 0;
	struct hline *lines;
	size_t nl, sl, sle;
	char line[1024];

	h->last_h = c->h;
	h->last_bpl = bpl;
	for (int y = 0; y < c->h; y++) {
		wattrset(win, (attr_t)ta->a[EL_NORMAL]);
		mvwhline(win, c->y + y, c->x, ' ', c->w);
	}
	put(win, c->y, c->x, c->w, h->what, ta->a[h->damaged ? EL_DAMAGED : EL_COMM]);
	if (h->t == NAV_T_NONE || h->p == NULL)
		return;
	/* the selection */
	if (h->nf) {
		const struct hfield *f = &h->f[h->cur < h->nf ? h->cur : 0];

		sel_lo = f->off;
		sel_hi = (uint64_t)f->off + f->len;
		snprintf(line, sizeof line, "%s = %s%s", f->name, f->value,
		    f->kind == FIELD_BAD ? "  <-- damaged" : "");
		put(win, c->y + 1, c->x, c->w, line, ta->a[f->kind == FIELD_BAD ? EL_DAMAGED : EL_FIELD_VALUE]);
	} else {
		sel_lo = (uint64_t)h->cur * 16;
		sel_hi = sel_lo + 16;
		put(win, c->y + 1, c->x, c->w, h->where, ta->a[EL_DIM]);
	}
	if (body <= 0)
		return;
	lines = hex_lines(h, bpl, &nl);
	/* keep the selection on screen: its field's line (and its bytes' lines) */
	for (sl = 0; sl < nl; sl++)
		if (h->nf ? lines[sl].field == h->cur : lines[sl].line == sel_lo / (uint64_t)bpl)
			break;
	sle = sl;
	for (size_t i = sl; i < nl; i++)
		if (lines[i].line != UINT64_MAX && sel_hi > 0 && lines[i].line <= (sel_hi - 1) / (uint64_t)bpl)
			sle = i;
	if (sl < h->htop)
		h->htop = sl;
	if (sle >= h->htop + (size_t)body)
		h->htop = sle - (size_t)body + 1 > sl ? sl : sle - (size_t)body + 1;
	if (h->htop >= nl)
		h->htop = 0;
	for (int y = 0; y < body && h->htop + (size_t)y < nl; y++) {
		const struct hline *d = &lines[h->htop + (size_t)y];

		if (d->line != UINT64_MAX)
			draw_bytes(win, ta, h, c->y + 2 + y, c->x, d->line * (uint64_t)bpl, bpl, sel_lo, sel_hi);
		if (d->field != SIZE_MAX && fw >= 12)
			draw_field(win, ta, &h->f[d->field], d->field == h->cur, c->y + 2 + y, fx, fw);
	}
	free(lines);
}

static int
hx_init(struct pane *p)
{
	struct hx *h = xcalloc(1, sizeof *h);

	p->priv = h;
	snprintf(h->what, sizeof h->what, "no record selected: pick one in the events pane (3) "
	    "and press x");
	return 0;
}

static void
hx_free(struct pane *p)
{
	struct hx *h = p->priv;

	if (h == NULL)
		return;
	hx_clear(h);
	tpevent_free(h->tp);
	free(h);
}

static const char *
hx_help(struct pane *p)
{
	(void)p;
	return "Up/Down:fields  x/Enter:decoded record  Esc:back";
}

const struct pane_ops pane_hex_ops = {
	.name = "hex",
	.description = "the bytes of a record or section, annotated field by field",
	.keys = "x record\n" "Enter record\n",
	.title = "Hex",
	.init = hx_init,
	.free = hx_free,
	.draw = hx_draw,
	.key = hx_key,
	.enter = hx_enter,
	.save = hx_save,
	.help = hx_help,
};
