/*
 * The [k]/[.] label of a callchain frame in no map, as perf gives it: in
 * one pass, in each caller order, and after a recount of a scope (the
 * browser's time steps), the hist read back from the cache included.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/hist_cache.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

/* ---- the [k]/[.] of callchain frames in no map ---- */

#define LV_K	UINT64_C(0xffffffff81000000)	/* _text of tests/data/mem-obj.kallsyms */
#define LV_U	UINT64_C(0x555555554000)	/* a PIE's base */
#define LV_CK	((uint64_t)PERF_CONTEXT_KERNEL)
#define LV_CU	((uint64_t)PERF_CONTEXT_USER)

/* A sample of lv_recording(): its process, kernel or user, callchain (ending in 0). */
struct lv_sample {
	uint32_t	pid;
	bool		kernel;
	uint64_t	chain[10];
};

/*
 * The samples of tests/mk-chainlv.py's chainlv.data, a null frame (0) and
 * garbage (0xdeadbeef) in no map beside kernel frames (memobj_kfunc) and
 * user ones in /nonexistent/app mapped at LV_U + 0x1000; kmid's null
 * frame the recording's first.
 */
static const struct lv_sample lv_samples[] = {
	{ 43, true, { LV_CK, LV_K + 0x100, 0, LV_CU, LV_U + 0x122f, 1 } },
	{ 42, true, { LV_CK, LV_K + 0x100, LV_K + 0x180, LV_CU, LV_U + 0x1150, LV_U + 0x122f, 0,
		0xdeadbeef, 1 } },
	{ 44, true, { LV_CK, LV_K + 0x100, LV_CU, 0xdeadbeef, LV_U + 0x122f, 1 } },
	{ 45, false, { LV_CU, LV_U + 0x1150, 0xdeadbeef, 0, LV_U + 0x122f, 1 } },
	{ 42, true, { LV_CK, LV_K + 0x100, 0, LV_CU, LV_U + 0x122f, 1 } },
};

static void
lv_comm(struct pdbuf *b, uint32_t pid)
{
	static const char *const names[] = { "kuser", "kmid", "kgarb", "user" };
	size_t r = pd_rec_begin(b, PF_REC_COMM, 0);

	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_str8(b, names[pid - 42]);
	pd_rec_end(b, r);
	r = pd_rec_begin(b, PF_REC_MMAP2, PERF_RECORD_MISC_USER);
	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_u64(b, LV_U + 0x1000);
	pd_u64(b, 0x1000);
	pd_u64(b, 0x1000);
	pd_u32(b, 8);
	pd_u32(b, 1);
	pd_u64(b, 4242);
	pd_u64(b, 0);
	pd_u32(b, 5);	/* r-x */
	pd_u32(b, 2);	/* MAP_PRIVATE */
	pd_str8(b, "/nonexistent/app");
	pd_rec_end(b, r);
}

/* The recording of lv_samples (cpu-clock, IP|TID|TIME|CPU|PERIOD|CALLCHAIN); its path. */
static char *
lv_recording(void)
{
	struct pdbuf b;
	size_t data = synth_head_with(&b, false, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN, 0);
	size_t r = pd_rec_begin(&b, PF_REC_MMAP, PERF_RECORD_MISC_KERNEL);
	char *path;

	pd_u32(&b, UINT32_MAX);	/* pid -1: the kernel */
	pd_u32(&b, 0);
	pd_u64(&b, LV_K);
	pd_u64(&b, 0x2000000);
	pd_u64(&b, LV_K);
	pd_str8(&b, "[kernel.kallsyms]_text");
	pd_rec_end(&b, r);
	for (uint32_t pid = 42; pid <= 45; pid++)
		lv_comm(&b, pid);
	for (size_t i = 0; i < sizeof lv_samples / sizeof *lv_samples; i++) {
		const struct lv_sample *s = &lv_samples[i];
		uint64_t n = 0;

		while (s->chain[n] != 1)
			n++;
		r = pd_rec_begin(&b, PF_REC_SAMPLE, s->kernel ? PERF_RECORD_MISC_KERNEL :
		    PERF_RECORD_MISC_USER);
		pd_u64(&b, s->chain[1]);	/* the ip: the first frame after the marker */
		pd_u32(&b, s->pid);
		pd_u32(&b, s->pid);
		pd_u64(&b, 1000000 + 1000 * i);
		pd_u32(&b, 0);
		pd_u32(&b, 0);
		pd_u64(&b, 4000);
		pd_u64(&b, n);
		for (uint64_t j = 0; j < n; j++)
			pd_u64(&b, s->chain[j]);
		pd_rec_end(&b, r);
	}
	pd_put64(&b, 40, data);
	pd_put64(&b, 48, b.len - data);
	path = tmp_write("chainlv", b.p, b.len);
	pd_free(&b);
	return path;
}

