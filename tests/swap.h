/* swap.h: byte-swapped copies of perf.data files, for tests. */
#ifndef PERFNAV_TESTS_SWAP_H
#define PERFNAV_TESTS_SWAP_H

#include <stddef.h>
#include <stdint.h>

struct pdbuf;

/*
 * Write a big-endian copy of the little-endian file-mode recording src into
 * out.  Feature sections it cannot swap are dropped from the copy.
 * Returns 0, or -1 if src is not a file it can handle.
 */
int swap_perf_file(const uint8_t *src, size_t len, struct pdbuf *out);

#endif
