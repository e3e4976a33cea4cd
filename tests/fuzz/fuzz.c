/* fuzz.c: helpers shared by the harnesses (see fuzz.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolizer.h"
#include "tests/fuzz/fuzz.h"

#ifndef FUZZ_DATA
#error "FUZZ_DATA (the absolute path of tests/data) must be defined"
#endif

/* LeakSanitizer, when linked: libtraceevent keeps what it allocated for a
 * format it gives up on (a few bytes per garbled format, once per handle,
 * found by the script harness); not ours to free. */
const char *__lsan_default_suppressions(void);

const char *
__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

size_t
fuzz_split(const uint8_t *data, size_t size, struct session_mem *parts, size_t max)
{
	size_t n = 0;

	while (n + 1 < max) {
		const uint8_t *sep = size >= FUZZ_SEP_LEN ?
		    memmem(data, size, FUZZ_SEP, FUZZ_SEP_LEN) : NULL;

		if (sep == NULL)
			break;
		parts[n].base = data;
		parts[n].size = (size_t)(sep - data);
		n++;
		size -= (size_t)(sep - data) + FUZZ_SEP_LEN;
		data = sep + FUZZ_SEP_LEN;
	}
	parts[n].base = data;
	parts[n].size = size;
	return n + 1;
}

struct session *
fuzz_open(const uint8_t *data, size_t size, const struct session_opts *o)
{
	struct session_mem parts[FUZZ_MAX_PARTS];
	struct perf_err err;
	size_t n = fuzz_split(data, size, parts, FUZZ_MAX_PARTS);

	return session_open_mem("fuzz", parts, n, o, &err);
}

void
fuzz_sym_opts(struct sym_opts *so)
{
	memset(so, 0, sizeof *so);
	so->buildid_dir = FUZZ_DATA "/buildid";
	/* Paths that do not exist: nothing of this machine is read. */
	so->kallsyms = FUZZ_DATA "/no-such-kallsyms";
	so->perfmap_dir = FUZZ_DATA "/no-such-dir";
	so->symfs = FUZZ_DATA "/no-such-dir";
	so->no_debuginfod = true;	/* nor a debuginfod server's */
}

FILE *
fuzz_null(void)
{
	static FILE *fp;

	if (fp == NULL) {
		fp = fopen("/dev/null", "w");
		if (fp == NULL)
			abort();
	}
	return fp;
}

void
fuzz_use(uint64_t v)
{
	static volatile uint64_t sink;

	sink += v;
}

void
fuzz_use_double(double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof bits);
	fuzz_use(bits);
}
