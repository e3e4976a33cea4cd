#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"

/*
 * perfnav hex FILE OFFSET: the record starting at OFFSET as annotated hex,
 * one field per line: its byte range within the record, its bytes, its name
 * and decoded value.
 *
 * OFFSET is a record's offset as dump prints it (its file offset; in pipe
 * mode counted after the 16-byte header, as perf report -D does), 0x...
 * hex or decimal, or for a record decompressed from
 * PERF_RECORD_COMPRESSED the form dump prints,
 * CONTAINER+INNER (0x218+0x40).  In directory mode, prefix the file:
 * data.1:0x128 (a file name or its index, default the first file).
 */

struct target {
	uint32_t	 file;
	uint64_t	 off;		/* file offset (of the container if inner) */
	bool		 inner;
	uint64_t	 ioff;		/* offset in the container's decompressed bytes */
};

struct near {
	bool		 have;
	uint64_t	 key;		/* off, or ioff for inner targets */
	uint32_t	 type;
};

struct find {
	const struct session	*s;
	struct target		 t;
	bool			 found;
	struct rec		 r;
	struct near		 below, above;
};

static bool
parse_num(const char *p, const char **end, uint64_t *v)
{
	bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	const char *digits = hex ? p + 2 : p;
	char *e;

	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return false;
	errno = 0;
	*v = strtoull(digits, &e, hex ? 16 : 10);
	if (errno != 0)
		return false;
	*end = e;
	return true;
}

static int
parse_target(const struct session *s, const char *arg, struct target *t)
{
	const char *colon = strrchr(arg, ':'), *p = arg, *e;

	memset(t, 0, sizeof *t);
	if (colon != NULL) {
		size_t n = (size_t)(colon - arg);
		bool ok = false;

		for (size_t i = 0; i < session_nfiles(s) && !ok; i++) {
			const char *path = session_file(s, i)->path, *base = strrchr(path, '/');
			char idx[24];

			base = base ? base + 1 : path;
			snprintf(idx, sizeof idx, "%zu", i);
			if ((strlen(base) == n && strncmp(base, arg, n) == 0) ||
			    (strlen(path) == n && strncmp(path, arg, n) == 0) ||
			    (strlen(idx) == n && strncmp(idx, arg, n) == 0)) {
				t->file = (uint32_t)i;
				ok = true;
			}
		}
		if (!ok)
			return -1;
		p = colon + 1;
	}
	if (*p == '@')		/* as dump prints inner records */
		p++;
	if (!parse_num(p, &e, &t->off))
		return -1;
	if (*e == '+') {
		t->inner = true;
		if (!parse_num(e + 1, &e, &t->ioff))
			return -1;
	}
	return *e == '\0' ? 0 : -1;
}

static void
near_note(struct near *n, uint64_t key, uint32_t type, bool below)
{
	if (!n->have || (below ? key > n->key : key < n->key)) {
		n->have = true;
		n->key = key;
		n->type = type;
	}
}

static int
find_rec(void *arg, const struct rec *r, int depth)
{
	struct find *f = arg;
	uint32_t fi;
	uint64_t off = session_rec_offset(f->s, r->loc, &fi);

	if (fi != f->t.file)
		return 0;
	if (!f->t.inner) {
		if (depth != 0)
			return 0;
		if (off == f->t.off) {
			f->found = true;
			f->r = *r;
			return 1;
		}
		near_note(off < f->t.off ? &f->below : &f->above, off, r->type, off < f->t.off);
		return 0;
	}
	if (depth == 0 || off != f->t.off) {
		return 0;
	} else {
		const struct zchunk *z = session_zorigin(f->s, r->loc);
		uint64_t in = z ? r->loc - SESSION_ZLOC - z->zoff : 0;

		if (in == f->t.ioff) {
			f->found = true;
			f->r = *r;
			return 1;
		}
		near_note(in < f->t.ioff ? &f->below : &f->above, in, r->type, in < f->t.ioff);
	}
	return 0;
}

static void
type_str(uint32_t type, char *buf, size_t n)
{
	char name[32];

	snprintf(buf, n, "PERF_RECORD_%s", text_record_type(name, sizeof name, type));
}

struct hexout {
	FILE		*fp;
	const uint8_t	*p;
};

#define BYTES_PER_LINE	16

static void
print_field(void *arg, const struct field *f)
{
	struct hexout *h = arg;
	char range[32];

	snprintf(range, sizeof range, "%04x-%04x", f->off, f->off + f->len - 1);
	for (uint32_t i = 0; i < f->len; i += BYTES_PER_LINE) {
		uint32_t k = f->len - i < BYTES_PER_LINE ? f->len - i : BYTES_PER_LINE;
		int w = 0;

		fprintf(h->fp, "  %-9s  ", i == 0 ? range : "");
		for (uint32_t j = 0; j < k; j++)
			w += fprintf(h->fp, "%s%02x", j ? " " : "", h->p[f->off + i + j]);
		if (i == 0)
			fprintf(h->fp, "%*s  %s: %s%s", 3 * BYTES_PER_LINE - 1 - w, "", f->name,
			    f->value, f->kind == FIELD_BAD ? "  <-- damaged" : "");
		fputc('\n', h->fp);
	}
}

