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
#include <sys/stat.h>
#include <unistd.h>

#include "tests/helpers.h"

/* The attr: IP|TID|TIME|ID|CPU|PERIOD, sample_id_all, as tests/helpers.c's. */
#define ST	(1u << 0 | 1u << 1 | 1u << 2 | 1u << 6 | 1u << 7 | 1u << 8)
/* attr flags: disabled, inherit, mmap, comm, freq; sample_id_all, mmap2 */
#define FLAGS_RECORD	(1ull << 0 | 1ull << 1 | 1ull << 8 | 1ull << 9 | 1ull << 10)
#define FLAGS		(FLAGS_RECORD | 1ull << 18 | 1ull << 23)
#define PID	42

/* sample_id_all trailer: TID, TIME, ID, CPU. */
static void
trailer(struct pdbuf *b, uint32_t pid, uint64_t time)
{
	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_u64(b, time);
	pd_u64(b, 100);
	pd_u32(b, 0);
	pd_u32(b, 0);
}

static void
mmap2(struct pdbuf *b, uint32_t pid, uint64_t start, const char *path, uint64_t time)
{
	size_t r = pd_rec_begin(b, 10 /* MMAP2 */, 2 /* USER */);

	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_u64(b, start);
	pd_u64(b, 0x1000);
	pd_u64(b, 0);
	pd_u32(b, 8);
	pd_u32(b, 1);
	pd_u64(b, 1234);
	pd_u64(b, 0);
	pd_u32(b, 5);	/* PROT_READ | PROT_EXEC */
	pd_u32(b, 2);	/* MAP_PRIVATE */
	pd_str8(b, path);
	trailer(b, pid, time);
	pd_rec_end(b, r);
}

static void
comm(struct pdbuf *b, uint32_t pid, const char *name, bool exec, uint64_t time)
{
	size_t r = pd_rec_begin(b, 3 /* COMM */, exec ? 0x2000 /* COMM_EXEC */ : 0);

	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_str8(b, name);
	trailer(b, pid, time);
	pd_rec_end(b, r);
}

