/*
 * fuzz_script.c: the `perfnav script` formatter (script_print()) over a
 * recording loaded from memory, symbolized with the fixtures' build-id
 * cache, written to /dev/null.  The input's size modulo 3 picks the
 * options: script's defaults with callchains; every field (srcline too)
 * with -g; every field but srcline with -G.
 */
#include "config.h"

#include <stdlib.h>

#include "symbolize/symbolizer.h"
#include "tests/fuzz/fuzz.h"
#include "tui/cmd/cmd.h"

#define ALL "comm,pid,tid,cpu,time,period,event,addr,ip,sym,symoff,dso"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session *s = fuzz_open(data, size, NULL);
	struct sym_opts so;
	struct symbolizer *z;
	int rc;

	if (s == NULL)
		return 0;
	fuzz_sym_opts(&so);
	z = symbolizer_new(s, &so);
	switch (size % 3) {
	case 0:
		rc = script_print(s, z, NULL, true, 0, fuzz_null());
		break;
	case 1:
		rc = script_print(s, z, ALL ",srcline", true, 0, fuzz_null());
		break;
	default:
		rc = script_print(s, z, ALL, false, 0, fuzz_null());
		break;
	}
	if (rc != 0)
		abort();
	symbolizer_free(z);
	session_close(s);
	return 0;
}
