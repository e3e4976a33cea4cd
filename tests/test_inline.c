/*
 * Criterion tests of inline chains (symbolize/srcline.c srcline_inlines,
 * symbolizer_inlines): the records addr2line -i -f gives for addresses of a
 * small ELF built here with known inline functions (tests/data/elf/inl.c,
 * built by tests/data/elf/build-inl.sh), and the unwound chains of
 * tests/data/dwarf.data with the (inlined) levels real perf printed
 * (tests/data/expected/dwarf.data.unwind.txt).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/dso.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

static char dir[] = "/tmp/perfnav-inl-XXXXXX";
static char bin[4200];
static bool built;

static void
setup(void)
{
	char cmd[8400];

	cr_assert_not_null(mkdtemp(dir));
	snprintf(bin, sizeof bin, "%s/inl", dir);
	snprintf(cmd, sizeof cmd, "sh %s/elf/build-inl.sh %s 2>/dev/null", TEST_DATA, dir);
	built = system(cmd) == 0;
}

static void
teardown(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		cr_log_warn("cannot remove %s", dir);
}

/* Address range of a function symbol, and the file offset of an address. */
struct elfinfo {
	uint64_t	start, size;
	GElf_Phdr	ph[16];
	size_t		nph;
};

static bool
elf_info(const char *path, const char *fn, struct elfinfo *out)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	bool found = false;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	memset(out, 0, sizeof *out);
	if (e != NULL && elf_getphdrnum(e, &out->nph) == 0) {
		if (out->nph > 16)
			out->nph = 16;
		for (size_t i = 0; i < out->nph; i++)
			gelf_getphdr(e, (int)i, &out->ph[i]);
	}
	while (e != NULL && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *nm;

			if (gelf_getsym(d, (int)i, &s) == NULL)
				continue;
			nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (nm && strcmp(nm, fn) == 0 && GELF_ST_TYPE(s.st_info) == STT_FUNC) {
				out->start = s.st_value;
				out->size = s.st_size;
				found = true;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

static uint64_t
fileoff(const struct elfinfo *ei, uint64_t vaddr)
{
	for (size_t i = 0; i < ei->nph; i++)
		if (ei->ph[i].p_type == PT_LOAD && vaddr >= ei->ph[i].p_vaddr &&
		    vaddr < ei->ph[i].p_vaddr + ei->ph[i].p_memsz)
			return vaddr - ei->ph[i].p_vaddr + ei->ph[i].p_offset;
	return vaddr;
}

Test(inline, records_of_known_chains, .init = setup, .fini = teardown)
{
	struct srcline_h *h;
	struct elfinfo ei;
	struct srcline_rec rec[16];
	bool saw_full = false, saw_mid = false;

	if (!built)
		cr_skip_test("no C compiler");
	cr_assert(elf_info(bin, "outer", &ei));
	cr_assert_gt(ei.size, 0);
	h = srcline_open(bin, bin, NULL, NULL, 0);
	cr_assert_not_null(h);
	for (uint64_t a = ei.start; a < ei.start + ei.size; a++) {
		size_t n = srcline_inlines(h, fileoff(&ei, a), rec, 16);

		/* C: every name is DW_AT_name; the outermost is the function itself. */
		cr_assert_geq(n, 1, "no records at %#lx", (unsigned long)a);
		cr_expect_str_eq(rec[n - 1].name, "outer");
		if (n == 3) {
			cr_expect_str_eq(rec[0].name, "leaf");
			cr_expect_str_eq(rec[1].name, "mid");
			/* Caller records carry the call sites: mid() in outer(). */
			cr_expect_str_eq(rec[2].file, "inl.c");
			cr_expect_eq(rec[2].line, 21);
			cr_expect_eq(rec[1].line, 14);
			saw_full = true;
		} else if (n == 2) {
			cr_expect_str_eq(rec[0].name, "mid");
			saw_mid = true;
		}
	}
	cr_expect(saw_full, "no address inside leaf() inlined into mid() inlined into outer()");
	cr_expect(saw_mid, "no address inside mid() alone");
	/* Outside any function: no record. */
	cr_expect_eq(srcline_inlines(h, 0, rec, 16), 0);
	srcline_close(h);
}

/* tests/data/NAME opened as far as it reads (keep_going). */
static struct session *
open_keep_going(const char *name)
{
	struct session_opts so = { .keep_going = true };
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open(test_data(name), &so, &err);
	cr_assert_not_null(s, "%s: %s", name, err.msg);
	return s;
}

/* Lines of dwarf.data.unwind.txt per sample: user frames as (rel, inlined). */
struct want {
	uint64_t	rel[64];
	bool		inl[64];
	size_t		n;
};

static size_t
read_want(struct want *out, size_t max)
{
	char path[4096], *text, *line, *save = NULL;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/expected/dwarf.data.unwind.txt", TEST_DATA);
	text = slurp(path, NULL);
	cr_assert_not_null(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long rel;
		char dso[128];

		if (line[0] != '\t' && line[0] != ' ') {
			if (n < max)
				out[n++].n = 0;
			continue;
		}
		if (n == 0 || n > max || sscanf(line, " %llx (%127[^)])", &rel, dso) != 2 ||
		    strcmp(dso, "[kernel.kallsyms]") == 0 || out[n - 1].n >= 64)
			continue;
		out[n - 1].rel[out[n - 1].n] = rel;
		out[n - 1].inl[out[n - 1].n] = strcmp(dso, "inlined") == 0;
		out[n - 1].n++;
	}
	free(text);
	return n;
}

/* Is the libc the fixture ran through here, with its debug info? */
static bool
libc_debug_here(void)
{
	char path[4096], *text, id[64] = "", fn[4000];

	snprintf(path, sizeof path, "%s/expected/dwarf.data.local-buildids", TEST_DATA);
	text = slurp(path, NULL);
	if (text == NULL || sscanf(text, "%63s %3999s", id, fn) != 2 || strlen(id) < 3) {
		free(text);
		return false;
	}
	free(text);
	snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
	return access(path, R_OK) == 0;
}

Test(inline, dwarf_fixture_inlined_levels)
{
	static struct want want[4096];
	size_t nw = read_want(want, 4096), k = 0, inl_seen = 0, checked = 0;
	char bdir[4096];
	struct sym_opts o;
	struct session *s;
	struct symbolizer *z;
	struct frame fr[256];

	if (!libc_debug_here())
		cr_skip_test("no debug info of the fixture's libc here (libc6-dbg)");
	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	memset(&o, 0, sizeof o);
	o.buildid_dir = bdir;
	o.kallsyms = "/dev/null";
	s = open_keep_going("dwarf.data");
	z = symbolizer_new(s, &o);
	for (size_t i = 0; i < session_index(s)->n && k < nw; i++) {
		const struct rec_ent *e = index_ent(session_index(s), i);
		struct sample smp;
		struct rec r;
		size_t n, u = 0;

		if (ent_type(e) != PF_REC_SAMPLE)
			continue;
		cr_assert_eq(session_rec(s, ent_loc(e), &r), 0);
		cr_assert_eq(record_decode_sample(session_attrs(s), &r, &smp, NULL), 0);
		n = symbolizer_callchain(z, &smp, r.misc, fr, 256, 0);
		for (size_t j = 0; j < n; j++) {
			bool inl = fr[j].sym != SYM_NONE && symbolizer_sym_inlined(z, fr[j].sym);

			if (fr[j].kernel)
				continue;
			if (u < want[k].n) {
				cr_expect_eq(fr[j].rel, want[k].rel[u], "sample %zu frame %zu", k, u);
				cr_expect_eq(inl, want[k].inl[u], "sample %zu frame %zu", k, u);
			}
			inl_seen += inl;
			u++;
		}
		cr_expect_eq(u, want[k].n, "sample %zu: %zu user frames, perf %zu", k, u, want[k].n);
		if (want[k].n > 0 && want[k].inl[want[k].n - 2]) {
			char label[512];
			size_t last = n - 2;

			/* "27304 (inlined)": __libc_start_main_impl inlined in __libc_start_main. */
			cr_expect_str_eq(symbolizer_sym_label(z, &fr[last], label, sizeof label),
			    "[.] __libc_start_main_impl (inlined)");
		}
		checked++;
		k++;
	}
	cr_expect_gt(checked, 10);
	cr_expect_gt(inl_seen, 10);
	symbolizer_free(z);
	session_close(s);
}