static void
sample(struct pdbuf *b, uint32_t pid, uint64_t ip, uint64_t time)
{
	size_t r = pd_rec_begin(b, 9 /* SAMPLE */, 2);

	pd_u64(b, ip);		/* IP */
	pd_u32(b, pid);		/* TID */
	pd_u32(b, pid);
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

/* The header and the attr of a recording into b; returns where its data
 * section starts (recording_end patches it in). */
static size_t
recording_begin(struct pdbuf *b)
{
	return synth_head_with(b, false, ST, FLAGS);
}

/* The recording written to a temporary file; its path. */
static char *
recording_end(struct pdbuf *b, size_t data_off)
{
	char *path;

	pd_put64(b, 40, data_off);
	pd_put64(b, 48, b->len - data_off);
	path = tmp_write("script", b->p, b->len);
	pd_free(b);
	return path;
}

static char *
make_recording(void)
{
	struct pdbuf b;
	size_t data_off = recording_begin(&b);

	comm(&b, PID, "work", false, 900);
	mmap2(&b, PID, 0x400000, "/nonexistent/a.so", 950);
	for (int i = 0; i < NSAMPLES; i++) {
		uint64_t t = 1000 + 10 * (uint64_t)i;

		sample(&b, PID, 0x400100, t);
		if (t == T_B)	/* after a sample of its time */
			mmap2(&b, PID, 0x400000, "/nonexistent/b.so", T_B);
		if (t < T_EXEC && t + 10 > T_EXEC) {
			comm(&b, PID, "work2", true, T_EXEC);
			mmap2(&b, PID, 0x400000, "/nonexistent/c.so", T_C);
		}
	}
	return recording_end(&b, data_off);
}

/* perfnav script -F tid,time,ip,dso ARGS with PERFNAV_PARALLEL_MIN=min;
 * its stdout (with stderr after it, for how "2>&1"). */
static char *
run(const char *path, const char *min, const char *args, const char *how)
{
	char cmd[1024], *out;
	int status;

	snprintf(cmd, sizeof cmd, "PERFNAV_PARALLEL_MIN=%s %s/perfnav script -F tid,time,ip,dso "
	    "--kallsyms /dev/null %s %s %s", min, TEST_BUILDDIR, args, path, how);
	out = cmd_output(cmd, NULL, &status);
	cr_assert_not_null(out);
	cr_assert_eq(status, 0, "perfnav script failed:\n%s", out);
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
	char *one = run(path, "99999999999", "", "2>/dev/null");
	char *two = run(path, "0", "", "2>/dev/null");

	check_dsos(one, "one pass");
	check_dsos(two, "two cores");
	cr_expect_str_eq(two, one, "two cores differ from one pass");
	free(one);
	free(two);
	unlink(path);
	free(path);
}

/*
 * The files refused on two cores are said in the order one pass meets
 * them: pids 43 and 44 run JIT code whose perf-PID.map files are FIFOs;
 * pid 43's first sample lies in the second chunk (the second thread's),
 * pid 44's in the third (the first thread's, which meets it before the
 * second thread's chunk is written).
 */
Test(script, refusals_in_the_order_one_pass_meets_them)
{
	char dir[] = "/tmp/perfnav-test-script-map-XXXXXX", map[2][128], args[256];
	struct pdbuf b;
	size_t data_off = recording_begin(&b);
	char *path, *one, *two;

	cr_assert_not_null(mkdtemp(dir));
	for (int m = 0; m < 2; m++) {
		snprintf(map[m], sizeof map[m], "%s/perf-%d.map", dir, 43 + m);
		cr_assert_eq(mkfifo(map[m], 0600), 0);
	}
	for (uint32_t pid = 42; pid <= 44; pid++) {
		comm(&b, pid, "jit", false, 900);
		mmap2(&b, pid, 0x7f0000000000ull, "//anon", 950);
	}
	for (int i = 0; i < 40; i++) {	/* 6 entries, then samples 0..9 (pid 42) */
		uint32_t pid = i < 10 ? 42 : i < 26 ? 43 : 44;

		sample(&b, pid, 0x7f0000000010ull, 1000 + 10 * (uint64_t)i);
	}
	path = recording_end(&b, data_off);
	snprintf(args, sizeof args, "--perfmap-dir %s", dir);
	one = run(path, "99999999999", args, "2>&1");
	two = run(path, "0", args, "2>&1");
	cr_assert_not_null(strstr(one, "perf-43.map: refused"), "%s", one);
	cr_assert_not_null(strstr(one, "perf-44.map: refused"), "%s", one);
	cr_expect(strstr(one, "perf-43.map") < strstr(one, "perf-44.map"), "%s", one);
	cr_expect_str_eq(two, one, "two cores differ from one pass");
	free(one);
	free(two);
	for (int m = 0; m < 2; m++)
		unlink(map[m]);
	rmdir(dir);
	unlink(path);
	free(path);
}

/* ---- deferred user callchains ---- */

#define ST_CHAIN	(ST | 1u << 5)
#define CTX_KERNEL	((uint64_t)-128)
#define CTX_USER	((uint64_t)-512)
#define CTX_USER_DEFERRED ((uint64_t)-640)

/* A kernel sample of pid 42 whose user callchain the kernel deferred:
 * two kernel frames, then PERF_CONTEXT_USER_DEFERRED and cookie. */
static void
deferred_sample(struct pdbuf *b, uint64_t cookie, uint64_t time)
{
	size_t r = pd_rec_begin(b, 9 /* SAMPLE */, 1 /* KERNEL */);

	pd_u64(b, 0xffffffff81000010ull);	/* IP */
	pd_u32(b, PID);				/* TID */
	pd_u32(b, PID);
	pd_u64(b, time);			/* TIME */
	pd_u64(b, 100);				/* ID */
	pd_u32(b, 0);				/* CPU */
	pd_u32(b, 0);
	pd_u64(b, 4000);			/* PERIOD */
	pd_u64(b, 5);				/* CALLCHAIN */
	pd_u64(b, CTX_KERNEL);
	pd_u64(b, 0xffffffff81000010ull);
	pd_u64(b, 0xffffffff81000110ull);
	pd_u64(b, CTX_USER_DEFERRED);
	pd_u64(b, cookie);
	pd_rec_end(b, r);
}

/* The deferred user callchain of pid 42 with cookie, trailer and all. */
static void
deferred_chain(struct pdbuf *b, uint64_t cookie, uint64_t time)
{
	size_t r = pd_rec_begin(b, 22 /* CALLCHAIN_DEFERRED */, 2 /* USER */);

	pd_u64(b, cookie);
	pd_u64(b, 3);
	pd_u64(b, CTX_USER);
	pd_u64(b, 0x400110);
	pd_u64(b, 0x400310);
	trailer(b, PID, time);
	pd_rec_end(b, r);
}

/* Four samples: the first's user chain comes (cookie 5), the second's
 * cookie (9) is not the one the thread's next deferred record carries
 * (perf keeps its kernel frames only), the third's never comes, the
 * fourth's comes after another of its own time. */
static char *
deferred_recording(bool swap)
{
	struct pdbuf b;
	size_t data_off = synth_head_with(&b, swap, ST_CHAIN, FLAGS);

	comm(&b, PID, "work", false, 900);
	mmap2(&b, PID, 0x400000, "//anon", 950);
	deferred_sample(&b, 5, 1000);
	deferred_sample(&b, 9, 1010);
	deferred_chain(&b, 5, 1020);
	deferred_sample(&b, 6, 1030);
	/* one of the fourth sample's time before it: not its own */
	deferred_chain(&b, 11, 1040);
	deferred_sample(&b, 12, 1040);
	deferred_chain(&b, 12, 1050);
	return recording_end(&b, data_off);
}

/* The text of sample i (0 first) of the script's output: its line (tid
 * 42, no ip with -g) and its callchain, up to the next sample's line. */
static char *
block(const char *out, int i)
{
	const char *p = strstr(out, " 42 \n"), *e;

	for (; i > 0 && p != NULL; i--)
		p = strstr(p + 1, " 42 \n");
	cr_assert_not_null(p, "no sample %d in:\n%s", i, out);
	e = strstr(p + 1, " 42 \n");
	return strndup(p, e != NULL ? (size_t)(e - p) : strlen(p));
}

static bool
write_file(const char *path, const char *text, size_t n)
{
	FILE *fp = fopen(path, "w");
	bool ok = fp != NULL && fwrite(text, 1, n, fp) == n;

	return fp != NULL && fclose(fp) == 0 && ok;
}

Test(script, deferred_user_callchain_after_the_kernel_frames)
{
	char dir[] = "/tmp/perfnav-test-defer-XXXXXX", map[128], ksyms[128], cmd[1024];
	static const char maptext[] = "400100 100 user_leaf\n400300 100 user_main\n";
	static const char ktext[] = "ffffffff81000000 T kfunc_a\n";

	cr_assert_not_null(mkdtemp(dir));
	snprintf(map, sizeof map, "%s/perf-%d.map", dir, PID);
	snprintf(ksyms, sizeof ksyms, "%s/kallsyms", dir);
	cr_assert(write_file(map, maptext, strlen(maptext)));
	cr_assert(write_file(ksyms, ktext, strlen(ktext)));
	for (int swap = 0; swap < 2; swap++) {
		char *path = deferred_recording(swap), *out, *b0, *b1, *b2, *b3, *a, *k, *u;
		int status;

		snprintf(cmd, sizeof cmd, "%s/perfnav script -g -F tid,ip,sym --kallsyms %s "
		    "--perfmap-dir %s %s 2>&1", TEST_BUILDDIR, ksyms, dir, path);
		out = cmd_output(cmd, NULL, &status);
		cr_assert_eq(status, 0, "%s", out);
		b0 = block(out, 0);
		b1 = block(out, 1);
		b2 = block(out, 2);
		b3 = block(out, 3);
		/* stitched: the user frames follow the kernel frames (kernel
		 * symbols stay unresolved: the recording maps no kernel) */
		a = strstr(b0, "ffffffff81000010");
		k = strstr(b0, "ffffffff81000110");
		u = strstr(b0, "400110 user_leaf");
		cr_expect(a != NULL && k > a && u > k, "swap %d:\n%s", swap, out);
		cr_expect(strstr(b0, "user_main") > u, "swap %d:\n%s", swap, out);
		/* another cookie, or none coming: the kernel frames only */
		cr_expect_not_null(strstr(b1, "ffffffff81000110"), "%s", out);
		cr_expect_null(strstr(b1, "user_"), "%s", out);
		cr_expect_not_null(strstr(b2, "ffffffff81000110"), "%s", out);
		cr_expect_null(strstr(b2, "user_"), "%s", out);
		cr_expect_not_null(strstr(b3, "400310 user_main"), "%s", out);
		free(b0);
		free(b3);
		free(b1);
		free(b2);
		free(out);
		/* top: the user functions of the stitched samples get their period
		 * as callers (children), two samples of four, and no self period */
		snprintf(cmd, sizeof cmd, "%s/perfnav top --children --sort sym --tsv --kallsyms %s "
		    "--perfmap-dir %s %s 2>&1", TEST_BUILDDIR, ksyms, dir, path);
		out = cmd_output(cmd, NULL, &status);
		cr_assert_eq(status, 0, "%s", out);
		cr_expect_not_null(strstr(out, "\t50.00\t0.00\t0\t[.] user_main\n"), "%s", out);
		cr_expect_not_null(strstr(out, "\t50.00\t0.00\t0\t[.] user_leaf\n"), "%s", out);
		free(out);
		unlink(path);
		free(path);
	}
	unlink(map);
	unlink(ksyms);
	rmdir(dir);
}