/* Does h have a row "COMM SYM" of DSO [unknown]? */
static bool
lv_has(struct hist *h, const char *comm, const char *sym)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, 0, 0, &rows);
	char c[64], d[64], y[64];

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (strcmp(hist_key_text(h, e, HIST_KEY_COMM, c, sizeof c), comm) == 0 &&
		    strcmp(hist_key_text(h, e, HIST_KEY_DSO, d, sizeof d), "[unknown]") == 0 &&
		    strcmp(hist_key_text(h, e, HIST_KEY_SYM, y, sizeof y), sym) == 0)
			return true;
	}
	return false;
}

/* The hist of lv_recording() perf report --children -g ORDER makes; its symbolizer in *z. */
static struct hist *
lv_hist(const char *path, bool caller, struct session **s, struct symbolizer **z)
{
	char kall[4096];
	struct sym_opts so = { .buildid_dir = "/nonexistent", .kallsyms = kall };
	struct perf_err err;
	struct hist_opts o;
	const char *bad;
	size_t badlen;
	struct hist *h;
	int nk;

	snprintf(kall, sizeof kall, "%s", test_data("mem-obj.kallsyms"));
	*s = session_open(path, NULL, &err);
	cr_assert_not_null(*s, "%s", err.msg);
	memset(&o, 0, sizeof o);
	nk = hist_parse_keys("comm,dso,sym", o.keys, &bad, &badlen);
	cr_assert_eq(nk, 3);
	o.nkeys = 3;
	o.event = -1;
	o.children = true;
	o.chain_root_first = caller;
	*z = symbolizer_new(*s, &so);
	h = hist_new(*s, *z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* lv_hist's hist kept for recounts (paths, each sample's row), of the samples f takes. */
static struct hist *
lv_scoped(struct session *s, struct symbolizer *z, const struct hist_filter *f)
{
	struct hist_opts o;
	const char *bad;
	size_t badlen;
	struct hist *h;

	memset(&o, 0, sizeof o);
	cr_assert_eq(hist_parse_keys("comm,dso,sym", o.keys, &bad, &badlen), 3);
	o.nkeys = 3;
	o.event = -1;
	o.children = true;
	o.chain_root_first = true;
	o.paths = true;
	o.record_self = true;
	o.filter = f;
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* Every row's comm, DSO and symbol (its [k]/[.] label with it), in order. */
static void
lv_rows(struct hist *h, char *out, size_t n)
{
	const uint32_t *rows;
	size_t nr = hist_rows(h, 0, 0, &rows), len = 0;
	char c[64], d[64], y[64];

	out[0] = '\0';
	for (size_t i = 0; i < nr && len < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		len += (size_t)snprintf(out + len, n - len, "%s %s %s\n",
		    hist_key_text(h, e, HIST_KEY_COMM, c, sizeof c),
		    hist_key_text(h, e, HIST_KEY_DSO, d, sizeof d),
		    hist_key_text(h, e, HIST_KEY_SYM, y, sizeof y));
	}
}

/*
 * h recounted for five time ranges and back to every sample: each time the
 * rows (a frame in no map labelled with them) of a fresh pass of the scope.
 */
static void
lv_recounts(struct session *s, struct symbolizer *z, struct hist *h, const char *what)
{
	struct hist_filter f = { 0 };
	struct hist *fresh;
	char a[4096], b[4096];

	f.time = calloc(1, sizeof *f.time);
	f.ntime = 1;
	for (int from = 0; from < 5; from++) {
		f.time[0].start = 1000000 + 1000 * (uint64_t)from;
		cr_assert_eq(hist_rescope(h, &f), 0);
		fresh = lv_scoped(s, z, &f);
		lv_rows(h, a, sizeof a);
		lv_rows(fresh, b, sizeof b);
		cr_expect_str_eq(a, b, "%s: samples %d to 4", what, from);
		hist_free(fresh);
	}
	cr_assert_eq(hist_rescope(h, NULL), 0);
	fresh = lv_scoped(s, z, NULL);
	lv_rows(h, a, sizeof a);
	lv_rows(fresh, b, sizeof b);
	cr_expect_str_eq(a, b, "%s: every sample again", what);
	cr_expect_not_null(strstr(a, "kuser [unknown] [k] 0000000000000000"), "%s: %s", what, a);
	hist_free(fresh);
	filter_free(&f);
}

/*
 * A frame in no map recounted for a time range: its label the range's first
 * sample's, as a fresh pass gives it (a recount kept the whole recording's:
 * kuser's null frame stayed [k]); the same from the hist read back from the
 * cache, which keeps each row's labels.
 */
Test(hist, unmapped_frame_labels_of_a_recount)
{
	char *path = lv_recording(), kall[4096];
	struct sym_opts so = { .buildid_dir = "/nonexistent", .kallsyms = kall };
	struct perf_err err;
	struct session *s;
	struct symbolizer *z, *z2;
	struct hist *h, *cached;
	void *p;
	size_t len;

	snprintf(kall, sizeof kall, "%s", test_data("mem-obj.kallsyms"));
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	z = symbolizer_new(s, &so);
	h = lv_scoped(s, z, NULL);
	p = hist_cache_pack(h, &len);
	cr_assert_not_null(p, "the hist packs");
	lv_recounts(s, z, h, "one pass");
	z2 = symbolizer_new(s, &so);
	cr_assert_eq(hist_cache_unpack(s, z2, hist_opts(h), p, len, &cached, &err), HIST_CACHE_OK,
	    "%s", err.msg);
	hist_finish(cached);
	lv_recounts(s, z2, cached, "read back");
	hist_free(cached);
	free(p);
	hist_free(h);
	symbolizer_free(z2);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

/*
 * perf 6.1 labels a callchain frame in no map with the level of the entry
 * it filled before (fill_callchain_info keeps al->level): in its walk's
 * order, root first by default with --children, from the sample's own;
 * and an entry keeps its first sample's label.  perf report --stdio
 * --children -g none (and -g callee) on these bytes gave these rows.
 */
Test(hist, unmapped_chain_frames_inherit_their_level)
{
	char *path = lv_recording();
	struct session *s;
	struct symbolizer *z;
	struct hist *h = lv_hist(path, true, &s, &z);

	cr_expect(lv_has(h, "kmid", "[.] 0000000000000000"));
	cr_expect(lv_has(h, "kuser", "[k] 0000000000000000"));
	cr_expect(lv_has(h, "kuser", "[k] 0x00000000deadbeef"));
	cr_expect(lv_has(h, "kgarb", "[.] 0x00000000deadbeef"));
	cr_expect(lv_has(h, "user", "[.] 0x00000000deadbeef"));
	cr_expect(lv_has(h, "user", "[.] 0000000000000000"));
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
	h = lv_hist(path, false, &s, &z);	/* -g callee */
	cr_expect(lv_has(h, "kmid", "[k] 0000000000000000"));
	cr_expect(lv_has(h, "kuser", "[.] 0000000000000000"));
	cr_expect(lv_has(h, "kuser", "[.] 0x00000000deadbeef"));
	cr_expect(lv_has(h, "kgarb", "[k] 0x00000000deadbeef"));
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

/* hist_fold_fn: the lines, one after another. */
static int
lv_fold_cat(void *arg, const char *line, uint64_t count)
{
	char *out = arg;
	size_t len = strlen(out);

	snprintf(out + len, 8192 - len, "%s %llu\n", line, (unsigned long long)count);
	return 0;
}

/* The folded stacks of lv_recording(), frames in no map named as fold_addresses says. */
static void
lv_folded(const char *path, bool addresses, char *out)
{
	char kall[4096];
	struct sym_opts so = { .buildid_dir = "/nonexistent", .kallsyms = kall };
	struct perf_err err;
	struct hist_opts o;
	struct session *s;
	struct symbolizer *z;
	struct hist *h;

	snprintf(kall, sizeof kall, "%s", test_data("mem-obj.kallsyms"));
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	memset(&o, 0, sizeof o);
	o.keys[0] = HIST_KEY_SYM;
	o.nkeys = 1;
	o.event = -1;
	o.callgraph = true;
	o.fold_addresses = addresses;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	z = symbolizer_new(s, &so);
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	out[0] = '\0';
	hist_folded(h, 0, false, lv_fold_cat, out);
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
}

/*
 * perfnav folded --addresses (the browser's scope-command for its call
 * trees and flame graph): a frame in no map by its address as those views
 * name it (cpath_func_name: the null frame 0, 0xdeadbeef), each its own
 * frame, where plain folded merges them all into [unknown].
 */
Test(hist, folded_addresses_name_frames_as_the_trees)
{
	char *path = lv_recording(), plain[8192], addr[8192];

	lv_folded(path, false, plain);
	lv_folded(path, true, addr);
	cr_expect_not_null(strstr(plain, "[unknown]"), "%s", plain);
	cr_expect_null(strstr(plain, "0xdeadbeef"), "%s", plain);
	cr_expect_null(strstr(addr, "[unknown]"), "%s", addr);
	cr_expect_not_null(strstr(addr, ";0xdeadbeef;"), "%s", addr);
	cr_expect(strstr(addr, ";0;") != NULL || strstr(addr, ";0 ") != NULL, "%s", addr);
	unlink(path);
	free(path);
}
