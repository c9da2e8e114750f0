#!/bin/sh
# Prints the Debian package names of the lists given (scripts/packages/*.txt):
# one name a line; blank lines and '#' comments dropped. Plain sh: the
# Dockerfile runs it in a bare Debian image too.
set -eu
sed -e 's/#.*//' -e 's/[[:space:]]//g' "$@" | grep -v '^$'
