/*
 * central_views (see central_views.h).  The seed: v_hosts, as the local
 * one (schema 12) shows each host.  The report layer's views are added
 * here, keeping the local views' names and columns.
 */
#include "central_views.h"

const char central_views_sql[] =
    "DROP VIEW IF EXISTS v_hosts CASCADE;"
    "CREATE VIEW v_hosts AS"
    "  SELECT host_id, name AS host, exit_sources, carbon_g_per_kwh,"
    "    carbon_source, ident FROM hosts;";
