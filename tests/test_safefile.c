/*
 * test_safefile.c: files a recording names are read only when they are
 * regular files of sane size (core/safefile.h), never waited on: a FIFO, a
 * symlink to /dev/zero, a character device, a directory, a sparse file
 * over its cap, a perf-PID.map of another user in a world-writable
 * directory are refused with a reason; a normal file is read.  Then the
 * same through the symbolizer: a refused perf-PID.map, DSO path or
 * build-id cache entry makes the DSO's reason SYM_WHY_REFUSED, with the
 * file's own reason kept.  Every input is made here, in a temporary
 * directory; every test times out rather than hangs.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/dso.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symtab.h"
#include "tests/helpers.h"

TESTS_ONE_AT_A_TIME

static const struct safefile_rule jit_rule = {
	.what = "a JIT map",
	.cap = SAFEFILE_CAP_JIT_MAP,
	.flags = SAFEFILE_OWNER,
};

static const struct safefile_rule small_rule = {
	.what = "a test file",
	.cap = 64,
};

/* A fresh directory under /tmp; into buf. */
static void
tmpdir(char *buf, size_t n)
{
	snprintf(buf, n, "/tmp/perfnav-safefile-XXXXXX");
	cr_assert_not_null(mkdtemp(buf));
}

static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp, "%s", path);
	fputs(text, fp);
	cr_assert_eq(fclose(fp), 0);
}

/* safefile_open refuses path under rule, with a reason holding want. */
static void
expect_refused(const char *path, const struct safefile_rule *rule, const char *want)
{
	struct safefile_note n;
	int fd = safefile_open(path, rule, NULL, &n);

	cr_expect_lt(fd, 0, "%s was opened", path);
	if (fd >= 0)
		close(fd);
	cr_expect_eq(n.status, SAFEFILE_REFUSED, "%s: status %d (%s)", path, n.status, n.why);
	cr_expect(strstr(n.why, want) != NULL, "%s: \"%s\" lacks \"%s\"", path, n.why, want);
	/* the check without opening says the same */
	cr_expect_lt(safefile_check(path, rule, NULL, &n), 0);
	cr_expect(strstr(n.why, want) != NULL, "check %s: \"%s\"", path, n.why);
}

Test(safefile, normal_file_is_read, .timeout = 10)
{
	char dir[64], path[128], buf[16];
	struct safefile_note n;
	struct stat st;
	int fd;

	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/perf-1.map", dir);
	put(path, "1000 10 f\n");
	fd = safefile_open(path, &jit_rule, &st, &n);
	cr_assert_geq(fd, 0, "%s", n.why);
	cr_expect_eq(n.status, SAFEFILE_OK);
	cr_expect_eq(st.st_size, 10);
	cr_expect_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0, "blocking mode restored");
	cr_expect_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	cr_expect_eq(read(fd, buf, sizeof buf), 10);
	close(fd);
	/* not there: missing, not refused */
	cr_expect_lt(safefile_open("/nonexistent/perf-1.map", &jit_rule, NULL, &n), 0);
	cr_expect_eq(n.status, SAFEFILE_MISSING);
	unlink(path);
	rmdir(dir);
}

Test(safefile, fifo_is_refused_without_waiting, .timeout = 10)
{
	char dir[64], path[128];

	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/perf-1.map", dir);
	cr_assert_eq(mkfifo(path, 0600), 0);
	expect_refused(path, &jit_rule, "is a FIFO, not a regular file");
	unlink(path);
	rmdir(dir);
}

Test(safefile, devices_are_refused, .timeout = 10)
{
	char dir[64], path[128];

	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/perf-1.map", dir);
	cr_assert_eq(symlink("/dev/zero", path), 0);
	expect_refused(path, &jit_rule, "is a character device");
	expect_refused("/dev/null", &jit_rule, "is a character device, not a regular file");
	unlink(path);
	rmdir(dir);
}

