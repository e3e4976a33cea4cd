#!/bin/bash
# What the shell tests that check perfnav's output against itself and perf
# share (sourced by carve-check.sh, bundle.sh, export-check.sh,
# merge-check.sh): the tree (top, honouring make check's srcdir), the
# binary (PERFNAV or ./perfnav), the fixtures (data), a temporary
# directory removed at exit (tmp), the pass and fail counts with ok and ko
# (a script may define ok again to say more), and the symbol options that
# make the fixtures resolve here as where they were recorded (sym).
top=$(cd "${srcdir:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
bin=${PERFNAV:-$PWD/perfnav}
[ -x "$bin" ] || bin=$top/perfnav
data=$top/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
# shellcheck disable=SC2034  # used by the scripts that source this one
sym=(--buildid-dir "$data/buildid" --kallsyms /dev/null)

# find_pprof: pprof (the real one) into $pprof: PPROF, else built from Debian's Go sources
# when they are here (golang-go, golang-github-google-pprof-dev), else empty; a failed
# build is a ko.
find_pprof()
{
	pprof=${PPROF:-}
	if [ -z "$pprof" ] && command -v go > /dev/null && [ -d /usr/share/gocode/src/github.com/google/pprof ]; then
		if GOPATH=/usr/share/gocode GO111MODULE=off GOCACHE="$tmp/gocache" GOFLAGS=-mod=mod \
		    go build -o "$tmp/pprof" github.com/google/pprof > "$tmp/goerr" 2>&1; then
			pprof=$tmp/pprof
		else
			ko "pprof: go build failed: $(head -3 "$tmp/goerr")"
		fi
	fi
}
