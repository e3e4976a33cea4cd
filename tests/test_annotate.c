/*
 * test_annotate.c: per-instruction sample counts (symbolize/annotate.h) on
 * the fp fixture: every sample of a function lands on one of its
 * instructions, rows stay inside the function in address order, the
 * hottest row is right; and the fallbacks (no objdump, an objdump that
 * prints garbage, no symbol) keep every sample and say why.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/annotate.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

struct fx {
	struct session		*s;
	struct symbolizer	*z;
	char			 bid[1024];
};

static void
fx_open(struct fx *f, const char *name)
{
	struct session_opts so = { 0 };
	struct perf_err err;
	struct sym_opts o = { .kallsyms = "/dev/null", .perfmap_dir = "/nonexistent" };

	memset(&err, 0, sizeof err);
	f->s = session_open(test_data(name), &so, &err);
	cr_assert_not_null(f->s, "%s: %s", name, err.msg);
	snprintf(f->bid, sizeof f->bid, "%s", test_data("buildid"));
	o.buildid_dir = f->bid;
	f->z = symbolizer_new(f->s, &o);
}

static void
fx_close(struct fx *f)
{
	symbolizer_free(f->z);
	session_close(f->s);
}

/*
 * The symbol named name among the samples' own ips, and independently of
 * annotate.c: how many samples resolve into it and at which addresses
 * (counted into per-address tallies, addresses sorted).
 */
struct tally {
	uint32_t	sym;
	uint64_t	samples;
	uint64_t	rel[4096];
	uint64_t	cnt[4096];
	size_t		n;
};

static void
tally(struct fx *f, const char *name, struct tally *t)
{
	const struct rec_index *ix = session_index(f->s);

	memset(t, 0, sizeof *t);
	t->sym = SYM_NONE;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		struct sample smp;
		struct frame fr;
		struct rec r;
		size_t k;

		if (ent_type(e) != PF_REC_SAMPLE || session_rec(f->s, ent_loc(e), &r) < 0 ||
		    record_decode_sample(session_attrs(f->s), &r, &smp, NULL) < 0)
			continue;
		symbolizer_resolve(f->z, (int32_t)smp.pid, (int32_t)smp.tid, smp.time,
		    r.misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &fr);
		if (fr.sym == SYM_NONE || strcmp(symbolizer_sym_name(f->z, fr.sym), name) != 0)
			continue;
		t->sym = fr.sym;
		t->samples++;
		for (k = 0; k < t->n && t->rel[k] != fr.rel; k++)
			;
		if (k == t->n) {
			cr_assert_lt(t->n, 4096);
			t->rel[t->n++] = fr.rel;
		}
		t->cnt[k]++;
	}
}

Test(annotate, every_sample_on_an_instruction)
{
	struct fx f;
	struct tally t;
	struct annotation *an;
	uint64_t sum = 0, prev = 0, best = 0;
	size_t insns = 0, srcs = 0, best_k = 0;
	const struct annot_row *hot;

	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	cr_assert_neq(t.sym, SYM_NONE, "mix_one has samples in fp.data");
	cr_assert_gt(t.samples, 10);

	an = annotate_new(f.z, t.sym, NULL);
	cr_assert_not_null(an);
	cr_expect_eq(annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL), t.samples);
	cr_assert_eq(annotate_build(an, NULL), 0, "disassembly: %s", an->note);
	cr_expect(an->have_code);
	cr_expect_eq(an->samples, t.samples);

	for (size_t i = 0; i < an->nrows; i++) {
		const struct annot_row *r = &an->rows[i];

		if (r->kind == ANNOT_SRC) {
			srcs++;
			cr_expect(strstr(annotate_row_text(an, r), "cpu.c:") != NULL, "%s",
			    annotate_row_text(an, r));
			continue;
		}
		cr_assert_eq(r->kind, ANNOT_INSN);
		cr_expect(r->rel >= an->start && r->rel < an->end, "row %zu at %#lx outside", i,
		    (unsigned long)r->rel);
		cr_expect(insns == 0 || r->rel > prev, "rows in address order");
		cr_expect_eq(r->vaddr, r->rel + an->bias);
		cr_expect_neq(annotate_row_text(an, r)[0], '\0');
		prev = r->rel;
		insns++;
		sum += r->samples;
	}
	cr_expect_gt(insns, 3);
	cr_expect_gt(srcs, 0, "the fixture has line tables");
	cr_expect_eq(an->rows[0].kind == ANNOT_SRC ? an->rows[1].rel : an->rows[0].rel, an->start,
	    "the first instruction is the symbol's start");
	cr_expect_eq(sum, t.samples, "no sample lost");

	/* each sampled address is an instruction holding exactly its samples */
	for (size_t k = 0; k < t.n; k++) {
		bool found = false;

		for (size_t i = 0; i < an->nrows; i++)
			if (an->rows[i].kind == ANNOT_INSN && an->rows[i].rel == t.rel[k]) {
				cr_expect_eq(an->rows[i].samples, t.cnt[k], "at %#lx",
				    (unsigned long)t.rel[k]);
				found = true;
			}
		cr_expect(found, "sampled address %#lx is an instruction", (unsigned long)t.rel[k]);
		if (t.cnt[k] > best) {
			best = t.cnt[k];
			best_k = k;
		}
	}
	cr_assert_neq(an->hottest, SIZE_MAX);
	hot = &an->rows[an->hottest];
	cr_expect_eq(hot->samples, best);
	cr_expect_eq(hot->samples, t.cnt[best_k]);
	annotate_free(an);
	fx_close(&f);
}