Test(safefile, directory_is_refused, .timeout = 10)
{
	char dir[64];

	tmpdir(dir, sizeof dir);
	expect_refused(dir, &jit_rule, "is a directory, not a regular file");
	rmdir(dir);
}

/* A 10 GiB file of holes: nothing is written, nothing read. */
Test(safefile, sparse_file_over_the_cap, .timeout = 10)
{
	char dir[64], path[128];
	int fd;

	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/perf-1.map", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	cr_assert_geq(fd, 0);
	if (ftruncate(fd, (off_t)10 << 30) != 0) {
		close(fd);
		unlink(path);
		rmdir(dir);
		cr_skip_test("no sparse 10 GiB file here");
	}
	close(fd);
	expect_refused(path, &jit_rule, "10 GiB is larger than the 256 MiB cap for a JIT map");
	/* at the cap itself it is fine */
	cr_assert_eq(truncate(path, 64), 0);
	fd = safefile_open(path, &small_rule, NULL, NULL);
	cr_expect_geq(fd, 0);
	close(fd);
	cr_assert_eq(truncate(path, 65), 0);
	expect_refused(path, &small_rule, "65 bytes is larger than the 64 bytes cap for a test file");
	unlink(path);
	rmdir(dir);
}

/*
 * perf's rule for /tmp/perf-*.map: in a world-writable directory, a file
 * (or a symlink planted there) of another user is not read; the same file
 * in a directory only its owner writes is.
 */