const struct cmd_spec hex_spec = {
	.name = "hex",
	.summary = "the record at an offset as annotated hex",
	.run = cmd_hex,
	.usage = "hex FILE OFFSET\n\n"
	    "OFFSET: a record's offset as 'perfnav dump' prints it (0x... or decimal; pipe mode\n"
	    "counts after the 16-byte header, as perf report -D), or CONTAINER+INNER for a record\n"
	    "decompressed from PERF_RECORD_COMPRESSED (as 'perfnav dump' prints it); in\n"
	    "directory mode FILE:OFFSET picks the file (data.1:0x128).",
	.opts = NULL,
	.fn = NULL,
	.maxpos = -1,
};

int
cmd_hex(int argc, char **argv)
{
	struct cmd_run r;
	struct session *s;
	struct find f;
	struct hexout h;
	uint64_t foff;
	char line[8192], tb[40], ta[40];

	if (cmd_begin(&r, argc, argv, &hex_spec, NULL) < 0)
		return r.status;
	if (r.npos != 1) {
		fprintf(stderr, "perfnav hex: %s\nTry 'perfnav hex --help'.\n",
		    r.npos == 0 ? "missing OFFSET" : "too many arguments");
		return EXIT_USAGE;
	}
	if (cmd_load(&r, false) < 0)
		return r.status;
	s = r.s;
	memset(&f, 0, sizeof f);
	f.s = s;
	if (parse_target(s, r.pos[0], &f.t) < 0) {
		fprintf(stderr, "perfnav hex: bad OFFSET '%s': want 0x1a8, 424, 0x218+0x40%s\n",
		    r.pos[0], session_info(s).mode == SESSION_DIR ? " or data.N:0x1a8" : "");
		return cmd_quit(&r, EXIT_USAGE);
	}
	session_walk(s, find_rec, &f);
	if (!f.found) {
		const char *file = f.t.file < session_nfiles(s) ? session_file(s, f.t.file)->path : session_info(s).path;
		char what[64];

		if (f.t.inner)
			snprintf(what, sizeof what, "0x%" PRIx64 "+0x%" PRIx64, f.t.off, f.t.ioff);
		else
			snprintf(what, sizeof what, "0x%" PRIx64, f.t.off);
		fprintf(stderr, "perfnav: %s: offset %s: no record starts there", file, what);
		if (f.t.inner && !f.below.have && !f.above.have) {
			fprintf(stderr, " (0x%" PRIx64 " is not a COMPRESSED record with records"
			    " inside)\n", f.t.off);
		} else if (!f.below.have && !f.above.have) {
			fprintf(stderr, " (the recording has no records)\n");
		} else {
			fprintf(stderr, "; nearest record starts:");
			if (f.below.have) {
				type_str(f.below.type, tb, sizeof tb);
				if (f.t.inner)
					fprintf(stderr, " 0x%" PRIx64 "+0x%" PRIx64 " (%s)", f.t.off,
					    f.below.key, tb);
				else
					fprintf(stderr, " 0x%" PRIx64 " (%s)", f.below.key, tb);
			}
			if (f.above.have) {
				type_str(f.above.type, ta, sizeof ta);
				if (f.t.inner)
					fprintf(stderr, "%s 0x%" PRIx64 "+0x%" PRIx64 " (%s)",
					    f.below.have ? "," : "", f.t.off, f.above.key, ta);
				else
					fprintf(stderr, "%s 0x%" PRIx64 " (%s)", f.below.have ? "," : "",
					    f.above.key, ta);
			}
			fputc('\n', stderr);
		}
		return cmd_quit(&r, EXIT_FAIL);
	}

	foff = session_rec_offset(s, f.r.loc, NULL);
	fields_summary(s, &f.r, line, sizeof line);
	if (f.t.inner)
		printf("%s: 0x%" PRIx64 "+0x%" PRIx64 " [0x%x]: %s\n", session_info(s).path, f.t.off, f.t.ioff,
		    f.r.size, line);
	else
		printf("%s: 0x%" PRIx64 " [0x%x]: %s\n",
		    session_info(s).mode == SESSION_DIR ? session_file(s, f.t.file)->path : session_info(s).path, foff, f.r.size,
		    line);
	if (f.t.inner)
		printf("# decompressed from the PERF_RECORD_COMPRESSED at 0x%" PRIx64
		    ", at 0x%" PRIx64 " in its data\n", f.t.off, f.t.ioff);
	printf("  %-9s  %-*s  %s\n", "range", 3 * BYTES_PER_LINE - 1, "bytes", "field: value");
	h.fp = stdout;
	h.p = f.r.p;
	if (fields_describe(s, &f.r, print_field, &h) < 0)
		printf("# this record is damaged: the bytes marked damaged could not be decoded\n");
	return cmd_end(&r);
}
