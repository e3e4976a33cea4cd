/*
 * Criterion tests of hostile recordings: the memory budget (decompression
 * bombs, huge indexes), damaged records counted and reported, and every
 * subcommand on them (bounded, a diagnostic, --strict exits 3).  The
 * inputs are built here, byte by byte, in pipe mode.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "core/core.h"
#include "tests/helpers.h"

TESTS_ONE_AT_A_TIME

#define ST_IP		(1u << 0)
#define ST_TID		(1u << 1)
#define ST_TIME		(1u << 2)
#define ST_CALLCHAIN	(1u << 5)
#define ST_PERIOD	(1u << 8)
#define ST_HOSTILE	(ST_IP | ST_TID | ST_TIME | ST_CALLCHAIN | ST_PERIOD)
#define ATTR_SAMPLE_ID_ALL	(1ull << 18)

/* A pipe-mode stream: header, one HEADER_ATTR (cpu-clock, id 100), COMM. */
static void
pipe_begin(struct pdbuf *b)
{
	size_t r;

	memset(b, 0, sizeof *b);
	pd_u64(b, 0x32454c4946524550ULL);
	pd_u64(b, 16);
	r = pd_rec_begin(b, 64 /* HEADER_ATTR */, 0);
	pd_attr(b, 128, 1 /* SOFTWARE */, 0, 4000, ST_HOSTILE, 0, 0);
	pd_u64(b, 100);
	pd_rec_end(b, r);
	r = pd_rec_begin(b, 3 /* COMM */, 0);
	pd_u32(b, 7);
	pd_u32(b, 7);
	pd_str8(b, "victim");
	pd_rec_end(b, r);
}

/* A SAMPLE whose callchain claims nr entries and holds 'have' of them. */
static size_t
pipe_sample(struct pdbuf *b, uint64_t time, uint64_t nr, int have)
{
	size_t r = pd_rec_begin(b, 9 /* SAMPLE */, 2 /* USER */);

	pd_u64(b, 0x401000);
	pd_u32(b, 7);
	pd_u32(b, 7);
	pd_u64(b, time);
	pd_u64(b, 4000);	/* PERIOD comes before CALLCHAIN */
	pd_u64(b, nr);
	for (int i = 0; i < have; i++)
		pd_u64(b, 0x401000 + 16 * (uint64_t)i);
	pd_rec_end(b, r);
	return r;
}

/*
 * 'nrec' COMPRESSED records, each one zstd frame inflating to 'each'
 * bytes of 8-byte FINISHED_ROUND records.  Returns the offset of the first.
 */
static size_t
pipe_zbomb(struct pdbuf *b, int nrec, size_t each)
{
	uint8_t *plain = malloc(each), *z;
	size_t zcap = ZSTD_compressBound(each), zn, first = b->len;

	cr_assert_not_null(plain);
	for (size_t i = 0; i + 8 <= each; i += 8) {
		plain[i] = 68;	/* FINISHED_ROUND, little-endian */
		memset(plain + i + 1, 0, 5);
		plain[i + 6] = 8;
		plain[i + 7] = 0;
	}
	z = malloc(zcap);
	cr_assert_not_null(z);
	zn = ZSTD_compress(z, zcap, plain, each, 19);
	cr_assert(!ZSTD_isError(zn));
	cr_assert_lt(zn + 8, 65536, "frame of %zu bytes does not fit a record", zn);
	for (int k = 0; k < nrec; k++) {
		size_t r = pd_rec_begin(b, 81 /* COMPRESSED */, 0);

		pd_bytes(b, z, zn);	/* perf does not pad it either */
		pd_rec_end(b, r);
	}
	free(plain);
	free(z);
	return first;
}

static struct session *
open_with(const struct pdbuf *b, uint64_t budget, bool index, char **pathp)
{
	char *path = tmp_write("hostile", b->p, b->len);
	struct session_opts so = { .no_index = !index, .keep_going = true, .mem_budget = budget };
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open(path, &so, &err);
	cr_assert_not_null(s, "session_open: %s", err.msg);
	if (pathp != NULL) {
		*pathp = path;
	} else {
		unlink(path);
		free(path);
	}
	return s;
}

