/*
 * forkexec.c - fixture workload: the parent forks twice; the first child
 * keeps running the parent's image (fork only), the second execs this same
 * program with the argument "child" (fork + exec, a new comm).  Everyone
 * burns a fixed amount of CPU in a named function.
 *
 * usage: forkexec [child]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE uint64_t
spin(const char *who, int n)
{
	uint64_t x = (uint64_t)strlen(who);

	for (int i = 0; i < n; i++)
		x = (x << 5) + x + (uint64_t)i;
	return x;
}

static NOINLINE uint64_t
parent_work(void)
{
	return spin("parent", 40000000);
}

static NOINLINE uint64_t
forked_work(void)
{
	return spin("forked", 40000000);
}

static NOINLINE uint64_t
exec_child_work(void)
{
	return spin("exec-child", 40000000);
}

int
main(int argc, char **argv)
{
	char path[4096];
	ssize_t len;
	pid_t a, b;
	int st;

	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		printf("child: %llu\n", (unsigned long long)exec_child_work());
		return 0;
	}
	len = readlink("/proc/self/exe", path, sizeof path - 1);
	if (len <= 0)
		return 1;
	path[len] = '\0';

	a = fork();
	if (a == 0) {
		printf("forked: %llu\n", (unsigned long long)forked_work());
		fflush(stdout);
		_exit(0);
	}
	b = fork();
	if (b == 0) {
		execl(path, "forkexec", "child", (char *)NULL);
		_exit(127);
	}
	printf("parent: %llu\n", (unsigned long long)parent_work());
	if (a > 0)
		waitpid(a, &st, 0);
	if (b > 0)
		waitpid(b, &st, 0);
	return 0;
}
