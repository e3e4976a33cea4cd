#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The header pane: everything outside the records as one collapsible tree.
 *   Feature sections: every announced section with its offset, size and
 *     decode status (and why), below it the lines "perfnav header" prints
 *     for it (core/feature.h: perf's, then perfnav's counts);
 *   Events (attrs): each attr with sample_type, read_format and the flag
 *     bits spelled out, its ids;
 *   File: mode, byte order, header, sections, the files of a directory;
 *   Diagnostics: every problem found while loading, with its offset;
 *   Refused files: files symbolization would not read (a perf-PID.map that
 *     is a FIFO, a DSO path that is a device, a file over its size cap:
 *     core/safefile.h), each with its reason, as the symbols come in.
 * Problems (diagnostics, refused files) come first when there are any.
 * Enter or x on a row with bytes (a section, an attr, a diagnostic) opens
 * them in the hex view.
 */

enum { C_NAME, C_OFF, C_SIZE, C_STATUS, C_VALUE, C_N };

static const struct column hd_cols[C_N] = {
	[C_NAME] = { "Item", 30, COL_TREE },
	[C_OFF] = { "Offset", 10, COL_RIGHT | COL_NUM },
	[C_SIZE] = { "Size", 8, COL_RIGHT | COL_NUM },
	[C_STATUS] = { "Status", 11, 0 },
	[C_VALUE] = { "Value", 10, COL_FLEX },
};

struct hrow {
	uint8_t		 depth;
	bool		 expanded;
	bool		 have_off;
	char		*name, *value, *status;
	int		 el, status_el;
	uint64_t	 off, size;
	enum nav_target	 t;
	uint64_t	 loc, len;
};

struct hd {
	struct hrow	*rows;
	size_t		 n, cap;
	size_t		 refusals;	/* the symbolizer's refusals shown */
};

static size_t
hadd(struct hd *h, int depth, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t
hadd(struct hd *h, int depth, const char *name, const char *fmt, ...)
{
	struct hrow *r;
	char buf[2048];
	va_list ap;

	GROW(h->rows, h->cap, h->n + 1);
	r = &h->rows[h->n];
	memset(r, 0, sizeof *r);
	r->depth = (uint8_t)depth;
	r->name = xstrdup(name);
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
		r->value = xstrdup(buf);
	}
	return h->n++;
}