/* The first diagnostic whose message holds 'text', or NULL. */
static const struct diag *
find_diag(const struct session *s, const char *text)
{
	const struct diag_list *dg = session_diags(s);

	for (size_t i = 0; i < dg->n; i++)
		if (strstr(dg->v[i].msg, text) != NULL)
			return &dg->v[i];
	return NULL;
}

static int
count_rec(void *arg, const struct rec *r, int depth)
{
	(void)r;
	(void)depth;
	(*(uint64_t *)arg)++;
	return 0;
}

/* A walk of a session cut by the budget (dump) sees what loading saw. */
static void
assert_walk_matches(const struct session *s)
{
	const struct type_counts *cnt = session_counts(s);
	uint64_t n = 0;

	session_walk(s, count_rec, &n);
	cr_assert_eq(n, cnt->total, "walk saw %llu records, loading %llu",
	    (unsigned long long)n, (unsigned long long)cnt->total);
}

Test(budget, default_is_proportionate)
{
	long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
	uint64_t half = (uint64_t)pages * (uint64_t)pg / 4;	/* a quarter, in fact */

	cr_assert_eq(session_default_budget(75000), UINT64_C(64) << 20, "floor");
	if (half > (UINT64_C(640) << 20))
		cr_assert_eq(session_default_budget(UINT64_C(10) << 20), UINT64_C(640) << 20,
		    "64 times the file");
	cr_assert_eq(session_default_budget(UINT64_C(1) << 40), half, "half the machine");
	cr_assert_eq(session_default_budget(UINT64_MAX), half, "no overflow");
	cr_assert_eq(session_default_budget(0), half, "unknown size");
}

Test(budget, bomb_stops_with_what_came_before, .timeout = 30)
{
	struct pdbuf b;
	struct session *s;
	const struct diag *d;
	uint64_t budget = UINT64_C(24) << 20, used;
	size_t zoff;

	pipe_begin(&b);
	pipe_sample(&b, 1000, 2, 2);
	zoff = pipe_zbomb(&b, 3, (size_t)64 << 20);
	pipe_sample(&b, 2000, 2, 2);
	s = open_with(&b, budget, true, NULL);
	cr_assert(session_info(s).over_budget);
	cr_assert(session_info(s).damaged);
	d = find_diag(s, "memory budget of 24 MiB reached");
	cr_assert_not_null(d);
	cr_assert_eq(d->severity, DIAG_ERROR);
	/* offsets are perf's pipe offsets less nothing here: the record's own */
	cr_assert_eq(d->offset, zoff, "budget diagnostic at 0x%llx, want the first COMPRESSED 0x%zx",
	    (unsigned long long)d->offset, zoff);
	used = session_info(s).zlen + session_index(s)->n * (sizeof(struct load_ent) + sizeof(size_t));
	cr_assert_leq(used, budget, "used %llu of %llu", (unsigned long long)used,
	    (unsigned long long)budget);
	/* what came before the bomb and part of the bomb are loaded */
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 1);
	cr_assert_gt(session_counts(s)->by_type[68], 100000);
	assert_walk_matches(s);
	session_close(s);
	pd_free(&b);
}

Test(budget, bomb_within_a_raised_budget_loads_whole, .timeout = 30)
{
	struct pdbuf b;
	struct session *s;

	pipe_begin(&b);
	pipe_zbomb(&b, 2, (size_t)4 << 20);
	pipe_sample(&b, 2000, 2, 2);
	s = open_with(&b, UINT64_C(1) << 30, true, NULL);
	cr_assert(!session_info(s).over_budget);
	cr_assert_eq(session_counts(s)->by_type[68], 2 * ((4 << 20) / 8));
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 1);
	cr_assert_not_null(find_diag(s, "COMPRESSED record inflates"), "absurd ratio named");
	cr_assert_not_null(find_diag(s, "2 COMPRESSED records inflate more than"));
	session_close(s);
	pd_free(&b);
}