Test(safefile, foreign_perf_map_in_world_writable_dir, .timeout = 10)
{
	char dir[64], sub[128], path[160], link[160], mine[160];
	int fd;

	if (geteuid() != 0)
		cr_skip_test("making a file of another user needs root");
	tmpdir(dir, sizeof dir);
	cr_assert_eq(chmod(dir, 01777), 0);
	snprintf(path, sizeof path, "%s/perf-1.map", dir);
	put(path, "1000 10 f\n");
	cr_assert_eq(chown(path, 65534, 65534), 0);
	expect_refused(path, &jit_rule, "not owned by you or root in world-writable ");
	/* without SAFEFILE_OWNER the owner does not matter */
	fd = safefile_open(path, &small_rule, NULL, NULL);
	cr_expect_geq(fd, 0);
	close(fd);
	/* a symlink of another user to a file of ours: refused too */
	snprintf(mine, sizeof mine, "%s/mine", dir);
	put(mine, "1000 10 f\n");
	snprintf(link, sizeof link, "%s/perf-2.map", dir);
	cr_assert_eq(symlink(mine, link), 0);
	cr_assert_eq(lchown(link, 65534, 65534), 0);
	expect_refused(link, &jit_rule, "not owned by you or root");
	/* ours (root's) in the same directory: read */
	fd = safefile_open(mine, &jit_rule, NULL, NULL);
	cr_expect_geq(fd, 0);
	close(fd);
	/* another user's file in a directory not world-writable: read */
	snprintf(sub, sizeof sub, "%s/private", dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	snprintf(path + strlen(dir), sizeof path - strlen(dir), "/private/perf-3.map");
	put(path, "1000 10 f\n");
	cr_assert_eq(chown(path, 65534, 65534), 0);
	fd = safefile_open(path, &jit_rule, NULL, NULL);
	cr_expect_geq(fd, 0);
	close(fd);
	unlink(path);
	rmdir(sub);
	unlink(link);
	unlink(mine);
	snprintf(path, sizeof path, "%s/perf-1.map", dir);
	unlink(path);
	rmdir(dir);
}

Test(safefile, size_text)
{
	char b[32];

	cr_expect_str_eq(safefile_size_text(1, b, sizeof b), "1 byte");
	cr_expect_str_eq(safefile_size_text(1023, b, sizeof b), "1023 bytes");
	cr_expect_str_eq(safefile_size_text(256 << 20, b, sizeof b), "256 MiB");
	cr_expect_str_eq(safefile_size_text(UINT64_C(10) << 30, b, sizeof b), "10 GiB");
	cr_expect_str_eq(safefile_size_text(1536, b, sizeof b), "1.5 KiB");
}

/* ---- the bounded line reader ---- */

static int
lines_of(const char *text, size_t max_line, uint64_t max_total, char out[][64], size_t n,
    struct safefile_lines *lr)
{
	char *path = tmp_write("lines", text, strlen(text));
	int fd = open(path, O_RDONLY);
	const char *line;
	size_t len;
	int k = 0;

	cr_assert_geq(fd, 0);
	safefile_lines_init(lr, fd, max_line, max_total);
	while (safefile_lines_next(lr, &line, &len) > 0) {
		cr_assert_eq(strlen(line), len);
		if ((size_t)k < n)
			snprintf(out[k], 64, "%s", line);
		k++;
	}
	safefile_lines_free(lr);
	close(fd);
	unlink(path);
	free(path);
	return k;
}

Test(safefile, lines_bounded)
{
	char out[8][64];
	struct safefile_lines lr;
	struct safefile_note n;
	char big[400];

	/* the last line without '\n' counts; empty lines come through */
	cr_assert_eq(lines_of("a\n\nbb\nccc", 16, 1000, out, 8, &lr), 4);
	cr_expect_str_eq(out[0], "a");
	cr_expect_str_eq(out[1], "");
	cr_expect_str_eq(out[3], "ccc");
	cr_expect_not(safefile_lines_note(&lr, &small_rule, &n));
	/* a line longer than max_line is skipped whole, once counted */
	memset(big, 'x', sizeof big);
	memcpy(big, "ok1\n", 4);
	memcpy(big + sizeof big - 9, "\nok2\nok3", 9);
	cr_assert_eq(lines_of(big, 32, 100000, out, 8, &lr), 3);
	cr_expect_str_eq(out[0], "ok1");
	cr_expect_str_eq(out[1], "ok2");
	cr_expect_str_eq(out[2], "ok3");
	cr_expect_eq(lr.long_lines, 1);
	/* a line of exactly max_line bytes is kept */
	cr_assert_eq(lines_of("0123456789abcdef\nz\n", 16, 1000, out, 8, &lr), 2);
	cr_expect_str_eq(out[0], "0123456789abcdef");
	/* the byte budget stops reading, the line it cuts is dropped, and it says so */
	cr_assert_eq(lines_of("aaaa\nbbbb\ncccc\n", 16, 12, out, 8, &lr), 2);
	cr_expect(lr.cut);
	cr_expect(safefile_lines_note(&lr, &small_rule, &n));
	cr_expect_eq(n.status, SAFEFILE_CUT);
	cr_expect_str_eq(n.why, "read only the first 12 bytes, the cap for a test file");
	/* a file exactly at the budget is not cut */
	cr_assert_eq(lines_of("aaaa\nbbbb\n", 16, 10, out, 8, &lr), 2);
	cr_expect_not(lr.cut);
}

/* ---- through the symbolizer ---- */

/*
 * The synthetic recording (tests/helpers.c: pid 42, a map at 0x400000 of
 * /usr/bin/synth) with its map's file name replaced by name (at most 15
 * bytes); a session over it.
 */
static struct session *
open_synth(const char *name, char **path)
{
	struct session_opts so = { 0 };
	struct perf_err err;
	struct pdbuf b;
	uint8_t *at;
	struct session *s;

	synth_file(&b, false, 8);
	at = memmem(b.p, b.len, "/usr/bin/synth", 14);
	cr_assert_not_null(at);
	cr_assert_lt(strlen(name), 16);
	memset(at, 0, 16);
	memcpy(at, name, strlen(name));
	*path = tmp_write("synth", b.p, b.len);
	pd_free(&b);
	memset(&err, 0, sizeof err);
	s = session_open(*path, &so, &err);
	cr_assert_not_null(s, "%s", err.msg);
	return s;
}

/* Resolve the first sample's address; the frame into *f. */
static void
resolve_first(struct symbolizer *z, struct frame *f)
{
	symbolizer_resolve(z, 42, 42, 1000, PERF_RECORD_MISC_USER, 0x400100, f);
	cr_assert_neq(f->dso, DSO_NONE);
}

/* z refused a file whose path ends in tail, for f's DSO, saying want. */
static void
expect_dso_refused(struct symbolizer *z, const struct frame *f, const char *tail,
    const char *want)
{
	struct sym_refusal r[8];
	size_t n = symbolizer_refusals(z, r, 8, NULL), k;
	const char *why, *path = NULL;
	bool found = false;

	cr_expect_eq(f->why, SYM_WHY_REFUSED, "why %s", sym_why_name((enum sym_why)f->why));
	cr_expect_str_eq(sym_why_name(SYM_WHY_REFUSED), "REFUSED");
	why = symbolizer_dso_refusal(z, f->dso, &path);
	cr_assert_not_null(why);
	cr_expect(strstr(why, want) != NULL, "%s", why);
	k = strlen(path);
	cr_expect(k >= strlen(tail) && strcmp(path + k - strlen(tail), tail) == 0, "%s", path);
	for (size_t i = 0; i < n && i < 8; i++)
		if (strstr(r[i].why, want) != NULL && r[i].dso == f->dso && !r[i].cut)
			found = true;
	cr_expect(found, "the refusal is listed");
}

Test(safefile, symbolizer_refuses_a_fifo_perf_map, .timeout = 20)
{
	char dir[64], map[128], *path;
	struct sym_opts o = { .kallsyms = "/dev/null", .buildid_dir = "/nonexistent" };
	struct session *s = open_synth("//anon", &path);
	struct symbolizer *z, *z2;
	struct sym_refusal r[4];
	struct frame f;

	tmpdir(dir, sizeof dir);
	snprintf(map, sizeof map, "%s/perf-42.map", dir);
	cr_assert_eq(mkfifo(map, 0600), 0);
	o.perfmap_dir = dir;
	z = symbolizer_new(s, &o);
	resolve_first(z, &f);
	cr_expect_eq(f.sym, SYM_NONE);
	expect_dso_refused(z, &f, "/perf-42.map", "is a FIFO, not a regular file");
	/* another symbolizer's refusals, adopted (perfnav top on two cores) */
	z2 = symbolizer_new(s, &o);
	cr_expect_eq(symbolizer_refusals(z2, r, 4, NULL), 0);
	symbolizer_adopt_refusals(z2, z);
	cr_assert_eq(symbolizer_refusals(z2, r, 4, NULL), 1);
	cr_expect_str_eq(r[0].path, map);
	cr_expect_not_null(symbolizer_dso_refusal(z2, f.dso, NULL));
	symbolizer_free(z2);
	symbolizer_free(z);
	/* a regular map there: resolved */
	unlink(map);
	put(map, "400000 1000 jitted_fn\n");
	z = symbolizer_new(s, &o);
	resolve_first(z, &f);
	cr_expect_eq(f.why, SYM_WHY_OK);
	cr_expect_str_eq(symbolizer_sym_name(z, f.sym), "jitted_fn");
	cr_expect_eq(symbolizer_refusals(z, r, 4, NULL), 0);
	symbolizer_free(z);
	unlink(map);
	rmdir(dir);
	session_close(s);
	unlink(path);
	free(path);
}

Test(safefile, symbolizer_refuses_a_huge_perf_map, .timeout = 20)
{
	char dir[64], map[128], *path;
	struct sym_opts o = { .kallsyms = "/dev/null", .buildid_dir = "/nonexistent" };
	struct session *s = open_synth("//anon", &path);
	struct symbolizer *z;
	struct frame f;

	tmpdir(dir, sizeof dir);
	snprintf(map, sizeof map, "%s/perf-42.map", dir);
	put(map, "");
	if (truncate(map, (off_t)10 << 30) != 0)
		cr_skip_test("no sparse 10 GiB file here");
	o.perfmap_dir = dir;
	z = symbolizer_new(s, &o);
	resolve_first(z, &f);
	expect_dso_refused(z, &f, "/perf-42.map", "is larger than the 256 MiB cap for a JIT map");
	symbolizer_free(z);
	unlink(map);
	rmdir(dir);
	session_close(s);
	unlink(path);
	free(path);
}

/* The DSO's own path under --symfs is a FIFO, or /dev/zero. */
Test(safefile, symbolizer_refuses_a_dso_path_that_is_no_file, .timeout = 20)
{
	char dir[64], bin[128], p[160], *path;
	struct sym_opts o = { .kallsyms = "/dev/null", .buildid_dir = "/nonexistent",
		.perfmap_dir = "/nonexistent" };
	struct session *s = open_synth("/bin/x", &path);
	struct symbolizer *z;
	struct frame f;

	tmpdir(dir, sizeof dir);
	snprintf(bin, sizeof bin, "%s/bin", dir);
	cr_assert_eq(mkdir(bin, 0755), 0);
	snprintf(p, sizeof p, "%s/x", bin);
	cr_assert_eq(mkfifo(p, 0600), 0);
	o.symfs = dir;
	z = symbolizer_new(s, &o);
	resolve_first(z, &f);
	expect_dso_refused(z, &f, "/bin/x", "is a FIFO");
	symbolizer_free(z);
	unlink(p);
	cr_assert_eq(symlink("/dev/zero", p), 0);
	z = symbolizer_new(s, &o);
	resolve_first(z, &f);
	expect_dso_refused(z, &f, "/bin/x", "is a character device");
	symbolizer_free(z);
	unlink(p);
	rmdir(bin);
	rmdir(dir);
	session_close(s);
	unlink(path);
	free(path);
}

/*
 * A build-id cache whose only version of the DSO's path points, through
 * .build-id/xx/rest, at a FIFO: refused, said, and no hang.
 */
Test(safefile, symbolizer_refuses_a_fifo_build_id_cache_entry, .timeout = 20)
{
	static const char hex[] = "0123456789abcdef0123456789abcdef01234567";
	char dir[64], p[256], *path;
	struct sym_opts o = { .kallsyms = "/dev/null", .perfmap_dir = "/nonexistent" };
	struct session *s = open_synth("/nowhere/x", &path);
	struct symbolizer *z;
	struct frame f;

	tmpdir(dir, sizeof dir);
	/* DIR/nowhere/x/HEX/ (the cache's entry for the path) */
	snprintf(p, sizeof p, "%s/nowhere", dir);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/nowhere/x", dir);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/nowhere/x/%s", dir, hex);
	cr_assert_eq(mkdir(p, 0755), 0);
	/* DIR/.build-id/01/23...67: a FIFO instead of a link */
	snprintf(p, sizeof p, "%s/.build-id", dir);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/.build-id/%.2s", dir, hex);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	cr_assert_eq(mkfifo(p, 0600), 0);
	o.buildid_dir = dir;
	z = symbolizer_new(s, &o);
	resolve_first(z, &f);
	cr_expect_eq(f.sym, SYM_NONE);
	expect_dso_refused(z, &f, hex + 2, "is a FIFO, not a regular file");
	symbolizer_free(z);
	unlink(p);
	snprintf(p, sizeof p, "%s/.build-id/%.2s", dir, hex);
	rmdir(p);
	snprintf(p, sizeof p, "%s/.build-id", dir);
	rmdir(p);
	snprintf(p, sizeof p, "%s/nowhere/x/%s", dir, hex);
	rmdir(p);
	snprintf(p, sizeof p, "%s/nowhere/x", dir);
	rmdir(p);
	snprintf(p, sizeof p, "%s/nowhere", dir);
	rmdir(p);
	rmdir(dir);
	session_close(s);
	unlink(path);
	free(path);
}

