/*
 * offcpu.c - fixture workload for off-CPU time: the main thread starts
 * five threads that each spend most of their time off CPU in a different
 * way, for a fixed number of rounds (about 0.3 s in all):
 *
 *   holder      locks a mutex and naps with it held (nanosleep)
 *   waiter      locks the same mutex: blocks in the kernel (futex)
 *   sleeper     naps (nanosleep) between short bursts of work
 *   cond_wait   waits on a condition variable the main thread signals
 *   pipe_read   reads a pipe the main thread writes
 *
 * usage: offcpu [ROUNDS]     (default 30)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static int rounds = 30;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int cv_ticks, cv_done;
static int pipefd[2];
static volatile uint64_t sink;

static NOINLINE void
burn(int n)
{
	uint64_t x = (uint64_t)n;

	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink += x;
}

static NOINLINE void
nap_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

static NOINLINE void *
holder(void *arg)
{
	(void)arg;
	for (int r = 0; r < rounds; r++) {
		pthread_mutex_lock(&lock);
		burn(20000);
		nap_us(6000);
		pthread_mutex_unlock(&lock);
		nap_us(1000);
	}
	return NULL;
}

static NOINLINE void
take_lock(void)
{
	pthread_mutex_lock(&lock);
	burn(10000);
	pthread_mutex_unlock(&lock);
}

static NOINLINE void *
waiter(void *arg)
{
	(void)arg;
	for (int r = 0; r < rounds; r++) {
		take_lock();
		nap_us(2000);
	}
	return NULL;
}

static NOINLINE void *
sleeper(void *arg)
{
	(void)arg;
	for (int r = 0; r < rounds; r++) {
		burn(30000);
		nap_us(8000);
	}
	return NULL;
}

static NOINLINE void *
cond_wait(void *arg)
{
	int seen = 0;

	(void)arg;
	pthread_mutex_lock(&cv_lock);
	while (!cv_done) {
		while (cv_ticks == seen && !cv_done)
			pthread_cond_wait(&cv, &cv_lock);
		seen = cv_ticks;
		pthread_mutex_unlock(&cv_lock);
		burn(5000);
		pthread_mutex_lock(&cv_lock);
	}
	pthread_mutex_unlock(&cv_lock);
	return NULL;
}

static NOINLINE void *
pipe_read(void *arg)
{
	char buf[16];

	(void)arg;
	while (read(pipefd[0], buf, sizeof buf) > 0)
		burn(5000);
	return NULL;
}

static NOINLINE void
tick(int r)
{
	char c = (char)r;

	burn(10000);
	pthread_mutex_lock(&cv_lock);
	cv_ticks++;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&cv_lock);
	if (write(pipefd[1], &c, 1) != 1)
		abort();
}

int
main(int argc, char **argv)
{
	void *(*fns[])(void *) = { holder, waiter, sleeper, cond_wait, pipe_read };
	pthread_t t[5];

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (pipe(pipefd) != 0)
		return 1;
	for (int i = 0; i < 5; i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL) != 0)
			return 1;
	for (int r = 0; r < rounds; r++) {
		tick(r);
		nap_us(10000);
	}
	pthread_mutex_lock(&cv_lock);
	cv_done = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&cv_lock);
	close(pipefd[1]);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