Test(budget, stats_mode_bounded_too, .timeout = 30)
{
	struct pdbuf b;
	struct session *s;

	pipe_begin(&b);
	pipe_zbomb(&b, 3, (size_t)64 << 20);
	s = open_with(&b, UINT64_C(16) << 20, false, NULL);
	cr_assert(session_info(s).over_budget);
	cr_assert_leq(session_info(s).zlen + session_counts(s)->total * 32, UINT64_C(16) << 20);
	assert_walk_matches(s);
	session_close(s);
	pd_free(&b);
}

Test(budget, index_of_a_plain_file, .timeout = 30)
{
	struct pdbuf b;
	struct session *s;
	char *path;
	struct session_opts so = { .keep_going = true, .mem_budget = 4096 };
	struct perf_err err;

	synth_file(&b, false, 1000);
	path = tmp_write("budget", b.p, b.len);
	s = session_open(path, &so, &err);
	cr_assert_not_null(s);
	cr_assert(session_info(s).over_budget);
	cr_assert_leq(session_index(s)->n, 4096 / (sizeof(struct load_ent) + sizeof(size_t)));
	cr_assert_gt(session_index(s)->n, 10);
	cr_assert_not_null(find_diag(s, "memory budget of 4 KiB reached"));
	assert_walk_matches(s);
	session_close(s);
	unlink(path);
	free(path);
	pd_free(&b);
}

Test(budget, real_zstd_fixture_untouched)
{
	struct perf_err err;
	struct session *s = session_open(test_data("zstd.data"), NULL, &err);

	cr_assert_not_null(s);
	cr_assert(!session_info(s).over_budget);
	cr_assert_null(find_diag(s, "inflates"));
	cr_assert_null(find_diag(s, "budget"));
	session_close(s);
}

Test(damaged, callchain_count_that_wraps, .timeout = 10)
{
	struct pdbuf b;
	struct session *s;
	const struct diag *d;
	size_t bad;

	pipe_begin(&b);
	pipe_sample(&b, 1000, 2, 2);
	bad = pipe_sample(&b, 1100, UINT64_C(1) << 61, 2);	/* nr * 8 wraps to 0 */
	pipe_sample(&b, 1200, 3, 2);		/* runs past the sample */
	pipe_sample(&b, 1300, UINT64_C(1) << 61, 1);
	pipe_sample(&b, 1400, 1, 1);
	s = open_with(&b, 0, true, NULL);
	cr_assert(session_info(s).damaged);
	d = find_diag(s, "2 damaged SAMPLE records (absurd callchain length)");
	cr_assert_not_null(d);
	cr_assert_eq(d->offset, bad, "first at 0x%llx, want 0x%zx", (unsigned long long)d->offset,
	    bad);
	cr_assert_not_null(find_diag(s, "1 damaged SAMPLE record (callchain runs past the sample)"));
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 5, "still counted as perf --stats does");
	session_close(s);
	pd_free(&b);
}

Test(damaged, short_kernel_record)
{
	struct pdbuf b;
	struct session *s;
	size_t r;

	pipe_begin(&b);
	r = pd_rec_begin(&b, 4 /* EXIT */, 0);
	pd_u64(&b, 7);	/* 8 of its 24 bytes */
	pd_rec_end(&b, r);
	s = open_with(&b, 0, true, NULL);
	cr_assert_not_null(find_diag(s, "1 damaged EXIT record (shorter than its fixed fields)"));
	cr_assert(session_info(s).damaged);
	session_close(s);
	pd_free(&b);
}

