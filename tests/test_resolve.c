/*
 * test_resolve.c: symbolization: demangling, kallsyms and perf-PID.map
 * parsing, ELF symbols and build ids of small programs compiled here, and
 * whole resolutions (symbols, DSOs, reasons, callchains) on the fixtures;
 * the symbol sources' table, each source given a DSO of its kind, and each
 * reason a frame may give from a DSO that really fails that way.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symsrc.h"
#include "symbolize/symtab.h"
#include "tests/helpers.h"

/* ---- demangling ---- */

static void
check_dm(const char *mangled, const char *want)
{
	char *got = demangle_cxx(mangled);

	cr_assert_not_null(got, "%s", mangled);
	cr_expect_str_eq(got, want, "%s", mangled);
	free(got);
}

Test(demangle, perf_style_names)
{
	check_dm("_ZN3dev4algo11WordCounter4feedERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
	    "dev::algo::WordCounter::feed");
	check_dm("_ZSt16__introsort_loopIPilN9__gnu_cxx5__ops15_Iter_less_iterEEvT_S4_T0_T1_",
	    "std::__introsort_loop<int*, long, __gnu_cxx::__ops::_Iter_less_iter>");
	check_dm("_ZN3dev4algo8sum_dotsIdLi4EEET_PKS2_S4_", "dev::algo::sum_dots<double, 4>");
	check_dm("_ZNKSt6vectorIiSaIiEE4sizeEv", "std::vector<int, std::allocator<int> >::size");
	check_dm("_Z3fooi.cold", "foo");
	check_dm("_ZZ4mainENKUljjE_clEjj", "main::{lambda(unsigned int, unsigned int)#1}::operator()");
	check_dm("_ZlsRSoRK1A", "operator<<");
	cr_expect_null(demangle_cxx("main"));
	cr_expect_null(demangle_cxx("_Zgarbage"));
}

/* ---- kallsyms, perf-PID.map ---- */

