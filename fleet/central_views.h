/*
 * The central views (docs/schema.md "The central store"): the published
 * interface of the central database, as the local views are of a local
 * one.  One string of statements, run by the migration runner
 * (central_schema.c) after the tables, whenever it changes; so each view
 * is created with CREATE OR REPLACE, or dropped first.
 */
#ifndef CENTRAL_VIEWS_H
#define CENTRAL_VIEWS_H

extern const char central_views_sql[];

#endif
