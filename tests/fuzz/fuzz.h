/*
 * fuzz.h: what the libFuzzer harnesses in tests/fuzz/ share.  Each
 * harness (fuzz_*.c) defines LLVMFuzzerTestOneInput(); built with clang
 * and -fsanitize=fuzzer it is a fuzzer (make fuzz), linked with replay.c
 * and built like the rest it replays saved inputs (make check).
 *
 * An input holding FUZZ_SEP is several files cut there: a perf.data/
 * directory's 'data', data.0, data.1, ... for the harnesses that load a
 * recording, the payloads of COMPRESSED records for fuzz_zstd.
 */
#ifndef PERFNAV_TESTS_FUZZ_FUZZ_H
#define PERFNAV_TESTS_FUZZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"

#define FUZZ_SEP	"\n=PNSEP=\n"
#define FUZZ_SEP_LEN	(sizeof FUZZ_SEP - 1)
/* Parts of one input at most (the rest stays in the last part). */
#define FUZZ_MAX_PARTS	16

struct sym_opts;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Cut [data, data + size) at each FUZZ_SEP into at most max parts;
 * returns the number of parts (1 when there is no separator). */
size_t fuzz_split(const uint8_t *data, size_t size, struct session_mem *parts, size_t max);

/* Load an input as a recording (fuzz_split: one part is a file or pipe,
 * several a directory) with options o (NULL: defaults), NULL if it is none. */
struct session *fuzz_open(const uint8_t *data, size_t size, const struct session_opts *o);

/* Symbolization options that read only the fixtures' build-id cache
 * (tests/data/buildid): no kallsyms, no perf-PID.map, no file by path. */
void fuzz_sym_opts(struct sym_opts *so);

/* An output stream that discards what is written (/dev/null). */
FILE *fuzz_null(void);

/* The harnesses' names (fuzz_NAME.c), and the seed inputs made for them
 * from the recordings in datadir (tests/data): fn gets each one (a
 * harness, a name, the bytes, valid during the call).  Returns 0, or -1
 * (messages on stderr) when some recording could not be read. */
#define FUZZ_NHARNESS	10
extern const char *const fuzz_harnesses[FUZZ_NHARNESS];
typedef void (*seeds_fn)(void *arg, const char *harness, const char *name, const void *p,
    size_t n);
int seeds_make(const char *datadir, seeds_fn fn, void *arg);

/* Keep the compiler from dropping a computed value. */
void fuzz_use(uint64_t v);

/* The same for a double, by its bits: a double out of uint64_t's range may not be converted. */
void fuzz_use_double(double v);

#endif
