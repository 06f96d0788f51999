#!/bin/sh
# The PostgreSQL cluster the scripts of a test run copy (tests/run.sh,
# tests/lib-pg.sh): initdb once into directory $1 (made by mktemp -d),
# then initdb's exit status into $1/ready, 2 where PostgreSQL is not
# installed.  A script that finds no 0 there makes its own cluster.
#   usage: sh tests/pg-template.sh DIR
TRASH=
. "$(dirname "$0")/lib-pg.sh"
trap - EXIT
if pg_have; then
	pg_initdb "$1" >/dev/null 2>&1
	rc=$?
else
	rc=2
fi
echo $rc >"$1/ready.new" && mv "$1/ready.new" "$1/ready"
