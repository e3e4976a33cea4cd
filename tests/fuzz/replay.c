/*
 * replay.c: a main() for a harness outside libFuzzer (make check builds
 * one per harness, tests/fuzz/replay_NAME).  Without arguments it replays
 * the harness's saved inputs, tests/fuzz/regress/NAME/, and its seeds made
 * from tests/data (seeds.c).  Else each argument is a file, or a directory
 * whose files (and subdirectories' files) are taken in name order; each
 * file is read and given to LLVMFuzzerTestOneInput() once.  A missing argument is skipped (an empty regress/ directory may
 * not survive every copy).  Exits 0 when every input ran; a harness that
 * finds a bug aborts (or a sanitizer stops the run), naming no input: the
 * input is printed to stderr before it runs.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

#if !defined(FUZZ_HARNESS) || !defined(FUZZ_REGRESS) || !defined(FUZZ_DATA)
#error "FUZZ_HARNESS (\"load\"), FUZZ_REGRESS and FUZZ_DATA must be defined"
#endif

static unsigned long nrun;

static int
run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (fp == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (buf == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	/* An exact-size copy, as libFuzzer gives: reads past it are caught. */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (exact == NULL)
			abort();
		memcpy(exact, buf, len);
		free(buf);
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	nrun++;
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
run_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (stat(path, &st) < 0)
		return 0;	/* missing: nothing to replay */
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	d = opendir(path);
	if (d == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;	/* ., .. and .gitkeep */
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof *names);
			if (names == NULL)
				abort();
		}
		if (asprintf(&names[n], "%s/%s", path, de->d_name) < 0)
			abort();
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		if (run_path(names[i]) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

static void
run_seed(void *arg, const char *harness, const char *name, const void *p, size_t n)
{
	uint8_t *exact;

	if (strcmp(harness, FUZZ_HARNESS) != 0)
		return;
	exact = malloc(n ? n : 1);
	if (exact == NULL)
		abort();
	memcpy(exact, p, n);
	fprintf(stderr, "replay: seed %s (%zu bytes)\n", name, n);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	nrun++;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		rc = run_path(FUZZ_REGRESS "/" FUZZ_HARNESS) < 0;
		if (seeds_make(FUZZ_DATA, run_seed, NULL) < 0)
			rc = 1;
	}
	for (int i = 1; i < argc; i++)
		if (run_path(argv[i]) < 0)
			rc = 1;
	printf("%s: %lu inputs replayed\n", argc > 0 ? argv[0] : "replay", nrun);
	return rc;
}
