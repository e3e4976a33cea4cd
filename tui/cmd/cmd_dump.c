#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perfnav dump [-x] FILE: one line per record in file order,
 *
 *	0xOFFSET [0xSIZE]: PERF_RECORD_NAME decoded fields
 *
 * OFFSET is the record's offset as perf report -D prints it: in its file
 * (directory mode: its data.N file), after the 16-byte header in pipe
 * mode, and in perf's "%#llx" form (offset 0 prints as "0").  Records decompressed from a PERF_RECORD_COMPRESSED
 * follow their container and print the container's offset, with their own
 * identity "@0xCONTAINER+0xINNER" (offset in the container's decompressed
 * bytes) right after the type name; `perfnav hex FILE 0xCONTAINER+0xINNER`
 * shows them.  In directory mode a "# file" line names each file.
 */

struct dump {
	const struct session	*s;
	FILE			*fp;
	bool			 hex;
	long			 file;		/* file of the last line, -1 none yet */
	char			 line[8192];
};

/* perf report -D style hex + ASCII, 16 bytes a line. */
static void
hexdump(FILE *fp, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		size_t k = n - i < 16 ? n - i : 16;

		fprintf(fp, "        %04zx: ", i);
		for (size_t j = 0; j < 16; j++) {
			if (j < k)
				fprintf(fp, " %02x", p[i + j]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (size_t j = 0; j < k; j++)
			fputc(isprint(p[i + j]) && p[i + j] < 0x7f ? p[i + j] : '.', fp);
		fputc('\n', fp);
	}
}

/* Length of "PERF_RECORD_NAME" at the start of a summary. */
static size_t
name_len(const char *line)
{
	size_t i = strlen("PERF_RECORD_");

	if (strncmp(line, "PERF_RECORD_", i) != 0)
		return 0;
	while (line[i] == '_' || isalnum((unsigned char)line[i]))
		i++;
	return i;
}

static int
dump_rec(void *arg, const struct rec *r, int depth)
{
	struct dump *d = arg;
	const struct session *s = d->s;
	uint32_t fi;
	uint64_t off = session_rec_offset(s, r->loc, &fi);
	char ob[32];

	if (session_info(s).mode == SESSION_DIR && (long)fi != d->file)
		fprintf(d->fp, "# file %u: %s\n", fi,
		    fi < session_nfiles(s) ? textout_esc(session_file(s, fi)->path) : "?");
	d->file = fi;
	fields_summary(s, r, d->line, sizeof d->line);
	if (depth == 0) {
		fprintf(d->fp, "%s [0x%x]: %s\n", text_fmt_offset(ob, sizeof ob, off), r->size,
		    d->line);
	} else {
		const struct zchunk *z = session_zorigin(s, r->loc);
		uint64_t inner = z ? r->loc - SESSION_ZLOC - z->zoff : 0;
		size_t nl = name_len(d->line);
		const char *rest = d->line + nl;

		fprintf(d->fp, "%s [0x%x]: %.*s @%s+0x%" PRIx64 "%s%s\n",
		    text_fmt_offset(ob, sizeof ob, off), r->size, (int)nl, d->line, ob, inner,
		    rest[0] == '(' ? " " : "", rest);
	}
	if (d->hex)
		hexdump(d->fp, r->p, r->size);
	return ferror(d->fp) ? 1 : 0;
}

static int
dump_opt(void *arg, int val, const char *optarg)
{
	struct dump *d = arg;

	(void)optarg;
	if (val != 'x')
		return -1;
	d->hex = true;
	return 0;
}

static const struct cmd_opt dump_opts[] = {
	{ "hex", 0, 'x', "add a hex + ASCII dump of each record" },
	{ NULL, 0, 0, NULL },
};

static const struct cmd_spec dump_spec = { "dump [-x] [FILE]", dump_opts, dump_opt, 0 };

int
cmd_dump(int argc, char **argv)
{
	static struct dump d;
	struct cmd_run r;
	struct session *s;
	static char obuf[1 << 16];

	memset(&d, 0, sizeof d);
	if (cmd_begin(&r, argc, argv, &dump_spec, &d) < 0 || cmd_load(&r, false) < 0)
		return r.status;
	s = r.s;
	r.check_write = true;
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	d.s = s;
	d.fp = stdout;
	d.file = -1;
	fprintf(stdout, "# %s: %s mode, %s-endian\n", session_info(s).path,
	    session_info(s).mode == SESSION_PIPE ? "pipe" : session_info(s).mode == SESSION_DIR ? "directory" : "file",
	    (session_info(s).swap != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) ? "big" : "little");
	/* it stops at a write error, which cmd_end() tells */
	session_walk(s, dump_rec, &d);
	return cmd_end(&r);
}