Test(annotate, without_objdump_keeps_samples)
{
	struct fx f;
	struct tally t;
	struct annotation *an;
	struct annot_opts o = { .objdump = "/nonexistent/objdump" };
	uint64_t sum = 0;

	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	cr_assert_neq(t.sym, SYM_NONE);
	an = annotate_new(f.z, t.sym, NULL);
	annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL);
	cr_assert_eq(annotate_build(an, &o), 1);
	cr_expect(!an->have_code);
	cr_expect(strstr(an->note, "cannot run") != NULL, "%s", an->note);
	cr_expect_eq(an->nrows, t.n, "one row per sampled address");
	for (size_t i = 0; i < an->nrows; i++) {
		cr_expect_eq(an->rows[i].kind, ANNOT_ADDR);
		cr_expect(i == 0 || an->rows[i].rel > an->rows[i - 1].rel);
		sum += an->rows[i].samples;
	}
	cr_expect_eq(sum, t.samples);
	annotate_free(an);
	fx_close(&f);
}

Test(annotate, garbage_from_objdump)
{
	static const char script[] =
	    "#!/bin/sh\n"
	    "printf 'zz:\\tnot hex\\n:\\t\\n  ffffffffffffffffff:\\ttoo long\\n'\n"
	    "printf '  10:\\toutside the function\\n%s\\n' \"$(head -c 3000 /dev/zero | tr '\\0' x)\"\n"
	    "printf 'no newline at the end:\\t'\n";
	char *path = tmp_write("objdump", script, sizeof script - 1);
	struct fx f;
	struct tally t;
	struct annotation *an;
	struct annot_opts o = { 0 };
	uint64_t sum = 0;

	cr_assert_eq(chmod(path, 0755), 0);
	o.objdump = path;
	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	an = annotate_new(f.z, t.sym, NULL);
	annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL);
	cr_assert_eq(annotate_build(an, &o), 1);
	cr_expect(strstr(an->note, "no instructions") != NULL, "%s", an->note);
	for (size_t i = 0; i < an->nrows; i++)
		sum += an->rows[i].samples;
	cr_expect_eq(sum, t.samples);
	annotate_free(an);
	fx_close(&f);
	unlink(path);
	free(path);
}

Test(annotate, no_symbol_no_annotation)
{
	struct fx f;
	const char *why = NULL;

	fx_open(&f, "fp.data");
	cr_expect_null(annotate_new(f.z, SYM_NONE, &why));
	cr_expect_not_null(why);
	cr_expect_null(annotate_new(f.z, 0x7ffffff0, NULL));
	fx_close(&f);
}

/*
 * Source rows carry the line's text when the file the DWARF names is there.
 * The fixture names the path it was compiled at (record-fixtures.sh runs
 * gcc from the source tree, so the checkout it was recorded in): the
 * source is put there if that is under /tmp, else the test is skipped
 * when it is not there (it passed only where that checkout happened to be).
 */