/* kallsyms and perf-PID.map readers: a FIFO refused, a regular file read. */
Test(safefile, kallsyms_and_perfmap_readers, .timeout = 20)
{
	char dir[64], ks[128];
	struct symtab t = { 0 };
	struct strtab strs = { 0 };
	struct safefile_note n;

	tmpdir(dir, sizeof dir);
	snprintf(ks, sizeof ks, "%s/kallsyms", dir);
	cr_assert_eq(mkfifo(ks, 0600), 0);
	cr_expect_eq(kallsyms_load(ks, &t, &strs, &n), -1);
	cr_expect_eq(n.status, SAFEFILE_REFUSED);
	cr_expect_str_eq(n.why, "is a FIFO, not a regular file");
	cr_expect_eq(perfmap_load(ks, &t, &strs, &n), -1);
	cr_expect_str_eq(n.why, "is a FIFO, not a regular file");
	cr_expect_eq(perfmap_load("/dev/zero", &t, &strs, &n), -1);
	cr_expect_str_eq(n.why, "is a character device, not a regular file");
	unlink(ks);
	put(ks, "ffffffff81000000 T _stext\nffffffff81000100 t f\n");
	cr_expect_eq(kallsyms_load(ks, &t, &strs, &n), 2);
	cr_expect_eq(n.status, SAFEFILE_OK);
	symtab_free(&t);
	strtab_free(&strs);
	unlink(ks);
	rmdir(dir);
}