Test(kallsyms, parse_and_fixup)
{
	static const char text[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000100 t local_fn\n"
	    "ffffffff81000200 W weak_fn\n"
	    "ffffffff81000300 r rodata_skipped\n"
	    "ffffffff81000400 T mod_fn\t[mymod]\n"
	    "ffffffff81000500 T last\n";
	char *path = tmp_write("kallsyms", text, sizeof text - 1);
	struct symtab t = { 0 };
	struct strtab s = { 0 };
	size_t i;

	cr_assert_eq(kallsyms_load(path, &t, &s, NULL), 5);
	/* _stext and _text alias: the last listed has the size, so perf keeps it */
	cr_assert_eq(t.n, 4);
	cr_expect_str_eq(strtab_get(&s, t.v[0].name), "_text");
	cr_expect_eq(t.v[0].end, 0xffffffff81000100);
	i = symtab_find(&t, 0xffffffff81000250);
	cr_assert_neq(i, SIZE_MAX);
	cr_expect_str_eq(strtab_get(&s, t.v[i].name), "weak_fn");
	/* weak_fn extends to the next kept symbol (rodata and module symbols are not kept). */
	cr_expect_eq(t.v[i].end, 0xffffffff81000500);
	i = symtab_find(&t, 0xffffffff81000600);
	cr_expect_str_eq(strtab_get(&s, t.v[i].name), "last");
	cr_expect_eq(symtab_find(&t, 0xffffffff80000000), SIZE_MAX);
	cr_expect_eq(kallsyms_load("/nonexistent/kallsyms", &t, &s, NULL), -1);
	symtab_free(&t);
	strtab_free(&s);
	unlink(path);
	free(path);
}

/*
 * Addresses of any case and length up to 16 digits; a line with 17 digits,
 * a sign, a 0x prefix or leading blanks is no symbol; lines out of address
 * order are sorted (an ordered file is taken as it is).
 */
Test(kallsyms, addresses_and_order)
{
	static const char text[] =
	    "FFFFFFFF81000200 T upper\n"
	    "ffffffff81000100 T lower_first\n"
	    "1000 t short_addr\n"
	    "1ffffffff81000300 T seventeen_digits\n"
	    "0xffffffff81000400 T prefixed\n"
	    " ffffffff81000500 T blank_led\n"
	    "-1 T negative\n"
	    "ffffffff81000600 T last\n";
	char *path = tmp_write("kallsyms", text, sizeof text - 1);
	struct symtab t = { 0 };
	struct strtab s = { 0 };

	cr_assert_eq(kallsyms_load(path, &t, &s, NULL), 4);
	cr_assert_eq(t.n, 4);
	cr_expect_eq(t.v[0].start, 0x1000);
	cr_expect_str_eq(strtab_get(&s, t.v[1].name), "lower_first");
	cr_expect_str_eq(strtab_get(&s, t.v[2].name), "upper");
	cr_expect_eq(t.v[2].start, 0xffffffff81000200);
	cr_expect_eq(t.v[2].end, 0xffffffff81000600, "up to the next kept symbol");
	cr_expect_str_eq(strtab_get(&s, t.v[3].name), "last");
	symtab_free(&t);
	strtab_free(&s);
	unlink(path);
	free(path);
}

/* The name of the symbol of t holding addr ("" if none). */
static const char *
name_at(const struct symtab *t, const struct strtab *s, uint64_t addr)
{
	size_t i = symtab_find(t, addr);

	return i == SIZE_MAX ? "" : strtab_get(s, t->v[i].name);
}

/*
 * Aliases in kallsyms, as perf 6.1 reports them (perf report --kallsyms
 * over fp.data's kernel samples with this file): sizes come first, up to
 * the next symbol, so only the last alias listed has one, and perf's
 * choice keeps the symbol with a size over weak/global, underscores and
 * length alike.
 */
Test(kallsyms, aliases_keep_the_last_listed)
{
	static const char text[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000c00 T __ia32_sys_vfork\n"
	    "ffffffff81000c00 T __x64_sys_vfork\n"
	    "ffffffff81000d00 T __x64_sys_fork\n"
	    "ffffffff81000d00 T __ia32_sys_fork\n"
	    "ffffffff81000e00 T memcpy\n"
	    "ffffffff81000e00 T __memcpy\n"
	    "ffffffff81000e00 T __pi_memcpy\n"
	    "ffffffff81000f00 T glob_alias\n"
	    "ffffffff81000f00 W weak_alias\n"
	    "ffffffff81000f00 t loc\n"
	    "ffffffff81001000 T end_one\n";
	char *path = tmp_write("kallsyms", text, sizeof text - 1);
	struct symtab t = { 0 };
	struct strtab s = { 0 };

	cr_assert_eq(kallsyms_load(path, &t, &s, NULL), 13);
	cr_assert_eq(t.n, 6, "one symbol per address");
	cr_expect_str_eq(name_at(&t, &s, 0xffffffff81000c10), "__x64_sys_vfork");
	cr_expect_str_eq(name_at(&t, &s, 0xffffffff81000d10), "__ia32_sys_fork", "order, not name");
	cr_expect_str_eq(name_at(&t, &s, 0xffffffff81000e10), "__pi_memcpy");
	cr_expect_str_eq(name_at(&t, &s, 0xffffffff81000f10), "loc", "even a local one");
	cr_expect_eq(t.v[symtab_find(&t, 0xffffffff81000e10)].end, 0xffffffff81000f00);
	symtab_free(&t);
	strtab_free(&s);
	unlink(path);
	free(path);
}

/* One read of a kallsyms serves the kernel and every module: the symbols
 * still load after the file is gone. */
Test(kallsyms, one_read_for_every_module)
{
	static const char text[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffffc0000000 T a_fn\t[moda]\n"
	    "ffffffffc0000100 t a_local\t[moda]\n"
	    "ffffffffc1000000 T b_fn\t[modb] \n"
	    "ffffffffc1000100 r b_rodata\t[modb]\n"
	    "ffffffff81000100 T _etext\n";
	char *path = tmp_write("kallsyms", text, sizeof text - 1);
	struct kallsyms_file *kf = kallsyms_file_read(path);
	struct symtab k = { 0 }, a = { 0 }, b = { 0 }, none = { 0 };
	struct strtab s = { 0 };

	unlink(path);
	cr_expect_eq(kallsyms_file_note(kf)->status, SAFEFILE_OK);
	cr_expect_eq(kallsyms_file_load(kf, NULL, &k, &s), 2);
	cr_expect_eq(kallsyms_file_load(kf, "[moda]", &a, &s), 2);
	cr_expect_eq(kallsyms_file_load(kf, "[modb]", &b, &s), 1, "rodata is not a symbol");
	cr_expect_eq(kallsyms_file_load(kf, "[modc]", &none, &s), 0);
	cr_expect_eq(kallsyms_file_load(kf, "[mod", &none, &s), 0, "a tag matches whole");
	cr_assert_eq(b.n, 1);
	cr_expect_str_eq(strtab_get(&s, b.v[0].name), "b_fn");
	kallsyms_file_free(kf);
	kf = kallsyms_file_read(path);
	cr_expect_eq(kallsyms_file_note(kf)->status, SAFEFILE_MISSING);
	cr_expect_eq(kallsyms_file_load(kf, NULL, &none, &s), -1);
	kallsyms_file_free(kf);
	symtab_free(&k);
	symtab_free(&a);
	symtab_free(&b);
	symtab_free(&none);
	strtab_free(&s);
	free(path);
}

Test(perfmap, parse)
{
	static const char text[] = "7fe259691040 38 jit_spin_fast\n7fe259691400 38 jit_spin_slow[tier0]\n"
	    "bad line\n";
	char *path = tmp_write("perf-1.map", text, sizeof text - 1);
	struct symtab t = { 0 };
	struct strtab s = { 0 };
	size_t i;

	cr_assert_eq(perfmap_load(path, &t, &s, NULL), 2);
	i = symtab_find(&t, 0x7fe25969142b);
	cr_assert_neq(i, SIZE_MAX);
	cr_expect_str_eq(strtab_get(&s, t.v[i].name), "jit_spin_slow[tier0]");
	cr_expect_eq(symtab_find(&t, 0x7fe259691000), SIZE_MAX);
	cr_expect_eq(symtab_find(&t, 0x7fe259691078), SIZE_MAX);
	symtab_free(&t);
	strtab_free(&s);
	unlink(path);
	free(path);
}

/* ---- ELF files compiled here ---- */

static char elfdir[] = "/tmp/perfnav-elf-XXXXXX";
static bool have_cc;

static void
elf_setup(void)
{
	char cmd[1024];
	FILE *fp;

	cr_assert_not_null(mkdtemp(elfdir));
	snprintf(cmd, sizeof cmd, "%s/t.c", elfdir);
	fp = fopen(cmd, "w");
	cr_assert_not_null(fp);
	fputs("static int __attribute__((noinline)) helper(int x) { return x * 3; }\n"
	    "int __attribute__((noinline)) visible(int x) { return helper(x) + 1; }\n"
	    "static inline int inl(int x) { return x + 7; }\n"
	    "int main(int c, char **v) { (void)v; return visible(c) + inl(c); }\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof cmd,
	    "cd %s && cc -O1 -g -o t t.c -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 "
	    "2>/dev/null && cp t t.stripped && strip -s t.stripped && "
	    "objcopy --only-keep-debug t t.debug && objcopy --strip-debug "
	    "--add-gnu-debuglink=t.debug t t.linked", elfdir);
	have_cc = system(cmd) == 0;
}

static void
elf_teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "rm -rf %s", elfdir);
	if (system(cmd) != 0)
		cr_log_warn("cannot remove %s", elfdir);
}

static const char *
ep(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", elfdir, name);
	return buf[k];
}

Test(elf, symbols_and_build_id, .init = elf_setup, .fini = elf_teardown)
{
	struct symtab t = { 0 };
	struct strtab s = { 0 };
	uint8_t id[20];
	bool saw_main = false, saw_helper = false, saw_visible = false;

	if (!have_cc)
		cr_skip_test("no C compiler");
	cr_assert_eq(elfsym_build_id(ep("t"), id), 20);
	cr_expect_eq(id[0], 0x01);
	cr_expect_eq(id[19], 0x67);
	cr_expect_eq(elfsym_has_symtab(ep("t")), ELFSYM_SYMTAB | ELFSYM_DYNSYM);
	cr_expect_eq(elfsym_has_symtab(ep("t.stripped")), ELFSYM_DYNSYM);
	cr_expect_eq(elfsym_has_symtab(ep("t.debug")) & ELFSYM_DYNSYM, 0);
	cr_expect_eq(elfsym_has_symtab(ep("t.c")), -1);
	cr_assert_gt(elfsym_load(ep("t"), ep("t"), true, &t, &s), 0);
	for (size_t i = 0; i < t.n; i++) {
		const char *n = strtab_get(&s, t.v[i].name);

		saw_main |= strcmp(n, "main") == 0;
		saw_helper |= strcmp(n, "helper") == 0;
		saw_visible |= strcmp(n, "visible") == 0 && t.v[i].end > t.v[i].start;
	}
	cr_expect(saw_main && saw_helper && saw_visible);
	symtab_free(&t);
	strtab_free(&s);

	/* Symbols from the separate debug file, program headers from the binary. */
	cr_assert_gt(elfsym_load(ep("t.debug"), ep("t.linked"), true, &t, &s), 0);
	symtab_free(&t);
	strtab_free(&s);
	{
		char link[256];

		cr_assert_eq(elfsym_debuglink(ep("t.linked"), link, sizeof link), 0);
		cr_expect_str_eq(link, "t.debug");
	}
}

/*
 * Aliases in an ELF symbol table, all of one size: perf 6.1 keeps not weak
 * over weak, global over local, fewer leading underscores, the longer
 * name, then the first in the table unless it is a "SyS" syscall alias.
 * An object file keeps the table in the order the assembler was given.
 */
Test(elf, aliases_as_perf_chooses)
{
	static const char src[] =
	    "\t.text\n"
	    "\t.globl SyS_foo\n\t.globl sys_foo\n\t.globl g\n\t.globl short\n"
	    "\t.globl longer_name\n\t.globl __two\n\t.globl one_\n\t.globl glb_\n"
	    "\t.weak a_very_long_weak_name\n"
	    "SyS_foo:\nsys_foo:\n\tnop\n\tret\n"
	    "a_very_long_weak_name:\ng:\n\tnop\n\tret\n"
	    "short:\nlonger_name:\n\tnop\n\tret\n"
	    "__two:\none_:\n\tnop\n\tret\n"
	    "loc:\nglb_:\n\tnop\n\tret\n"
	    "\t.type SyS_foo,@function\n\t.size SyS_foo,2\n\t.type sys_foo,@function\n"
	    "\t.size sys_foo,2\n\t.type a_very_long_weak_name,@function\n"
	    "\t.size a_very_long_weak_name,2\n\t.type g,@function\n\t.size g,2\n"
	    "\t.type short,@function\n\t.size short,2\n\t.type longer_name,@function\n"
	    "\t.size longer_name,2\n\t.type __two,@function\n\t.size __two,2\n"
	    "\t.type one_,@function\n\t.size one_,2\n\t.type loc,@function\n\t.size loc,2\n"
	    "\t.type glb_,@function\n\t.size glb_,2\n";
	char *path = tmp_write("aliases.s", src, sizeof src - 1), obj[512], cmd[1200];
	struct symtab t = { 0 };
	struct strtab s = { 0 };
	uint64_t base;

	snprintf(obj, sizeof obj, "%s.o", path);
	snprintf(cmd, sizeof cmd, "cc -x assembler -c -o %s %s 2>/dev/null", obj, path);
	if (system(cmd) != 0)
		cr_skip_test("no assembler");
	cr_assert_gt(elfsym_load(obj, obj, false, &t, &s), 0);
	cr_assert_eq(t.n, 5, "one symbol per address");
	base = t.v[0].start;	/* .text's file offset */
	cr_expect_str_eq(name_at(&t, &s, base), "sys_foo", "SyS_ aliases avoided");
	cr_expect_str_eq(name_at(&t, &s, base + 2), "g", "global over weak");
	cr_expect_str_eq(name_at(&t, &s, base + 4), "longer_name");
	cr_expect_str_eq(name_at(&t, &s, base + 6), "one_", "fewer leading underscores");
	cr_expect_str_eq(name_at(&t, &s, base + 8), "glb_", "global over local");
	symtab_free(&t);
	strtab_free(&s);
	unlink(obj);
	unlink(path);
	free(path);
}

/* ---- resolution on the fixtures ---- */

static struct session *
open_fx(const char *name)
{
	struct session_opts so = { .keep_going = true };
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open(test_data(name), &so, &err);
	cr_assert_not_null(s, "%s: %s", name, err.msg);
	return s;
}

/* Resolve every sample of a fixture and count what its frames say. */
struct tally {
	size_t	samples, resolved, cpu_dso, why[SYM_WHY_COUNT];
	bool	saw_main_in_chain;
	bool	saw_kernel_frame;
};

static void
run_all(const char *name, const char *buildid, struct tally *ty)
{
	struct session *s = open_fx(name);
	const struct rec_index *ix = session_index(s);
	struct sym_opts o = { .buildid_dir = buildid, .kallsyms = "/dev/null",
		.perfmap_dir = "/nonexistent" };
	struct symbolizer *z = symbolizer_new(s, &o);
	struct frame fr[256];

	memset(ty, 0, sizeof *ty);
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		struct sample smp;
		struct rec r;
		const char *why;
		struct frame f;

		if (ent_type(e) != PF_REC_SAMPLE || session_rec(s, ent_loc(e), &r) < 0 ||
		    record_decode_sample(session_attrs(s), &r, &smp, &why) < 0)
			continue;
		ty->samples++;
		symbolizer_resolve(z, (int32_t)smp.pid, (int32_t)smp.tid, smp.time,
		    r.misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &f);
		ty->why[f.why]++;
		if (f.sym != SYM_NONE)
			ty->resolved++;
		if (strcmp(symbolizer_dso_long(z, f.dso), "/tmp/perfnav-fixtures/cpu") == 0) {
			char label[256];

			ty->cpu_dso++;
			cr_expect_str_eq(symbolizer_dso_short(z, f.dso), "cpu");
			symbolizer_sym_label(z, &f, label, sizeof label);
			cr_expect(strncmp(label, "[.] ", 4) == 0, "%s", label);
		}
		if (smp.callchain != NULL) {
			size_t n = symbolizer_callchain(z, &smp, r.misc, fr, 256, 0);

			cr_expect_gt(n, 0);
			cr_expect_eq(fr[0].ip, smp.ip);
			for (size_t k = 0; k < n; k++) {
				ty->saw_main_in_chain |= fr[k].sym != SYM_NONE &&
				    strcmp(symbolizer_sym_name(z, fr[k].sym), "main") == 0;
				ty->saw_kernel_frame |= fr[k].kernel;
			}
			cr_expect_leq(symbolizer_callchain(z, &smp, r.misc, fr, 256, 2), 2);
		}
	}
	symbolizer_free(z);
	session_close(s);
}

