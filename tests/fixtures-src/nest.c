/*
 * nest: a chain of processes, each the child of the one before (argv[1]
 * levels deep, default 12); every level spins a little, the deepest most,
 * so the processes pane has a deep tree with samples at its leaves.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void
spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

int
main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 12;

	for (int d = 0; d < depth; d++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid > 0) {
			spin(200000);
			waitpid(pid, NULL, 0);
			return 0;
		}
	}
	spin(20000000);
	return 0;
}
