/*
 * Flow conversations: pairing the two one-way halves of a network flow
 * (docs/schema.md).
 *
 * The kernel's flowacct writes one record per direction, and only the
 * outbound one carries the owner (uid, project).  Several records may
 * exist per direction (one per owner), and a flow may be written again
 * later with the totals so far; the store keeps the latest record per
 * (direction, creation time, owner), so pairing sees each once.
 *
 * The rule, for the records of one unordered 5-tuple:
 *   1. records whose [creation, last-seen] ranges overlap form one
 *      conversation;
 *   2. the outbound direction is the one whose records carry an owner
 *      (if both do, the one with more bytes; if neither, the direction of
 *      the earliest record: the side that spoke first);
 *   3. one row per outbound owner: that owner's bytes and packets out;
 *      the inbound bytes and packets go to the owner with the most
 *      bytes out (ties: the lowest uid), 0 to the others, so every byte
 *      is counted exactly once;
 *   4. a conversation with no inbound records is one-sided (paired 0),
 *      and one with only inbound records is a row with no owner.
 * Pure logic: the flow sink (ingest_flows.c) reads the records of a
 * 5-tuple and stores the rows.
 */
#ifndef FLOWS_H
#define FLOWS_H

#include <stddef.h>
#include <stdint.h>

#define FLOW_ADDRLEN	48	/* inet_ntop text, with room */

struct flow_half {
	uint32_t	 protocol;
	char		 src[FLOW_ADDRLEN];
	uint32_t	 sport;
	char		 dst[FLOW_ADDRLEN];
	uint32_t	 dport;
	uint64_t	 ctime_s, lseen_s;
	uint64_t	 bytes, packets;
	int		 has_uid, has_projid;
	uint32_t	 uid, projid;
};

struct flow_conv {
	uint32_t	 protocol;
	char		 local[FLOW_ADDRLEN];
	uint32_t	 local_port;
	char		 remote[FLOW_ADDRLEN];
	uint32_t	 remote_port;
	int		 has_uid, has_projid;
	uint32_t	 uid, projid;
	uint64_t	 first_s, last_s;
	uint64_t	 bytes_out, packets_out;
	uint64_t	 bytes_in, packets_in;
	int		 paired;
};

/*
 * Pair the n records of one unordered 5-tuple (sorted in place).  Writes
 * at most n rows to out; returns how many.
 */
size_t	flow_pair(struct flow_half *h, size_t n, struct flow_conv *out);

/* The unordered 5-tuple key of a record, for grouping: "6 a:1 b:2". */
void	flow_ckey(const struct flow_half *h, char *buf, size_t n);

#endif
