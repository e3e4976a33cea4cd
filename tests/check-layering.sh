#!/bin/bash
# Checks perfnav's layering (tui -> symbolize -> core) by reading includes:
#   - core/ includes nothing from symbolize/ or tui/, no curses header and no
#     libdw/libelf/libunwind/elfutils or libtraceevent header;
#   - symbolize/ (symbolize/pt/ included) includes no curses header and
#     nothing from tui/;
#   - tui/cmd/ (the text subcommands, built as libpncmd.a without curses
#     flags) includes no curses header and nothing from tui/ outside tui/cmd/;
#   - nothing outside core/ includes a core-private header, core/*_int.h
#     (struct session is opaque outside core/: core/session_int.h);
#   - Intel PT (symbolize/pt/) is reached from the rest of symbolize/ only
#     through the chain sources (symbolize/chainsrc.c);
#   - the histogram's private parts (symbolize/hist_impl.h) are its own:
#     neither Intel PT (symbolize/pt/, a source of samples at its edge,
#     through hist_add) nor tui/ includes them;
#   - code outside core/ reads the record index through index_ent(), never
#     its array (ix->v, session_index(...)->v);
#   - tui/main.c is not a source of any library in Makefile.am (the tests
#     link the libraries and Criterion brings its own main);
#   - the path of a sample (docs/architecture.md) goes one way: the walk
#     (symbolize/hist_walk.c) calls the keys and the entries (hist_keys.c,
#     hist.c) only through hist_take, the keys call the entries only through
#     hist_add_keys, hist_add_delivery and hist_add_totals and never the
#     walk, and the entries call neither back but for the string table
#     (hist_intern, hist_str) and the walk's teardown (hist_walk_drop).
# An include is resolved as the compiler does: "x.h" next to the including
# file first, then from the top of the tree (-I$(top_srcdir)); one that
# names no file of the tree is judged by its text (a system header).
#
# Usage: tests/check-layering.sh [TOP]   (default: $srcdir, else the tree
# this script is in).  Exit status 0 when clean, 1 on any violation, 2 when
# TOP is not a perfnav tree.  Run by `make check` (which exports srcdir).
# One grep over the tree and one awk: well under a second.
set -euo pipefail

if [ $# -gt 0 ]; then
	top=$1
else
	top=${srcdir:-$(dirname "$0")/..}
	if [ ! -d "$top/core" ] && [ -d "$(dirname "$0")/../core" ]; then
		top=$(dirname "$0")/..
	fi
fi
cd "$top" || exit 2
[ -d core ] || { echo "layering: $top has no core/" >&2; exit 2; }

dirs=()
for d in core symbolize tui; do
	[ -d "$d" ] && dirs+=("$d")
done

# Every source file of the layers (for resolving includes and the count),
# then every include line, as "FILE:LINE:TEXT"; the awk below judges them.
{
	find "${dirs[@]}" -type f \( -name '*.c' -o -name '*.h' \) -printf 'FILE %p\n' | LC_ALL=C sort
	grep -rnE --include='*.c' --include='*.h' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "${dirs[@]}" | LC_ALL=C sort -t: -k1,1 -k2,2n || true
	# tui/main.c in a library: lib*_a_SOURCES / lib*_la_SOURCES, continuation lines included.
	if [ -f Makefile.am ]; then
		awk '
			/^[A-Za-z0-9_]+_l?a_SOURCES[[:space:]]*\+?=/ { inlib = 1; name = $1 }
			/^[A-Za-z0-9_]+_SOURCES[[:space:]]*\+?=/ && !/_l?a_SOURCES/ { inlib = 0 }
			inlib { for (i = 1; i <= NF; i++) if ($i == "tui/main.c") print "MAINLIB " name }
			!/\\$/ { inlib = 0 }
		' Makefile.am
		echo "MAKEFILE"
	fi
} | awk '
# normalize("a/b/../c/./d.h") = "a/c/d.h"
function normalize(p,    n, i, k, part, out, res) {
	n = split(p, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "" || part[i] == ".")
			continue
		if (part[i] == ".." && k > 0 && out[k] != "..") {
			k--
			continue
		}
		out[++k] = part[i]
	}
	res = ""
	for (i = 1; i <= k; i++)
		res = res (i > 1 ? "/" : "") out[i]
	return res
}