Test(annotate, source_text)
{
	char dir[1024], path[1024];
	bool made_dir = false, made_file = false;
	struct fx f;
	struct tally t;
	struct annotation *an;
	struct frame fr;
	const char *src;
	int line;
	bool seen = false;

	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	cr_assert_neq(t.sym, SYM_NONE);
	memset(&fr, 0, sizeof fr);
	fr.sym = t.sym;
	cr_assert_eq(symbolizer_sym_range(f.z, t.sym, &fr.dso, &fr.rel, &fr.ip), 0);
	fr.ip = fr.rel;
	cr_assert_eq(symbolizer_source(f.z, &fr, &src, &line), 0);
	snprintf(path, sizeof path, "%s", src);
	cr_assert(strstr(path, "cpu.c") != NULL, "%s", path);
	if (access(path, R_OK) != 0) {
		FILE *in, *out;
		char buf[4096];
		size_t k;

		if (strncmp(path, "/tmp/", 5) != 0 || strchr(path + 5, '/') == NULL ||
		    strchr(strchr(path + 5, '/') + 1, '/') != NULL) {
			fx_close(&f);
			cr_skip_test("the fixture's source %s is not there", path);
		}
		snprintf(dir, sizeof dir, "%s", path);
		*strrchr(dir, '/') = '\0';
		if (mkdir(dir, 0755) == 0)
			made_dir = true;
		in = fopen(test_data("../fixtures-src/cpu.c"), "r");
		cr_assert_not_null(in);
		out = fopen(path, "w");
		cr_assert_not_null(out, "cannot write %s", path);
		made_file = true;
		while ((k = fread(buf, 1, sizeof buf, in)) > 0)
			fwrite(buf, 1, k, out);
		fclose(in);
		fclose(out);
	}
	an = annotate_new(f.z, t.sym, NULL);
	annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL);
	cr_assert_eq(annotate_build(an, NULL), 0, "%s", an->note);
	for (size_t i = 0; i < an->nrows; i++) {
		const char *text = annotate_row_text(an, &an->rows[i]);

		if (an->rows[i].kind == ANNOT_SRC && strncmp(text, "cpu.c:31 ", 9) == 0) {
			/* the tab before it is expanded to 8 columns after the 15-column location */
			cr_expect(strstr(text, " x = (x ^ (x >> 7)) * 0x9e3779b1u + (uint32_t)k;") != NULL,
			    "%s", text);
			seen = true;
		}
	}
	cr_expect(seen, "a source row for line 31");
	annotate_free(an);
	fx_close(&f);
	if (made_file)
		unlink(path);
	if (made_dir)
		rmdir(dir);
}

/*
 * A function longer than max_code is disassembled in part: the samples
 * past the part shown are not credited to its last instruction (perf
 * credits an instruction with the samples from it to the next one, and
 * none past the code), and the note says how many are left out.
 */
Test(annotate, cut_function_keeps_samples_off_its_last_instruction)
{
	struct fx f;
	struct tally t;
	struct annotation *an;
	struct annot_opts o = { .max_code = 0x10 };
	uint64_t in = 0, sum = 0;
	const struct annot_row *last = NULL;

	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	an = annotate_new(f.z, t.sym, NULL);
	annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL);
	cr_assert_eq(annotate_build(an, &o), 0, "%s", an->note);
	for (size_t k = 0; k < t.n; k++)
		if (t.rel[k] < an->start + 0x10)
			in += t.cnt[k];
	cr_assert_lt(in, t.samples, "mix_one has samples past its first 16 bytes");
	for (size_t i = 0; i < an->nrows; i++) {
		const struct annot_row *r = &an->rows[i];

		if (r->kind != ANNOT_INSN)
			continue;
		cr_expect_lt(r->rel, an->start + 0x10);
		sum += r->samples;
		last = r;
	}
	cr_assert_not_null(last);
	cr_expect_eq(sum, in, "only the samples in the part shown: %lu of %lu",
	    (unsigned long)sum, (unsigned long)t.samples);
	cr_expect(strstr(an->note, "first") != NULL, "%s", an->note);
	cr_expect(strstr(an->note, "not shown") != NULL, "%s", an->note);
	annotate_free(an);
	fx_close(&f);
}

