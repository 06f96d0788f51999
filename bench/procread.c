/*
 * bench/procread: the floor under `snap`, for bench/pacct.sh.
 *
 *   usage: procread
 *
 * Lists /proc and, for every process, reads /proc/PID/stat and
 * /proc/PID/task/PID/io (its main thread's own I/O) with one open, one
 * read and one close each: the two files `snap --cpu ticks` reads of a
 * single-threaded process, and no parsing, no
 * record, no output.  What snap costs per process above this is
 * extracct's own; what this costs is the kernel's, which no reader of
 * /proc gets under.  Prints the processes it read.  Linux only, as
 * snap is.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Open, read once, close; the bytes read or -1. */
static ssize_t
read_once(const char *path)
{
	char buf[4096];
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	return got;
}

int
main(void)
{
	struct dirent *e;
	char path[96];
	long n = 0;
	DIR *d;

	if ((d = opendir("/proc")) == NULL) {
		perror("procread: /proc");
		return 1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.32s/stat", e->d_name);
		if (read_once(path) <= 0)
			continue;	/* gone since the listing */
		snprintf(path, sizeof(path), "/proc/%.32s/task/%.32s/io",
		    e->d_name, e->d_name);
		read_once(path);
		n++;
	}
	closedir(d);
	printf("%ld\n", n);
	return 0;
}
