/*
 * test_bundle.c: bundles as hostile input (symbolize/bundle.h).  Manifests
 * damaged in each way; tars byte-built here (ustar headers) with absolute
 * paths, "..", links out of the bundle, hard links, FIFOs, sizes over the
 * cap, truncated data, a path through a link, an entry twice: each refused
 * with the tar's name, the entry's offset and what is wrong; a tree with a
 * link out of it or a FIFO refused; a good tar unpacked and packed again.
 * And trimming: the trimmed copy of a fixture binary has the same symbols
 * and build id and its code is a hole.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/bundle.h"
#include "symbolize/symtab.h"
#include "tests/helpers.h"

TESTS_ONE_AT_A_TIME

/* ---- manifests ---- */

static void
manifest_refused(const char *text, const char *want)
{
	struct perf_err err;

	memset(&err, 0, sizeof err);
	cr_assert_eq(bundle_manifest_check("B/perfnav-bundle", (const uint8_t *)text, strlen(text),
	    &err), -1, "accepted: %s", text);
	cr_assert(strstr(err.msg, "B/perfnav-bundle: offset ") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, want) != NULL, "%s (wanted %s)", err.msg, want);
}

Test(manifest, good_ones_pass)
{
	static const char a[] = "perfnav-bundle 1\ndata perf.data\n";
	static const char b[] = "perfnav-bundle 1\ndata perf.data\nkallsyms kallsyms\ncreated-by perfnav 0.1\n";
	struct perf_err err;

	cr_assert_eq(bundle_manifest_check("m", (const uint8_t *)a, strlen(a), &err), 0, "%s", err.msg);
	cr_assert_eq(bundle_manifest_check("m", (const uint8_t *)b, strlen(b), &err), 0, "%s", err.msg);
}

Test(manifest, each_damage_is_named_with_its_offset)
{
	char big[BUNDLE_MANIFEST_MAX + 20];

	manifest_refused("", "offset 0: truncated");
	manifest_refused("perfnav-bundle 1\ndata perf.data", "offset 31: truncated");
	manifest_refused("perf.data\n", "offset 0: not a perfnav bundle manifest");
	manifest_refused("perfnav-bundle 2\ndata perf.data\n", "offset 15: version \"2\"");
	manifest_refused("perfnav-bundle 1\ndata ../../etc/passwd\n", "offset 17: a line this version does not write");
	manifest_refused("perfnav-bundle 1\ndata /etc/passwd\n", "offset 17:");
	manifest_refused("perfnav-bundle 1\ndata perf.data\nexec rm\n", "offset 32: a line this version");
	manifest_refused("perfnav-bundle 1\ndata perf.data\ndata perf.data\n", "offset 32: \"data\" given twice");
	manifest_refused("perfnav-bundle 1\nkallsyms kallsyms\n", "no \"data\" line");
	manifest_refused("perfnav-bundle 1\ndata perf.data\x1b[2J\n", "offset 31: byte 0x1b");
	memset(big, 'a', sizeof big);
	big[sizeof big - 1] = '\0';
	manifest_refused(big, "longer than the 4096 bytes");
}

/* ---- tars, byte-built ---- */

struct tarbuf {
	uint8_t	*p;
	size_t	 n;
};

/* A ustar header (type '0' file, '5' dir, '2' link, '1' hard link, '6' FIFO)
 * and size bytes of data (a size over 8 GiB in base 256, data not given). */
static void
tar_add(struct tarbuf *t, const char *name, char type, uint64_t size, const char *link,
    const char *data)
{
	uint8_t h[512];
	size_t body = data ? (size + 511) / 512 * 512 : 0;

	tar_header(h, name, type, 0644, size, link);
	t->p = xrealloc(t->p, t->n + 512 + body);
	memcpy(t->p + t->n, h, 512);
	t->n += 512;
	if (body) {
		memset(t->p + t->n, 0, body);
		memcpy(t->p + t->n, data, size);
		t->n += body;
	}
}

static void
tar_end(struct tarbuf *t)
{
	t->p = xrealloc(t->p, t->n + 1024);
	memset(t->p + t->n, 0, 1024);
	t->n += 1024;
}

