/*
 * Host identity: the name a host has across a fleet, stored with each
 * host row (hosts.ident, docs/schema.md "Host identity") so that the
 * databases of many hosts can be merged (merge.h), and later pushed to
 * one server, without two hosts ever being taken for one.
 *
 * The rule, in the order it is tried for this machine:
 *   1. the configuration's host_id, as written: the admin's promise that
 *      it is unique in the fleet; it survives a rename or a reinstall
 *      that keeps the configuration;
 *   2. /etc/machine-id (32 hex digits, systemd's and dbus's) and the
 *      host name: "MACHINEID:NAME".  The machine-id alone is not
 *      enough (cloned images share one until it is regenerated), nor is
 *      the name (reused after a rebuild); together they are unique in
 *      practice and stable for as long as neither changes;
 *   3. without either (no /etc/machine-id: the BSDs, macOS, Solaris), the
 *      name alone: "name:NAME".
 * A host named in a log that is not this machine (an exacct header's
 * hostname from elsewhere, ingest --host OTHER) can be known only by
 * that name: "name:NAME", which says it was not verified.  A configured
 * host_id has no ':' and a machine identity starts with 32 hex digits,
 * so the three forms never meet.
 */
#ifndef HOSTID_H
#define HOSTID_H

#include <stddef.h>

#define HOSTID_MAX	600	/* an identity's bytes, with the NUL */
#define HOSTID_CONFIG_MAX 255	/* a configured host_id's bytes */

/*
 * Is s a host_id the configuration may set: 1 to 255 bytes of printable
 * ASCII with no blank and no ':'?  0, or -1 with why[n] saying what is
 * wrong.
 */
int	hostid_check(const char *s, char *why, size_t n);

/*
 * This machine's identity into buf[n] (n >= HOSTID_MAX): configured (a
 * host_id that passed hostid_check; NULL or "": none), else the machine
 * id read from machine_id_path (a plain file, absent on many systems)
 * and name, else "name:NAME".  Returns buf.
 */
char	*hostid_self(const char *configured, const char *machine_id_path,
	    const char *name, char *buf, size_t n);

/* The identity of a host known only by name: "name:NAME"; returns buf. */
char	*hostid_name(const char *name, char *buf, size_t n);

#endif
