#!/bin/sh
# Build the inline-chain fixture of tests/test_inline.c: build-inl.sh OUTDIR
# (C, -O2 -g: leaf() inlined into mid() inlined into outer()).
set -e
here=$(cd "$(dirname "$0")" && pwd)
${CC:-cc} -O2 -g -fno-omit-frame-pointer -o "$1/inl" "$here/inl.c"
