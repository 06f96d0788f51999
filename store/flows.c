/*
 * Flow pairing (see flows.h for the rule).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flows.h"

/* Endpoint order: by address text, then port. */
static int
endpoint_cmp(const char *a, uint32_t ap, const char *b, uint32_t bp)
{
	int c = strcmp(a, b);

	if (c != 0)
		return c;
	return (ap > bp) - (ap < bp);
}

void
flow_ckey(const struct flow_half *h, char *buf, size_t n)
{
	if (endpoint_cmp(h->src, h->sport, h->dst, h->dport) <= 0)
		snprintf(buf, n, "%u %s:%u %s:%u", h->protocol, h->src,
		    h->sport, h->dst, h->dport);
	else
		snprintf(buf, n, "%u %s:%u %s:%u", h->protocol, h->dst,
		    h->dport, h->src, h->sport);
}

/* Canonical order: by time, then direction and owner, so the result
 * never depends on the order the records arrived in. */
static int
half_cmp(const void *pa, const void *pb)
{
	const struct flow_half *a = pa, *b = pb;
	int c;

	if (a->ctime_s != b->ctime_s)
		return a->ctime_s < b->ctime_s ? -1 : 1;
	if ((c = endpoint_cmp(a->src, a->sport, b->src, b->sport)) != 0)
		return c;
	if (a->has_uid != b->has_uid)
		return a->has_uid - b->has_uid;
	if (a->uid != b->uid)
		return a->uid < b->uid ? -1 : 1;
	if (a->has_projid != b->has_projid)
		return a->has_projid - b->has_projid;
	if (a->projid != b->projid)
		return a->projid < b->projid ? -1 : 1;
	if (a->lseen_s != b->lseen_s)
		return a->lseen_s < b->lseen_s ? -1 : 1;
	return (a->bytes > b->bytes) - (a->bytes < b->bytes);
}

static int
same_owner(const struct flow_half *a, const struct flow_conv *c)
{
	return a->has_uid == c->has_uid && a->has_projid == c->has_projid &&
	    (!a->has_uid || a->uid == c->uid) &&
	    (!a->has_projid || a->projid == c->projid);
}

/* Pair one conversation: the records h[0..n) that overlap in time. */
static size_t
pair_conversation(const struct flow_half *h, size_t n, struct flow_conv *out)
{
	uint64_t bytes[2] = { 0, 0 }, in_bytes = 0, in_pkts = 0;
	size_t count[2] = { 0, 0 };
	uint64_t first = h[0].ctime_s, last = 0;
	int owned[2] = { 0, 0 }, out_dir, dir;
	size_t i, k, rows = 0, best = 0;
	const char *lo = h[0].src;
	uint32_t lo_port = h[0].sport;

	/* Direction 0 runs from the lower endpoint to the higher. */
	if (endpoint_cmp(h[0].dst, h[0].dport, lo, lo_port) < 0) {
		lo = h[0].dst;
		lo_port = h[0].dport;
	}
	for (i = 0; i < n; i++) {
		dir = endpoint_cmp(h[i].src, h[i].sport, lo, lo_port) != 0;
		owned[dir] |= h[i].has_uid || h[i].has_projid;
		bytes[dir] += h[i].bytes;
		count[dir]++;
		if (h[i].lseen_s > last)
			last = h[i].lseen_s;
	}
	if (owned[0] != owned[1])
		out_dir = owned[1];
	else if (owned[0] && bytes[0] != bytes[1])
		out_dir = bytes[1] > bytes[0];
	else if (!owned[0] && (count[0] == 0 || count[1] == 0))
		/* One ownerless direction: an inbound half, most likely. */
		out_dir = count[0] == 0 ? 0 : 1;
	else	/* the side that spoke first (h is in time order) */
		out_dir = endpoint_cmp(h[0].src, h[0].sport, lo, lo_port) != 0;

	for (i = 0; i < n; i++) {
		dir = endpoint_cmp(h[i].src, h[i].sport, lo, lo_port) != 0;
		if (dir != out_dir) {
			in_bytes += h[i].bytes;
			in_pkts += h[i].packets;
			continue;
		}
		for (k = 0; k < rows && !same_owner(&h[i], &out[k]); k++)
			;
		if (k == rows) {
			struct flow_conv *c = &out[rows++];

			memset(c, 0, sizeof(*c));
			c->protocol = h[i].protocol;
			memcpy(c->local, h[i].src, sizeof(c->local));
			c->local_port = h[i].sport;
			memcpy(c->remote, h[i].dst, sizeof(c->remote));
			c->remote_port = h[i].dport;
			c->has_uid = h[i].has_uid;
			c->uid = h[i].uid;
			c->has_projid = h[i].has_projid;
			c->projid = h[i].projid;
		}
		out[k].bytes_out += h[i].bytes;
		out[k].packets_out += h[i].packets;
	}
	if (rows == 0) {
		/* Only inbound records: the host is their destination. */
		struct flow_conv *c = &out[rows++];

		memset(c, 0, sizeof(*c));
		c->protocol = h[0].protocol;
		memcpy(c->local, h[0].dst, sizeof(c->local));
		c->local_port = h[0].dport;
		memcpy(c->remote, h[0].src, sizeof(c->remote));
		c->remote_port = h[0].sport;
		c->bytes_in = in_bytes;
		c->packets_in = in_pkts;
	} else {
		for (k = 1; k < rows; k++)
			if (out[k].bytes_out > out[best].bytes_out ||
			    (out[k].bytes_out == out[best].bytes_out &&
			    out[k].uid < out[best].uid))
				best = k;
		out[best].bytes_in = in_bytes;
		out[best].packets_in = in_pkts;
	}
	for (k = 0; k < rows; k++) {
		out[k].first_s = first;
		out[k].last_s = last;
		out[k].paired = count[0] > 0 && count[1] > 0;
	}
	return rows;
}

size_t
flow_pair(struct flow_half *h, size_t n, struct flow_conv *out)
{
	size_t i, start = 0, rows = 0;
	uint64_t end;

	if (n == 0)
		return 0;
	qsort(h, n, sizeof(*h), half_cmp);
	end = h[0].lseen_s;
	for (i = 1; i <= n; i++) {
		if (i < n && h[i].ctime_s <= end) {
			if (h[i].lseen_s > end)
				end = h[i].lseen_s;
			continue;
		}
		rows += pair_conversation(h + start, i - start, out + rows);
		if (i < n) {
			start = i;
			end = h[i].lseen_s;
		}
	}
	return rows;
}
