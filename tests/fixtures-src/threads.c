/*
 * threads.c - fixture workload: the main thread starts three worker threads
 * that each run a different named function for a fixed amount of work, then
 * joins them.  The workers sleep briefly between chunks so context switches
 * (sched_switch, --switch-events) show up as well.
 *
 * usage: threads [ROUNDS]     (default 100, about 0.1 s of CPU in total)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static int rounds = 100;

static void
nap(void)
{
	struct timespec ts = { 0, 200 * 1000 };

	nanosleep(&ts, NULL);
}

static NOINLINE uint64_t
worker_add(uint64_t x)
{
	for (int i = 0; i < 400000; i++)
		x += (uint64_t)i ^ (x >> 3);
	return x;
}

static NOINLINE uint64_t
worker_mul(uint64_t x)
{
	for (int i = 0; i < 400000; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static NOINLINE uint64_t
worker_div(uint64_t x)
{
	for (int i = 1; i < 100000; i++)
		x += (x + 977u) / (uint64_t)i;
	return x;
}

static void *
thread_main(void *arg)
{
	uint64_t (*fn)(uint64_t) = (uint64_t (*)(uint64_t))arg;
	uint64_t x = 1;

	for (int r = 0; r < rounds; r++) {
		x = fn(x);
		nap();
	}
	return (void *)(uintptr_t)(x & 1);
}

int
main(int argc, char **argv)
{
	uint64_t (*fns[3])(uint64_t) = { worker_add, worker_mul, worker_div };
	pthread_t tid[3];
	int odd = 0;

	if (argc > 1)
		rounds = atoi(argv[1]);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&tid[i], NULL, thread_main, (void *)fns[i]) != 0) {
			fprintf(stderr, "threads: cannot create thread\n");
			return 1;
		}
	for (int i = 0; i < 3; i++) {
		void *ret;

		pthread_join(tid[i], &ret);
		odd += (int)(uintptr_t)ret;
	}
	printf("threads: %d\n", odd);
	return 0;
}