static char *
tmpdir(void)
{
	char *d = xstrdup("/tmp/pn-test-bundle.XXXXXX");

	cr_assert(mkdtemp(d) != NULL);
	return d;
}

/* Unpack t (ended) into a fresh directory: 0 or -1 with err; the directory removed. */
static int
unpack(struct tarbuf *t, struct perf_err *err)
{
	char *d = tmpdir();
	int rc;

	memset(err, 0, sizeof *err);
	rc = bundle_unpack("evil.tar", NULL, t->p, t->n, d, err);
	bundle_rmtree(d);
	free(d);
	return rc;
}

static void
refused(struct tarbuf *t, const char *offset, const char *want)
{
	struct perf_err err;

	tar_end(t);
	cr_assert_eq(unpack(t, &err), -1, "accepted (wanted %s)", want);
	cr_assert(strstr(err.msg, "evil.tar: offset ") != NULL, "%s", err.msg);
	if (offset != NULL)
		cr_assert(strstr(err.msg, offset) != NULL, "%s (wanted %s)", err.msg, offset);
	cr_assert(strstr(err.msg, want) != NULL, "%s (wanted %s)", err.msg, want);
	free(t->p);
}

Test(tar, a_good_one_unpacks_with_its_links_and_packs_again)
{
	struct tarbuf t = { NULL, 0 };
	struct perf_err err;
	char *d = tmpdir(), p[PATH_MAX], target[64], *d2 = tmpdir();
	struct stat sb;
	ssize_t n;

	tar_add(&t, "./", '5', 0, NULL, NULL);
	tar_add(&t, "a/b/", '5', 0, NULL, NULL);
	tar_add(&t, "a/b/elf", '0', 5, NULL, "hello");
	tar_add(&t, ".build-id/ab/cdef", '2', 0, "../../a/b", NULL);
	tar_end(&t);
	cr_assert_eq(bundle_unpack("good.tar", NULL, t.p, t.n, d, &err), 0, "%s", err.msg);
	snprintf(p, sizeof p, "%s/.build-id/ab/cdef/elf", d);
	cr_assert_eq(stat(p, &sb), 0);
	cr_assert_eq(sb.st_size, 5);
	snprintf(p, sizeof p, "%s/.build-id/ab/cdef", d);
	n = readlink(p, target, sizeof target - 1);
	cr_assert_eq(n, 9);
	/* and back: packed, then unpacked into another directory */
	snprintf(p, sizeof p, "%s.tar.gz", d2);
	cr_assert_eq(bundle_pack(d, p, &err), 0, "%s", err.msg);
	bundle_rmtree(d2);
	cr_assert_eq(mkdir(d2, 0700), 0);
	cr_assert_eq(bundle_unpack(p, p, NULL, 0, d2, &err), 0, "%s", err.msg);
	unlink(p);
	snprintf(p, sizeof p, "%s/a/b/elf", d2);
	cr_assert_eq(stat(p, &sb), 0);
	cr_assert_eq(sb.st_size, 5);
	bundle_rmtree(d);
	bundle_rmtree(d2);
	free(d);
	free(d2);
	free(t.p);
}

Test(tar, absolute_paths_and_dotdot_are_refused)
{
	struct tarbuf t = { NULL, 0 };

	tar_add(&t, "perf.data", '0', 3, NULL, "abc");
	tar_add(&t, "/etc/evil", '0', 3, NULL, "abc");
	refused(&t, "offset 0x400:", "entry \"/etc/evil\": an absolute path");
	memset(&t, 0, sizeof t);
	tar_add(&t, "a/../../evil", '0', 3, NULL, "abc");
	refused(&t, "offset 0x0:", "a path with \"..\"");
}

Test(tar, links_out_and_hard_links_are_refused)
{
	struct tarbuf t = { NULL, 0 };

	tar_add(&t, "a/l", '2', 0, "../../etc/passwd", NULL);
	refused(&t, "offset 0x0:", "entry \"a/l\": a symbolic link out of the bundle");
	memset(&t, 0, sizeof t);
	tar_add(&t, "l", '2', 0, "/etc/passwd", NULL);
	refused(&t, NULL, "a symbolic link out of the bundle");
	memset(&t, 0, sizeof t);
	tar_add(&t, "x", '0', 1, NULL, "x");
	tar_add(&t, "h", '1', 0, "x", NULL);
	refused(&t, "offset 0x400:", "entry \"h\": a hard link");
}