/* Run perfnav ARGS FILE with a time limit: exit status, stderr in *err. */
static int
run_perfnav(const char *args, const char *file, char **err)
{
	char *cmd, *errpath = tmp_write("stderr", "", 0);
	size_t n;
	int st;

	if (asprintf(&cmd, "timeout 20 %s/perfnav %s '%s' >/dev/null 2>'%s'", TEST_BUILDDIR, args,
	    file, errpath) < 0)
		abort();
	st = system(cmd);
	*err = slurp(errpath, &n);
	unlink(errpath);
	free(errpath);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static const char *const subcommands[] = {
	"stats", "stats --index", "header", "dump", "top", "top --tsv", "top --children",
	"script", "tree", "folded", "annotate",
};

Test(cli, every_subcommand_reports_a_damaged_sample, .timeout = 120)
{
	struct pdbuf b;
	char *path, *err;

	pipe_begin(&b);
	pipe_sample(&b, 1000, 2, 2);
	pipe_sample(&b, 1100, UINT64_C(1) << 61, 2);
	path = tmp_write("damaged", b.p, b.len);
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
		char args[64];
		int rc = run_perfnav(subcommands[i], path, &err);

		/* annotate has nothing to annotate here: its failure is 1 */
		cr_expect_eq(rc, strncmp(subcommands[i], "annotate", 8) ? 0 : 1,
		    "%s: exit %d without --strict", subcommands[i], rc);
		cr_expect(err && strstr(err, "1 damaged SAMPLE record (absurd callchain length)"),
		    "%s said: %s", subcommands[i], err ? err : "(nothing)");
		cr_expect(err && strstr(err, "offset 0x"), "%s: no offset", subcommands[i]);
		free(err);
		snprintf(args, sizeof args, "%s --strict", subcommands[i]);
		rc = run_perfnav(args, path, &err);
		cr_expect_eq(rc, strncmp(subcommands[i], "annotate", 8) ? 3 : 1,
		    "%s --strict: exit %d", subcommands[i], rc);
		free(err);
	}
	unlink(path);
	free(path);
	pd_free(&b);
}

Test(cli, every_subcommand_bounded_on_a_bomb, .timeout = 300)
{
	struct pdbuf b;
	char *path, *err;

	pipe_begin(&b);
	pipe_sample(&b, 1000, 2, 2);
	pipe_zbomb(&b, 3, (size_t)64 << 20);
	path = tmp_write("bomb", b.p, b.len);
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
		char args[96];
		int rc;

		/* 16 MiB: the default (64 MiB) would make this test slower */
		snprintf(args, sizeof args, "%s --max-memory 16M", subcommands[i]);
		rc = run_perfnav(args, path, &err);
		cr_expect_lt(rc, 124, "%s: exit %d (124: timed out)", subcommands[i], rc);
		cr_expect(err && strstr(err, "memory budget of 16 MiB reached"), "%s said: %s",
		    subcommands[i], err ? err : "(nothing)");
		free(err);
	}
	unlink(path);
	free(path);
	pd_free(&b);
}

Test(input, endless_device_is_not_read_to_its_end, .timeout = 10)
{
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open("/dev/zero", NULL, &err);
	cr_assert_null(s);
	cr_assert(strstr(err.msg, "not a perf.data file") != NULL, "%s", err.msg);
}

Test(input, directory_with_special_data_files, .timeout = 10)
{
	struct pdbuf b;
	struct perf_err err;
	struct session *s;
	char dir[] = "/tmp/perfnav-test-dir-XXXXXX", p[128];
	FILE *fp;

	cr_assert_not_null(mkdtemp(dir));
	synth_file(&b, false, 8);
	snprintf(p, sizeof p, "%s/data", dir);
	fp = fopen(p, "wb");
	cr_assert_not_null(fp);
	fwrite(b.p, 1, b.len, fp);
	fclose(fp);
	snprintf(p, sizeof p, "%s/data.0", dir);
	cr_assert_eq(mkfifo(p, 0600), 0);	/* nobody will ever write it */
	snprintf(p, sizeof p, "%s/data.1", dir);
	cr_assert_eq(symlink("/dev/zero", p), 0);
	s = session_open(dir, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_nfiles(s), 1, "only 'data' is a file to read");
	cr_assert_not_null(find_diag(s, "data.0 left out: refused: is a FIFO"));
	cr_assert_not_null(find_diag(s, "data.1 left out: refused: is a character device"));
	cr_assert(session_info(s).damaged);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 8, "data is read whole");
	session_close(s);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
	pd_free(&b);
}

/* A stop at the very start of a COMPRESSED record, after records that lie
 * between two containers: the walk (dump) sees exactly what was loaded. */