Test(resolve, fp_with_buildid_cache)
{
	char dir[1024];
	struct tally t;

	snprintf(dir, sizeof dir, "%s", test_data("buildid"));
	run_all("fp.data", dir, &t);
	cr_assert_gt(t.samples, 100);
	cr_expect_gt(t.cpu_dso, t.samples / 2);
	cr_expect_gt(t.resolved, t.samples / 2);
	cr_expect(t.saw_main_in_chain);
	cr_expect(t.saw_kernel_frame);
	/* The kernel has no symbols here (--kallsyms /dev/null). */
	cr_expect_gt(t.why[SYM_WHY_NO_KALLSYMS], 0);
}

Test(resolve, missing_cache_says_why)
{
	struct tally t;

	run_all("fp.data", "/nonexistent-buildid-dir", &t);
	cr_assert_gt(t.samples, 100);
	/* The fixture binary lives in /tmp/perfnav-fixtures only when recorded there. */
	if (access("/tmp/perfnav-fixtures/cpu", R_OK) != 0)
		cr_expect_gt(t.why[SYM_WHY_NO_DSO_FILE], t.samples / 2);
}

Test(resolve, fork_exec_images)
{
	char dir[1024];
	struct tally t;

	snprintf(dir, sizeof dir, "%s", test_data("buildid"));
	run_all("fork.data", dir, &t);
	cr_assert_gt(t.samples, 50);
	cr_expect_gt(t.resolved, t.samples / 2);
}

