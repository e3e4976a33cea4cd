#!/bin/bash
# Proves tests/check-layering.sh catches each of its rules: builds a small
# clean tree in a temporary directory (the check must pass on it), then, for
# each rule, a copy with exactly one violation (the check must fail, name the
# file and line, and count the violation under that rule and no other).
# Also checks includes the rules allow are not reported.  Run by `make check`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
check=$here/check-layering.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
cases=0

fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# A clean tree: every layer, the includes each one may have.
clean=$tmp/clean
mkdir -p "$clean"/{core,symbolize/pt,tui/cmd,tui/pane}
cat >"$clean/core/core.h" <<'EOF'
#include <stdint.h>
EOF
cat >"$clean/core/a_int.h" <<'EOF'
#include "core/core.h"
EOF
cat >"$clean/core/a.c" <<'EOF'
#include "config.h"
#include "core/core.h"
#include "core.h"
#include "core/a_int.h"
#include "a_int.h"
#include <zstd.h>
EOF
cat >"$clean/symbolize/s.h" <<'EOF'
#include "core/core.h"
EOF
cat >"$clean/symbolize/b.c" <<'EOF'
#include "config.h"
#include "symbolize/s.h"
#include "../core/core.h"
#include <elfutils/libdw.h>
#include <libunwind.h>
#include <gelf.h>
#include <traceevent/event-parse.h>
EOF
cat >"$clean/symbolize/pt/c.c" <<'EOF'
#include "symbolize/s.h"
#include "../s.h"
EOF
cat >"$clean/symbolize/hist_impl.h" <<'EOF'
#include "symbolize/s.h"
EOF
cat >"$clean/symbolize/hist.c" <<'EOF'
#include "symbolize/hist_impl.h"
void
hist_add_keys(int x)
{
	(void)hist_intern(x);	/* the string table: a service */
}
void
hist_finish(int x)
{
	(void)x;
}
EOF
# The stages of the path of a sample: the walk, the keys, the entries.
cat >"$clean/symbolize/hist_walk.c" <<'EOF'
#include "symbolize/hist_impl.h"
static void
walk(int x)
{
	hist_take(x);	/* hist_event_of() named in a comment is no call */
}
void
hist_walk_drop(void)
{
}
EOF
cat >"$clean/symbolize/hist_keys.c" <<'EOF'
#include "symbolize/hist_impl.h"
int
hist_intern(int x)
{
	return x;
}
int
hist_event_of(int a)
{
	return a;
}
void
hist_take(int x)
{
	/*
	 * hist_finish() in a comment
	 */
	hist_add_keys(hist_event_of(x));
}
EOF
cat >"$clean/tui/cmd/cmd.h" <<'EOF'
#include "symbolize/s.h"
EOF
cat >"$clean/tui/cmd/d.c" <<'EOF'
#include "config.h"
#include "tui/cmd/cmd.h"
#include "cmd.h"
#include "core/core.h"
#include "symbolize/s.h"
EOF
cat >"$clean/tui/pane.h" <<'EOF'
#include <curses.h>
EOF
cat >"$clean/tui/symbols.h" <<'EOF'
#include "symbolize/s.h"
EOF
cat >"$clean/tui/pane/p.c" <<'EOF'
#include <ncursesw/curses.h>
#include "tui/pane.h"
#include "tui/cmd/cmd.h"
EOF
cat >"$clean/tui/main.c" <<'EOF'
#include <curses.h>
#include "tui/cmd/cmd.h"
#include "tui/pane.h"
EOF
cat >"$clean/Makefile.am" <<'EOF'
noinst_LIBRARIES = libcore.a libpnui.a
libcore_a_SOURCES = core/a.c \
	symbolize/b.c symbolize/pt/c.c
libpnui_a_SOURCES = \
	tui/pane/p.c \
	tui/cmd/d.c
bin_PROGRAMS = perfnav
perfnav_SOURCES = tui/main.c
EOF

# expect_clean NAME DIR
expect_clean()
{
	local name=$1 dir=$2 out rc=0
	cases=$((cases + 1))
	out=$("$check" "$dir" 2>&1) || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: the check failed (exit $rc) on a clean tree:"
		printf '%s\n' "$out" | sed 's/^/    /'
	elif ! grep -q '^layering: [0-9]* files checked, 0 violations$' <<<"$out"; then
		fail "$name: no clean summary line"
	fi
}

