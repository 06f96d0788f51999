/*
 * bench/forkloop: processes that exit at once, as fast as the machine
 * makes them, for bench/acctd.sh.
 *
 *   usage: forkloop N
 *
 * Forks N children that _exit(0) at once, keeping up to 64 alive (one at
 * a time leaves a core idle while the other runs the child), reaps them
 * all, and prints the seconds it took and the exits per second.  A shell
 * loop of /bin/true makes about 1,000 a second, of which exec is most:
 * too few to load an accounting daemon.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define IN_FLIGHT	64

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	long n, started = 0, alive = 0;
	double t0, t;

	if (argc != 2 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: forkloop N\n");
		return 2;
	}
	t0 = now();
	while (started < n || alive > 0) {
		if (started < n && alive < IN_FLIGHT) {
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			if (pid == -1) {
				perror("forkloop: fork");
				return 1;
			}
			started++;
			alive++;
			continue;
		}
		if (wait(NULL) == -1) {
			perror("forkloop: wait");
			return 1;
		}
		alive--;
	}
	t = now() - t0;
	printf("%ld exits in %.6f s, %.0f a second\n", n, t, (double)n / t);
	return 0;
}
