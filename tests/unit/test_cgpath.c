/*
 * cgpath_keys: the unit, container and pod a cgroup path names, by
 * the layouts systemd, docker, podman, containerd, CRI-O and the
 * kubelet write; anything else leaves the keys empty.
 */
#include <string.h>

#include "check.h"
#include "../../parsers/cgpath.h"

#define H64 "3f4e5d6c7b8a99887766554433221100ffeeddccbbaa00112233445566778899"

static void
keys(const char *name, const char *path, const char *unit,
    const char *container, const char *pod)
{
	struct cgpath_keys k;
	int ok;

	memset(&k, 'x', sizeof(k));
	cgpath_keys(path, &k);
	ok = strcmp(k.unit, unit) == 0 && strcmp(k.container, container) == 0
	    && strcmp(k.pod, pod) == 0;
	if (!ok)
		fprintf(stderr, "cgpath %s: got unit '%s' container '%s' "
		    "pod '%s', want '%s' '%s' '%s'\n", path, k.unit,
		    k.container, k.pod, unit, container, pod);
	CHECK(name, ok);
}

void
suite_cgpath(void)
{
	keys("service", "/system.slice/nginx.service", "nginx.service", "",
	    "");
	keys("session scope", "/user.slice/user-1000.slice/session-4.scope",
	    "session-4.scope", "", "");
	keys("slice only", "/user.slice/user-1000.slice",
	    "user-1000.slice", "", "");
	keys("root", "/", "", "", "");
	keys("empty", "", "", "", "");
	keys("unknown layout", "/machine/qemu-1-vm/emulator", "", "", "");
	keys("docker systemd", "/system.slice/docker-" H64 ".scope",
	    "docker-" H64 ".scope", "3f4e5d6c7b8a", "");
	keys("docker cgroupfs", "/docker/" H64, "", "3f4e5d6c7b8a", "");
	keys("docker short id", "/docker/3f4e5d6c7b8a", "", "", "");
	keys("hex not under docker", "/foo/" H64, "", "", "");
	keys("podman", "/machine.slice/libpod-" H64 ".scope",
	    "libpod-" H64 ".scope", "3f4e5d6c7b8a", "");
	keys("podman conmon", "/machine.slice/libpod-conmon-" H64 ".scope",
	    "libpod-conmon-" H64 ".scope", "", "");
	keys("crio", "/kubepods.slice/kubepods-besteffort.slice/"
	    "kubepods-besteffort-pod0a1b2c3d_4e5f_6071_8293_a4b5c6d7e8f9.slice/"
	    "crio-" H64 ".scope", "crio-" H64 ".scope", "3f4e5d6c7b8a",
	    "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
	keys("cri-containerd burstable", "/kubepods.slice/"
	    "kubepods-burstable.slice/"
	    "kubepods-burstable-pod0a1b2c3d_4e5f_6071_8293_a4b5c6d7e8f9.slice/"
	    "cri-containerd-" H64 ".scope", "cri-containerd-" H64 ".scope",
	    "3f4e5d6c7b8a", "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
	keys("guaranteed pod", "/kubepods.slice/"
	    "kubepods-pod0a1b2c3d_4e5f_6071_8293_a4b5c6d7e8f9.slice",
	    "kubepods-pod0a1b2c3d_4e5f_6071_8293_a4b5c6d7e8f9.slice", "",
	    "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
	keys("kubepods cgroupfs", "/kubepods/burstable/"
	    "pod0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9/" H64, "", "3f4e5d6c7b8a",
	    "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
	keys("pod not under kubepods", "/x/"
	    "pod0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9", "", "", "");
	keys("bad uid", "/kubepods.slice/kubepods-burstable-podzz.slice",
	    "kubepods-burstable-podzz.slice", "", "");
	keys("newline kept", "/a\nb.scope", "a\nb.scope", "", "");
	keys("suffix alone", "/.scope", "", "", "");
}
