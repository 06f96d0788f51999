/*
 * A host's label: what names it in every published view's host column
 * (docs/schema.md "Host labels"), in SQL that SQLite and PostgreSQL
 * both run, so that a report prints the same bytes on either engine.
 *
 * Hosts are told apart by hosts.ident; their names need not be unique
 * (two machines called web1 in a merged or central database).  A report
 * grouped by a bare name would add such hosts up into one row, so the
 * label is:
 *   1. the name, where no other host in the database has it: a
 *      database of one host, or of hosts named apart, reads as it
 *      always did;
 *   2. else NAME@SHORT, SHORT from the identity: the first 8 hex
 *      digits of the machine id (MACHINEID:NAME), the configured
 *      host_id as written, "name" for a name:NAME identity, and ":ID"
 *      (the row's host_id) for a row with no identity yet (a database
 *      of before schema 12 that no ingest has filled);
 *   3. else, where step 2 gives two hosts one label (two machine ids
 *      of one name that share their first 8 digits, a host_id written
 *      as 8 hex digits or as "name"), NAME@IDENT, the whole identity
 *      (or ":ID"), for each of them.
 * Step 3's labels are distinct (identities are unique) and none equals
 * a label of step 2 while no host name holds an '@': a configured id
 * has no ':', the whole of any other identity does, and the SHORT of a
 * configured id is all of it, so a configured id that equals another's
 * SHORT took step 3 with it.
 *
 * The label depends on the other hosts, so it is not a column a writer
 * could fill from one row: SQLite keeps it in hosts.label, set by
 * triggers from HOST_LABELS_SQL whenever a host is added, renamed,
 * given an identity or deleted (the views then read it at no cost per
 * row); PostgreSQL's views compute it (fleet/central_views.c), so that
 * concurrent pushes need no lock for it.
 */
#ifndef HOSTLABEL_SQL_H
#define HOSTLABEL_SQL_H

/* Every host's label: rows (host_id, label). */
#define HOST_LABELS_SQL \
	"WITH s AS (SELECT host_id, name," \
	"      coalesce(ident, ':' || host_id) AS id," \
	"      CASE WHEN ident IS NULL THEN ':' || host_id" \
	"        WHEN substr(ident, 1, 5) = 'name:' THEN 'name'" \
	"        WHEN substr(ident, 33, 1) = ':' THEN substr(ident, 1, 8)" \
	"        ELSE ident END AS short," \
	"      count(*) OVER (PARTITION BY name) AS n FROM hosts)," \
	"    c AS (SELECT host_id, name, id, CASE WHEN n = 1 THEN name" \
	"      ELSE name || '@' || short END AS c1 FROM s)" \
	"  SELECT host_id, CASE WHEN count(*) OVER (PARTITION BY c1) = 1" \
	"      THEN c1 ELSE name || '@' || id END AS label FROM c"

#endif
