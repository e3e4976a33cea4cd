/*
 * Criterion tests of `perfnav script`'s kept answers and its run on two
 * cores, on a recording built byte by byte: pid 42 maps /nonexistent/a.so
 * at 0x400000, samples at 0x400100, then maps /nonexistent/b.so over the
 * same range (one of its samples has the time of that MMAP2 and lies before
 * it, at the end of a chunk), samples again, then execs (a COMM with the
 * exec flag) and maps /nonexistent/c.so there.  An address kept from before a change of maps
 * must not answer after it: each sample names the DSO mapped at its time,
 * in one pass (PERFNAV_PARALLEL_MIN above the sample count) and on two cores
 * (PERFNAV_PARALLEL_MIN=0: the index cut in chunks of 16 entries, so each
 * change of maps lies in the other thread's chunk of the samples after it),
 * and both print the same bytes.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"

/* The attr: IP|TID|TIME|ID|CPU|PERIOD, sample_id_all, as tests/helpers.c's. */
#define ST	(1u << 0 | 1u << 1 | 1u << 2 | 1u << 6 | 1u << 7 | 1u << 8)
/* attr flags: disabled, inherit, mmap, comm, freq, sample_id_all, mmap2 */
#define FLAGS	(1ull << 0 | 1ull << 1 | 1ull << 8 | 1ull << 9 | 1ull << 10 | 1ull << 18 | 1ull << 23)
#define PID	42

/* sample_id_all trailer: TID, TIME, ID, CPU. */
static void
trailer(struct pdbuf *b, uint64_t time)
{
	pd_u32(b, PID);
	pd_u32(b, PID);
	pd_u64(b, time);
	pd_u64(b, 100);
	pd_u32(b, 0);
	pd_u32(b, 0);
}

static void
mmap2(struct pdbuf *b, const char *path, uint64_t time)
{
	size_t r = pd_rec_begin(b, 10 /* MMAP2 */, 2 /* USER */);

	pd_u32(b, PID);
	pd_u32(b, PID);
	pd_u64(b, 0x400000);
	pd_u64(b, 0x1000);
	pd_u64(b, 0);
	pd_u32(b, 8);
	pd_u32(b, 1);
	pd_u64(b, 1234);
	pd_u64(b, 0);
	pd_u32(b, 5);	/* PROT_READ | PROT_EXEC */
	pd_u32(b, 2);	/* MAP_PRIVATE */
	pd_str8(b, path);
	trailer(b, time);
	pd_rec_end(b, r);
}

static void
comm(struct pdbuf *b, const char *name, bool exec, uint64_t time)
{
	size_t r = pd_rec_begin(b, 3 /* COMM */, exec ? 0x2000 /* COMM_EXEC */ : 0);

	pd_u32(b, PID);
	pd_u32(b, PID);
	pd_str8(b, name);
	trailer(b, time);
	pd_rec_end(b, r);
}

static void
sample(struct pdbuf *b, uint64_t time)
{
	size_t r = pd_rec_begin(b, 9 /* SAMPLE */, 2);

	pd_u64(b, 0x400100);	/* IP */
	pd_u32(b, PID);		/* TID */
	pd_u32(b, PID);
	pd_u64(b, time);	/* TIME */
	pd_u64(b, 100);		/* ID */
	pd_u32(b, 0);		/* CPU */
	pd_u32(b, 0);
	pd_u64(b, 4000);	/* PERIOD */
	pd_rec_end(b, r);
}

/*
 * Times: samples every 10 ns from 1000.  Index entries: COMM, MMAP2 a.so,
 * samples 0..13 (the last at T_B: entry 15, the end of the first chunk),
 * MMAP2 b.so at T_B (entry 16, the second chunk), samples 14..40, the exec
 * and MMAP2 c.so (entries 44 and 45, the third chunk), samples 41..59.
 */
#define T_B	1130
#define T_EXEC	1405
#define T_C	1406
#define NSAMPLES 60