static void hadd_value(struct hd *h, size_t i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set row i's value. */
static void
hadd_value(struct hd *h, size_t i, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(h->rows[i].value);
	h->rows[i].value = xstrdup(buf);
}

static void
hbytes(struct hd *h, size_t i, uint64_t off, uint64_t size, bool hex)
{
	struct hrow *r = &h->rows[i];

	r->have_off = true;
	r->off = off;
	r->size = size;
	if (hex && size > 0) {
		r->t = NAV_T_BYTES;
		r->loc = off;
		r->len = size;
	}
}

static void
hstatus(struct hd *h, size_t i, const char *st, int el)
{
	free(h->rows[i].status);
	h->rows[i].status = xstrdup(st);
	h->rows[i].status_el = el;
}

/* ---- attrs ---- */

struct bitname {
	uint64_t	 bit;
	const char	*name;
};

static void
attr_flags(char *buf, size_t n, const struct perf_event_attr *a)
{
	size_t o = 0;

	buf[0] = '\0';
#define F(name) \
	if (a->name && o < n) \
		o += (size_t)snprintf(buf + o, n - o, "%s" #name, o ? " " : "");
	F(disabled) F(inherit) F(pinned) F(exclusive) F(exclude_user) F(exclude_kernel)
	F(exclude_hv) F(exclude_idle) F(mmap) F(comm) F(freq) F(inherit_stat) F(enable_on_exec)
	F(task) F(watermark) F(mmap_data) F(sample_id_all) F(exclude_host) F(exclude_guest)
	F(exclude_callchain_kernel) F(exclude_callchain_user) F(mmap2) F(comm_exec)
	F(use_clockid) F(context_switch) F(write_backward) F(namespaces) F(ksymbol) F(bpf_event)
	F(aux_output) F(cgroup) F(text_poke) F(build_id) F(inherit_thread) F(remove_on_exec)
	F(sigtrap)
#undef F
	if (a->precise_ip && o < n)
		snprintf(buf + o, n - o, "%sprecise_ip=%u", o ? " " : "", (unsigned)a->precise_ip);
}

static void
add_attrs(struct pane *p, struct hd *h)
{
	const struct attr_table *t = session_attrs(p->s);
	size_t top = hadd(h, 0, "Events (attrs)", "%zu", t->n);

	h->rows[top].expanded = true;
	for (size_t i = 0; i < t->n; i++) {
		const struct pn_attr *pa = &t->v[i];
		const struct perf_event_attr *a = &pa->attr;
		char st[512], rf[256], fl[1024], ids[512];
		size_t r, o = 0;

		names_sample_type(a->sample_type, NAMES_BITS_ALL, st, sizeof st);
		names_read_format(a->read_format, NAMES_BITS_ALL, rf, sizeof rf);
		if (st[0] == '\0')
			snprintf(st, sizeof st, "0");
		if (rf[0] == '\0')
			snprintf(rf, sizeof rf, "0");
		attr_flags(fl, sizeof fl, a);
		r = hadd(h, 1, session_attr_name(p->s, (int)i), "type %" PRIu32 ", config %#" PRIx64
		    ", sample_type %s", a->type, (uint64_t)a->config, st);
		if (session_info(p->s).mode != SESSION_PIPE && pa->disk_size)
			hbytes(h, r, pa->file_off, pa->disk_size, true);
		hadd(h, 2, "type", "%" PRIu32, a->type);
		hadd(h, 2, "config", "%#" PRIx64, (uint64_t)a->config);
		hadd(h, 2, a->freq ? "sample_freq" : "sample_period", "%" PRIu64,
		    (uint64_t)a->sample_period);
		hadd(h, 2, "sample_type", "%s (%#" PRIx64 ")", st, (uint64_t)a->sample_type);
		hadd(h, 2, "read_format", "%s (%#" PRIx64 ")", rf, (uint64_t)a->read_format);
		hadd(h, 2, "flags", "%s", fl[0] ? fl : "(none)");
		if (a->branch_sample_type)
			hadd(h, 2, "branch_sample_type", "%#" PRIx64, (uint64_t)a->branch_sample_type);
		if (a->sample_regs_user)
			hadd(h, 2, "sample_regs_user", "%#" PRIx64, (uint64_t)a->sample_regs_user);
		if (a->sample_stack_user)
			hadd(h, 2, "sample_stack_user", "%" PRIu32, a->sample_stack_user);
		if (a->sample_regs_intr)
			hadd(h, 2, "sample_regs_intr", "%#" PRIx64, (uint64_t)a->sample_regs_intr);
		if (a->use_clockid)
			hadd(h, 2, "clockid", "%d (%s)", a->clockid, names_clockid(a->clockid));
		if (a->sample_max_stack)
			hadd(h, 2, "sample_max_stack", "%u", (unsigned)a->sample_max_stack);
		hadd(h, 2, "size", "%" PRIu32 " (%" PRIu32 " bytes on disk)", a->size, pa->disk_size);
		ids[0] = '\0';
		for (size_t k = 0; k < pa->nids && k < 32 && o < sizeof ids; k++)
			o += (size_t)snprintf(ids + o, sizeof ids - o, "%s%" PRIu64, k ? ", " : "",
			    pa->ids[k]);
		hadd(h, 2, "ids", "%zu%s%s%s", pa->nids, pa->nids ? ": " : "", ids,
		    pa->nids > 32 ? ", ..." : "");
		if (session_attr_counts(p->s, i) != NULL)
			hadd(h, 2, "samples", "%" PRIu64,
			    session_attr_counts(p->s, i)->by_type[PF_REC_SAMPLE]);
	}
}

/* ---- feature sections ---- */

/* The section's rows as "perfnav header" prints them (core/feature.h):
 * perf's lines, then perfnav's own; a line perf indents goes under the
 * line before it.  Returns how many. */
static size_t
feature_rows(struct pane *p, struct hd *h, unsigned bit)
{
	const struct features *ft = session_features(p->s);
	struct feat_rows r = { NULL, 0, 0 };
	size_t n, perf;

	feature_describe(ft, session_attrs(p->s), bit, &r);
	perf = r.n;
	feature_describe_notes(ft, bit, &r);
	for (size_t i = 0; i < r.n; i++) {
		size_t k = hadd(h, i < perf && r.v[i].lead[0] != '\0' ? 3 : 2, r.v[i].label, NULL);

		if (r.v[i].value != NULL)
			h->rows[k].value = xstrdup(r.v[i].value);
	}
	n = r.n;
	feature_rows_free(&r);
	return n;
}

static void
add_features(struct pane *p, struct hd *h)
{
	const struct features *f = session_features(p->s);
	size_t top, n = 0;

	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++)
		n += f->sec[bit].present;
	top = hadd(h, 0, "Feature sections", "%zu present", n);
	h->rows[top].expanded = true;
	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++) {
		const struct feat_sec *fs = &f->sec[bit];
		const char *name = feat_name(bit);
		char nm[40];
		size_t r, nrows;

		if (!fs->present)
			continue;
		if (feature_end_marker(bit, fs->size))
			snprintf(nm, sizeof nm, "(end marker %u)", bit);
		else if (name == NULL)
			snprintf(nm, sizeof nm, "unknown-%u", bit);
		else
			snprintf(nm, sizeof nm, "%s", name);
		r = hadd(h, 1, nm, NULL);
		hbytes(h, r, fs->offset, fs->size, fs->status != FEAT_MISSING);
		hstatus(h, r, feat_status_name(fs->status),
		    fs->status == FEAT_OK || fs->status == FEAT_RAW ? 0 : EL_DAMAGED);
		nrows = feature_rows(p, h, bit);
		/* One line shows beside the section; more are counted. */
		if (nrows == 1)
			h->rows[r].value = xstrdup(h->rows[r + 1].value != NULL ?
			    h->rows[r + 1].value : h->rows[r + 1].name);
		else if (nrows > 1)
			hadd_value(h, r, "%zu line%s", nrows, plural(nrows));
		if (fs->why)
			hadd(h, 2, "problem", "%s", fs->why);
		if (h->rows[r].value == NULL && fs->why)
			h->rows[r].value = xstrdup(fs->why);
	}
}