Test(resolve, callchain_context_markers)
{
	struct session *s = open_fx("plain.data");
	struct sym_opts o = { .buildid_dir = "/nonexistent", .kallsyms = "/dev/null" };
	struct symbolizer *z = symbolizer_new(s, &o);
	uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010, 0xffffffff81000020,
		(uint64_t)PERF_CONTEXT_USER, 0x1000, 0x2000, 0x3000 };
	struct sample smp;
	struct frame fr[16];
	size_t n;

	memset(&smp, 0, sizeof smp);
	smp.pid = smp.tid = 424242;
	smp.ip = chain[1];
	smp.callchain = (const uint8_t *)chain;
	smp.callchain_nr = 7;
	n = symbolizer_callchain(z, &smp, PERF_RECORD_MISC_KERNEL, fr, 16, 0);
	cr_assert_eq(n, 5);
	cr_expect(fr[0].kernel && fr[1].kernel);
	cr_expect(!fr[2].kernel && fr[2].cpumode == PERF_RECORD_MISC_USER);
	cr_expect_eq(fr[4].ip, 0x3000);
	/* No process 424242: user frames have no map. */
	cr_expect_eq(fr[2].why, SYM_WHY_NO_MAP);
	cr_expect_eq(fr[2].dso, DSO_NONE);
	cr_expect_str_eq(symbolizer_dso_long(z, fr[2].dso), "[unknown]");
	{
		char label[64];

		cr_expect_str_eq(symbolizer_sym_label(z, &fr[2], label, sizeof label),
		    "[.] 0x0000000000001000");
	}
	cr_expect_eq(symbolizer_callchain(z, &smp, PERF_RECORD_MISC_KERNEL, fr, 16, 3), 3);
	cr_expect_eq(symbolizer_callchain(z, &smp, PERF_RECORD_MISC_KERNEL, fr, 2, 0), 2);
	symbolizer_free(z);
	session_close(s);
}