/*
 * objdump's output cut short (more than it should print for the code):
 * the last line may be partial, the instructions after it are missing;
 * the samples past it are not piled on it, and the note says so.
 */
Test(annotate, cut_objdump_output)
{
	struct fx f;
	struct tally t;
	struct annotation *an;
	struct annot_opts o = { 0 };
	char script[512], *path;
	uint64_t at_start = 0, sum = 0;

	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	an = annotate_new(f.z, t.sym, NULL);
	annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL);
	for (size_t k = 0; k < t.n; k++)
		if (t.rel[k] == an->start)
			at_start += t.cnt[k];
	/* the first instruction, then endless output */
	snprintf(script, sizeof script, "#!/bin/sh\nprintf '  %%x:\\tfirst insn\\n' %lu\n"
	    "exec yes '  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx:\\tjunk'\n",
	    (unsigned long)an->start);
	path = tmp_write("objdump", script, strlen(script));
	cr_assert_eq(chmod(path, 0755), 0);
	o.objdump = path;
	cr_assert_eq(annotate_build(an, &o), 0, "%s", an->note);
	for (size_t i = 0; i < an->nrows; i++)
		if (an->rows[i].kind == ANNOT_INSN)
			sum += an->rows[i].samples;
	cr_expect_eq(sum, at_start, "the one instruction shown: its own samples only");
	cr_expect(strstr(an->note, "cut") != NULL, "%s", an->note);
	annotate_free(an);
	fx_close(&f);
	unlink(path);
	free(path);
}

/*
 * Source paths come from the binary: one naming a FIFO must not hang the
 * build waiting for a writer (nor a device be read); a regular file gives
 * its lines, tabs expanded.
 */
Test(annotate, source_line_of_a_fifo_or_file, .timeout = 30)
{
	char dir[] = "/tmp/perfnav-annot-XXXXXX", fifo[64], file[64], out[256];
	FILE *fp;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/fifo.c", dir);
	snprintf(file, sizeof file, "%s/file.c", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	alarm(10);	/* a hang fails the test */
	cr_expect_not(annotate_source_line(fifo, 1, out, sizeof out), "a FIFO is no source");
	alarm(0);
	cr_expect_not(annotate_source_line("/dev/zero", 1, out, sizeof out));
	fp = fopen(file, "w");
	cr_assert_not_null(fp);
	fputs("int x;\n\treturn 0;\n", fp);
	fclose(fp);
	cr_expect(annotate_source_line(file, 2, out, sizeof out));
	cr_expect_str_eq(out, "        return 0;");
	cr_expect_not(annotate_source_line(file, 3, out, sizeof out), "no line 3");
	unlink(fifo);
	unlink(file);
	rmdir(dir);
}

/*
 * An objdump that goes on printing after its output is cut and ignores
 * SIGTERM and SIGPIPE (as any child does when they are ignored where
 * perfnav was started) must not hang the build: it is killed.
 */
Test(annotate, cut_objdump_that_will_not_stop, .timeout = 60)
{
	static const char script[] =
	    "#!/bin/sh\n"
	    "trap '' TERM PIPE\n"
	    "while :; do echo '  zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz:\tx'; "
	    "done 2>/dev/null\n";
	char *path = tmp_write("objdump", script, sizeof script - 1);
	struct fx f;
	struct tally t;
	struct annotation *an;
	struct annot_opts o = { .max_code = 16 };

	cr_assert_eq(chmod(path, 0755), 0);
	o.objdump = path;
	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &t);
	an = annotate_new(f.z, t.sym, NULL);
	annotate_collect(an, f.s, -1, 0, session_index(f.s)->n, NULL, NULL);
	alarm(30);	/* a hang fails the test */
	cr_expect_eq(annotate_build(an, &o), 1);
	alarm(0);
	annotate_free(an);
	fx_close(&f);
	unlink(path);
	free(path);
}

/* objdump's branches as annotate_parse_branch reads them: direct ones with
 * their destination, indirect ones without, others none. */