Test(budget, stop_at_a_container_start, .timeout = 30)
{
	struct pdbuf b;
	struct session *s;
	const struct diag *d;
	size_t bomb;

	pipe_begin(&b);
	pipe_zbomb(&b, 1, 800);		/* 100 rounds in a first container */
	for (int i = 0; i < 5; i++)
		pd_rec_end(&b, pd_rec_begin(&b, 68 /* FINISHED_ROUND */, 0));
	bomb = pipe_zbomb(&b, 1, (size_t)64 << 20);
	/*
	 * Room for everything before the bomb (800 bytes inflated, 109 records
	 * of 32 bytes: HEADER_ATTR, COMM, 2 containers, 100 + 5 rounds), not for
	 * the bomb's first 1 MiB step.
	 */
	s = open_with(&b, 800 + 109 * 32 + (UINT64_C(1) << 20) - 1, false, NULL);
	cr_assert(session_info(s).over_budget);
	d = find_diag(s, "memory budget of");
	cr_assert_not_null(d);
	cr_assert_eq(d->offset, bomb, "at 0x%llx, want the bomb at 0x%zx",
	    (unsigned long long)d->offset, bomb);
	cr_assert_eq(session_counts(s)->by_type[68], 105, "the first container's and the 5 between: %llu",
	    (unsigned long long)session_counts(s)->by_type[68]);
	assert_walk_matches(s);
	session_close(s);
	pd_free(&b);
}

/* Standard input is read up to half the budget; what is read counts, and
 * the load then stops at its own budget with its own diagnostic. */
Test(budget, standard_input_counts, .timeout = 30)
{
	struct pdbuf b;
	struct session_opts so = { .keep_going = true, .mem_budget = UINT64_C(1) << 20 };
	struct perf_err err;
	struct session *s;
	char *path, cmd[128];
	int fd, saved;
	FILE *fp;

	pipe_begin(&b);
	for (int i = 0; i < 200000; i++)
		pd_rec_end(&b, pd_rec_begin(&b, 68 /* FINISHED_ROUND */, 0));
	path = tmp_write("stdin", b.p, b.len);
	/* a real pipe: a regular file on standard input would be mapped */
	snprintf(cmd, sizeof cmd, "cat '%s'", path);
	fp = popen(cmd, "r");
	cr_assert_not_null(fp);
	fd = fileno(fp);
	saved = dup(STDIN_FILENO);
	cr_assert_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	s = session_open("-", &so, &err);
	dup2(saved, STDIN_FILENO);
	close(saved);
	pclose(fp);	/* cat may die of SIGPIPE: what was read is what counts */
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_file(s, 0)->size, (UINT64_C(1) << 20) / 2, "half the budget read: %llu",
	    (unsigned long long)session_file(s, 0)->size);
	cr_assert(session_info(s).input_cut);
	cr_assert_not_null(find_diag(s, "stopped reading after"));
	cr_assert(session_info(s).over_budget);
	cr_assert_not_null(find_diag(s, "memory budget of 1 MiB reached"));
	cr_assert_leq(session_file(s, 0)->size + session_counts(s)->total * 32, UINT64_C(1) << 20);
	assert_walk_matches(s);
	session_close(s);
	unlink(path);
	free(path);
	pd_free(&b);
}

/* The perf tool's own records too short for what loading reads of them. */
Test(damaged, short_tool_records)
{
	static const struct {
		uint32_t type;
		const char *name;
	} short_ones[] = {
		{ 67, "BUILD_ID" },
		{ 69, "ID_INDEX" },
		{ 78, "EVENT_UPDATE" },
		{ 80, "FEATURE" },
		{ 83, "COMPRESSED2" },
	};
	struct pdbuf b;
	struct session *s;
	size_t r;

	pipe_begin(&b);
	for (size_t i = 0; i < sizeof short_ones / sizeof short_ones[0]; i++) {
		r = pd_rec_begin(&b, short_ones[i].type, 0);
		pd_u32(&b, 1);	/* 4 bytes of body: short for each */
		pd_rec_end(&b, r);
	}
	r = pd_rec_begin(&b, 83 /* COMPRESSED2 */, 0);
	pd_u64(&b, 4096);	/* data_size past the record */
	pd_u64(&b, 0);
	pd_rec_end(&b, r);
	s = open_with(&b, 0, true, NULL);
	for (size_t i = 0; i < sizeof short_ones / sizeof short_ones[0]; i++) {
		char want[96];

		snprintf(want, sizeof want, "1 damaged %s record (shorter than its fixed fields)",
		    short_ones[i].name);
		cr_expect_not_null(find_diag(s, want), "no '%s'", want);
	}
	cr_expect_not_null(find_diag(s, "1 damaged COMPRESSED2 record (data_size runs past the record)"));
	cr_assert(session_info(s).damaged);
	session_close(s);
	pd_free(&b);
}