/* ---- recordings of maps, written byte by byte ---- */

/* One map of a recording made by write_recording(). */
struct tmap {
	int32_t		 pid;		/* -1: a kernel map (MMAP, kernel cpumode) */
	uint64_t	 start, len;
	const char	*name;
	const char	*bid;		/* 40 hex digits: MMAP2 with MISC_MMAP_BUILD_ID */
};

/* A recording whose data is the maps m (user ones read-exec MMAP2). */
static char *
write_recording(const struct tmap *m, size_t n)
{
	struct pdbuf b;
	size_t attrs, data, r;
	char *path;

	memset(&b, 0, sizeof b);
	pd_u64(&b, 0x32454c4946524550ULL);
	pd_u64(&b, 104);
	pd_u64(&b, 64 + 16);
	pd_zero(&b, 104 - 24);
	attrs = b.len;
	pd_attr(&b, 64, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1000,
	    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 0, 0);
	pd_u64(&b, 0);
	pd_u64(&b, 0);
	data = b.len;
	for (size_t k = 0; k < n; k++) {
		if (m[k].pid < 0) {
			r = pd_rec_begin(&b, PF_REC_MMAP, PERF_RECORD_MISC_KERNEL);
			pd_u32(&b, (uint32_t)-1);
			pd_u32(&b, 0);
			pd_u64(&b, m[k].start);
			pd_u64(&b, m[k].len);
			pd_u64(&b, m[k].name[0] == '[' ? m[k].start : 0);
			pd_str8(&b, m[k].name);
			pd_rec_end(&b, r);
			continue;
		}
		r = pd_rec_begin(&b, PF_REC_MMAP2, PERF_RECORD_MISC_USER |
		    (m[k].bid ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0));
		pd_u32(&b, (uint32_t)m[k].pid);
		pd_u32(&b, (uint32_t)m[k].pid);
		pd_u64(&b, m[k].start);
		pd_u64(&b, m[k].len);
		pd_u64(&b, 0);
		if (m[k].bid != NULL) {
			pd_u8(&b, 20);
			pd_zero(&b, 3);
			for (size_t i = 0; i < 20; i++) {
				unsigned v;

				cr_assert_eq(sscanf(m[k].bid + 2 * i, "%2x", &v), 1);
				pd_u8(&b, (uint8_t)v);
			}
		} else {
			pd_zero(&b, 24);	/* maj, min, ino, ino_generation */
		}
		pd_u32(&b, 5);	/* PROT_READ | PROT_EXEC */
		pd_u32(&b, 2);	/* MAP_PRIVATE */
		pd_str8(&b, m[k].name);
		pd_rec_end(&b, r);
	}
	pd_put64(&b, 24, attrs);
	pd_put64(&b, 32, 64 + 16);
	pd_put64(&b, 40, data);
	pd_put64(&b, 48, b.len - data);
	path = tmp_write("maps", b.p, b.len);
	pd_free(&b);
	return path;
}