/* ---- the file ---- */

static void
add_file(struct pane *p, struct hd *h)
{
	const struct session *s = p->s;
	struct session_info si = session_info(s);
	const struct rec_index *ix = session_index(s);
	size_t top = hadd(h, 0, "File", "%s", si.path), r;

	h->rows[top].expanded = true;
	hadd(h, 1, "mode", "%s%s", si.mode == SESSION_PIPE ? "pipe" : si.mode == SESSION_DIR ?
	    "directory" : "file", si.from_stdin ? " (standard input)" : "");
	hadd(h, 1, "byte order", "%s", si.swap ? "other than this machine's (swapped)" :
	    "this machine's");
	if (si.mode != SESSION_PIPE) {
		r = hadd(h, 1, "header", "%" PRIu64 " bytes", si.header_size);
		hbytes(h, r, 0, si.header_size, true);
		r = hadd(h, 1, "attrs section", "attr_size %" PRIu64, si.attr_size);
		hbytes(h, r, si.attrs_sec.offset, si.attrs_sec.size, true);
		r = hadd(h, 1, "data section", NULL);
		hbytes(h, r, si.data_sec.offset, si.data_sec.size, false);
		if (si.event_types_sec.size) {
			r = hadd(h, 1, "event_types section", NULL);
			hbytes(h, r, si.event_types_sec.offset, si.event_types_sec.size, true);
		}
		{
			size_t n = 0;

			for (unsigned b = 0; b < PF_FEAT_BITS; b++)
				n += session_features(s)->sec[b].present;
			r = hadd(h, 1, "feature table", "%zu section%s", n, plural(n));
			hbytes(h, r, si.feat_off, 16 * n, n > 0);
		}
	}
	hadd(h, 1, "records", "%zu (%zu without a timestamp, %" PRIu64 " from COMPRESSED)",
	    ix->n, ix->n_untimed, si.nr_containers_records);
	if (si.nzchunks)
		hadd(h, 1, "decompressed", "%zu byte%s in %zu chunk%s", si.zlen, plural(si.zlen),
		    si.nzchunks, plural(si.nzchunks));
	for (size_t i = 0; i < session_nfiles(s); i++) {
		char nm[32];

		snprintf(nm, sizeof nm, "file %zu", i);
		r = hadd(h, 1, nm, "%s, %" PRIu64 " bytes, %" PRIu64 " records%s", session_file(s, i)->path,
		    session_file(s, i)->size, session_file(s, i)->nrecords, session_file(s, i)->damaged ? ", damaged" : "");
		if (session_file(s, i)->damaged)
			hstatus(h, r, "damaged", EL_DAMAGED);
	}
	if (si.kcore_dir)
		hadd(h, 1, "kcore_dir", "%s", si.kcore_dir);
}