Test(annotate, branches_in_objdump_text)
{
	static const struct {
		const char	*text;
		int		 kind;
		bool		 direct;
		uint64_t	 to;
	} cases[] = {
		{ "jne    117b <mix_one+0x7>", ANNOT_BR_JUMP, true, 0x117b },
		{ "jmp    1246 <main+0x41>", ANNOT_BR_JUMP, true, 0x1246 },
		{ "call   1174 <mix_one>", ANNOT_BR_CALL, true, 0x1174 },
		{ "call   1030 <printf@plt>", ANNOT_BR_CALL, true, 0x1030 },
		{ "bnd jmp 1020 <.plt>", ANNOT_BR_JUMP, true, 0x1020 },
		{ "notrack jmp *%rax", ANNOT_BR_JUMP, false, 0 },
		{ "call   *0x2fe2(%rip)        # 3fd8 <__gmon_start__@Base>", ANNOT_BR_CALL, false, 0 },
		{ "jmp    *0x2fe2(%rip)        # 4018 <x>", ANNOT_BR_JUMP, false, 0 },
		{ "b.ne   4005d0 <main+0x20>", ANNOT_BR_JUMP, true, 0x4005d0 },
		{ "cbz    w0, 4005e0 <main+0x30>", ANNOT_BR_JUMP, true, 0x4005e0 },
		{ "bl     400500 <puts@plt>", ANNOT_BR_CALL, true, 0x400500 },
		{ "lea    0x2ef0(%rip),%rax        # 4040 <buf>", ANNOT_BR_NONE, false, 0 },
		{ "mov    %edi,%eax", ANNOT_BR_NONE, false, 0 },
		{ "ret", ANNOT_BR_NONE, false, 0 },
		{ "bswap  %eax", ANNOT_BR_NONE, false, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t to = 0;
		bool direct = true;
		int k = annotate_parse_branch(cases[i].text, &to, &direct);

		cr_expect_eq(k, cases[i].kind, "%s: kind %d", cases[i].text, k);
		cr_expect_eq(direct, cases[i].direct, "%s: direct %d", cases[i].text, direct);
		if (cases[i].direct)
			cr_expect_eq(to, cases[i].to, "%s: to %#lx", cases[i].text, (unsigned long)to);
	}
}

/* The annotation of the function named name in fp.data, built. */
static struct annotation *
built(struct fx *f, const char *name, struct tally *t)
{
	struct annotation *an;

	tally(f, name, t);
	cr_assert_neq(t->sym, SYM_NONE, "%s has samples in fp.data", name);
	an = annotate_new(f->z, t->sym, NULL);
	cr_assert_not_null(an);
	annotate_collect(an, f->s, -1, 0, session_index(f->s)->n, NULL, NULL);
	cr_assert_eq(annotate_build(an, NULL), 0, "disassembly: %s", an->note);
	return an;
}

/*
 * mix's loop: its jne goes to an instruction of mix (the one at the
 * address its text names), its call to mix_one's symbol; the arrow of the
 * selected jump runs from it to its target over the rows between.
 */
Test(annotate, jumps_and_calls_of_mix)
{
	struct fx f;
	struct tally t, one;
	struct annotation *an;
	size_t jumps = 0, calls = 0;

	fx_open(&f, "fp.data");
	tally(&f, "mix_one", &one);
	an = built(&f, "mix", &t);
	for (size_t i = 0; i < an->nrows; i++) {
		const struct annot_row *r = &an->rows[i];
		const char *text = annotate_row_text(an, r);
		size_t to = r->target_row;

		if (r->kind != ANNOT_INSN)
			continue;
		if (strncmp(text, "jne", 3) == 0) {
			jumps++;
			cr_expect_eq(r->branch, ANNOT_BR_JUMP);
			cr_assert(to != ANNOT_ROW_NONE, "%s: a target row", text);
			cr_expect_eq(an->rows[to].kind, ANNOT_INSN);
			cr_expect_eq(an->rows[to].vaddr, strtoull(text + 3, NULL, 16), "%s", text);
			cr_expect_lt(to, i, "a loop jumps back");
			cr_expect_eq(annotate_callee(an, i), SYM_NONE, "a jump inside is no call");
			cr_expect_eq(annotate_arrow(an, i, i), ANNOT_AR_FROM_UP);
			cr_expect_eq(annotate_arrow(an, i, to), ANNOT_AR_TO_UP);
			for (size_t k = to + 1; k < i; k++)
				cr_expect_eq(annotate_arrow(an, i, k), ANNOT_AR_PASS, "row %zu", k);
			cr_expect_eq(annotate_arrow(an, i, i + 1), ANNOT_AR_NONE);
			cr_expect_eq(annotate_arrow(an, i, to - 1), ANNOT_AR_NONE);
			/* a row that is no jump draws no arrow */
			cr_expect_eq(annotate_arrow(an, to, i), ANNOT_AR_NONE);
		} else if (strncmp(text, "call", 4) == 0) {
			calls++;
			cr_expect_eq(r->branch, ANNOT_BR_CALL);
			cr_expect_eq(to, ANNOT_ROW_NONE);
			cr_expect_eq(annotate_callee(an, i), one.sym, "%s: mix_one's symbol", text);
		} else {
			cr_expect_eq(r->branch, ANNOT_BR_NONE, "%s", text);
		}
	}
	cr_expect_eq(jumps, 1);
	cr_expect_eq(calls, 1);
	annotate_free(an);
	fx_close(&f);
}

/*
 * The three modes: source lines once each with the samples of all their
 * instructions (summed independently here), instructions only, both; the
 * hottest row of each mode is the one with the most period.
 */
Test(annotate, source_and_asm_modes)
{
	struct fx f;
	struct tally t;
	struct annotation *an;
	uint32_t *vis;
	size_t n, insns = 0, hot;
	uint64_t sum = 0, best = 0;

	fx_open(&f, "fp.data");
	an = built(&f, "mix_one", &t);
	vis = calloc(an->nrows + 1, sizeof *vis);

	n = annotate_visible(an, ANNOT_MODE_BOTH, vis);
	cr_expect_eq(n, an->nrows);
	n = annotate_visible(an, ANNOT_MODE_ASM, vis);
	for (size_t i = 0; i < an->nrows; i++)
		insns += an->rows[i].kind == ANNOT_INSN;
	cr_expect_eq(n, insns);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(an->rows[vis[i]].kind, ANNOT_INSN);

	n = annotate_visible(an, ANNOT_MODE_SOURCE, vis);
	cr_assert_gt(n, 1, "mix_one has several source lines");
	for (size_t i = 0; i < n; i++) {
		const char *pi, *pj;
		int li, lj;
		uint64_t own = 0;

		cr_expect_eq(an->rows[vis[i]].kind, ANNOT_SRC);
		cr_assert(annotate_row_source(an, vis[i], &pi, &li));
		cr_expect(strstr(pi, "cpu.c") != NULL, "%s", pi);
		for (size_t j = 0; j < i; j++) {
			cr_assert(annotate_row_source(an, vis[j], &pj, &lj));
			cr_expect(li != lj || strcmp(pi, pj) != 0, "line %d shown twice", li);
		}
		/* every instruction whose source line is this one */
		for (size_t k = 0; k < an->nrows; k++)
			if (an->rows[k].kind == ANNOT_INSN && annotate_row_source(an, k, &pj, &lj) &&
			    lj == li && strcmp(pi, pj) == 0)
				own += an->rows[k].samples;
		cr_expect_eq(annotate_row_samples(an, ANNOT_MODE_SOURCE, vis[i]), own, "line %d", li);
		sum += own;
		if (annotate_row_period(an, ANNOT_MODE_SOURCE, vis[i]) > best)
			best = annotate_row_period(an, ANNOT_MODE_SOURCE, vis[i]);
	}
	cr_expect_eq(sum, an->samples, "every sample on some line");
	hot = annotate_hottest(an, ANNOT_MODE_SOURCE);
	cr_assert_neq(hot, SIZE_MAX);
	cr_expect_eq(an->rows[hot].kind, ANNOT_SRC);
	cr_expect_eq(annotate_row_period(an, ANNOT_MODE_SOURCE, hot), best);
	cr_expect_eq(annotate_hottest(an, ANNOT_MODE_ASM), an->hottest);
	cr_expect_eq(annotate_hottest(an, ANNOT_MODE_BOTH), an->hottest);
	/* source rows count nothing outside the source mode */
	cr_expect_eq(annotate_row_samples(an, ANNOT_MODE_BOTH, hot), 0);
	free(vis);
	annotate_free(an);
	fx_close(&f);
}

/* The annotation of the function named name in fixture file, built (f opened). */
static struct annotation *
built_in(struct fx *f, const char *file, const char *name)
{
	struct tally t;

	fx_open(f, file);
	return built(f, name, &t);
}

/*
 * Diff mode, one build in both (diff-b and diff-c have one build id):
 * spin's instructions pair by offset, each with the other's samples at
 * that offset (counted here from the other's rows), every one of them.
 */
Test(annotate, diff_pairs_one_build_by_offset)
{
	struct fx fb, fc;
	struct annotation *b = built_in(&fb, "diff-b.data", "spin");
	struct annotation *c = built_in(&fc, "diff-c.data", "spin");
	uint64_t sum = 0;

	cr_assert(annotate_same_build(b, c), "diff-b and diff-c: one build");
	cr_assert(annotate_same_build(c, b));
	annotate_pair(b, c, true);
	cr_expect(b->paired && b->pair_by_offset);
	cr_expect_eq(b->pair_samples, c->samples);
	for (size_t i = 0; i < b->nrows; i++) {
		const struct annot_row *r = &b->rows[i];
		uint64_t want = 0;

		if (r->kind != ANNOT_INSN)
			continue;
		for (size_t k = 0; k < c->nrows; k++)
			if (c->rows[k].kind == ANNOT_INSN && c->rows[k].rel - c->start == r->rel - b->start) {
				cr_expect_str_eq(annotate_row_text(c, &c->rows[k]), annotate_row_text(b, r));
				want = c->rows[k].samples;
			}
		cr_expect_eq(annotate_row_pair_samples(b, ANNOT_MODE_BOTH, i), want, "at %lx",
		    (unsigned long)r->vaddr);
		sum += annotate_row_pair_samples(b, ANNOT_MODE_ASM, i);
	}
	cr_expect_eq(sum, c->samples, "every sample of the other paired");
	cr_expect_gt(sum, 0);
	annotate_free(b);
	annotate_free(c);
	fx_close(&fb);
	fx_close(&fc);
}

/*
 * Two builds (diff-a, diff-b): spin pairs by source line, each of a's
 * lines with the samples of b's same file and line (summed here from b's
 * instructions); instructions carry none.
 */
Test(annotate, diff_pairs_two_builds_by_source_line)
{
	struct fx fa, fb;
	struct annotation *a = built_in(&fa, "diff-a.data", "spin");
	struct annotation *b = built_in(&fb, "diff-b.data", "spin");
	uint32_t *vis = calloc(a->nrows + 1, sizeof *vis);
	size_t n;
	uint64_t sum = 0;

	cr_assert_not(annotate_same_build(a, b), "diff-a and diff-b: two builds");
	annotate_pair(a, b, false);
	cr_expect(a->paired && !a->pair_by_offset);
	n = annotate_visible(a, ANNOT_MODE_SOURCE, vis);
	cr_assert_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		const char *pa, *pb;
		int la, lb;
		uint64_t want = 0;

		cr_assert(annotate_row_source(a, vis[i], &pa, &la));
		for (size_t k = 0; k < b->nrows; k++)
			if (b->rows[k].kind == ANNOT_INSN && annotate_row_source(b, k, &pb, &lb) &&
			    la == lb && strcmp(pa, pb) == 0)
				want += b->rows[k].samples;
		cr_expect_eq(annotate_row_pair_samples(a, ANNOT_MODE_SOURCE, vis[i]), want,
		    "line %d", la);
		sum += want;
	}
	cr_expect_gt(sum, 0, "some line in both");
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].kind == ANNOT_INSN)
			cr_expect_eq(annotate_row_pair_samples(a, ANNOT_MODE_BOTH, i), 0);
	free(vis);
	annotate_free(a);
	annotate_free(b);
	fx_close(&fa);
	fx_close(&fb);
}
