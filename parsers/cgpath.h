/*
 * What a cgroup path says about who ran in it: the systemd unit, the
 * container and the Kubernetes pod, by the layouts systemd, docker,
 * podman, containerd (CRI), CRI-O and the kubelet write.  One pure
 * function, so ingest and the tests read a path the same way.
 */
#ifndef CGPATH_H
#define CGPATH_H

struct cgpath_keys {
	char	 unit[256];	/* innermost .service/.scope/.slice; "" none */
	char	 container[13];	/* 12 hex digits; "" none */
	char	 pod[37];	/* the pod's uid, with dashes; "" none */
};

/*
 * The keys of path (as /proc/PID/cgroup gives it, "/a/b").  A layout
 * not known leaves a key empty: nothing is guessed.
 */
void	cgpath_keys(const char *path, struct cgpath_keys *k);

#endif