Test(tar, a_path_through_a_link_is_refused)
{
	struct tarbuf t = { NULL, 0 };

	tar_add(&t, "d/", '5', 0, NULL, NULL);
	tar_add(&t, "l", '2', 0, "d", NULL);
	tar_add(&t, "l/x", '0', 1, NULL, "x");
	refused(&t, "offset 0x400:", "entry \"l/x\": a path through a symbolic link");
}

Test(tar, fifos_huge_sizes_twice_and_truncation_are_refused)
{
	struct tarbuf t = { NULL, 0 };

	tar_add(&t, "f", '6', 0, NULL, NULL);
	refused(&t, "offset 0x0:", "not a regular file, directory or symbolic link");
	memset(&t, 0, sizeof t);
	tar_add(&t, "perf.data", '0', UINT64_C(1) << 40, NULL, NULL);
	refused(&t, "offset 0x0:", "a size over the 64 GiB");
	memset(&t, 0, sizeof t);
	tar_add(&t, "x", '0', 1, NULL, "x");
	tar_add(&t, "x", '0', 1, NULL, "y");
	refused(&t, "offset 0x400:", "in the tar twice");
	/* 2000 bytes announced, 512 there */
	memset(&t, 0, sizeof t);
	tar_add(&t, "perf.data", '0', 512, NULL, (const char[512]){ "0123456789" });	/* 512 bytes */
	t.p[124 + 8] = '3';	/* size 01000 -> 03000 octal */
	{
		unsigned sum = 0;

		memset(t.p + 148, ' ', 8);
		for (int i = 0; i < 512; i++)
			sum += t.p[i];
		snprintf((char *)t.p + 148, 8, "%06o", sum);
	}
	{
		struct perf_err err;

		cr_assert_eq(unpack(&t, &err), -1);
		cr_assert(strstr(err.msg, "evil.tar: offset 0x0: entry \"perf.data\": truncated") != NULL,
		    "%s", err.msg);
	}
	free(t.p);
}

Test(tar, not_a_tar_is_refused)
{
	struct tarbuf t = { NULL, 0 };
	struct perf_err err;

	t.p = xcalloc(1, 700);
	memcpy(t.p, "PERFILE2", 8);
	t.n = 700;
	cr_assert_eq(unpack(&t, &err), -1);
	cr_assert(strstr(err.msg, "evil.tar: offset 0x") != NULL, "%s", err.msg);
	free(t.p);
}

/* ---- trees ---- */

Test(tree, a_link_out_or_a_fifo_is_refused)
{
	char *d = tmpdir(), p[PATH_MAX];
	struct perf_err err;

	snprintf(p, sizeof p, "%s/ok", d);
	cr_assert_eq(symlink(".", p), 0);
	snprintf(p, sizeof p, "%s/dangling", d);
	cr_assert_eq(symlink("not/there/yet", p), 0);
	cr_assert_eq(bundle_check_tree(d, &err), 0, "%s", err.msg);
	snprintf(p, sizeof p, "%s/dangling-out", d);
	cr_assert_eq(symlink("../../../nowhere/at/all", p), 0);
	cr_assert_eq(bundle_check_tree(d, &err), -1, "a dangling link out accepted");
	cr_assert(strstr(err.msg, "/dangling-out: a symbolic link out of the bundle") != NULL, "%s",
	    err.msg);
	unlink(p);
	snprintf(p, sizeof p, "%s/kallsyms", d);
	cr_assert_eq(symlink("/proc/kallsyms", p), 0);
	cr_assert_eq(bundle_check_tree(d, &err), -1);
	cr_assert(strstr(err.msg, "/kallsyms: a symbolic link out of the bundle -> /proc/kallsyms") != NULL,
	    "%s", err.msg);
	unlink(p);
	snprintf(p, sizeof p, "%s/fifo", d);
	cr_assert_eq(mkfifo(p, 0600), 0);
	cr_assert_eq(bundle_check_tree(d, &err), -1);
	cr_assert(strstr(err.msg, "/fifo: a FIFO, not a regular file") != NULL, "%s", err.msg);
	bundle_rmtree(d);
	free(d);
}