/* ---- the newest records in a loaded session ---- */

/* pipe_begin() in byte order swap. */
static void
pipe_begin_order(struct pdbuf *b, bool swap)
{
	size_t r;

	memset(b, 0, sizeof *b);
	b->swap = swap;
	pd_u64(b, 0x32454c4946524550ULL);
	pd_u64(b, 16);
	r = pd_rec_begin(b, 64 /* HEADER_ATTR */, 0);
	pd_attr(b, 128, 1 /* SOFTWARE */, 0, 4000, ST_HOSTILE, 0, 0);
	pd_u64(b, 100);
	pd_rec_end(b, r);
}

/* Records of the newest types (no trailer: the attr has no sample_id_all). */
static void
newest_records(struct pdbuf *b)
{
	char name[256] = "bpf_prog_0123456789abcdef_f", kv[320] = "key";
	size_t r;

	r = pd_rec_begin(b, 22 /* CALLCHAIN_DEFERRED */, 2);
	pd_u64(b, 77);
	pd_u64(b, 2);
	pd_u64(b, (uint64_t)PERF_CONTEXT_USER);
	pd_u64(b, 0x401000);
	pd_rec_end(b, r);
	r = pd_rec_begin(b, 84 /* BPF_METADATA */, 0);
	pd_bytes(b, name, sizeof name);
	pd_u64(b, 1);
	pd_bytes(b, kv, sizeof kv);
	pd_rec_end(b, r);
	r = pd_rec_begin(b, 85 /* SCHEDSTAT_CPU */, 0);
	pd_u64(b, 5);
	pd_u32(b, 1);
	pd_u16(b, 16);
	pd_u16(b, 0);
	pd_zero(b, 48);
	pd_rec_end(b, r);
	r = pd_rec_begin(b, 68 /* FINISHED_ROUND */, 0);
	pd_rec_end(b, r);
}

struct inner {
	uint32_t	 n;
	uint32_t	 type[8], size[8];
	uint8_t		*bytes[8];
};

static int
collect_inner(void *arg, const struct rec *r, int depth)
{
	struct inner *in = arg;

	if (depth == 0 || in->n == 8)
		return 0;
	in->type[in->n] = r->type;
	in->size[in->n] = r->size;
	in->bytes[in->n] = malloc(r->size);
	memcpy(in->bytes[in->n++], r->p, r->size);
	return 0;
}

/* A pipe of one COMPRESSED (or COMPRESSED2: data_size, data padded to 8)
 * holding newest_records(); the records decompressed from it. */
static void
inflate_one(bool swap, bool two, struct inner *in)
{
	struct pdbuf plain = { .swap = swap }, b;
	size_t zcap, zn, r;
	struct session *s;
	uint8_t *z;

	newest_records(&plain);
	zcap = ZSTD_compressBound(plain.len);
	z = malloc(zcap);
	zn = ZSTD_compress(z, zcap, plain.p, plain.len, 3);
	cr_assert(!ZSTD_isError(zn));
	pipe_begin_order(&b, swap);
	r = pd_rec_begin(&b, two ? 83 : 81, 0);
	if (two)
		pd_u64(&b, zn);
	pd_bytes(&b, z, zn);
	if (two)
		pd_zero(&b, (8 - zn % 8) % 8);
	pd_rec_end(&b, r);
	s = open_with(&b, 0, true, NULL);
	cr_expect(!session_info(s).damaged, "%s damaged", two ? "COMPRESSED2" : "COMPRESSED");
	cr_expect_eq(session_counts(s)->by_type[two ? 83 : 81], 1);
	memset(in, 0, sizeof *in);
	session_walk(s, collect_inner, in);
	cr_assert_eq(in->n, 4);
	/* the records as written */
	for (uint32_t i = 0, off = 0; i < in->n; off += in->size[i++])
		cr_expect_eq(memcmp(in->bytes[i], plain.p + off, in->size[i]), 0, "record %u", i);
	session_close(s);
	free(z);
	pd_free(&plain);
	pd_free(&b);
}