/* A recording with a kernel map and a module map. */
static char *
write_kernel_recording(void)
{
	static const struct tmap m[] = {
		{ -1, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text", NULL },
		{ -1, 0xffffffffc0000000ULL, 0x10000,
		    "/lib/modules/6.1.0/kernel/drivers/input/joy-dev.ko", NULL },
	};

	return write_recording(m, sizeof m / sizeof m[0]);
}

/* Files of a test in a fresh directory under /tmp. */
static void
tdir_make(char *dir, size_t n)
{
	snprintf(dir, n, "/tmp/perfnav-symsrc-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

/* Write n bytes of p to dir/name, making the directories it lies in. */
static void
tdir_put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[1024], cmd[1200];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	fp = fopen(path, "wb");
	cr_assert_not_null(fp, "%s", path);
	cr_assert_eq(fwrite(p, 1, n, fp), n);
	fclose(fp);
}

static void
tdir_remove(const char *dir)
{
	char cmd[1100];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		cr_log_warn("cannot remove %s", dir);
}

/* The fixture binary of tests/data's build-id cache, and its build id. */
#define CPU_BID	"d4aec36f57664181c7762a6851ef1dd35510a091"
#define CPU_ELF	"buildid/tmp/perfnav-fixtures/cpu/" CPU_BID "/elf"
/* Another build id. */
#define VDSO_BID "0102030405060708090a0b0c0d0e0f1011121314"

/* One resolution a test expects. */
struct tcase {
	int32_t		 pid;
	uint8_t		 cpumode;
	uint64_t	 ip;
	enum sym_why	 why;
	const char	*sym;		/* the symbol's name, or the reason's text */
	const char	*source;	/* the source that loaded the DSO, or NULL */
};

static void
check_case(struct symbolizer *z, const struct tcase *c)
{
	char text[512];
	struct frame f;

	symbolizer_resolve(z, c->pid, c->pid, 1, c->cpumode, c->ip, &f);
	cr_assert_eq(f.why, c->why, "%#" PRIx64 ": why %s, not %s", c->ip,
	    sym_why_name(f.why), sym_why_name(c->why));
	if (c->why == SYM_WHY_OK)
		cr_expect_str_eq(symbolizer_sym_name(z, f.sym), c->sym);
	else
		cr_expect_str_eq(symbolizer_why_text(z, f.dso, f.why, text, sizeof text), c->sym);
	if (c->source != NULL)
		cr_expect_str_eq(symbolizer_dso_source(z, f.dso), c->source, "%s", c->sym);
	else
		cr_expect_null(symbolizer_dso_source(z, f.dso));
}

/* The file offset of function name in the ELF file at path. */
static uint64_t
elf_sym_at(const char *path, const char *name)
{
	struct symtab t = { 0 };
	struct strtab s = { 0 };
	uint64_t at = 0;

	cr_assert_gt(elfsym_load(path, path, true, &t, &s), 0, "%s", path);
	for (size_t i = 0; i < t.n; i++)
		if (strcmp(strtab_get(&s, t.v[i].name), name) == 0)
			at = t.v[i].start;
	cr_assert_neq(at, 0, "%s in %s", name, path);
	symtab_free(&t);
	strtab_free(&s);
	return at;
}

/*
 * Every symbol source of symsrc_table, each given a DSO of its kind: the
 * kernel and a module (kallsyms), a user binary (its ELF file in the
 * build-id cache), the vdso (the cache's copy), JIT code (perf-42.map).
 */
Test(symsrc, each_kind_of_dso_resolves_through_its_source)
{
	static const char ksyms[] = "ffffffff81000100 T kfunc\n"
	    "ffffffffc0000100 t joy_read\t[joy_dev]\n";
	static const char jit[] = "7f0000000000 40 jit_fn\n";
	const struct tmap m[] = {
		{ -1, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text", NULL },
		{ -1, 0xffffffffc0000000ULL, 0x10000,
		    "/lib/modules/6.1.0/kernel/drivers/input/joy-dev.ko", NULL },
		{ 42, 0x400000, 0x100000, "/x/cpu", CPU_BID },
		{ 42, 0x7ffff7f00000ULL, 0x100000, "[vdso]", VDSO_BID },
		{ 42, SYNTH_JIT_ADDR, 0x1000, "//anon", NULL },
	};
	char dir[64], kpath[128], *rec = write_recording(m, sizeof m / sizeof m[0]), *elf;
	struct sym_opts o = { .buildid_dir = dir, .kallsyms = kpath, .perfmap_dir = dir };
	size_t len, nsrc = 0;
	uint64_t at;
	struct perf_err err;
	struct session *s = session_open(rec, NULL, &err);
	struct symbolizer *z;

	cr_assert_not_null(s, "%s", err.msg);
	elf = slurp(test_data(CPU_ELF), &len);
	cr_assert_not_null(elf);
	at = elf_sym_at(test_data(CPU_ELF), "main");
	tdir_make(dir, sizeof dir);
	tdir_put(dir, "kallsyms", ksyms, sizeof ksyms - 1);
	snprintf(kpath, sizeof kpath, "%s/kallsyms", dir);
	tdir_put(dir, "perf-42.map", jit, sizeof jit - 1);
	tdir_put(dir, "x/cpu/" CPU_BID "/elf", elf, len);
	tdir_put(dir, "[vdso]/" VDSO_BID "/vdso", elf, len);
	{
		const struct tcase c[] = {
			{ 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000150ULL, SYM_WHY_OK, "kfunc",
			    "kallsyms" },
			{ 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0000123ULL, SYM_WHY_OK, "joy_read",
			    "kallsyms" },
			{ 42, PERF_RECORD_MISC_USER, 0x400000 + at, SYM_WHY_OK, "main", "elf" },
			{ 42, PERF_RECORD_MISC_USER, 0x7ffff7f00000ULL + at, SYM_WHY_OK, "main",
			    "vdso" },
			{ 42, PERF_RECORD_MISC_USER, SYNTH_JIT_ADDR + 0x10, SYM_WHY_OK, "jit_fn",
			    "perf-map" },
		};

		z = symbolizer_new(s, &o);
		/* Every DSO is registered up front; none is loaded before a lookup. */
		cr_expect_eq(symbolizer_ndsos(z), 5);
		for (uint32_t d = 0; d < symbolizer_ndsos(z); d++)
			cr_expect_null(symbolizer_dso_source(z, d));
		for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
			check_case(z, &c[k]);
		/* Each source of the table had its case. */
		for (size_t i = 0; symsrc_table[i] != NULL; i++, nsrc++) {
			bool seen = false;

			for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
				seen |= strcmp(c[k].source, symsrc_table[i]->name) == 0;
			cr_expect(seen, "source %s has no case here", symsrc_table[i]->name);
		}
		cr_expect_eq(nsrc, 4);
		symbolizer_free(z);
	}
	session_close(s);
	tdir_remove(dir);
	unlink(rec);
	free(rec);
	free(elf);
}

/*
 * Each reason a frame may give, from a DSO that really fails that way,
 * and the text --why prints for it.
 */
Test(resolve, why_texts)
{
	static const char jit[] = "7f0000000000 10 jit_fn\n";
	static const char bad[] = "not an ELF file\n";
	char dir[64], bare[128], fifo[128], refused[256], mismatched[1024];
	const struct tmap m[] = {
		{ -1, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text", NULL },
		{ 42, 0x400000, 0x1000, "/nonexistent/x", NULL },
		{ 42, 0x500000, 0x1000, mismatched, "ffffffffffffffffffffffffffffffffffffffff" },
		{ 42, 0x600000, 0x1000, bare, NULL },
		{ 42, 0x700000, 0x1000, "[vdso]", VDSO_BID },
		{ 42, SYNTH_JIT_ADDR, 0x1000, "//anon", NULL },
		{ 43, SYNTH_JIT_ADDR, 0x1000, "//anon", NULL },
		{ 44, SYNTH_JIT_ADDR, 0x1000, "//anon", NULL },
	};
	struct sym_opts o = { .buildid_dir = dir, .kallsyms = "/dev/null", .perfmap_dir = dir };
	Elf64_Ehdr eh;
	char *rec;
	struct perf_err err;
	struct session *s;
	struct symbolizer *z;
	bool covered[SYM_WHY_COUNT] = { false };

	tdir_make(dir, sizeof dir);
	snprintf(mismatched, sizeof mismatched, "%s", test_data(CPU_ELF));
	snprintf(bare, sizeof bare, "%s/bare", dir);
	snprintf(fifo, sizeof fifo, "%s/perf-44.map", dir);
	snprintf(refused, sizeof refused, "refused: %s: is a FIFO, not a regular file", fifo);
	/* An ELF header and no sections: neither symbol table. */
	memset(&eh, 0, sizeof eh);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof eh;
	tdir_put(dir, "bare", &eh, sizeof eh);
	tdir_put(dir, "perf-42.map", jit, sizeof jit - 1);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	tdir_put(dir, "[vdso]/" VDSO_BID "/vdso", bad, sizeof bad - 1);
	rec = write_recording(m, sizeof m / sizeof m[0]);
	s = session_open(rec, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	z = symbolizer_new(s, &o);
	{
		const uint8_t U = PERF_RECORD_MISC_USER;
		const struct tcase c[] = {
			{ 42, U, SYNTH_JIT_ADDR + 4, SYM_WHY_OK, "jit_fn", "perf-map" },
			{ 42, U, 0x10, SYM_WHY_NO_MAP, "no mapping covers the address", NULL },
			{ 42, U, 0x400010, SYM_WHY_NO_DSO_FILE,
			    "the DSO's file was not found (build-id cache, --symfs, path)", "elf" },
			{ 42, U, 0x500010, SYM_WHY_BUILDID_MISMATCH,
			    "the file at the DSO's path has another build id", "elf" },
			{ 42, U, 0x600010, SYM_WHY_NO_SYMBOLS,
			    "the file has no symbol table (stripped)", "elf" },
			{ 42, U, SYNTH_JIT_ADDR + 0x100, SYM_WHY_NOT_IN_SYMBOL,
			    "the address is in no symbol of the file", "perf-map" },
			{ 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000150ULL, SYM_WHY_NO_KALLSYMS,
			    "no kernel symbols (kallsyms) for this recording", "kallsyms" },
			{ 43, U, SYNTH_JIT_ADDR + 4, SYM_WHY_JIT_NO_MAP,
			    "no perf-PID.map for this JIT code", "perf-map" },
			{ 42, U, 0x700010, SYM_WHY_BAD_FILE, "the DSO's file could not be read as ELF",
			    "vdso" },
			{ 44, U, SYNTH_JIT_ADDR + 4, SYM_WHY_REFUSED, refused, "perf-map" },
		};

		for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
			check_case(z, &c[k]);
			covered[c[k].why] = true;
		}
	}
	/* Every reason has its case, a name and a text of its own. */
	for (unsigned w = 0; w < SYM_WHY_COUNT; w++) {
		cr_expect(covered[w], "no case for %s", sym_why_name((enum sym_why)w));
		cr_expect_gt(strlen(sym_why_text((enum sym_why)w)), 0);
		for (unsigned v = 0; v < w; v++) {
			cr_expect_str_neq(sym_why_text((enum sym_why)w), sym_why_text((enum sym_why)v));
			cr_expect_str_neq(sym_why_name((enum sym_why)w), sym_why_name((enum sym_why)v));
		}
	}
	cr_expect_str_eq(sym_why_name(SYM_WHY_BUILDID_MISMATCH), "BUILDID_MISMATCH");
	cr_expect_str_eq(sym_why_name(SYM_WHY_COUNT), "?");
	symbolizer_free(z);
	session_close(s);
	tdir_remove(dir);
	unlink(rec);
	free(rec);
}

Test(resolve, kernel_module_symbols_from_kallsyms)
{
	static const char ksyms[] =
	    "ffffffff81000100 T kfunc\n"
	    "ffffffff81000200 T kfunc2\n"
	    "ffffffffc0000100 t joy_read\t[joy_dev]\n"
	    "ffffffffc0000200 t joy_write\t[joy_dev]\n"
	    "ffffffffc0000100 t other_mod_fn\t[joy_dev_extra]\n";
	char *rec = write_kernel_recording();
	char *kpath = tmp_write("kallsyms", ksyms, sizeof ksyms - 1);
	struct sym_opts o = { .buildid_dir = "/nonexistent", .kallsyms = kpath };
	struct perf_err err;
	struct session *s = session_open(rec, NULL, &err);
	struct symbolizer *z;
	struct frame f;

	cr_assert_not_null(s, "%s", err.msg);
	z = symbolizer_new(s, &o);
	symbolizer_resolve(z, 0, 0, 1, PERF_RECORD_MISC_KERNEL, 0xffffffffc0000123ULL, &f);
	cr_assert_eq(f.why, SYM_WHY_OK, "why %s", sym_why_name(f.why));
	cr_expect_str_eq(symbolizer_sym_name(z, f.sym), "joy_read");
	cr_expect_str_eq(symbolizer_dso_short(z, f.dso), "[joy_dev]");
	cr_expect_eq(f.symoff, 0x23);
	symbolizer_resolve(z, 0, 0, 1, PERF_RECORD_MISC_KERNEL, 0xffffffff81000150ULL, &f);
	cr_assert_eq(f.why, SYM_WHY_OK);
	cr_expect_str_eq(symbolizer_sym_name(z, f.sym), "kfunc");
	cr_expect_str_eq(symbolizer_dso_short(z, f.dso), "[kernel.kallsyms]");
	symbolizer_free(z);
	/* without kallsyms, the module's addresses stay unresolved and say why */
	o.kallsyms = "/dev/null";
	z = symbolizer_new(s, &o);
	symbolizer_resolve(z, 0, 0, 1, PERF_RECORD_MISC_KERNEL, 0xffffffffc0000123ULL, &f);
	cr_expect_eq(f.sym, SYM_NONE);
	cr_expect_eq(f.why, SYM_WHY_NO_KALLSYMS);
	symbolizer_free(z);
	session_close(s);
	unlink(rec);
	unlink(kpath);
	free(rec);
	free(kpath);
}