function dirname(p) {
	if (p !~ /\//)
		return ""
	sub(/\/[^\/]*$/, "", p)
	return p
}

function violation(file, line, target, what) {
	printf "layering: %s:%s: includes <%s> (%s)\n", file, line, target, what
	count[what]++
	total++
}

BEGIN {
	CURSES = "^(n?curses(w)?/|curses\\.h$|ncurses(w)?\\.h$|ncurses_dll\\.h$|term\\.h$|termcap\\.h$|panel\\.h$|menu\\.h$|form\\.h$|unctrl\\.h$)"
	DW = "^(elfutils/|libdw\\.h$|libdwfl\\.h$|libdwelf\\.h$|dwarf\\.h$|libelf\\.h$|gelf\\.h$|nlist\\.h$|libunwind|unwind\\.h$|traceevent/|event-parse\\.h$|trace-seq\\.h$)"
	# The rules, in the order they are reported: "layer|what".
	nrules = 0
	rule[++nrules] = "core|curses"
	rule[++nrules] = "core|tui"
	rule[++nrules] = "core|symbolize"
	rule[++nrules] = "core|libdw/libelf/libunwind"
	rule[++nrules] = "symbolize|curses"
	rule[++nrules] = "symbolize|tui"
	rule[++nrules] = "tui/cmd|curses"
	rule[++nrules] = "tui/cmd|tui outside tui/cmd"
	rule[++nrules] = "symbolize|core-private (core/*_int.h)"
	rule[++nrules] = "tui|core-private (core/*_int.h)"
	rule[++nrules] = "symbolize|Intel PT (symbolize/pt/) but in chainsrc.c"
	rule[++nrules] = "symbolize/pt|hist-private (symbolize/hist_impl.h)"
	rule[++nrules] = "tui|hist-private (symbolize/hist_impl.h)"
}

$1 == "FILE" {
	exists[$2] = 1
	files++
	next
}

$1 == "MAINLIB" {
	print "layering: Makefile.am: tui/main.c is a source of " $2
	mainlib++
	total++
	next
}

$1 == "MAKEFILE" {
	makefile = 1
	next
}

{
	# FILE:LINE:TEXT (the text may hold colons)
	file = $0
	sub(/:.*/, "", file)
	rest = substr($0, length(file) + 2)
	line = rest
	sub(/:.*/, "", line)
	text = substr(rest, length(line) + 2)
	if (!match(text, /include[[:space:]]*[<"][^>"]*[>"]/))
		next
	inc = substr(text, RSTART, RLENGTH)
	sub(/^include[[:space:]]*/, "", inc)
	quoted = substr(inc, 1, 1) == "\""
	target = substr(inc, 2, length(inc) - 2)

	# Resolve as the compiler would.
	here = normalize(dirname(file) "/" target)
	fromtop = normalize(target)
	if (quoted && (here in exists))
		path = here
	else if (fromtop in exists)
		path = fromtop
	else if (target ~ /^\.\.?\//)
		path = here
	else
		path = target

	if (file !~ /^core\// && path ~ /^core\/[^\/]*_int\.h$/) {
		layer = file
		sub(/\/.*/, "", layer)
		violation(file, line, target, layer "|core-private (core/*_int.h)")
	}
	if (file ~ /^symbolize\/[^\/]*$/ && file != "symbolize/chainsrc.c" && path ~ /^symbolize\/pt\//)
		violation(file, line, target, "symbolize|Intel PT (symbolize/pt/) but in chainsrc.c")
	if (path == "symbolize/hist_impl.h" && file ~ /^symbolize\/pt\//)
		violation(file, line, target, "symbolize/pt|hist-private (symbolize/hist_impl.h)")
	if (path == "symbolize/hist_impl.h" && file ~ /^tui\//)
		violation(file, line, target, "tui|hist-private (symbolize/hist_impl.h)")
	if (file ~ /^core\//) {
		if (target ~ CURSES) violation(file, line, target, "core|curses")
		if (path ~ /^tui\//) violation(file, line, target, "core|tui")
		if (path ~ /^symbolize\//) violation(file, line, target, "core|symbolize")
		if (target ~ DW) violation(file, line, target, "core|libdw/libelf/libunwind")
	} else if (file ~ /^symbolize\//) {
		if (target ~ CURSES) violation(file, line, target, "symbolize|curses")
		if (path ~ /^tui\//) violation(file, line, target, "symbolize|tui")
	} else if (file ~ /^tui\/cmd\//) {
		if (target ~ CURSES) violation(file, line, target, "tui/cmd|curses")
		if (path ~ /^tui\// && path !~ /^tui\/cmd\//)
			violation(file, line, target, "tui/cmd|tui outside tui/cmd")
	}
}

END {
	for (i = 1; i <= nrules; i++) {
		split(rule[i], r, "|")
		n = count[rule[i]] + 0
		printf "layering: %s/ has no %s includes: %s\n", r[1], r[2], \
		    n == 0 ? "ok" : n " violation(s)"
	}
	if (makefile && !mainlib)
		print "layering: tui/main.c is in no library: ok"
	printf "layering: %d files checked, %d violations\n", files, total
	exit total > 0
}
' || status=$?
status=${status:-0}

# The path of a sample: CALLER may call, of the functions FILE defines
# (at the start of a line), only those listed.
defined() { grep -oE '^[a-z_0-9]+\(' "$1" | tr -d '(' | sort -u; }
one_way()
{
	local caller=$1 file=$2 allowed=$3 names
	[ -f "$caller" ] && [ -f "$file" ] || return 0
	names=$(defined "$file" | grep -vxE "${allowed:-^$}" | paste -sd' ' -)
	[ -n "$names" ] || return 0
	awk -v names="$names" -v caller="$caller" -v file="$file" '
	BEGIN { n = split(names, v, " "); for (i = 1; i <= n; i++) want[v[i]] = 1 }
	{
		line = $0
		# comments out (they may name anything)
		if (incom) { if (sub(/^.*\*\//, "", line)) incom = 0; else next }
		gsub(/\/\*([^*]|\*[^\/])*\*\//, "", line)
		if (sub(/\/\*.*$/, "", line)) incom = 1
		while (match(line, /[a-z_0-9]+\(/)) {
			name = substr(line, RSTART, RLENGTH - 1)
			if (name in want)
				printf "layering: %s:%d: calls %s() of %s against the path of a sample\n", caller, FNR, name, file
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$caller"
}
paths=$( {
	one_way symbolize/hist_walk.c symbolize/hist_keys.c 'hist_take'
	one_way symbolize/hist_walk.c symbolize/hist.c ''
	one_way symbolize/hist_keys.c symbolize/hist.c 'hist_add_keys|hist_add_delivery|hist_add_totals'
	one_way symbolize/hist_keys.c symbolize/hist_walk.c ''
	one_way symbolize/hist.c symbolize/hist_keys.c 'hist_intern|hist_str'
	one_way symbolize/hist.c symbolize/hist_walk.c 'hist_walk_drop'
} )
if [ -n "$paths" ]; then
	printf '%s\n' "$paths"
	echo "layering: the path of a sample goes one way: $(printf '%s\n' "$paths" | wc -l) violation(s)"
	status=1
else
	echo "layering: the path of a sample goes one way: ok"
fi

# The index's array outside core/: only index_ent() reads it.
arr=$(grep -rnE --include='*.c' --include='*.h' '(\<ix|session_index\([^)]*\))->(v|lv|who)\>' \
	$(for d in symbolize tui; do [ -d "$d" ] && echo "$d"; done) 2>/dev/null || true)
if [ -n "$arr" ]; then
	printf '%s\n' "$arr" | sed 's/^/layering: the index array outside core\/: /'
	echo "layering: code outside core/ reads the index through index_ent: $(printf '%s\n' "$arr" | wc -l) violation(s)"
	status=1
else
	echo "layering: code outside core/ reads the index through index_ent: ok"
fi
exit "$status"