Test(newest, compressed2_inflates_as_compressed)
{
	for (int swap = 0; swap < 2; swap++) {
		struct inner one, two;

		inflate_one(swap, false, &one);
		inflate_one(swap, true, &two);
		cr_assert_eq(two.n, one.n);
		for (uint32_t i = 0; i < one.n; i++) {
			cr_expect_eq(two.type[i], one.type[i]);
			cr_expect_eq(two.size[i], one.size[i]);
			cr_expect_eq(memcmp(two.bytes[i], one.bytes[i], one.size[i]), 0);
			free(one.bytes[i]);
			free(two.bytes[i]);
		}
		cr_expect_eq(one.type[0], 22);
		cr_expect_eq(one.type[2], 85);
	}
}

/* Damaged newest records: one diagnostic per kind, at the first one's
 * offset, nothing crashes; a type perf has not defined (87) stays raw. */
Test(newest, damaged_and_unknown)
{
	struct pdbuf b;
	struct session *s;
	const struct diag *d;
	size_t at[4], r;
	char sum[256];
	struct rec rec;

	pipe_begin_order(&b, true);
	at[0] = pd_rec_begin(&b, 22, 2);
	pd_u64(&b, 1);
	pd_u64(&b, 1000);	/* ips past the record */
	pd_rec_end(&b, at[0]);
	at[1] = pd_rec_begin(&b, 84, 0);
	pd_zero(&b, 256);
	pd_u64(&b, 3);		/* entries past the record */
	pd_rec_end(&b, at[1]);
	at[2] = pd_rec_begin(&b, 86, 0);
	pd_u64(&b, 1);
	pd_u32(&b, 0);
	pd_u16(&b, 15);
	pd_u16(&b, 0);		/* and no counters */
	pd_rec_end(&b, at[2]);
	at[3] = pd_rec_begin(&b, 85, 0);
	pd_u64(&b, 1);		/* no cpu, no version */
	pd_rec_end(&b, at[3]);
	r = pd_rec_begin(&b, 87, 0);
	pd_u64(&b, 0x1234);
	pd_rec_end(&b, r);
	s = open_with(&b, 0, true, NULL);
	cr_assert(session_info(s).damaged);
	d = find_diag(s, "1 damaged CALLCHAIN_DEFERRED record (callchain runs past the record)");
	cr_assert_not_null(d);
	cr_expect_eq(d->offset, at[0], "at 0x%llx", (unsigned long long)d->offset);
	d = find_diag(s, "1 damaged BPF_METADATA record (nr_entries runs past the record)");
	cr_assert_not_null(d);
	cr_expect_eq(d->offset, at[1]);
	d = find_diag(s, "1 damaged SCHEDSTAT_DOMAIN record (shorter than its schedstat");
	cr_assert_not_null(d);
	cr_expect_eq(d->offset, at[2]);
	d = find_diag(s, "1 damaged SCHEDSTAT_CPU record (shorter than its fixed fields)");
	cr_assert_not_null(d);
	cr_expect_eq(d->offset, at[3]);
	cr_expect_null(find_diag(s, "UNKNOWN"));
	cr_expect_eq(session_counts(s)->by_type[87], 1);
	cr_assert_eq(session_rec(s, r, &rec), 0);
	fields_summary(s, &rec, sum, sizeof sum);
	cr_expect_str_eq(sum, "PERF_RECORD_UNKNOWN87 misc 0, 8 payload bytes");
	session_close(s);
	pd_free(&b);
}

/* `perfnav header` on a pipe with the newest feature records (as newer perf
 * writes them: HEADER_FEATURE records, each padded to 8 bytes, then the
 * empty end marker of its HEADER_LAST_FEATURE, 35), in both byte orders. */
