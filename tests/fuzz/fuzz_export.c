/*
 * fuzz_export.c: perfnav export's writers (export_print()) over a recording
 * loaded from memory, symbolized with the fixtures' build-id cache: the
 * speedscope JSON into memory, then checked to be text JSON can hold (valid
 * UTF-8, no control character but the newlines between lines: names from
 * the recording escaped), the folded lines and the gzipped pprof profile
 * to /dev/null.  The input's
 * size picks the off-CPU spans (when it has some) or the samples.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tests/fuzz/fuzz.h"
#include "tui/cmd/cmd.h"

/* Is buf[0..n) valid UTF-8 with no control character but newlines? */
static bool
json_text(const char *buf, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = text_unit(buf + i, n - i, TEXT_KEEP_NL);

		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session *s = fuzz_open(data, size, NULL);
	struct export_spec_args e = { EXPORT_SPEEDSCOPE, NULL, NULL, NULL, false, "fuzz\x01\xff.data", false, false, false };
	struct offcpu oc = { 0 };
	struct sym_opts so;
	struct symbolizer *z;
	char *buf = NULL;
	size_t len = 0;
	FILE *mp;

	if (s == NULL)
		return 0;
	fuzz_sym_opts(&so);
	z = symbolizer_new(s, &so);
	if (size % 2 && offcpu_build(s, &oc) == OFFCPU_OK)
		e.offcpu = &oc;
	mp = open_memstream(&buf, &len);
	if (mp == NULL || export_print(s, z, &e, mp) != 0)
		abort();
	fclose(mp);
	if (!json_text(buf, len))
		abort();	/* a raw control character or bad UTF-8 in the JSON */
	free(buf);
	e.format = EXPORT_FOLDED;
	if (export_print(s, z, &e, fuzz_null()) != 0)
		abort();
	e.format = EXPORT_SVG;
	e.inverted = size % 4 == 0;
	if (export_print(s, z, &e, fuzz_null()) != 0)
		abort();
	e.format = EXPORT_PPROF;	/* per sample, or per stack and thread */
	e.aggregate = size % 3 == 0;
	if (export_print(s, z, &e, fuzz_null()) != 0)
		abort();
	offcpu_free(&oc);
	symbolizer_free(z);
	session_close(s);
	return 0;
}
