/*
 * pingpong: two threads passing a byte through two pipes N times, so each
 * blocks on a read for every round trip: about four context switches a
 * round, for bench/offcpu.sh (a sched_switch recording of a million
 * switches).  Not part of the build.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ab[2], ba[2];
static long rounds;

static void *
pong(void *arg)
{
	char c;

	(void)arg;
	for (long i = 0; i < rounds; i++) {
		if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	char c = 'x';

	rounds = argc > 1 ? atol(argv[1]) : 250000;
	if (pipe(ab) < 0 || pipe(ba) < 0 || pthread_create(&t, NULL, pong, NULL) != 0)
		return 1;
	for (long i = 0; i < rounds; i++) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	}
	pthread_join(t, NULL);
	printf("%ld rounds\n", rounds);
	return 0;
}