# violate NAME FILE 'LINE' SUMMARY: a copy of the clean tree with LINE added
# to FILE (created when missing) must fail with one violation, reported at
# FILE and counted under SUMMARY (the start of the rule's summary line).
# The output goes to grep as a here-string: through a pipe, grep -q may
# close it before printf is done, and pipefail would count that a failure.
violate()
{
	local name=$1 file=$2 text=$3 summary=$4 dir out rc=0 nline
	cases=$((cases + 1))
	dir=$tmp/$cases
	cp -a "$clean" "$dir"
	mkdir -p "$(dirname "$dir/$file")"
	printf '%s\n' "$text" >>"$dir/$file"
	nline=$(wc -l <"$dir/$file")
	out=$("$check" "$dir" 2>&1) || rc=$?
	if [ "$rc" -ne 1 ]; then
		fail "$name: exit $rc, want 1 for: $file: $text"
		printf '%s\n' "$out" | sed 's/^/    /'
		return
	fi
	if [ "$file" = Makefile.am ]; then
		grep -q "^layering: Makefile.am: tui/main.c is a source of " <<<"$out" ||
			fail "$name: tui/main.c in a library not named"
	else
		grep -qF "layering: $file:$nline: includes <" <<<"$out" ||
			fail "$name: $file:$nline not named in: $(printf '%s\n' "$out" | head -n 3)"
	fi
	grep -q '^layering: [0-9]* files checked, 1 violations$' <<<"$out" ||
		fail "$name: not exactly one violation: $(printf '%s\n' "$out" | tail -n 1)"
	if [ -n "$summary" ]; then
		grep -qF "layering: $summary includes: 1 violation(s)" <<<"$out" ||
			fail "$name: not counted under '$summary'"
	fi
}

expect_clean "clean tree" "$clean"

violate "core includes curses" core/a.c '#include <curses.h>' "core/ has no curses"
violate "core includes ncursesw" core/core.h '#  include <ncursesw/ncurses.h>' "core/ has no curses"
violate "core includes term.h" core/a.c '#include <term.h>' "core/ has no curses"
violate "core includes tui/" core/a.c '#include "tui/symbols.h"' "core/ has no tui"
violate "core includes tui/cmd/" core/a.c '#include "tui/cmd/cmd.h"' "core/ has no tui"
violate "core includes ../tui/" core/a.c '#include "../tui/pane.h"' "core/ has no tui"
violate "core includes symbolize/" core/a.c '#include "symbolize/s.h"' "core/ has no symbolize"
violate "core includes symbolize/pt/" core/core.h '#include <symbolize/pt/x.h>' "core/ has no symbolize"
violate "core includes libdw" core/a.c '#include <elfutils/libdw.h>' "core/ has no libdw/libelf/libunwind"
violate "core includes dwarf.h" core/a.c '#include <dwarf.h>' "core/ has no libdw/libelf/libunwind"
violate "core includes libelf" core/a.c '#include <libelf.h>' "core/ has no libdw/libelf/libunwind"
violate "core includes gelf" core/a.c '#include <gelf.h>' "core/ has no libdw/libelf/libunwind"
violate "core includes libtraceevent" core/a.c '#include <traceevent/event-parse.h>' "core/ has no libdw/libelf/libunwind"
violate "core includes libunwind" core/a.c '#include <libunwind.h>' "core/ has no libdw/libelf/libunwind"
violate "core includes libunwind-ptrace" core/a.c '#include <libunwind-ptrace.h>' "core/ has no libdw/libelf/libunwind"
violate "symbolize includes curses" symbolize/b.c '#include <curses.h>' "symbolize/ has no curses"
violate "symbolize/pt includes curses" symbolize/pt/c.c '#include <ncursesw/curses.h>' "symbolize/ has no curses"
violate "symbolize header includes panel" symbolize/s.h '#include <panel.h>' "symbolize/ has no curses"
violate "symbolize includes tui/" symbolize/b.c '#include "tui/symbols.h"' "symbolize/ has no tui"
violate "symbolize/pt includes ../../tui/" symbolize/pt/c.c '#include "../../tui/pane.h"' "symbolize/ has no tui"
violate "symbolize includes tui/cmd/" symbolize/s.h '#include "tui/cmd/cmd.h"' "symbolize/ has no tui"
violate "tui/cmd includes curses" tui/cmd/d.c '#include <curses.h>' "tui/cmd/ has no curses"
violate "tui/cmd header includes ncursesw" tui/cmd/cmd.h '#include <ncursesw/ncurses.h>' "tui/cmd/ has no curses"
violate "tui/cmd includes tui/symbols.h" tui/cmd/d.c '#include "tui/symbols.h"' "tui/cmd/ has no tui outside tui/cmd"
violate "tui/cmd includes ../pane.h" tui/cmd/d.c '#include "../pane.h"' "tui/cmd/ has no tui outside tui/cmd"
violate "tui/cmd includes tui/pane/" tui/cmd/new.c '#include "tui/pane/p.h"' "tui/cmd/ has no tui outside tui/cmd"
violate "symbolize includes core/*_int.h" symbolize/b.c '#include "core/a_int.h"' "symbolize/ has no core-private (core/*_int.h)"
violate "symbolize/pt includes ../../core/*_int.h" symbolize/pt/c.c '#include "../../core/a_int.h"' "symbolize/ has no core-private (core/*_int.h)"
violate "tui/cmd includes core/*_int.h" tui/cmd/d.c '#include "core/a_int.h"' "tui/ has no core-private (core/*_int.h)"
violate "tui header includes core/*_int.h" tui/pane.h '#include <core/a_int.h>' "tui/ has no core-private (core/*_int.h)"
violate "tui/main.c includes core/*_int.h" tui/main.c '#include "core/a_int.h"' "tui/ has no core-private (core/*_int.h)"
violate "tui/main.c in a library" Makefile.am 'libpncmd_a_SOURCES = tui/cmd/d.c \
	tui/main.c' ""
