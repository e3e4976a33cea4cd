/*
 * fuzz_bundle.c: reading a bundle (symbolize/bundle.h).  The first byte
 * picks what the rest is: 'm' a manifest (bundle_manifest_check), anything
 * else a tar, plain or compressed, unpacked into a fresh temporary
 * directory (bundle_unpack: every entry checked before anything is
 * written), then, when it unpacked, opened as a bundle (bundle_open: the
 * manifest, the tree's links, the perf.data) and removed.  Whatever the
 * input, nothing may land outside that directory: after each input the
 * directory's parent holds nothing new.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/bundle.h"
#include "tests/fuzz/fuzz.h"

/* The entries of dir (a count that changes if something lands there). */
static size_t
entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;

	if (d == NULL)
		return 0;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static char parent[64];

static void
remove_parent(void)
{
	rmdir(parent);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[128];
	struct perf_err err;
	struct bundle_in b;
	size_t before;

	if (size < 1)
		return 0;
	if (data[0] == 'm') {
		bundle_manifest_check("fuzz/perfnav-bundle", data + 1, size - 1, &err);
		return 0;
	}
	if (parent[0] == '\0') {
		snprintf(parent, sizeof parent, "/tmp/pn-fuzz-bundle.XXXXXX");
		if (mkdtemp(parent) == NULL)
			abort();
		atexit(remove_parent);
	}
	snprintf(dir, sizeof dir, "%s/b", parent);
	if (mkdir(dir, 0700) < 0)
		abort();
	before = entries(parent);
	memset(&b, 0, sizeof b);
	if (bundle_unpack("fuzz.tar", NULL, data + 1, size - 1, dir, &err) == 0 &&
	    bundle_open(dir, &b, &err) > 0)
		bundle_in_free(&b);
	if (entries(parent) != before)
		abort();	/* something landed beside the directory */
	if (bundle_rmtree(dir) != 0)
		abort();
	return 0;
}