static void
add_diags(struct pane *p, struct hd *h)
{
	const struct session *s = p->s;
	const struct diag_list *dg = session_diags(s);
	struct session_info si = session_info(s);
	size_t top = hadd(h, 0, "Diagnostics", "%zu%s", dg->n, dg->n ? "" : " (none)");

	h->rows[top].expanded = true;
	if (dg->n)
		hstatus(h, top, si.damaged ? "damaged" : "notes", si.damaged ? EL_DAMAGED : EL_WARNING);
	for (size_t i = 0; i < dg->n; i++) {
		const struct diag *d = &dg->v[i];
		char nm[48];
		size_t r;

		if (session_nfiles(s) > 1 && d->file < session_nfiles(s))
			snprintf(nm, sizeof nm, "file %" PRIu32, d->file);
		else if (session_nfiles(s) > 1)
			snprintf(nm, sizeof nm, "directory");
		else
			snprintf(nm, sizeof nm, "%s", d->severity >= DIAG_ERROR ? "error" :
			    d->severity == DIAG_WARN ? "warning" : "note");
		r = hadd(h, 1, nm, "%s", d->msg);
		hstatus(h, r, d->severity >= DIAG_ERROR ? "error" : d->severity == DIAG_WARN ?
		    "warning" : "note", d->severity >= DIAG_WARN ? EL_DAMAGED : EL_WARNING);
		if (d->offset != PERF_ERR_OFF_NONE && d->file < session_nfiles(s)) {
			uint64_t loc = session_file(s, d->file)->vbase + d->offset, left;
			struct rec rec;

			h->rows[r].have_off = true;
			h->rows[r].off = d->offset;
			if (session_rec(s, loc, &rec) == 0) {
				h->rows[r].t = NAV_T_RECORD;
				h->rows[r].loc = loc;
				h->rows[r].size = rec.size;
			} else if (d->offset < session_file(s, d->file)->size) {
				left = session_file(s, d->file)->size - d->offset;
				h->rows[r].t = NAV_T_BYTES;
				h->rows[r].loc = loc;
				h->rows[r].len = h->rows[r].size = left < 256 ? left : 256;
			}
		}
	}
	if (dg->dropped)
		hadd(h, 1, "more", "%zu more problem%s not kept", dg->dropped, plural(dg->dropped));
}

/* The files the symbolizer refused so far (each once), if any. */
static void
add_refusals(struct pane *p, struct hd *h)
{
	struct sym_refusal *r;
	size_t dropped, n, top, files = 0;

	h->refusals = p->sym != NULL ? symbolizer_refusals(p->sym->z, NULL, 0, &dropped) : 0;
	if (h->refusals == 0)
		return;
	r = xcalloc(h->refusals, sizeof *r);
	n = symbolizer_refusals(p->sym->z, r, h->refusals, NULL);
	top = hadd(h, 0, "Refused files", NULL);
	h->rows[top].expanded = true;
	hstatus(h, top, "refused", EL_WARNING);
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		const char *base;
		size_t row;

		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(r[k].path, r[i].path) == 0;
		if (seen)
			continue;
		base = strrchr(r[i].path, '/');
		row = hadd(h, 1, base != NULL && base[1] ? base + 1 : r[i].path, "%s (%s)",
		    r[i].why, r[i].path);
		hstatus(h, row, r[i].cut ? "cut short" : "refused", EL_WARNING);
		files++;
	}
	hadd_value(h, top, "%zu file%s not read for symbols%s", files, files == 1 ? "" : "s",
	    dropped ? ", more not kept" : "");
	free(r);
}

