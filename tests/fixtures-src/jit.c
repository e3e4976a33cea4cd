/*
 * jit.c - test workload for perfnav bundle (tests/bundle.sh): x86-64 code
 * copied into an anonymous executable mapping and run there, with a
 * perf-PID.map naming it, as a JIT runtime writes one; and many other
 * lines the samples do not hit.
 *
 * usage: jit DIR [CALLS]     (writes DIR/perf-PID.map; default 20 calls)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* mov eax,edi; mov ecx,1<<24; 1: imul eax,eax,0x9e3779b1; add eax,ecx;
 * dec ecx; jnz 1b; ret */
static const uint8_t loop_code[] = {
	0x89, 0xf8, 0xb9, 0x00, 0x00, 0x00, 0x01, 0x69, 0xc0, 0xb1, 0x79, 0x37, 0x9e,
	0x01, 0xc8, 0xff, 0xc9, 0x75, 0xf4, 0xc3,
};

int
main(int argc, char **argv)
{
	int calls = argc > 2 ? atoi(argv[2]) : 20;
	uint8_t *mem;
	uint32_t (*fn)(uint32_t);
	uint32_t x = 1;
	char path[4096];
	FILE *fp;

	if (argc < 2) {
		fprintf(stderr, "usage: jit DIR [CALLS]\n");
		return 2;
	}
	mem = mmap(NULL, 65536, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem + 4096, loop_code, sizeof loop_code);
	snprintf(path, sizeof path, "%s/perf-%d.map", argv[1], (int)getpid());
	fp = fopen(path, "w");
	if (fp == NULL)
		return 1;
	for (int i = 0; i < 1000; i++)	/* functions never run */
		fprintf(fp, "%lx 10 jit_cold_%d\n", (unsigned long)(uintptr_t)(mem + 8192 + 16 * i), i);
	fprintf(fp, "%lx %zx jit_hot_loop\n", (unsigned long)(uintptr_t)(mem + 4096),
	    sizeof loop_code);
	fclose(fp);
	fn = (uint32_t (*)(uint32_t))(uintptr_t)(mem + 4096);
	for (int i = 0; i < calls; i++)
		x = fn(x);
	printf("%u\n", x);
	return 0;
}
