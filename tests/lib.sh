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
