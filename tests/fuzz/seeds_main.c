/*
 * seeds_main.c: writes the harnesses' seed corpora (seeds.c) to files,
 * for make fuzz:
 *
 *	seeds DATADIR OUTDIR
 *
 * makes OUTDIR/<harness>/<name> for every harness and seed.  Exits 0, or 1
 * (message on stderr) when something cannot be read or written.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

static int status;

static void
write_seed(void *arg, const char *harness, const char *name, const void *p, size_t n)
{
	const char *outdir = arg;
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s/%s", outdir, harness, name);
	fp = fopen(path, "wb");
	if (fp == NULL) {
		fprintf(stderr, "seeds: %s: %s\n", path, strerror(errno));
		status = 1;
		return;
	}
	if (fwrite(p, 1, n, fp) != n || fclose(fp) != 0) {
		fprintf(stderr, "seeds: %s: write error\n", path);
		status = 1;
	}
}

int
main(int argc, char **argv)
{
	char path[4096];

	if (argc != 3) {
		fprintf(stderr, "usage: seeds DATADIR OUTDIR\n");
		return 2;
	}
	if (mkdir(argv[2], 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "seeds: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < FUZZ_NHARNESS; i++) {
		snprintf(path, sizeof path, "%s/%s", argv[2], fuzz_harnesses[i]);
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			fprintf(stderr, "seeds: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	if (seeds_make(argv[1], write_seed, argv[2]) < 0)
		status = 1;
	return status;
}
