/*
 * cpu.c - fixture workload: a single-threaded CPU loop through a few named
 * functions (fill -> mix -> reduce), a fixed amount of work.
 *
 * usage: cpu [ROUNDS]     (default 200, about 0.1 s)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define N 65536

static uint32_t buf[N];

static NOINLINE void
fill(uint32_t seed)
{
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = seed >> 8;
	}
}

static NOINLINE uint32_t
mix_one(uint32_t x)
{
	for (int k = 0; k < 8; k++)
		x = (x ^ (x >> 7)) * 0x9e3779b1u + (uint32_t)k;
	return x;
}

static NOINLINE void
mix(void)
{
	for (int i = 0; i < N; i++)
		buf[i] = mix_one(buf[i]);
}

static NOINLINE uint64_t
reduce(void)
{
	uint64_t sum = 0;

	for (int i = 0; i < N; i++)
		sum += buf[i] % 1009u;
	return sum;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	uint64_t total = 0;

	for (int r = 0; r < rounds; r++) {
		fill((uint32_t)r + 1);
		mix();
		total += reduce();
	}
	printf("cpu: %llu\n", (unsigned long long)total);
	return 0;
}