Test(tree, open_tells_bundles_from_recordings)
{
	struct bundle_in b;
	struct perf_err err;
	char *d = tmpdir(), p[PATH_MAX];
	FILE *fp;

	memset(&b, 0, sizeof b);
	cr_assert_eq(bundle_open(test_data("fp.data"), &b, &err), 0);
	cr_assert_eq(bundle_open(d, &b, &err), 0, "a directory with no manifest is no bundle");
	snprintf(p, sizeof p, "%s/perfnav-bundle", d);
	fp = fopen(p, "w");
	fputs("perfnav-bundle 1\ndata perf.data\n", fp);
	fclose(fp);
	cr_assert_eq(bundle_open(d, &b, &err), -1, "no perf.data");
	cr_assert(strstr(err.msg, "/perf.data: missing") != NULL, "%s", err.msg);
	snprintf(p, sizeof p, "%s/perf.data", d);
	cr_assert_eq(symlink(test_data("fp.data"), p), 0);
	cr_assert_eq(bundle_open(d, &b, &err), -1, "perf.data a link out");
	unlink(p);
	{
		size_t n;
		char *bytes = slurp(test_data("fp.data"), &n);

		cr_assert(bytes != NULL);
		fp = fopen(p, "w");
		cr_assert_eq(fwrite(bytes, 1, n, fp), n);
		fclose(fp);
		free(bytes);
	}
	cr_assert_eq(bundle_open(d, &b, &err), 1, "%s", err.msg);
	cr_assert_str_eq(b.kallsyms, "/dev/null");
	cr_assert(strstr(b.data, "/perf.data") != NULL);
	bundle_in_free(&b);
	bundle_rmtree(d);
	free(d);
}

/* ---- trimming ---- */

Test(elftrim, the_trimmed_binary_keeps_symbols_and_build_id_and_drops_code)
{
	const char *bin = test_data("buildid/.build-id/d4/aec36f57664181c7762a6851ef1dd35510a091/elf");
	char *d = tmpdir(), out[PATH_MAX];
	struct symtab a, b;
	struct strtab sa, sb_;
	uint8_t ida[20], idb[20];
	uint64_t kept = 0;
	struct perf_err err;
	struct stat st, st2;
	long na, nb;
	char *text;
	size_t len;

	snprintf(out, sizeof out, "%s/elf", d);
	cr_assert_eq(elftrim_copy(bin, out, false, &kept, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(bin, &st), 0);
	cr_assert_eq(stat(out, &st2), 0);
	cr_assert_eq(st.st_size, st2.st_size, "offsets kept: the same size");
	cr_assert(kept < (uint64_t)st.st_size, "kept %llu of %lld", (unsigned long long)kept,
	    (long long)st.st_size);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&sa, 0, sizeof sa);
	memset(&sb_, 0, sizeof sb_);
	na = elfsym_load(bin, bin, true, &a, &sa);
	nb = elfsym_load(out, out, true, &b, &sb_);
	cr_assert(na > 0);
	cr_assert_eq(na, nb);
	for (size_t i = 0; i < a.n; i++) {
		cr_assert_eq(a.v[i].start, b.v[i].start);
		cr_assert_str_eq(strtab_get(&sa, a.v[i].name), strtab_get(&sb_, b.v[i].name));
	}
	cr_assert_eq(elfsym_build_id(bin, ida), 20);
	cr_assert_eq(elfsym_build_id(out, idb), 20);
	cr_assert_eq(memcmp(ida, idb, 20), 0);
	/* the code is gone: objdump finds only zeros in .text */
	{
		char cmd[PATH_MAX + 64];

		snprintf(cmd, sizeof cmd, "objdump -s -j .text '%s' | grep -c ' 00000000 00000000'",
		    out);
		int status;

		text = cmd_output(cmd, &len, &status);
		cr_assert(text != NULL && atoi(text) > 4, "%s", text ? text : "(no objdump)");
		free(text);
	}
	symtab_free(&a);
	symtab_free(&b);
	strtab_free(&sa);
	strtab_free(&sb_);
	bundle_rmtree(d);
	free(d);
}