/*
 * A DWARF file whose .gnu_debugaltlink (dwz's shared file) names a FIFO:
 * libdw would open it with a plain open() and wait for a writer, so
 * srcline_open refuses the DWARF and says which file; an alt file that is
 * a regular ELF file is used.
 */
Test(safefile, dwarf_altlink_that_is_a_fifo, .timeout = 60)
{
	char dir[64], src[128], bin[128], alt[128], sec[128], cmd[1024], path[4096];
	struct safefile_note n;
	struct srcline_h *h;
	FILE *fp;

	tmpdir(dir, sizeof dir);
	snprintf(src, sizeof src, "%s/t.c", dir);
	snprintf(bin, sizeof bin, "%s/t", dir);
	snprintf(alt, sizeof alt, "%s/alt.debug", dir);
	snprintf(sec, sizeof sec, "%s/altlink", dir);
	put(src, "int main(void) { return 0; }\n");
	snprintf(cmd, sizeof cmd, "cc -g -o %s %s 2>/dev/null", bin, src);
	if (system(cmd) != 0)
		cr_skip_test("no C compiler");
	/* the section: a relative name, NUL, a 20-byte build id nobody has */
	fp = fopen(sec, "wb");
	cr_assert_not_null(fp);
	fwrite("alt.debug", 1, sizeof "alt.debug", fp);
	fwrite("\xfe\xed\xfa\xce\xde\xad\xbe\xef\x01\x23\x45\x67\x89\xab\xcd\xef\xfe\xed\xfa\xce",
	    1, 20, fp);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "objcopy --add-section .gnu_debugaltlink=%s %s 2>/dev/null", sec,
	    bin);
	if (system(cmd) != 0)
		cr_skip_test("no objcopy");
	cr_assert_eq(mkfifo(alt, 0600), 0);
	h = srcline_open(bin, bin, &n, path, sizeof path);
	cr_expect_null(h);
	cr_expect_eq(n.status, SAFEFILE_REFUSED);
	cr_expect_str_eq(n.why, "is a FIFO, not a regular file");
	cr_expect_str_eq(path, alt);
	srcline_close(h);
	/* a regular ELF file there: taken as the alt file */
	unlink(alt);
	snprintf(cmd, sizeof cmd, "cp %s %s", bin, alt);
	cr_assert_eq(system(cmd), 0);
	h = srcline_open(bin, bin, &n, path, sizeof path);
	cr_expect_not_null(h);
	cr_expect_eq(n.status, SAFEFILE_OK);
	srcline_close(h);
	/* none there: libdw finds none either */
	unlink(alt);
	h = srcline_open(bin, bin, NULL, NULL, 0);
	cr_expect_not_null(h);
	srcline_close(h);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}
