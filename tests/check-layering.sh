#!/bin/bash
# Checks perfnav's layering (tui -> symbolize -> core) by grepping includes:
#   - core/ and symbolize/ include no curses header and nothing from tui/;
#   - core/ includes no libdw/libelf/libunwind/elfutils header and nothing
#     from symbolize/;
#   - tui/main.c is not a source of any library in Makefile.am (the tests
#     link the libraries and Criterion brings its own main).
# Exit status 0 when clean, 1 on any violation.  Run by `make check` (which
# exports srcdir) or directly from anywhere.
set -euo pipefail

top=${srcdir:-$(dirname "$0")/..}
if [ ! -d "$top/core" ] && [ -d "$(dirname "$0")/../core" ]; then
	top=$(dirname "$0")/..
fi
cd "$top"

violations=0
checked=0
seen=

# forbid DIR WHAT REGEX: every #include line in DIR/*.[ch] whose target
# matches REGEX (an extended regex over the text between <> or "") is a
# violation.
forbid()
{
	local dir=$1 what=$2 re=$3 f line target n=0
	[ -d "$dir" ] || return 0
	while IFS= read -r f; do
		case " $seen " in *" $f "*) ;; *) seen="$seen $f" checked=$((checked + 1)) ;; esac
		while IFS= read -r line; do
			target=$(printf '%s\n' "${line#*:}" |
				sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]*)[>"].*/\1/')
			if printf '%s\n' "$target" | grep -qE "$re"; then
				echo "layering: $f:${line%%:*}: includes <$target> ($what)"
				n=$((n + 1))
			fi
		done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$f" || true)
	done < <(find "$dir" -type f \( -name '*.c' -o -name '*.h' \) | sort)
	violations=$((violations + n))
	echo "layering: $dir/ has no $what includes: $([ "$n" -eq 0 ] && echo ok || echo "$n violation(s)")"
}

CURSES='^(n?curses(w)?/|curses\.h$|ncurses(w)?\.h$|ncurses_dll\.h$|term\.h$|termcap\.h$|panel\.h$|menu\.h$|form\.h$|unctrl\.h$)'
TUI='(^|/)tui/'
DW='^(elfutils/|libdw\.h$|libdwfl\.h$|libdwelf\.h$|dwarf\.h$|libelf\.h$|gelf\.h$|nlist\.h$|libunwind|unwind\.h$)'
SYMBOLIZE='(^|/)symbolize/'

forbid core curses "$CURSES"
forbid core tui "$TUI"
forbid core "libdw/libelf/libunwind" "$DW"
forbid core symbolize "$SYMBOLIZE"
forbid symbolize curses "$CURSES"
forbid symbolize tui "$TUI"

# tui/main.c must not be a source of any library (lib*_a_SOURCES or
# lib*_la_SOURCES, including continuation lines).
if [ -f Makefile.am ]; then
	libs=$(awk '
		/^[A-Za-z0-9_]+_l?a_SOURCES[[:space:]]*\+?=/ { inlib = 1; name = $1 }
		/^[A-Za-z0-9_]+_SOURCES[[:space:]]*\+?=/ && !/_l?a_SOURCES/ { inlib = 0 }
		inlib { for (i = 1; i <= NF; i++) if ($i == "tui/main.c") print name }
		!/\\$/ { inlib = 0 }
	' Makefile.am)
	if [ -n "$libs" ]; then
		for l in $libs; do
			echo "layering: Makefile.am: tui/main.c is a source of $l"
			violations=$((violations + 1))
		done
	else
		echo "layering: tui/main.c is in no library: ok"
	fi
fi

echo "layering: $checked files checked, $violations violations"
[ "$violations" -eq 0 ]
