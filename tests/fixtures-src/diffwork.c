/*
 * diffwork.c - fixture workload for perfnav diff: the same program built
 * twice with its hot path moved.  Built with -DVARIANT=0 ("before") the
 * time goes mostly to slow_path and some to old_only; with -DVARIANT=1
 * ("after") slow_path got faster, fast_path slower, old_only is gone and
 * new_only appears.  steady does the same work in both.
 *
 * usage: diffwork [ROUNDS]     (default 600, about 0.1 s)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef VARIANT
#define VARIANT 0
#endif

#define NOINLINE __attribute__((noinline))
#define N 16384

static uint32_t buf[N];

static NOINLINE uint32_t
spin(uint32_t x, int k)
{
	for (int i = 0; i < k; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b1u + (uint32_t)i;
	return x;
}

static NOINLINE void
slow_path(void)
{
	for (int i = 0; i < N; i++)
		buf[i] = spin(buf[i], VARIANT ? 4 : 12);
}

static NOINLINE void
fast_path(void)
{
	for (int i = 0; i < N; i++)
		buf[i] = spin(buf[i] + 1, VARIANT ? 8 : 3);
}

static NOINLINE uint64_t
steady(void)
{
	uint64_t sum = 0;

	for (int i = 0; i < N; i++)
		sum += buf[i] % 1009u;
	return sum;
}

#if VARIANT
static NOINLINE void
new_only(void)
{
	for (int i = 0; i < N; i += 2)
		buf[i] ^= spin(buf[i], 2);
}
#else
static NOINLINE void
old_only(void)
{
	for (int i = 1; i < N; i += 2)
		buf[i] ^= spin(buf[i], 3);
}
#endif

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 600;
	uint64_t total = 0;

	for (int i = 0; i < N; i++)
		buf[i] = (uint32_t)i * 2654435761u;
	for (int r = 0; r < rounds; r++) {
		slow_path();
		fast_path();
#if VARIANT
		new_only();
#else
		old_only();
#endif
		total += steady();
	}
	printf("%llu\n", (unsigned long long)total);
	return 0;
}