Test(newest, header_of_the_newest_features)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf b;
		char *path, *out, cmd[512];
		int status;
		size_t r;

		pipe_begin_order(&b, swap);
		r = pd_rec_begin(&b, 80 /* FEATURE */, 0);
		pd_u64(&b, 32);			/* CPU_DOMAIN_INFO */
		pd_u32(&b, 17);
		pd_u32(&b, 1);
		pd_u32(&b, 0);			/* cpu 0 */
		pd_u32(&b, 1);
		pd_u32(&b, 0);			/* domain 0 */
		pd_feat_str(&b, "SMT");
		pd_feat_str(&b, "00000003");
		pd_feat_str(&b, "0-1");
		pd_zero(&b, (8 - b.len % 8) % 8);
		pd_rec_end(&b, r);
		r = pd_rec_begin(&b, 80, 0);
		pd_u64(&b, 33);			/* E_MACHINE */
		pd_u32(&b, 183);
		pd_u32(&b, 0);
		pd_rec_end(&b, r);
		r = pd_rec_begin(&b, 80, 0);
		pd_u64(&b, 34);			/* CLN_SIZE */
		pd_u32(&b, 64);
		pd_u32(&b, 0);
		pd_rec_end(&b, r);
		r = pd_rec_begin(&b, 80, 0);
		pd_u64(&b, 35);			/* the end marker */
		pd_rec_end(&b, r);
		path = tmp_write("newest-header", b.p, b.len);
		snprintf(cmd, sizeof cmd, "%s/perfnav header %s 2>&1", TEST_BUILDDIR, path);
		out = cmd_output(cmd, NULL, &status);
		cr_assert_eq(status, 0, "%s", out);
		cr_expect_not_null(strstr(out, "# schedstat version\t: 17\n"
		    "# Maximum sched domains\t: 1\n# cpu\t\t: 0\n# nr_domains\t: 1\n# Domain\t\t: 0\n"
		    "# Domain name      : SMT\n# Domain cpu map   : 00000003\n"
		    "# Domain cpu list  : 0-1\n# e_machine : 183 (aarch64)\n# e_flags : 0\n"
		    "# cache line size : 64\n"), "swap %d:\n%s", swap, out);
		cr_expect_not_null(strstr(out, "(end marker)"), "%s", out);
		cr_expect_null(strstr(out, "warning"), "%s", out);
		free(out);
		unlink(path);
		free(path);
		pd_free(&b);
	}
}

/* A COMPRESSED2 bomb meets the budget and the ratio check as COMPRESSED
 * does: it stops at the budget, named at the first container, with what
 * came before loaded. */
Test(newest, compressed2_bomb_stops_at_the_budget, .timeout = 30)
{
	size_t each = (size_t)16 << 20, zcap = ZSTD_compressBound(each), zn, zoff = 0;
	uint8_t *plain = calloc(1, each), *z = malloc(zcap);
	struct pdbuf b;
	struct session *s;
	const struct diag *d;

	cr_assert(plain != NULL && z != NULL);
	for (size_t i = 0; i + 8 <= each; i += 8) {
		plain[i] = 68;	/* FINISHED_ROUND, little-endian */
		plain[i + 6] = 8;
	}
	zn = ZSTD_compress(z, zcap, plain, each, 19);
	cr_assert(!ZSTD_isError(zn));
	pipe_begin(&b);
	pipe_sample(&b, 1000, 2, 2);
	for (int k = 0; k < 3; k++) {
		size_t r = pd_rec_begin(&b, 83 /* COMPRESSED2 */, 0);

		if (k == 0)
			zoff = r;
		pd_u64(&b, zn);
		pd_bytes(&b, z, zn);
		pd_zero(&b, (8 - zn % 8) % 8);
		pd_rec_end(&b, r);
	}
	s = open_with(&b, UINT64_C(8) << 20, true, NULL);
	cr_assert(session_info(s).over_budget);
	d = find_diag(s, "memory budget of 8 MiB reached");
	cr_assert_not_null(d);
	cr_expect_eq(d->offset, zoff);
	cr_expect_not_null(find_diag(s, "COMPRESSED record inflates"), "absurd ratio named");
	cr_expect_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 1);
	cr_expect_gt(session_counts(s)->by_type[68], 1000);
	cr_expect_leq(session_info(s).zlen, UINT64_C(8) << 20);
	assert_walk_matches(s);
	session_close(s);
	pd_free(&b);
	free(plain);
	free(z);
}
