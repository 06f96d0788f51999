/*
 * Workloads with known figures, for the acctd and capture tests
 * (extracct-test fields|threads|spin|switches|io).  Each prints what it
 * measured of itself so the test can hold the exit record against it.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

static uint64_t
cpu_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin until this thread has used ms of CPU. */
static void
burn_ms(unsigned ms)
{
	uint64_t end = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000ull;
	volatile uint64_t x = 0;

	while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
	(void)x;	/* volatile: the sums are the work, never read */
}

/* "pid user_us sys_us" of the whole process, from getrusage. */
static void
print_rusage(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("%ld %lld %lld\n", (long)getpid(),
	    (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
	    (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec);
	fflush(stdout);
}

/* Read file whole; -1 if it cannot be opened. */
static int
read_whole(const char *file)
{
	static _Thread_local char buf[65536];
	ssize_t n;
	int fd = open(file, O_RDONLY);

	if (fd == -1)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return 0;
}

/* Read file whole, sleep 300 ms, burn 300 ms, report, exit 3. */
static int
fields(const char *file)
{
	if (read_whole(file) != 0) {
		perror(file);
		return 1;
	}
	usleep(300000);
	burn_ms(300);
	print_rusage();
	return 3;
}

struct burner {
	pthread_t	 t;
	unsigned	 ms;
	pid_t		 tid;
};

static void *
thread_burn(void *arg)
{
	struct burner *b = arg;

	b->tid = gettid();
	burn_ms(b->ms);
	return NULL;
}

/*
 * n threads burning ms each, the main thread too, which then burns
 * after_ms more alone (its threads exited); prints the rusage line,
 * then the threads' ids on a second line; exit 0.
 */
static int
threads(int n, unsigned ms, unsigned after_ms)
{
	struct burner b[64];
	int i;

	if (n < 1 || n > 64)
		return 2;
	for (i = 0; i < n; i++) {
		b[i].ms = ms;
		if (pthread_create(&b[i].t, NULL, thread_burn, &b[i]) != 0)
			return 1;
	}
	burn_ms(ms);
	for (i = 0; i < n; i++)
		pthread_join(b[i].t, NULL);
	burn_ms(after_ms);
	print_rusage();
	for (i = 0; i < n; i++)
		printf("%s%ld", i ? " " : "", (long)b[i].tid);
	printf("\n");
	return 0;
}

/* Alive for s seconds, busy a quarter of the time. */
static int
spin(unsigned s)
{
	time_t end = time(NULL) + (time_t)s;

	while (time(NULL) < end) {
		burn_ms(50);
		usleep(150000);
	}
	print_rusage();
	return 0;
}

static void *
thread_sleeps(void *arg)
{
	struct timespec ms = { 0, 1000000 };
	int i, k = *(int *)arg;

	for (i = 0; i < k; i++)
		nanosleep(&ms, NULL);	/* a voluntary switch each */
	return NULL;
}

/*
 * n threads that sleep k times each (k voluntary context switches) and
 * exit; then "ready" and s seconds of sleep, for a snapshot to count
 * the exited threads' switches.
 */
static int
switches(int n, int k, unsigned s)
{
	pthread_t t[64];
	int i;

	if (n < 1 || n > 64)
		return 2;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_sleeps, &k) != 0)
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("ready\n");
	fflush(stdout);
	sleep(s);
	return 0;
}

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t io_done = PTHREAD_COND_INITIALIZER;
static int io_read, io_end;

static void *
thread_reads(void *arg)
{
	int rc = read_whole(arg);

	pthread_mutex_lock(&io_lock);
	io_read += rc == 0;
	pthread_cond_broadcast(&io_done);
	while (!io_end)		/* alive until the main thread ends */
		pthread_cond_wait(&io_done, &io_lock);
	pthread_mutex_unlock(&io_lock);
	return NULL;
}

/*
 * A child that reads file whole and is reaped, then n threads (0 to 64)
 * that read it once each and stay alive, and the main thread reads it
 * too; then "ready" and s seconds of sleep, for a snapshot.  The
 * process's own I/O is n + 1 readings of file; the kernel's
 * /proc/PID/io adds the reaped child's.
 */
static int
io(const char *file, int n, unsigned s)
{
	pthread_t t[64];
	pid_t child;
	int i, status;

	if (n < 0 || n > 64)
		return 2;
	if ((child = fork()) == -1)
		return 1;
	if (child == 0)
		_exit(read_whole(file) == 0 ? 0 : 1);
	if (waitpid(child, &status, 0) != child || status != 0)
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_reads, (void *)file) !=
		    0)
			return 1;
	if (read_whole(file) != 0)
		return 1;
	pthread_mutex_lock(&io_lock);
	while (io_read < n)
		pthread_cond_wait(&io_done, &io_lock);
	pthread_mutex_unlock(&io_lock);
	printf("ready\n");
	fflush(stdout);
	sleep(s);
	pthread_mutex_lock(&io_lock);
	io_end = 1;
	pthread_cond_broadcast(&io_done);
	pthread_mutex_unlock(&io_lock);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static void *
thread_reads_exits(void *arg)
{
	return (void *)(intptr_t)read_whole(arg);
}

/*
 * n threads (1 to 64) that each read file whole and exit, joined; no
 * child.  Then "ready" and s seconds of sleep, for a snapshot: the
 * process's own I/O is n readings of file, all of it its exited
 * threads'.
 */
static int
io_exits(const char *file, int n, unsigned s)
{
	pthread_t t[64];
	void *rc;
	int i;

	if (n < 1 || n > 64)
		return 2;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_reads_exits,
		    (void *)file) != 0)
			return 1;
	for (i = 0; i < n; i++)
		if (pthread_join(t[i], &rc) != 0 || rc != NULL)
			return 1;
	printf("ready\n");
	fflush(stdout);
	sleep(s);
	return 0;
}

int
workload_main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "io-exits") == 0)
		return io_exits(argv[2], atoi(argv[3]), (unsigned)atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "io") == 0)
		return io(argv[2], atoi(argv[3]), (unsigned)atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "switches") == 0)
		return switches(atoi(argv[2]), atoi(argv[3]),
		    (unsigned)atoi(argv[4]));
	if (argc == 3 && strcmp(argv[1], "fields") == 0)
		return fields(argv[2]);
	if (argc == 4 && strcmp(argv[1], "threads") == 0)
		return threads(atoi(argv[2]), (unsigned)atoi(argv[3]), 0);
	if (argc == 5 && strcmp(argv[1], "threads") == 0)
		return threads(atoi(argv[2]), (unsigned)atoi(argv[3]),
		    (unsigned)atoi(argv[4]));
	if (argc == 3 && strcmp(argv[1], "spin") == 0)
		return spin((unsigned)atoi(argv[2]));
	return -1;
}