violate "tui/main.c in a libtool library" Makefile.am 'libx_la_SOURCES = tui/main.c' ""

violate "symbolize includes symbolize/pt/" symbolize/hist.c '#include "symbolize/pt/x.h"' "symbolize/ has no Intel PT (symbolize/pt/) but in chainsrc.c"
violate "symbolize/pt includes hist_impl.h" symbolize/pt/c.c '#include "symbolize/hist_impl.h"' "symbolize/pt/ has no hist-private (symbolize/hist_impl.h)"
violate "tui includes hist_impl.h" tui/pane/p.c '#include "../../symbolize/hist_impl.h"' "tui/ has no hist-private (symbolize/hist_impl.h)"

# The index array read outside core/: said, and the check fails.
cases=$((cases + 1))
dir=$tmp/index-array
cp -a "$clean" "$dir"
printf '%s\n' 'static long f(void) { return (long)ix->v[0].time; }' >>"$dir/tui/pane/p.c"
rc=0
out=$("$check" "$dir" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "index array: exit $rc, want 1"
grep -qF "layering: the index array outside core/: tui/pane/p.c:" <<<"$out" ||
	fail "index array: the line not named"
grep -qF "layering: code outside core/ reads the index through index_ent: 1 violation(s)" <<<"$out" ||
	fail "index array: not counted"

# A call against the path of a sample: said with its line, and the check fails.
# against NAME FILE 'LINE' CALLEE
against()
{
	local name=$1 file=$2 text=$3 callee=$4 dir out rc=0 nline
	cases=$((cases + 1))
	dir=$tmp/path-$cases
	cp -a "$clean" "$dir"
	printf '%s\n' "$text" >>"$dir/$file"
	nline=$(wc -l <"$dir/$file")
	out=$("$check" "$dir" 2>&1) || rc=$?
	[ "$rc" -eq 1 ] || fail "$name: exit $rc, want 1"
	grep -qF "layering: $file:$nline: calls $callee() of " <<<"$out" ||
		fail "$name: $file:$nline not named in: $(grep 'path of a sample' <<<"$out" | head -n 2)"
	grep -qF "layering: the path of a sample goes one way: 1 violation(s)" <<<"$out" ||
		fail "$name: not counted once"
}
against "walk names an event" symbolize/hist_walk.c 'static int w2(void) { return hist_event_of(1); }' hist_event_of
against "walk credits an entry" symbolize/hist_walk.c 'static void w3(void) { hist_add_keys(1); }' hist_add_keys
against "keys finish the hist" symbolize/hist_keys.c 'static void k2(void) { hist_finish(1); }' hist_finish
against "keys call the walk" symbolize/hist_keys.c 'static void k3(void) { hist_walk_drop(); }' hist_walk_drop
against "entries name an event" symbolize/hist.c 'static int h2(void) { return hist_event_of(1); }' hist_event_of

echo "check-layering-test: $cases cases, $failures failed"
[ "$failures" -eq 0 ]