/* ---- pane ops ---- */

static size_t
hd_nrows(struct pane *p)
{
	return ((struct hd *)p->priv)->n;
}

static void
hd_row(struct pane *p, size_t idx, struct row *r)
{
	const struct hrow *h = &((struct hd *)p->priv)->rows[idx];

	r->depth = h->depth;
	r->expanded = h->expanded;
	row_set(r, C_NAME, h->depth == 0 ? EL_COMM : h->depth == 1 ? EL_FIELD_NAME : 0, "%s",
	    h->name);
	if (h->have_off) {
		row_set(r, C_OFF, EL_HEX_OFFSET, "%#" PRIx64, h->off);
		if (h->size || h->t == NAV_T_BYTES)
			row_set(r, C_SIZE, 0, "%" PRIu64, h->size);
	}
	if (h->status)
		row_set(r, C_STATUS, h->status_el, "%s", h->status);
	if (h->value)
		row_set(r, C_VALUE, EL_FIELD_VALUE, "%s", h->value);
}

static int
hd_key(struct pane *p, enum action a)
{
	struct hd *hd = p->priv;
	size_t src = widget_cursor_row(&p->w);
	const struct hrow *h;

	if ((a != ACT_ENTER && a != ACT_HEX) || src == WIDGET_NONE)
		return PANE_IGNORED;
	h = &hd->rows[src];
	if (h->t == NAV_T_NONE) {
		if (a == ACT_ENTER && widget_has_children(&p->w, src)) {
			widget_toggle(&p->w);
			return PANE_HANDLED | PANE_REDRAW;
		}
		snprintf(p->msg, sizeof p->msg, "no bytes to show for this row");
		return PANE_HANDLED | PANE_MSG;
	}
	nav_view_init(&p->push, PANE_HEX);
	p->push.target = h->t;
	p->push.arg = h->loc;
	p->push.arg3 = h->len;
	snprintf(p->push.label, sizeof p->push.label, "hex %s", TEXT_CLIP(h->name, 30));
	return PANE_HANDLED | PANE_PUSH;
}

static void
hd_rows_free(struct hd *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->rows[i].name);
		free(h->rows[i].value);
		free(h->rows[i].status);
	}
	h->n = 0;
}

static void
hd_build(struct pane *p, struct hd *h)
{
	const struct diag_list *dg = session_diags(p->s);

	hd_rows_free(h);
	/* problems first when there are any: that is what a damaged file is about */
	if (dg->n)
		add_diags(p, h);
	add_refusals(p, h);
	add_features(p, h);
	add_attrs(p, h);
	add_file(p, h);
	if (dg->n == 0)
		add_diags(p, h);
}

static int
hd_init(struct pane *p)
{
	struct hd *h = xcalloc(1, sizeof *h);

	p->priv = h;
	hd_build(p, h);
	p->cols = hd_cols;
	p->ncols = C_N;
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

/* The list; files refused since the last draw (symbols come in meanwhile)
 * make it again, the cursor kept where it was (clamped). */
static void
hd_draw(struct pane *p, const struct pane_canvas *c)
{
	struct hd *h = p->priv;

	if (p->sym != NULL && symbolizer_refusals(p->sym->z, NULL, 0, NULL) != h->refusals) {
		hd_build(p, h);
		widget_refresh(&p->w);
	}
	widget_draw(&p->w, c);
}

static void
hd_free(struct pane *p)
{
	struct hd *h = p->priv;

	if (h == NULL)
		return;
	hd_rows_free(h);
	free(h->rows);
	free(h);
}

static const char *
hd_help(struct pane *p)
{
	(void)p;
	return "Enter/x:bytes  +/Right:expand  E/C:all  /:search";
}

const struct pane_ops pane_header_ops = {
	.name = "header",
	.description = "the header and every feature section, with offsets and decode status",
	.title = "Header",
	.init = hd_init,
	.free = hd_free,
	.draw = hd_draw,
	.key = hd_key,
	.nrows = hd_nrows,
	.row = hd_row,
	.enter = pane_list_enter,
	.save = pane_list_save,
	.help = hd_help,
};