static char *
make_recording(void)
{
	const uint32_t attr_size = 128;
	size_t attrs_off, ids_off, data_off;
	struct pdbuf b;
	char *path;

	memset(&b, 0, sizeof b);
	pd_u64(&b, 0x32454c4946524550ULL);	/* "PERFILE2" */
	pd_u64(&b, 104);
	pd_u64(&b, attr_size + 16);
	pd_zero(&b, 104 - 24);
	ids_off = b.len;
	pd_u64(&b, 100);
	pd_u64(&b, 101);
	attrs_off = b.len;
	pd_attr(&b, attr_size, 1 /* SOFTWARE */, 0 /* cpu-clock */, 4000, ST, 0, FLAGS);
	pd_u64(&b, ids_off);
	pd_u64(&b, 16);
	pd_put64(&b, 24, attrs_off);
	pd_put64(&b, 32, attr_size + 16);
	data_off = b.len;
	comm(&b, "work", false, 900);
	mmap2(&b, "/nonexistent/a.so", 950);
	for (int i = 0; i < NSAMPLES; i++) {
		uint64_t t = 1000 + 10 * (uint64_t)i;

		sample(&b, t);
		if (t == T_B)
			mmap2(&b, "/nonexistent/b.so", T_B);	/* after a sample of its time */
		if (t < T_EXEC && t + 10 > T_EXEC) {
			comm(&b, "work2", true, T_EXEC);
			mmap2(&b, "/nonexistent/c.so", T_C);
		}
	}
	pd_put64(&b, 40, data_off);
	pd_put64(&b, 48, b.len - data_off);
	path = tmp_write("script", b.p, b.len);
	pd_free(&b);
	return path;
}

/* perfnav script -F tid,time,dso with PERFNAV_PARALLEL_MIN=min; stdout. */
static char *
run(const char *path, const char *min)
{
	char cmd[1024], *out = NULL;
	size_t n = 0, cap = 0, k;
	FILE *fp;

	snprintf(cmd, sizeof cmd, "PERFNAV_PARALLEL_MIN=%s %s/perfnav script -F tid,time,ip,dso "
	    "--kallsyms /dev/null %s 2>/dev/null", min, TEST_BUILDDIR, path);
	fp = popen(cmd, "r");
	cr_assert_not_null(fp);
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			out = realloc(out, cap + 1);
			cr_assert_not_null(out);
		}
		k = fread(out + n, 1, cap - n, fp);
		if (k == 0)
			break;
		n += k;
	}
	out[n] = '\0';
	cr_assert_eq(pclose(fp), 0, "perfnav script failed:\n%s", out);
	return out;
}

/* Each sample line names the DSO mapped at its time. */
static void
check_dsos(const char *out, const char *how)
{
	const char *p = out;
	int lines = 0;

	for (int i = 0; i < NSAMPLES; i++) {
		uint64_t t = 1000 + 10 * (uint64_t)i;
		const char *want = t < T_B ? "a.so" : t < T_C ? "b.so" : "c.so";
		const char *nl = strchr(p, '\n');
		char line[256];

		cr_assert_not_null(nl, "%s: %d lines:\n%s", how, lines, out);
		snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
		cr_expect_not_null(strstr(line, want), "%s: sample at %llu ns: '%s', not %s", how,
		    (unsigned long long)t, line, want);
		lines++;
		p = nl + 1;
	}
	cr_expect_eq(*p, '\0', "%s: more lines than samples:\n%s", how, out);
}

Test(script, kept_addresses_follow_changes_of_maps_on_one_and_two_cores)
{
	char *path = make_recording();
	char *one = run(path, "99999999999"), *two = run(path, "0");

	check_dsos(one, "one pass");
	check_dsos(two, "two cores");
	cr_expect_str_eq(two, one, "two cores differ from one pass");
	free(one);
	free(two);
	unlink(path);
	free(path);
}
